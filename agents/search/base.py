"""What PIMC and ISMCTS share: the worlds handle, the rollout policy, seeding."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.agents.search.leaf import leaf_value, state_value
from cardarena.agents.search.rollout import Rollout
from cardarena.envs.core.engine import CardArenaError, ConfigError

#: how a rollout cut at a round's end is valued: ``engine.standing`` or the fitted leaf value
VALUES = ("standing", "leaf")


class SearchAgent(Agent):
    """An agent that searches sampled worlds. The game loop hands it a ``Worlds`` handle before
    each ``act`` (``uses_worlds``); it reads neither the observation nor the view.

    Reproducible: everything random in a decision (worlds, rollouts, ties) comes from ``rng``
    (``reset(seed)``), through one Python generator per decision for the rollouts."""

    uses_worlds = True
    uses_observation = False
    uses_view = False
    #: play the rollouts in C where the engine ports the rollout policy (``Rollout.native``):
    #: the same values, so the same decisions; False keeps them in Python (benches, tests)
    native_rollouts = True

    def __init__(
        self,
        game: str,
        seed: int | None = None,
        name: str = "search",
        rollout: str = "random",
        horizon: str = "game",
        value: str = "standing",
        depth: int = 0,
    ) -> None:
        super().__init__(seed)
        if value not in VALUES:
            raise ConfigError(f"{name}: value must be one of {list(VALUES)}, got {value!r}")
        if value == "leaf" and horizon != "round" and not depth:
            raise ConfigError(
                f"{name}: value=leaf values a rollout cut before the game's end, so it needs "
                f"horizon=round (the round's end) or depth=N (after N decisions)"
            )
        self.value = value
        #: decisions after which every rollout is cut and valued (0: no cut)
        self.depth = depth
        self.game = game
        self.name = name
        self.rollout_policy = rollout
        self.horizon = horizon
        self.worlds: Any = None
        self._rollout: Rollout | None = None
        #: ``make(num_players) -> agents`` playing the rollouts instead of ``rollout`` (e.g. a
        #: network, for expert iteration); None: the ``rollout`` policy of the spec
        self.rollout_agents: Any = None
        #: the legal actions of the last search and their scores (pimc: mean rollout value;
        #: ismcts: root visits), read by expert iteration's labelling; None before any search
        self.last_scores: tuple[list[int], list[float]] | None = None

    def set_worlds(self, worlds: Any) -> None:
        self.worlds = worlds

    def act_forced(self, action: int) -> bool:
        return True  # one legal action: nothing to search (act would not touch rng either)

    def act(self, observation: Any, action_mask: np.ndarray, view: Any) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if len(legal) == 1:
            return legal[0]
        worlds, self.worlds = self.worlds, None  # one handle, one decision
        if worlds is None:
            raise CardArenaError(
                f"{self.name}: no worlds to search; search agents play through the game loop "
                f"(envs.core.loop.decide), which hands them a Worlds handle before each act"
            )
        rollout = self._rollout
        if rollout is None or rollout.engine is not worlds.engine:
            agents = None
            if self.rollout_agents is not None:
                agents = self.rollout_agents(worlds.engine.num_players)
            leaf = None
            if self.value == "leaf" and self.depth:
                leaf = state_value(self.game, worlds.engine, self.rollout_policy)
            elif self.value == "leaf":
                leaf = leaf_value(self.game, worlds.engine, self.rollout_policy)
            rollout = self._rollout = Rollout(
                self.game,
                worlds.spec,
                worlds.engine,
                self.rollout_policy,
                self.horizon,
                agents,
                leaf,
                native=self.native_rollouts,
                depth=self.depth,
            )
        py = random.Random(int(self.rng.integers(2**63)))
        rollout.reseed(py)
        return self.search(worlds, legal, rollout, py)

    def search(self, worlds: Any, legal: list[int], rollout: Rollout, py: random.Random) -> int:
        raise NotImplementedError
