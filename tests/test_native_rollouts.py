"""The rollout policies and batch rollouts in C (``envs/<game>/_native.pyx``) against Python.

flip6:

* the C ports of ``threshold`` and ``ev`` pick the Python baselines' actions (every position of
  random and baseline games, 3-6 players, every seat that decides, default and other options);
* the C Mersenne Twister draws what ``random.Random`` draws; the native ``resample_hidden`` makes
  the Python engine's world with the same draws;
* ``play_out`` (the search's entry point) gives exactly the values of the Python ``Rollout`` on the
  Python engine from the same generators, for every policy; ``rollout_batch`` is seeded, leaves its
  states alone and matches the Python rollouts in distribution;
* ``pimc`` and ``ismcts`` make the same decisions (and scores) with the rollouts in C as in Python.

sevn (``threshold``, ``ev``), ratatat (``tracker``) and thegame (``planner``): ``play_out`` gives
the Python ``Rollout``'s values, end states and generator states, with the baselines' default
and other options, and the searches decide the same with their rollouts in C as in Python (the
policies' own alignment, decision by decision, is in ``tests/test_native_<game>.py``).

Skipped when the extension is not built.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardarena import envs
from cardarena.agents import make_agent
from cardarena.agents.search.rollout import Rollout
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.loop import decide
from cardarena.envs.flip6.native import NATIVE_BUILT
from cardarena.envs.flip6.rules import (
    TARGET_FLIP3,
    TARGET_FREEZE,
    TURN,
    Flip6Game,
)

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the flip6 native core is not built (setup.py build_ext --inplace needs Cython and a "
    "C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.flip6 import _native
    from cardarena.envs.flip6.native import NativeFlip6Game, NativeState

SPEC = envs.get_spec("flip6")
#: (policy, agent spec options, C options) checked for alignment
PORTS = [
    ("threshold", {}, {}),
    ("threshold", {"threshold": 9}, {"threshold": 9}),
    ("threshold", {"threshold": 26}, {"threshold": 26}),
    ("ev", {}, {}),
    ("ev", {"risk_margin": 1.5}, {"risk_margin": 1.5}),
    ("ev", {"risk_margin": -2.0}, {"risk_margin": -2.0}),
]


def _agent(policy: str, options: dict) -> object:
    from cardarena.agents.baselines.flip6 import BASELINES

    return BASELINES[policy](**options)


def _positions(num_players: int, games: int, seed: int):
    """Every decision of ``games`` Python games, played by random, threshold and ev in turn."""
    engine = Flip6Game(num_players=num_players)
    players = [None, _agent("threshold", {}), _agent("ev", {})]
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    plan = np.random.default_rng(seed)
    for g in range(games):
        state = engine.new_game(np.random.default_rng(int(plan.integers(2**31))))
        player = players[g % 3]
        while not engine.is_over(state):
            yield engine, state
            seat = engine.current_player(state)
            if player is None:
                legal = engine.legal_actions(state)
                action = legal[int(plan.integers(len(legal)))]
            else:
                action = decide(SPEC, engine, state, seat, player, mask)
            engine.apply(state, action)


@pytest.mark.parametrize("num_players", [3, 4, 5, 6])
def test_the_c_policies_pick_the_python_baselines_actions(num_players: int) -> None:
    agents = [(policy, _agent(policy, a), c) for policy, a, c in PORTS]
    mask = np.zeros(8, dtype=np.int8)
    kinds: dict[int, int] = {}
    seats: set[int] = set()
    checked = 0
    for engine, state in _positions(num_players, 45, seed=num_players):
        seat = engine.current_player(state)
        seats.add(seat)
        kinds[state.decision] = kinds.get(state.decision, 0) + 1
        native = NativeState.from_python(state, np.random.default_rng(0))
        for policy, agent, options in agents:
            want = decide(SPEC, engine, state, seat, agent, mask)
            assert _native.policy_action(state, policy, **options) == want, (
                policy,
                options,
                engine.to_dict(state),
            )
            assert _native.policy_action(native, policy, **options) == want
            checked += 1
    assert checked > 6 * 1500
    assert seats == set(range(num_players))
    assert kinds[TURN] > 1000 and kinds[TARGET_FREEZE] > 20 and kinds[TARGET_FLIP3] > 20


def test_the_c_policies_price_the_reshuffle_from_the_discard_pile() -> None:
    """An empty draw pile: the baselines read the discard pile's odds (in their dict's order)."""
    engine = Flip6Game(num_players=3)
    seen = 0
    for eng, state in _positions(3, 60, seed=11):
        if state.decision == TURN and not state.draw_pile and state.discard_pile:
            for policy, a, options in PORTS:
                agent = _agent(policy, a)
                mask = np.zeros(8, dtype=np.int8)
                want = decide(SPEC, eng, state, state.decider, agent, mask)
                assert _native.policy_action(state, policy, **options) == want
            seen += 1
    assert seen > 20, "no position with an empty draw pile"
    assert engine.num_players == 3


def test_policy_action_refuses_what_it_cannot_decide() -> None:
    engine = NativeFlip6Game(num_players=3)
    state = engine.new_game(np.random.default_rng(0))
    with pytest.raises(ConfigError, match="allowed: 'threshold' or 'ev'"):
        _native.policy_action(state, "random")
    with pytest.raises(ConfigError, match="policy 'greedy'; allowed"):
        _native.policy_action(state, "greedy")
    while not state.over:
        engine.apply(state, engine.legal_actions(state)[0])
    assert _native.policy_action(state, "ev") is None


def test_the_c_mersenne_twister_draws_what_python_random_draws() -> None:
    for seed in (0, 1, 2**32 - 1, 2**32, 2**63 - 1, 123456789012345):
        ref = random.Random(seed)
        assert _native._python_randoms(seed, 1500) == [ref.random() for _ in range(1500)]
    py, ref = random.Random(5), random.Random(5)
    py.random(), ref.random()
    assert _native._python_randoms(None, 700, py) == [ref.random() for _ in range(700)]
    assert py.random() == ref.random()  # py was advanced past what C drew


def test_the_native_resample_hidden_makes_the_python_engines_world() -> None:
    native, python = NativeFlip6Game(num_players=4), Flip6Game(num_players=4)
    for g in range(200):
        state = native.new_game(np.random.default_rng(g))
        plan = np.random.default_rng(g)
        for _ in range(g % 45):
            if state.over:
                break
            legal = native.legal_actions(state)
            native.apply(state, legal[int(plan.integers(len(legal)))])
        ours, theirs = np.random.default_rng(g + 7), np.random.default_rng(g + 7)
        a = native.resample_hidden(state, g % 4, ours)
        b = python.resample_hidden(state.to_python(), g % 4, theirs)
        assert native.to_dict(a) == python.to_dict(b)
        assert ours.bit_generator.state == theirs.bit_generator.state
        assert a.rng.bit_generator.state == b.rng.bit_generator.state


def _starts(engine, count: int, seed: int) -> list:
    plan = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = engine.new_game(np.random.default_rng(int(plan.integers(2**31))))
        for _ in range(int(plan.integers(60))):
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(plan.integers(len(legal)))])
        if not engine.is_over(state):
            out.append(state)
    return out


@pytest.mark.parametrize("policy", ["random", "threshold", "ev"])
@pytest.mark.parametrize("horizon", ["game", "round"])
def test_play_out_gives_the_python_rollouts_values_from_the_same_generators(
    policy: str, horizon: str
) -> None:
    """The exact test: same world, same generators -> the same values and end state."""
    native, python = NativeFlip6Game(num_players=4), Flip6Game(num_players=4)
    ours = Rollout("flip6", SPEC, native, policy, horizon)
    theirs = Rollout("flip6", SPEC, python, policy, horizon)
    assert ours.native is not None and ours.native[0] == policy and theirs.native is None
    starts = _starts(native, 60, seed=3)
    seeds = [int(s) for s in np.random.default_rng(4).integers(2**63, size=len(starts))]
    worlds = [
        native.clone(s, rng=np.random.default_rng(seed))
        for s, seed in zip(starts, seeds, strict=True)
    ]
    rounds = [ours.start(s) for s in starts]
    copies = [
        python.clone(s.to_python(), rng=np.random.default_rng(seed))
        for s, seed in zip(starts, seeds, strict=True)
    ]
    want = [
        theirs.run(c, random.Random(seed), start)
        for c, seed, start in zip(copies, seeds, rounds, strict=True)
    ]
    if horizon == "game":
        got = ours.run_many(worlds, seeds)
    else:  # one batch per start round
        got = [
            ours.run_many([w], [seed], start)[0]
            for w, seed, start in zip(worlds, seeds, rounds, strict=True)
        ]
    assert got == want
    for w, c in zip(worlds, copies, strict=True):
        assert native.to_dict(w) == python.to_dict(c)
        assert w.rng.bit_generator.state == c.rng.bit_generator.state
    # one seat's value, and one state at a time (ismcts' call)
    solo = native.clone(starts[0], rng=np.random.default_rng(seeds[0]))
    assert ours.run(solo, random.Random(seeds[0]), rounds[0], seat=2) == want[0][2]


def test_play_out_with_one_python_generator_consumes_it_as_the_python_rollouts_do() -> None:
    native, python = NativeFlip6Game(num_players=3), Flip6Game(num_players=3)
    starts = _starts(native, 20, seed=8)
    theirs = Rollout("flip6", SPEC, python, "random", "game")
    py, ref = random.Random(99), random.Random(99)
    copies = [
        python.clone(s.to_python(), rng=np.random.default_rng(i)) for i, s in enumerate(starts)
    ]
    worlds = [native.clone(s, rng=np.random.default_rng(i)) for i, s in enumerate(starts)]
    want = [theirs.run(c, ref) for c in copies]
    got = native.play_out(worlds, "random", py=py)
    assert got.tolist() == want
    assert py.getstate() == ref.getstate()


def test_rollout_batch_is_seeded_and_leaves_its_states_alone() -> None:
    engine = NativeFlip6Game(num_players=5)
    starts = _starts(engine, 6, seed=5)
    before = [(engine.to_dict(s), s.rng.bit_generator.state) for s in starts]
    for policy in ("random", "threshold", "ev"):
        for horizon in ("game", "round", 7):
            a, made = engine.rollout_batch(starts, policy, horizon, seed=1, rollouts=30)
            b, again = engine.rollout_batch(starts, policy, horizon, seed=1, rollouts=30)
            c, _ = engine.rollout_batch(starts, policy, horizon, seed=2, rollouts=30)
            assert a.shape == (6 * 30, 5) and a.dtype == np.float64
            assert np.array_equal(a, b) and made == again > 0
            assert not np.array_equal(a, c)
            if horizon == 7:
                assert made <= 6 * 30 * 7
            if horizon == "game":
                assert np.allclose(a.sum(axis=1), 0.0)  # zero-sum returns
    assert [(engine.to_dict(s), s.rng.bit_generator.state) for s in starts] == before


@pytest.mark.parametrize("policy", ["random", "ev"])
def test_rollout_batch_values_match_the_python_rollouts_in_distribution(policy: str) -> None:
    """Means per seat from a few starts: C (4,000 rollouts each) and Python (300 each) agree
    within 5 standard errors (fixed seeds: the test is deterministic)."""
    native, python = NativeFlip6Game(num_players=4), Flip6Game(num_players=4)
    theirs = Rollout("flip6", SPEC, python, policy, "round")
    for k, start in enumerate(_starts(native, 3, seed=21)):
        ours, _ = native.rollout_batch([start], policy, "round", seed=k, rollouts=4000)
        py = random.Random(k)
        rows = []
        for i in range(300):
            copy = python.clone(start.to_python(), rng=np.random.default_rng([k, i]))
            rows.append(theirs.run(copy, py, start.round_index))
        ref = np.asarray(rows)
        se = np.sqrt(ours.var(axis=0) / len(ours) + ref.var(axis=0) / len(ref))
        assert np.all(np.abs(ours.mean(axis=0) - ref.mean(axis=0)) <= 5 * se + 1e-9)
        assert ours.std(axis=0).max() > 0  # the reshuffles (and random actions) do vary


def test_the_batch_entry_points_refuse_bad_input() -> None:
    engine = NativeFlip6Game(num_players=3)
    state = engine.new_game(np.random.default_rng(0))
    with pytest.raises(ConfigError, match="horizon 'hand'; allowed"):
        engine.rollout_batch([state], "random", "hand")
    with pytest.raises(ConfigError, match="horizon 0; allowed"):
        engine.rollout_batch([state], "random", 0)
    with pytest.raises(ConfigError, match="rollouts 0; allowed"):
        engine.rollout_batch([state], "random", "game", rollouts=0)
    with pytest.raises(ConfigError, match="policy 'tracker'; allowed"):
        engine.rollout_batch([state], "tracker")
    with pytest.raises(ConfigError, match="Flip6State among the states"):
        engine.rollout_batch([state.to_python()])
    other = NativeFlip6Game(num_players=4).new_game(np.random.default_rng(0))
    with pytest.raises(ConfigError, match="4-player|allowed: native states of this 3-player"):
        engine.play_out([state, other], "ev")
    with pytest.raises(ConfigError, match="seeds .* or py"):
        engine.play_out([state], "random")
    with pytest.raises(ConfigError, match="2 seeds for 1 states"):
        engine.play_out([state], "random", seeds=[1, 2])
    assert engine.rollout_batch([], "ev")[0].shape == (0, 3)
    assert engine.play_out([], "ev").shape == (0, 3)
    with pytest.raises(ConfigError, match="policy 'tracker'; allowed"):
        engine.rollout_batch([], "tracker")


def test_rollouts_stay_in_python_for_given_agents_and_the_python_core() -> None:
    native = NativeFlip6Game(num_players=3)
    agents = [make_agent("flip6", "ev") for _ in range(3)]
    assert Rollout("flip6", SPEC, native, "ev", "game", agents=agents).native is None
    assert Rollout("flip6", SPEC, native, "ev", "game", native=False).native is None
    assert Rollout("flip6", SPEC, Flip6Game(num_players=3), "ev", "game").native is None
    assert Rollout("flip6", SPEC, native, "ev", "game").native == ("ev", {"risk_margin": 0.0})


SEARCHES = [
    "pimc:worlds=4,rollout=ev,horizon=round",
    "pimc:worlds=3,rollouts=2,rollout=random",
    "pimc:worlds=4,rollout=threshold",
    "pimc:worlds=8,min_worlds=3,rollout=ev,horizon=round,gate=1.5",
    "ismcts:iterations=25,rollout=ev,horizon=round",
    "ismcts:iterations=25,rollout=random",
]


@pytest.mark.parametrize("spec", SEARCHES)
def test_search_decides_the_same_with_rollouts_in_c_as_in_python(spec: str) -> None:
    """Native engine + C rollouts against the Python engine + Python rollouts: same actions and
    the same scores at every decision of a few games."""
    native, python = NativeFlip6Game(num_players=4), Flip6Game(num_players=4)
    fast, slow = make_agent("flip6", spec, seed=1), make_agent("flip6", spec, seed=1)
    mask = np.zeros(8, dtype=np.int8)
    decisions = 0
    for g in range(2):
        state = native.new_game(np.random.default_rng(g))
        fast.reset(g)
        slow.reset(g)
        for _ in range(25):
            if state.over:
                break
            seat = state.decider
            a = decide(SPEC, native, state, seat, fast, mask)
            b = decide(SPEC, python, state.to_python(), seat, slow, mask)
            assert a == b
            assert fast.last_scores == slow.last_scores
            assert fast._rollout.native is not None and slow._rollout.native is None
            native.apply(state, a)
            decisions += 1
    assert decisions >= 30


def test_the_search_speed_bench_rolls_out_natively_where_it_can_and_says_so() -> None:
    from bench.search_speed import policy_speed, positions

    native = NativeFlip6Game(num_players=4)
    starts = positions(native, 5, seed=1)
    for policy in ("random", "ev"):
        rate, core = policy_speed("flip6", SPEC, native, starts, policy, 0.02)
        assert rate > 0 and core == "native batch (C)"
    python = Flip6Game(num_players=4)
    rate, core = policy_speed("flip6", SPEC, python, positions(python, 5, seed=1), "ev", 0.02)
    assert rate > 0 and core == "python Rollout"


# ---- sevn, ratatat and thegame: play_out and the search ------------------------------------------------
def _built(game: str) -> bool:
    import importlib

    return importlib.import_module(f"cardarena.envs.{game}.native").NATIVE_BUILT


def _pair(game: str, options: dict) -> tuple:
    """(native engine, Python engine) of ``game`` with ``options``."""
    if game == "sevn":
        from cardarena.envs.sevn.native import NativeSevnGame
        from cardarena.envs.sevn.rules import SevnGame

        return NativeSevnGame(**options), SevnGame(**options)
    if game == "ratatat":
        from cardarena.envs.ratatat.native import NativeRatatatGame
        from cardarena.envs.ratatat.rules import RatatatGame

        return NativeRatatatGame(**options), RatatatGame(**options)
    from cardarena.envs.thegame.native import NativeThegameGame
    from cardarena.envs.thegame.rules import TheGame

    return NativeThegameGame(**options), TheGame(**options)


#: (game, engine options, policy, horizon) whose C rollouts are checked against Python's
OTHER_PLAY_OUTS = [
    ("sevn", {"num_players": 2}, "random", "game"),
    ("sevn", {"num_players": 5, "target_score": 60}, "random", "round"),
    ("sevn", {"num_players": 3}, "threshold", "round"),
    ("sevn", {"num_players": 8, "target_score": 100}, "threshold", "game"),
    ("sevn", {"num_players": 4}, "ev", "round"),
    ("sevn", {"num_players": 6, "target_score": 60}, "ev", "game"),
    ("ratatat", {"num_players": 2}, "random", "game"),
    ("ratatat", {"num_players": 4}, "random", "round"),
    ("ratatat", {"num_players": 3, "num_rounds": 2}, "tracker", "game"),
    ("ratatat", {"num_players": 5, "memory": "none"}, "tracker", "round"),
    ("ratatat", {"num_players": 3, "max_turns": 6, "num_rounds": 2}, "tracker", "round"),
    ("thegame", {"num_players": 1}, "random", "game"),
    ("thegame", {"num_players": 3, "signals": True}, "random", "game"),
    ("thegame", {"num_players": 2}, "planner", "game"),
    ("thegame", {"num_players": 4, "signals": True, "min_cards_when_empty": 2}, "planner", "round"),
]


@pytest.mark.parametrize(("game", "options", "policy", "horizon"), OTHER_PLAY_OUTS)
def test_sevn_ratatat_and_thegame_play_out_gives_the_python_rollouts_values(
    game: str, options: dict, policy: str, horizon: str
) -> None:
    """Same world, same generators: the same values, end state and generator state as the
    Python ``Rollout`` on the Python engine (and a shared ``random.Random`` consumed alike)."""
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    native, python = _pair(game, options)
    spec = envs.get_spec(game)
    ours = Rollout(game, spec, native, policy, horizon)
    theirs = Rollout(game, spec, python, policy, horizon)
    assert ours.native is not None and ours.native[0] == policy and theirs.native is None
    starts = _starts(native, 30, seed=len(options))
    seeds = [int(s) for s in np.random.default_rng(9).integers(2**63, size=len(starts))]
    worlds = [native.clone(s, rng=np.random.default_rng(k)) for k, s in enumerate(starts)]
    copies = [
        python.clone(s.to_python(), rng=np.random.default_rng(k)) for k, s in enumerate(starts)
    ]
    rounds = [ours.start(s) for s in starts]
    want = [
        theirs.run(c, random.Random(seed), start)
        for c, seed, start in zip(copies, seeds, rounds, strict=True)
    ]
    got = [
        ours.run_many([w], [seed], start)[0]
        for w, seed, start in zip(worlds, seeds, rounds, strict=True)
    ]
    assert got == want
    for w, c in zip(worlds, copies, strict=True):
        assert native.to_dict(w) == python.to_dict(c)
        assert w.rng.bit_generator.state == c.rng.bit_generator.state
    if horizon == "round" and game != "thegame":
        assert any(
            native.round_index(s) != native.round_index(w)
            for s, w in zip(starts, worlds, strict=True)
        )
    if policy == "random":  # one random.Random for the batch, as run() after run() uses it
        py, ref = random.Random(5), random.Random(5)
        start = None if horizon == "game" else rounds[0]
        batch = [native.clone(s, rng=np.random.default_rng(1)) for s in starts[:1] * 4]
        alike = [python.clone(s.to_python(), rng=np.random.default_rng(1)) for s in starts[:1] * 4]
        assert native.play_out(batch, "random", start, py=py).tolist() == [
            theirs.run(c, ref, start) for c in alike
        ]
        assert py.getstate() == ref.getstate()


def test_ratatat_play_out_takes_the_trackers_options() -> None:
    """Other settings than the defaults: the values of Python trackers with those settings."""
    if not _built("ratatat"):
        pytest.skip("the ratatat native core is not built")
    from cardarena.agents.baselines.ratatat import TrackerAgent

    native, python = _pair("ratatat", {"num_players": 3})
    spec = envs.get_spec("ratatat")
    for knock_margin, peek_value in ((2.0, 0.0), (12.0, 4.0)):
        agents = [TrackerAgent(knock_margin, peek_value) for _ in range(3)]
        theirs = Rollout("ratatat", spec, python, "tracker", "game", agents=agents)
        starts = _starts(native, 15, seed=int(knock_margin))
        got = native.play_out(
            [native.clone(s) for s in starts],
            "tracker",
            knock_margin=knock_margin,
            peek_value=peek_value,
        )
        want = [theirs.run(python.clone(s.to_python()), random.Random(0)) for s in starts]
        assert got.tolist() == want
        default = native.play_out([native.clone(s) for s in starts], "tracker")
        assert not np.array_equal(got, default)  # the options do change the games


def test_thegame_play_out_takes_the_planners_options() -> None:
    if not _built("thegame"):
        pytest.skip("the thegame native core is not built")
    from cardarena.agents.baselines.thegame import PlannerAgent

    native, python = _pair("thegame", {"num_players": 3, "signals": True})
    spec = envs.get_spec("thegame")
    settings = {"bonus": 4.0, "dead_weight": 1.0, "wait_penalty": 0.0, "max_nodes": 20}
    agents = [PlannerAgent(**settings) for _ in range(3)]  # type: ignore[arg-type]
    theirs = Rollout("thegame", spec, python, "planner", "game", agents=agents)
    starts = _starts(native, 15, seed=2)
    got = native.play_out([native.clone(s) for s in starts], "planner", **settings)
    want = [theirs.run(python.clone(s.to_python()), random.Random(0)) for s in starts]
    assert got.tolist() == want
    assert not np.array_equal(got, native.play_out([native.clone(s) for s in starts], "planner"))


@pytest.mark.parametrize("game", ["sevn", "ratatat", "thegame"])
def test_sevn_ratatat_and_thegame_play_out_refuse_bad_input(game: str) -> None:
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    native, python = _pair(game, {"num_players": 3})
    other, _ = _pair(game, {"num_players": 2})
    state = native.new_game(np.random.default_rng(0))
    good = {"sevn": "ev", "ratatat": "tracker", "thegame": "planner"}[game]
    with pytest.raises(ConfigError, match="policy 'greedy'; allowed"):
        native.play_out([state], "greedy")
    with pytest.raises(ConfigError, match="seeds .* or py"):
        native.play_out([state], "random")
    with pytest.raises(ConfigError, match="2 seeds for 1 states"):
        native.play_out([state], "random", seeds=[1, 2])
    with pytest.raises(ConfigError, match="among the states"):
        native.play_out([python.new_game(np.random.default_rng(0))], good)
    with pytest.raises(ConfigError, match="among the states"):
        native.play_out([other.new_game(np.random.default_rng(0))], good)
    with pytest.raises((TypeError, ConfigError), match="bogus"):
        native.play_out([state], good, bogus=1)
    assert native.play_out([], good).shape == (0, 3)
    if game == "thegame":
        with pytest.raises(ConfigError, match="start 0; allowed: None"):
            native.play_out([state], good, 0)
        with pytest.raises(ConfigError, match="max_nodes 0; allowed"):
            native.play_out([state], good, max_nodes=0)
    assert set(native.rollout_policies) == {"random", good} | (
        {"threshold"} if game == "sevn" else set()
    )
    from cardarena.agents.specs import scripted

    for policy, names in native.rollout_policies.items():
        if policy != "random":  # the options are attributes of the baseline it ports
            agent = scripted(game)[policy]()
            assert all(hasattr(agent, name) for name in names)


@pytest.mark.parametrize("game", ["sevn", "ratatat", "thegame"])
def test_the_c_mersenne_twisters_of_the_other_games_draw_what_python_draws(game: str) -> None:
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    import importlib

    ext = importlib.import_module(f"cardarena.envs.{game}._native")
    for seed in (0, 2**32 - 1, 2**32, 2**63 - 1):
        ref = random.Random(seed)
        assert ext._python_randoms(seed, 700) == [ref.random() for _ in range(700)]


#: (game, engine options, search spec, decisions): native rollouts against Python ones, the
#: same decisions (the Python planner's rollouts of a 2-player pimc are the slow ones)
OTHER_SEARCHES = [
    ("sevn", {"num_players": 2}, "pimc:worlds=3,rollout=ev,horizon=round", 100),
    ("sevn", {"num_players": 4}, "pimc:worlds=2,rollouts=2,rollout=random", 100),
    ("sevn", {"num_players": 5, "target_score": 60}, "pimc:worlds=3,rollout=threshold", 80),
    ("sevn", {"num_players": 3}, "ismcts:iterations=16,rollout=ev,horizon=round", 100),
    ("sevn", {"num_players": 6}, "ismcts:iterations=16,rollout=random,horizon=round", 100),
    ("ratatat", {"num_players": 2}, "pimc:worlds=2,rollout=tracker,horizon=round", 80),
    ("ratatat", {"num_players": 4}, "pimc:worlds=2,rollouts=2,rollout=random,horizon=round", 120),
    ("ratatat", {"num_players": 3, "num_rounds": 2}, "ismcts:iterations=6,rollout=tracker", 25),
    ("ratatat", {"num_players": 5}, "ismcts:iterations=12,rollout=random,horizon=round", 120),
    ("thegame", {"num_players": 2}, "pimc:worlds=1,rollout=planner", 5),
    (
        "thegame",
        {"num_players": 3, "signals": True},
        "pimc:worlds=2,rollouts=2,rollout=random",
        120,
    ),
    ("thegame", {"num_players": 4}, "ismcts:iterations=8,rollout=planner", 20),
    ("thegame", {"num_players": 5, "signals": True}, "ismcts:iterations=12,rollout=random", 120),
]


@pytest.mark.parametrize(("game", "options", "spec", "count"), OTHER_SEARCHES)
def test_sevn_ratatat_and_thegame_search_decides_the_same_with_rollouts_in_c_as_in_python(
    game: str, options: dict, spec: str, count: int
) -> None:
    """The same native engine, the rollouts in C against the Python ``Rollout``
    (``native_rollouts = False``): the same actions and scores at every decision of a few
    games. (thegame's C planner starts every rollout with fresh plans, the Python agents keep
    theirs from the previous rollout: a kept plan is replayed only where the position it expects
    recurs exactly, own hand, tops, cards played and signals, which no decision here meets.)"""
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    native, _ = _pair(game, options)
    sspec = envs.get_spec(game)
    fast, slow = make_agent(game, spec, seed=1), make_agent(game, spec, seed=1)
    slow.native_rollouts = False
    mask = np.zeros(native.num_actions, dtype=np.int8)
    decisions, g = 0, 0
    while decisions < count:
        state = native.new_game(np.random.default_rng(g))
        fast.reset(g)
        slow.reset(g)
        g += 1
        while decisions < count and not native.is_over(state):
            seat = native.current_player(state)
            a = decide(sspec, native, state, seat, fast, mask)
            b = decide(sspec, native, native.clone(state), seat, slow, mask)
            assert a == b
            assert fast.last_scores == slow.last_scores
            assert fast._rollout.native is not None and slow._rollout.native is None
            native.apply(state, a)
            decisions += 1


#: (game, engine options, the C baseline policy) of the batch entry point's checks
OTHER_BATCHES = [
    ("sevn", {"num_players": 4}, "ev"),
    ("sevn", {"num_players": 5}, "threshold"),
    ("ratatat", {"num_players": 3, "num_rounds": 2}, "tracker"),
    ("thegame", {"num_players": 3, "signals": True}, "planner"),
]


@pytest.mark.parametrize(("game", "options", "policy"), OTHER_BATCHES)
def test_other_rollout_batches_are_seeded_and_leave_their_states_alone(
    game: str, options: dict, policy: str
) -> None:
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    native, _ = _pair(game, options)
    n = native.num_players
    starts = _starts(native, 5, seed=6)
    before = [(native.to_dict(s), s.rng.bit_generator.state) for s in starts]
    horizons = ("game", 7) if game == "thegame" else ("game", "round", 7)
    for pol in ("random", policy):
        for horizon in horizons:
            a, made = native.rollout_batch(starts, pol, horizon, seed=1, rollouts=20)
            b, again = native.rollout_batch(starts, pol, horizon, seed=1, rollouts=20)
            assert a.shape == (5 * 20, n) and a.dtype == np.float64
            assert np.array_equal(a, b) and made == again > 0
            if horizon == 7:
                assert made <= 5 * 20 * 7
            # a baseline draws only the reshuffles (none in the planner's games, few in a round)
            if pol == "random" or (horizon == "game" and game != "thegame"):
                c, _ = native.rollout_batch(starts, pol, horizon, seed=2, rollouts=20)
                assert not np.array_equal(a, c)
            if horizon == "game" and game != "thegame":
                assert np.allclose(a.sum(axis=1), 0.0)  # zero-sum returns
    assert [(native.to_dict(s), s.rng.bit_generator.state) for s in starts] == before
    assert native.rollout_batch([], policy)[0].shape == (0, n)


@pytest.mark.parametrize(("game", "options", "policy"), OTHER_BATCHES)
def test_a_baseline_batch_plays_the_games_play_out_plays(
    game: str, options: dict, policy: str
) -> None:
    """The baselines draw nothing: one rollout of a state whose generator is
    ``default_rng(seed)`` is ``rollout_batch(seed=seed)``'s, value for value (and so, through
    ``play_out``, the Python ``Rollout``'s)."""
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    native, _ = _pair(game, options)
    starts = _starts(native, 12, seed=4)
    for horizon in ("game",) if game == "thegame" else ("game", "round"):
        for k, state in enumerate(starts):
            start = native.round_index(state) if horizon == "round" else None
            got, _ = native.rollout_batch([state], policy, horizon, seed=k)
            world = native.clone(state, rng=np.random.default_rng(k))
            assert got.tolist() == native.play_out([world], policy, start).tolist()


@pytest.mark.parametrize("game", ["sevn", "ratatat", "thegame"])
def test_other_rollout_batches_refuse_bad_input(game: str) -> None:
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    native, python = _pair(game, {"num_players": 3})
    state = native.new_game(np.random.default_rng(0))
    with pytest.raises(ConfigError, match="horizon 'hand'; allowed"):
        native.rollout_batch([state], "random", "hand")
    with pytest.raises(ConfigError, match="horizon 0; allowed"):
        native.rollout_batch([state], "random", 0)
    with pytest.raises(ConfigError, match="rollouts 0; allowed"):
        native.rollout_batch([state], "random", "game", rollouts=0)
    with pytest.raises(ConfigError, match="policy 'greedy'; allowed"):
        native.rollout_batch([state], "greedy")
    with pytest.raises(ConfigError, match="among the states"):
        native.rollout_batch([python.new_game(np.random.default_rng(0))])
    if game == "thegame":
        with pytest.raises(ConfigError, match="horizon 'round'; allowed: 'game' or a number"):
            native.rollout_batch([state], "random", "round")


@pytest.mark.parametrize("game", ["sevn", "ratatat", "thegame"])
def test_the_search_speed_bench_rolls_the_other_games_out_natively(game: str) -> None:
    if not _built(game):
        pytest.skip(f"the {game} native core is not built")
    from bench.search_speed import policy_speed, positions
    from cardarena.agents.specs import best_baseline

    native, _ = _pair(game, {"num_players": 3})
    starts = positions(native, 4, seed=1)
    for policy in ("random", best_baseline(game)):
        rate, core = policy_speed(game, envs.get_spec(game), native, starts, policy, 0.02)
        assert rate > 0 and core == "native batch (C)"


def test_thegame_play_outs_planner_defaults_are_the_agents() -> None:
    if not _built("thegame"):
        pytest.skip("the thegame native core is not built")
    import inspect

    from cardarena.agents.baselines.thegame import PlannerAgent
    from cardarena.envs.thegame import _native as ext

    defaults = {
        name: p.default
        for name, p in inspect.signature(PlannerAgent.__init__).parameters.items()
        if name not in ("self", "seed")
    }
    assert ext.PLANNER_OPTIONS == defaults
    from cardarena.envs.thegame.native import NativeThegameGame

    assert set(NativeThegameGame.rollout_policies["planner"]) == set(defaults)


# ---- suicidium: the heuristic in C (envs/suicidium/_native.pyx) -------------------------------
# Its alignment with the Python agent, decision by decision, is tests/test_native_suicidium.py's;
# here: play_out is the Python Rollout, and the searches decide the same with it.
from cardarena.envs.suicidium.native import NATIVE_BUILT as SUICIDIUM_BUILT  # noqa: E402
from cardarena.envs.suicidium.rules import SuicidiumGame  # noqa: E402

SUICIDIUM = envs.get_spec("suicidium")
needs_suicidium = pytest.mark.skipif(
    not SUICIDIUM_BUILT, reason="the suicidium native core is not built"
)
#: (players, mode, expansion) of the suicidium checks
SUICIDIUM_TABLES = [(2, "SURVIVE", True), (3, "DEPRESSION", True), (4, "SURVIVE", False)]


def _suicidium_starts(num_players: int, mode: str, expansion: bool, count: int, seed: int):
    """(native, python) engines and ``count`` mid-game Python states of random games."""
    from cardarena.envs.suicidium.native import NativeSuicidiumGame

    native = NativeSuicidiumGame(num_players, mode, expansion)
    python = SuicidiumGame(num_players, mode, expansion)
    plan = np.random.default_rng(seed)
    starts = []
    while len(starts) < count:
        state = python.new_game(np.random.default_rng(int(plan.integers(2**31))))
        while not python.is_over(state) and len(starts) < count:
            if plan.random() < 0.15:
                starts.append(python.clone(state))
            legal = python.legal_actions(state)
            python.apply(state, legal[int(plan.integers(len(legal)))])
    return native, python, starts


@needs_suicidium
@pytest.mark.parametrize("table", SUICIDIUM_TABLES, ids=lambda t: f"{t[0]}-{t[1]}-{t[2]}")
def test_suicidium_play_out_gives_the_python_rollouts_values_from_the_same_generators(table):
    """Each state rolled out by the Python Rollout on the Python engine and by play_out on its
    native copy (the same engine generator): the same values and end states, and the agents'
    generators (the heuristic's random choices) advanced alike."""
    native, python, starts = _suicidium_starts(*table, count=25, seed=table[0])
    for policy in ("heuristic", "random"):
        fast = Rollout("suicidium", SUICIDIUM, native, policy, "game")
        slow = Rollout("suicidium", SUICIDIUM, python, policy, "game", native=False)
        assert fast.native is not None and slow.native is None
        fast.reseed(random.Random(3))
        slow.reseed(random.Random(3))
        seeds = list(range(len(starts)))
        ours = [native.from_python(python.clone(s)) for s in starts]
        theirs = [python.clone(s) for s in starts]
        got = fast.run_many(ours, seeds, fast.start(ours[0]))
        want = slow.run_many(theirs, seeds, slow.start(theirs[0]))
        assert got == want
        assert [native.to_dict(s) for s in ours] == [python.to_dict(s) for s in theirs]
        if policy == "heuristic":  # one state at a time too (run), the agents' generators alike
            for a, b in zip(fast.agents, slow.agents, strict=True):
                assert a.rng.bit_generator.state == b.rng.bit_generator.state
            for s in starts[:10]:
                one, two = native.from_python(python.clone(s)), python.clone(s)
                assert fast.run(one, random.Random(0)) == slow.run(two, random.Random(0))
            for a, b in zip(fast.agents, slow.agents, strict=True):
                assert a.rng.bit_generator.state == b.rng.bit_generator.state
    assert fast.native == ("random", {})
    heuristic = Rollout("suicidium", SUICIDIUM, native, "heuristic", "game")
    assert heuristic.native == (
        "heuristic",
        {"play_threshold": 0.4, "draw_margin": 10, "lift_weight": 0.3},
    )
    assert heuristic.native_rngs and not fast.native_rngs


@needs_suicidium
def test_suicidium_play_out_with_one_python_generator_consumes_it_as_the_python_rollouts_do():
    native, python, starts = _suicidium_starts(3, "SURVIVE", True, 12, seed=5)
    py_fast, py_slow = random.Random(9), random.Random(9)
    got = native.play_out(
        [native.from_python(python.clone(s)) for s in starts], "random", py=py_fast
    )
    slow = Rollout("suicidium", SUICIDIUM, python, "random", "game", native=False)
    want = [slow.run(python.clone(s), py_slow) for s in starts]
    assert got.tolist() == want
    assert py_fast.getstate() == py_slow.getstate()


SUICIDIUM_SEARCHES = [
    ("pimc:worlds=2,rollout=heuristic", 1),
    ("ismcts:iterations=8,rollout=heuristic", 1),
    ("pimc:worlds=2,rollout=random", 3),
    ("ismcts:iterations=10,rollout=random", 3),
]


@needs_suicidium
@pytest.mark.parametrize(
    ("spec", "games"), SUICIDIUM_SEARCHES, ids=[s for s, _ in SUICIDIUM_SEARCHES]
)
def test_suicidium_search_decides_the_same_with_rollouts_in_c_as_in_python(spec, games):
    """Native engine + C rollouts against the Python engine + Python rollouts: the same actions
    and scores at every decision (288 in all) (target decisions of the searcher's own cards, whose rollouts
    start without a plan, included), over the tables of SUICIDIUM_TABLES."""
    decisions = 0
    for num_players, mode, expansion in SUICIDIUM_TABLES:
        from cardarena.envs.suicidium.native import NativeSuicidiumGame

        native = NativeSuicidiumGame(num_players, mode, expansion)
        python = SuicidiumGame(num_players, mode, expansion)
        fast = make_agent("suicidium", spec, seed=1)
        slow = make_agent("suicidium", spec, seed=1)
        slow.native_rollouts = False
        mask = np.zeros(native.num_actions, dtype=np.int8)
        for g in range(games):
            state = native.new_game(np.random.default_rng(g))
            fast.reset(g)
            slow.reset(g)
            for _ in range(12):
                if state.over:
                    break
                seat = state.decider
                a = decide(SUICIDIUM, native, state, seat, fast, mask)
                b = decide(SUICIDIUM, python, state.to_python(), seat, slow, mask)
                assert a == b
                assert fast.last_scores == slow.last_scores
                assert fast._rollout.native is not None and slow._rollout.native is None
                native.apply(state, a)
                decisions += 1
    assert decisions >= 12 * games * len(SUICIDIUM_TABLES) - 2
