"""What a seat's player is to the envs: the one :class:`SeatAgent` protocol and the one random seat.

The game loop (``loop.py``) and the self-play env (``single_agent.py``) put decisions to any
object of this shape; ``agents.base.Agent`` implements it, and ``agents.base.RandomAgent`` is
:class:`RandomSeat` (envs never import agents, so the random player every env needs lives here).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class SeatAgent(Protocol):
    """A player of one seat: ``act`` answers a decision, ``reset(seed)`` starts a game.

    The loop also reads, with ``getattr`` and these defaults: ``uses_observation`` /
    ``uses_view`` (True: the observation / view is built and passed, else None),
    ``act_forced(action) -> bool`` (offered first when one action is legal) and ``uses_worlds``
    with ``set_worlds`` (search agents, see ``loop.Worlds``).
    """

    #: the label of leaderboards and of the self-play env's ``info["opponents"]``
    name: str

    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation: Any, action_mask: np.ndarray, view: Any) -> int: ...


class RandomSeat:
    """Uniform over the legal actions (one ``integers`` draw of its own generator per decision):
    the self-play env's default opponent, and ``agents.base.RandomAgent``."""

    name = "random"
    uses_observation = False
    uses_view = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, action_mask: np.ndarray, view: Any) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])
