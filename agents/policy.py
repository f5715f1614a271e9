"""Network agents: a MaskablePPO checkpoint played with a numpy forward pass.

Loading goes through stable-baselines3 once; the actor's weights are then copied into numpy
arrays so that acting needs no torch call (a tiny MLP in numpy is several times faster than a
torch forward of batch size 1, and it makes opponents cheap inside the self-play env).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from envs.core.engine import ConfigError

_ACTIVATIONS = {
    "Tanh": np.tanh,
    "ReLU": lambda x: np.maximum(x, 0.0),
    "Identity": lambda x: x,
}


class NumpyActor:
    """The actor half of an SB3 actor-critic MLP policy, as numpy matrices."""

    def __init__(self, policy: Any) -> None:
        import torch.nn as nn

        layers: list[tuple[np.ndarray, np.ndarray, Any]] = []
        modules = list(policy.mlp_extractor.policy_net)
        i = 0
        while i < len(modules):
            module = modules[i]
            if not isinstance(module, nn.Linear):
                raise ConfigError(f"unsupported policy layer {module!r}")
            act = _ACTIVATIONS["Identity"]
            if i + 1 < len(modules) and not isinstance(modules[i + 1], nn.Linear):
                name = type(modules[i + 1]).__name__
                if name not in _ACTIVATIONS:
                    raise ConfigError(f"unsupported activation {name}")
                act = _ACTIVATIONS[name]
                i += 1
            layers.append(
                (
                    module.weight.detach().cpu().numpy().T.astype(np.float32),
                    module.bias.detach().cpu().numpy().astype(np.float32),
                    act,
                )
            )
            i += 1
        head = policy.action_net
        layers.append(
            (
                head.weight.detach().cpu().numpy().T.astype(np.float32),
                head.bias.detach().cpu().numpy().astype(np.float32),
                _ACTIVATIONS["Identity"],
            )
        )
        self.layers = layers
        self.obs_size = layers[0][0].shape[0]
        self.num_actions = layers[-1][0].shape[1]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs
        for w, b, act in self.layers:
            x = act(x @ w + b)
        return x

    def legal_logits(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """``logits(obs[None])[0, legal]`` for one observation, computed cheaply: the first layer
        reads only the observation's nonzero entries when they are few (card observations are
        mostly zeros: suicidium's 1290 floats hold ~70 nonzeros) and the head only the legal
        columns. Equal to :meth:`logits` up to float32 rounding (the sums run in another order)."""
        layers = self.layers
        w, b, act = layers[0]
        nonzero = np.flatnonzero(obs)
        if 4 * len(nonzero) < len(obs):
            x = act(obs[nonzero] @ w[nonzero] + b)
        else:
            x = act(obs @ w + b)
        for w, b, act in layers[1:-1]:
            x = act(x @ w + b)
        w, b, act = layers[-1]
        return act(x @ w[:, legal] + b[legal])

    def masked_logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.where(mask.astype(bool), self.logits(obs), -np.inf)


def load_actor(path: str | Path) -> NumpyActor:
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"checkpoint {str(path)!r} does not exist")
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(path), device="cpu")
    return NumpyActor(model.policy)


class PolicyAgent(Agent):
    """Plays a trained policy: greedy over the legal actions by default, or sampled."""

    uses_view = False  # the network reads the observation only

    def __init__(
        self,
        actor: NumpyActor,
        name: str = "policy",
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.actor = actor
        self.name = name
        self.deterministic = deterministic

    @classmethod
    def from_checkpoint(cls, path: str | Path, **kwargs: Any) -> PolicyAgent:
        kwargs.setdefault("name", Path(path).stem)
        return cls(load_actor(path), **kwargs)

    def _choose(self, logits: np.ndarray) -> np.ndarray:
        if self.deterministic:
            return np.argmax(logits, axis=-1)
        z = logits - logits.max(axis=-1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=-1, keepdims=True)
        u = self.rng.random((p.shape[0], 1))
        # (a u above the rounded total must not fall past the last legal action)
        last = p.shape[1] - 1 - np.argmax(p[:, ::-1] > 0, axis=-1)
        return np.minimum((p.cumsum(axis=-1) < u).sum(axis=-1), last)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        # one decision: only the legal columns matter. The same choice and the same one uniform
        # draw as _choose over the whole masked row (the masked entries add exact zeros to the
        # sums), up to float32 rounding of the logits (NumpyActor.legal_logits)
        legal = np.flatnonzero(action_mask)
        z = self.actor.legal_logits(observation, legal)
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

    def act_batch(
        self, observations: np.ndarray, action_masks: np.ndarray, views: list[dict[str, Any]]
    ) -> np.ndarray:
        return self._choose(self.actor.masked_logits(observations, action_masks)).astype(np.int64)


class FrozenOpponents:
    """An opponent sampler for :class:`~envs.core.single_agent.SelfPlayEnv`: the same network,
    sampling its actions, in every opponent seat. Picklable, so the games of a worker process
    (``vec_env: split`` / ``subproc``) get their own copy of the weights once."""

    def __init__(self, actor: NumpyActor, deterministic: bool = False) -> None:
        self.actor = actor
        self.deterministic = deterministic

    def __call__(self, rng: np.random.Generator, k: int) -> list[PolicyAgent]:
        return [PolicyAgent(self.actor, deterministic=self.deterministic) for _ in range(k)]
