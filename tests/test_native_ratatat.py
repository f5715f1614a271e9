"""ratatat's native core (``envs/ratatat/_native.pyx``) plays the same games as the Python engine.

The lock-step (``bench/native_ratatat.py``): 500 games per player count over the memory modes,
turn caps, round counts, first dealers and ``new_game`` options, both cores stepped side by side
with random legal actions (legal actions and mask, every seat's observation bit for bit, returns,
termination, ``to_dict`` at every step; the generators' states at the end). The compiled encoder
gives every seat's observation byte for byte as ``encoding.encode_python`` does, on every step of
random games of every player count and option set. Skipped when the
extension is not built (``setup.py build_ext --inplace`` or ``pip install -e .`` with Cython and a
C compiler); the build without it is checked by ``test_native_build.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bench.native_ratatat import PLAYER_COUNTS, lockstep
from cardarena.envs.core.engine import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
)
from cardarena.envs.ratatat import encoding, rules
from cardarena.envs.ratatat.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the ratatat native core is not built (setup.py build_ext --inplace needs Cython and "
    "a C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.ratatat import _native
    from cardarena.envs.ratatat.native import NativeRatatatGame, NativeState

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


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_native_core_plays_500_games_in_lock_step_with_the_python_engine(num_players):
    result = lockstep(num_players, 500, seed=31, short=True)
    assert result["games"] == 500 and result["steps"] > 500 * 6
    assert result["observations"] >= result["steps"] * num_players


def _play_to(game, state, steps, pick=-1):
    for _ in range(steps):
        if game.is_over(state):
            break
        game.apply(state, game.legal_actions(state)[pick])


def test_the_native_engine_raises_the_python_engines_errors():
    py, nat = rules.RatatatGame(4), NativeRatatatGame(4)
    a, b = py.new_game(np.random.default_rng(5)), nat.new_game(np.random.default_rng(5))
    seat = py.current_player(a)
    other = (seat + 1) % 4
    for action in (rules.KNOCK, rules.SLOT0, 111, 999, -1):
        with pytest.raises(IllegalActionError) as want:
            py.apply(a, action)
        with pytest.raises(IllegalActionError) as got:
            nat.apply(b, action)
        assert str(got.value) == str(want.value)
    with pytest.raises(OutOfTurnError) as want:
        py.apply(a, rules.DRAW, seat=other)
    with pytest.raises(OutOfTurnError) as got:
        nat.apply(b, rules.DRAW, seat=other)
    assert str(got.value) == str(want.value)
    assert nat.to_dict(b) == py.to_dict(a)  # nothing changed
    py.apply(a, rules.DRAW)
    nat.apply(b, rules.DRAW)
    for action in (rules.REDRAW, rules.TAKE_DISCARD):  # not legal with a drawn card
        with pytest.raises(IllegalActionError) as want:
            py.apply(a, action)
        with pytest.raises(IllegalActionError) as got:
            nat.apply(b, action)
        assert str(got.value) == str(want.value)
    while not py.is_over(a):
        action = py.legal_actions(a)[0]
        py.apply(a, action)
        nat.apply(b, action)
    with pytest.raises(GameOverError) as want:
        py.apply(a, rules.DRAW)
    with pytest.raises(GameOverError) as got:
        nat.apply(b, rules.DRAW)
    assert str(got.value) == str(want.value)
    assert nat.legal_actions(b) == [] and nat.current_player(b) is None
    assert not b.legal_mask().any()


def test_a_swap_refuses_the_deciders_own_row_and_absent_seats():
    py, nat = rules.RatatatGame(3), NativeRatatatGame(3)
    deck = [str(v) for v in range(9)] + ["0", "1", "2", "3", "SWAP"]  # 12 dealt, 1 face up
    a = py.new_game(np.random.default_rng(0), {"deck": deck})
    b = nat.new_game(np.random.default_rng(0), {"deck": deck})
    for game, state in ((py, a), (nat, b)):
        game.apply(state, rules.DRAW)
        game.apply(state, rules.USE)
    seat = py.current_player(a)
    assert py.decision_name(a) == nat.decision_name(b) == "swap"
    for target in (seat, 3, 5):  # own row, seats not at a 3-player table
        action = rules.swap_action(0, target, 0)
        assert action not in py.legal_actions(a) and not b.is_legal(action)
        with pytest.raises(IllegalActionError) as want:
            py.apply(a, action)
        with pytest.raises(IllegalActionError) as got:
            nat.apply(b, action)
        assert str(got.value) == str(want.value)
    assert nat.legal_actions(b) == py.legal_actions(a)


def test_a_native_state_reads_like_a_python_state():
    py, nat = rules.RatatatGame(5, num_rounds=2), NativeRatatatGame(5, num_rounds=2)
    a, b = py.new_game(np.random.default_rng(2)), nat.new_game(np.random.default_rng(2))
    for steps in (7, 40, 400):  # the first legal action: take the discard, slot 0, knock
        _play_to(py, a, steps, pick=0)
        _play_to(nat, b, steps, pick=0)
        for name in rules.RatatatState.__slots__:
            if name != "rng":
                assert getattr(b, name) == getattr(a, name), name
        assert nat.card_zones(b) == py.card_zones(a)
        assert nat.conservation_error(b) is None
        assert [nat.potential(b, s) for s in range(5)] == [py.potential(a, s) for s in range(5)]
        assert b.standing() == [py.potential(a, s) for s in range(5)]
        assert nat.hidden_positions(b, 1) == py.hidden_positions(a, 1)
        assert encoding.render(b, 1) == encoding.render(a, 1)
        assert encoding.view(b, 1) == encoding.view(a, 1)
    assert py.is_over(a) and a.round_scores and b.round_scores == a.round_scores
    back = b.to_python()
    assert py.to_dict(back) == py.to_dict(a) and back.rng is not b.rng


def test_resample_hidden_goes_through_the_python_engine():
    py, nat = rules.RatatatGame(4), NativeRatatatGame(4)
    a, b = py.new_game(np.random.default_rng(6)), nat.new_game(np.random.default_rng(6))
    _play_to(py, a, 9, pick=0)
    _play_to(nat, b, 9, pick=0)
    world_a = py.resample_hidden(a, 1, np.random.default_rng(9))
    world_b = nat.resample_hidden(b, 1, np.random.default_rng(9))
    assert isinstance(world_b, NativeState)
    assert nat.to_dict(world_b) == py.to_dict(world_a)


def test_new_game_options_and_a_bad_saved_state_go_through_the_python_engine():
    py, nat = rules.RatatatGame(3, num_rounds=3), NativeRatatatGame(3, num_rounds=3)
    options = {"deck": ["9", "PEEK", "0"], "scores": [10, 20, 30], "dealer": 2, "round_index": 2}
    a = py.new_game(np.random.default_rng(1), options)
    b = nat.new_game(np.random.default_rng(1), options)
    assert nat.to_dict(b) == py.to_dict(a)
    data = py.to_dict(a)
    data["scores"] = [10, 20]
    with pytest.raises(ConfigError, match="scores"):
        nat.from_dict(data)
    with pytest.raises(ConfigError, match="more copies of 'DRAW_TWO'"):
        nat.new_game(np.random.default_rng(1), {"deck": ["DRAW_TWO"] * 6})
    with pytest.raises(ConfigError, match="unknown ratatat reset options"):
        nat.new_game(np.random.default_rng(1), {"decks": []})


def test_the_native_engine_refuses_the_python_engines_bad_options():
    for kwargs in ({"num_players": 7}, {"memory": "total"}, {"max_turns": 0}, {"first_dealer": 4}):
        with pytest.raises(ConfigError) as want:
            rules.RatatatGame(**kwargs)
        with pytest.raises(ConfigError) as got:
            NativeRatatatGame(**kwargs)
        assert str(got.value) == str(want.value)


def test_clone_copies_the_generator_or_takes_the_one_given():
    nat = NativeRatatatGame(4)
    state = nat.new_game(np.random.default_rng(3))
    copy = nat.clone(state)
    assert copy.rng is not state.rng
    assert copy.rng.bit_generator.state == state.rng.bit_generator.state
    rng = np.random.default_rng(4)
    assert nat.clone(state, rng).rng is rng
    nat.apply(copy, nat.legal_actions(copy)[0])
    assert copy.decisions == state.decisions + 1 and copy.log != state.log
    assert isinstance(NativeState.from_python(nat.to_python(state)), NativeState)
    python = rules.RatatatGame(4).new_game(np.random.default_rng(3))
    assert isinstance(nat.clone(python), rules.RatatatState)


def test_a_native_state_pickles_and_copies_as_itself():
    import copy
    import pickle

    nat = NativeRatatatGame(4, num_rounds=2)
    state = nat.new_game(np.random.default_rng(1))
    _play_to(nat, state, 60, pick=0)
    assert state.round_scores
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert isinstance(other, NativeState) and other.rng is not state.rng
        assert nat.to_dict(other) == nat.to_dict(state)
        assert other.round_scores == state.round_scores and other.log == state.log


def test_a_state_the_c_struct_cannot_hold_is_refused():
    py = rules.RatatatGame(4)
    state = py.new_game(np.random.default_rng(0))
    bad = py.clone(state)
    bad.knowers = [16] + bad.knowers[1:]
    for call in (lambda: NativeState.from_python(bad), lambda: _native.encode(bad, 0)):
        with pytest.raises(ConfigError, match="knowers is 16; allowed: 0..15"):
            call()
    extra = py.clone(state)
    extra.discard_pile = [*extra.discard_pile, 0]
    with pytest.raises(ConfigError, match="the zones hold 67 cards"):
        NativeState.from_python(extra)
    assert _native.encode(extra, 0).shape == (encoding.OBS_SIZE,)  # encoding reads, never grows
    deep = py.clone(state)
    deep.in_use = [rules.DRAW_TWO_CARD] * 9
    with pytest.raises(ConfigError, match="in_use holds 9 cards; allowed: at most 8"):
        NativeState.from_python(deep)
    long_log = py.clone(state)
    long_log.log = [(0, 1)] * 25
    with pytest.raises(ConfigError, match="log holds 25 entries"):
        NativeState.from_python(long_log)
    for args in ((7, 10, 1, 0, 0), (4, 10, 1, 3, 0), (4, 10, 1, 0, 4), (4, 0, 1, 0, 0)):
        with pytest.raises(ConfigError, match="allowed"):
            NativeState.new_game(np.random.default_rng(0), *args)


@pytest.mark.parametrize("num_players", [2, 5])
def test_the_aec_env_on_the_native_engine_plays_the_python_envs_games(num_players):
    """``envs.make(..., core="native")`` and ``core="python"`` play the same games."""
    from cardarena.envs.core.aec import CardGameEnv
    from cardarena.envs.ratatat import SPEC

    for checks in (True, False):
        ours = CardGameEnv(SPEC, checks=checks, core="native", num_players=num_players)
        ref = CardGameEnv(SPEC, checks=checks, core="python", num_players=num_players)
        assert isinstance(ours.game, NativeRatatatGame)
        assert type(ref.game) is rules.RatatatGame
        for game in range(4):
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


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_rollouts_in_one_call_are_seeded_zero_sum_and_leave_the_state_alone(num_players):
    nat = NativeRatatatGame(num_players, num_rounds=2)
    state = nat.new_game(np.random.default_rng(num_players))
    _play_to(nat, state, 5)
    before = nat.to_dict(state)
    generator = state.rng.bit_generator.state
    values, decisions = nat.rollouts(state, 300, seed=7)
    again, decisions_again = nat.rollouts(state, 300, seed=7)
    other, _ = nat.rollouts(state, 300, seed=8)
    assert nat.to_dict(state) == before and state.rng.bit_generator.state == generator
    assert values.shape == (300, num_players) and decisions == decisions_again > 300 * 10
    assert np.array_equal(values, again) and not np.array_equal(values, other)
    assert np.allclose(values.sum(axis=1), 0.0)
    assert set(np.round(values.max(axis=1), 6)) <= {round(1 / k, 6) for k in range(1, 7)} | {0.0}
    assert len(set(np.argmax(values, axis=1).tolist())) > 1  # not always the same winner
    rounds, round_decisions = nat.rollouts(state, 300, seed=7, horizon="round")
    assert 0 < round_decisions < decisions
    lead = rounds.max(axis=1)  # a standing: the lead over the best other total / 72
    assert np.all(lead >= 0) and np.all(np.abs(rounds) <= 1.0) and np.any(rounds != 0)
    assert nat.rollouts(state, 0, seed=1)[0].shape == (0, num_players)
    with pytest.raises(ConfigError, match="horizon 'turn'"):
        nat.rollouts(state, 10, seed=1, horizon="turn")
    with pytest.raises(ConfigError, match="count -1"):
        nat.rollouts(state, -1, seed=1)


def test_a_round_rollout_of_the_last_round_returns_the_games_result():
    nat = NativeRatatatGame(3, num_rounds=1)
    state = nat.new_game(np.random.default_rng(4))
    values, _ = nat.rollouts(state, 200, seed=3, horizon="round")
    games, _ = nat.rollouts(state, 200, seed=3, horizon="game")
    assert np.array_equal(values, games)  # the round's end is the game's end


def test_a_rollout_of_an_ended_game_returns_its_result():
    nat = NativeRatatatGame(3, num_rounds=1)
    state = nat.new_game(np.random.default_rng(0))
    _play_to(nat, state, 1000, pick=0)
    assert nat.is_over(state)
    values, decisions = nat.rollouts(state, 4, seed=0)
    assert decisions == 0 and np.array_equal(values, np.tile(nat.returns(state), (4, 1)))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_native_tracker_decides_as_the_python_tracker(num_players):
    """``NativeState.tracker_action`` against ``TrackerAgent.act`` on every position of random
    games (every decision kind, every memory mode, a few settings of the agent)."""
    from cardarena.agents.baselines.ratatat import TrackerAgent

    settings = ((7.0, 1.5), (2.0, 0.0), (12.0, 3.0))
    agents = [TrackerAgent(knock_margin=m, peek_value=p, seed=0) for m, p in settings]
    positions = 0
    kinds = set()
    for g in range(45):
        memory = rules.MEMORY_MODES[g % 3]
        py = rules.RatatatGame(num_players, first_dealer=g % num_players, memory=memory)
        state = py.new_game(np.random.default_rng([num_players, g, 2]))
        plan = np.random.default_rng([num_players, g, 3])
        while not py.is_over(state) and positions < 400 * (g + 1):
            seat = py.current_player(state)
            view = encoding.view(state, seat)
            mask = np.zeros(rules.NUM_ACTIONS, dtype=np.int8)
            mask[py.legal_actions(state)] = 1
            native = NativeState.from_python(state)
            for agent, (margin, peek) in zip(agents, settings, strict=True):
                want = agent.act(None, mask, view)
                assert native.tracker_action(margin, peek) == want, (g, view["decision"], view)
            kinds.add(view["decision"])
            positions += 1
            legal = py.legal_actions(state)
            if plan.integers(3):  # mostly the tracker's own moves, so its positions come up
                action = agents[0].act(None, mask, view)
            else:
                action = legal[int(plan.integers(len(legal)))]
            py.apply(state, action)
    assert positions > 2000 and len(kinds) == 7  # every decision but 'none'
    one_round = NativeRatatatGame(num_players, num_rounds=1)
    ended = one_round.new_game(np.random.default_rng(0))
    _play_to(one_round, ended, 999, pick=0)
    assert ended.over and ended.tracker_action() is None


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_tracker_rollouts_play_the_trackers_games(num_players):
    """A tracker rollout is the game the Python ``TrackerAgent`` plays at every seat from the
    same state and generator (the tracker draws no random number: only the reshuffles do)."""
    from cardarena.agents.baselines.ratatat import TrackerAgent

    py, nat = rules.RatatatGame(num_players), NativeRatatatGame(num_players)
    agent = TrackerAgent(seed=0)
    for g in range(3):
        state = nat.new_game(np.random.default_rng([num_players, g]))
        _play_to(nat, state, 3 * g)
        values, decisions = nat.rollouts(state, 1, seed=g, policy="tracker")
        game = nat.to_python(nat.clone(state, rng=np.random.default_rng(g)))
        steps = 0
        while not py.is_over(game):
            seat = py.current_player(game)
            mask = np.zeros(rules.NUM_ACTIONS, dtype=np.int8)
            mask[py.legal_actions(game)] = 1
            py.apply(game, agent.act(None, mask, encoding.view(game, seat)))
            steps += 1
        assert decisions == steps and values[0].tolist() == py.returns(game)
        rounds, _ = nat.rollouts(state, 2, seed=g, horizon="round", policy="tracker")
        assert np.all(np.abs(rounds) <= 1.0)
    with pytest.raises(ConfigError, match="policy 'greedy'"):
        nat.rollouts(state, 1, seed=0, policy="greedy")
