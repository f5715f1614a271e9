"""Train any game with RLlib's PPO (new API stack): illegal actions masked, opponents given as
agent specs. docs/rllib.md explains it; `--address auto` runs it on an existing Ray cluster.

    python examples/rllib_train.py                                      # tiny: 2 iterations
    python examples/rllib_train.py --game ratatat --opponents tracker random --iterations 300 \\
        --batch 8000 --env-runners 16 --address auto --save runs/rllib_ratatat
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium as gym
import numpy as np
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from cardarena import envs  # registers the cardarena/<game>-v0 gymnasium ids

OBS, LOGITS = Columns.OBS, Columns.ACTION_DIST_INPUTS


class MaskedObs(gym.ObservationWrapper):
    """The game's single-agent env (other seats: ``opponents`` specs) with the action mask
    appended to the observation, so the mask travels through RLlib as ordinary data."""

    def __init__(self, config: dict[str, Any]) -> None:
        config = dict(config)  # game, opponents, and game options such as num_players
        env_id = envs.get_spec(config.pop("game")).env_id  # runners import cardarena.envs here
        super().__init__(gym.make(env_id, illegal_action="raise", **config))
        space, ones = self.env.observation_space, np.ones(self.env.action_space.n, np.float32)
        low, high = np.concatenate([space.low, 0 * ones]), np.concatenate([space.high, ones])
        self.observation_space = gym.spaces.Box(low, high, dtype=np.float32)

    def observation(self, obs: np.ndarray) -> np.ndarray:
        mask = self.env.unwrapped.action_masks()  # the learner's legal actions (none at the end)
        return np.concatenate([obs, mask]).astype(np.float32)


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO network; the logits of illegal actions are set to -3.4e38, so they are
    never sampled and get no gradient. The network also sees the mask as input."""

    def _mask(self, batch: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
        legal = batch[OBS][..., -self.action_space.n :] > 0
        out[LOGITS] = torch.where(legal, out[LOGITS], -3.4e38)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._mask(batch, super()._forward(batch, **kwargs))

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._mask(batch, super()._forward_train(batch, **kwargs))


def play(module: MaskedPPOModule, env_config: dict[str, Any], games: int) -> float:
    """Mean return of the trained module playing greedily, over ``games`` new games."""
    env, total = MaskedObs(env_config), 0.0
    for game in range(games):
        obs, done = env.reset(seed=10_000 + game)[0], False
        while not done:
            with torch.no_grad():
                logits = module.forward_inference({OBS: torch.from_numpy(obs[None])})[LOGITS]
            obs, reward, terminated, truncated, _ = env.step(int(logits[0].argmax()))
            total, done = total + reward, terminated or truncated
    return total / games


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--game", default="flip6")
    add("--num-players", type=int, default=None)
    add("--opponents", nargs="+", help="agent specs; several: a pool (default: best baseline)")
    add("--iterations", type=int, default=2)
    add("--batch", type=int, default=200, help="env steps per iteration")
    add("--epochs", type=int, default=4, help="passes over each batch (RLlib's default: 30)")
    add("--env-runners", type=int, default=0, help="sampling processes (0: this one)")
    add("--address", default=None, help="an existing Ray cluster: 'auto' or HOST:PORT")
    add("--eval-games", type=int, default=5)
    add("--save", default=None, help="directory for the final RLlib checkpoint")
    args = parser.parse_args(argv)
    env_config: dict[str, Any] = {"game": args.game}
    if args.opponents:  # one spec plays every other seat; several: each seat draws from them
        ops = args.opponents
        env_config["opponents"] = ops[0] if len(ops) == 1 else dict.fromkeys(ops, 1.0)
    if args.num_players:
        env_config["num_players"] = args.num_players
    config = (
        PPOConfig()
        .environment(MaskedObs, env_config=env_config)
        .env_runners(num_env_runners=args.env_runners)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(128, args.batch))
        .training(num_epochs=args.epochs)
        .rl_module(rl_module_spec=RLModuleSpec(module_class=MaskedPPOModule))
        .debugging(seed=0)
    )
    ray.init(address=args.address, include_dashboard=False, ignore_reinit_error=True)
    algo = config.build_algo()
    for i in range(args.iterations):
        result = algo.train()["env_runners"]
        steps, ret = result["num_env_steps_sampled_lifetime"], result.get("episode_return_mean")
        print(f"iteration {i + 1}: {steps:.0f} env steps, mean episode return {ret or 0:+.3f}")
    score = play(algo.get_module(), env_config, args.eval_games)
    print(f"greedy return over {args.eval_games} games: {score:+.3f}")
    if args.save:
        print("saved", algo.save_to_path(args.save))
    algo.stop()
    ray.shutdown()  # with --address: disconnects; the cluster goes on
    return result


if __name__ == "__main__":
    main()
