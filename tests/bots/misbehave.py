"""The shared loop of the test bots: play the first legal action, except where ``bad(message)``
misbehaves: in every game, or only in the games whose ``hello`` seed is in the file named by
``BOTS_BAD_SEEDS`` (one seed a line), so that a test picks the games that go wrong.

``BOTS_LOG`` names a file to which every message received is appended (one JSON line each).
"""

import json
import os
import sys


def run(bad):
    bad_seeds = None
    if os.environ.get("BOTS_BAD_SEEDS"):
        with open(os.environ["BOTS_BAD_SEEDS"]) as f:
            bad_seeds = {int(line) for line in f if line.strip()}
    log = open(os.environ["BOTS_LOG"], "a") if os.environ.get("BOTS_LOG") else None
    doomed = False
    for line in sys.stdin:
        message = json.loads(line)
        if log:
            log.write(line)
            log.flush()
        if message["type"] == "hello":
            doomed = bad_seeds is None or message["seed"] in bad_seeds
        elif message["type"] == "decide":
            if doomed:
                bad(message)
            else:
                print(message["legal"][0]["id"], flush=True)
        elif message["type"] == "bye":
            return
