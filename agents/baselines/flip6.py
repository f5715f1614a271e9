"""Scripted Flip 6 players: a stay-at-threshold player and a card-counting expected-value player.

Both read only the seat's ``view`` (public information, F3). Actions are those of
``envs.flip6.rules``: 0 ``stay``, 1 ``hit``, 2+N ``target N``.
"""

from __future__ import annotations

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.flip6.rules import HIT, STAY, TARGET0
from cardarena.envs.flip6.views import Flip6View

NUMBER_CODES = ["ZERO", "1", "2", "3", "4", "5", "6"]


def _targets(action_mask: np.ndarray) -> list[int]:
    return [int(a) - TARGET0 for a in np.flatnonzero(action_mask) if a >= TARGET0]


def draw_odds(view: Flip6View) -> dict[str, float]:
    """Probability of each card code on the next draw, counted from public cards.

    When the draw pile is empty the next draw comes from the reshuffled discard pile (F16).
    """
    if view["draw_pile_size"] > 0:
        counts = {c: n for c, n in view["unseen"].items() if n > 0}
    else:
        counts = {}
        for c in view["discard_pile"]:
            counts[c] = counts.get(c, 0) + 1
    total = sum(counts.values())
    return {c: n / total for c, n in counts.items()} if total else {}


def bust_probability(view: Flip6View, seat: int) -> float:
    """Chance that the next card duplicates a value held by ``seat`` (EXTRA_LIFE ignored)."""
    odds = draw_odds(view)
    return sum(odds.get(NUMBER_CODES[v], 0.0) for v in view["values"][seat])


class ThresholdAgent(Agent):
    """Hits until its round score reaches ``threshold``, then stays; FREEZE/FLIP3 hit the leader."""

    uses_observation = False  # reads the view only

    def __init__(self, threshold: int = 15, seed: int | None = None) -> None:
        super().__init__(seed)
        self.threshold = threshold
        self.name = "threshold"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Flip6View) -> int:
        me = view["seat"]
        if view["decision"] == "turn":
            if not action_mask[HIT]:
                return STAY
            if view["scores"][me] + view["round_scores"][me] >= view["target_score"]:
                return STAY
            return HIT if view["round_scores"][me] < self.threshold else STAY
        targets = _targets(action_mask)
        others = [t for t in targets if t != me]
        if not others:
            return TARGET0 + me
        leader = max(others, key=lambda t: (view["scores"][t] + view["round_scores"][t], -t))
        return TARGET0 + leader


class ExpectedValueAgent(Agent):
    """Counts cards to price a hit, and aims FREEZE and FLIP3 where they hurt most.

    * turn: stay if banking now wins; otherwise hit when the expected change of the round score
      from one more card is positive (gain of a safe number, Flip 6 bonus, minus the round score
      lost on a bust; EXTRA_LIFE turns a bust into a lost life). Behind a player about to win,
      it keeps hitting while it cannot win by staying.
    * FREEZE: itself when its own bust risk is high and it has points to save, else the opponent
      in the round whose bank would be smallest relative to its potential (the leader first).
    * FLIP3: the opponent with the most to lose (bust risk x round score), or itself when its
      own risk is small and no opponent is worth it.
    """

    uses_observation = False  # reads the view only

    def __init__(self, risk_margin: float = 0.0, seed: int | None = None) -> None:
        super().__init__(seed)
        self.risk_margin = risk_margin
        self.name = "ev"

    # -- value of one more card for seat ----------------------------------------------------
    def hit_value(self, view: Flip6View, seat: int) -> float:
        odds = draw_odds(view)
        held = set(view["values"][seat])
        score = view["round_scores"][seat]
        mult = 2 if view["has_double"][seat] else 1
        life = view["has_extra_life"][seat]
        ev = 0.0
        for code, p in odds.items():
            if code in NUMBER_CODES:
                v = NUMBER_CODES.index(code)
                if v in held:
                    ev += p * (-1.0 if life else -score)  # a life is worth about a point
                else:
                    gain = v * mult
                    if len(held) == 5:
                        gain += 6
                    ev += p * gain
            elif code == "DOUBLE":
                ev += p * (score if not view["has_double"][seat] else 0)
            elif code == "EXTRA_LIFE":
                ev += p * 1.0
            elif code == "FREEZE":
                ev += p * 0.5  # we choose the target: mildly positive
            elif code == "FLIP3":
                ev += p * 0.5
        return ev

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Flip6View) -> int:
        me = view["seat"]
        if view["decision"] == "turn":
            return self._turn(action_mask, view, me)
        targets = _targets(action_mask)
        if view["decision"] == "target_freeze":
            return TARGET0 + self._freeze_target(view, me, targets)
        return TARGET0 + self._flip3_target(view, me, targets)

    def _turn(self, action_mask: np.ndarray, view: Flip6View, me: int) -> int:
        if not action_mask[HIT]:
            return STAY
        target = view["target_score"]
        mine = view["scores"][me] + view["round_scores"][me]
        if mine >= target:
            return STAY
        # someone still in the round who banks a win on their next stay: we cannot wait
        threat = any(
            view["status"][s] == "in_round"
            and view["scores"][s] + view["round_scores"][s] >= target
            for s in range(view["num_players"])
            if s != me
        )
        if threat:
            return HIT
        return HIT if self.hit_value(view, me) > self.risk_margin else STAY

    def _freeze_target(self, view: Flip6View, me: int, targets: list[int]) -> int:
        others = [t for t in targets if t != me]
        my_risk = bust_probability(view, me)
        if me in targets and (not others or (my_risk >= 0.35 and view["round_scores"][me] >= 8)):
            return me
        if not others:
            return me
        target = view["target_score"]

        def harm(t: int) -> float:
            # freezing banks their points now: best against players with small rounds so far,
            # weighted up when they are close to winning
            closeness = (view["scores"][t] + 1) / target
            return closeness * 10 - view["round_scores"][t] + 5 * (1 - bust_probability(view, t))

        return max(others, key=lambda t: (harm(t), -t))

    def _flip3_target(self, view: Flip6View, me: int, targets: list[int]) -> int:
        others = [t for t in targets if t != me]

        def loss(t: int) -> float:
            risk = bust_probability(view, t)
            # chance to bust over up to three cards, roughly
            risk3 = 1 - (1 - risk) ** 3
            return (
                risk3
                * (view["round_scores"][t] + 1)
                * (1 + view["scores"][t] / view["target_score"])
            )

        if others:
            best = max(others, key=lambda t: (loss(t), -t))
            if me in targets and self.hit_value(view, me) > 2.0 and loss(best) < 2.0:
                return me
            return best
        return me


#: scripted baselines, weakest first (``agents.make_agent("flip6", name)``)
BASELINES = {"threshold": ThresholdAgent, "ev": ExpectedValueAgent}
