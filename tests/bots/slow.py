"""Answers right, but takes SECONDS (argument, default 1) for each answer."""

import sys
import time

from misbehave import run

delay = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


def bad(message):
    time.sleep(delay)
    print(message["legal"][0]["id"], flush=True)


run(bad)
