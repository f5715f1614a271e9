"""Self-play learner throughput: cardarena's trainer next to the PettingZoo + SB3 tutorial recipe.

    python bench/selfplay_speed.py [--steps 40000] [--games flip6 ...]

Both figures are environment steps per second during ``MaskablePPO.learn`` in the same process:

* tutorial: PettingZoo's connect_four_v3 wrapped for SB3 the way PettingZoo's action-masked PPO
  tutorial does it (one policy plays both sides through an AEC -> gymnasium wrapper, every AEC
  step is a learner step; MaskablePPO with its default hyper-parameters, as in the tutorial);
* cardarena: ``train.py``'s setup for each game (its YAML's PPO settings, games per forward pass
  and ``vec_env``), with every opponent seat played by a frozen network of the learner's shape
  (its initial weights, sampling), so opponents cost a network forward pass as in real self-play. The headline counts learner decisions only (what
  PPO trains on); every decision played, the opponents' included, is reported next to it.

Prints the ratio and writes JSON (bench/results/selfplay_speed.json).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import gymnasium as gym

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class TutorialMaskWrapper(gym.Env):
    """AEC -> gymnasium, parameter sharing: the agent to move is always "the" agent (tutorial style).

    Observation: the mover's observation; reward: the mover's reward after its move. This is the
    recipe of PettingZoo's SB3 action-mask tutorial, written here from its description.
    """

    def __init__(self, aec_env):
        self.env = aec_env
        self.env.reset()
        agent = self.env.possible_agents[0]
        self.observation_space = self.env.observation_space(agent)["observation"]
        self.action_space = self.env.action_space(agent)

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed)
        return self.env.observe(self.env.agent_selection)["observation"], {}

    def step(self, action):
        mover = self.env.agent_selection
        self.env.step(int(action))
        _obs, _r, term, trunc, info = self.env.last()
        reward = self.env._cumulative_rewards.get(mover, 0.0)
        obs = self.env.observe(self.env.agent_selection)["observation"]
        return obs, float(reward), bool(term), bool(trunc), info

    def action_masks(self):
        return self.env.observe(self.env.agent_selection)["action_mask"].astype(bool)


def tutorial_steps_per_second(steps: int) -> float:
    from pettingzoo.classic import connect_four_v3
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    env = TutorialMaskWrapper(connect_four_v3.env())
    model = MaskablePPO(MaskableActorCriticPolicy, env, verbose=0, seed=0, device="cpu")
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    return model.num_timesteps / (time.perf_counter() - start)


def cardarena_steps_per_second(game: str, config: str, steps: int) -> dict[str, float]:
    """Learner steps/s during ``learn``, and every decision played per second (the learner's
    and its network opponents')."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from cardarena.agents.policy import FrozenOpponents, NumpyActor
    from cardarena.agents.training.callbacks import ThreadSwitch
    from cardarena.agents.training.config import load_config
    from cardarena.agents.training.masked_policy import FastMaskablePolicy
    from cardarena.agents.training.split_vec_env import vec_env_class
    from cardarena.envs.core.single_agent import SelfPlayEnv

    cfg = load_config(config)
    rollout_threads, update_threads = cfg.torch_threads.counts()
    torch.set_num_threads(rollout_threads)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[cfg.policy.activation]
    policy_kwargs = {"net_arch": list(cfg.policy.net_arch), "activation_fn": activation}
    probe = SelfPlayEnv(game, cfg.env)
    torch.manual_seed(0)
    # the opponents' network: the learner's shape at its initial weights (built before the envs,
    # so that worker processes get it with their games)
    actor = NumpyActor.from_policy(
        FastMaskablePolicy(
            probe.observation_space, probe.action_space, lambda _: 0.0, **policy_kwargs
        )
    )
    cooperative = __import__("cardarena.envs", fromlist=["x"]).get_spec(game).cooperative
    opponents = None if cooperative else FrozenOpponents(actor)
    fns = [
        (
            lambda i=i: SelfPlayEnv(
                game, cfg.env, opponents=opponents, shared_policy=cooperative, seed=i
            )
        )
        for i in range(cfg.n_envs)
    ]
    vec = VecMonitor(vec_env_class(cfg.vec_env)(fns))
    model = MaskablePPO(
        FastMaskablePolicy,  # what train.py uses
        vec,
        seed=0,
        device="cpu",
        verbose=0,
        policy_kwargs=policy_kwargs,
        **asdict(cfg.ppo),
    )
    start = time.perf_counter()
    model.learn(total_timesteps=steps, callback=ThreadSwitch(rollout_threads, update_threads))
    seconds = time.perf_counter() - start
    torch.set_num_threads(rollout_threads)
    opponent = sum(vec.get_attr("opponent_decisions"))
    vec.close()
    return {
        "steps_per_s": model.num_timesteps / seconds,
        "all_decisions_per_s": (model.num_timesteps + opponent) / seconds,
        "vec_env": cfg.vec_env,
        "n_envs": cfg.n_envs,
    }


def main(argv: list[str] | None = None) -> dict:
    from cardarena import envs

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=40_000)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--out", default="bench/results/selfplay_speed.json")
    args = parser.parse_args(argv)
    results: dict = {"steps": args.steps, "games": {}}
    base = tutorial_steps_per_second(args.steps)
    results["tutorial_connect_four_v3"] = base
    print(f"{'tutorial recipe, connect_four_v3':<44} {base:>8.0f} learner steps/s", flush=True)
    for game in args.games or envs.names():
        configs = sorted(Path("configs").glob(f"{game}*.yaml"))
        configs = [c for c in configs if "demo" not in c.name][:1]
        if not configs:
            continue
        speed = cardarena_steps_per_second(game, str(configs[0]), args.steps)
        sps = speed["steps_per_s"]
        results["games"][game] = {"config": str(configs[0]), **speed, "ratio": sps / base}
        label = f"cardarena {game} ({configs[0].name})"
        print(
            f"{label:<44} {sps:>8.0f} learner steps/s  x{sps / base:.2f}   "
            f"(all decisions, opponents' included: {speed['all_decisions_per_s']:.0f}/s)",
            flush=True,
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"written to {out}")
    return results


if __name__ == "__main__":
    main()
