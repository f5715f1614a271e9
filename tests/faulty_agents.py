"""Agents that fail on purpose in the games of one deck seed, for the evaluator's fault tests.

``faulty_agents:exits`` calls ``sys.exit(3)``, ``faulty_agents:dies`` kills its own process
(SIGKILL, as the out-of-memory killer would) and ``faulty_agents:raises`` raises, all in their
first decision of a game of deck seed :data:`BAD_SEED`. With ``FAULTY_AGENTS_OFF=1`` in the
environment they play like ``random`` everywhere (the same spec, well behaved: a re-run resumes).
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import numpy as np

from cardarena.agents.base import RandomAgent
from cardarena.envs.core import seeding

BAD_SEED = 5


class FaultyAgent(RandomAgent):
    def __init__(self, how: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.how = how
        self.name = f"faulty-{how}"
        self.doomed = False

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        bad = {seeding.agent_seed(BAD_SEED, s) for s in range(8)}
        self.doomed = seed in bad and not os.environ.get("FAULTY_AGENTS_OFF")

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        if self.doomed:
            if self.how == "exits":
                sys.exit(3)
            if self.how == "dies":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("this agent fails on purpose")
        return super().act(observation, action_mask, view)


def exits(game: str, seed: int | None = None) -> FaultyAgent:
    return FaultyAgent("exits", seed)


def dies(game: str, seed: int | None = None) -> FaultyAgent:
    return FaultyAgent("dies", seed)


def raises(game: str, seed: int | None = None) -> FaultyAgent:
    return FaultyAgent("raises", seed)


def dying_label_job(args: tuple) -> Any:
    """A stand-in for a labelling job whose worker process is killed (as by the OOM killer)."""
    os.kill(os.getpid(), signal.SIGKILL)


def failing_label_job(args: tuple) -> Any:
    """A stand-in for a labelling job that hits a bug."""
    raise ValueError("a bug in the teacher")
