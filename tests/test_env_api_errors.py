"""Every bad input at the env API is one clear error of cardarena's one family.

* before ``reset()``: every public method of the AEC env (checked and raw) and of the gymnasium
  env that needs a game raises :class:`ResetNeededError` ("call reset() first"); the methods that
  need none (spaces, action texts, loading a state) are listed with the reason; every engine
  method that takes a state refuses ``None`` the same way;
* seeds, seats, agent names and constructor arguments are type- and range-checked, and a keyword
  cannot change the game an env id fixes;
* only integers (Python or numpy) are actions, on the raw, checked and gymnasium envs;
* a sweep over the inputs of the probe that filed these checks: every refusal is a
  :class:`CardArenaError` (never a foreign exception), and keeps the standard base its kind
  suggests (ValueError, TypeError, KeyError, RuntimeError) so existing ``except`` clauses work.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import cardarena
from cardarena import envs
from cardarena.envs.core.engine import STATE_METHODS, GameEngine
from cardarena.envs.core.errors import (
    ActionTypeError,
    CardArenaError,
    ConfigError,
    IllegalActionError,
    ResetNeededError,
    UnknownAgentError,
)

GAMES = envs.names()

#: public methods of the AEC env that need no game, and why
AEC_STATELESS = {
    "reset": "starts the game",
    "from_dict": "loads a game",
    "close": "releases nothing, any time",
    "observation_space": "the spaces are fixed at construction",
    "action_space": "the spaces are fixed at construction",
    "describe_action": "an action's text does not depend on the state",
    "parse_action": "an action text's id does not depend on the state",
    "seat_of": "an agent name's seat is fixed at construction",
    "check_seat": "a seat's range is fixed at construction",
    "agent_iter": "PettingZoo's iterator: before reset there is no agent, so it yields nothing",
}
#: public methods of the gymnasium env that need no game, and why
GYM_STATELESS = {
    "reset": "starts the episode",
    "close": "releases nothing",
    "set_opponent_priorities": "opponent sampling weights, read at the next reset",
    "get_wrapper_attr": "gymnasium's attribute lookup",
    "set_wrapper_attr": "gymnasium's attribute lookup",
    "has_wrapper_attr": "gymnasium's attribute lookup",
}


def public_methods(obj: Any) -> list[str]:
    """The public methods of ``obj``'s class (of ``obj`` itself if it is a class)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return sorted(
        name
        for name in dir(cls)
        if not name.startswith("_")
        and callable(getattr(cls, name))
        and not isinstance(inspect.getattr_static(cls, name), property)
    )


def call_with_plain_args(method: Callable[..., Any]) -> Any:
    """Call ``method`` with arguments good for a running game (a seat, an action, an agent)."""
    params = [
        p
        for p in inspect.signature(method).parameters.values()
        if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD
    ]
    plain = {
        "agent": "player_0",
        "seat": 0,
        "action": 0,
        "rng": np.random.default_rng(0),
        "text": "x",
    }
    return method(*[plain.get(p.name, 0) for p in params])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("checked", [True, False], ids=["env", "raw_env"])
def test_every_aec_method_before_reset_says_reset_first(name: str, checked: bool) -> None:
    env = envs.make(name) if checked else envs.make_raw(name)
    methods = public_methods(env)
    assert "legal_actions" in methods and "step" in methods
    needing = [m for m in methods if m not in AEC_STATELESS]
    for method in needing:
        with pytest.raises(ResetNeededError, match=r"reset\(\)"):
            call_with_plain_args(getattr(env, method))
    for method in AEC_STATELESS:  # the list names real methods (a typo would exempt nothing)
        assert method in methods, method


@pytest.mark.parametrize("name", GAMES)
def test_every_gym_method_before_reset_says_reset_first(name: str) -> None:
    env = gymnasium.make(f"cardarena/{name}-v0", opponents="random", render_mode="ansi")
    inner = env.unwrapped
    for method in [m for m in public_methods(inner) if m not in GYM_STATELESS]:
        with pytest.raises(ResetNeededError, match=r"reset\(\)"):
            call_with_plain_args(getattr(inner, method))
    with pytest.raises(ResetNeededError, match=r"reset\(\)"):  # through gymnasium's wrappers
        env.step(0)
    env.reset(seed=1)  # and the env is fine afterwards
    env.step(int(np.flatnonzero(inner.action_masks())[0]))


#: methods of the engine interface that take a state but are the engine's own steps, called
#: with a state it holds: from_dict's checks of what it loaded, apply's checks of an action
ENGINE_HOOKS = {"check_state", "check_loaded", "illegal", "checked_action", "check_turn"}


def test_the_guarded_methods_are_the_whole_engine_interface() -> None:
    takes_state = {
        m
        for m in public_methods(GameEngine)
        if list(inspect.signature(getattr(GameEngine, m)).parameters)[1:2] == ["state"]
    }
    assert takes_state - ENGINE_HOOKS == set(STATE_METHODS)


@pytest.mark.parametrize("name", GAMES)
def test_every_engine_state_method_refuses_no_state(name: str) -> None:
    spec = envs.get_spec(name)
    for core in ("python", "native"):
        if core == "native" and not spec.native_built():
            continue
        engine = spec.make_engine(core=core)
        for method in STATE_METHODS:
            bound = getattr(engine, method)
            rest = [  # the arguments after the state, as a caller gives them
                {"seat": 0, "action": 0, "rng": np.random.default_rng(0)}.get(p.name, 0)
                for p in list(inspect.signature(bound).parameters.values())[1:]
                if p.default is inspect.Parameter.empty
            ]
            with pytest.raises(ResetNeededError, match="new_game"):
                bound(None, *rest)


def test_the_engines_own_loops_skip_the_check() -> None:
    """The envs call the engine's methods without the None check (they hold a state)."""
    from cardarena.envs.core.engine import unguarded

    engine = envs.get_spec("flip6").make_engine(core="python")
    raw = unguarded(engine.legal_actions)
    assert raw.__func__ is type(engine).legal_actions.__wrapped__
    state = engine.new_game(np.random.default_rng(0))
    assert raw(state) == engine.legal_actions(state)


# ---- seeds, seats, agent names, constructor arguments ------------------------------------------------
BAD_SEEDS = [-1, "abc", 1.7, True, np.float64(2.0), [1], {}, 2**64]


@pytest.mark.parametrize("name", GAMES)
def test_seeds_seats_and_agent_names_are_checked(name: str) -> None:
    env = envs.make(name)
    n = env.game.num_players
    for seed in BAD_SEEDS[:-1]:
        with pytest.raises(ConfigError, match="seed"):
            env.reset(seed=seed)
    env.reset(seed=np.int64(3))  # numpy integers are seeds
    for agent in ["player_99", f"player_{n}", 0, None, "PLAYER_0", ("player_0",)]:
        with pytest.raises(UnknownAgentError, match="player_0"):
            env.observe(agent)
        with pytest.raises(UnknownAgentError):
            env.observation_space(agent)
        with pytest.raises(KeyError):  # still what a dict lookup raised
            env.action_space(agent)
    for seat in [n, -1, 99, "0", 1.0, True, None]:
        with pytest.raises(ConfigError, match="seat"):
            env.view(seat)
        with pytest.raises(ConfigError, match="seat"):
            env.sample_world(seat, np.random.default_rng(0))
    assert env.view(np.int64(0))["seat"] == 0
    with pytest.raises(ConfigError, match="Generator"):
        env.sample_world(0, 7)


@pytest.mark.parametrize("name", GAMES)
def test_constructor_arguments_are_checked(name: str) -> None:
    cls = envs.get_spec(name).engine_cls
    for bad in [99, 0, "4", 4.0, True, None]:
        with pytest.raises(ConfigError, match="num_players"):
            envs.make(name, num_players=bad)
    with pytest.raises(ConfigError, match="bogus"):
        envs.make(name, bogus=1)
    with pytest.raises(ConfigError, match="render_mode"):
        envs.make(name, render_mode="video")
    with pytest.raises(ConfigError, match="render_seat"):
        envs.make(name, render_mode="ansi", render_seat=cls.max_players + 1)
    gym_id = f"cardarena/{name}-v0"
    n = gymnasium.make(gym_id, opponents="random").unwrapped.num_players
    for seat in [n, -1, 1.5, "0", True]:
        with pytest.raises(ConfigError, match="learner_seat"):
            gymnasium.make(gym_id, opponents="random", learner_seat=seat)
    for seed in BAD_SEEDS[:-1]:
        with pytest.raises(ConfigError, match="seed"):
            gymnasium.make(gym_id, opponents="random", seed=seed)
    for key, bad in [
        ("shaping", "x"),
        ("shaping", float("nan")),
        ("shared_policy", "yes"),
        ("illegal_reward", None),
        ("illegal_action", "ignore"),
        ("opponents", 3),
    ]:
        with pytest.raises(ConfigError, match=key):
            gymnasium.make(gym_id, **{"opponents": "random", key: bad})


def test_a_keyword_cannot_change_the_game_of_an_env_id() -> None:
    import pettingzoo

    def pz_make(env_id: str, **kwargs: Any) -> Any:
        return pettingzoo.make("aec", env_id, **kwargs)

    with pytest.raises(ConfigError, match="cardarena/sevn-v0"):
        gymnasium.make("cardarena/flip6-v0", game="sevn")
    env = gymnasium.make("cardarena/flip6-v0", game="flip6", opponents="random")
    assert env.unwrapped.game_name == "flip6"  # the same game: fine
    with pytest.raises(ConfigError, match="flip6"):
        pz_make("cardarena/flip6-v0", name="sevn")
    assert pz_make("cardarena/thegame-v0").spec.name == "thegame"
    assert pz_make("cardarena/thegame-v0", name="thegame").spec.name == "thegame"


# ---- actions --------------------------------------------------------------------------------------
NOT_ACTIONS = [1.7, 1.0, "1", "0", True, False, np.float32(1), np.bool_(True), [0], (0,), b"0"]


@pytest.mark.parametrize("name", GAMES)
def test_only_integers_are_actions(name: str) -> None:
    for env in (envs.make(name), envs.make_raw(name)):
        env.reset(seed=2)
        legal = env.legal_actions()
        for bad in [*NOT_ACTIONS, None]:
            with pytest.raises(ActionTypeError):
                env.step(bad)
        assert env.legal_actions() == legal  # nothing was played
        env.step(np.int64(legal[0]))  # numpy integers are actions
        env.step(np.array(env.legal_actions()[0]))  # so is model.predict's 0-d array
    gym_env = gymnasium.make(f"cardarena/{name}-v0", opponents="random")
    _, info = gym_env.reset(seed=3)
    first = int(np.flatnonzero(info["action_mask"])[0])
    for bad in [*NOT_ACTIONS, None, first + 0.7, np.float64(first)]:
        with pytest.raises(ActionTypeError):
            gym_env.step(bad)
    gym_env.step(np.int32(first))


# ---- one error family: the probe's inputs -----------------------------------------------------------
def probe_inputs(name: str) -> list[tuple[str, Callable[[], Any]]]:
    """(what, call) of bad inputs across the API, each of which must be refused."""
    gym_id = f"cardarena/{name}-v0"

    def fresh() -> Any:
        return envs.make(name)

    def started() -> Any:
        env = envs.make(name)
        env.reset(seed=0)
        return env

    cases: list[tuple[str, Callable[[], Any]]] = [
        ("legal_actions before reset", lambda: fresh().legal_actions()),
        ("view before reset", lambda: fresh().view(0)),
        ("observe before reset", lambda: fresh().observe("player_0")),
        ("to_dict before reset", lambda: fresh().to_dict()),
        ("render before reset", lambda: envs.make(name, render_mode="ansi").render()),
        ("gym step before reset", lambda: gymnasium.make(gym_id, opponents="random").step(0)),
        (
            "gym masks before reset",
            lambda: gymnasium.make(gym_id, opponents="random").unwrapped.action_masks(),
        ),
        ("seed -1", lambda: fresh().reset(seed=-1)),
        ("seed 'abc'", lambda: fresh().reset(seed="abc")),
        ("seed 1.7", lambda: fresh().reset(seed=1.7)),
        ("observe player_99", lambda: started().observe("player_99")),
        ("gym learner_seat 99", lambda: gymnasium.make(gym_id, learner_seat=99)),
        (
            "gym game=another",
            lambda: gymnasium.make(gym_id, game="flip6" if name != "flip6" else "sevn"),
        ),
        ("options a list", lambda: fresh().reset(options=["deck"])),
        ("options a typo", lambda: fresh().reset(options={"decks": []})),
        ("deck an int", lambda: fresh().reset(options={"deck": 3})),
        ("deck a dict", lambda: fresh().reset(options={"deck": {}})),
        ("deck ''", lambda: fresh().reset(options={"deck": ""})),
        ("deck one code string", lambda: fresh().reset(options={"deck": "1"})),
        ("deck a non-ASCII digit", lambda: fresh().reset(options={"deck": ["²"]})),
        ("step 1.7", lambda: started().step(1.7)),
        ("step '1'", lambda: started().step("1")),
        ("raw step 1.7", lambda: _raw_started(name).step(1.7)),
        ("step None mid-game", lambda: started().step(None)),
        ("step out of range", lambda: started().step(10**6)),
        ("render_seat 99", lambda: envs.make(name, render_mode="ansi", render_seat=99)),
        ("render_picture seat 99", lambda: started().render_picture(99)),
        ("from_dict of a list", lambda: fresh().from_dict([])),
        ("parse_action nonsense", lambda: started().parse_action("\x1b[2J")),
        ("describe_action 1.5", lambda: fresh().describe_action(1.5)),
        ("describe_action out of range", lambda: fresh().describe_action(10**6)),
    ]
    return cases


def _raw_started(name: str) -> Any:
    env = envs.make_raw(name)
    env.reset(seed=0)
    return env


@pytest.mark.parametrize("name", GAMES)
def test_every_refusal_is_one_of_cardarenas_errors(name: str) -> None:
    foreign, accepted = [], []
    for what, call in probe_inputs(name):
        try:
            call()
        except CardArenaError as err:
            assert str(err).strip(), what
            assert isinstance(err, ValueError | TypeError | KeyError | RuntimeError), what
        except Exception as err:  # noqa: BLE001 - the point: no foreign exception
            foreign.append(f"{what}: {type(err).__name__}: {err}")
        else:
            accepted.append(what)
    assert not foreign and not accepted, {"foreign": foreign, "accepted": accepted}


def test_the_family_is_importable_from_the_top() -> None:
    for error in (ConfigError, IllegalActionError, ResetNeededError, UnknownAgentError):
        assert issubclass(error, cardarena.CardArenaError)
    assert issubclass(ActionTypeError, TypeError) and issubclass(ActionTypeError, ValueError)
    assert issubclass(ResetNeededError, RuntimeError)
    assert issubclass(UnknownAgentError, KeyError)
