"""sevn's native core (``envs/sevn/_native.pyx``) encodes and plays as the Python engine does.

* The compiled encoder against the reference (``encoding.encode_python``): every seat of every
  step of random games on the Python engine, per player count and option set of the manifest.
Skipped when the extension is not built (``setup.py build_ext --inplace`` or ``pip install -e .``
with Cython and a C compiler).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bench.native_sevn import PLAYER_COUNTS, encoder_games
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.sevn import encoding, rules
from cardarena.envs.sevn.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the sevn native core is not built (setup.py build_ext --inplace needs Cython and a "
    "C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.sevn import _native


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("target_score", [250, 60])  # the manifest's option_sets
def test_the_compiled_encoder_is_byte_identical_to_the_reference(num_players, target_score):
    result = encoder_games(num_players, 200, target_score, seed=13)
    assert result["games"] == 200 and result["observations"] > 200 * num_players * 10


def test_the_extension_has_the_rules_constants():
    from cardarena.envs.sevn.encoding_tables import KEPT_BIT

    assert _native.CARD_VALUE_C == rules.CARD_VALUE
    assert _native.DECK_COUNTS_C == rules.DECK_COUNTS
    assert _native.FULL_DECK_C == rules.FULL_DECK
    assert _native.KEPT_BIT_C == KEPT_BIT
    assert _native.NUM_CARD_KINDS_C == rules.NUM_CARD_KINDS
    assert _native.NUM_ACTIONS_C == rules.NUM_ACTIONS
    assert _native.OBS_SIZE_C == encoding.OBS_SIZE
    assert (rules.X2, rules.LAST_MODIFIER, rules.FREEZE, rules.SECOND_CHANCE) == (17, 22, 23, 24)
    assert (rules.FLIP_THREE, rules.FORK, rules.STORM) == (25, 26, 27)
    assert (rules.FEATHERWEIGHT, rules.HEAVYWEIGHT, rules.STRAIGHT) == (28, 29, 30)
    assert (rules.TARGET0, rules.FORK0, rules.KEEP, rules.DISCARD) == (2, 10, 12, 13)
    assert rules.DECISION_NAMES[rules.KEEP_BALLAST] == "ballast" and rules.NUM_DECISIONS == 7
    assert (encoding.SEAT_BLOCK, encoding.QUEUE_SHOWN) == (44, 4)


def test_encode_is_the_compiled_encoder_unless_the_python_core_is_asked_for():
    assert NATIVE_AVAILABLE == (os.environ.get("CARDARENA_CORE", "native") != "python")
    assert (encoding.encode is _native.encode) == NATIVE_AVAILABLE
    code = "from cardarena.envs.sevn import encoding as e; print(e.encode is e.encode_python)"
    for core, python in (("python", "True"), ("native", "False")):
        env = {**os.environ, "CARDARENA_CORE": core}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == python, out.stderr[-2000:]


def test_a_row_scoring_zero_loses_minus_zero_points_in_both_encoders():
    """The -0.0 of a held number when the hand scores 0 (``encoding_rows``) survives compiling."""
    state = rules.SevnGame(2).new_game(np.random.default_rng(0), {"deck": ["1", "0"]})
    assert state.table == [[0], [1]] and state.status == [rules.IN_HAND] * 2
    want = encoding.encode_python(state, 0)
    got = _native.encode(state, 0)
    assert got.tobytes() == want.tobytes()
    at = 8 * encoding.SEAT_BLOCK + 7 + 62 + 32 + 3 + 31 + 31 + 15 + 1  # "my next card", card 0
    assert got[at] == 0.0 and np.signbit(got[at]) and not np.signbit(got[at + 1])


def test_the_compiled_encoder_refuses_a_seat_outside_the_game_and_a_bad_state():
    state = rules.SevnGame(3).new_game(np.random.default_rng(0))
    for seat in (-1, 3, 8):
        with pytest.raises(IndexError, match=f"seat {seat}"):
            _native.encode(state, seat)
    bad = rules.SevnGame(3).new_game(np.random.default_rng(0))
    bad.discard_pile = list(range(31)) * 4
    with pytest.raises(ConfigError, match="discard_pile holds 124 cards"):
        _native.encode(bad, 0)
    bad = rules.SevnGame(3).new_game(np.random.default_rng(0))
    bad.table[1] = [31]
    with pytest.raises(ConfigError, match=r"table\[1\] holds card 31; allowed: 0..30"):
        _native.encode(bad, 0)
