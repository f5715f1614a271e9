"""Harness tests run against every registered game and its player counts.

Only the generic interfaces are used (``GameEngine``, ``GameSpec``, ``CardGameEnv``, the registry),
so a game added to ``envs.GAMES`` gets every check here without an edit. The contract comes from
``docs/ARCHITECTURE.md``: PettingZoo AEC API, determinism whatever the global RNGs do, card
conservation after every action, rewards that sum as declared (``reward_kind``), no hidden
information in a seat's observation, mask or view, exact ``to_dict``/``from_dict`` round trips,
and clear errors for every misuse.

Random play always picks uniformly among the legal actions with a numpy Generator seeded apart
from the game, so every failure is reproducible from the test id and the printed seeds.

It runs on the core ``envs.make`` picks: the native one where it is built (``make test``), the
Python one under ``CARDARENA_CORE=python`` (``make test-python-core``, which CI runs too). The
two cores play the same games (the lock-step tests ``tests/test_native_<game>.py``), so the Python
run plays a quarter of the random games (``CORE_SCALE``): enough to check the reference's own path
(its encoder, views and ``from_dict``) at a quarter of the time.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import warnings
from math import ceil
from typing import Any

import numpy as np
import pettingzoo
import pytest
from gymnasium.spaces import Discrete
from pettingzoo.test import api_test, seed_test
from scenario import player_counts

from cardarena import envs
from cardarena.envs.core import (
    CardArenaError,
    CardGameEnv,
    ConfigError,
    GameEngine,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
    ResetNeededError,
)
from cardarena.envs.core.native import core_choice

#: the core under test (``CARDARENA_CORE``, native when unset) and its share of the random games
CORE = core_choice()
CORE_SCALE = 1.0 if CORE == "native" else 0.25
#: a random game still running after this many decisions counts as not terminating
MAX_DECISIONS = 20_000
#: random games per game (spread over its player counts) driven through the bare engine
ENGINE_GAMES_PER_GAME = int(2_000 * CORE_SCALE)
#: random games per game (spread over its player counts) driven through the AEC env
AEC_GAMES_PER_GAME = int(300 * CORE_SCALE)
#: random games per player count for the hidden-information check
LEAK_GAMES = int(40 * CORE_SCALE)
#: chance that a decision point of those games is checked for leaks
LEAK_CHECK_PROB = 0.15

#: warnings of pettingzoo's api_test that the suite's design causes on purpose
BENIGN_API_WARNINGS = (
    # the observation is {"observation", "action_mask"}, as in PettingZoo's classic envs
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)
#: api_test's probe of reset's signature: an option no game knows, which the env refuses
API_TEST_PROBE = {"options": 1}


def probed(env: CardGameEnv) -> CardGameEnv:
    """``env`` for PettingZoo's api_test, which calls ``reset(seed=0, options={"options": 1})``
    to see that reset takes those arguments: an unknown reset option is a ConfigError here, so
    that one call is checked to raise it and then made without the option."""
    reset = env.reset

    def reset_probed(seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if options == API_TEST_PROBE:
            with pytest.raises(ConfigError, match="unknown reset option 'options'"):
                reset(seed=seed, options=options)
            options = None
        reset(seed=seed, options=options)

    env.reset = reset_probed  # type: ignore[method-assign]
    return env


GAME_NAMES = envs.names()
GAMES = [pytest.param(name, id=name) for name in GAME_NAMES]


# ---- helpers -------------------------------------------------------------------------------------
def diff(a: Any, b: Any, path: str = "") -> str | None:
    """None when ``a`` and ``b`` are equal data (arrays compared by dtype, shape and values),
    else where they first differ."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a_arr, b_arr = np.asarray(a), np.asarray(b)
        if a_arr.dtype != b_arr.dtype or a_arr.shape != b_arr.shape:
            return f"{path}: {a_arr.dtype}{a_arr.shape} != {b_arr.dtype}{b_arr.shape}"
        if not np.array_equal(a_arr, b_arr):
            where = np.flatnonzero(a_arr.ravel() != b_arr.ravel())[:5].tolist()
            return f"{path}: arrays differ at flat indices {where}"
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{path}: keys {sorted(map(str, a))} != {sorted(map(str, b))}"
        for key in a:
            found = diff(a[key], b[key], f"{path}[{key!r}]")
            if found:
                return found
        return None
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if type(a) is not type(b) or len(a) != len(b):
            return f"{path}: {type(a).__name__} of {len(a)} != {type(b).__name__} of {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = diff(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if bool(a == b) else f"{path}: {a!r} != {b!r}"


def random_action(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "the acting agent's action_mask is all zeros"
    return int(legal[rng.integers(legal.size)])


def seat_mask(engine: GameEngine, state: Any, seat: int) -> np.ndarray:
    """The mask the contract asks for: legal actions for the deciding seat, zeros for the rest."""
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    if engine.current_player(state) == seat:
        mask[engine.legal_actions(state)] = 1
    return mask


def disturb_global_rngs(salt: int) -> None:
    """Move the global RNGs somewhere else; a correct env does not notice."""
    random.seed(salt)
    random.random()
    np.random.seed(random.randrange(2**32))
    np.random.rand(7)


def play_env(
    env: CardGameEnv,
    seed: int,
    action_seed: int,
    disturb: bool = False,
) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    """Play one game with random legal actions; the trajectory as seen by ``last()``."""
    env.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    record: list[tuple[Any, ...]] = []
    for agent in env.agent_iter(MAX_DECISIONS):
        obs, reward, terminated, truncated, info = env.last()
        record.append(
            (agent, obs["observation"].copy(), obs["action_mask"].copy(), reward, terminated)
            + (truncated, dict(info))
        )
        action = None if terminated or truncated else random_action(rng, obs["action_mask"])
        if disturb:
            disturb_global_rngs(len(record))
        env.step(action)
    assert not env.agents, f"game (seed {seed}) not over after {MAX_DECISIONS} decisions"
    return record, env.to_dict()


def play_actions(env: CardGameEnv, rng: np.random.Generator, steps: int) -> list[int]:
    """Step ``steps`` random legal actions (the game must still run); the actions taken."""
    actions = []
    for _ in range(steps):
        agent = env.agent_selection
        assert not env.terminations[agent], "the game ended earlier than planned"
        action = random_action(rng, env.observe(agent)["action_mask"])
        env.step(action)
        actions.append(action)
    return actions


def finish_game(env: CardGameEnv, rng: np.random.Generator) -> None:
    """Random legal actions until the game is over (agents stay, all terminated)."""
    for _ in range(MAX_DECISIONS):
        if env.terminations[env.agent_selection]:
            return
        env.step(random_action(rng, env.observe(env.agent_selection)["action_mask"]))
    raise AssertionError(f"game not over after {MAX_DECISIONS} decisions")


def json_round_trip(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))


def mentions_seat(text: str, seat: int) -> bool:
    """Renders name seats as ``seat 3`` / ``player_3`` (either spelling, any case)."""
    return re.search(rf"(?i)\b(?:seat|player)[ _#]?{seat}\b", text) is not None


# ---- 0. registry ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_the_harness_runs_on_the_core_it_names(name: str) -> None:
    """``CARDARENA_CORE=python`` really gives the Python engine (else this run would check the
    native core twice), and the default gives the native one wherever it is built."""
    engine = envs.make(name).game
    python_engine = type(engine).__module__.endswith(".rules")
    if CORE == "python":
        assert python_engine, f"{name}: CARDARENA_CORE=python made {type(engine).__name__}"
    elif envs.get_spec(name).native_built():
        assert not python_engine, f"{name}: the native core is built but not used"


def test_registry_lists_games() -> None:
    assert GAME_NAMES, "no game is registered"
    assert GAME_NAMES == sorted(envs.GAMES)
    with pytest.raises(ConfigError, match="registered games"):
        envs.make("no_such_game")


@pytest.mark.parametrize("name", GAMES)
def test_spec_and_factories(name: str) -> None:
    spec = envs.get_spec(name)
    cls = spec.engine_cls
    assert spec.name == name == cls.name
    assert 1 <= cls.min_players <= cls.max_players
    assert cls.num_actions >= 1
    assert cls.reward_kind in ("zero_sum", "shared")
    assert spec.env_id in pettingzoo.aec_registry
    module = importlib.import_module(f"cardarena.envs.{name}")
    default = envs.make(name)
    assert cls.min_players <= len(default.possible_agents) <= cls.max_players
    n = cls.max_players
    for env in (module.env(num_players=n), module.raw_env(num_players=n), envs.make_raw(name)):
        assert isinstance(env, CardGameEnv)
    assert module.env(num_players=n)._checks and not module.raw_env(num_players=n)._checks


# ---- 1. PettingZoo API ------------------------------------------------------------------------------
@pytest.mark.every_game(middle=True)
def test_pettingzoo_api(name: str, n: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(probed(envs.make(name, num_players=n)), num_cycles=1000)
        seed_test(lambda: envs.make(name, num_players=n), num_cycles=1000)
    unexpected = {
        str(w.message)
        for w in caught
        if not any(benign in str(w.message) for benign in BENIGN_API_WARNINGS)
    }
    assert not unexpected, f"api_test/seed_test warned: {sorted(unexpected)}"

    env = pettingzoo.make("aec", envs.get_spec(name).env_id, num_players=n)
    assert isinstance(env, CardGameEnv)
    assert env.possible_agents == [f"player_{i}" for i in range(n)]
    env.reset(seed=3)
    twin = envs.make(name, num_players=n)
    twin.reset(seed=3)
    assert diff(env.to_dict(), twin.to_dict()) is None
    for agent in env.possible_agents:
        assert env.action_space(agent) == Discrete(env.game.num_actions)
        assert env.observation_space(agent) == env.observation_space("player_0")


# ---- 2. determinism ---------------------------------------------------------------------------------
@pytest.mark.every_game(middle=True)
def test_same_seed_same_trajectory_whatever_the_global_rngs(name: str, n: int) -> None:
    for seed in (11, 12):
        # the env must neither read nor move the global RNGs
        disturb_global_rngs(1)
        first, first_end = play_env(envs.make(name, num_players=n), seed, seed + 500)
        after = (random.random(), float(np.random.rand()))
        disturb_global_rngs(1)
        assert after == (random.random(), float(np.random.rand())), "a game moved a global RNG"

        disturb_global_rngs(2)
        second, second_end = play_env(
            envs.make(name, num_players=n), seed, seed + 500, disturb=True
        )
        assert diff(first, second, "trajectory") is None, diff(first, second, "trajectory")
        assert diff(first_end, second_end, "to_dict") is None

        # a used env (even one left half stepped out) replays the same game after reset(seed)
        used = envs.make(name, num_players=n)
        used.reset(seed=seed + 1000)
        finish_game(used, np.random.default_rng(0))
        used.step(None)
        disturb_global_rngs(3)
        third, third_end = play_env(used, seed, seed + 500)
        assert diff(first, third, "trajectory") is None, diff(first, third, "trajectory")
        assert diff(first_end, third_end, "to_dict") is None

    # the seed matters: other seeds give other games
    _, other_end = play_env(envs.make(name, num_players=n), 13, 13 + 500)
    assert diff(first_end, other_end) is not None

    # reset() without a seed continues a seeded env's stream deterministically (PettingZoo habit)
    a, b = envs.make(name, num_players=n), envs.make(name, num_players=n)
    starts = []
    for env in (a, b):
        env.reset(seed=21)
        first_start = env.to_dict()
        disturb_global_rngs(len(starts))
        env.reset()
        starts.append((first_start, env.to_dict()))
    assert diff(starts[0][1], starts[1][1]) is None
    assert diff(starts[0][0], starts[0][1]) is not None, "reset() replayed the seeded game"


# ---- 3./4. random games through the bare engine -------------------------------------------------
def check_returns(engine: GameEngine, returns: list[float], where: str) -> None:
    """Returns add up as ``reward_kind`` says: to 0 (zero_sum) or the same for all (shared)."""
    assert len(returns) == engine.num_players, f"{where}: returns {returns}"
    if engine.reward_kind == "zero_sum":
        assert abs(sum(returns)) < 1e-9, f"{where}: zero_sum returns {returns} do not sum to 0"
    else:
        assert max(returns) - min(returns) < 1e-9, f"{where}: shared returns {returns} differ"


@pytest.mark.every_game(middle=True)
def test_engine_random_games_conserve_cards_and_sum_rewards(name: str, n: int) -> None:
    spec = envs.get_spec(name)
    engine = spec.make_engine(num_players=n)
    games = ceil(ENGINE_GAMES_PER_GAME / len(player_counts(name, middle=True)))
    decided_returns = 0
    for g in range(games):
        state = engine.new_game(np.random.default_rng(g))
        rng = np.random.default_rng(10**6 + g)
        where = f"{name} {n}p game seed {g}"
        error = engine.conservation_error(state)
        assert error is None, f"{where}, after the deal: {error}"
        for step in range(MAX_DECISIONS):
            if engine.is_over(state):
                break
            seat = engine.current_player(state)
            legal = engine.legal_actions(state)
            assert seat is not None and 0 <= seat < n, f"{where} step {step}: seat {seat}"
            assert legal, f"{where} step {step}: no legal action while the game runs"
            assert legal == sorted(set(legal)), f"{where} step {step}: {legal} not sorted/unique"
            assert 0 <= legal[0] and legal[-1] < engine.num_actions
            assert engine.winners(state) == [], f"{where} step {step}: winners while running"
            check_returns(engine, engine.returns(state), f"{where} step {step}")
            engine.apply(state, legal[int(rng.integers(len(legal)))], seat)
            error = engine.conservation_error(state)
            assert error is None, f"{where}, after step {step}: {error}"
        else:
            raise AssertionError(f"{where}: not over after {MAX_DECISIONS} decisions")
        assert engine.current_player(state) is None and engine.legal_actions(state) == []
        returns = engine.returns(state)
        check_returns(engine, returns, f"{where}, final")
        decided_returns += any(r != 0 for r in returns)
        data = engine.to_dict(state)
        assert data["winners"] == engine.winners(state) and data["current_player"] is None
        assert data["scores"] == list(engine.scores(state)) or np.allclose(
            data["scores"], engine.scores(state)
        )
    if engine.reward_kind == "zero_sum":
        assert decided_returns > 0, "every game returned all zeros: returns() looks unfinished"


# ---- 3./4. random games through the AEC env -------------------------------------------------------
def check_every_observation(env: CardGameEnv, where: str) -> None:
    game, state = env.game, env.state_obj
    error = game.conservation_error(state)
    assert error is None, f"{where}: {error}"
    running = not game.is_over(state)
    current = game.current_player(state)
    legal = game.legal_actions(state)
    if running:
        assert env.agent_selection == f"player_{current}", where
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert set(obs) == {"observation", "action_mask"}, where
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert env.observation_space(agent).contains(obs), f"{where}: {agent} obs off its space"
        mask = obs["action_mask"]
        if running and seat == current:
            assert mask.any(), f"{where}: acting {agent} has an all-zero mask"
            assert np.flatnonzero(mask).tolist() == legal, f"{where}: mask != legal actions"
        else:
            assert not mask.any(), f"{where}: non-acting {agent} has mask {mask.tolist()}"


@pytest.mark.every_game(middle=True)
def test_aec_random_games_masks_conservation_rewards(name: str, n: int) -> None:
    env = envs.make(name, num_players=n)
    games = ceil(AEC_GAMES_PER_GAME / len(player_counts(name, middle=True)))
    for g in range(games):
        env.reset(seed=g)
        rng = np.random.default_rng(10**7 + g)
        collected = dict.fromkeys(env.possible_agents, 0.0)
        start = env.game.returns(env.state_obj)  # rewards are the changes of the returns
        check_every_observation(env, f"{name} {n}p seed {g} after reset")
        for step, agent in enumerate(env.agent_iter(MAX_DECISIONS)):
            obs, reward, terminated, truncated, _ = env.last()
            collected[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            env.step(random_action(rng, obs["action_mask"]))
            check_every_observation(env, f"{name} {n}p seed {g} after step {step}")
        assert not env.agents, f"{name} {n}p seed {g}: not over after {MAX_DECISIONS} decisions"
        returns = env.game.returns(env.state_obj)
        for seat, agent in enumerate(env.possible_agents):
            assert abs(collected[agent] - (returns[seat] - start[seat])) < 1e-9, (
                f"{name} {n}p seed {g}: {agent} collected {collected[agent]}, "
                f"engine return {returns[seat]} (at reset {start[seat]})"
            )
        if env.game.reward_kind == "zero_sum":
            assert abs(sum(collected.values())) < 1e-9, collected
        else:
            assert max(collected.values()) - min(collected.values()) < 1e-9, collected


# ---- 5. hidden information --------------------------------------------------------------------------
def leak_report(
    engine: GameEngine,
    encode: Any,
    view: Any,
    render: Any,
    state: Any,
    seat: int,
    rng: np.random.Generator,
) -> tuple[str | None, bool]:
    """Redraw what ``seat`` cannot see; (what ``seat`` would notice, whether cards moved)."""
    before = json.dumps(engine.to_dict(state), sort_keys=True, default=str)
    other = engine.resample_hidden(state, seat, rng)
    if json.dumps(engine.to_dict(state), sort_keys=True, default=str) != before:
        return "resample_hidden changed the original state", False
    error = engine.conservation_error(other)
    if error is not None:
        return f"the resampled state lost cards: {error}", False
    found = (
        diff(encode(state, seat), encode(other, seat), "encode")
        or diff(seat_mask(engine, state, seat), seat_mask(engine, other, seat), "mask")
        or diff(view(state, seat), view(other, seat), "view")
        or diff(render(state, seat), render(other, seat), "render(seat)")
        or diff(render(state, None), render(other, None), "render(None)")
    )
    moved = diff(engine.card_zones(state), engine.card_zones(other)) is not None
    return found, moved


def leak_scan(name: str, n: int, encode: Any) -> tuple[list[str], int, int]:
    """Check random mid-game points of random games; (leaks, points checked, points moved)."""
    spec = envs.get_spec(name)
    engine = spec.make_engine(num_players=n)
    leaks, checked, moved = [], 0, 0
    for g in range(LEAK_GAMES):
        state = engine.new_game(np.random.default_rng(g))
        rng = np.random.default_rng(2 * 10**6 + g)
        for step in range(MAX_DECISIONS):
            if step == 0 or rng.random() < LEAK_CHECK_PROB:
                for seat in range(n):
                    found, changed = leak_report(
                        engine, encode, spec.view, spec.render, state, seat, rng
                    )
                    checked += 1
                    moved += changed
                    if found:
                        leaks.append(f"game seed {g}, step {step}, seat {seat}: {found}")
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
    return leaks, checked, moved


@pytest.mark.every_game(middle=True)
def test_hidden_information_does_not_leak(name: str, n: int) -> None:
    leaks, checked, moved = leak_scan(name, n, envs.get_spec(name).encode)
    assert not leaks, f"{len(leaks)} of {checked} checks leak, e.g. {leaks[:3]}"
    # the check is only worth something if resample_hidden really moves hidden cards
    assert moved >= max(1, checked // 5), f"resample_hidden moved cards in {moved}/{checked}"


@pytest.mark.parametrize("name", GAMES)
def test_leak_check_catches_a_leaky_encoder(name: str) -> None:
    """The leak check itself can fail: an encoder that reads every zone is caught."""
    spec = envs.get_spec(name)
    engine = spec.make_engine(num_players=spec.engine_cls.min_players)

    def leaky(state: Any, seat: int) -> np.ndarray:
        zones = json.dumps(engine.card_zones(state), sort_keys=True)
        return np.append(spec.encode(state, seat), np.float32(hash(zones) % 1000))

    leaks, checked, _ = leak_scan(name, engine.num_players, leaky)
    assert leaks, f"a leaky encoder passed {checked} checks"


# ---- 6. to_dict / from_dict -------------------------------------------------------------------------
def assert_same_course(a: CardGameEnv, b: CardGameEnv, actions: list[int], where: str) -> None:
    """Step both envs with ``actions`` then step everyone out; they must agree throughout.

    Step rewards (``env.rewards``) must match once both have stepped (the reward of the step
    before the save is AEC bookkeeping, which ``to_dict`` holds under ``aec`` and
    ``tests/test_from_dict.py`` checks); ``last()``'s reward is compared without the part an
    agent had not collected before the save.
    """
    actions = list(actions)
    for step in range(MAX_DECISIONS):
        assert a.agent_selection == b.agent_selection, where
        last_a, last_b = a.last(), b.last()
        found = diff(last_a[:1] + last_a[2:], last_b[:1] + last_b[2:], "last()") or diff(
            [a.observe(x) for x in a.possible_agents],
            [b.observe(x) for x in b.possible_agents],
            "observe",
        )
        assert found is None, f"{where}: {found}"
        if step > 0:
            assert diff(a.rewards, b.rewards, "rewards") is None, where
        if not a.agents:
            break
        action = None if last_a[2] or last_a[3] else actions.pop(0)
        a.step(action)
        b.step(action)
        if not a.agents or not b.agents:
            assert a.agents == b.agents, where
            break
    assert not actions, f"{where}: the game ended before the recorded actions ran out"
    assert diff(a.to_dict(), b.to_dict(), "final to_dict") is None, where


@pytest.mark.every_game(middle=True)
def test_to_dict_json_round_trip_mid_game(name: str, n: int) -> None:
    for g in range(4):
        where = f"{name} {n}p seed {g}"
        # record a whole game first so that the split point is strictly inside it
        recorder = envs.make(name, num_players=n)
        recorder.reset(seed=g)
        rng = np.random.default_rng(3 * 10**6 + g)
        actions: list[int] = []
        while not recorder.terminations[recorder.agent_selection]:
            actions += play_actions(recorder, rng, 1)
        assert len(actions) >= 2, f"{where}: a game of {len(actions)} decisions"
        split = int(rng.integers(1, len(actions)))

        original = envs.make(name, num_players=n)
        original.reset(seed=g)
        for action in actions[:split]:
            original.step(action)
        saved = original.to_dict()
        text = json.dumps(saved)
        for key in ("scores", "winners", "current_player", "draw_pile", "discard_pile"):
            assert key in saved, f"to_dict lacks {key!r}"
        assert saved["current_player"] == original.game.current_player(original.state_obj)
        assert saved["winners"] == []

        fresh = envs.make(name, num_players=n)  # never reset
        fresh.from_dict(json.loads(text))
        assert diff(json_round_trip(fresh.to_dict()), json.loads(text), "restored") is None
        used = envs.make(name, num_players=n)  # mid-way through another game
        used.reset(seed=g + 100)
        play_actions(used, np.random.default_rng(0), 1)
        used.from_dict(json.loads(text))

        twin = envs.make(name, num_players=n)
        twin.reset(seed=g)
        for action in actions[:split]:
            twin.step(action)
        assert_same_course(twin, fresh, actions[split:], f"{where}, fresh env from split {split}")
        assert_same_course(original, used, actions[split:], f"{where}, used env from {split}")
        # the game states agree; the AEC bookkeeping (to_dict()["aec"]) does not: original has
        # stepped every agent out and so paid out what recorder still owes
        final, uninterrupted = (e.game.to_dict(e.state_obj) for e in (original, recorder))
        assert diff(final, uninterrupted, "vs uninterrupted game") is None


@pytest.mark.parametrize("name", GAMES)
def test_from_dict_of_finished_game_and_wrong_player_count(name: str) -> None:
    cls = envs.get_spec(name).engine_cls
    n = cls.max_players
    env = envs.make(name, num_players=n)
    env.reset(seed=5)
    finish_game(env, np.random.default_rng(5))
    saved = json.loads(json.dumps(env.to_dict()))
    restored = envs.make(name, num_players=n)
    restored.from_dict(saved)
    assert diff(json_round_trip(restored.to_dict()), saved) is None
    assert all(restored.terminations.values()) and len(restored.agents) == n
    for _ in restored.agent_iter(n + 1):
        assert not restored.observe(restored.agent_selection)["action_mask"].any()
        restored.step(None)
    assert not restored.agents
    with pytest.raises(GameOverError):
        restored.step(0)
    if cls.min_players < n:
        with pytest.raises(CardArenaError):
            envs.make(name, num_players=cls.min_players).from_dict(saved)


# ---- 7. errors ----------------------------------------------------------------------------------------
def state_with_illegal_action(env: CardGameEnv) -> int | None:
    """Play random games until some in-range action is illegal; that action (env left there)."""
    for seed in range(50):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.terminations[env.agent_selection]:
            mask = env.observe(env.agent_selection)["action_mask"]
            if not mask.all():
                return int(rng.choice(np.flatnonzero(mask == 0)))
            env.step(random_action(rng, mask))
    return None


@pytest.mark.every_game(middle=True)
def test_illegal_action_error_names_action_and_legal_ones(name: str, n: int) -> None:
    for make in (envs.make, envs.make_raw):
        env = make(name, num_players=n)
        action = state_with_illegal_action(env)
        if action is None:
            pytest.skip(f"{name}: every action was legal at every decision seen")
        game, state = env.game, env.state_obj
        before, agent = env.to_dict(), env.agent_selection
        with pytest.raises(IllegalActionError) as err:
            env.step(action)
        message = str(err.value)
        assert re.search(rf"\b{action}\b", message), message
        assert game.describe_action(action) in message, message
        assert game.decision_name(state) in message, message
        for legal in game.legal_actions(state):
            assert game.describe_action(legal) in message, message
        assert diff(env.to_dict(), before) is None, "a refused action changed the state"
        assert env.agent_selection == agent
        with pytest.raises(IllegalActionError):
            game.apply(state, action)
        env.step(game.legal_actions(state)[0])  # the env still plays on


@pytest.mark.every_game(middle=True)
def test_engine_refuses_out_of_turn_and_finished_games(name: str, n: int) -> None:
    engine = envs.get_spec(name).make_engine(num_players=n)
    rng = np.random.default_rng(7)
    state = engine.new_game(np.random.default_rng(7))
    checked = 0
    while not engine.is_over(state):
        seat = engine.current_player(state)
        legal = engine.legal_actions(state)
        if rng.random() < 0.3:
            before = engine.to_dict(state)
            other = (seat + 1 + int(rng.integers(n - 1))) % n if n > 1 else seat
            if other != seat:
                with pytest.raises(OutOfTurnError) as err:
                    engine.apply(state, legal[0], seat=other)
                assert re.search(rf"\b{other}\b", str(err.value)), str(err.value)
                assert re.search(rf"\b{seat}\b", str(err.value)), str(err.value)
                assert diff(engine.to_dict(state), before) is None
                checked += 1
        engine.apply(state, legal[int(rng.integers(len(legal)))], seat)
    assert checked > 0 or n == 1
    for action in (0, engine.num_actions - 1):
        with pytest.raises(GameOverError):
            engine.apply(state, action)
        with pytest.raises(GameOverError):
            engine.apply(state, action, seat=0)


@pytest.mark.parametrize("name", GAMES)
def test_env_refuses_steps_after_the_end_and_before_reset(name: str) -> None:
    env = envs.make(name)
    with pytest.raises(CardArenaError):
        env.step(0)
    with pytest.raises(CardArenaError):
        env.observe("player_0")
    with pytest.raises(CardArenaError):
        env.last()
    with pytest.raises(CardArenaError):
        env.to_dict()

    env.reset(seed=1)
    finish_game(env, np.random.default_rng(1))
    assert all(env.terminations.values())
    with pytest.raises(GameOverError):
        env.step(0)  # a terminated agent only takes None
    while env.agents:
        env.step(None)
    with pytest.raises(GameOverError):
        env.step(0)
    with pytest.raises(GameOverError):
        env.step(None)
    env.reset(seed=2)  # and the env is usable again
    assert len(env.agents) == env.num_agents and not any(env.terminations.values())


@pytest.mark.parametrize("name", GAMES)
def test_env_refuses_actions_outside_the_space(name: str) -> None:
    env = envs.make(name)
    env.reset(seed=4)
    size = env.game.num_actions
    before = env.to_dict()
    for bad in (size, -1, "hit", None, 1.0, [0]):
        with pytest.raises(CardArenaError):
            env.step(bad)
    assert diff(env.to_dict(), before) is None, "a refused action changed the state"
    raw = envs.make_raw(name)
    raw.reset(seed=4)
    for bad in (size, -1, size + 100):
        with pytest.raises(CardArenaError):
            raw.step(bad)
    legal = env.legal_actions()[0]
    env.step(np.int64(legal))  # numpy ints (what policies return) are fine
    raw.step(legal)
    assert diff(env.to_dict(), raw.to_dict()) is None


@pytest.mark.parametrize("name", GAMES)
def test_bad_config_raises_config_error(name: str) -> None:
    spec = envs.get_spec(name)
    cls = spec.engine_cls
    module = importlib.import_module(f"cardarena.envs.{name}")
    bad_counts = [cls.min_players - 1, cls.max_players + 1, str(cls.max_players)]
    bad_counts += [float(cls.max_players), True, None]
    factories = [
        lambda **o: envs.make(name, **o),
        lambda **o: envs.make_raw(name, **o),
        module.env,
        module.raw_env,
    ]
    for bad in bad_counts:
        for make in factories:
            with pytest.raises(ConfigError, match="num_players"):
                make(num_players=bad)
    with pytest.raises(ConfigError):
        pettingzoo.make("aec", spec.env_id, num_players=cls.max_players + 1)
    with pytest.raises(ConfigError, match="no_such_option"):
        envs.make(name, no_such_option=1)
    with pytest.raises(ConfigError, match="render_mode"):
        envs.make(name, render_mode="rgb")
    for n in (cls.min_players, cls.max_players):
        assert len(envs.make(name, num_players=n).possible_agents) == n


@pytest.mark.parametrize("name", GAMES)
def test_reset_deck_option(name: str) -> None:
    """A fully stacked deck fixes every card's place whatever the seed; bad decks are refused."""
    cls = envs.get_spec(name).engine_cls
    env = envs.make(name, num_players=cls.max_players)
    codes = env.game.deck_codes()
    order = [codes[i] for i in np.random.default_rng(0).permutation(len(codes))]
    zones = []
    for seed, deck in ((1, order), (2, order), (1, order[::-1])):
        env.reset(seed=seed, options={"deck": list(deck)})
        zones.append(env.game.card_zones(env.state_obj))
    assert diff(zones[0], zones[1]) is None, "the stacked deck did not fix the cards"
    assert diff(zones[0], zones[2]) is not None, "the deck option was ignored"
    with pytest.raises(ConfigError):
        env.reset(seed=1, options={"deck": ["NO_SUCH_CARD_CODE"]})
    with pytest.raises(ConfigError):
        env.reset(seed=1, options={"deck": codes + [codes[0]]})
    before = env.to_dict()
    with pytest.raises(ConfigError, match="no_such_reset_option"):  # was a warning: issue 30
        env.reset(seed=1, options={"no_such_reset_option": 1})
    assert diff(env.to_dict(), before) is None, "a refused reset changed the game"


@pytest.mark.parametrize("name", GAMES)
def test_action_text_round_trip_and_stability(name: str) -> None:
    spec = envs.get_spec(name)
    counts = player_counts(name, middle=True)
    texts = None
    for n in counts:
        env = envs.make(name, num_players=n)
        stages = [[env.describe_action(a) for a in range(env.game.num_actions)]]
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        play_actions(env, rng, 1)
        stages.append([env.describe_action(a) for a in range(env.game.num_actions)])
        finish_game(env, rng)
        stages.append([env.describe_action(a) for a in range(env.game.num_actions)])
        assert stages[0] == stages[1] == stages[2], "action texts change during a game"
        if texts is None:
            texts = stages[0]
        elif len(texts) == len(stages[0]):
            assert texts == stages[0], "action texts depend on the player count"
        current = stages[0]
        assert all(isinstance(t, str) and t.strip() for t in current)
        assert len(set(current)) == len(current), f"two actions share a text: {current}"
        for action, text in enumerate(current):
            assert env.parse_action(text) == action, (action, text)
            assert env.game.parse_action(text) == action
        for nonsense in ("nonsense", "", "   "):
            with pytest.raises(CardArenaError):
                env.parse_action(nonsense)
        with pytest.raises(CardArenaError):
            env.describe_action(env.game.num_actions)
    assert spec.engine_cls.num_actions == envs.make(name).game.num_actions


# ---- 8. render ---------------------------------------------------------------------------------------
@pytest.mark.every_game(middle=True)
def test_render_ansi_and_human(name: str, n: int, capsys: pytest.CaptureFixture[str]) -> None:
    env = envs.make(name, num_players=n, render_mode="ansi")
    with pytest.raises(ResetNeededError, match="reset"):  # before reset: nothing to show
        env.render()
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    texts = []
    for _ in range(2):
        texts.append(env.render())
        play_actions(env, rng, 1)
    finish_game(env, rng)
    texts.append(env.render())
    for text in texts:
        assert isinstance(text, str) and text.strip()
        missing = [seat for seat in range(n) if not mentions_seat(text, seat)]
        assert not missing, f"render does not mention seats {missing}:\n{text}"
    assert texts[0] != texts[-1], "render did not change over a whole game"
    for seat in range(n):
        assert env.render_text(seat).strip()

    human = envs.make(name, num_players=n, render_mode="human")
    human.reset(seed=9)
    capsys.readouterr()
    assert human.render() is None
    assert capsys.readouterr().out.strip()

    silent = envs.make(name, num_players=n)
    silent.reset(seed=9)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None
