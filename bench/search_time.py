"""Time per decision of search agents where it counts: at a real table against the best baseline.

    python bench/search_time.py --game sevn --agents SPEC [SPEC ...] [--games 20] [--players 4]
                                [--option mode=SURVIVE] [--first-seed 7000000]

Plays ``--games`` games per spec, the spec in one seat (rotating) and the game's best baseline in
the others, and reports the CPU time (``time.process_time``: one core, whatever else the machine
runs) of the spec's decisions that had at least two legal actions (a forced move costs nothing),
their mean and 90th percentile, and for ``pimc`` the mean worlds sampled (``min_worlds`` cuts
clear decisions short). The issue's budget is a mean of 0.1 s per decision. Writes JSON
(``bench/results/search_time_<game>.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def parse_option(text: str) -> tuple[str, object]:
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"--option wants KEY=VALUE, got {text!r}")
    return key, int(value) if value.lstrip("-").isdigit() else value


def time_spec(game: str, spec: str, options: dict, games: int, first_seed: int) -> dict:
    from cardarena import envs
    from cardarena.agents import best_baseline, make_agent
    from cardarena.envs.core.loop import decide
    from cardarena.envs.core.seeding import agent_seed

    gspec = envs.get_spec(game)
    engine = gspec.make_engine(**options)
    n = engine.num_players
    best = best_baseline(game)
    times: list[float] = []
    worlds: list[int] = []
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    for g in range(games):
        deal, me = first_seed + g, g % n
        agents = [make_agent(game, spec if s == me else best) for s in range(n)]
        for seat, agent in enumerate(agents):
            agent.reset(agent_seed(deal, seat))
        state = engine.new_game(np.random.default_rng(deal))
        while not engine.is_over(state):
            seat = engine.current_player(state)
            timed = seat == me and len(engine.legal_actions(state)) > 1
            start = time.process_time()
            action = decide(gspec, engine, state, seat, agents[seat], mask)
            if timed:
                times.append(time.process_time() - start)
                if hasattr(agents[seat], "last_worlds"):
                    worlds.append(agents[seat].last_worlds)
            engine.apply(state, action, seat)
    t = np.asarray(times)
    return {
        "game": game,
        "options": options,
        "agent": spec,
        "games": games,
        "decisions": len(t),
        "ms_per_decision": 1000 * float(t.mean()),
        "ms_p90": 1000 * float(np.quantile(t, 0.9)),
        "mean_worlds": float(np.mean(worlds)) if worlds else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--agents", nargs="+", required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--option", type=parse_option, action="append", default=[])
    parser.add_argument("--first-seed", type=int, default=7_000_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be >= 1, got {args.games}")
    options = {"num_players": args.players, **dict(args.option)}
    rows = []
    for spec in args.agents:
        row = time_spec(args.game, spec, options, args.games, args.first_seed)
        rows.append(row)
        worlds = "" if row["mean_worlds"] is None else f", {row['mean_worlds']:.1f} worlds"
        print(
            f"{args.game} {options} {spec}: {row['ms_per_decision']:.1f} ms/decision "
            f"(p90 {row['ms_p90']:.1f}) over {row['decisions']} decisions{worlds}",
            flush=True,
        )
    out = Path(args.out or f"bench/results/search_time_{args.game}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
