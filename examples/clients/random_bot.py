"""A cardarena player in a few lines: read JSON lines, answer each decision with a legal id.

    python evaluate.py --game flip6 --agents 'exec:python3 examples/clients/random_bot.py' ev threshold random

The protocol is docs/protocol.md; this uses only the standard library.
"""

import json
import random
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":  # a new game: seat, seed, limits
        rng = random.Random(message["seed"])
    elif message["type"] == "decide":  # answer one line: an action id (or its text)
        print(rng.choice(message["legal"])["id"], flush=True)
    elif message["type"] == "bye":
        break
