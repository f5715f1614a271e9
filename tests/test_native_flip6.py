"""flip6's native core (``envs/flip6/_native.pyx``) plays the same games as the Python engine.

The lock-step (``bench/native_flip6.py``): 500 games per player count, both cores stepped side by
side with random legal actions (legal actions and mask, every seat's observation bit for bit,
returns, termination, ``to_dict`` at every step; the generators' states at the end). Skipped when
the extension is not built (``setup.py build_ext --inplace`` or ``pip install -e .`` with Cython
and a C compiler); the build without it is checked by ``test_native_build.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bench.native_flip6 import PLAYER_COUNTS, lockstep
from cardarena.envs.core.engine import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
)
from cardarena.envs.flip6 import encoding, rules
from cardarena.envs.flip6.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the flip6 native core is not built (setup.py build_ext --inplace needs Cython and a "
    "C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.flip6 import _native
    from cardarena.envs.flip6.native import NativeFlip6Game, NativeState


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_native_core_plays_500_games_in_lock_step_with_the_python_engine(num_players):
    result = lockstep(num_players, 500, seed=31)
    assert result["games"] == 500 and result["steps"] > 500 * 20
    assert result["observations"] >= result["steps"] * num_players


def test_the_extension_has_the_rules_constants():
    assert _native.DECK_COUNTS_C == rules.DECK_COUNTS
    assert _native.FULL_DECK_C == rules.FULL_DECK
    assert _native.NUM_CARD_KINDS_C == rules.NUM_CARD_KINDS
    assert _native.OBS_SIZE_C == encoding.OBS_SIZE
    assert (rules.EXTRA_LIFE, rules.FREEZE, rules.FLIP3, rules.DOUBLE) == (7, 8, 9, 10)
    assert (rules.STAY, rules.HIT, rules.TARGET0, rules.NUM_ACTIONS) == (0, 1, 2, 8)
    assert (rules.TASK_DEAL, rules.TASK_FLIP3) == (0, 1)


def test_encode_is_the_compiled_encoder_unless_the_python_core_is_asked_for():
    assert NATIVE_AVAILABLE == (os.environ.get("CARDARENA_CORE", "native") != "python")
    assert (encoding.encode is _native.encode) == NATIVE_AVAILABLE
    code = "from cardarena.envs.flip6 import encoding as e; print(e.encode is e.encode_python)"
    for core, python in (("python", "True"), ("native", "False")):
        env = {**os.environ, "CARDARENA_CORE": core}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == python, out.stderr[-2000:]
    env = {**os.environ, "CARDARENA_CORE": "fast"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0 and "CARDARENA_CORE='fast'" in out.stderr


def test_the_compiled_encoder_refuses_a_seat_outside_the_game():
    state = rules.Flip6Game(3).new_game(np.random.default_rng(0))
    for seat in (-1, 3, 6):
        with pytest.raises(IndexError, match=f"seat {seat}"):
            _native.encode(state, seat)
    bad = rules.Flip6Game(3).new_game(np.random.default_rng(0))
    bad.discard_pile = list(range(11)) * 3
    with pytest.raises(ConfigError, match="discard_pile holds 33 cards"):
        _native.encode(bad, 0)


def test_the_native_engine_raises_the_python_engines_errors():
    py, nat = rules.Flip6Game(4), NativeFlip6Game(4)
    a, b = py.new_game(np.random.default_rng(5)), nat.new_game(np.random.default_rng(5))
    seat = py.current_player(a)
    other = (seat + 1) % 4
    for action in (7, 99, -1):
        with pytest.raises(IllegalActionError) as want:
            py.apply(a, action)
        with pytest.raises(IllegalActionError) as got:
            nat.apply(b, action)
        assert str(got.value) == str(want.value)
    with pytest.raises(OutOfTurnError):
        nat.apply(b, rules.STAY, seat=other)
    assert nat.to_dict(b) == py.to_dict(a)  # nothing changed
    while not py.is_over(a):
        action = py.legal_actions(a)[0]
        py.apply(a, action)
        nat.apply(b, action)
    with pytest.raises(GameOverError):
        nat.apply(b, rules.STAY)
    assert nat.legal_actions(b) == [] and nat.current_player(b) is None


def test_a_native_state_reads_like_a_python_state():
    py, nat = rules.Flip6Game(5), NativeFlip6Game(5)
    a, b = py.new_game(np.random.default_rng(2)), nat.new_game(np.random.default_rng(2))
    for _ in range(12):
        if py.is_over(a):
            break
        action = py.legal_actions(a)[-1]
        py.apply(a, action)
        nat.apply(b, action)
    for name in rules.Flip6State.__slots__:
        if name != "rng":
            assert getattr(b, name) == getattr(a, name), name
    assert nat.card_zones(b) == py.card_zones(a)
    assert nat.conservation_error(b) is None
    assert [nat.potential(b, s) for s in range(5)] == [py.potential(a, s) for s in range(5)]
    assert encoding.render(b, 1) == encoding.render(a, 1)
    assert encoding.view(b, 1) == encoding.view(a, 1)
    back = b.to_python()
    assert py.to_dict(back) == py.to_dict(a) and back.rng is not b.rng
    world_a = py.resample_hidden(a, 1, np.random.default_rng(9))
    world_b = nat.resample_hidden(b, 1, np.random.default_rng(9))
    assert nat.to_dict(world_b) == py.to_dict(world_a)


def test_new_game_options_and_a_bad_saved_state_go_through_the_python_engine():
    py, nat = rules.Flip6Game(3), NativeFlip6Game(3)
    options = {"deck": ["6", "6", "FLIP3"], "scores": [10, 20, 30], "dealer": 2}
    a = py.new_game(np.random.default_rng(1), options)
    b = nat.new_game(np.random.default_rng(1), options)
    assert nat.to_dict(b) == py.to_dict(a)
    data = py.to_dict(a)
    data["scores"] = [10, 20]
    with pytest.raises(ConfigError, match="scores"):
        nat.from_dict(data)
    with pytest.raises(ConfigError, match="more copies of 'FLIP3'"):
        nat.new_game(np.random.default_rng(1), {"deck": ["FLIP3", "FLIP3"]})


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_rollouts_in_one_call_are_seeded_zero_sum_and_leave_the_state_alone(num_players):
    nat = NativeFlip6Game(num_players, target_score=40)
    state = nat.new_game(np.random.default_rng(num_players))
    before = nat.to_dict(state)
    values, decisions = nat.rollouts(state, 300, seed=7)
    again, decisions_again = nat.rollouts(state, 300, seed=7)
    other, _ = nat.rollouts(state, 300, seed=8)
    assert nat.to_dict(state) == before
    assert values.shape == (300, num_players) and decisions == decisions_again > 300 * 10
    assert np.array_equal(values, again) and not np.array_equal(values, other)
    assert np.allclose(values.sum(axis=1), 0.0)
    assert set(np.round(values.max(axis=1), 6)) <= {round(1 / k, 6) for k in range(1, 7)}
    rounds, round_decisions = nat.rollouts(state, 300, seed=7, horizon="round")
    assert 0 < round_decisions < decisions
    lead = rounds.max(axis=1)  # a standing: the lead over the best other / target score
    assert np.all(lead >= 0) and np.all(np.abs(rounds) <= 1 + 100 / 40)
    assert nat.rollouts(state, 0, seed=1)[0].shape == (0, num_players)
    with pytest.raises(ConfigError, match="horizon 'turn'"):
        nat.rollouts(state, 10, seed=1, horizon="turn")
    with pytest.raises(ConfigError, match="count -1"):
        nat.rollouts(state, -1, seed=1)


def test_a_rollout_of_an_ended_game_returns_its_result():
    nat = NativeFlip6Game(3, target_score=1)
    state = nat.new_game(np.random.default_rng(0))
    while not nat.is_over(state):
        nat.apply(state, nat.legal_actions(state)[0])
    values, decisions = nat.rollouts(state, 4, seed=0)
    assert decisions == 0 and np.array_equal(values, np.tile(nat.returns(state), (4, 1)))


def test_clone_copies_the_generator_or_takes_the_one_given():
    nat = NativeFlip6Game(4)
    state = nat.new_game(np.random.default_rng(3))
    copy = nat.clone(state)
    assert copy.rng is not state.rng
    assert copy.rng.bit_generator.state == state.rng.bit_generator.state
    rng = np.random.default_rng(4)
    assert nat.clone(state, rng).rng is rng
    nat.apply(copy, nat.legal_actions(copy)[0])
    assert copy.decisions == state.decisions + 1
    assert isinstance(NativeState.from_python(nat.to_python(state)), NativeState)


@pytest.mark.parametrize("num_players", [3, 6])
def test_the_aec_env_on_the_native_engine_plays_the_python_envs_games(num_players):
    """What ``envs.make(..., core="native")`` will build: the same spec, the native engine."""
    import dataclasses

    from cardarena.envs.core.aec import CardGameEnv
    from cardarena.envs.flip6 import SPEC

    native_spec = dataclasses.replace(SPEC, engine_cls=NativeFlip6Game)
    for checks in (True, False):
        ours = CardGameEnv(native_spec, checks=checks, num_players=num_players)
        ref = CardGameEnv(SPEC, checks=checks, num_players=num_players)
        for game in range(10):
            ours.reset(seed=game)
            ref.reset(seed=game)
            rng = np.random.default_rng(game)
            for agent, want_agent in zip(ours.agent_iter(), ref.agent_iter(), strict=True):
                assert agent == want_agent
                obs, reward, term, trunc, _ = ours.last()
                want, want_reward, want_term, want_trunc, _ = ref.last()
                assert obs["observation"].tobytes() == want["observation"].tobytes()
                assert obs["action_mask"].tobytes() == want["action_mask"].tobytes()
                assert (reward, term, trunc) == (want_reward, want_term, want_trunc)
                action = None
                if not (term or trunc):
                    action = int(rng.choice(np.flatnonzero(want["action_mask"])))
                ours.step(action)
                ref.step(action)


def test_a_native_state_pickles_and_copies_as_itself():
    import copy
    import pickle

    nat = NativeFlip6Game(4)
    state = nat.new_game(np.random.default_rng(1))
    nat.apply(state, nat.legal_actions(state)[-1])
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert isinstance(other, NativeState) and other.rng is not state.rng
        assert nat.to_dict(other) == nat.to_dict(state)


def test_a_state_the_c_struct_cannot_hold_is_refused():
    py = rules.Flip6Game(4)
    state = py.new_game(np.random.default_rng(0))
    bad = py.clone(state)
    bad.status = [7, 0, 0, 0]
    for call in (lambda: NativeState.from_python(bad), lambda: _native.encode(bad, 0)):
        with pytest.raises(ConfigError, match="status is 7; allowed: 0..3"):
            call()
    extra = py.clone(state)
    extra.discard_pile = [rules.ZERO]
    with pytest.raises(ConfigError, match="the zones hold 27 cards"):
        NativeState.from_python(extra)
    assert _native.encode(extra, 0).shape == (encoding.OBS_SIZE,)  # encoding reads, never grows
    deep = py.clone(state)
    deep.stack = [(rules.TASK_FLIP3, 0, 1)] * 7
    with pytest.raises(ConfigError, match="7 pending tasks"):
        NativeState.from_python(deep)
