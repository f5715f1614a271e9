"""``from_dict`` refuses impossible states with ConfigError and keeps the rewards still owed.

The property test takes states of random games (several seeds and player counts, several points
of each game, game over included), corrupts them at random (a card dropped, duplicated or
replaced, a number made out of range, negative, huge or of the wrong type, a key deleted or added,
a wrong game name, a list cut or lengthened...), at least 1,000 per game, and requires each
corrupted state to be either refused with :class:`ConfigError` (never another exception) or, if
accepted, one of:

* **a no-op**: the restored state is the uncorrupted one (the corrupted field is derived and
  rebuilt), and it continues exactly as the uncorrupted copy under the same actions;
* **the same play**: the restored state is exactly the corrupted data, and it continues exactly
  as the uncorrupted copy would under the same actions: the same deciding seat, legal actions,
  returns and observations of every seat at every step (a field nothing reads again, such as a
  stale memory entry);
* **a state the game can reach**: the restored state is exactly the corrupted data (nothing
  silently changed), every field that differs from the uncorrupted state is one the game's
  declaration in ``tests/reachable/<game>.py`` says any value ``from_dict`` accepts there is
  reachable (with the reason), and random legal play from it keeps every card of the deck in
  exactly one zone with a legal action at every decision.

Anything else (accepted and silently changed, or a changed field no rule of the game can reach)
fails, printing the game, the seed and the corruption.
"""

from __future__ import annotations

import copy
import importlib
import json
import re
import time
from typing import Any

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core import ConfigError, GameEngine

GAME_NAMES = envs.names()
GAMES = [pytest.param(name, id=name) for name in GAME_NAMES]

#: corrupted states per game
CORRUPTIONS = 1_000
#: decisions an accepted corrupted state is played for (to the end if it comes first)
PLAY_STEPS = 150
#: decisions the same-play comparison follows (every game of the suite ends well before)
SAME_PLAY_STEPS = 2_000
#: states of random games each corruption starts from (seeds x points of the game)
SEEDS = 6
POINTS = 5

#: wrong values of every kind a number or a flag may be replaced with
BAD_SCALARS: list[Any] = [
    -1,
    -2,
    -(10**6),
    0,
    1,
    2,
    7,
    99,
    4_000_000_000,
    10**30,
    2.5,
    float("nan"),
    "3",
    "",
    None,
    True,
    False,
    [],
    {},
    [0],
]


def engines(name: str) -> list[GameEngine]:
    cls = envs.get_spec(name).engine_cls
    counts = sorted({cls.min_players, (cls.min_players + cls.max_players) // 2, cls.max_players})
    return [envs.get_spec(name).make_engine(num_players=n) for n in counts]


def random_play(engine: GameEngine, state: Any, rng: np.random.Generator, steps: int) -> int:
    """Play up to ``steps`` random legal actions, checking the engine's invariants every step."""
    for step in range(steps):
        problem = engine.conservation_error(state)
        assert problem is None, f"step {step}: cards not conserved: {problem}"
        if engine.is_over(state):
            assert engine.current_player(state) is None and engine.legal_actions(state) == []
            return step
        seat = engine.current_player(state)
        assert isinstance(seat, int) and 0 <= seat < engine.num_players, f"seat {seat!r}"
        legal = engine.legal_actions(state)
        assert legal, f"step {step}: no legal action while the game runs"
        assert all(0 <= a < engine.num_actions for a in legal)
        engine.apply(state, int(legal[rng.integers(len(legal))]), seat)
    return steps


def sample_states(name: str) -> list[tuple[GameEngine, str, dict[str, Any]]]:
    """(engine, where, saved state) at several points of random games, the end included."""
    out = []
    for seed in range(SEEDS):
        engine = engines(name)[seed % len(engines(name))]
        rng = np.random.default_rng(seed)
        state = engine.new_game(np.random.default_rng(1000 + seed))
        history = [engine.to_dict(state)]
        while not engine.is_over(state) and len(history) < 5_000:
            legal = engine.legal_actions(state)
            engine.apply(state, int(legal[rng.integers(len(legal))]))
            history.append(engine.to_dict(state))
        picks = sorted(rng.choice(len(history) - 1, size=min(POINTS - 1, len(history) - 1)))
        for i in [*picks, len(history) - 1]:
            data = json.loads(json.dumps(history[i]))
            out.append((engine, f"{engine.num_players}p seed {seed} decision {i}", data))
    return out


def leaves(data: Any, path: tuple = ()) -> list[tuple]:
    """Paths of every value in nested dicts and lists (containers included)."""
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += leaves(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += leaves(value, (*path, i))
    return out


def strings_of(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in strings_of(v)]
    if isinstance(data, list):
        return [s for v in data for s in strings_of(v)]
    return []


def corrupt(
    data: dict[str, Any], engine: GameEngine, rng: np.random.Generator
) -> tuple[dict[str, Any], str]:
    """A corrupted deep copy of ``data`` and what was done."""
    data = copy.deepcopy(data)
    codes = sorted(set(engine.deck_codes())) + ["BOGUS", "1000"]
    words = sorted(set(strings_of(data))) + codes
    kind = rng.integers(10)
    if kind == 0:  # a card zone: drop, duplicate, replace, move a card
        zones = [p for p in leaves(data) if _is_card_list(_at(data, p), codes)]
        if zones:
            path = zones[rng.integers(len(zones))]
            cards = _at(data, path)
            op = rng.integers(4)
            if op == 0 and cards:
                cards.pop(int(rng.integers(len(cards))))
                return data, f"dropped a card of {path}"
            if op == 1 and cards:
                cards.append(cards[rng.integers(len(cards))])
                return data, f"duplicated a card of {path}"
            if op == 2 and cards:
                i = int(rng.integers(len(cards)))
                cards[i] = codes[rng.integers(len(codes))]
                return data, f"replaced card {i} of {path} by {cards[i]!r}"
            if cards:
                other = zones[rng.integers(len(zones))]
                _at(data, other).append(cards.pop())
                return data, f"moved a card from {path} to {other}"
    if kind == 1:  # top level: delete a key, add one, wrong game name
        op = rng.integers(3)
        keys = sorted(data)
        if op == 0:
            key = keys[rng.integers(len(keys))]
            del data[key]
            return data, f"deleted {key!r}"
        if op == 1:
            data["extra_field"] = 1
            return data, "added a key"
        data["game"] = [g for g in GAME_NAMES if g != engine.name][
            rng.integers(len(GAME_NAMES) - 1)
        ]
        return data, f"game {data['game']!r}"
    if kind == 2:  # a list made shorter, longer, or not a list
        lists = [p for p in leaves(data) if p and isinstance(_at(data, p), list)]
        path = lists[rng.integers(len(lists))]
        items = _at(data, path)
        op = rng.integers(3)
        if op == 0 and items:
            del items[-1]
            return data, f"shortened {path}"
        if op == 1 and items:
            items.append(copy.deepcopy(items[-1]))
            return data, f"lengthened {path}"
        _set(data, path, BAD_SCALARS[rng.integers(len(BAD_SCALARS))])
        return data, f"{path} replaced by {_at(data, path)!r}"
    # a value replaced: a near or bad number, another word, a flipped flag
    paths = [p for p in leaves(data) if p]
    path = paths[rng.integers(len(paths))]
    old = _at(data, path)
    choices = list(BAD_SCALARS) + [words[rng.integers(len(words))]]
    if isinstance(old, bool):
        choices += [not old] * 8
    elif isinstance(old, int):
        choices += [old + 1, old - 1, old + engine.num_players, -old - 1] * 4
        choices += [int(v) for v in rng.integers(-1, engine.num_players + 1, size=8)]
    elif isinstance(old, str):
        choices += [words[rng.integers(len(words))] for _ in range(12)]
    new = choices[rng.integers(len(choices))]
    _set(data, path, new)
    return data, f"{path}: {old!r} -> {new!r}"


def _is_card_list(value: Any, codes: list[str]) -> bool:
    return isinstance(value, list) and bool(value) and all(v in codes for v in value)


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def _set(data: Any, path: tuple, value: Any) -> None:
    _at(data, path[:-1])[path[-1]] = value


def changed_paths(a: Any, b: Any, path: str = "") -> list[str]:
    """The dotted paths (``scores.1``, ``rng.state.inc``) where ``a`` and ``b`` differ: a list of
    another length, a value of another type or another value. A path is a whole list when its
    length differs."""
    if type(a) is not type(b):
        return [path]
    if isinstance(a, dict):
        out = []
        for key in sorted(set(a) | set(b), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in a or key not in b:
                out.append(sub)
            else:
                out += changed_paths(a[key], b[key], sub)
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [path]
        return [
            p
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for p in changed_paths(x, y, f"{path}.{i}")
        ]
    return [] if a == b else [path]


def reachable_fields(name: str) -> dict[str, str]:
    """``tests/reachable/<game>.py``'s ``REACHABLE``: path pattern -> why any value ``from_dict``
    accepts there is a state the game can reach."""
    return importlib.import_module(f"tests.reachable.{name}").REACHABLE


def continuation(engine: GameEngine, state: Any, seed: int, steps: int) -> list[Any]:
    """The saved state after each of ``steps`` random legal actions (the same choices for the
    same ``seed`` and legal lists)."""
    rng = np.random.default_rng(seed)
    out = [engine.to_dict(state)]
    for _ in range(steps):
        if engine.is_over(state):
            break
        legal = engine.legal_actions(state)
        engine.apply(state, int(legal[rng.integers(len(legal))]), engine.current_player(state))
        out.append(engine.to_dict(state))
    return out


def play_trace(engine: GameEngine, state: Any, seed: int, steps: int) -> list[Any]:
    """What anyone can see of a game's continuation under random legal actions: at every step the
    deciding seat, the legal actions, the returns and every seat's observation."""
    encode = envs.get_spec(engine.name).encode
    rng = np.random.default_rng(seed)
    out: list[Any] = []
    for _ in range(steps):
        seats = range(engine.num_players)
        out.append(
            (
                engine.current_player(state),
                engine.legal_actions(state),
                engine.returns(state),
                [encode(state, s).tobytes() for s in seats],
            )
        )
        if engine.is_over(state):
            break
        legal = engine.legal_actions(state)
        engine.apply(state, int(legal[rng.integers(len(legal))]), engine.current_player(state))
    return out


def verdict(
    engine: GameEngine, base: dict[str, Any], bad: dict[str, Any], reachable: dict[str, str], i: int
) -> str:
    """``refused``, ``no-op``, ``same play`` or ``reachable`` for one corruption (module
    docstring); an AssertionError saying what is wrong otherwise."""
    try:
        state = engine.from_dict(copy.deepcopy(bad))
    except ConfigError as err:
        assert str(err), "an empty error message"
        return "refused"
    except Exception as err:  # noqa: BLE001 - the point: no other exception type
        raise AssertionError(f"{type(err).__name__} instead of ConfigError: {err}") from err
    restored = json.loads(json.dumps(engine.to_dict(state)))
    if restored == base:
        a = continuation(engine, engine.from_dict(copy.deepcopy(base)), i, PLAY_STEPS)
        assert continuation(engine, state, i, PLAY_STEPS) == a, "a no-op that plays on otherwise"
        return "no-op"
    assert restored == bad, (
        f"accepted and silently changed at {changed_paths(bad, restored)} (from_dict must keep "
        f"what it accepts, or refuse it)"
    )
    original = play_trace(engine, engine.from_dict(copy.deepcopy(base)), i, SAME_PLAY_STEPS)
    if play_trace(engine, engine.from_dict(copy.deepcopy(bad)), i, SAME_PLAY_STEPS) == original:
        return "same play"
    unexplained = [
        p for p in changed_paths(base, bad) if not any(re.fullmatch(r, p) for r in reachable)
    ]
    assert not unexplained, (
        f"accepted a change of {unexplained}, which tests/reachable/{engine.name}.py does not "
        f"declare reachable: refuse it in from_dict, or declare why every accepted value is a "
        f"state the game reaches"
    )
    try:
        random_play(engine, state, np.random.default_rng(i), PLAY_STEPS)
    except AssertionError as err:
        raise AssertionError(f"accepted, then {err}") from None
    except Exception as err:  # noqa: BLE001
        raise AssertionError(f"accepted, then {type(err).__name__}: {err}") from None
    return "reachable"


@pytest.mark.parametrize("name", GAMES)
def test_corrupted_states_are_refused_or_reachable(name: str) -> None:
    states = sample_states(name)
    reachable = reachable_fields(name)
    for engine, where, data in states:  # the uncorrupted states load and play on
        state = engine.from_dict(copy.deepcopy(data))
        assert engine.to_dict(state) == data, where
        random_play(engine, state, np.random.default_rng(0), PLAY_STEPS)
    rng = np.random.default_rng(12345)
    counts = {"refused": 0, "no-op": 0, "same play": 0, "reachable": 0}
    failures = []
    for i in range(CORRUPTIONS):
        engine, where, base = states[rng.integers(len(states))]
        bad, what = corrupt(base, engine, rng)
        if rng.random() < 0.2:  # now and then two corruptions at once
            bad, more = corrupt(bad, engine, rng)
            what += f"; {more}"
        try:
            counts[verdict(engine, base, bad, reachable, i)] += 1
        except AssertionError as err:
            failures.append(f"{name} {where}, corruption {i}: {what}: {err}")
    assert not failures, f"{len(failures)} of {CORRUPTIONS}:\n" + "\n".join(failures[:40])
    assert counts["refused"] > CORRUPTIONS // 2, counts


def test_the_reachable_declarations_name_real_fields() -> None:
    """Every pattern of ``tests/reachable/<game>.py`` matches a field of a saved state (a typo
    in a pattern would declare nothing) and gives its reason."""
    for name in GAME_NAMES:
        paths = set()
        for _, _, data in sample_states(name)[:6]:
            paths |= {".".join(map(str, p)) for p in leaves(data) if p}
        for pattern, reason in reachable_fields(name).items():
            assert reason.strip(), f"{name}: {pattern!r} has no reason"
            assert any(re.fullmatch(pattern, p) for p in paths), (
                f"{name}: {pattern!r} matches no field"
            )


# ---- the cases of the issue ------------------------------------------------------------------------
def started(name: str, seed: int = 0, steps: int = 3) -> tuple[GameEngine, dict[str, Any]]:
    engine = engines(name)[-1]
    state = engine.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if engine.is_over(state):
            break
        legal = engine.legal_actions(state)
        engine.apply(state, int(legal[rng.integers(len(legal))]))
    return engine, json.loads(json.dumps(engine.to_dict(state)))


@pytest.mark.parametrize("name", GAMES)
def test_extra_cards_in_the_draw_pile_are_refused(name: str) -> None:
    engine, data = started(name)
    data["draw_pile"] += data["draw_pile"][:5] or engine.deck_codes()[:5]
    with pytest.raises(ConfigError, match="do not add up to the deck"):
        engine.from_dict(data)


@pytest.mark.parametrize("name", GAMES)
def test_a_decider_without_legal_action_is_refused(name: str) -> None:
    engine, data = started(name)
    key = "decider" if "decider" in data else "current"
    data[key] = -1
    with pytest.raises(ConfigError, match=key):
        engine.from_dict(data)


@pytest.mark.parametrize("name", GAMES)
def test_another_game_name_is_refused(name: str) -> None:
    engine, data = started(name)
    for other in [g for g in GAME_NAMES if g != name] + ["", None]:
        data["game"] = other
        with pytest.raises(ConfigError, match="'game'"):
            engine.from_dict(data)


@pytest.mark.parametrize("name", GAMES)
def test_not_a_dict_and_missing_fields_are_refused(name: str) -> None:
    engine, data = started(name)
    for bad in (None, [], "state", 3):
        with pytest.raises(ConfigError):
            engine.from_dict(bad)
    for key in data:
        cut = {k: v for k, v in data.items() if k != key}
        with pytest.raises(ConfigError, match=repr(key) if key != "game" else "'game'"):
            engine.from_dict(cut)


def test_ratatat_huge_seat_number_is_refused_quickly() -> None:
    engine, data = started("ratatat", steps=10)
    for field in ("played", "winners"):
        bad = copy.deepcopy(data)
        bad[field] = [4_000_000_000]
        start = time.perf_counter()
        with pytest.raises(ConfigError, match=field):
            engine.from_dict(bad)
        assert time.perf_counter() - start < 0.5
    bad = copy.deepcopy(data)
    bad["knowers"][0][0] = [4_000_000_000]
    with pytest.raises(ConfigError, match="knowers"):
        engine.from_dict(bad)


def test_rng_naming_something_else_of_numpy_is_refused() -> None:
    engine, data = started("flip6")
    data["rng"] = {"bit_generator": "seed"}
    with pytest.raises(ConfigError, match="rng"):
        engine.from_dict(data)


# ---- rewards still owed survive a round trip --------------------------------------------------------
def finished_env(name: str, seed: int = 0) -> Any:
    env = envs.make(name)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not env.terminations[env.agent_selection]:
        legal = env.unwrapped.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    return env


def owed(env: Any) -> dict[str, float]:
    return dict(env._cumulative_rewards)


@pytest.mark.parametrize("name", GAMES)
def test_round_trip_after_game_over_keeps_the_payoffs_owed(name: str) -> None:
    for seed in range(3):
        env = finished_env(name, seed)
        before = owed(env)
        if name != "thegame":
            assert any(before.values()) or env.unwrapped.game.winners(env.state_obj) == list(
                range(env.num_agents)
            )
        saved = json.loads(json.dumps(env.unwrapped.to_dict()))
        twin = envs.make(name)
        twin.reset(seed=99)
        twin.unwrapped.from_dict(saved)
        assert owed(twin) == before
        assert twin.rewards == env.rewards
        got = {}
        for agent in twin.agent_iter():
            got[agent] = twin.last()[1]
            twin.step(None)
        assert got == before


def test_thegame_round_trip_mid_game_keeps_the_acting_seats_pending_reward() -> None:
    env = envs.make("thegame", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    checked = 0
    while not env.terminations[env.agent_selection] and checked < 30:
        legal = env.unwrapped.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
        if env.terminations[env.agent_selection]:
            break
        before = owed(env)
        saved = json.loads(json.dumps(env.unwrapped.to_dict()))
        twin = envs.make("thegame", num_players=3)
        twin.unwrapped.from_dict(saved)
        assert owed(twin) == before and twin.rewards == env.rewards
        assert twin.last()[1] == env.last()[1]
        checked += bool(before[env.agent_selection])
    assert checked


@pytest.mark.parametrize("name", GAMES)
def test_env_state_with_bad_rewards_is_refused(name: str) -> None:
    env = finished_env(name)
    saved = env.unwrapped.to_dict()
    for bad in ("x", None, [0.0], [float("nan")] * env.num_agents, [1e300] * env.num_agents):
        data = copy.deepcopy(saved)
        data["aec"]["cumulative_rewards"] = bad
        with pytest.raises(ConfigError, match="cumulative_rewards"):
            env.unwrapped.from_dict(data)
