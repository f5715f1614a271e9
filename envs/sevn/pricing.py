"""SEVN card counting: what a seat's next cards are worth, priced from public information.

Every card in SEVN is public once drawn (S7, S16, S26), so the composition of the pile the next
card comes from is public too. :class:`SeatModel` prices the cards of that pile for one seat; the
expected-value baseline (``agents/sevn_baselines.py``) decides with it, and the observation carries
its main prices ("ev's prices" in ``encoding.py``) so that a network does not have to rebuild them
from the raw card counts. Nothing here reads the order of the draw pile.
"""

from __future__ import annotations

from operator import mul

from envs.sevn.rules import (
    CARD_KIND,
    FLIP_THREE,
    FORK,
    FREEZE,
    LAST_VALUE_CARD,
    NUM_CARD_KINDS,
    SECOND_CHANCE,
    SEVN_VALUES,
    STORM,
    hand_score,
)

#: a hand's score a player can expect to bank from an empty row (measured with ``ev`` play)
TYPICAL_HAND = 22.0
#: how much more a draw must be worth per unit of lead (lead / target) before ``ev`` draws
LEAD_AVERSION = 10.0

#: (has_second_chance, *row) -> deltas of the cards whose price depends on the row alone
_ROW_DELTAS: dict[tuple[int, ...], tuple[list[float], list[tuple[float, int]]]] = {}
_ROW_DELTAS_MAX = 4096  #: entries; emptied when full


def held_mask(cards: list[int]) -> int:
    mask = 0
    for c in cards:
        if c <= LAST_VALUE_CARD:
            mask |= 1 << c
    return mask


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

    def _row_deltas(self) -> list[float]:
        """The deltas of every card kind but STORM and FORK (they depend on the counts)."""
        return self._row_table()[0]

    def _row_table(self) -> tuple[list[float], list[tuple[float, int]]]:
        """(:meth:`_row_deltas`, (delta, card) of every kind but STORM and FORK, sorted),
        memoised per row in ``_ROW_DELTAS``."""
        key = (self.has_sc, *self.cards)
        table = _ROW_DELTAS.get(key)
        if table is not None:
            return table
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
        ranked = sorted((out[c], c) for c in range(NUM_CARD_KINDS) if c != STORM and c != FORK)
        if len(_ROW_DELTAS) >= _ROW_DELTAS_MAX:
            _ROW_DELTAS.clear()
        _ROW_DELTAS[key] = table = (out, ranked)
        return table

    def deltas(self) -> list[float]:
        """Change of this seat's hand value for each card kind drawn next (choices made well)."""
        out = list(self._row_deltas())
        base = self.expected(out)
        out[STORM] = base  # our own storm draw; the others' draws are a wash
        out[FORK] = self.best_of_two(out)
        return out

    def expected(self, deltas: list[float]) -> float:
        if not self.total:
            return 0.0
        return sum(p * d for p, d in zip(self.counts, deltas, strict=True) if p) / self.total

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
        """Expected change of the hand value from one more card: :meth:`expected` of
        :meth:`deltas`, with the row's deltas sorted once per row (this runs for every
        observation, ``encoding.py``) rather than all 31 sorted again for the FORK price."""
        total = self.total
        if not total:
            return 0.0
        row, ranked = self._row_table()
        counts = self.counts
        plain = sum(map(mul, row, counts))  # row[STORM] == row[FORK] == 0
        base = plain / total  # STORM: one more draw of our own
        # FORK (best_of_two): E[max] of two cards, STORM priced at base and FORK itself at 0
        extra = sorted(((base, counts[STORM]), (0.0, counts[FORK])))
        value = below = 0.0
        e = 0
        for d, c in ranked:
            while e < 2 and extra[e][0] < d:
                p = extra[e][1] / total
                value += extra[e][0] * ((below + p) ** 2 - below**2)
                below += p
                e += 1
            p = counts[c]
            if p:
                p /= total
                value += d * ((below + p) ** 2 - below**2)
                below += p
        for d, n in extra[e:]:
            p = n / total
            value += d * ((below + p) ** 2 - below**2)
            below += p
        return (plain + counts[STORM] * base + counts[FORK] * value) / total

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


def chase(
    standings: list[float], in_hand: list[bool], me: int, target: int, in_hand_too: bool
) -> bool:
    """S27: someone has the game won at the end of this hand unless ``me`` passes them now.

    ``standings``: each seat's game total plus what it would bank now (its total alone once it
    is out of the hand); players still in the hand count only when ``in_hand_too`` (they bank
    what they show when they pass).
    """
    mine = standings[me]
    for s, theirs in enumerate(standings):
        if s == me or (in_hand[s] and not in_hand_too):
            continue
        if theirs >= target and theirs >= mine:
            return True
    return False


def best_rival(standings: list[float], me: int) -> float:
    """The highest standing among the other seats."""
    return max(standings[s] for s in range(len(standings)) if s != me)


def threat_weight(standing: float, target: int) -> float:
    """How much hurting a seat is worth to ``ev``, by how near it is to the target."""
    return 1.0 + 2.0 * min(standing / target, 1.5)


def freeze_values(
    own: SeatModel, models: dict[int, SeatModel], weights: dict[int, float]
) -> tuple[float, dict[int, float]]:
    """``ev``'s price of each FREEZE target: (stopping itself, {opponent: price}). An opponent is
    worth what it would still make from here (freezing banks only its row), weighted by threat."""
    others = {}
    for t, model in models.items():
        potential = max(0.0, TYPICAL_HAND - model.score) * (1.0 - model.bust_chance())
        others[t] = potential * weights[t]
    return -max(0.0, own.draw_value()), others


def flip_three_values(
    own: SeatModel, models: dict[int, SeatModel], weights: dict[int, float]
) -> tuple[float, dict[int, float]]:
    """``ev``'s price of each FLIP_THREE target: (three draws for itself, {opponent: what it
    stands to lose from three forced draws, weighted by threat})."""
    others = {t: (m.score - m.after_draws(3)) * weights[t] for t, m in models.items()}
    return own.after_draws(3) - own.score, others
