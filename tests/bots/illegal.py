"""Answers an action that is not legal: ``illegal.py id`` an id outside the legal list,
``illegal.py text`` the text of an action that is not legal now (or a made-up one)."""

import sys

from misbehave import run

how = sys.argv[1] if len(sys.argv) > 1 else "id"


def bad(message):
    legal = {a["id"] for a in message["legal"]}
    if how == "id":
        print(next(i for i in range(10_000) if i not in legal), flush=True)
    else:
        print('{"action": 99999}', flush=True)


run(bad)
