"""How exploitable is an agent? An approximate best response, trained against it and measured.

    python bench/best_response.py --game flip6 --target ev zoo:flip6 --num-players 4 \
        --timesteps 150000 --eval-games 2000 --seed 0 --out bench/results/br_flip6.json

For each target, MaskablePPO (the project's training code: :func:`agents.training.config.from_dict`
defaults, :func:`agents.training.trainer.build_model`, the single-agent
:class:`envs.core.single_agent.SelfPlayEnv`) is trained for ``--timesteps`` learner decisions with
the target frozen in every other seat (the learner in a random seat each game), and nothing else.
Then the learner (greedy, as a checkpoint) plays the target on fresh deck seeds through the
evaluator's own code (:func:`agents.evaluation.tournament.run_tournament`: every deck seed under
every seat rotation): its win rate, with a 95% Wilson interval over the games and the evaluator's
paired bootstrap interval over deck seeds.

Reference: the same budget, seed and network trained against a table of ``random`` (once per
run, whatever the targets), measured against ``random`` (how much the budget learns to beat a
random table) and against each target (what training against the target itself adds).

``--warm-start GAMES`` first clones the target (``agents.training.warm_start``, its decisions
in GAMES games), so that the response starts about as strong as the target instead of from
nothing; a from-scratch learner below par bounds nothing.

This is an *approximate* best response (Timbers et al., "Approximate exploitability: learning a
best response", IJCAI 2022): the learner is one policy found by a fixed budget of PPO, so how far
it beats par is a lower bound on how exploitable the target is (a better response may exist);
a learner at or below par says the budget found no exploit, not that there is none.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import math
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cardarena.envs.core.engine import ConfigError  # noqa: E402

Z95 = 1.959963984540054
#: deck seeds of the evaluations (training deals come from the env's own generator, never these)
EVAL_FIRST_SEED = 40_000_000
#: below one default rollout (256 steps x 8 envs) a smaller rollout, so that PPO updates at all
SMALL_BUDGET = 2048


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (ties counted as the share of the win they give)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class FrozenTable:
    """Opponent sampler of :class:`SelfPlayEnv`: the agent of ``spec`` in every other seat.

    Built once and copied per seat and game (as the evaluator does), so a network target is not
    read from its file at every reset; each copy is reset by the env with its own seed."""

    def __init__(self, game: str, spec: str) -> None:
        from cardarena.agents import make_agent

        self.agent = make_agent(game, spec)

    def __call__(self, rng: Any, k: int) -> list[Any]:
        return [copy.copy(self.agent) for _ in range(k)]


def _ProgressBar(bar: Any) -> Any:  # noqa: N802 - builds the callback class on demand
    from stable_baselines3.common.callbacks import BaseCallback

    class ProgressBar(BaseCallback):
        """tqdm over the timesteps (plain tqdm: readable in a log file, unlike SB3's rich bar)."""

        def _on_step(self) -> bool:
            if bar is not None:
                bar.update(self.training_env.num_envs)
            return True

    return ProgressBar()


def train_config(
    game: str,
    num_players: int,
    timesteps: int,
    seed: int,
    out_dir: str,
    imitate: str | None = None,
    clone_games: int = 0,
) -> Any:
    """The project's training defaults for this budget (checked like any training config); with
    ``clone_games``, a warm start cloning ``imitate`` on that many games first."""
    from cardarena.agents.training.config import from_dict

    data: dict[str, Any] = {
        "game": game,
        "env": {"num_players": num_players},
        "seed": seed,
        "total_timesteps": timesteps,
        "output_dir": out_dir,
    }
    if clone_games:
        data["warm_start"] = {"imitate": imitate, "games": clone_games}
    if timesteps < SMALL_BUDGET:
        data.update(n_envs=2, ppo={"n_steps": 64, "batch_size": 64})
    return from_dict(data)


def train_response(
    game: str,
    against: str,
    num_players: int,
    timesteps: int,
    seed: int,
    path: Path,
    progress: bool,
    clone_games: int = 0,
) -> dict[str, Any]:
    """Train MaskablePPO against ``against`` in every other seat; save the learner to ``path``.
    With ``clone_games``, the policy first clones ``against`` (its decisions in that many games
    where it plays every seat: :mod:`agents.training.warm_start`)."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from cardarena.agents.training.checkpoints import save_model
    from cardarena.agents.training.trainer import build_model
    from cardarena.envs.core import seeding
    from cardarena.envs.core.single_agent import SelfPlayEnv

    cfg = train_config(game, num_players, timesteps, seed, str(path.parent), against, clone_games)
    torch.manual_seed(seed)
    torch.set_num_threads(1)  # small networks: threads only cost

    def thunk(rank: int) -> Any:
        def make() -> SelfPlayEnv:
            return SelfPlayEnv(
                game,
                cfg.env,
                opponents=FrozenTable(game, against),
                seed=seeding.derive(seed, 2, rank),
            )

        return make

    vec = VecMonitor(DummyVecEnv([thunk(i) for i in range(cfg.n_envs)]))
    model = build_model(cfg, vec)
    start = time.perf_counter()
    cloned = None
    if clone_games:
        from cardarena.agents.training.warm_start import warm_start

        cloned = warm_start(model, cfg, progress, 1)
    bar = None
    if progress:
        from tqdm import tqdm

        rollout = cfg.n_envs * cfg.ppo.n_steps  # SB3 collects whole rollouts: up to one more
        total = -(-timesteps // rollout) * rollout
        bar = tqdm(total=total, unit="step", desc=f"{game} vs {against}", mininterval=2)
    model.learn(total_timesteps=timesteps, callback=_ProgressBar(bar))
    if bar is not None:
        bar.close()
    seconds = time.perf_counter() - start
    vec.close()
    save_model(model, path, cfg)
    return {
        "trained_against": against,
        "timesteps": int(model.num_timesteps),
        "train_seconds": round(seconds, 1),
        "n_envs": cfg.n_envs,
        "n_steps": cfg.ppo.n_steps,
        "warm_start": None
        if cloned is None
        else {k: cloned[k] for k in ("teacher", "games", "decisions", "agreement") if k in cloned},
    }


def measure(
    game: str,
    learner: Path,
    against: str,
    num_players: int,
    eval_games: int,
    workers: int,
) -> dict[str, Any]:
    """The learner in one seat, ``against`` in the others, on fresh deck seeds (every rotation)."""
    from cardarena.agents.evaluation.tournament import run_tournament

    deals = max(1, math.ceil(eval_games / num_players))
    me = str(learner)
    res = run_tournament(
        game,
        [me, *[against] * (num_players - 1)],
        deals,
        {"num_players": num_players},
        first_seed=EVAL_FIRST_SEED,
        workers=workers,
        progress=False,
    )
    games = list(res.records)
    wins = 0.0
    for r in games:
        seat = r.lineup.index(me)
        if seat in r.winners:
            wins += 1.0 / len(r.winners)
    summary = {s.name: s for s in res.summaries()}[me]
    low, high = wilson(wins, len(games))
    return {
        "against": against,
        "games": len(games),
        "deals": deals,
        "first_seed": EVAL_FIRST_SEED,
        "wins": round(wins, 3),
        "win_rate": round(wins / len(games), 4),
        "wilson_95": [round(low, 4), round(high, 4)],
        "bootstrap_95": [round(summary.win_ci[0], 4), round(summary.win_ci[1], 4)],
        "mean_score": round(summary.mean_score, 2),
    }


def run(args: argparse.Namespace, argv: list[str]) -> dict[str, Any]:
    from cardarena.agents import make_agent
    from cardarena.envs.core.registry import get_spec

    if get_spec(args.game).cooperative:
        raise ConfigError(f"{args.game} is cooperative: there is no opponent to exploit")
    for spec in args.target:
        make_agent(args.game, spec)  # an unknown spec fails before any training
    n = args.num_players
    get_spec(args.game).make_engine(num_players=n)
    out: dict[str, Any] = {
        "what": "approximate best response (a lower bound on exploitability)",
        "game": args.game,
        "num_players": n,
        "par": 1 / n,
        "timesteps": args.timesteps,
        "eval_games": args.eval_games,
        "seed": args.seed,
        "date": datetime.date.today().isoformat(),
        "command": "python bench/best_response.py " + shlex.join(argv),
        "targets": [],
    }
    with tempfile.TemporaryDirectory(prefix="best_response_") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        reference: Path | None = None
        if args.reference_checkpoint:
            reference = Path(args.reference_checkpoint).resolve()
            out["reference"] = {"checkpoint": str(reference)}
        elif not args.no_reference:
            reference = work / f"{args.game}_{n}p_random.zip"
            out["reference"] = _trained(args, "random", reference)
        for spec in args.target:
            path = work / f"{args.game}_{n}p_{_file_name(spec)}.zip"
            train = _trained(args, spec, path)
            row: dict[str, Any] = {
                "target": spec,
                **train,
                "best_response": measure(args.game, path, spec, n, args.eval_games, args.workers),
            }
            if reference is not None:
                row["reference_vs_target"] = measure(
                    args.game, reference, spec, n, args.eval_games, args.workers
                )
            out["targets"].append(row)
        if reference is not None and not args.reference_checkpoint:
            vs_random = measure(args.game, reference, "random", n, args.eval_games, args.workers)
            out["reference"]["vs_random"] = vs_random
    return out


def _trained(args: argparse.Namespace, against: str, path: Path) -> dict[str, Any]:
    """Train the learner against ``against`` into ``path`` or, with ``--reuse``, take the one an
    earlier run kept there (its budget is checked against ``--timesteps``)."""
    if args.reuse and path.exists():
        from cardarena.agents import checkpoint

        meta, _ = checkpoint.read(path)
        done = int(meta.get("timesteps", 0))
        if done < args.timesteps or meta.get("env", {}).get("num_players") != args.num_players:
            raise ConfigError(
                f"{path} was trained for {done} timesteps at {meta.get('env')}, not "
                f"{args.timesteps} at {args.num_players} players; train it again without --reuse"
            )
        return {"trained_against": against, "timesteps": done, "reused": str(path)}
    return train_response(
        args.game,
        against,
        args.num_players,
        args.timesteps,
        args.seed,
        path,
        not args.no_progress,
        args.warm_start,
    )


def _file_name(spec: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in spec)


def table(result: dict[str, Any]) -> str:
    """Markdown rows: target, best response vs target, reference learner vs target."""

    def cell(m: dict[str, Any] | None) -> str:
        if m is None:
            return ""
        lo, hi = m["wilson_95"]
        return f"{m['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"

    lines = [
        f"{result['game']}, {result['num_players']} players (par {result['par']:.3f}), "
        f"{result['timesteps']:,} timesteps, {result['eval_games']} eval games",
        "",
        "| target | best response vs target [95% Wilson] | random-trained vs target | games |",
        "|---|---|---|---:|",
    ]
    for row in result["targets"]:
        br = row["best_response"]
        lines.append(
            f"| `{row['target']}` | {cell(br)} | {cell(row.get('reference_vs_target'))} "
            f"| {br['games']} |"
        )
    if "vs_random" in result.get("reference", {}):
        ref = result["reference"]["vs_random"]
        lines.append(f"| `random` (reference) | {cell(ref)} | | {ref['games']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="flip6")
    p.add_argument("--target", nargs="+", required=True, help="agent spec(s) to exploit")
    p.add_argument("--num-players", type=int, default=4)
    p.add_argument("--timesteps", type=int, default=150_000, help="learner decisions per run")
    p.add_argument("--eval-games", type=int, default=2000, help="games per measurement")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="processes for the evaluations")
    p.add_argument(
        "--warm-start",
        type=int,
        default=0,
        metavar="GAMES",
        help="clone the agent trained against (its decisions in GAMES games) before PPO; "
        "a response that starts as strong as the target (default 0: from scratch)",
    )
    p.add_argument("--no-reference", action="store_true", help="skip the run against random")
    p.add_argument(
        "--reference-checkpoint",
        help="a learner already trained against random with the same budget (--keep of an "
        "earlier run): measured against the targets instead of training the reference again (its "
        "row against random is the earlier run's)",
    )
    p.add_argument("--keep", help="save the learners here (default: a temporary directory)")
    p.add_argument(
        "--reuse",
        action="store_true",
        help="with --keep: measure the learners an earlier run kept there instead of training",
    )
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--out", help="write the result as JSON here")
    args = p.parse_args(argv)
    for name, value, low in (
        ("--timesteps", args.timesteps, 1),
        ("--eval-games", args.eval_games, 1),
        ("--num-players", args.num_players, 2),
        ("--seed", args.seed, 0),
        ("--workers", args.workers, 1),
        ("--warm-start", args.warm_start, 0),
    ):
        if value < low:
            p.error(f"{name} must be >= {low}, got {value}")
    try:
        result = run(args, argv)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
