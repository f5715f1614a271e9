"""Perfect-information Monte Carlo (determinized rollouts): sample worlds of the seat's
information set, score each legal action by rollouts from each world, play the best mean.

With ``gate > 0`` it is one step of policy improvement over the rollout policy instead: the
rollout policy's own choice is played unless another action's mean advantage over it, paired
world by world, is above ``gate`` standard errors. Plain argmax over a few dozen noisy means
picks a worse action by luck often enough to lose to the rollout policy it searches with; the
gate only moves when the evidence is clear.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardarena.agents.search.base import SearchAgent
from cardarena.agents.search.rollout import Rollout
from cardarena.envs.core.loop import decide

#: with a gate: after ``min_worlds``, stop when no action is within this many standard errors
#: of beating the rollout policy's choice
HOPELESS = 2.0


class PimcAgent(SearchAgent):
    """``pimc:worlds=16,rollouts=1,rollout=random,horizon=game,value=standing,gate=0``.

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
        value: str = "standing",
        depth: int = 0,
        gate: float = 0.0,
        min_worlds: int = 0,
    ) -> None:
        super().__init__(game, seed, name, rollout, horizon, value, depth)
        self.num_worlds = worlds
        self.rollouts = rollouts
        self.gate = gate
        self.min_worlds = min_worlds
        #: worlds the last search sampled (fewer than ``worlds`` when ``min_worlds`` cut it)
        self.last_worlds = 0

    def search(self, worlds: Any, legal: list[int], rollout: Rollout, py: random.Random) -> int:
        engine, seat = worlds.engine, worlds.seat
        clone, apply, run_many = engine.clone, engine.apply, rollout.run_many
        samples: list[list[float]] = []  # per world and rollout: the value of every action
        start = None
        default = None
        for w in range(self.num_worlds):
            world = worlds.sample(self.rng)
            if start is None:
                start = rollout.start(world)
                if self.gate > 0:  # the rollout policy's choice; any world gives the seat's view
                    assert rollout.agents is not None  # gate needs a scripted rollout (checked)
                    agent = rollout.agents[seat]
                    default = legal.index(
                        decide(worlds.spec, engine, world, seat, agent, rollout.mask)
                    )
            states, seeds = [], []  # every rollout of this world, one batch (run_many)
            for _ in range(self.rollouts):
                seed = py.getrandbits(63)
                for action in legal:
                    state = clone(world, rng=np.random.default_rng(seed))
                    apply(state, action, seat)
                    states.append(state)
                    seeds.append(seed)
            flat = run_many(states, seeds, start, seat)
            samples.extend(flat[i : i + len(legal)] for i in range(0, len(flat), len(legal)))
            if default is not None and self.min_worlds and w + 1 == self.min_worlds:
                if _challenger(np.asarray(samples), default, -HOPELESS) is None:
                    break
        values = np.asarray(samples)
        self.last_worlds = len(samples) // self.rollouts
        means = values.mean(axis=0)
        self.last_scores = (list(legal), means.tolist())
        if default is not None:
            best = _challenger(values, default, self.gate)
            return legal[default if best is None else best]
        top = means.max()
        ties = [a for a, m in zip(legal, means, strict=True) if m >= top - 1e-12]
        return ties[int(py.random() * len(ties))]


def _challenger(values: np.ndarray, default: int, z: float) -> int | None:
    """The action with the best mean advantage over ``default`` (columns of ``values``, rows
    paired by world), if that advantage is above ``z`` standard errors (and not a tie); else None."""
    if len(values) < 2:
        return None
    adv = values - values[:, [default]]
    mean = adv.mean(axis=0)
    se = adv.std(axis=0, ddof=1) / np.sqrt(len(values))
    mean[default] = -np.inf
    best = int(np.argmax(mean))
    return best if mean[best] - z * se[best] > 1e-9 else None
