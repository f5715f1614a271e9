"""Exits with code 3 at its first decision, a few lines on stderr first."""

import sys

from misbehave import run


def bad(message):
    print("crash bot: something broke", file=sys.stderr)
    print("crash bot: exiting with code 3", file=sys.stderr, flush=True)
    sys.exit(3)


run(bad)
