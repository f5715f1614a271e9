"""Strength against time: a search agent's win rate (95% interval) against its CPU time per decision.

    python bench/search_curve.py --results results/a.json results/b.json ... \
        --times bench/results/search_time_flip6.json --out docs/results/search_curve_flip6.png

``--results``: ``evaluate.py --out`` files, one search setting against the best baseline each;
``--times``: ``bench/search_time.py`` output holding the same settings. Each point is one
setting: its ms per decision (x, log scale) and its win rate with the paired-bootstrap interval
(y); the dashed line is par (1 / players). Settings missing from ``--times`` are reported and
skipped.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path


def points(results: list[str], times: list[str]) -> tuple[list[dict], list[str]]:
    timed = {}
    for path in times:
        for row in json.loads(Path(path).read_text()):
            timed[row["agent"]] = row
    out, missing = [], []
    for path in results:
        data = json.loads(Path(path).read_text())
        searched = [s for s in data["leaderboard"] if s["name"].split(":")[0] in ("pimc", "ismcts")]
        if len(searched) != 1:
            raise SystemExit(f"{path}: want exactly one search agent, found {len(searched)}")
        s = searched[0]
        if s["name"] not in timed:
            missing.append(s["name"])
            continue
        out.append(
            {
                "agent": s["name"],
                "ms": timed[s["name"]]["ms_per_decision"],
                "win_rate": s["win_rate"],
                "ci": s["win_ci"],
                "games": s["games"],
                "players": data["options"].get("num_players", 4),
                "game": data["game"],
                "options": {k: v for k, v in data["options"].items() if k != "num_players"},
            }
        )
    return sorted(out, key=lambda p: p["ms"]), missing


def _point_label(p: dict) -> str:
    """``64 worlds, 400 games`` (``200 iterations`` for ismcts): what the point bought."""
    budget = re.search(r"(worlds|iterations)=(\d+)", p["agent"])
    head = f"{budget.group(2)} {budget.group(1)}, " if budget else ""
    return f"{head}{p['games']:,} games"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", nargs="+", required=True)
    parser.add_argument("--times", nargs="+", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    pts, missing = points(args.results, args.times)
    for name in missing:
        print(f"skip {name}: not in --times (run bench/search_time.py with it)", file=sys.stderr)
    if not pts:
        raise SystemExit("nothing to plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [p["ms"] for p in pts]
    ys = [p["win_rate"] for p in pts]
    err = [[p["win_rate"] - p["ci"][0] for p in pts], [p["ci"][1] - p["win_rate"] for p in pts]]
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=4)
    for p in pts:
        ax.annotate(_point_label(p), (p["ms"], p["ci"][1]), fontsize=7, ha="center",
                    xytext=(0, 4), textcoords="offset points")  # fmt: skip
    par = 1 / pts[0]["players"]
    ax.axhline(par, linestyle="--", color="grey", label=f"par ({par:.2f})")
    ax.set_xscale("log")
    # the points' own times as the ticks: log-scale minor labels (2x10^0, 3x10^0) overlap
    from matplotlib.ticker import FixedLocator, NullLocator

    ax.xaxis.set_major_locator(FixedLocator(xs))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{x:.3g}" for x in xs])
    ax.set_xlim(min(xs) / 1.6, max(xs) * 1.6)
    ax.margins(y=0.15)  # room for the labels above the intervals
    ax.set_xlabel("CPU ms per decision (one core)")
    ax.set_ylabel("win rate (95% interval)")
    opts = ", ".join(f"{k}={v}" for k, v in pts[0]["options"].items())
    ax.set_title(
        f"{pts[0]['game']}{f' ({opts})' if opts else ''}: search against the best baseline, "
        f"{pts[0]['players']} players",
        fontsize=10,
    )
    ax.legend()
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=120)
    for p in pts:
        print(
            f"{p['ms']:7.1f} ms  {p['win_rate']:.3f} [{p['ci'][0]:.3f}, {p['ci'][1]:.3f}]  {p['agent']}"
        )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
