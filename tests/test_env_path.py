"""One env path (issue 30, item 5): the AEC env (``envs.make``) and the single-agent self-play env
(``SelfPlayEnv``, and ``gymnasium.make("cardarena/<game>-v0")`` on top of it) drive the same
:class:`~envs.core.table.Table`, so they refuse the same reset options, seeds and actions with the
same errors, pay the same rewards and show the same masks; one ``SeatAgent`` protocol, one random
seat."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

from cardarena import envs
from cardarena.agents.base import Agent, RandomAgent
from cardarena.envs.core import loop, seats, single_agent
from cardarena.envs.core.engine import (
    ActionTypeError,
    CardArenaError,
    ConfigError,
    GameOverError,
    IllegalActionError,
)
from cardarena.envs.core.seats import RandomSeat
from cardarena.envs.core.single_agent import SelfPlayEnv
from cardarena.envs.core.table import Table

ROOT = Path(__file__).resolve().parent.parent
GAMES = envs.names()
#: the three ways to the two envs: (label, factory of a fresh env, reset(env, seed, options))
PATHS = {
    "aec": (lambda g: envs.make(g), lambda e, **kw: e.reset(**kw)),
    "selfplay": (lambda g: SelfPlayEnv(g), lambda e, **kw: e.reset(**kw)),
    "gymnasium": (
        lambda g: gymnasium.make(f"cardarena/{g}-v0", opponents="random"),
        lambda e, **kw: e.reset(**kw),
    ),
}


def refusal(game: str, path: str, **reset: Any) -> str:
    make, do_reset = PATHS[path]
    with pytest.raises(ConfigError) as err:
        do_reset(make(game), **reset)
    return str(err.value)


# ---- reset options ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_unknown_reset_option_is_the_same_config_error_on_every_path(game: str) -> None:
    known = envs.get_spec(game).reset_options
    messages = {path: refusal(game, path, seed=0, options={"no_such_option": 1}) for path in PATHS}
    message = messages["aec"]
    assert set(messages.values()) == {message}, messages
    assert "'no_such_option'" in message and game in message, message
    for option in known:  # every known option is listed
        assert re.search(rf"\b{option}\b", message), (option, message)
    # several unknown keys are all named; known ones given beside them are not blamed
    both = refusal(game, "selfplay", options={"nope": 1, "nor_this": 2, known[0]: None})
    blamed = both.split("; known")[0]
    assert "'nope'" in blamed and "'nor_this'" in blamed and known[0] not in blamed, both


def test_the_issue_example_now_fails() -> None:
    env = gymnasium.make("cardarena/flip6-v0")
    with pytest.raises(ConfigError, match=r"'no_such_option'.*\['deck', 'scores', 'dealer'\]"):
        env.reset(options={"no_such_option": 1})


@pytest.mark.parametrize("path", list(PATHS))
def test_reset_options_must_be_a_dict_and_seeds_non_negative_integers(path: str) -> None:
    assert "must be a dict" in refusal("sevn", path, options=["deck"])
    for seed in (-1, 1.5, "3", True):
        assert "seed must be None or a non-negative integer" in refusal("sevn", path, seed=seed)
    make, do_reset = PATHS[path]
    do_reset(make("sevn"), seed=np.int64(3))  # numpy integers are seeds


@pytest.mark.parametrize("path", list(PATHS))
def test_known_reset_options_reach_the_engine_on_every_path(path: str) -> None:
    make, do_reset = PATHS[path]
    with pytest.raises(ConfigError, match="dealer"):  # a bad value: the engine's own check
        do_reset(make("flip6"), seed=0, options={"dealer": 99})
    env = make("flip6")
    do_reset(env, seed=0, options={"scores": [10, 20, 30, 40]})
    state = env.unwrapped.state_obj if path == "aec" else env.unwrapped.state
    given = [10, 20, 30, 40]  # self-play: the opponents may have banked points since the deal
    assert state.scores == given if path == "aec" else all(map(int.__ge__, state.scores, given))


# ---- safety checks ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_selfplay_refuses_what_the_aec_env_refuses(game: str) -> None:
    env = SelfPlayEnv(game, seed=1)
    with pytest.raises(CardArenaError, match="call reset"):
        env.step(0)
    env.reset(seed=1)
    size = env.engine.num_actions
    before = env.engine.to_dict(env.state)
    for bad in (size, -1, "hit", None, 1.0, [0], True, np.array([0])):
        with pytest.raises(CardArenaError) as err:
            env.step(bad)
        aec = envs.make(game)
        aec.from_dict(before)
        with pytest.raises(CardArenaError) as aec_err:
            aec.step(bad)
        assert str(err.value) == str(aec_err.value), bad
    assert env.engine.to_dict(env.state) == before, "a refused action changed the state"
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.array(legal))  # a 0-d integer array (model.predict's answer) is an action
    done = False
    while not done:
        done = env.step(np.int64(np.flatnonzero(env.action_masks())[0]))[2]
    assert not env.action_masks().any()
    with pytest.raises(GameOverError):
        env.step(0)
    with pytest.raises(GameOverError):
        env.step(None)


def test_the_gymnasium_env_forfeits_illegal_integers_but_refuses_non_integers() -> None:
    env = gymnasium.make("cardarena/flip6-v0", num_players=3)
    env.reset(seed=0)
    for bad in (None, 1.0, "hit"):
        with pytest.raises(ActionTypeError, match="must act|not an int"):
            env.step(bad)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    assert env.step(np.int64(illegal))[2]  # an illegal integer forfeits
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(99)
    assert terminated and reward == -1.0 and "out of range" in info["illegal_action"]
    strict = gymnasium.make("cardarena/flip6-v0", num_players=3, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


# ---- rewards and masks -------------------------------------------------------------------------------
class _Recording(RandomSeat):
    def __init__(self, log: list[tuple[int, int]]) -> None:
        super().__init__()
        self.log = log

    def act(self, observation: Any, action_mask: np.ndarray, view: Any) -> int:
        action = super().act(observation, action_mask, view)
        self.log.append((-1, action))
        return action


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("shaping", [0.0, 0.5])
def test_selfplay_rewards_and_masks_are_the_aec_envs(game: str, shaping: float) -> None:
    """A self-play episode replayed through the AEC env from the learner's first decision: the
    learner's reward of each step is the AEC rewards of its seat from its action up to its next
    decision, and both show the same mask (thegame's running rewards included)."""
    log: list[tuple[int, int]] = []
    env = SelfPlayEnv(
        game, opponents=lambda rng, k: [_Recording(log) for _ in range(k)], shaping=shaping
    )
    rng = np.random.default_rng(3)
    for episode in range(3):
        env.reset(seed=episode)
        aec = envs.make(game, num_players=env.num_players)
        aec.from_dict(env.engine.to_dict(env.state))
        seat, agent = env.seat, f"player_{env.seat}"
        done, total, paid = False, 0.0, 0.0
        while not done:
            mask = env.action_masks()
            assert np.array_equal(aec.observe(agent)["action_mask"], mask.astype(np.int8))
            log.clear()
            action = int(rng.choice(np.flatnonzero(mask)))
            potential = env._last_potential
            _, reward, done, _, info = env.step(action)
            assert np.array_equal(info["action_mask"], env.action_masks().astype(np.int8))
            aec_reward = 0.0
            for _, move in [(seat, action), *log]:
                aec.step(move)
                aec_reward += aec.rewards[agent]
            if shaping:
                after = 0.0 if done else env.engine.potential(env.state, seat)
                aec_reward += shaping * (after - potential)
            assert reward == pytest.approx(aec_reward, abs=1e-12), (episode, action)
            total += reward
            paid += aec_reward
        assert all(aec.terminations.values())
        assert total == pytest.approx(paid)


# ---- one protocol, one random seat --------------------------------------------------------------------
def test_one_seat_agent_protocol_and_one_random_seat() -> None:
    declared = [
        path.relative_to(ROOT).as_posix()
        for folder in ("envs", "agents")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"^class SeatAgent\b", path.read_text(), re.M)
    ]
    assert declared == ["envs/core/seats.py"], declared
    assert loop.SeatAgent is seats.SeatAgent is single_agent.SeatAgent
    assert issubclass(RandomAgent, RandomSeat) and issubclass(RandomAgent, Agent)
    assert not hasattr(single_agent, "_RandomSeat")
    env = SelfPlayEnv("flip6")
    assert all(type(a) is RandomSeat for a in env.opponents(np.random.default_rng(0), 3))
    assert isinstance(env.table, Table) and isinstance(envs.make("flip6")._table, Table)


def test_random_agent_keeps_its_behaviour_and_draws() -> None:
    mask = np.array([0, 1, 1, 0, 1, 1, 0, 1], dtype=np.int8)
    agent, seat = RandomAgent(11), RandomSeat(11)
    legal = np.flatnonzero(mask)
    expected = np.random.default_rng(11)
    for _ in range(50):
        want = int(legal[expected.integers(len(legal))])
        assert agent.act(None, mask, None) == seat.act(None, mask, None) == want
    agent.reset(5)
    seat.reset(5)
    assert [agent.act(None, mask, None) for _ in range(9)] == [
        seat.act(None, mask, None) for _ in range(9)
    ]
    assert (agent.name, agent.uses_observation, agent.uses_view) == ("random", False, False)
    assert repr(agent) == "RandomAgent('random')" and not agent.act_forced(1)
    batch = agent.act_batch(np.zeros((3, 2)), np.stack([mask] * 3), [None] * 3)
    assert batch.dtype == np.int64 and all(mask[a] for a in batch)
