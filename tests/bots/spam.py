"""Floods its output: ``spam.py line`` writes 8 MB with no newline, ``spam.py lines`` answers
with a thousand lines at once."""

import sys

from misbehave import run

how = sys.argv[1] if len(sys.argv) > 1 else "line"


def bad(message):
    if how == "line":
        for _ in range(128):
            sys.stdout.write("7" * 65536)
        sys.stdout.flush()
    else:
        sys.stdout.write(f"{message['legal'][0]['id']}\n" * 1000)
        sys.stdout.flush()


run(bad)
