"""Answers what is no action: ``garbage.py text`` a sentence, ``garbage.py json`` broken JSON,
``garbage.py bytes`` bytes that are not UTF-8."""

import sys

from misbehave import run

how = sys.argv[1] if len(sys.argv) > 1 else "text"


def bad(message):
    if how == "text":
        print("I think I will take the banana", flush=True)
    elif how == "json":
        print('{"action": ', flush=True)
    else:
        sys.stdout.buffer.write(b"\xff\xfe\x00garbage\n")
        sys.stdout.flush()


run(bad)
