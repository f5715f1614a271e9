"""Measure SEVN game lengths: ``python bench/sevn_game_lengths.py [--players 4] [--games 400 300]``.

Plays whole games through the bare engine with every seat taken by the same agent (uniform random,
then the ``ev`` baseline) and prints decisions and hands per game; the figures are quoted in the
docstring of ``envs/sevn/__init__.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardarena.envs.core.loop import play  # noqa: E402
from cardarena.envs.core.registry import get_spec  # noqa: E402
from cardarena.envs.sevn.rules import SevnGame  # noqa: E402


def measure(agent_name: str, num_players: int, games: int) -> str:
    from cardarena.agents import make_agent

    engine = SevnGame(num_players=num_players)
    spec = get_spec("sevn")
    decisions, hands = [], []
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    for seed in range(games):
        state = engine.new_game(np.random.default_rng(seed))
        agents = [make_agent("sevn", agent_name, seed=seed * 10 + i) for i in range(num_players)]
        play(spec, engine, state, agents, mask=mask)
        decisions.append(state.decisions)
        hands.append(state.hand_index)
    d, h = np.array(decisions), np.array(hands)
    return (
        f"{agent_name:>6} play, {games} games: decisions/game mean {d.mean():.0f} "
        f"(5%-95% {np.percentile(d, 5):.0f}-{np.percentile(d, 95):.0f}), hands/game mean "
        f"{h.mean():.1f} (5%-95% {np.percentile(h, 5):.0f}-{np.percentile(h, 95):.0f}), "
        f"decisions/hand {d.sum() / h.sum():.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, nargs=2, default=[400, 300], metavar=("RANDOM", "EV"))
    args = parser.parse_args()
    for name, games in zip(("random", "ev"), args.games, strict=True):
        print(measure(name, args.players, games))


if __name__ == "__main__":
    main()
