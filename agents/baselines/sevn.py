"""Scripted SEVN players: a pass-at-threshold player and a card-counting expected-value player.

Both read only the seat's ``view`` (all of it public: S7, S16, S26). Actions are those of
``envs.sevn.rules``: 0 ``pass``, 1 ``draw``, 2+N ``target N``, 10/11 ``fork 0/1``, 12 ``keep``,
13 ``discard``.
"""

from __future__ import annotations

import functools

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.sevn.rules import (
    CARD_CODES,
    CARD_KIND,
    DISCARD,
    DRAW,
    FORK0,
    KEEP,
    LAST_VALUE_CARD,
    NUM_CARD_KINDS,
    PASS,
    SEVN_VALUES,
    TARGET0,
    hand_score,
)
from cardarena.envs.sevn.views import SevnView

_CODE_TO_CARD = {code: i for i, code in enumerate(CARD_CODES)}
FREEZE, SECOND_CHANCE, FLIP_THREE, FORK, STORM = (
    _CODE_TO_CARD[c] for c in ("FREEZE", "SECOND_CHANCE", "FLIP_THREE", "FORK", "STORM")
)
#: a hand's score a player can expect to bank from an empty row (measured with ``ev`` play)
TYPICAL_HAND = 22.0


def _targets(action_mask: np.ndarray) -> list[int]:
    return [int(a) - TARGET0 for a in np.flatnonzero(action_mask) if TARGET0 <= a < FORK0]


def row(view: SevnView, seat: int) -> list[int]:
    """The seat's table row as card ints."""
    return [_CODE_TO_CARD[c] for c in view["table"][seat]]


def held_mask(cards: list[int]) -> int:
    mask = 0
    for c in cards:
        if c <= LAST_VALUE_CARD:
            mask |= 1 << c
    return mask


def standing(view: SevnView, seat: int) -> float:
    """Game total plus what the seat would bank now."""
    return view["scores"][seat] + view["hand_scores"][seat]


@functools.lru_cache(maxsize=1 << 16)
def _row_deltas(cards: tuple[int, ...], has_sc: bool) -> tuple[float, ...]:
    """:meth:`SeatModel._card_deltas` of a row (sorted: a score does not depend on the order),
    kept: search rollouts meet the same rows over and over (a pure function: same decisions)."""
    return tuple(SeatModel(list(cards), [0] * NUM_CARD_KINDS, has_sc)._card_deltas())


class SeatModel:
    """What one seat's next cards are worth, priced from the public card counts (S26)."""

    def __init__(
        self, cards: list[int], counts: list[int], has_sc: bool, in_hand: bool = True
    ) -> None:
        self.counts = counts
        self.total = sum(counts)
        self.cards = cards
        self.values = held_mask(cards)
        self.num_values = self.values.bit_count()
        self.has_sc = has_sc
        self.score = hand_score(cards)
        self.in_hand = in_hand

    @classmethod
    def of(cls, view: SevnView, seat: int) -> SeatModel:
        return cls(
            row(view, seat),
            view["next_card_counts"],
            view["has_second_chance"][seat],
            view["status"][seat] == "in_hand",
        )

    def bust_chance(self) -> float:
        """Chance the next card is a duplicate number (S9); a SECOND_CHANCE is ignored."""
        if not self.total:
            return 0.0
        dup = sum(self.counts[v] for v in range(14) if self.values >> v & 1)
        return dup / self.total

    def add_value(self, card: int) -> float:
        """Change of the banked score when ``card`` joins the row (a SEVN banks +17 at once)."""
        new = [*self.cards, card]
        sevn = self.num_values + 1 == SEVN_VALUES
        return hand_score(new, sevn) - self.score

    def ballast_keep_value(self, card: int) -> float:
        """S11: score change of keeping it, plus a little for being one value nearer SEVN."""
        if self.values >> card & 1:
            return -1e9
        after = self.num_values + 1
        progress = {4: 0.5, 5: 2.0, 6: 5.0}.get(after, 0.0)
        return self.add_value(card) + progress

    def second_chance_value(self) -> float:
        return 2.0 + 0.3 * self.score

    def deltas(self) -> list[float]:
        """Change of this seat's hand value for each card kind drawn next (choices made well)."""
        out = list(_row_deltas(tuple(sorted(self.cards)), self.has_sc))
        base = self.expected(out)
        out[STORM] = base  # our own storm draw; the others' draws are a wash
        out[FORK] = self.best_of_two(out)
        return out

    def _card_deltas(self) -> list[float]:
        """:meth:`deltas` but STORM and FORK (0 there): a function of the row and the
        SECOND_CHANCE only, not of the card counts, so :func:`_row_deltas` keeps them."""
        out = [0.0] * NUM_CARD_KINDS
        for card in range(NUM_CARD_KINDS):
            kind = CARD_KIND[card]
            if kind == "number":
                if self.values >> card & 1:
                    out[card] = -self.second_chance_value() if self.has_sc else -float(self.score)
                else:
                    out[card] = self.add_value(card)
            elif kind == "ballast":
                out[card] = max(0.0, self.ballast_keep_value(card))
            elif kind in ("modifier", "bonus"):
                out[card] = hand_score([*self.cards, card]) - self.score
            elif card == SECOND_CHANCE:
                out[card] = -0.5 if self.has_sc else self.second_chance_value()
            elif card in (FREEZE, FLIP_THREE):
                out[card] = 1.0  # we choose the target (ourselves at worst for FREEZE)
        return out

    def expected(self, deltas: list[float]) -> float:
        if not self.total:
            return 0.0
        total = 0.0  # left to right on every Python (3.12's sum() of floats compensates), as in C
        for p, d in zip(self.counts, deltas, strict=True):
            if p:
                total += p * d
        return total / self.total

    def best_of_two(self, deltas: list[float]) -> float:
        """E[max] of two cards drawn (FORK, S16), treating them as independent."""
        if not self.total:
            return 0.0
        pairs = sorted((d, p / self.total) for d, p in zip(deltas, self.counts, strict=True) if p)
        value, below = 0.0, 0.0
        for d, p in pairs:
            value += d * ((below + p) ** 2 - below**2)
            below += p
        return value

    def draw_value(self) -> float:
        """Expected change of the hand value from one more card."""
        return self.expected(self.deltas())

    def after_draws(self, k: int) -> float:
        """Rough expected hand score after ``k`` forced draws (FLIP_THREE, S15)."""
        if not self.in_hand:
            return float(self.score)
        bust = self.bust_chance()
        if self.has_sc:
            bust *= bust
        gains = [
            self.add_value(v) for v in range(14) if not self.values >> v & 1 and self.counts[v]
        ]
        weights = [self.counts[v] for v in range(14) if not self.values >> v & 1 and self.counts[v]]
        gain = (
            sum(g * w for g, w in zip(gains, weights, strict=True)) / sum(weights)
            if weights
            else 0.0
        )
        number_share = sum(self.counts[:14]) / self.total if self.total else 0.0
        survive = (1.0 - min(bust * 1.15, 1.0)) ** k  # the risk grows with every new value
        return survive * (self.score + k * gain * number_share)


class ThresholdAgent(Agent):
    """Draws until its hand is worth ``threshold`` points, then passes; hits the leader."""

    uses_observation = False  # reads the view only

    def __init__(self, threshold: int = 30, seed: int | None = None) -> None:
        super().__init__(seed)
        self.threshold = threshold
        self.name = "threshold"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: SevnView) -> int:
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


def must_chase(view: SevnView, me: int, in_hand_too: bool = False) -> bool:
    """S27: someone has the game won at the end of this hand unless we pass them now (players
    still in the hand count when ``in_hand_too``: they bank what they show when they pass)."""
    target = view["target_score"]
    mine = standing(view, me)
    for s in range(view["num_players"]):
        if s == me:
            continue
        if view["status"][s] != "in_hand":
            theirs: float = view["scores"][s]
        elif in_hand_too:
            theirs = standing(view, s)
        else:
            continue
        if theirs >= target and theirs >= mine:
            return True
    return False


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

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: SevnView) -> int:
        me = view["seat"]
        decision = view["decision"]
        if decision == "turn":
            return self._turn(view, me)
        if decision == "fork":
            model = SeatModel.of(view, me)
            deltas = model.deltas()
            cards = [_CODE_TO_CARD[c] for c in view["holding"]]
            return FORK0 + (1 if deltas[cards[1]] > deltas[cards[0]] else 0)
        if decision == "ballast":
            card = _CODE_TO_CARD[view["holding"][0]]
            keep = action_mask[KEEP] and SeatModel.of(view, me).ballast_keep_value(card) > 0
            return KEEP if keep else DISCARD
        targets = _targets(action_mask)
        if decision == "target_second_chance":
            return TARGET0 + min(targets, key=lambda t: (self._threat(view, t), t))
        if decision == "target_freeze":
            return TARGET0 + self._freeze_target(view, me, targets)
        return TARGET0 + self._flip_three_target(view, me, targets)

    def _turn(self, view: SevnView, me: int) -> int:
        if must_chase(view, me, in_hand_too=self.chase_in_hand):
            return DRAW
        # S27 is about winning, not points: behind the best rival take more risk, ahead less
        rival = max(standing(view, s) for s in range(view["num_players"]) if s != me)
        margin = (
            self.margin + self.lead_aversion * (view["scores"][me] - rival) / view["target_score"]
        )
        return DRAW if SeatModel.of(view, me).draw_value() > margin else PASS

    @staticmethod
    def _threat(view: SevnView, seat: int) -> float:
        return standing(view, seat) / view["target_score"]

    def _weight(self, view: SevnView, seat: int) -> float:
        return 1.0 + 2.0 * min(self._threat(view, seat), 1.5)

    def _freeze_target(self, view: SevnView, me: int, targets: list[int]) -> int:
        own = SeatModel.of(view, me)
        best, best_value = me, -max(0.0, own.draw_value())  # stopping ourselves
        for t in targets:
            if t == me:
                continue
            model = SeatModel.of(view, t)
            # what the opponent would still make from here; freezing banks only its row
            potential = max(0.0, TYPICAL_HAND - model.score) * (1.0 - model.bust_chance())
            value = potential * self._weight(view, t)
            if value > best_value:
                best, best_value = t, value
        return best

    def _flip_three_target(self, view: SevnView, me: int, targets: list[int]) -> int:
        own = SeatModel.of(view, me)
        best, best_value = me, own.after_draws(3) - own.score
        for t in targets:
            if t == me:
                continue
            model = SeatModel.of(view, t)
            value = (model.score - model.after_draws(3)) * self._weight(view, t)
            if value > best_value:
                best, best_value = t, value
        return best


#: scripted baselines, weakest first (``agents.make_agent("sevn", name)``)
BASELINES = {"threshold": ThresholdAgent, "ev": ExpectedValueAgent}
