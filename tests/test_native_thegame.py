"""thegame's native core (``envs/thegame/_native.pyx``) plays the same games as the Python engine.

The lock-step (``bench/native_thegame.py``): 500 games per player count over the manifest's option
sets, both cores stepped side by side with random legal actions (legal actions and mask, every
seat's observation bit for bit, returns, termination, ``to_dict`` at every step; the generators'
states at the end). The compiled encoder against the reference ``encoding.encode_python`` on every
seat of every step of more random games; states no game reaches take the reference encoder. Skipped when the extension is not built (``setup.py build_ext
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

from bench.native_thegame import PLAYER_COUNTS, lockstep
from cardarena import envs
from cardarena.envs.core.engine import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
)
from cardarena.envs.thegame import encoding, rules
from cardarena.envs.thegame.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the thegame native core is not built (setup.py build_ext --inplace needs Cython and "
    "a C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.thegame import _native
    from cardarena.envs.thegame.native import NativeState, NativeThegameGame

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
        for g in range(100):
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
    assert observations > 400 * 10 * num_players


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


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_native_core_plays_500_games_in_lock_step_with_the_python_engine(num_players):
    result = lockstep(num_players, 500, seed=31)
    assert result["games"] == 500 and result["steps"] > 500 * 15
    assert result["observations"] >= result["steps"] * num_players


def test_the_manifest_names_the_native_engine():
    spec = envs.get_spec("thegame")
    assert spec.engine_class("native") is NativeThegameGame
    assert spec.engine_class("python") is rules.TheGame


def _play_both(py, nat, a, b, choose, steps):
    for _ in range(steps):
        if py.is_over(a):
            break
        action = choose(py.legal_actions(a))
        py.apply(a, action)
        nat.apply(b, action)


@pytest.mark.parametrize("signals", [False, True])
def test_the_native_engine_raises_the_python_engines_errors(signals):
    py, nat = rules.TheGame(3, signals=signals), NativeThegameGame(3, signals=signals)
    a, b = py.new_game(np.random.default_rng(5)), nat.new_game(np.random.default_rng(5))
    seat = py.current_player(a)
    high = rules.play_action(a.hands[seat][-1], 0)  # the highest card up: the rest do not fit
    py.apply(a, high)
    nat.apply(b, high)
    hand = a.hands[seat]
    absent = next(c for c in rules.FULL_DECK if c not in hand)
    assert not rules.fits(hand[0], 0, a.tops[0])
    unfit = rules.play_action(hand[0], 0)
    tried = [
        rules.END,  # the minimum is not met yet
        rules.play_action(absent, 0),  # not in the hand
        unfit,
        rules.signal_action(0, 0),  # off, or already "none"
        rules.NUM_ACTIONS,
        -1,
        10**30,
    ]
    for action in tried:
        with pytest.raises(IllegalActionError) as want:
            py.apply(a, action)
        with pytest.raises(IllegalActionError) as got:
            nat.apply(b, action)
        assert str(got.value) == str(want.value)
    with pytest.raises(OutOfTurnError) as want_turn:
        py.apply(a, rules.END, seat=(seat + 1) % 3)
    with pytest.raises(OutOfTurnError) as got_turn:
        nat.apply(b, rules.END, seat=(seat + 1) % 3)
    assert str(got_turn.value) == str(want_turn.value)
    if signals:  # a pile's own signal changes once a turn
        py.apply(a, rules.signal_action(1, 2))
        nat.apply(b, rules.signal_action(1, 2))
        with pytest.raises(IllegalActionError) as want:
            py.apply(a, rules.signal_action(1, 1))
        with pytest.raises(IllegalActionError) as got:
            nat.apply(b, rules.signal_action(1, 1))
        assert str(got.value) == str(want.value)
    assert nat.to_dict(b) == py.to_dict(a)  # nothing changed but the same moves
    _play_both(py, nat, a, b, lambda legal: legal[0], 10**6)
    assert py.is_over(a) and nat.is_over(b)
    with pytest.raises(GameOverError) as want_over:
        py.apply(a, rules.END)
    with pytest.raises(GameOverError) as got_over:
        nat.apply(b, rules.END)
    assert str(got_over.value) == str(want_over.value)
    assert nat.legal_actions(b) == [] and nat.current_player(b) is None
    assert nat.to_dict(b) == py.to_dict(a)


def test_a_native_state_reads_like_a_python_state():
    py, nat = rules.TheGame(4, signals=True), NativeThegameGame(4, signals=True)
    a, b = py.new_game(np.random.default_rng(2)), nat.new_game(np.random.default_rng(2))
    _play_both(py, nat, a, b, lambda legal: legal[len(legal) // 2], 9)
    assert not py.is_over(a)
    for name in rules.TheGameState.__slots__:
        if name != "rng":
            assert getattr(b, name) == getattr(a, name), name
            assert type(getattr(b, name)) is type(getattr(a, name)), name
    hands = b.hands
    hands[0].clear()  # fresh lists: the state is read-only
    assert b.hands == a.hands
    assert nat.card_zones(b) == py.card_zones(a)
    assert nat.conservation_error(b) is None
    assert nat.decision_name(b) == py.decision_name(a)
    assert encoding.render(b, 1) == encoding.render(a, 1)
    assert encoding.view(b, 1) == encoding.view(a, 1)
    back = b.to_python()
    assert py.to_dict(back) == py.to_dict(a) and back.rng is not b.rng
    world_a = py.resample_hidden(a, 1, np.random.default_rng(9))
    world_b = nat.resample_hidden(b, 1, np.random.default_rng(9))
    assert isinstance(world_b, NativeState)
    assert nat.to_dict(world_b) == py.to_dict(world_a)


def test_new_game_options_and_a_bad_saved_state_go_through_the_python_engine():
    py, nat = rules.TheGame(3), NativeThegameGame(3)
    options = {"deck": ["50", "51", "52"], "first_player": 2, "piles": [["3"], [], ["98"], []]}
    a = py.new_game(np.random.default_rng(1), options)
    b = nat.new_game(np.random.default_rng(1), options)
    assert isinstance(b, NativeState) and nat.to_dict(b) == py.to_dict(a)
    assert a.rng.bit_generator.state == b.rng.bit_generator.state
    data = py.to_dict(a)
    data["minimum"] = 7
    with pytest.raises(ConfigError, match="minimum"):
        nat.from_dict(data)
    with pytest.raises(ConfigError, match="unknown thegame card code"):
        nat.new_game(np.random.default_rng(1), {"deck": ["100"]})
    full = [[str(c) for c in rules.FULL_DECK], [], [], []]
    won = nat.new_game(np.random.default_rng(1), {"piles": full})
    assert nat.is_over(won) and nat.winners(won) == [0, 1, 2] and nat.returns(won) == [1.0] * 3


def test_a_bad_engine_option_is_the_python_engines_error():
    for kwargs in ({"num_players": 6}, {"min_cards_when_empty": 3}, {"signals": "yes"}):
        with pytest.raises(ConfigError) as want:
            rules.TheGame(**kwargs)
        with pytest.raises(ConfigError) as got:
            NativeThegameGame(**kwargs)
        assert str(got.value) == str(want.value)


def test_clone_copies_the_generator_or_takes_the_one_given():
    nat = NativeThegameGame(2)
    state = nat.new_game(np.random.default_rng(3))
    copy_ = nat.clone(state)
    assert isinstance(copy_, NativeState) and copy_.rng is not state.rng
    assert copy_.rng.bit_generator.state == state.rng.bit_generator.state
    rng = np.random.default_rng(4)
    assert nat.clone(state, rng).rng is rng
    nat.apply(copy_, nat.legal_actions(copy_)[0])
    assert copy_.decisions == state.decisions + 1 and copy_.hands != state.hands
    python_state = nat.to_python(state)
    assert isinstance(nat.clone(python_state), rules.TheGameState)
    assert isinstance(nat.from_python(python_state), NativeState)


def test_a_native_state_pickles_and_copies_as_itself():
    import pickle

    nat = NativeThegameGame(4, signals=True)
    state = nat.new_game(np.random.default_rng(1))
    nat.apply(state, nat.legal_actions(state)[-1])
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert isinstance(other, NativeState) and other.rng is not state.rng
        assert nat.to_dict(other) == nat.to_dict(state)
        assert other.rng.bit_generator.state == state.rng.bit_generator.state


def test_a_state_the_c_struct_cannot_hold_is_refused():
    py = rules.TheGame(2)
    state = py.new_game(np.random.default_rng(0))
    cases = [
        (lambda s: setattr(s, "num_players", 6), "num_players is 6; allowed: 1..5"),
        (lambda s: s.hands[0].append(s.draw_pile.pop()), "hands\\[0\\] holds 8 cards"),
        (lambda s: s.draw_pile.append(100), "draw_pile holds card 100"),
        (lambda s: s.draw_pile.pop(), "card .* is in 0 zones"),
        (lambda s: s.piles[0].append(s.hands[1][0]), "card .* is in 2 zones"),
        (lambda s: s.signals[1].__setitem__(2, 3), "signals\\[1\\]\\[2\\] is 3"),
        (lambda s: setattr(s, "tops", [1, 1, 100]), "tops and signal_changed need 4"),
        (lambda s: setattr(s, "current", 2), "current is 2; allowed: 0..1"),
        (lambda s: setattr(s, "minimum", "2"), "minimum is '2'"),
    ]
    for change, message in cases:
        bad = py.clone(state)
        change(bad)
        with pytest.raises(ConfigError, match=message):
            NativeState.from_python(bad)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_rollouts_in_one_call_are_seeded_and_leave_the_state_alone(num_players):
    nat = NativeThegameGame(num_players, signals=num_players % 2 == 0)
    state = nat.new_game(np.random.default_rng(num_players))
    nat.apply(state, nat.legal_actions(state)[0])
    before = nat.to_dict(state)
    generator = state.rng.bit_generator.state
    values, decisions = nat.rollouts(state, 300, seed=7)
    again, decisions_again = nat.rollouts(state, 300, seed=7)
    other, _ = nat.rollouts(state, 300, seed=8)
    assert nat.to_dict(state) == before and state.rng.bit_generator.state == generator
    assert values.shape == (300, num_players) and decisions == decisions_again > 300 * 5
    assert np.array_equal(values, again) and not np.array_equal(values, other)
    assert np.all(values == values[:, :1])  # a shared return
    placed = np.round(values[:, 0] * rules.NUM_CARDS)
    assert np.allclose(placed, values[:, 0] * rules.NUM_CARDS)
    assert np.all(placed >= state.on_piles) and np.all(placed <= rules.NUM_CARDS)
    assert len(set(placed.tolist())) > 3  # the playouts differ
    assert nat.rollouts(state, 0, seed=1)[0].shape == (0, num_players)
    with pytest.raises(ConfigError, match="horizon 'round'"):
        nat.rollouts(state, 10, seed=1, horizon="round")
    with pytest.raises(ConfigError, match="count -1"):
        nat.rollouts(state, -1, seed=1)


def test_a_rollout_plays_the_python_engines_random_games():
    """Stepped with the rollout's own choices (the same generator, the same draws), the Python
    engine reaches the value of every rollout."""
    from cardarena.envs.thegame._native import _draw_interval

    nat, py = NativeThegameGame(3, signals=True), rules.TheGame(3, signals=True)
    state = nat.new_game(np.random.default_rng(11))
    values, decisions = nat.rollouts(state, 20, seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    for i in range(20):
        world = nat.to_python(state)
        while not py.is_over(world):
            legal = py.legal_actions(world)
            py.apply(world, legal[_draw_interval(rng, len(legal) - 1)])
            steps += 1
        assert values[i].tolist() == py.returns(world)
    assert steps == decisions


def test_a_rollout_of_an_ended_game_returns_its_result():
    nat = NativeThegameGame(2)
    state = nat.new_game(np.random.default_rng(0))
    while not nat.is_over(state):
        nat.apply(state, nat.legal_actions(state)[0])
    values, decisions = nat.rollouts(state, 4, seed=0)
    assert decisions == 0 and np.array_equal(values, np.tile(nat.returns(state), (4, 1)))


@pytest.mark.parametrize(("num_players", "signals"), [(1, False), (3, True), (5, True)])
def test_the_aec_env_on_the_native_engine_plays_the_python_envs_games(num_players, signals):
    """What ``envs.make(..., core="native")`` builds: the same spec, the native engine."""
    from cardarena.envs.core.aec import CardGameEnv

    spec = envs.get_spec("thegame")
    options = {"num_players": num_players, "signals": signals}
    for checks in (True, False):
        ours = CardGameEnv(spec, checks=checks, core="native", **options)
        ref = CardGameEnv(spec, checks=checks, core="python", **options)
        for game in range(6):
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


NOT_BUILT = """
import sys
sys.modules["cardarena.envs.thegame._native"] = None  # as if the extension were not built
import numpy as np
from cardarena import envs
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.thegame import encoding, native
assert not native.NATIVE_BUILT and not native.NATIVE_AVAILABLE
assert native.native_encoder() is None and encoding.encode is encoding.encode_python
try:
    native.NativeThegameGame(2)
except ConfigError as err:
    assert "native core is not built" in str(err), err
else:
    raise AssertionError("NativeThegameGame without the extension")
assert envs.get_spec("thegame").engine_class() is envs.get_spec("thegame").engine_cls
env = envs.make("thegame", num_players=3, signals=True)
env.reset(seed=0)
for agent in env.agent_iter():
    obs, _, term, trunc, _ = env.last()
    env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
print("ok")
"""


def test_without_the_extension_thegame_runs_on_the_python_core():
    out = subprocess.run(
        [sys.executable, "-c", NOT_BUILT], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


# ---- the planner baseline as a native rollout policy ---------------------------------------------
def _planner_positions(num_players, signals, games, seed):
    """(Python state, seat, Python planner's action, native planner's action) along games the
    Python planners play (one agent per seat), the native planners shadowing them."""
    from cardarena.agents.baselines.thegame import PlannerAgent

    py = rules.TheGame(num_players, signals=signals)
    for g in range(games):
        agents = [PlannerAgent() for _ in range(num_players)]
        shadow = _native.NativePlanner()
        state = py.new_game(np.random.default_rng([seed, num_players, g]))
        native = NativeState.from_python(py.clone(state))
        while not py.is_over(state):
            seat = py.current_player(state)
            mask = np.zeros(rules.NUM_ACTIONS, dtype=np.int8)
            mask[py.legal_actions(state)] = 1
            want = agents[seat].act(None, mask, encoding.view(state, seat))
            got = shadow.act(native)
            yield state, seat, want, got
            py.apply(state, want)
            native.apply(want)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_native_planner_makes_the_python_planners_decisions(num_players):
    positions = 0
    for signals in (False, True):
        for state, seat, want, got in _planner_positions(num_players, signals, 12, seed=3):
            where = (num_players, signals, positions, seat, state.hands[seat], state.tops)
            assert got == want, (where, rules.describe_action(want))
            positions += 1
    assert positions > 1000


def test_the_native_planner_takes_an_agents_settings():
    from cardarena.agents.baselines.thegame import PlannerAgent

    py = rules.TheGame(3, signals=True)
    for settings in ({"bonus": 0.5, "max_nodes": 30}, {"dead_weight": 1.0, "help_cost": 9}):
        agents = [PlannerAgent(**settings) for _ in range(3)]
        shadow = _native.NativePlanner(agents[0])
        state = py.new_game(np.random.default_rng(8))
        native = NativeState.from_python(py.clone(state))
        while not py.is_over(state):
            seat = py.current_player(state)
            mask = np.zeros(rules.NUM_ACTIONS, dtype=np.int8)
            mask[py.legal_actions(state)] = 1
            want = agents[seat].act(None, mask, encoding.view(state, seat))
            assert shadow.act(native) == want
            py.apply(state, want)
            native.apply(want)
    with pytest.raises(ConfigError, match="max_nodes 1000"):
        _native.NativePlanner(PlannerAgent(max_nodes=1000))
    with pytest.raises(ConfigError, match="game is over"):
        _native.NativePlanner().act(native)


@pytest.mark.parametrize(("num_players", "signals"), [(1, False), (2, True), (4, True)])
def test_planner_rollouts_play_the_python_planner_teams_games(num_players, signals):
    """A planner rollout is the game a table of Python planners (fresh agents) plays on from
    the state: deterministic, so every rollout of the call is that game."""
    from cardarena.agents.baselines.thegame import PlannerAgent

    nat, py = NativeThegameGame(num_players, signals=signals), rules.TheGame(num_players)
    for g in range(4):
        state = nat.new_game(np.random.default_rng([num_players, g]))
        for _ in range(g * 3):  # from a position inside a turn too
            if not nat.is_over(state):
                nat.apply(state, nat.legal_actions(state)[-1])
        values, decisions = nat.rollouts(state, 3, seed=g, policy="planner")
        world = nat.to_python(state)
        agents = [PlannerAgent() for _ in range(num_players)]
        steps = 0
        while not py.is_over(world):
            seat = py.current_player(world)
            mask = np.zeros(rules.NUM_ACTIONS, dtype=np.int8)
            mask[py.legal_actions(world)] = 1
            py.apply(world, agents[seat].act(None, mask, encoding.view(world, seat)))
            steps += 1
        assert values.tolist() == [py.returns(world)] * 3 and decisions == 3 * steps
    with pytest.raises(ConfigError, match="policy 'greedy'"):
        nat.rollouts(state, 1, seed=0, policy="greedy")
