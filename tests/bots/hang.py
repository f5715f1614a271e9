"""Never answers: sleeps for an hour at its first decision."""

import time

from misbehave import run

run(lambda message: time.sleep(3600))
