"""A privileged critic: during training the value network also sees the hidden state.

With ``policy.privileged_critic: true`` the learner's observation is ``[observation |
privileged]``: the seat's ordinary observation followed by the game's privileged encoding
(``envs/<game>/privileged.py``: ``encode_privileged(state, seat)`` and ``privileged_size(engine)``,
every hand and the draw pile). The value network reads all of it; the actor reads the first
``actor_inputs`` entries only, so:

* the actor's first layer has exactly the observation's width, and its weights are the only
  ones a player uses: a checkpoint's actor (``mlp_extractor.policy_net.*`` and ``action_net``,
  :func:`agents.checkpoint.actor_layers`) acts from the plain observation of the normal env;
  the critic's weights in the file are never read by a player;
* no gradient of the policy loss depends on the privileged part (the actor never sees it), while
  the advantages PPO weights it by come from the better-informed value (asymmetric actor-critic).

Off (the default), nothing here is built: the env, the policy and the cost per step are the
plain ones.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
import torch as th
from stable_baselines3.common.torch_layers import MlpExtractor

from cardarena.agents.training.masked_policy import FastMaskablePolicy
from cardarena.envs.core.registry import get_spec


def privileged_module(game: str) -> ModuleType:
    """The module the game's manifest names as ``privileged``, or a :class:`ConfigError` saying
    the game has none."""
    return get_spec(game).privileged_module()


class PrivilegedObservation(gym.Wrapper):
    """A :class:`~envs.core.single_agent.SelfPlayEnv` whose observations are ``[observation |
    privileged]`` (the hidden state seen by the learner's seat's critic)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        module = privileged_module(env.game_name)
        self._encode = module.encode_privileged
        self.actor_inputs = int(env.observation_space.shape[0])
        extra = int(module.privileged_size(env.engine))
        low = np.concatenate([env.observation_space.low, np.full(extra, -np.inf, np.float32)])
        high = np.concatenate([env.observation_space.high, np.full(extra, np.inf, np.float32)])
        self.observation_space = gym.spaces.Box(low, high, dtype=np.float32)

    def _with_hidden(self, obs: np.ndarray) -> np.ndarray:
        hidden = self._encode(self.env.state, self.env.seat)
        return np.concatenate([obs, hidden]).astype(np.float32, copy=False)

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return self._with_hidden(obs), info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._with_hidden(obs), reward, terminated, truncated, info

    # what the vector envs and the callbacks call on a self-play env (gymnasium 1.x wrappers
    # forward no attribute by themselves)
    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def set_opponent_priorities(self, priorities: dict[str, float]) -> None:
        self.env.set_opponent_priorities(priorities)


class SplitMlpExtractor(MlpExtractor):
    """SB3's ``MlpExtractor`` whose policy net reads only the first ``actor_inputs`` features;
    the value net reads them all. The layer names are the plain extractor's, so checkpoints and
    :class:`~agents.policy.NumpyActor` read the actor as usual."""

    def __init__(self, feature_dim: int, actor_inputs: int, **kwargs: Any) -> None:
        super().__init__(feature_dim, **kwargs)
        plain = MlpExtractor(actor_inputs, **kwargs)  # the actor of an observation-only policy
        self.policy_net = plain.policy_net
        self.actor_inputs = actor_inputs

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return self.policy_net(features[..., : self.actor_inputs])


class PrivilegedCriticPolicy(FastMaskablePolicy):
    """:class:`~agents.training.masked_policy.FastMaskablePolicy` over ``[observation |
    privileged]`` whose actor reads the observation only (:class:`SplitMlpExtractor`)."""

    def __init__(self, *args: Any, actor_inputs: int, **kwargs: Any) -> None:
        self.actor_inputs = actor_inputs
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = SplitMlpExtractor(
            self.features_dim,
            self.actor_inputs,
            net_arch=self.net_arch,
            activation_fn=self.activation_fn,
            device=self.device,
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "actor_inputs": self.actor_inputs}


def actor_inputs(cfg: Any) -> int:
    """The actor's input width of a config: the game's plain observation size."""
    from cardarena.envs.core.registry import get_spec

    return int(get_spec(cfg.game).obs_size)
