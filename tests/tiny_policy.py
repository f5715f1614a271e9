"""A tiny random-weight network agent for the evaluator's tests (``tiny_policy:make``).

Built without torch or a checkpoint: a :class:`~agents.policy.PolicyAgent` over a numpy actor
with fixed random weights, so tests exercise the batched network path in a fraction of a second.
"""

from __future__ import annotations

import numpy as np

from cardarena.agents.policy import NumpyActor, PolicyAgent
from cardarena.envs.core.registry import get_spec

_ACTORS: dict[str, NumpyActor] = {}


def actor_for(game: str, hidden: int = 24) -> NumpyActor:
    if game not in _ACTORS:
        spec = get_spec(game)
        num_actions = spec.make_engine().num_actions
        rng = np.random.default_rng(12345)
        actor = NumpyActor(
            [
                (
                    rng.normal(0, 0.5, (spec.obs_size, hidden)).astype(np.float32),
                    rng.normal(0, 0.1, hidden).astype(np.float32),
                    "tanh",
                ),
                (
                    rng.normal(0, 0.5, (hidden, num_actions)).astype(np.float32),
                    np.zeros(num_actions, np.float32),
                    "identity",
                ),
            ]
        )
        _ACTORS[game] = actor
    return _ACTORS[game]


def make(game: str, seed: int | None = None) -> PolicyAgent:
    """The ``module:factory`` entry point: greedy over the tiny network."""
    return PolicyAgent(actor_for(game), name="tiny", seed=seed)


def make_sampled(game: str, seed: int | None = None) -> PolicyAgent:
    """The same network, sampling its actions (exercises per-seat random generators)."""
    return PolicyAgent(actor_for(game), name="tiny-sampled", deterministic=False, seed=seed)
