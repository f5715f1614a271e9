"""thegame's native core (``envs/thegame/_native.pyx``) gives the Python core's observations.

The compiled encoder against the reference ``encoding.encode_python`` on every seat of every step
of random games, for every player count and option set of the manifest; states no game reaches
take the reference encoder. Skipped when the extension is not built (``setup.py build_ext
--inplace`` or ``pip install -e .`` with Cython and a C compiler); the build without it is checked
by ``test_native_build.py``.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.thegame import encoding, rules
from cardarena.envs.thegame.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the thegame native core is not built (setup.py build_ext --inplace needs Cython and "
    "a C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.thegame import _native

PLAYER_COUNTS = (1, 2, 3, 4, 5)
OPTION_SETS = envs.get_spec("thegame").option_sets


def test_the_extension_has_the_rules_constants():
    assert _native.OBS_SIZE_C == encoding.OBS_SIZE
    assert _native.NUM_ACTIONS_C == rules.NUM_ACTIONS
    assert (_native.END_C, _native.SIGNAL0_C) == (rules.END, rules.SIGNAL0)
    assert _native.FOUNDATIONS_C == rules.FOUNDATIONS
    assert _native.HAND_SIZES_C == rules.HAND_SIZES
    assert (rules.LOWEST, rules.HIGHEST, rules.NUM_PILES, rules.MIN_CARDS) == (2, 99, 4, 2)
    assert (rules.BACKWARDS_STEP, rules.MAX_PLAYERS) == (10, 5)
    assert (encoding.PILE_BLOCK, encoding.SEAT_BLOCK) == (9, 13)


def test_encode_is_the_compiled_encoder_unless_the_python_core_is_asked_for():
    assert NATIVE_AVAILABLE == (os.environ.get("CARDARENA_CORE", "native") != "python")
    assert (encoding.encode is _native.encode) == NATIVE_AVAILABLE
    code = "from cardarena.envs.thegame import encoding as e; print(e.encode is e.encode_python)"
    for core, python in (("python", "True"), ("native", "False")):
        env = {**os.environ, "CARDARENA_CORE": core}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == python, out.stderr[-2000:]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_compiled_encoder_gives_the_reference_bytes_on_every_seat_of_random_games(
    num_players,
):
    observations = 0
    for k, options in enumerate(OPTION_SETS):
        py = rules.TheGame(num_players, first_player=k % num_players, **options)
        for g in range(200):
            plan = np.random.default_rng([num_players, k, g])
            state = py.new_game(np.random.default_rng([num_players, k, g, 1]))
            while True:
                for seat in range(num_players):
                    want = encoding.encode_python(state, seat).tobytes()
                    got = _native.encode(state, seat)
                    assert got.dtype == np.float32 and got.tobytes() == want, (options, g, seat)
                    observations += 1
                if py.is_over(state):
                    break
                legal = py.legal_actions(state)
                py.apply(state, legal[int(plan.integers(len(legal)))])
    assert observations > 800 * 10 * num_players


def test_a_state_no_game_reaches_takes_the_reference_encoder():
    py = rules.TheGame(3, signals=True)
    state = py.new_game(np.random.default_rng(4))
    odd_states = []
    for change in (
        lambda s: s.piles[0].append(s.hands[0][0]),  # a card in the hand and on a pile
        lambda s: s.piles[1].extend([50, 50]),  # a card twice
        lambda s: s.hands[0].append(1),  # not a card
        lambda s: s.hands[0].append(np.int64(50)),  # a numpy int
        lambda s: s.hands.__setitem__(1, list(range(2, 12))),  # a hand the struct cannot hold
        lambda s: setattr(s, "over", 1),  # truthy, not a bool
        lambda s: s.signals[2].__setitem__(0, 1.0),
    ):
        odd = copy.deepcopy(state)
        change(odd)
        odd_states.append(odd)
    for odd in odd_states:
        for seat in range(3):
            try:
                want = encoding.encode_python(odd, seat).tobytes()
            except Exception as err:  # the reference's own error, unchanged
                with pytest.raises(type(err)):
                    _native.encode(odd, seat)
            else:
                assert _native.encode(odd, seat).tobytes() == want
    for seat in (-1, -3, np.int64(2)):  # seats as the reference reads them
        assert (
            _native.encode(state, seat).tobytes() == encoding.encode_python(state, seat).tobytes()
        )
    with pytest.raises(IndexError):
        _native.encode(state, 3)
