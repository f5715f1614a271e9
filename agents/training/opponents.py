"""Where self-play opponents come from: frozen learner snapshots and scripted baselines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cardarena.agents import make_agent
from cardarena.agents.base import Agent
from cardarena.agents.training.config import TrainConfig
from cardarena.envs.core.engine import ConfigError


class OpponentPool:
    """Where self-play opponents come from: frozen learner snapshots and scripted baselines.

    Each opponent seat is drawn independently: with probability ``latest`` the newest snapshot,
    with probability ``past`` an older snapshot, otherwise a scripted baseline by the weights of
    ``scripted``. Older snapshots are drawn uniformly, or, with ``prioritized`` (prioritised
    fictitious self-play), in proportion to ``(1 - learner win rate against it) ** power``, so
    the snapshots that still beat the learner come back more often. The win rates are measured
    by the trainer and pushed to every env with :meth:`set_priorities`. Until the first
    snapshot exists the snapshot share goes to the scripted mix.

    Snapshots are read from ``snapshot_dir`` and loaded once per process: ``refresh()`` picks up
    new files (each SubprocVecEnv worker keeps its own cache; nothing is pickled per step).

    Scripted agents are built once and kept: a pool serves one env, so within one call the
    i-th seat that draws a name gets that name's i-th instance (built on first need), and no two
    seats of a game share one. The env resets each agent with a fresh seed every episode, which
    starts a new game for every agent of the suite (an ``exec:`` program keeps its process and
    gets a new ``hello``), so the games are those of new agents, at no construction cost.
    :meth:`close` ends what the kept agents hold open (an ``exec:`` program's process); the env
    calls it from its own ``close()``.
    """

    def __init__(
        self,
        game: str,
        snapshot_dir: str | Path,
        scripted: dict[str, float],
        latest: float,
        past: float,
        max_snapshots: int = 20,
    ) -> None:
        if latest < 0 or past < 0 or latest + past > 1 + 1e-9:
            raise ConfigError("opponents.latest and .past must be >= 0 and add up to at most 1")
        if any(w < 0 for w in scripted.values()):
            raise ConfigError("opponents.scripted weights must be >= 0")
        if sum(scripted.values()) <= 0 and latest + past < 1:
            raise ConfigError("opponents.scripted needs a positive weight (or latest+past = 1)")
        #: the kept scripted agents by name (the first built here, to check the name)
        self._instances: dict[str, list[Agent]] = {
            # unknown names fail here, with the known ones listed
            name: [make_agent(game, name)]
            for name in scripted
        }
        self.game = game
        self.snapshot_dir = Path(snapshot_dir)
        self.scripted_names = list(scripted)
        weights = np.array([scripted[k] for k in self.scripted_names], dtype=float)
        self.scripted_p = weights / weights.sum() if weights.sum() > 0 else weights
        self.latest, self.past = latest, past
        self.max_snapshots = max_snapshots
        self._snapshots: list[tuple[str, Any]] = []  # (name, NumpyActor), oldest first
        self._loaded: set[str] = set()
        self._priorities: dict[str, float] = {}
        self._resets = 0

    def refresh(self) -> None:
        from cardarena.agents.policy import load_actor

        if not self.snapshot_dir.exists():
            return
        for path in sorted(self.snapshot_dir.glob("step_*.zip")):
            if path.name not in self._loaded:
                self._loaded.add(path.name)
                self._snapshots.append((path.stem, load_actor(path)))
        self._snapshots = self._snapshots[-self.max_snapshots :]

    def set_priorities(self, priorities: dict[str, float]) -> None:
        """Sampling weights of past snapshots by name (missing names weigh 1)."""
        self._priorities = dict(priorities)

    def _past_index(self, rng: np.random.Generator) -> int:
        if not self._priorities:
            return int(rng.integers(len(self._snapshots)))
        w = np.array([self._priorities.get(name, 1.0) for name, _ in self._snapshots]) + 1e-6
        return int(rng.choice(len(w), p=w / w.sum()))

    def __call__(self, rng: np.random.Generator, k: int) -> list[Agent]:
        from cardarena.agents.policy import PolicyAgent

        self._resets += 1
        if self._resets % 16 == 1:
            self.refresh()
        out: list[Agent] = []
        drawn: dict[str, int] = {}  # seats of this call that drew each scripted name
        for _ in range(k):
            u = rng.random()
            if self._snapshots and u < self.latest + self.past:
                i = len(self._snapshots) - 1 if u < self.latest else self._past_index(rng)
                name, actor = self._snapshots[i]
                out.append(
                    PolicyAgent(actor, name=f"snapshot:{name}", deterministic=False, exact=False)
                )
            else:
                j = int(rng.choice(len(self.scripted_names), p=self.scripted_p))
                out.append(self._scripted(self.scripted_names[j], drawn))
        return out

    def _scripted(self, name: str, drawn: dict[str, int]) -> Agent:
        """The next instance of ``name`` not yet seated in this call (built on first need)."""
        i = drawn.get(name, 0)
        drawn[name] = i + 1
        kept = self._instances.setdefault(name, [])
        if i == len(kept):
            kept.append(make_agent(self.game, name))
        return kept[i]

    def close(self) -> None:
        """Close every kept scripted agent that has a ``close()`` (an ``exec:`` program's
        process ends) and forget them all: a later call builds new ones."""
        from cardarena.agents.base import close_agents

        instances, self._instances = self._instances, {}
        close_agents(agent for kept in instances.values() for agent in kept)

    @classmethod
    def from_config(cls, cfg: TrainConfig, snapshot_dir: str | Path) -> OpponentPool:
        """The pool of a training config's ``opponents`` section."""
        opp = cfg.opponents
        return cls(cfg.game, snapshot_dir, opp.scripted, opp.latest, opp.past, opp.max_snapshots)
