"""Strength of an expert-iteration run, round by round: each ``round_<r>.zip`` of a run directory
against its game's best baseline, plotted against the labels it was fitted on and against the
run's wall time.

    python bench/exit_curve.py runs/suicidium_survive_exit --deals 200 --workers 2 \
        --out docs/results/exit_curve_suicidium_survive.png

The run directory is one of ``train.py`` with an ``expert_iteration`` section: its
``config.yaml`` gives the game and table, its ``rounds.json`` each round's labels and seconds.
Each round's network plays one seat against copies of the game's best baseline (every seat
rotation; for cooperative thegame, its team next to the baseline team on the same deals) on
``--deals`` deck seeds from ``--first-seed``. The default first seed, 8,000,000, is in the
choosing range (``agents/evaluation/seeds.py``): this curve picks the round to ship, and the
shipped network is measured afterwards by ``bench/strength.py`` on the evaluation range. Rows
are printed as they finish and written to ``--json`` (default: next to ``--out``); the wall
time of a round is the run's time when that round's network was saved (the warm start
included).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import agent_row  # noqa: E402


def run_rounds(run_dir: Path) -> tuple[dict, list[dict]]:
    """The run's config and its rounds (with ``minutes``: the run's time at the round's end)."""
    config_path, rounds_path = run_dir / "config.yaml", run_dir / "rounds.json"
    for path in (config_path, rounds_path):
        if not path.exists():
            raise SystemExit(
                f"{path} not found: give the directory of a train.py run with an "
                "expert_iteration section (it writes config.yaml and rounds.json)"
            )
    config = yaml.safe_load(config_path.read_text())
    data = json.loads(rounds_path.read_text())
    rounds = data["rounds"]
    # the run's seconds end with the last round: count the rounds back from there
    end = float(data.get("run_seconds", sum(r["seconds"] for r in rounds)))
    elapsed = end - sum(r["seconds"] for r in rounds)
    for r in rounds:
        elapsed += r["seconds"]
        r["minutes"] = elapsed / 60
    return config, rounds


def plot(rows: list[dict], par: float, title: str, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, key, label in (
        (axes[0], "labels", "search labels fitted on"),
        (axes[1], "minutes", "run wall time (minutes, 2 cores)"),
    ):
        x = [r[key] for r in rows]
        y = [r["value"] for r in rows]
        err = [[r["value"] - r["ci"][0] for r in rows], [r["ci"][1] - r["value"] for r in rows]]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=4)
        for r in rows:
            ax.annotate(
                f"round {r['round']}",
                (r[key], r["value"]),
                textcoords="offset points",
                xytext=(5, -12),
                fontsize=8,
            )
        if "baseline_ci" in rows[0]:  # cooperative: the baseline team's interval on those deals
            lo, hi = rows[0]["baseline_ci"]
            ax.axhspan(lo, hi, color="grey", alpha=0.2, label=rows[0]["against"])
        else:
            ax.axhline(par, linestyle="--", color="grey", label=f"par ({par:.2f})")
        ax.set_xlabel(label)
        if key == "labels":  # 58k, not 58716
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / 1000:.0f}k"))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate against the best baseline (95% CI)")
    axes[0].legend()
    fig.suptitle(title)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run_dir", type=Path, help="an expert-iteration run directory")
    parser.add_argument("--deals", type=int, default=200, help="deck seeds per round (default 200)")
    parser.add_argument(
        "--first-seed",
        type=int,
        default=8_000_000,
        help="first deck seed (default 8,000,000: the choosing range)",
    )
    parser.add_argument("--workers", type=int, default=1, help="evaluation processes")
    parser.add_argument("--rounds", type=int, nargs="*", help="only these rounds (default: all)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--json", type=Path, help="the rows (default: --out with .json)")
    parser.add_argument(
        "--replot",
        action="store_true",
        help="only draw --out again from the rows already in --json",
    )
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")

    config, rounds = run_rounds(args.run_dir)
    game = config["game"]
    opts = dict(config.get("env") or {})
    opts.setdefault("num_players", 4)
    par = 1 / opts["num_players"]
    mode = f" {opts['mode']}" if "mode" in opts else ""
    title = f"{game}{mode}: expert iteration ({args.run_dir.name})"
    out_json = args.json or args.out.with_suffix(".json")
    if args.replot:
        if not out_json.exists():
            raise SystemExit(f"--replot reads {out_json}, which does not exist: measure first")
        plot(json.loads(out_json.read_text()), par, title, args.out)
        print(f"written: {args.out}")
        return 0
    rows = []
    for r in rounds:
        if args.rounds and r["round"] not in args.rounds:
            continue
        path = args.run_dir / f"round_{r['round']}.zip"
        if not path.exists():
            raise SystemExit(f"{path} not found: the run saves round_<r>.zip after every round")
        row = agent_row("exit", str(path), game, opts, args.deals, args.workers, args.first_seed)
        row.update(round=r["round"], labels=r["fitted_on"], minutes=round(r["minutes"], 1))
        rows.append(row)
        print(
            f"round {r['round']}: {r['fitted_on']:,} labels, {r['minutes']:.1f} min: "
            f"{row['value']:.3f} [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}] over {row['games']:,} "
            f"games against {row['against']} ({row['reference']}): {row['verdict']}",
            flush=True,
        )
    if not rows:
        raise SystemExit("no round to measure (--rounds names none of the run's rounds)")
    plot(rows, par, title, args.out)
    out_json.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"written: {args.out}, {out_json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
