"""Network agents: a trained actor played with a numpy forward pass.

The actor's weights come from a checkpoint (:mod:`agents.checkpoint`: JSON and numpy arrays,
nothing unpickled) or from a live SB3 policy during training; acting needs no torch call (a tiny
MLP in numpy is several times faster than a torch forward of batch size 1, and it makes opponents
cheap inside the self-play env).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.core.engine import ConfigError

_ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
    "identity": lambda x: x,
}

Layer = tuple[np.ndarray, np.ndarray, str]  # (weights in x out, bias, activation name)


class NumpyActor:
    """The actor half of an actor-critic MLP policy, as numpy matrices.

    ``layers``: (weights of shape inputs x outputs, bias, activation) from the observation to the
    logits; the activation is one of ``tanh``, ``relu``, ``identity``."""

    def __init__(self, layers: list[Layer]) -> None:
        for _w, _b, name in layers:
            if name not in _ACTIVATIONS:
                raise ConfigError(f"unsupported activation {name!r}; known: {sorted(_ACTIVATIONS)}")
        layers = [
            (np.asarray(w, np.float32), np.asarray(b, np.float32), _ACTIVATIONS[name])
            for w, b, name in layers
        ]
        self.layers = layers
        #: the same weights in float64 for :meth:`legal_logits` (float32 products are exact there)
        self.layers64 = [(w.astype(np.float64), b.astype(np.float64), act) for w, b, act in layers]
        #: the first layer's weights in row order for :meth:`quick_legal_logits`, which gathers
        #: the rows of the nonzero inputs: from a torch layer the weights come transposed (column
        #: order), where gathering 70 rows of 1,290 took 8.5 us against 2.3 us here; the rows
        #: gathered are the same numbers, so the products are too
        self._first_rows = np.ascontiguousarray(layers[0][0])
        #: what the checkpoint said about itself (game, options, training), if it came from one
        self.meta: dict[str, Any] = {}
        self.obs_size = layers[0][0].shape[0]
        self.num_actions = layers[-1][0].shape[1]

    @classmethod
    def from_policy(cls, policy: Any) -> NumpyActor:
        """The actor of a live SB3 actor-critic MLP policy (MaskableActorCriticPolicy)."""
        from cardarena.agents.checkpoint import actor_layers, state_arrays

        activation = getattr(policy, "activation_fn", None)
        name = activation.__name__.lower() if activation is not None else "tanh"
        meta = {"policy": {"activation": name}}
        return cls(actor_layers(meta, state_arrays(policy), "policy"))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Logits of a batch through BLAS matrix products: fast, but a row's last bits depend on
        the BLAS kernel and on the rows beside it. Decisions use :meth:`legal_logits`."""
        x = obs
        for w, b, act in self.layers:
            x = act(x @ w + b)
        return x

    def legal_logits(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The logits of the ``legal`` actions for one observation, the way every decision is made.

        Each unit is a fixed sequence of float64 operations on this observation alone: products of
        its inputs with the unit's weights, summed in input order (numpy's reduction over axis 0
        adds row after row, whatever the width), plus the bias, then the activation on a vector
        of the layer's full width. No BLAS call is involved, so a decision never depends on which
        other observations share a batch, on the batch size or on the BLAS kernel of the machine;
        float64 keeps the sums closer to the exact network than float32 BLAS does. The first
        layer reads only the nonzero inputs (card observations are mostly zeros: the skipped
        terms are exact zeros) and the head only the legal columns.
        """
        nonzero = np.flatnonzero(obs)
        x = obs[nonzero].astype(np.float64)
        last = len(self.layers64) - 1
        for i, (w, b, act) in enumerate(self.layers64):
            if i == 0:
                w = w[nonzero]
            if i == last:
                w, b = w[:, legal], b[legal]
            x = act((x[:, None] * w).sum(axis=0) + b)
        return x

    def quick_legal_logits(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """:meth:`legal_logits` through float32 BLAS products: several times faster, but the last
        bits (and so a near-tie's choice) may depend on the machine's BLAS kernel. For the
        opponents of self-play training only, whose learner's own torch forward pass is no more
        reproducible across machines; every agent built by ``make_agent`` decides exactly.

        The first layer reads only the rows of its nonzero inputs (5-15% of a card observation:
        suicidium 68 of 1,290, ratatat 81 of 547), a product a tenth the size of the full one."""
        nonzero = obs.nonzero()[0]
        x = obs[nonzero]
        last = len(self.layers) - 1
        for i, (w, b, act) in enumerate(self.layers):
            if i == 0:
                w = self._first_rows.take(nonzero, axis=0)
            if i == last:
                w, b = w[:, legal], b[legal]
            x = act(x @ w + b)
        return x

    def masked_logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Rows of :meth:`legal_logits` with -inf on the illegal actions: one decision per row,
        each independent of the others."""
        out = np.full(mask.shape, -np.inf)
        for row, (x, m) in enumerate(zip(obs, mask, strict=True)):
            legal = np.flatnonzero(m)
            out[row, legal] = self.legal_logits(x, legal)
        return out


def load_actor(path: str | Path, sb3: bool = False) -> NumpyActor:
    """The actor of a cardarena checkpoint, or with ``sb3`` of a stable-baselines3 archive (its
    weights only: see :mod:`agents.checkpoint`)."""
    import cardarena.agents.checkpoint as checkpoint

    meta, arrays = (checkpoint.read_sb3 if sb3 else checkpoint.read)(path)
    actor = NumpyActor(checkpoint.actor_layers(meta, arrays, str(path)))
    actor.meta = meta
    return actor


class PolicyAgent(Agent):
    """Plays a trained policy: greedy over the legal actions by default, or sampled."""

    uses_view = False  # the network reads the observation only
    #: lock-step play calls act() per game: each game's copy of the agent has its own generator
    batchable = False

    def __init__(
        self,
        actor: NumpyActor,
        name: str = "policy",
        deterministic: bool = True,
        seed: int | None = None,
        exact: bool = True,
    ) -> None:
        super().__init__(seed)
        self.actor = actor
        self.name = name
        self.deterministic = deterministic
        #: False only for self-play training's opponents (NumpyActor.quick_legal_logits)
        self.exact = exact
        self._logits = actor.legal_logits if exact else actor.quick_legal_logits

    @classmethod
    def from_checkpoint(cls, path: str | Path, sb3: bool = False, **kwargs: Any) -> PolicyAgent:
        kwargs.setdefault("name", Path(path).stem)
        return cls(load_actor(path, sb3), **kwargs)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        # one decision, from this observation alone (NumpyActor.legal_logits): the same action
        # whether the agent plays one game or many in lock-step, on any machine's BLAS
        legal = np.flatnonzero(action_mask)
        return self.choose(self._logits(observation, legal), legal)

    def choose(self, z: np.ndarray, legal: np.ndarray) -> int:
        """The action for the logits ``z`` of the ``legal`` actions (increasing): the best, or
        with ``deterministic=False`` one drawn from their softmax with one draw of the agent's
        generator."""
        if self.deterministic:
            return int(legal[np.argmax(z)])
        p = np.exp(z - z.max())
        cum = np.cumsum(p / p.sum())
        u = self.rng.random((1, 1))[0, 0]
        return int(legal[min(int(np.searchsorted(cum, u, side="left")), len(legal) - 1)])

    def act_forced(self, action: int) -> bool:
        if not self.deterministic:
            self.rng.random((1, 1))  # the draw act would make: the generator's stream is unchanged
        return True


class FrozenOpponents:
    """An opponent sampler for :class:`~envs.core.single_agent.SelfPlayEnv`: the same network,
    sampling its actions, in every opponent seat. Picklable, so the games of a worker process
    (``vec_env: split`` / ``subproc``) get their own copy of the weights once."""

    def __init__(self, actor: NumpyActor, deterministic: bool = False) -> None:
        self.actor = actor
        self.deterministic = deterministic

    def __call__(self, rng: np.random.Generator, k: int) -> list[PolicyAgent]:
        return [
            PolicyAgent(self.actor, deterministic=self.deterministic, exact=False) for _ in range(k)
        ]
