"""A scripted Suicidium player that reads the mode from its view (rules: shared/rules/suicidium.md).

It only reads the seat's ``view`` (public information plus its own hand and the cards it has seen).
Every choice is scored by the WP changes it would cause, read in the mode's own sense:

* SURVIVE: its own WP is precious (a zero draws an object and may end its game, U5); opponents'
  WP is a target, best the weakest (a zero may eliminate them) and otherwise the leader. It draws
  only when nothing in its hand is worth playing (then one card: every card drawn costs 1 WP,
  U7), shields itself, and cancels harmful cards aimed at it.
* DEPRESSION: the reverse: it lowers its own WP (a zero may make it win), raises the opponents'
  (moving them away from their zero), draws as little as it may (every card drawn costs the
  opponents WP, U7) and cancels cards that would lift it or sink an opponent.

Actions are those of ``envs.suicidium.rules`` (``PLAY0 + card``, ``TARGET0 + seat``, ...). A choice
made in one decision (the card to play) and its follow-ups (its targets) are kept as a plan.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import Agent
from envs.suicidium.pricing import Prices
from envs.suicidium.rules import (
    DISCARD0,
    DRAW0,
    ID_TO_CARD,
    KIND,
    PASS,
    PLAY0,
    RESPONSE,
    TAKE0,
)


class HeuristicAgent(Agent, Prices):
    """Scores cards by their WP consequences in the mode of the game (see the module docstring)."""

    uses_observation = False  # reads the view only

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        play_threshold: float = 0.4,
        draw_margin: int = 10,
        lift_weight: float = 0.3,
    ) -> None:
        Agent.__init__(self, seed)
        Prices.__init__(self, play_threshold, draw_margin, lift_weight)
        self.plan: list[int] = []  # follow-up actions of the card being played

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.plan = []

    # ---- choosing ------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        while self.plan:  # follow-ups of the card just played
            nxt = self.plan.pop(0)
            if nxt in legal:
                return nxt
        self.plan = []
        decision = view["decision"]
        if decision == "draw":
            return self.choose_draw(view, legal)
        if decision in ("main", "respond"):
            return self.choose_play(view, legal, decision == "main")
        if decision == "discard":
            return min(legal, key=lambda a: self.keep_value(view, a - DISCARD0))
        if decision == "take":
            return max(legal, key=lambda a: self.keep_value(view, a - TAKE0))
        if decision == "target_card":
            card = ID_TO_CARD[view["table"][-1]["card"]] if view["table"] else None
            if card is not None:
                _, plan = self.best_response(view, card)
                if plan and plan[0] in legal:
                    self.plan = plan[1:]
                    return plan[0]
        if decision == "target_player" and view["table"]:
            pending = view["table"][-1]
            card = ID_TO_CARD[pending["card"]]
            if KIND[card] != RESPONSE:
                _, plan = self.best_play(view, card)
                if plan and plan[0] in legal:
                    return plan[0]
        return legal[int(self.rng.integers(len(legal)))]

    def choose_draw(self, v: dict[str, Any], legal: list[int]) -> int:
        draws = [a - DRAW0 for a in legal if DRAW0 <= a < DRAW0 + 8]
        swaps = [a for a in legal if a >= DISCARD0]
        want = self.draw_want(v)
        fitting = [k for k in draws if k <= want]
        if fitting:
            return DRAW0 + max(fitting)
        if draws and (not swaps or min(draws) >= 1):
            return DRAW0 + min(draws)
        if swaps:
            return min(swaps, key=lambda a: self.keep_value(v, a - DISCARD0))
        return legal[0]

    def choose_play(self, v: dict[str, Any], legal: list[int], main: bool) -> int:
        best_val, best_action, best_plan = -1e9, PASS, []
        for a in legal:
            if a == PASS:
                continue
            val, plan = self.play_value(v, a - PLAY0)
            if val > best_val:
                best_val, best_action, best_plan = val, a, plan
        threshold = self.play_threshold if main else 1.0
        if PASS in legal and best_val <= threshold:
            return PASS
        self.plan = list(best_plan)
        return best_action


#: scripted baselines, weakest first (``agents.make_agent("suicidium", name)``)
BASELINES = {"heuristic": HeuristicAgent}


def measure_game_length(
    mode: str, players: str, games: int, num_players: int = 4, expansion: bool = False
) -> dict[str, float]:
    """Turns and decisions per game (U31) with every seat ``players`` ("random"/"heuristic")."""
    import time

    from agents.base import RandomAgent
    from envs.suicidium.encoding import view
    from envs.suicidium.rules import NUM_ACTIONS, SuicidiumGame

    engine = SuicidiumGame(num_players=num_players, mode=mode, expansion=expansion)
    turns, decisions = [], []
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    start = time.perf_counter()
    for g in range(games):
        state = engine.new_game(np.random.default_rng(g))
        cls = RandomAgent if players == "random" else HeuristicAgent
        seats = [cls(seed=g * 10 + s) for s in range(num_players)]
        while not engine.is_over(state):
            seat = state.decider
            legal = engine.legal_actions(state)
            if players == "random":
                action = legal[int(seats[seat].rng.integers(len(legal)))]
            else:
                mask[:] = 0
                mask[legal] = 1
                action = seats[seat].act(None, mask, view(state, seat))
            engine.apply(state, action, seat)
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


if __name__ == "__main__":  # U31: python -m agents.suicidium_baselines --games 200
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
