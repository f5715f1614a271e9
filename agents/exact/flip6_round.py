"""flip6's round solved exactly: the most points a seat can expect to bank from where it stands.

A flip6 round seen by one seat is a small Markov decision process: the seat's state is the set of
number values it holds (ZERO and 1-6, F1-F2), whether it holds an EXTRA_LIFE (F10) and a DOUBLE
(F13), and the public composition of the draw pile and of the discard pile (every dealt card is
face up, F3, so both are known exactly; the discard pile becomes the draw pile when the draw pile
runs out, F16). :class:`RoundSolver` computes by dynamic programming over those states (memoised
recursion: each draw is an expectation over the card kinds left, each choice a maximum) the
expected banked points of the best play:

* STAY banks the round score (F7, F14); HIT draws one card (F8): a new number carries on, the
  sixth distinct value is a Flip 6 (score + 6, F9), a duplicate busts to 0 unless an EXTRA_LIFE
  cancels it (both go to the discard pile, F10, F16);
* a FREEZE the seat draws is aimed by the seat (F11): at itself (it banks now) or at another seat
  (it plays on), whichever is worth more; inside a FLIP3 it freezes the receiver (F12: banks);
* a FLIP3 the seat draws is aimed by the seat (F12): at itself (three forced cards, each resolved,
  stopping early on a bust, a Flip 6 or a FREEZE) or at another seat (it plays on).

A state met again inside its own expectation (only an EXTRA_LIFE and duplicates left, reshuffled
round and round) is valued at what the seat banks by staying there.

The model is the round played alone (``alone=True`` also takes the FREEZE and FLIP3 choices away:
both are aimed at the seat itself, the one-player version of the round): what other seats draw in
between, their FREEZE or FLIP3 aimed at this seat and their Flip 6 ending the round are not
modelled. Under that model the values are exact; the solver reproduces the known figures of the
number cards alone (21 cards, 1-6): 7.69 expected points for the best play, 7.68 for "stay at 9"
(``tests/test_exact_flip6.py``).

:class:`OptimalRoundAgent` (spec ``optimal_round``) plays every round decision by the solver and
keeps two rules of the game's end from ``ev``: it stays when banking wins the game, and hits while
another seat in the round would win by staying. Which other seat a FREEZE or a FLIP3 goes to is
``ev``'s choice (the round value of this seat does not depend on it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardarena.agents.baselines.flip6 import NUMBER_CODES, ExpectedValueAgent, _targets
from cardarena.envs.flip6.rules import HIT, STAY, TARGET0
from cardarena.envs.flip6.views import Flip6View

#: card kinds of a composition, in this order: ZERO, 1..6 (index = value), then the specials
KINDS = (*NUMBER_CODES, "EXTRA_LIFE", "FREEZE", "FLIP3", "DOUBLE")
EXTRA_LIFE, FREEZE, FLIP3, DOUBLE = 7, 8, 9, 10
#: the full deck as counts per kind (F1, F2)
DECK = (1, 1, 2, 3, 4, 5, 6, 1, 1, 1, 1)
EMPTY = (0,) * len(KINDS)
Composition = tuple[int, ...]


def score(held: int, double: bool) -> int:
    """Round score of the values in the bitmask ``held`` (bit v: value v), doubled by DOUBLE."""
    total = sum(v for v in range(1, 7) if held >> v & 1)
    return 2 * total if double else total


def composition(counts: dict[str, int] | Sequence[str]) -> Composition:
    """Counts per kind (:data:`KINDS`) from a ``{code: count}`` dict or a list of card codes."""
    if isinstance(counts, dict):
        return tuple(int(counts.get(k, 0)) for k in KINDS)
    return tuple(sum(1 for c in counts if c == k) for k in KINDS)


class RoundSolver:
    """Exact expected banked points of the round for one seat (the module docstring's model).

    ``alone``: the one-player round (FREEZE and FLIP3 always aimed at the seat itself). The
    memo is kept between calls (positions of one round share most of their states); ``clear``
    empties it, and it empties itself past ``max_states``.
    """

    def __init__(self, alone: bool = False, max_states: int = 200_000) -> None:
        self.alone = alone
        self.max_states = max_states
        self._memo: dict[tuple[Any, ...], float] = {}
        #: draws being computed: a state met again inside its own expectation is a cycle
        self._active: set[tuple[Any, ...]] = set()

    def clear(self) -> None:
        self._memo.clear()

    @property
    def states(self) -> int:
        return len(self._memo)

    # -- values ------------------------------------------------------------------------------

    def value(
        self, held: int, life: bool, double: bool, pile: Composition, discard: Composition
    ) -> float:
        """The best of STAY and HIT at a turn."""
        hit = self.hit(held, life, double, pile, discard)
        stay = score(held, double)
        return stay if hit is None else max(stay, hit)

    def hit(
        self, held: int, life: bool, double: bool, pile: Composition, discard: Composition
    ) -> float | None:
        """Expected points of HIT then best play (None: no card left to draw, F16)."""
        return self.draw(held, life, double, pile, discard, 0)

    def flip3_self(
        self,
        held: int,
        life: bool,
        double: bool,
        pile: Composition,
        discard: Composition,
        left: int = 0,
    ) -> float:
        """Aiming a FLIP3 at oneself: three forced cards (then ``left`` more of an outer FLIP3)."""
        out = self.draw(held, life, double, pile, discard, 2 + left)
        return score(held, double) if out is None else out

    def forced(
        self,
        held: int,
        life: bool,
        double: bool,
        pile: Composition,
        discard: Composition,
        left: int,
    ) -> float:
        """``left`` forced cards still to come (a FLIP3), then best play; ``left=0``: a turn."""
        if not left:
            return self.value(held, life, double, pile, discard)
        out = self.draw(held, life, double, pile, discard, left - 1)
        return score(held, double) if out is None else out

    def draw(
        self,
        held: int,
        life: bool,
        double: bool,
        pile: Composition,
        discard: Composition,
        left: int,
    ) -> float | None:
        """Expected points of drawing one card with ``left`` forced cards after it (None: no
        card can be drawn)."""
        if not any(pile):
            pile, discard = discard, EMPTY  # F16: the discard pile is shuffled into a new pile
            if not any(pile):
                return None
        key = (held, life, double, pile, discard, left)
        memo = self._memo
        got = memo.get(key)
        if got is not None:
            return got
        if key in self._active:
            # a cycle: EXTRA_LIFE and duplicates alone reshuffled round and round (F10, F16)
            # bring the seat back to where it was; staying there is what it can bank
            return float(score(held, double))
        self._active.add(key)
        total = 0.0
        try:
            for kind, count in enumerate(pile):
                if count:
                    rest = pile[:kind] + (count - 1,) + pile[kind + 1 :]
                    total += count * self._outcome(held, life, double, rest, discard, kind, left)
        finally:
            self._active.discard(key)
        out = total / sum(pile)
        if len(memo) >= self.max_states:
            memo.clear()
        memo[key] = out
        return out

    def _outcome(
        self,
        held: int,
        life: bool,
        double: bool,
        pile: Composition,
        discard: Composition,
        kind: int,
        left: int,
    ) -> float:
        """Expected points once the drawn ``kind`` is resolved."""
        if kind < EXTRA_LIFE:  # a number value (F8)
            if held >> kind & 1:
                if not life:
                    return 0.0  # bust
                # F10: the life and the duplicate go to the discard pile (F16)
                used = list(discard)
                used[kind] += 1
                used[EXTRA_LIFE] += 1
                return self.forced(held, False, double, pile, tuple(used), left)
            now = held | 1 << kind
            if bin(now).count("1") == 6:
                return score(now, double) + 6  # F9: Flip 6, the bonus never doubled
            return self.forced(now, life, double, pile, discard, left)
        if kind == EXTRA_LIFE:
            return self.forced(held, True, double, pile, discard, left)
        if kind == DOUBLE:
            return self.forced(held, life, True, pile, discard, left)
        if kind == FREEZE:
            banked = float(score(held, double))
            if left or self.alone:  # inside a FLIP3 it freezes the receiver (F12)
                return banked
            return max(banked, self.value(held, life, double, pile, discard))
        # FLIP3 (F12)
        at_self = self.flip3_self(held, life, double, pile, discard, left)
        if self.alone:
            return at_self
        return max(at_self, self.forced(held, life, double, pile, discard, left))


def seat_position(view: Flip6View, seat: int) -> tuple[int, bool, bool, Composition, Composition]:
    """(held values bitmask, EXTRA_LIFE, DOUBLE, draw pile, discard pile) of ``seat``."""
    held = 0
    for v in view["values"][seat]:
        held |= 1 << int(v)
    return (
        held,
        bool(view["has_extra_life"][seat]),
        bool(view["has_double"][seat]),
        composition(view["unseen"]),
        composition(view["discard_pile"]),
    )


class OptimalRoundAgent(ExpectedValueAgent):
    """Plays each round decision to maximise the seat's expected banked points of the round
    (:class:`RoundSolver`), with ``ev``'s two rules at the game's end (module docstring)."""

    uses_observation = False

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.name = "optimal_round"
        self.solver = RoundSolver()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.solver.clear()

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Flip6View) -> int:
        me = view["seat"]
        position = seat_position(view, me)
        solver = self.solver
        if view["decision"] == "turn":
            if not action_mask[HIT]:
                return STAY
            target = view["target_score"]
            if view["scores"][me] + view["round_scores"][me] >= target:
                return STAY
            threat = any(
                view["status"][s] == "in_round"
                and view["scores"][s] + view["round_scores"][s] >= target
                for s in range(view["num_players"])
                if s != me
            )
            hit = solver.hit(*position)
            if threat or (hit is not None and hit > score(position[0], position[2])):
                return HIT
            return STAY
        targets = _targets(action_mask)
        others = [t for t in targets if t != me]
        left = int(view["flip3_left"]) if view["decider"] == me else 0
        if view["decision"] == "target_freeze":
            if me in targets:
                banked = score(position[0], position[2])
                if not others or banked >= solver.forced(*position, left):
                    return TARGET0 + me
            return TARGET0 + self._freeze_target(view, me, others)
        if me in targets:
            at_self = solver.flip3_self(*position, left)
            if not others or at_self > solver.forced(*position, left):
                return TARGET0 + me
        return TARGET0 + self._flip3_target(view, me, others)
