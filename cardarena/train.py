"""Self-play training entry point.

    python train.py --config configs/flip6.yaml          # a new run
    python train.py --resume runs/flip6                   # continue after an interruption
    python train.py --config configs/flip6.yaml --device auto --set policy.privileged_critic=true
    python train.py --config configs/flip6.yaml --time-limit 20   # stop within 20 minutes

Reads a YAML config (every option documented in agents/training/config.py and configs/*.yaml;
every value is checked before any work, a bad one is "error: ..." and exit status 2), trains a
MaskablePPO agent by self-play and leaves a run directory with TensorBoard logs, snapshots,
checkpoints, ``final.zip`` (loadable by ``evaluate.py``), a learning-curve PNG and
``summary.json``. ``time_limit_minutes`` (or ``--time-limit``) caps the run's wall time: the
run then stops between units of work, keeps and evaluates what it trained and says so in
``summary.json`` and its last line (agents/training/budget.py).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

import yaml

from cardarena.agents.files import load_yaml
from cardarena.agents.tools.commands import UserHelp, prog
from cardarena.agents.training.config import load_config
from cardarena.agents.training.trainer import train
from cardarena.envs.core.engine import CardArenaError, ConfigError
from cardarena.envs.core.registry import get_spec


def _count(low: int):
    """An argparse type: an integer >= ``low`` (argparse then exits 2 with ``error: ...``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < low:
            what = "a positive integer" if low == 1 else f"an integer >= {low}"
            raise argparse.ArgumentTypeError(f"must be {what}, got {value}")
        return value

    return parse


def _minutes(text: str) -> float | str:
    """An argparse type: a positive number of minutes, or ``none`` (no limit)."""
    if text.strip().lower() in ("none", "null"):
        return "none"
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f"must be a positive number of minutes (e.g. 60 or 0.5) or 'none' for no limit, "
            f"got {text!r}"
        )
    return value


def _setting(text: str) -> tuple[list[str], Any]:
    """An argparse type: ``section.key=VALUE`` (VALUE read as YAML) -> (key path, value)."""
    key, sep, value = text.partition("=")
    path = key.strip().split(".")
    if not sep or not all(path):
        raise argparse.ArgumentTypeError(f"must be KEY=VALUE (e.g. ppo.n_epochs=4), got {text!r}")
    try:
        return path, load_yaml(value, f"--set {key}")
    except ConfigError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    except yaml.YAMLError as err:
        raise argparse.ArgumentTypeError(f"{key}: {value!r} is not a YAML value ({err})") from None


def _nest(settings: list[tuple[list[str], Any]]) -> dict[str, Any]:
    """``--set`` values as nested overrides (checked like the config file's keys)."""
    out: dict[str, Any] = {}
    for path, value in settings:
        node = out
        for part in path[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"--set {'.'.join(path)}: {part} is already set to a value")
        node[path[-1]] = value
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("train"),
        description=__doc__,
        formatter_class=UserHelp,
    )
    parser.add_argument("--config", help="YAML config, e.g. configs/flip6.yaml")
    parser.add_argument(
        "--resume",
        metavar="RUN_DIR",
        help="continue an interrupted run from its last checkpoint (uses RUN_DIR/config.yaml)",
    )
    parser.add_argument("--timesteps", type=_count(1), help="override total_timesteps")
    parser.add_argument(
        "--time-limit",
        type=_minutes,
        metavar="MINUTES",
        help="override time_limit_minutes: the run's wall-clock budget (the final evaluation "
        "not counted); 'none' for no limit",
    )
    parser.add_argument("--output-dir", help="override output_dir (the run directory)")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="a new run in a directory that holds one: delete that run first (else refused)",
    )
    parser.add_argument("--seed", type=_count(0), help="override seed")
    parser.add_argument(
        "--device",
        choices=["auto", "cpu", "cuda"],
        help="override device: auto (a CUDA GPU if torch sees one, else the CPU), cpu or cuda",
    )
    parser.add_argument(
        "--set",
        type=_setting,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override any config key, e.g. --set policy.privileged_critic=true (repeatable)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--workers",
        type=_count(1),
        default=1,
        help="expert iteration: processes (or Ray CPUs) labelling games (default 1)",
    )
    parser.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="expert iteration: label on local processes or on Ray (same labels)",
    )
    parser.add_argument("--address", help="expert iteration with --backend ray: the cluster")
    args = parser.parse_args(argv)
    if bool(args.config) == bool(args.resume):
        parser.error("give either --config FILE (a new run) or --resume RUN_DIR")
    try:
        overrides = _nest(args.set)
    except ConfigError as err:
        parser.error(str(err))
    if args.device is not None:
        overrides["device"] = args.device
    if args.timesteps is not None:
        overrides["total_timesteps"] = args.timesteps
    if args.time_limit is not None:
        overrides["time_limit_minutes"] = None if args.time_limit == "none" else args.time_limit
    if args.output_dir:
        overrides["output_dir"] = args.output_dir
    if args.seed is not None:
        overrides["seed"] = args.seed
    try:
        if args.resume:
            if args.output_dir or args.seed is not None or args.set or args.overwrite:
                parser.error(
                    "--resume keeps the run's own output dir, seed and settings (and --overwrite is for a new run)"
                )
            overrides["output_dir"] = args.resume
            cfg = load_config(f"{args.resume}/config.yaml", overrides)
        else:
            cfg = load_config(args.config, overrides)
        if cfg.expert_iteration.rounds:
            return _expert_iteration(cfg, args)
        run_dir = train(
            cfg,
            progress_bar=not args.no_progress,
            resume=bool(args.resume),
            overwrite=args.overwrite,
        )
    except CardArenaError as err:  # a bad setting, or a worker that failed: one line, no traceback
        print(f"error: {err}", file=sys.stderr)
        return 2
    summary = json.loads((run_dir / "summary.json").read_text())
    final = summary["final_eval"]
    spec = get_spec(cfg.game)
    seats = spec.make_engine(**cfg.env).num_players
    par = "" if spec.cooperative else f" (par {1 / seats:.3f}: an equal share of the wins)"
    print(
        f"trained {summary['timesteps']} steps in {summary['train_seconds']} s "
        f"({summary['steps_per_second']} steps/s); greedy win rate vs {final['against']} x"
        f"{cfg.env.get('num_players', 'default')}-player tables: {final['win_rate']:.3f} "
        f"[{final['ci_low']:.3f}, {final['ci_high']:.3f}]{par} -> {run_dir / 'final.zip'}"
    )
    _print_time_limit(summary)
    return 0


def _print_time_limit(summary: dict[str, Any]) -> None:
    limit = summary.get("time_limit")
    if limit:
        print(f"{limit['message']} ({limit['run_seconds']} s budgeted, final evaluation apart)")


def _expert_iteration(cfg, args: argparse.Namespace) -> int:
    """An ``expert_iteration`` run (no PPO): rounds of search labels, then the final evaluation."""
    from cardarena.agents.training.expert_iteration import train_expert_iteration

    run_dir = train_expert_iteration(
        cfg,
        not args.no_progress,
        args.workers,
        args.backend,
        args.address,
        overwrite=args.overwrite,
        resume=bool(args.resume),  # from the last finished round (rounds.json)
    )
    summary = json.loads((run_dir / "summary.json").read_text())
    final = summary["final_eval"]
    print(
        f"expert iteration: {len(summary['rounds'])} of {cfg.expert_iteration.rounds} rounds; "
        f"greedy win rate vs "
        f"{final['against']}: {final['win_rate']:.3f} [{final['ci_low']:.3f}, "
        f"{final['ci_high']:.3f}] -> {run_dir / 'final.zip'}"
    )
    _print_time_limit(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
