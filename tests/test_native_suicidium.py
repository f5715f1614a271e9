"""suicidium's native core (``envs/suicidium/_native.pyx``): the compiled encoder is the Python one,
byte for byte.

Random games of every player count and option set (``bench/native_suicidium.py``), both encoders
on every seat of every step. Skipped when the extension is not built (``setup.py build_ext
--inplace`` or ``pip install -e .`` with Cython and a C compiler); the build without it is
checked by ``test_native_build.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bench.native_suicidium import OPTION_SETS, PLAYER_COUNTS, encoder_alignment
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.suicidium import encoding, encoding_layout, rules
from cardarena.envs.suicidium.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the suicidium native core is not built (setup.py build_ext --inplace needs Cython "
    "and a C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.suicidium import _native

#: random games per player count and option set (the bench runs 300)
GAMES = 50


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['mode']}-{o['expansion']}")
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_compiled_encoder_is_the_reference_encoder_byte_for_byte(num_players, options):
    result = encoder_alignment(num_players, options, GAMES, seed=31)
    assert result["games"] == GAMES and result["steps"] > GAMES * 20
    assert result["observations"] == result["steps"] * num_players


def test_the_extension_has_the_rules_constants():
    assert _native.NUM_CARDS_C == rules.NUM_CARDS
    assert _native.OBS_SIZE_C == encoding.OBS_SIZE
    assert _native.EFFECTS_C == len(rules.EFFECT_NAMES)
    assert _native.KIND_C == rules.KIND and _native.EFFECT_C == rules.EFFECT
    assert _native.AMOUNT_C == rules.AMOUNT and _native.TARGETING_C == rules.TARGETING
    assert _native.LAYOUT_C == (
        encoding_layout.SEAT_BLOCK,
        encoding_layout.GLOBAL_SIZE,
        rules.MAX_PLAYERS,
        rules.NUM_OBJECT_TYPES,
        rules.BOOTH,
    )
    assert (rules.POINTS, rules.EVENT, rules.RESPONSE) == (0, 1, 2)
    assert (rules.E_POINTS_ONE, rules.E_POINTS_GAIN_LOSS, rules.E_SKIP_DRAW) == (0, 4, 5)
    assert (rules.E_SHIELD, rules.E_DISCARD_RANDOM, rules.E_RECOVER) == (7, 8, 14)
    assert (rules.E_CANCEL_POINTS, rules.E_DOUBLE, rules.E_STEAL_PLAYED) == (15, 18, 20)
    assert (rules.T_NONE, rules.T_ANY, rules.T_OPPONENT, rules.T_CARD) == (0, 1, 2, 3)
    assert (rules.D_NONE, rules.D_TARGET_PLAYER, rules.D_TAKE) == (0, 3, 7)
    assert (rules.PH_DRAW, rules.PH_RESOLUTION, rules.ST_WAIT, rules.ST_END_TURN) == (0, 3, 0, 8)
    assert (rules.SURVIVE, rules.DEPRESSION) == (0, 1)


def test_encode_is_the_compiled_encoder_unless_the_python_core_is_asked_for():
    assert NATIVE_AVAILABLE == (os.environ.get("CARDARENA_CORE", "native") != "python")
    assert (encoding.encode is _native.encode) == NATIVE_AVAILABLE
    code = "from cardarena.envs.suicidium import encoding as e; print(e.encode is e.encode_python)"
    for core, python in (("python", "True"), ("native", "False")):
        env = {**os.environ, "CARDARENA_CORE": core}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == python, out.stderr[-2000:]


def test_the_compiled_encoder_refuses_a_seat_outside_the_game():
    state = rules.SuicidiumGame(3).new_game(np.random.default_rng(0))
    for seat in (-1, 3, 5):
        with pytest.raises(IndexError, match=f"seat {seat}"):
            _native.encode(state, seat)


def test_the_compiled_encoder_refuses_a_state_its_struct_cannot_hold():
    game = rules.SuicidiumGame(4, expansion=True)
    state = game.new_game(np.random.default_rng(0))
    cases = [
        ("wp", [10, 10, 10, 2000], "wp is 2000"),
        ("phase", 9, "phase is 9; allowed: 0..3"),
        ("decider", 4, "decider is 4; allowed: -1..3"),
        ("hands", [[0], [1], [2], [rules.NUM_CARDS]], f"holds card {rules.NUM_CARDS}"),
        ("objects", [[0], [], [7], []], "holds object 7"),
        ("table", [[0, 0, 3, [], 0]], "target is 3; allowed: -1..-1"),
        ("table", [[0, 0, -1, [0] * 9, 0]], "at most 8"),
        ("known_by", [0] * 3, f"known_by needs {rules.NUM_CARDS} entries"),
        ("turn", "7", "turn is '7'"),
    ]
    for name, value, message in cases:
        bad = game.clone(state)
        setattr(bad, name, value)
        with pytest.raises(ConfigError, match=message):
            _native.encode(bad, 0)
    assert _native.encode(state, 0).tobytes() == encoding.encode_python(state, 0).tobytes()
