"""Strength of the pretrained agents: each zoo agent against its game's best baseline.

    python bench/strength.py [--deals 1000] [--workers 2] [--games flip6 sevn ...]

Competitive games: the zoo agent sits at a table whose other seats are all the best baseline
(4 players), every deck seed under every seat rotation; the verdict is the lower end of the 95%
interval of its win rate against par (1/4). Cooperative thegame: the zoo agent as a whole team
next to the best baseline as a whole team, on the same deals, at 2 players. Writes
bench/results/strength.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: zoo agent -> (game, env options, table size)
ZOO = {
    "flip6": ("flip6", {}, 4),
    "sevn": ("sevn", {}, 4),
    "ratatat": ("ratatat", {}, 4),
    "suicidium_survive": ("suicidium", {"mode": "SURVIVE"}, 4),
    "suicidium_depression": ("suicidium", {"mode": "DEPRESSION"}, 4),
    "thegame": ("thegame", {}, 2),
}


def main(argv: list[str] | None = None) -> list[dict]:
    from agents import best_baseline
    from agents.evaluation.tournament import run_tournament
    from envs import get_spec

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--zoo", nargs="*", default=None, help=f"zoo agents (default {list(ZOO)})")
    parser.add_argument("--out", default="bench/results/strength.json")
    args = parser.parse_args(argv)
    rows = []
    for name in args.zoo or list(ZOO):
        if not (ROOT / "agents" / "zoo" / f"{name}.zip").exists():
            print(f"skip {name}: agents/zoo/{name}.zip not found")
            continue
        game, options, n = ZOO[name]
        best = best_baseline(game)
        opts = {**options, "num_players": n}
        zoo = f"zoo:{name}"
        if get_spec(game).cooperative:
            res = run_tournament(
                game, [zoo, best], args.deals, opts, workers=args.workers, progress=False
            )
            teams = {t.team: t for t in res.team_summaries()}
            me, base = teams[zoo], teams[best]
            row = {
                "agent": zoo,
                "game": game,
                "options": opts,
                "against": best,
                "games": me.games,
                "win_rate": me.win_rate,
                "ci": list(me.win_ci),
                "baseline_win_rate": base.win_rate,
                "mean_left": me.mean_score,
                "baseline_mean_left": base.mean_score,
                "beats": me.win_rate > base.win_rate,
            }
        else:
            res = run_tournament(
                game,
                [zoo] + [best] * (n - 1),
                args.deals,
                opts,
                workers=args.workers,
                progress=False,
            )
            s = {x.name: x for x in res.summaries()}[zoo]
            row = {
                "agent": zoo,
                "game": game,
                "options": opts,
                "against": best,
                "games": s.games,
                "win_rate": s.win_rate,
                "ci": list(s.win_ci),
                "par": 1 / n,
                "beats": s.win_ci[0] > 1 / n,
            }
        rows.append(row)
        print(json.dumps(row))
    print("\n| agent | game (options) | against | games | win rate | 95% CI | verdict |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        ref = f"par {r['par']:.2f}" if "par" in r else f"baseline team {r['baseline_win_rate']:.3f}"
        verdict = ("beats" if r["beats"] else "does not beat") + f" ({ref})"
        print(
            f"| {r['agent']} | {r['game']} {r['options']} | {r['against']} | {r['games']} | "
            f"{r['win_rate']:.3f} | [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] | {verdict} |"
        )
    out = ROOT / args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1))
    return rows


if __name__ == "__main__":
    main()
