"""Plain stable-baselines3 on a game's gymnasium id: sb3-contrib's MaskablePPO against opponents
given as agent specs, then the saved model ranked by the evaluator against the baselines.

    python examples/sb3_train.py                                  # tiny: 256 steps, seconds
    python examples/sb3_train.py --steps 200000 --deals 500 --out flip6_vs_ev.zip

train.py does more for a real run (self-play against snapshots, warm start, checkpoints).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import gymnasium as gym
from sb3_contrib import MaskablePPO

from cardarena import envs  # noqa: F401  (registers the cardarena/<game>-v0 gymnasium ids)
from cardarena.agents.evaluation.report import leaderboard_text
from cardarena.agents.evaluation.tournament import run_tournament


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="flip6")
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--opponents", nargs="+", default=["ev", "random"],
                        help="one spec per seat, or several: each seat draws one per episode")  # fmt: skip
    parser.add_argument("--steps", type=int, default=256, help="learner decisions to train on")
    parser.add_argument("--deals", type=int, default=6, help="deck seeds in the ranking")
    parser.add_argument("--out", default=None, help="where to save the model (.zip)")
    args = parser.parse_args(argv)

    ops = args.opponents
    env = gym.make(
        f"cardarena/{args.game}-v0",
        opponents=ops[0] if len(ops) == 1 else dict.fromkeys(ops, 1.0),  # a pool, equal weights
        num_players=args.num_players,  # the learner takes a random seat each episode
    )
    # MaskablePPO finds env.action_masks() and never samples an illegal action
    model = MaskablePPO("MlpPolicy", env, n_steps=min(2048, args.steps), batch_size=64, seed=0)
    model.learn(total_timesteps=args.steps)

    out = Path(args.out or Path(tempfile.mkdtemp()) / f"{args.game}_sb3.zip")
    model.save(out)
    # an agent per seat: the opponents in turn round the table
    lineup = [f"sb3:{out}", *[ops[i % len(ops)] for i in range(args.num_players - 1)]]
    print(f"saved {out}; rank it any time with: python evaluate.py --game {args.game} "
          f"--num-players {args.num_players} --agents {' '.join(lineup)}")  # fmt: skip
    # sb3:PATH reads the weights only (nothing unpickled); every seat rotation of each deal
    result = run_tournament(
        args.game, lineup, args.deals, {"num_players": args.num_players}, progress=False
    )
    print(leaderboard_text(result))


if __name__ == "__main__":
    main()
