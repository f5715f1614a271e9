"""How much rollout improvement is there to distil? The improver plays one seat itself.

    python bench/improve_ceiling.py [--game flip6] [--games 400] [--value-games 10000]

One seat chooses every decision with ``agents.training.improve.Improver`` (the labels the flip6 warm start
learns from, computed at decision time from the true position, resampled for that seat); the
other seats are the teacher (the game's best baseline). The seat rotates over games; deck seeds
are ``first_seed + i``. Prints the improver's win rate with a 95% interval and writes JSON
(bench/results/improve_ceiling_<game>.json). The distilled network can only lose some of this.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv: list[str] | None = None) -> int:
    from cardarena.agents import best_baseline, make_agent
    from cardarena.agents.training.improve import (
        Improver,
        _pool_map,
        _round_value_rows,
        fit_leaf_value,
        improve_config,
    )
    from cardarena.envs.core.registry import get_spec

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="flip6")
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--value-games", type=int, default=10000)
    parser.add_argument("--rollouts", type=int, default=64)
    parser.add_argument("--min-rollouts", type=int, default=6)
    parser.add_argument("--gate", type=float, default=1.5)
    parser.add_argument("--first-seed", type=int, default=500000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)

    game, opts = args.game, {"num_players": args.num_players}
    teacher = best_baseline(game)
    spec = get_spec(game)
    engine = spec.make_engine(**opts)
    start = time.perf_counter()
    seeds = list(range(10**9, 10**9 + args.value_games))
    jobs = [(game, opts, teacher, seeds[i : i + 500]) for i in range(0, len(seeds), 500)]
    parts = _pool_map(_round_value_rows, jobs, 1, "leaf value games")
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    leaf, r2 = fit_leaf_value(x, y)
    cfg = improve_config(
        {"rollouts": args.rollouts, "min_rollouts": args.min_rollouts, "gate": args.gate}
    )
    improver = Improver(game, opts, teacher, leaf, cfg, seed=args.first_seed)
    agents = [make_agent(game, teacher, seed=i) for i in range(engine.num_players)]
    wins = np.zeros(args.games)
    changed = decisions = 0
    from tqdm import tqdm

    for g in tqdm(range(args.games), desc="games", unit="game"):
        state = engine.new_game(np.random.default_rng(args.first_seed + g))
        me = g % engine.num_players
        while not engine.is_over(state):
            seat = engine.current_player(state)
            mask = np.zeros(engine.num_actions, dtype=np.int8)
            mask[engine.legal_actions(state)] = 1
            action = int(agents[seat].act(None, mask, spec.view(state, seat)))
            if seat == me:
                better = improver.choose(state, me, action)
                decisions += 1
                changed += better != action
                action = better
            engine.apply(state, action, seat)
        winners = engine.winners(state)
        wins[g] = 1.0 / len(winners) if me in winners else 0.0
    boot = np.random.default_rng(0).choice(wins, size=(2000, len(wins))).mean(axis=1)
    result = {
        "game": game,
        "num_players": engine.num_players,
        "teacher": teacher,
        "games": args.games,
        "win_rate": float(wins.mean()),
        "win_ci": [float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))],
        "par": 1.0 / engine.num_players,
        "decisions": decisions,
        "changed": changed,
        "leaf_value_r2": r2,
        "settings": cfg,
        "seconds": time.perf_counter() - start,
    }
    print(
        f"{game}: improver in one seat, {teacher} in the others: win rate {result['win_rate']:.3f} "
        f"[{result['win_ci'][0]:.3f}, {result['win_ci'][1]:.3f}] over {args.games} games "
        f"(par {result['par']:.3f}); changed {changed} of {decisions} decisions"
    )
    out = Path(args.out or f"bench/results/improve_ceiling_{game}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
