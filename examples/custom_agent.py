"""Write your own flip6 player and rank it against the suite's baselines.

    python examples/custom_agent.py                       # tiny: 20 deals, seconds
    python examples/custom_agent.py --deals 1000 --num-players 5

An agent is a class with ``act(observation, action_mask, view) -> action`` (agents/base.py). The
evaluator builds it from the spec ``custom_agent:make`` (module:factory), so the same agent can be
ranked from the command line too:

    PYTHONPATH=examples python evaluate.py --game flip6 --agents custom_agent:make ev threshold random

(a tournament takes an agent for every seat; list one twice to seat it twice).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.agents.evaluation.report import leaderboard_text
from cardarena.agents.evaluation.tournament import run_tournament

STAY, HIT, TARGET0 = 0, 1, 2  # flip6's actions (docs/rules/flip6.md)
NUMBERS = ["ZERO", "1", "2", "3", "4", "5", "6"]  # card codes of the values 0..6


class Cautious(Agent):
    """Hits while the chance that the next card busts it is below ``max_bust``; aims FREEZE and
    FLIP3 at the opponent with the most points. Reads only the ``view`` (public information)."""

    name = "cautious"
    uses_observation = False  # the evaluator then skips encoding observations for it

    def __init__(self, max_bust: float = 0.25, seed: int | None = None) -> None:
        super().__init__(seed)  # self.rng: the agent's own generator, re-seeded by reset()
        self.max_bust = max_bust

    def bust_chance(self, view: dict[str, Any]) -> float:
        unseen = view["unseen"]  # card code -> copies not seen yet
        total = sum(unseen.values())
        held = [NUMBERS[v] for v in view["values"][view["seat"]]]
        return sum(unseen.get(code, 0) for code in held) / total if total else 0.5

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        me = view["seat"]
        if view["decision"] == "turn":
            if action_mask[HIT] and self.bust_chance(view) < self.max_bust:
                return HIT
            return STAY if action_mask[STAY] else HIT
        targets = [int(a) - TARGET0 for a in np.flatnonzero(action_mask)]  # target_* decisions
        others = [t for t in targets if t != me] or targets
        return TARGET0 + max(others, key=lambda t: view["scores"][t] + view["round_scores"][t])


def make(game: str, seed: int | None = None) -> Agent:
    """The factory the spec ``custom_agent:make`` names (called with ``game=`` and ``seed=``)."""
    if game != "flip6":
        raise ValueError(f"Cautious plays flip6, not {game}")
    return Cautious(seed=seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deck seeds (each under 4 seatings)")
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--opponents", nargs="+", default=["ev", "threshold", "random"])
    args = parser.parse_args(argv)
    # every deck seed is played under every seat rotation; a leaderboard with 95% intervals
    # an agent per seat: the opponents in turn round the table (listing one twice seats it twice)
    others = [args.opponents[i % len(args.opponents)] for i in range(args.num_players - 1)]
    agents = ["custom_agent:make", *others]
    result = run_tournament(
        "flip6", agents, args.deals, {"num_players": args.num_players}, progress=False
    )
    print(leaderboard_text(result))


if __name__ == "__main__":
    main()
