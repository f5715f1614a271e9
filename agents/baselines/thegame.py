"""Scripted players of The Game (cooperative): a greedy player and a turn planner.

Both read only the seat's ``view`` (own hand, piles, public counts and signals; G11). For a
cooperative game every seat is played by the same kind of agent. Actions are those of
``envs.thegame.rules``: ``play C P`` at ``(C-2)*4+P``, ``end``, ``signal P none|wait|help``.

"Open" cards are cards not yet on a pile (some hand or the draw pile: public knowledge). The
*cost* of a play is the number of open cards it jumps over on its pile (they can no longer go
there); the backwards trick (G5) has a negative cost, the open cards it makes playable again.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.thegame.encoding import play_cost
from cardarena.envs.thegame.rules import END, NUM_PILES, SIGNAL_NAMES, play_action, signal_action
from cardarena.envs.thegame.views import TheGameView

_ALL_CARDS = (1 << 100) - (1 << 2)  # bits 2..99
_INF = float("inf")


def open_cards(view: TheGameView) -> int:
    """Bitmask of the cards not on a pile (bit v = card v)."""
    placed = 0
    for pile in view["piles"]:
        for c in pile:
            placed |= 1 << c
    return _ALL_CARDS & ~placed


def jump(card: int, pile: int, top: int) -> int:
    """Distance moved along the pile's direction (-10 for the backwards trick)."""
    return card - top if pile < 2 else top - card


def fits(card: int, pile: int, top: int) -> bool:
    if pile < 2:
        return card > top or card == top - 10
    return card < top or card == top + 10


class GreedyAgent(Agent):
    """Plays the smallest jump available (the backwards trick first) until it has played its
    minimum (G4), then keeps playing only while the smallest jump is at most ``extra_jump``."""

    uses_observation = False  # reads the view only

    name = "greedy"

    def __init__(self, extra_jump: int = 2, seed: int | None = None) -> None:
        super().__init__(seed)
        self.extra_jump = extra_jump

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: TheGameView) -> int:
        tops = view["tops"]
        best_key, best = None, END
        for c in view["hand"]:
            for p in range(NUM_PILES):
                t = tops[p]
                if fits(c, p, t):
                    key = (jump(c, p, t), c, p)
                    if best_key is None or key < best_key:
                        best_key, best = key, play_action(c, p)
        if view["played_this_turn"] < view["minimum"]:
            return best
        if best_key is not None and best_key[0] <= self.extra_jump:
            return best
        return END


class PlannerAgent(Agent):
    """Searches the order of its own plays this turn and picks the cheapest plan.

    A plan is a sequence of plays meeting the minimum (G4), scored by the sum of its play costs
    minus ``bonus`` per card played, so extra cards go only when they cost less than ``bonus``.
    A play's cost is the open cards it jumps over, plus ``dead_weight`` for each of them that no
    other pile takes any more (only a backwards trick can save it) and ``last_weight`` for each
    that only one other pile still takes; the backwards trick (G5) costs minus the open cards it
    reopens. The search is depth-first with a memory of the positions reached (hand, tops): on
    each pile it tries the cheapest card, the trick card and cards that set up a trick with
    another card in hand (a bigger jump onto the same pile is never cheaper); past the minimum
    it only extends with cheap plays or trick set-ups. ``max_nodes`` bounds the search.

    With signals on (G11) it charges ``wait_penalty`` / ``help_penalty`` for a costly play on a
    pile where a partner who still holds cards signals ``wait`` / ``help``; before ending its
    turn it signals, per pile, ``wait`` when its hand holds a card costing at most ``wait_cost``
    there, ``help`` at most ``help_cost``, else ``none``. The plan is computed once per turn and
    replayed while the position is the one it expects.
    """

    uses_observation = False  # reads the view only

    name = "planner"

    def __init__(
        self,
        bonus: float = 1.5,
        dead_weight: float = 5.0,
        last_weight: float = 1.0,
        wait_penalty: float = 4.0,
        help_penalty: float = 2.0,
        wait_cost: int = 2,
        help_cost: int = 5,
        max_nodes: int = 120,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.bonus = bonus
        self.dead_weight = dead_weight
        self.last_weight = last_weight
        self.wait_penalty = wait_penalty
        self.help_penalty = help_penalty
        self.wait_cost = wait_cost
        self.help_cost = help_cost
        self.max_nodes = max_nodes
        self._plan: list[tuple[tuple, int]] = []

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._plan = []

    # ---- decision ----------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: TheGameView) -> int:
        key = self._key(view["hand"], view["tops"], view["played_this_turn"], view)
        if self._plan and self._plan[0][0] == key and action_mask[self._plan[0][1]]:
            action = self._plan[0][1]
            self._plan = self._plan[1:]  # rebound, never mutated: copies of an agent share nothing
            return action
        plan = self.plan_turn(view)
        if not plan or not action_mask[plan[0][1]]:  # cannot happen with a consistent view
            legal = np.flatnonzero(action_mask)
            return int(legal[0])
        self._plan = plan[1:]
        return plan[0][1]

    @staticmethod
    def _key(hand: list[int], tops: list[int], played: int, view: TheGameView) -> tuple:
        return (tuple(hand), tuple(tops), played, tuple(view["signals"][view["seat"]]))

    # ---- planning ------------------------------------------------------------------------------
    def pile_penalties(self, view: TheGameView) -> list[float]:
        """Extra cost of a costly play on each pile, from partners' public signals (G11)."""
        pen = [0.0] * NUM_PILES
        if not view["signals_on"]:
            return pen
        me = view["seat"]
        for s, row in enumerate(view["signals"]):
            if s == me or not view["hand_sizes"][s]:
                continue
            for p, sig in enumerate(row):
                if sig == "wait":
                    pen[p] = max(pen[p], self.wait_penalty)
                elif sig == "help":
                    pen[p] = max(pen[p], self.help_penalty)
        return pen

    def plan_turn(self, view: TheGameView) -> list[tuple[tuple, int]]:
        """The rest of this turn as ``[(expected key, action), ...]``, ending with ``end``."""
        hand = list(view["hand"])
        tops = list(view["tops"])
        played = view["played_this_turn"]
        need = max(view["minimum"] - played, 0)
        bonus = self.bonus
        plays = self.search(hand, tops, open_cards(view), need, bonus, self.pile_penalties(view))
        plan: list[tuple[tuple, int]] = []
        for c, p in plays:
            plan.append((self._key(hand, tops, played, view), play_action(c, p)))
            hand.remove(c)
            tops[p] = c
            played += 1
        if played < view["minimum"]:
            return plan  # stuck: the game ends after these plays (G9)
        if view["signals_on"]:
            signals = list(view["signals"][view["seat"]])
            changed = view["signal_changed"]
            wanted = self.wanted_signals(hand, tops, open_cards(view) & ~_mask(c for c, _ in plays))
            for p in range(NUM_PILES):
                if wanted[p] != signals[p] and not changed[p]:
                    key = (tuple(hand), tuple(tops), played, tuple(signals))
                    plan.append((key, signal_action(p, SIGNAL_NAMES.index(wanted[p]))))
                    signals[p] = wanted[p]
            plan.append(((tuple(hand), tuple(tops), played, tuple(signals)), END))
        else:
            plan.append((self._key(hand, tops, played, view), END))
        return plan

    def wanted_signals(self, hand: list[int], tops: list[int], opened: int) -> list[str]:
        out = []
        for p in range(NUM_PILES):
            best = min(
                (play_cost(c, p, tops[p], opened) for c in hand if fits(c, p, tops[p])),
                default=None,
            )
            if best is None:
                out.append("none")
            elif best <= self.wait_cost:
                out.append("wait")
            elif best <= self.help_cost:
                out.append("help")
            else:
                out.append("none")
        return out

    def search(
        self,
        hand: list[int],
        tops: list[int],
        opened: int,
        need: int,
        bonus: float,
        penalty: list[float],
    ) -> list[tuple[int, int]]:
        """The cheapest sequence of (card, pile) plays with at least ``need`` plays (or the longest
        one possible when none reaches it)."""
        dead_weight = self.dead_weight
        last_weight = self.last_weight
        best_val = [_INF]
        best_seq: list[list[tuple[int, int]]] = [[]]
        fallback: list[Any] = [(-1, _INF), []]  # (plays, cost), seq: when need cannot be met
        seen: dict[tuple, float] = {}
        nodes = [0]
        max_nodes = self.max_nodes

        def dfs(h: list[int], t: list[int], op: int, n: int, cost: float, seq: list) -> None:
            nodes[0] += 1
            mv = sorted(_moves(h, t, op, penalty, dead_weight, last_weight)) if h else []
            if n >= need:
                val = cost - bonus * n
                if val < best_val[0]:
                    best_val[0] = val
                    best_seq[0] = list(seq)
            elif (n, -cost) > (fallback[0][0], -fallback[0][1]):
                fallback[0] = (n, cost)
                fallback[1] = list(seq)
            if nodes[0] >= max_nodes or not h:
                return
            key = (tuple(h), tuple(t))
            prev = seen.get(key)
            if prev is not None and prev <= cost:
                return
            seen[key] = cost
            for k, c, p, setup in mv:
                if n >= need and k >= bonus and not setup:
                    continue  # an extra play only when cheap, or to set up a trick
                h2 = list(h)
                h2.remove(c)
                t2 = list(t)
                t2[p] = c
                seq.append((c, p))
                dfs(h2, t2, op & ~(1 << c), n + 1, cost + k, seq)
                seq.pop()

        dfs(sorted(hand), list(tops), opened, 0, 0.0, [])
        if best_val[0] < _INF:
            return best_seq[0]
        return fallback[1]


def _moves(
    h: list[int],
    t: list[int],
    op: int,
    penalty: list[float],
    dead_weight: float,
    last_weight: float,
) -> list[tuple[float, int, int, bool]]:
    """The plays from hand ``h`` (sorted) onto tops ``t``, each (cost, card, pile, sets up a
    trick); ``op``: the open cards (a bit per card) whose jumping over costs."""
    out = []
    hs = set(h)
    t0, t1, t2, t3 = t
    # open cards each pile still takes (tricks aside)
    fit = (~((1 << (t0 + 1)) - 1), ~((1 << (t1 + 1)) - 1), (1 << t2) - 1, (1 << t3) - 1)
    for p in range(NUM_PILES):
        top = t[p]
        if p < 2:
            i = bisect_right(h, top)
            cands = {c for c in h[i + 1 :] if c - 10 in hs}  # set up a trick
            if i < len(h):
                cands.add(h[i])
            if top - 10 in hs:
                cands.add(top - 10)
            step = -10
        else:
            i = bisect_left(h, top)
            cands = {c for c in h[: max(i - 1, 0)] if c + 10 in hs}
            if i > 0:
                cands.add(h[i - 1])
            if top + 10 in hs:
                cands.add(top + 10)
            step = 10
        if not cands:
            continue
        fa, fb, fc = fit[:p] + fit[p + 1 :]
        one = fa | fb | fc  # another pile takes it
        only = one & ~((fa & fb) | (fa & fc) | (fb & fc))  # exactly one other pile
        pen = penalty[p]
        for c in cands:
            # cards jumped over (forward) or reopened by a trick (backward)
            forward = c > top if p < 2 else c < top
            lo, hi = (top, c) if (p < 2) == forward else (c, top)
            between = op & (((1 << hi) - 1) ^ ((1 << (lo + 1)) - 1))
            k: float = between.bit_count()
            if k:
                k += dead_weight * (between & ~one).bit_count()
                k += last_weight * (between & only).bit_count()
                k = k + pen if forward else -k
            out.append((k, c, p, c + step in hs))
    return out


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


#: scripted baselines, weakest first (``agents.make_agent("thegame", name)``)
BASELINES = {"greedy": GreedyAgent, "planner": PlannerAgent}
