"""Perfect-information Monte Carlo (determinized rollouts): sample worlds of the seat's
information set, score each legal action by rollouts from each world, play the best mean."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardarena.agents.search.base import SearchAgent
from cardarena.agents.search.rollout import Rollout


class PimcAgent(SearchAgent):
    """``pimc:worlds=16,rollouts=1,rollout=random,horizon=game``.

    Every action is rolled out from the same worlds with the same random numbers (one seed per
    world and rollout, shared by all actions), so their means differ by the action, not the luck.
    """

    def __init__(
        self,
        game: str,
        seed: int | None = None,
        name: str = "pimc",
        worlds: int = 16,
        rollouts: int = 1,
        rollout: str = "random",
        horizon: str = "game",
    ) -> None:
        super().__init__(game, seed, name, rollout, horizon)
        self.num_worlds = worlds
        self.rollouts = rollouts

    def search(self, worlds: Any, legal: list[int], rollout: Rollout, py: random.Random) -> int:
        engine, seat = worlds.engine, worlds.seat
        clone, apply, run = engine.clone, engine.apply, rollout.run
        totals = [0.0] * len(legal)
        start = None
        for _ in range(self.num_worlds):
            world = worlds.sample(self.rng)
            if start is None:
                start = rollout.start(world)
            for _ in range(self.rollouts):
                seed = py.getrandbits(63)
                for i, action in enumerate(legal):
                    state = clone(world, rng=np.random.default_rng(seed))
                    apply(state, action, seat)
                    totals[i] += run(state, random.Random(seed), start)[seat]
        best = max(totals)
        ties = [a for a, t in zip(legal, totals, strict=True) if t >= best - 1e-12]
        return ties[int(py.random() * len(ties))]
