"""The self-play opponent pool keeps its scripted agents: one instance per seat slot of a name,
reset every episode by the env, so an ``exec:`` program keeps its process from game to game
(and hears each game's result), the env's ``close()`` ends it, and the games are exactly those
of agents built new for every seat of every episode."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

import cardarena.agents.outside.process as process
from cardarena.agents import make_agent
from cardarena.agents.training.opponents import OpponentPool
from cardarena.envs.core.single_agent import SelfPlayEnv

ROOT = Path(__file__).resolve().parent.parent
#: the test bot that plays the first legal action (it misbehaves only at the seeds listed in
#: the file BOTS_BAD_SEEDS names: an empty file, none) and logs every message to BOTS_LOG
FIRST_LEGAL_BOT = (
    f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'tests' / 'bots' / 'crash.py'))}"
)


def episode(env: SelfPlayEnv, rng: np.random.Generator) -> dict:
    """One episode, the learner playing uniformly random legal actions drawn from ``rng``:
    everything the learner sees, so two runs are the same game only if this is equal."""
    obs, info = env.reset()
    seen = [obs.tobytes()]
    while True:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, over, _, info = env.step(action)
        seen.append(obs.tobytes() + np.float64(reward).tobytes())
        if over:
            return {
                "seat": info["seat"],
                "opponents": info["opponents"],
                "scores": [float(s) for s in info["scores"]],
                "seen": seen,
            }


class FreshAgents:
    """The pool as it was: the same draws, each seat's agent built new for the episode."""

    def __init__(self, pool: OpponentPool) -> None:
        self.pool = pool

    def __call__(self, rng: np.random.Generator, k: int) -> list:
        drawn = self.pool(rng, k)
        assert all(a.name in self.pool.scripted_names for a in drawn)  # rebuilt by its spec
        return [make_agent(self.pool.game, a.name) for a in drawn]


@pytest.mark.parametrize(
    ("game", "players", "scripted"),
    [
        # optimal_round keeps a solver memo, pimc a rollout cache: both across episodes now
        ("flip6", 4, {"ev": 1.0, "threshold": 1.0, "optimal_round": 1.0, "pimc:worlds=4": 0.5}),
        ("suicidium", 4, {"heuristic": 2.0, "random": 1.0}),  # heuristic keeps a plan
        ("ratatat", 3, {"greedy": 1.0, "tracker": 1.0}),
        ("sevn", 4, {"ev": 1.0, "threshold": 1.0}),
    ],
)
def test_kept_agents_play_the_games_of_agents_built_per_episode(tmp_path, game, players, scripted):
    """The same seed: the same seats, opponent names, observations, rewards and scores as
    with a new agent per seat per episode (the reference), over 12 episodes."""
    pool = OpponentPool(game, tmp_path, scripted, latest=0.0, past=0.0)
    reference = OpponentPool(game, tmp_path, scripted, latest=0.0, past=0.0)
    kept_env = SelfPlayEnv(game, {"num_players": players}, opponents=pool, seed=31)
    fresh_env = SelfPlayEnv(
        game, {"num_players": players}, opponents=FreshAgents(reference), seed=31
    )
    first: list = []
    most = dict.fromkeys(scripted, 1)  # the first instance is built with the pool
    for i in range(12):
        kept = episode(kept_env, np.random.default_rng(i))
        fresh = episode(fresh_env, np.random.default_rng(i))
        assert kept == fresh, f"{game}: episode {i} differs"
        if i == 0:
            first = [id(a) for a in kept_env.seat_agents if a is not None]
        for name in scripted:
            most[name] = max(most[name], kept["opponents"].count(name))
    # kept, not rebuilt: per name, as many agents as the most seats it filled in one game,
    # the first episode's among them
    assert {n: len(v) for n, v in pool._instances.items()} == most
    assert set(first) <= {id(a) for v in pool._instances.values() for a in v}


def test_each_seat_of_a_game_gets_its_own_instance(tmp_path):
    one = OpponentPool("flip6", tmp_path, {"ev": 1.0}, latest=0.0, past=0.0)
    rng = np.random.default_rng(0)
    seats = one(rng, 5)
    assert len({id(a) for a in seats}) == 5 and {a.name for a in seats} == {"ev"}
    again = one(rng, 5)
    assert [id(a) for a in again] == [id(a) for a in seats]  # slot i: the i-th instance
    assert [id(a) for a in one(rng, 2)] == [id(a) for a in seats[:2]]

    mixed = OpponentPool("flip6", tmp_path, {"ev": 1.0, "threshold": 1.0}, latest=0.0, past=0.0)
    most = {"ev": 0, "threshold": 0}
    for _ in range(200):
        seats = mixed(rng, 4)
        assert len({id(a) for a in seats}) == 4
        for name in most:
            most[name] = max(most[name], sum(a.name == name for a in seats))
    # as many instances of a name as the most seats it filled in one game
    assert {n: len(v) for n, v in mixed._instances.items()} == most
    mixed.close()
    assert mixed._instances == {}
    assert len({id(a) for a in mixed(rng, 4)}) == 4  # built anew after close()


class CountedBot(process.Bot):
    started: list[process.Bot] = []

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        CountedBot.started.append(self)


def test_an_exec_opponent_keeps_one_process_per_seat(tmp_path, monkeypatch):
    """30 episodes with two ``exec:`` seats: two processes, not one per seat per episode; each
    game's hello is answered by a result; ``close()`` of the env leaves no process running."""
    log = tmp_path / "log.jsonl"
    (tmp_path / "none").write_text("")
    monkeypatch.setenv("BOTS_LOG", str(log))
    monkeypatch.setenv("BOTS_BAD_SEEDS", str(tmp_path / "none"))
    monkeypatch.setattr(CountedBot, "started", [])
    monkeypatch.setattr(process, "Bot", CountedBot)
    pool = OpponentPool("flip6", tmp_path, {FIRST_LEGAL_BOT: 1.0}, latest=0.0, past=0.0)
    env = SelfPlayEnv("flip6", {"num_players": 3}, opponents=pool, seed=5)
    rng = np.random.default_rng(5)
    games = [episode(env, rng) for _ in range(30)]
    assert all(g["opponents"].count(FIRST_LEGAL_BOT) == 2 for g in games)
    assert len(CountedBot.started) == 2  # one per seat slot
    procs = [bot.proc for bot in CountedBot.started]
    assert all(p.poll() is None for p in procs)  # kept between episodes
    env.close()
    assert all(p.poll() is not None for p in procs)  # ended (and reaped) by close()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds.count("bye") == 2
    assert kinds.count("hello") == kinds.count("result") == 2 * len(games)
    played = sorted(g["scores"] for g in games for _ in range(2))
    assert sorted(m["scores"] for m in messages if m["type"] == "result") == played


def test_the_gym_env_closes_its_exec_opponents(tmp_path, monkeypatch):
    """CardArenaGymEnv's opponents (OpponentTable) keep one exec process per seat across
    episodes, and ``env.close()`` ends them."""
    from cardarena.agents.gym_env import CardArenaGymEnv

    (tmp_path / "none").write_text("")
    monkeypatch.setenv("BOTS_LOG", str(tmp_path / "log.jsonl"))
    monkeypatch.setenv("BOTS_BAD_SEEDS", str(tmp_path / "none"))
    monkeypatch.setattr(CountedBot, "started", [])
    monkeypatch.setattr(process, "Bot", CountedBot)
    env = CardArenaGymEnv("flip6", opponents=FIRST_LEGAL_BOT, num_players=3)
    rng = np.random.default_rng(2)
    for _ in range(5):
        episode(env, rng)
    procs = [bot.proc for bot in CountedBot.started]
    assert len(procs) == 2 and all(p.poll() is None for p in procs)
    env.close()
    assert all(p.poll() is not None for p in procs)
