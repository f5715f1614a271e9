"""What the engines' check of their state argument costs (``envs/core/engine.py``, ``guard_state``).

Every engine method that takes a state refuses ``None`` with ``ResetNeededError``; the check is one
Python call more per method. The envs' loops (the AEC step, the table's masks, the game loop) call
the unguarded functions, so only code that steps an engine itself pays it. This bench steps random
games (``legal_actions`` + ``apply``, as ``bench/native_<game>.py``'s speed does) through the
guarded methods and through the unguarded ones, alternating rounds, and prints decisions/s of each
and the ratio, per game, on the default core.

    python bench/engine_guard.py [--games 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from cardarena import envs
from cardarena.envs.core.engine import unguarded


def step_games(engine: Any, games: int, legal: Any, apply: Any) -> tuple[int, float]:
    """Random games 0..games-1 through ``legal`` and ``apply``: (decisions, CPU seconds)."""
    decisions = 0
    over = unguarded(engine.is_over)  # the same in both ways: only legal and apply differ
    start = time.process_time()
    for g in range(games):
        state = engine.new_game(np.random.default_rng(g))
        rng = np.random.default_rng(g)
        while not over(state):
            actions = legal(state)
            apply(state, actions[int(rng.integers(len(actions)))], None)
            decisions += 1
    return decisions, time.process_time() - start


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each, alternating")
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    for name in args.game or envs.names():
        engine = envs.get_spec(name).make_engine()
        ways = {
            "guarded": (engine.legal_actions, engine.apply),
            "unguarded": (unguarded(engine.legal_actions), unguarded(engine.apply)),
        }
        totals = {way: [0, 0.0] for way in ways}
        for _ in range(args.rounds):
            for way, (legal, apply) in ways.items():
                made, seconds = step_games(engine, args.games, legal, apply)
                totals[way][0] += made
                totals[way][1] += seconds
        rates = {way: made / seconds for way, (made, seconds) in totals.items()}
        report[name] = {**rates, "ratio": rates["guarded"] / rates["unguarded"]}
        print(
            f"{name} ({type(engine).__name__}): guarded {rates['guarded'] / 1e3:.0f}k, unguarded "
            f"{rates['unguarded'] / 1e3:.0f}k decisions/s: {report[name]['ratio']:.3f}",
            flush=True,
        )
    return report


if __name__ == "__main__":
    main()
