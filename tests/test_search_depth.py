"""Depth-limited rollouts of the search agents (``depth=N``) and the learned state value of a cut.

* the option: parsed, validated with errors that name the value and the fix; ``value=leaf``
  needs a cut (``horizon=round`` or ``depth``) and, with ``depth``, a game with
  ``state_features``;
* a cut rollout stops after N decisions (or at the game's end), on either core and policy path;
* the C rollouts (``play_out(..., max_decisions=N)``) give the Python rollouts' values, end
  states and generators with the cut, valued by standing and by the state value, for suicidium
  and thegame; the searches decide the same with them;
* the shipped state values load without pickles and predict returns in range.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardarena import envs
from cardarena.agents import make_agent
from cardarena.agents.search import leaf as leaf_module
from cardarena.agents.search import parse_spec
from cardarena.agents.search.leaf import load_leaf, options_tag, shipped_path, state_value
from cardarena.agents.search.rollout import Rollout
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.loop import decide
from cardarena.envs.suicidium.native import NATIVE_BUILT as SUICIDIUM_BUILT
from cardarena.envs.suicidium.rules import SuicidiumGame
from cardarena.envs.thegame.native import NATIVE_BUILT as THEGAME_BUILT
from cardarena.envs.thegame.rules import TheGame

#: (game, engine options, scripted policy) of the checks
TABLES = [
    ("suicidium", {"num_players": 4, "mode": "DEPRESSION"}, "heuristic"),
    ("suicidium", {"num_players": 3, "mode": "SURVIVE", "expansion": True}, "heuristic"),
    ("thegame", {"num_players": 2}, "planner"),
    ("thegame", {"num_players": 3, "signals": True}, "planner"),
]


def _engines(game: str, options: dict) -> tuple:
    """(native engine or None, Python engine)."""
    if game == "suicidium":
        from cardarena.envs.suicidium.native import NativeSuicidiumGame

        return (NativeSuicidiumGame(**options) if SUICIDIUM_BUILT else None), SuicidiumGame(
            **options
        )
    from cardarena.envs.thegame.native import NativeThegameGame

    return (NativeThegameGame(**options) if THEGAME_BUILT else None), TheGame(**options)


def _starts(engine, count: int, seed: int) -> list:
    """``count`` mid-game states of random games of ``engine``."""
    plan = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = engine.new_game(np.random.default_rng(int(plan.integers(2**31))))
        for _ in range(int(plan.integers(80))):
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(plan.integers(len(legal)))])
        if not engine.is_over(state):
            out.append(state)
    return out


# ---- the option ---------------------------------------------------------------------------------
def test_depth_is_an_option_of_both_searches_and_a_bad_one_names_the_value_and_the_fix() -> None:
    assert parse_spec("pimc")[1]["depth"] == 0
    assert parse_spec("pimc:depth=12,value=leaf")[1]["depth"] == 12
    assert parse_spec("ismcts:depth=3")[1]["depth"] == 3
    for text in ("x", "-2", "1.5"):
        with pytest.raises(
            ConfigError,
            match=rf"depth must be an integer >= 0, got '{text}'.*"
            r"0: no cut; e\.g\. depth=20",
        ):
            parse_spec(f"pimc:depth={text}")
    with pytest.raises(ConfigError, match=r"depth=20001 is more than 20,000.*depth=0 for no cut"):
        parse_spec("ismcts:depth=20001")
    with pytest.raises(ConfigError, match="needs horizon=round .* or depth=N"):
        make_agent("suicidium", "pimc:rollout=heuristic,value=leaf")
    with pytest.raises(ConfigError, match=r"depth must be an integer from 0 \(no cut\)"):
        Rollout("thegame", envs.get_spec("thegame"), TheGame(2), "random", "game", depth=-1)


def test_a_depth_leaf_needs_a_game_with_state_features() -> None:
    engine = envs.get_spec("ratatat").make_engine(num_players=2)
    with pytest.raises(ConfigError, match="ratatat has none .*use value=standing"):
        state_value("ratatat", engine, "tracker")


# ---- a cut stops after N decisions ------------------------------------------------------------
@pytest.mark.parametrize(("game", "options", "policy"), TABLES[::2])
@pytest.mark.parametrize("path", ["python", "native"])
def test_a_cut_rollout_stops_after_n_decisions_or_at_the_end(game, options, policy, path) -> None:
    native, python = _engines(game, options)
    if path == "native" and native is None:
        pytest.skip(f"the {game} native core is not built")
    engine = python if path == "python" else native
    spec = envs.get_spec(game)
    for pol in ("random", policy):
        rollout = Rollout(game, spec, engine, pol, "game", depth=5, native=path == "native")
        assert (rollout.native is not None) == (path == "native")
        rollout.reseed(random.Random(1))
        for i, state in enumerate(_starts(engine, 12, seed=3)):
            before = state.decisions
            values = rollout.run_many([state], [i])[0]
            assert state.decisions == before + 5 or engine.is_over(state)
            if not engine.is_over(state):  # a cut: standing (0 in both games), not the return
                assert values == [engine.standing(state, s) for s in range(engine.num_players)]


# ---- C == Python with the cut ---------------------------------------------------------------------
@pytest.mark.parametrize(("game", "options", "policy"), TABLES)
@pytest.mark.parametrize("value", ["standing", "leaf"])
def test_cut_rollouts_in_c_give_the_python_rollouts_values(game, options, policy, value) -> None:
    """The same worlds and generators: the same values (the cut valued alike), end states and
    the agents' generators as the Python Rollout on the Python engine."""
    native, python = _engines(game, options)
    if native is None:
        pytest.skip(f"the {game} native core is not built")
    spec = envs.get_spec(game)
    leaf = state_value(game, native, policy, games=30, seed=1, progress=False)
    leaf = leaf if value == "leaf" else None
    starts = _starts(python, 20, seed=len(options))
    for pol in ("random", policy):
        for depth in (1, 9):
            fast = Rollout(game, spec, native, pol, "game", leaf=leaf, depth=depth)
            slow = Rollout(game, spec, python, pol, "game", leaf=leaf, native=False, depth=depth)
            assert fast.native is not None and slow.native is None
            fast.reseed(random.Random(3))
            slow.reseed(random.Random(3))
            ours = [native.from_python(python.clone(s)) for s in starts]
            theirs = [python.clone(s) for s in starts]
            seeds = list(range(len(starts)))
            assert fast.run_many(ours, seeds) == slow.run_many(theirs, seeds)
            assert [native.to_dict(s) for s in ours] == [python.to_dict(s) for s in theirs]
            for a, b in zip(fast.agents or [], slow.agents or [], strict=True):
                assert a.rng.bit_generator.state == b.rng.bit_generator.state
            one, two = native.from_python(python.clone(starts[0])), python.clone(starts[0])
            assert fast.run(one, random.Random(4), seat=1) == slow.run(
                two, random.Random(4), seat=1
            )


#: (game, engine options, spec, decisions) searched alike with C and Python rollouts
SEARCHES = [
    (
        "suicidium",
        {"num_players": 4, "mode": "DEPRESSION"},
        "pimc:worlds=3,rollout=heuristic,depth=10,value=leaf,gate=1",
        12,
    ),
    ("suicidium", {"num_players": 3}, "ismcts:iterations=10,rollout=heuristic,depth=6", 10),
    ("thegame", {"num_players": 2}, "pimc:worlds=2,rollout=planner,depth=8,value=leaf", 8),
    ("thegame", {"num_players": 2}, "ismcts:iterations=10,rollout=random,depth=4,value=leaf", 8),
]


@pytest.mark.parametrize(("game", "options", "spec", "count"), SEARCHES)
def test_a_depth_limited_search_decides_the_same_with_rollouts_in_c_as_in_python(
    game, options, spec, count, monkeypatch
) -> None:
    native, python = _engines(game, options)
    if native is None:
        pytest.skip(f"the {game} native core is not built")
    monkeypatch.setattr(leaf_module, "_CACHE", {})
    monkeypatch.setattr(leaf_module.state_value, "__defaults__", (40, 0, False))
    sspec = envs.get_spec(game)
    fast, slow = make_agent(game, spec, seed=1), make_agent(game, spec, seed=1)
    slow.native_rollouts = False
    mask = np.zeros(native.num_actions, dtype=np.int8)
    state = native.new_game(np.random.default_rng(5))
    decisions = 0
    while decisions < count and not native.is_over(state):
        seat = native.current_player(state)
        a = decide(sspec, native, state, seat, fast, mask)
        b = decide(sspec, python, state.to_python(), seat, slow, mask)
        assert a == b
        assert fast.last_scores == slow.last_scores
        native.apply(state, a)
        decisions += 1
    assert decisions == count
    assert fast._rollout.depth == int(spec.split("depth=")[1].split(",")[0])


# ---- the shipped state values ---------------------------------------------------------------
SHIPPED = [
    ("suicidium", {"num_players": 4}, "heuristic", (-1.0, 1.0)),
    ("suicidium", {"num_players": 4, "mode": "DEPRESSION"}, "heuristic", (-1.0, 1.0)),
    ("thegame", {"num_players": 2}, "planner", (0.0, 1.0)),
]


@pytest.mark.parametrize(("game", "options", "policy", "bounds"), SHIPPED)
def test_a_shipped_state_value_loads_without_pickles_and_predicts_in_range(
    game, options, policy, bounds, monkeypatch
) -> None:
    engine = envs.get_spec(game).make_engine(**options)  # either core
    path = shipped_path(game, policy, engine.num_players, options_tag(engine) + "_state")
    assert path.exists() and path.stat().st_size < 200_000
    leaf, meta = load_leaf(path, "state_features")
    assert meta["games"] == leaf_module.DEFAULT_GAMES and 0.0 < meta["r2"] < 1.0
    monkeypatch.setattr(leaf_module, "_CACHE", {})

    def no_fit(*args):
        raise AssertionError("the shipped fit should be used")

    monkeypatch.setattr(leaf_module, "fit_state", no_fit)
    used = state_value(game, engine, policy, progress=False)
    assert used.features == "state_features"
    states = _starts(engine, 40, seed=2)
    x = np.stack([engine.state_features(s, k) for s in states for k in range(engine.num_players)])
    values = used(x)
    assert np.array_equal(values, leaf(x))
    low, high = bounds
    margin = 0.15 * (high - low)
    assert values.min() > low - margin and values.max() < high + margin
    assert values.std() > 0.01  # it tells positions apart


def test_the_native_state_features_are_the_python_ones() -> None:
    for game, options, _ in TABLES:
        native, python = _engines(game, options)
        if native is None:
            continue
        for state in _starts(python, 10, seed=7):
            for seat in range(python.num_players):
                assert np.array_equal(
                    native.state_features(native.from_python(state), seat),
                    python.state_features(state, seat),
                )


def test_ratatat_cuts_within_a_round_alike_in_c_and_python() -> None:
    """``horizon=round`` with ``depth``: a rollout stops at the round's end or after N
    decisions, whichever is first; a cut inside the round is valued by standing on both paths."""
    from cardarena.envs.ratatat.native import NATIVE_BUILT

    if not NATIVE_BUILT:
        pytest.skip("the ratatat native core is not built")
    from cardarena.envs.ratatat.native import NativeRatatatGame
    from cardarena.envs.ratatat.rules import RatatatGame

    native, python = NativeRatatatGame(num_players=3), RatatatGame(num_players=3)
    spec = envs.get_spec("ratatat")
    starts = _starts(python, 15, seed=4)
    for policy in ("random", "tracker"):
        fast = Rollout("ratatat", spec, native, policy, "round", depth=6)
        slow = Rollout("ratatat", spec, python, policy, "round", native=False, depth=6)
        ours = [native.from_python(python.clone(s)) for s in starts]
        theirs = [python.clone(s) for s in starts]
        seeds = list(range(len(starts)))
        rounds = [fast.start(s) for s in ours]
        got = [fast.run_many([s], [k], r)[0] for s, k, r in zip(ours, seeds, rounds, strict=True)]
        want = [
            slow.run_many([s], [k], r)[0] for s, k, r in zip(theirs, seeds, rounds, strict=True)
        ]
        assert got == want
        assert [native.to_dict(s) for s in ours] == [python.to_dict(s) for s in theirs]
        cut = [s.decisions - b.decisions for s, b in zip(theirs, starts, strict=True)]
        assert max(cut) == 6 and min(cut) >= 1
