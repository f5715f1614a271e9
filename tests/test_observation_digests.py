"""Every encoder still gives the observations it gave when the digests were recorded.

Checkpoints depend on the exact observation vectors: ``tests/golden/observations.py`` says what
is hashed (every seat's ``encode`` bytes at random points of seeded random games, with ``view``
and ``render`` on a third of them) for every game, player count and encoding option. A speed
change of an ``encoding.py`` must leave every digest as recorded; an intended change of an
observation records them anew (``python tests/golden/observations.py --write``) and retrains or
re-checks the zoo (``tests/test_zoo_logits.py``).
"""

from __future__ import annotations

import copy
import hashlib
import json

import numpy as np
import pytest
from golden.observations import GOLDEN, configs, first_difference, key, state_digests

from cardarena import envs

_GOLDEN = json.loads(GOLDEN.read_text())


@pytest.mark.parametrize(("name", "n", "options"), configs(), ids=[key(*c) for c in configs()])
def test_observations_match_the_golden_digests(name, n, options):
    recorded = _GOLDEN.get(key(name, n, options))
    assert recorded, f"no digests recorded for {key(name, n, options)}"
    difference = first_difference(recorded, state_digests(name, n, options))
    assert difference is None, f"{key(name, n, options)}: {difference}"


def test_thegame_inconsistent_state_keeps_its_observation():
    """thegame builds its card vectors from bitmasks; a state no game reaches (a card both in a
    hand and on a pile) takes the per-element arithmetic and still gives the recorded bits (on a
    Python state: the test writes its fields)."""
    spec = envs.get_spec("thegame")
    engine = spec.make_engine(core="python", num_players=2)
    state = engine.new_game(np.random.default_rng(3))
    odd = copy.deepcopy(state)
    odd.piles[0].append(odd.hands[0][0])
    digest = hashlib.sha256()
    for s in (state, odd):
        for seat in range(2):
            digest.update(spec.encode(s, seat).tobytes())
    assert digest.hexdigest()[:16] == "ea0f0b32281e7b95"
