"""ratatat's native core (``envs/ratatat/_native.pyx``) against the Python reference.

The compiled encoder gives every seat's observation byte for byte as ``encoding.encode_python``
does, on every step of random games of every player count and option set. Skipped when the
extension is not built (``setup.py build_ext --inplace`` or ``pip install -e .`` with Cython and a
C compiler); the build without it is checked by ``test_native_build.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from cardarena.envs.core.engine import ConfigError
from cardarena.envs.ratatat import encoding, rules
from cardarena.envs.ratatat.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the ratatat native core is not built (setup.py build_ext --inplace needs Cython and "
    "a C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.ratatat import _native

PLAYER_COUNTS = (2, 3, 4, 5, 6)
#: the manifest's option sets (every memory mode, the R12 cap with two rounds), one round each
#: unless the set says otherwise (the encoder is exercised the same; games are shorter)
OPTION_SETS = (
    {"memory": "perfect_recall", "num_rounds": 1},
    {"memory": "none", "num_rounds": 1},
    {"memory": "seer", "num_rounds": 1},
    {"max_turns": 6, "num_rounds": 2},
)


def test_the_extension_has_the_rules_and_encoder_constants():
    assert _native.DECK_COUNTS_C == rules.DECK_COUNTS
    assert _native.FULL_DECK_C == rules.FULL_DECK
    assert _native.NUM_CARD_KINDS_C == rules.NUM_CARD_KINDS
    assert _native.NUM_ACTIONS_C == rules.NUM_ACTIONS
    assert _native.OBS_SIZE_C == encoding.OBS_SIZE
    assert _native.SPECIAL_SHARE_C == encoding._SPECIAL_SHARE
    assert (rules.SWAP_CARD, rules.PEEK_CARD, rules.DRAW_TWO_CARD) == (10, 11, 12)
    actions = (rules.TAKE_DISCARD, rules.DRAW, rules.SLOT0, rules.DISCARD, rules.USE)
    assert actions == (0, 1, 2, 6, 7)
    actions = (rules.REDRAW, rules.PEEK0, rules.KNOCK, rules.NO_KNOCK, rules.SWAP0)
    assert actions == (8, 9, 13, 14, 15)
    assert (rules.PERFECT_RECALL, rules.NO_MEMORY, rules.SEER) == (0, 1, 2)
    assert (rules.TURN, rules.TAKE_SLOT, rules.DRAWN, rules.DRAW_TWO_EXTRA) == (1, 2, 3, 4)
    assert (rules.SWAP_TARGET, rules.PEEK_SLOT, rules.KNOCK_CHOICE) == (5, 6, 7)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_compiled_encoder_is_byte_identical_on_every_seat_of_every_step(num_players):
    observations = 0
    for k, options in enumerate(OPTION_SETS):
        for g in range(60):
            game = rules.RatatatGame(num_players, first_dealer=g % num_players, **options)
            state = game.new_game(np.random.default_rng([num_players, k, g]))
            plan = np.random.default_rng([num_players, k, g, 1])
            while True:
                for seat in range(num_players):
                    want = encoding.encode_python(state, seat).tobytes()
                    got = _native.encode(state, seat)
                    assert got.dtype == np.float32 and got.shape == (encoding.OBS_SIZE,)
                    if got.tobytes() != want:
                        x, y = np.frombuffer(want, np.float32), got
                        where = np.flatnonzero(x != y)
                        raise AssertionError(f"{options} game {g} seat {seat}: differs at {where}")
                    observations += 1
                if game.is_over(state):
                    break
                legal = game.legal_actions(state)
                game.apply(state, legal[int(plan.integers(len(legal)))])
    assert observations > 240 * 8 * num_players


def test_encode_is_the_compiled_encoder_unless_the_python_core_is_asked_for():
    assert NATIVE_AVAILABLE == (os.environ.get("CARDARENA_CORE", "native") != "python")
    assert (encoding.encode is _native.encode) == NATIVE_AVAILABLE
    code = "from cardarena.envs.ratatat import encoding as e; print(e.encode is e.encode_python)"
    for core, python in (("python", "True"), ("native", "False")):
        env = {**os.environ, "CARDARENA_CORE": core}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == python, out.stderr[-2000:]


def test_the_compiled_encoder_refuses_a_seat_outside_the_game_and_a_bad_state():
    state = rules.RatatatGame(3).new_game(np.random.default_rng(0))
    for seat in (-1, 3, 6):
        with pytest.raises(IndexError, match=f"seat {seat}"):
            _native.encode(state, seat)
    bad = rules.RatatatGame(3).new_game(np.random.default_rng(0))
    bad.discard_pile = list(range(13)) * 6
    with pytest.raises(ConfigError, match="discard_pile holds 78 cards"):
        _native.encode(bad, 0)
    bad = rules.RatatatGame(3).new_game(np.random.default_rng(0))
    bad.slots = bad.slots[:-1]
    with pytest.raises(ConfigError, match="slots has 11 entries; allowed: exactly 12"):
        _native.encode(bad, 0)
    bad = rules.RatatatGame(3).new_game(np.random.default_rng(0))
    bad.held = 13
    with pytest.raises(ConfigError, match="held is 13"):
        _native.encode(bad, 0)
