"""The agent protocol: what every player of the suite (scripted, random, network) implements.

An agent sees exactly what its seat may see: the encoded observation, the action mask and the
seat's ``view`` (the same information as plain data, which scripted agents find easier to read).
It owns its random generator, seeded by ``reset(seed)`` so tournaments are reproducible.
``Agent`` implements the envs' one seat protocol, ``envs.core.seats.SeatAgent``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from cardarena.envs.core.seats import RandomSeat


class Agent:
    """Base class. Subclasses implement :meth:`act`; ``name`` labels leaderboards."""

    name: str = "agent"
    #: whether ``act`` reads the encoded observation / the ``view``; callers skip building what
    #: an agent declares it does not read (self-play opponents, tournaments). Keep True if unsure.
    uses_observation: bool = True
    uses_view: bool = True
    #: search agents set this: the game loop then calls :meth:`set_worlds` before each ``act``
    #: with a ``envs.core.loop.Worlds`` handle (engine, spec, seat, ``sample(rng)``: worlds of the
    #: seat's information set, built from a scrubbed state, so no true hidden card is in it)
    uses_worlds: bool = False
    #: seers set this (``agents/seer.py``): the game loop then calls ``set_state(spec, engine,
    #: state, seat)`` before each ``act`` with a copy of the TRUE state (every hidden card)
    sees_state: bool = False
    #: False for a reference that is no legal player (a seer): tournaments refuse to seat it
    #: with legal players unless told (``evaluate.py --allow-seers``) and then label it
    legal_player: bool = True
    #: outside agents set this (``agents/outside``): the game loop then calls :meth:`set_text`
    #: before each ``act`` with the seat's text render, the engine and the seat
    uses_text: bool = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Called before each game; re-seeds the agent's own generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any) -> int:
        """``view``: a plain dict of the game's declared type (``envs/<game>/views.py``), which
        a game's agents may name (``Any`` here, so that their ``act`` may narrow it)."""
        raise NotImplementedError

    def set_worlds(self, worlds: Any) -> None:
        """Called before ``act`` for agents with ``uses_worlds`` (see ``agents/search``)."""

    def set_text(self, text: str, engine: Any, seat: int) -> None:
        """Called before ``act`` for agents with ``uses_text`` (see ``agents/outside``)."""

    def end_game(self, result: dict[str, Any]) -> None:
        """Called when a game this agent sat in ends (``envs.core.loop.finish``): ``scores``,
        ``winners``, ``returns``, ``seat`` (its own), ``forfeit`` (a seat or None), ``fault``."""

    def act_forced(self, action: int) -> bool:
        """Offered first when ``action`` is the only legal one. An agent that needs nothing to
        play it returns True, having done to its generator what :meth:`act` would have done;
        the caller then builds no observation and does not call ``act``. The default returns
        False (``act`` is called as usual: scripted agents may track the game through it)."""
        return False

    def act_batch(
        self,
        observations: np.ndarray,
        action_masks: np.ndarray,
        views: list[dict[str, Any]],
    ) -> np.ndarray:
        """Many decisions at once (network agents override this with one forward pass)."""
        return np.array(
            [self.act(o, m, v) for o, m, v in zip(observations, action_masks, views, strict=True)],
            dtype=np.int64,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class RandomAgent(RandomSeat, Agent):
    """Uniform over the legal actions: the zero anchor of every leaderboard. It is the envs'
    random seat (``envs.core.seats.RandomSeat``: its ``act``, its draws, ``name`` "random", no
    observation or view read) with the rest of :class:`Agent` (``act_batch``, ``act_forced``)."""


def close_agents(agents: Iterable[Any]) -> None:
    """Call ``close()`` on every agent that has one (an ``exec:`` program's process ends there),
    all of them even when one fails; the first failure is raised at the end."""
    failed: Exception | None = None
    for agent in agents:
        closer = getattr(agent, "close", None)
        try:
            if closer is not None:
                closer()
        except Exception as err:  # noqa: BLE001 - the others are closed all the same
            failed = failed or err
    if failed is not None:
        raise failed
