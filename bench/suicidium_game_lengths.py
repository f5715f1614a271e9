"""Suicidium game length (rule U31): turns and decisions per game with every seat random or the
heuristic, the figures quoted in ``envs/suicidium/__init__.py``.

    python bench/suicidium_game_lengths.py --games 200 [--num-players 4]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def measure_game_length(
    mode: str, players: str, games: int, num_players: int = 4, expansion: bool = False
) -> dict[str, float]:
    """Turns and decisions per game (U31) with every seat ``players`` ("random"/"heuristic")."""
    import time

    from cardarena.agents.base import RandomAgent
    from cardarena.agents.baselines.suicidium import HeuristicAgent
    from cardarena.envs.core.loop import play
    from cardarena.envs.core.registry import get_spec
    from cardarena.envs.suicidium.rules import NUM_ACTIONS, SuicidiumGame

    engine = SuicidiumGame(num_players=num_players, mode=mode, expansion=expansion)
    spec = get_spec("suicidium")
    turns, decisions = [], []
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    start = time.perf_counter()
    for g in range(games):
        state = engine.new_game(np.random.default_rng(g))
        cls = RandomAgent if players == "random" else HeuristicAgent
        seats = [cls(seed=g * 10 + s) for s in range(num_players)]
        play(spec, engine, state, seats, mask=mask)
        turns.append(state.turn)
        decisions.append(state.decisions)
    seconds = time.perf_counter() - start
    return {
        "turns_mean": float(np.mean(turns)),
        "turns_median": float(np.median(turns)),
        "turns_max": int(max(turns)),
        "decisions_mean": float(np.mean(decisions)),
        "decisions_per_second": float(sum(decisions) / seconds),
    }


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Suicidium game length (rule U31)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--num-players", type=int, default=4)
    args = parser.parse_args()
    print("mode        players    turns mean/median/max  decisions/game  decisions/s")
    for mode in ("SURVIVE", "DEPRESSION"):
        for players in ("random", "heuristic"):
            m = measure_game_length(mode, players, args.games, args.num_players)
            print(
                f"{mode:<11} {players:<10} {m['turns_mean']:5.1f} / {m['turns_median']:4.0f} / "
                f"{m['turns_max']:<4d}      {m['decisions_mean']:7.1f}      "
                f"{m['decisions_per_second']:8.0f}"
            )
