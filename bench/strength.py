"""Strength claims of the suite, measured on deals that chose nothing: zoo, ladders, settings.

    python bench/strength.py [--deals 1000] [--workers 2] [--only zoo ladder settings] [--check]
    make strength                                      # the same with --check
    python bench/strength.py --only search --deals 500 [--search flip6 sevn ...] --check  # hours

Deck seeds, by construction: settings, checkpoints and the wording of claims are chosen on the
choosing range of deck seeds (``agents.evaluation.seeds.CHOOSE``, 0 to 999,999,999: training's
evaluations, the settings and search benches, ``cardarena-evaluate``'s default seeds), and every
row here is measured on the evaluation range (``EVALUATION``, 1,000,000,000 to 1,999,999,999),
which nothing that chooses plays. Every row starts at ``--first-seed`` (default
``EVALUATION_FIRST_SEED`` = 1,000,000,000): a row of ``d`` deals plays the seeds 1,000,000,000 to
1,000,000,000 + d - 1; a first seed whose deals would leave the evaluation range is refused.

Four kinds of row, each with the claim the docs make and whether this run upholds it:

* ``zoo``: each zoo agent at a table whose other seats are its game's best baseline (4 players),
  every deck seed under every seat rotation; the verdict reads the 95% interval of its win rate
  against par (1/4): ``beats`` (all above), ``below par`` (all below) or ``at par`` (par inside).
  Cooperative thegame: the zoo agent as a whole team next to the best baseline as a whole team,
  on the same deals, at 2 players; a team row has no seat rotations, so it plays
  :data:`TEAM_DEALS` times ``--deals`` (4,000 games, as a 4-player row, at the default), and its
  verdict compares the two teams' 95% intervals (:func:`team_verdict`). Claimed:
  the ``claim`` of each ``[[zoo]]`` entry of ``envs/<game>/game.toml`` (:data:`CLAIMS`).
* ``ladder``: each game's scripted baselines, weakest first, at one table (every rotation);
  claimed: each is above the one before it (separate 95% intervals of the win rate; thegame:
  of the mean cards left, one agent in every seat of 2-player tables).
* ``settings``: the suicidium heuristic's chosen settings against the former ones (one seat with
  today's setting, three with the former: ``bench/baseline_settings.py``); claimed: above par.
* ``search``: the best search setting of each game (:data:`SEARCH`), like a zoo row; thegame at
  2 and 4 players, the search team next to the ``planner`` team (:func:`team_verdict`).
  Claimed: :data:`SEARCH_CLAIMS` (the gated ``pimc`` beats ``ev`` in flip6 and sevn, ``tracker``
  in ratatat, ``heuristic`` in both suicidium modes and the ``planner`` team in thegame).
  Games stream to
  ``bench/results/search_<row>_<first seed>.jsonl`` and a stopped run resumes. Not in the
  default kinds (hours on 2 cores): ``--only search --check`` checks them.

Writes ``bench/results/strength.json`` and prints a Markdown table; with ``--check`` the exit
status is 1 when a claim does not hold (these claims were unit tests once; they take minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardarena import envs  # noqa: E402
from cardarena.agents.evaluation.seeds import (  # noqa: E402
    EVALUATION,
    EVALUATION_FIRST_SEED,
    in_range,
)
from cardarena.envs.core.engine import ConfigError  # noqa: E402

#: the claims below come from each game's manifest (``zoo``, ``search``, ``ladders`` of the
#: ``GameSpec`` in ``envs/<game>/__init__.py``): a game added there is measured here
_SPECS = [envs.get_spec(name) for name in envs.names()]
#: zoo agent -> (game, env options, table size)
ZOO = {z.agent: (s.name, dict(z.options), z.num_players) for s in _SPECS for z in s.zoo}
#: a cooperative (team) zoo row plays this many times --deals: one game per deal instead of one
#: per seat rotation, so it counts as many games as a 4-player row
TEAM_DEALS = 4
#: the verdict the docs give each zoo agent against its game's best baseline: the ``claim`` of
#: its ``[[zoo]]`` entry in ``envs/<game>/game.toml`` (a team row's verdict: :func:`team_verdict`)
CLAIMS = {z.agent: z.claim for s in _SPECS for z in s.zoo if z.claim is not None}
#: search rows: label -> (game, env options, table size, agent spec): the best search setting
#: measured per game (docs/results/search.md), one seat against the best baseline in the others;
#: cooperative thegame: a search team next to the best baseline team on the same deals
SEARCH = {
    r.label: (s.name, dict(r.options), r.num_players, r.agent) for s in _SPECS for r in s.search
}
#: the verdict the docs give each search row (docs/results/search.md, the README: the gated
#: ``pimc`` beats ``ev``, ``tracker``, suicidium's ``heuristic`` and thegame's ``planner`` team)
SEARCH_CLAIMS = {
    "flip6": "beats",
    "sevn": "beats",
    "ratatat": "beats",
    "suicidium_survive": "beats",
    "suicidium_depression": "beats",
    "thegame_2p": "beats",
    "thegame_4p": "beats",
}
#: ladder tables: label -> (game, options, deals); 3 seats meet directly, suicidium alternates at 4
LADDERS = {t.label: (s.name, dict(t.options), t.deals) for s in _SPECS for t in s.ladders}
#: suicidium heuristic settings: (mode, former setting, deals)
SETTINGS = [("SURVIVE", "draw_margin=5", 250), ("DEPRESSION", "lift_weight=0.6", 1000)]
Z95 = 1.959963984540054


def par_verdict(ci: tuple[float, float] | list[float], par: float) -> str:
    """``beats`` / ``below par`` / ``at par``: where the 95% interval lies against par."""
    if ci[0] > par:
        return "beats"
    if ci[1] < par:
        return "below par"
    return "at par"


def team_verdict(
    ci: tuple[float, float] | list[float], baseline_ci: tuple[float, float] | list[float]
) -> str:
    """A team next to the baseline team on the same deals: ``beats`` / ``below par`` where the
    two 95% intervals are separate (above / below), else ``at par``."""
    if ci[0] > baseline_ci[1]:
        return "beats"
    if ci[1] < baseline_ci[0]:
        return "below par"
    return "at par"


def agent_row(
    kind: str,
    agent: str,
    game: str,
    opts: dict[str, Any],
    deals: int,
    workers: int,
    first_seed: int = EVALUATION_FIRST_SEED,
    results_path: str | None = None,
) -> dict[str, Any]:
    """``agent`` against its game's best baseline: one seat against the rest (every rotation),
    or for cooperative thegame a team next to the baseline team on the same deals."""
    from cardarena.agents import best_baseline
    from cardarena.agents.evaluation.tournament import run_tournament
    from cardarena.envs import get_spec

    best = best_baseline(game)
    n = opts["num_players"]
    row: dict[str, Any] = {"kind": kind, "agent": agent, "game": game, "options": opts}
    row["seeds"] = [first_seed, first_seed + deals - 1]
    run = dict(first_seed=first_seed, workers=workers, progress=False, results_path=results_path)
    if get_spec(game).cooperative:  # two whole teams on the same deals (no cross-play games)
        me = run_tournament(game, [agent], deals, opts, **run).team_summaries()[0]
        run["results_path"] = None  # the baseline team is quick to replay
        base = run_tournament(game, [best], deals, opts, **run).team_summaries()[0]
        verdict = team_verdict(me.win_ci, base.win_ci)
        row.update(against=f"{best} team", games=me.games, value=me.win_rate)
        row.update(ci=list(me.win_ci), reference=f"baseline team {base.win_rate:.3f}")
        row.update(baseline_ci=list(base.win_ci))
    else:
        lineup = [agent] + [best] * (n - 1)
        res = run_tournament(game, lineup, deals, opts, **run)
        s = {x.name: x for x in res.summaries()}[agent]
        verdict = par_verdict(s.win_ci, 1 / n)
        row.update(against=best, games=s.games, value=s.win_rate, ci=list(s.win_ci))
        row.update(reference=f"par {1 / n:.2f}")
    row["verdict"] = verdict
    return row


def zoo_rows(
    deals: int, workers: int, names: list[str], first_seed: int = EVALUATION_FIRST_SEED
) -> list[dict[str, Any]]:
    from cardarena.envs import get_spec

    rows = []
    for name in names:
        if not (ROOT / "agents" / "zoo" / f"{name}.zip").exists():
            print(f"skip {name}: agents/zoo/{name}.zip not found")
            continue
        game, options, n = ZOO[name]
        k = TEAM_DEALS if get_spec(game).cooperative else 1
        opts = {**options, "num_players": n}
        row = agent_row("zoo", f"zoo:{name}", game, opts, k * deals, workers, first_seed)
        rows.append(judge(row, CLAIMS.get(name)))
    return rows


def judge(row: dict[str, Any], claimed: str | None) -> dict[str, Any]:
    """``row`` with the claim the docs make (``claimed``, or None: reported as measured) and
    whether its measured verdict upholds it."""
    row["claimed"] = claimed
    row["holds"] = claimed is None or row["verdict"] == claimed
    return row


def search_rows(
    deals: int, workers: int, labels: list[str], first_seed: int = EVALUATION_FIRST_SEED
) -> list[dict[str, Any]]:
    """The best search setting of each game, checked against :data:`SEARCH_CLAIMS` (the others
    reported as measured). Games stream to ``bench/results/search_<label>_<first seed>.jsonl``,
    so a stopped run resumes where it was."""
    rows = []
    for label in labels:
        game, options, n, spec = SEARCH[label]
        opts = {**options, "num_players": n}
        path = str(ROOT / "bench" / "results" / f"search_{label}_{first_seed}.jsonl")
        row = agent_row("search", spec, game, opts, deals, workers, first_seed, path)
        rows.append(judge(row, SEARCH_CLAIMS.get(label)))
    return rows


def _team(
    game: str, name: str, deals: int, options: dict[str, Any], first_seed: int
) -> tuple[float, float]:
    """Mean cards left of ``name`` in every seat, and the half width of its 95% interval."""
    from cardarena.agents.evaluation.tournament import run_tournament

    res = run_tournament(
        game, [name], deals, options, first_seed=first_seed, workers=1, progress=False
    )
    left = np.array([r.scores[0] for r in res.records])
    return float(left.mean()), Z95 * float(left.std(ddof=1)) / math.sqrt(len(left))


def ladder_rows(
    workers: int, scale: float, first_seed: int = EVALUATION_FIRST_SEED
) -> list[dict[str, Any]]:
    from cardarena.agents import scripted_names
    from cardarena.agents.evaluation.tournament import run_tournament
    from cardarena.envs import get_spec

    rows = []
    for game, options, deals in LADDERS.values():
        names = scripted_names(game)
        deals = max(10, int(deals * scale))
        if get_spec(game).cooperative:  # fewer cards left is better
            left = {n: _team(game, n, deals, options, first_seed) for n in names}
            holds = all(
                left[b][0] + left[b][1] < left[a][0] - left[a][1]
                for a, b in zip(names, names[1:], strict=False)
            )
            shown = ", ".join(f"{n} {m:.1f}±{h:.1f}" for n, (m, h) in left.items())
            what = "mean cards left"
        else:
            seats = options["num_players"]
            ladder = names if len(names) <= seats else names[-2:]
            # an agent per seat (the tournament's rule): the ladder round the table, A B A B
            lineup = [ladder[i % len(ladder)] for i in range(seats)]
            res = run_tournament(
                game, lineup, deals, options, first_seed=first_seed, workers=workers, progress=False
            )
            s = {x.name: x for x in res.summaries()}
            holds = all(
                s[a].win_ci[1] < s[b].win_ci[0] for a, b in zip(ladder, ladder[1:], strict=False)
            )
            shown = ", ".join(
                f"{n} {s[n].win_rate:.3f} [{s[n].win_ci[0]:.3f}, {s[n].win_ci[1]:.3f}]"
                for n in ladder
            )
            what = "win rate"
        rows.append(
            {
                "kind": "ladder",
                "game": game,
                "options": options,
                "deals": deals,
                "seeds": [first_seed, first_seed + deals - 1],
                "claim": f"{' < '.join(names)} ({what}, separate 95% intervals)",
                "measured": shown,
                "holds": holds,
            }
        )
    return rows


def settings_rows(scale: float, first_seed: int = EVALUATION_FIRST_SEED) -> list[dict[str, Any]]:
    from bench.baseline_settings import duel

    rows = []
    for mode, former, deals in SETTINGS:
        deals = max(10, int(deals * scale))
        options = {"num_players": 4, "mode": mode}
        res = duel("suicidium", options, "heuristic", f"heuristic:{former}", deals, first_seed)
        rows.append(
            {
                "kind": "settings",
                "game": "suicidium",
                "options": options,
                "deals": deals,
                "seeds": [first_seed, first_seed + deals - 1],
                "claim": f"heuristic beats three heuristic:{former} (win rate above par 0.25)",
                "measured": f"{res['win_rate']:.3f} [{res['win_ci'][0]:.3f}, "
                f"{res['win_ci'][1]:.3f}] over {res['games']} games",
                "holds": res["win_rate"] > 0.25,
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = []
    zoo = [r for r in rows if r["kind"] in ("zoo", "search")]
    if zoo:
        lines += [
            "| agent | game (options) | against | games | win rate | 95% CI | verdict |",
            "|---|---|---|---:|---:|---|---|",
        ]
        for r in zoo:
            lines.append(
                f"| `{r['agent']}` | {r['game']} {r['options']} | `{r['against']}` | "
                f"{r['games']:,} | {r['value']:.3f} | [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] | "
                f"{r['verdict']} ({r['reference']}) |"
            )
    other = [r for r in rows if r["kind"] not in ("zoo", "search")]
    if other:
        lines += ["", "| claim | game (options) | measured | holds |", "|---|---|---|---|"]
        for r in other:
            lines.append(
                f"| {r['claim']} | {r['game']} {r['options']} | {r['measured']} | "
                f"{'yes' if r['holds'] else '**no**'} |"
            )
    return "\n".join(lines)


def _most_deals(args: argparse.Namespace) -> int:
    """The most deck seeds one row of this run plays (a team row plays 4x --deals)."""
    scaled = [max(10, int(d * args.scale)) for *_, d in [*LADDERS.values(), *SETTINGS]]
    return max([TEAM_DEALS * args.deals, *scaled])


def check_first_seed(first_seed: int, deals: int) -> None:
    """Refuse a first seed whose ``deals`` seeds leave the evaluation range (a verdict measured
    on deals that chose a setting would flatter it)."""
    if not in_range(EVALUATION, first_seed, deals):
        raise ConfigError(
            f"--first-seed {first_seed} with up to {deals:,} deals leaves the evaluation range "
            f"of deck seeds ({EVALUATION.start:,} to {EVALUATION.stop - 1:,}; the seeds below it "
            "are used for choosing settings and checkpoints): leave --first-seed out (default "
            f"{EVALUATION_FIRST_SEED:,}) or pick one at most {EVALUATION.stop - deals:,}"
        )


def measure(args: argparse.Namespace, kinds: list[str]) -> list[dict[str, Any]]:
    """Every row of the kinds asked for, all on the deck seeds from ``args.first_seed``."""
    first = args.first_seed
    rows: list[dict[str, Any]] = []
    if "zoo" in kinds:
        rows += zoo_rows(args.deals, args.workers, args.zoo or list(ZOO), first)
    if "ladder" in kinds:
        rows += ladder_rows(args.workers, args.scale, first)
    if "settings" in kinds:
        rows += settings_rows(args.scale, first)
    if "search" in kinds:
        rows += search_rows(args.deals, args.workers, args.search or list(SEARCH), first)
    return rows


def report(rows: list[dict[str, Any]], out: Path, check: bool) -> int:
    """Print the table, write ``out``; the exit status: 1 with ``check`` if a claim fails."""
    print(table(rows))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1))
    failed = [r for r in rows if not r["holds"]]
    if failed:
        names = ", ".join(str(r.get("agent") or r.get("claim")) for r in failed)
        print(f"\n{len(failed)} claim(s) do not hold: {names}", file=sys.stderr)
    return 1 if check and failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=1000, help="deals per zoo row")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--first-seed",
        type=int,
        default=EVALUATION_FIRST_SEED,
        help=f"first deck seed of every row (default {EVALUATION_FIRST_SEED:,}; it must lie "
        f"in the evaluation range {EVALUATION.start:,}-{EVALUATION.stop - 1:,})",
    )
    parser.add_argument("--zoo", nargs="*", default=None, help=f"zoo agents (default {list(ZOO)})")
    parser.add_argument(
        "--search",
        nargs="*",
        default=None,
        choices=list(SEARCH),
        help="search rows (default: all); deals per row from --deals",
    )
    parser.add_argument(
        "--only",
        nargs="*",
        choices=["zoo", "ladder", "settings", "search"],
        default=None,
        help="which kinds of row (default: zoo ladder settings; search rows take hours)",
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply the ladder and settings deals"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if a claim does not hold")
    parser.add_argument("--out", default="bench/results/strength.json")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.workers < 1 or args.scale <= 0:
        parser.error("--deals and --workers must be >= 1, --scale > 0")
    try:
        check_first_seed(args.first_seed, _most_deals(args))
    except ConfigError as error:
        parser.error(str(error))
    kinds = args.only or ["zoo", "ladder", "settings"]
    if args.search is not None and "search" not in kinds:
        kinds = [*kinds, "search"]
    return report(measure(args, kinds), ROOT / args.out, args.check)


if __name__ == "__main__":
    sys.exit(main())
