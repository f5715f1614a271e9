"""R^2 of the shipped state values (``agents/zoo/leaf/*_state.npz``) on rows of fresh games.

    python bench/state_value_r2.py [--games 1000] [--first-seed 9800000]

The fit reports R^2 on a held-out tenth of its rows, which shares games with the rows it was fitted
on; this plays ``--games`` new games of the policy (deck seeds from ``--first-seed``) and scores
the shipped fit on their rows (``leaf.state_value_rows``): a check that the fit's figure is not
inflated by rows of one game on both sides.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: (game, engine options, policy) of the shipped state values
TABLES = [
    ("suicidium", {"num_players": 4}, "heuristic"),
    ("suicidium", {"num_players": 4, "mode": "DEPRESSION"}, "heuristic"),
    ("thegame", {"num_players": 2}, "planner"),
    ("thegame", {"num_players": 4}, "planner"),
]


def main(argv: list[str] | None = None) -> int:
    from cardarena import envs
    from cardarena.agents.search.leaf import load_leaf, options_tag, shipped_path, state_value_rows

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=9_800_000)
    args = parser.parse_args(argv)
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    for game, options, policy in TABLES:
        engine = envs.get_spec(game).make_engine(**options)
        path = shipped_path(game, policy, engine.num_players, options_tag(engine) + "_state")
        leaf, meta = load_leaf(path, "state_features")
        x, y = state_value_rows(game, engine, policy, seeds)
        r2 = 1.0 - float(((leaf(x) - y) ** 2).mean()) / float(y.var())
        print(
            f"{game} {options} {policy}: fit R^2 {meta['r2']:.3f} (its held-out tenth); "
            f"{args.games} fresh games, {len(y)} rows: R^2 {r2:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
