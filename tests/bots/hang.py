"""Never answers: says so on stderr, then sleeps for an hour at its first decision."""

import sys
import time

from misbehave import run


def bad(message):
    print("hang bot: thinking forever", file=sys.stderr, flush=True)
    time.sleep(3600)


run(bad)
