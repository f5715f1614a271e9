"""Scripted SEVN players: a pass-at-threshold player and a card-counting expected-value player.

Both read only the seat's ``view`` (all of it public: S7, S16, S26). Actions are those of
``envs.sevn.rules``: 0 ``pass``, 1 ``draw``, 2+N ``target N``, 10/11 ``fork 0/1``, 12 ``keep``,
13 ``discard``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import Agent
from envs.sevn.pricing import (
    SeatModel,
    best_rival,
    chase,
    flip_three_values,
    freeze_values,
    held_mask,
    threat_weight,
)
from envs.sevn.rules import (
    CARD_CODES,
    CARD_KIND,
    DISCARD,
    DRAW,
    FORK0,
    KEEP,
    PASS,
    SEVN_VALUES,
    TARGET0,
)

_CODE_TO_CARD = {code: i for i, code in enumerate(CARD_CODES)}


def _targets(action_mask: np.ndarray) -> list[int]:
    return [int(a) - TARGET0 for a in np.flatnonzero(action_mask) if TARGET0 <= a < FORK0]


def row(view: dict[str, Any], seat: int) -> list[int]:
    """The seat's table row as card ints."""
    return [_CODE_TO_CARD[c] for c in view["table"][seat]]


def standing(view: dict[str, Any], seat: int) -> float:
    """Game total plus what the seat would bank now."""
    return view["scores"][seat] + view["hand_scores"][seat]


def seat_model(view: dict[str, Any], seat: int) -> SeatModel:
    """The card-counting model (``envs.sevn.pricing``) of ``seat`` in this view."""
    return SeatModel(
        row(view, seat),
        view["next_card_counts"],
        view["has_second_chance"][seat],
        view["status"][seat] == "in_hand",
    )


class ThresholdAgent(Agent):
    """Draws until its hand is worth ``threshold`` points, then passes; hits the leader."""

    uses_observation = False  # reads the view only

    def __init__(self, threshold: int = 30, seed: int | None = None) -> None:
        super().__init__(seed)
        self.threshold = threshold
        self.name = "threshold"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        me = view["seat"]
        decision = view["decision"]
        if decision == "turn":
            if must_chase(view, me):
                return DRAW
            return DRAW if view["hand_scores"][me] < self.threshold else PASS
        if decision == "fork":
            cards = [_CODE_TO_CARD[c] for c in view["holding"]]
            values = held_mask(row(view, me))

            def simple(card: int) -> float:
                if CARD_KIND[card] == "number":
                    return -100.0 if values >> card & 1 else float(card)
                return 0.0

            return FORK0 + (1 if simple(cards[1]) > simple(cards[0]) else 0)
        if decision == "ballast":
            sevn = len(view["values"][me]) == SEVN_VALUES - 1
            return KEEP if action_mask[KEEP] and sevn else DISCARD
        targets = _targets(action_mask)
        others = [t for t in targets if t != me]
        if decision == "target_second_chance":
            return TARGET0 + min(targets, key=lambda t: (standing(view, t), t))
        if not others:
            return TARGET0 + me
        return TARGET0 + max(others, key=lambda t: (standing(view, t), -t))


def must_chase(view: dict[str, Any], me: int, in_hand_too: bool = False) -> bool:
    """S27: someone has the game won at the end of this hand unless we pass them now (players
    still in the hand count when ``in_hand_too``: they bank what they show when they pass)."""
    n = view["num_players"]
    return chase(
        [standing(view, s) for s in range(n)],
        [view["status"][s] == "in_hand" for s in range(n)],
        me,
        view["target_score"],
        in_hand_too,
    )


class ExpectedValueAgent(Agent):
    """Counts cards to price every choice by the expected change of hand scores.

    * turn: draw when the expected change of its hand value from one more card is above a margin
      (a duplicate costs the hand, or the SECOND_CHANCE that cancels it; the seventh value is
      priced with its +17 and the bank; FORK as the best of two cards, STORM as one draw). The
      margin grows with its lead over the best rival (``lead_aversion``: S27 rewards winning,
      not points), and it keeps drawing while a rival would end the hand above it past the
      target (S27).
    * FREEZE: an opponent whose hand still has the most to gain (an empty row in the deal is the
      best victim), weighted by its standing, unless stopping itself costs less.
    * FLIP_THREE: the opponent with the most to lose from three forced draws, or itself when
      three draws are worth more to it.
    * FORK: the card with the larger price. Ballast: keep when the score lost is repaid by the
      bonuses and the step towards SEVN. SECOND_CHANCE hand-off: the taker least in the race.
    """

    uses_observation = False  # reads the view only

    def __init__(
        self,
        margin: float = 0.0,
        chase_in_hand: bool = True,
        lead_aversion: float = 10.0,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.margin = margin
        self.chase_in_hand = chase_in_hand
        self.lead_aversion = lead_aversion
        self.name = "ev"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        me = view["seat"]
        decision = view["decision"]
        if decision == "turn":
            return self._turn(view, me)
        if decision == "fork":
            model = seat_model(view, me)
            deltas = model.deltas()
            cards = [_CODE_TO_CARD[c] for c in view["holding"]]
            return FORK0 + (1 if deltas[cards[1]] > deltas[cards[0]] else 0)
        if decision == "ballast":
            card = _CODE_TO_CARD[view["holding"][0]]
            keep = action_mask[KEEP] and seat_model(view, me).ballast_keep_value(card) > 0
            return KEEP if keep else DISCARD
        targets = _targets(action_mask)
        if decision == "target_second_chance":
            return TARGET0 + min(targets, key=lambda t: (self._threat(view, t), t))
        if decision == "target_freeze":
            return TARGET0 + self._freeze_target(view, me, targets)
        return TARGET0 + self._flip_three_target(view, me, targets)

    def _turn(self, view: dict[str, Any], me: int) -> int:
        if must_chase(view, me, in_hand_too=self.chase_in_hand):
            return DRAW
        # S27 is about winning, not points: behind the best rival take more risk, ahead less
        rival = best_rival([standing(view, s) for s in range(view["num_players"])], me)
        margin = (
            self.margin + self.lead_aversion * (view["scores"][me] - rival) / view["target_score"]
        )
        return DRAW if seat_model(view, me).draw_value() > margin else PASS

    @staticmethod
    def _threat(view: dict[str, Any], seat: int) -> float:
        return standing(view, seat) / view["target_score"]

    @staticmethod
    def _pick(me: int, targets: list[int], prices: tuple[float, dict[int, float]]) -> int:
        """The target with the highest price, itself unless an opponent is priced higher."""
        best, best_value = me, prices[0]
        for t in targets:
            if t != me and prices[1][t] > best_value:
                best, best_value = t, prices[1][t]
        return best

    def _opponents(
        self, view: dict[str, Any], me: int, targets: list[int]
    ) -> tuple[SeatModel, dict[int, SeatModel], dict[int, float]]:
        models = {t: seat_model(view, t) for t in targets if t != me}
        target = view["target_score"]
        weights = {t: threat_weight(standing(view, t), target) for t in models}
        return seat_model(view, me), models, weights

    def _freeze_target(self, view: dict[str, Any], me: int, targets: list[int]) -> int:
        return self._pick(me, targets, freeze_values(*self._opponents(view, me, targets)))

    def _flip_three_target(self, view: dict[str, Any], me: int, targets: list[int]) -> int:
        return self._pick(me, targets, flip_three_values(*self._opponents(view, me, targets)))


#: scripted baselines, weakest first (``agents.make_agent("sevn", name)``)
BASELINES = {"threshold": ThresholdAgent, "ev": ExpectedValueAgent}
