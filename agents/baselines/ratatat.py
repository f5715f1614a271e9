"""Scripted Ratatat players: a greedy memory player and a Bayesian tracker.

Both read only the seat's ``view`` (``envs.ratatat.encoding.view``): the slots it knows (R17), the
cards it has not seen (``unseen``, deck minus every visible card) and the public state (R18).
Actions are those of ``envs.ratatat.rules`` (``draw``, ``slot K``, ``swap K N J``, ...).

* ``greedy``: values an unknown slot at 5 (about the deck's mean number), takes or keeps low cards
  to replace its highest known card, peeks its unknown slots, swaps a known high card away, and
  knocks when its estimated total is low.
* ``tracker``: values an unknown slot at the mean of the number cards it has not seen (a special
  left in a row is replaced by such a card at scoring, R14), prices every choice by its expected
  change of the round score (drawing: the expectation over the unseen cards; DRAW_TWO: keep or
  redraw by the same expectation), never hands a low card to the next player without need,
  swaps its worst card for the opponent card it expects lowest, and knocks when its expected
  total beats every opponent's by a margin that covers their last turns (expected advantage).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.ratatat.rules import (
    DISCARD,
    DRAW,
    KNOCK,
    NO_KNOCK,
    PEEK0,
    REDRAW,
    SLOT0,
    TAKE_DISCARD,
    USE,
    swap_action,
)
from cardarena.envs.ratatat.views import RatatatView

SPECIALS = ("SWAP", "PEEK", "DRAW_TWO")
DIGITS = tuple(str(v) for v in range(10))


def number_mean(unseen: dict[str, int]) -> float:
    """Mean value of the number cards not seen yet (what an unknown slot is worth)."""
    total = sum(unseen[c] for c in DIGITS)
    if total <= 0:
        return 4.5
    return sum(v * unseen[c] for v, c in enumerate(DIGITS)) / total


def draw_odds(unseen: dict[str, int]) -> dict[str, float]:
    """Probability of each code on the next draw: the unseen cards, uniformly."""
    total = sum(unseen.values())
    if total <= 0:
        return {}
    return {c: n / total for c, n in unseen.items() if n > 0}


class _MemoryAgent(Agent):
    """Shared reading of the view: estimated values of every slot."""

    uses_observation = False  # reads the view only

    unknown_value: float | None = None  # None: the mean of the unseen numbers

    def estimates(self, view: RatatatView) -> list[list[float]]:
        mean = number_mean(view["unseen"]) if self.unknown_value is None else self.unknown_value
        out = []
        for row in view["rows"]:
            out.append([mean if c is None or c in SPECIALS else float(c) for c in row])
        return out

    @staticmethod
    def legal(action_mask: np.ndarray, action: int) -> bool:
        return bool(action_mask[action])

    def fallback(self, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


class GreedyAgent(_MemoryAgent):
    """Replaces known high cards with low ones, peeks unknown slots, knocks on a low estimate."""

    unknown_value = 5.0

    def __init__(self, knock_at: float = 11.0, seed: int | None = None) -> None:
        super().__init__(seed)
        self.knock_at = knock_at
        self.name = "greedy"

    def _worst_known(self, row: list[str | None]) -> tuple[int, int]:
        """(slot, value) of the highest known number card in the row (-1, -1 if none)."""
        best, value = -1, -1
        for k, c in enumerate(row):
            if c is not None and c not in SPECIALS and int(c) > value:
                best, value = k, int(c)
        return best, value

    def _target_slot(self, row: list[str | None], v: int) -> int | None:
        """Where a card of value v goes: over a known card 2+ higher, or an unknown slot if low."""
        k, worst = self._worst_known(row)
        if k >= 0 and worst >= v + 2:
            return k
        unknown = [k for k, c in enumerate(row) if c is None or c in SPECIALS]
        if unknown and v <= 3:
            return unknown[0]
        return None

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: RatatatView) -> int:
        me = view["seat"]
        row = view["rows"][me]
        decision = view["decision"]
        if decision == "turn":
            top = view["top_discard"]
            if self.legal(action_mask, TAKE_DISCARD) and top in DIGITS:
                if self._target_slot(row, int(top)) is not None and int(top) <= 3:
                    return TAKE_DISCARD
            return DRAW
        if decision == "take_slot":
            target = self._target_slot(row, int(view["held"]))  # type: ignore[arg-type]
            if target is None:
                k, _ = self._worst_known(row)
                target = k if k >= 0 else 0
            return SLOT0 + target
        if decision in ("drawn_card", "draw_two_extra"):
            card: str = view["held"]  # type: ignore[assignment]  # the drawn card: seen
            return self._drawn(row, card, decision == "draw_two_extra")
        if decision == "peek":
            unknown = [k for k, c in enumerate(row) if c is None]
            return PEEK0 + (unknown[0] if unknown else 0)
        if decision == "swap":
            return self._swap(view, row, me)
        if decision == "knock":
            total = sum(self.estimates(view)[me])
            return KNOCK if total <= self.knock_at else NO_KNOCK
        return self.fallback(action_mask)

    def _drawn(self, row: list[str | None], card: str, extra: bool) -> int:
        """What to do with the card just drawn (``extra``: the first of a DRAW_TWO)."""
        if card in SPECIALS:
            if card == "PEEK" and any(c is None for c in row):
                return USE
            if card == "SWAP" and self._worst_known(row)[1] >= 6:
                return USE
            if card == "DRAW_TWO":
                return USE
            return DISCARD
        target = self._target_slot(row, int(card))
        if target is not None:
            return SLOT0 + target
        if extra and int(card) >= 5:
            return REDRAW
        return DISCARD

    def _swap(self, view: RatatatView, row: list[str | None], me: int) -> int:
        """SWAP the worst known own card for the lowest digit seen elsewhere (3 or less), else a
        random other seat's random slot."""
        k, _ = self._worst_known(row)
        if k < 0:
            k = 0
        best = None
        for other, orow in enumerate(view["rows"]):
            if other == me:
                continue
            for j, c in enumerate(orow):
                if c in DIGITS and (best is None or int(c) < best[0]):
                    best = (int(c), other, j)
        if best is not None and best[0] <= 3:
            return swap_action(k, best[1], best[2])
        others = [s for s in range(view["num_players"]) if s != me]
        other = others[int(self.rng.integers(len(others)))]
        return swap_action(k, other, int(self.rng.integers(4)))


class TrackerAgent(_MemoryAgent):
    """Expected-value player over the unseen cards; knocks on an expected advantage."""

    def __init__(
        self,
        knock_margin: float = 7.0,
        peek_value: float = 1.5,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.knock_margin = knock_margin
        self.peek_value = peek_value
        self.name = "tracker"

    # ---- pricing ------------------------------------------------------------------------------
    def _context(self, view: RatatatView) -> dict[str, Any]:
        me = view["seat"]
        est = self.estimates(view)
        mean = number_mean(view["unseen"])
        # an opponent's slot its owner knows and kept is probably low (it replaces high cards)
        opp = []
        for s, row in enumerate(view["rows"]):
            if s == me:
                continue
            for j, c in enumerate(row):
                if c in DIGITS:
                    value = float(c)
                elif c is None and view["owner_knows"][s][j]:
                    value = mean - 1.5
                else:
                    value = mean
                opp.append((value, s, j))
        return {"me": me, "own": est[me], "est": est, "mean": mean, "opp": opp}

    @staticmethod
    def _best_slot(own: list[float], v: float) -> tuple[int, float]:
        k = max(range(len(own)), key=lambda i: (own[i], -i))
        return k, own[k] - v

    def _give_away_cost(self, v: int, view: RatatatView) -> float:
        """Discarding a low card offers it to the next player (R6 A)."""
        if view.get("knocker") is not None and not any(
            view["owes_last_turn"][s] for s in range(view["num_players"]) if s != view["seat"]
        ):
            return 0.0
        return max(0.0, 3.5 - v) * 0.4

    def _swap_gain(self, ctx: dict[str, Any]) -> tuple[float, int, int, int]:
        own = ctx["own"]
        k = max(range(4), key=lambda i: (own[i], -i))
        value, s, j = min(ctx["opp"], key=lambda t: (t[0], t[1], t[2]))
        # my gain, plus the same loss for the opponent (the ranking is what counts)
        return (own[k] - value) * 1.5, k, s, j

    def _card_value(self, code: str, ctx: dict[str, Any], view: RatatatView) -> float:
        """Value (expected round-score decrease) of the best use of a card now in hand."""
        if code in DIGITS:
            _, gain = self._best_slot(ctx["own"], float(code))
            return max(gain, -self._give_away_cost(int(code), view))
        if code == "SWAP":
            return max(self._swap_gain(ctx)[0], 0.0)
        if code == "PEEK":
            unknown = sum(c is None for c in view["rows"][ctx["me"]])
            return self.peek_value if unknown else 0.0
        return self._draw_value(ctx, view, depth=1)  # DRAW_TWO: at least one more draw

    def _draw_value(self, ctx: dict[str, Any], view: RatatatView, depth: int = 0) -> float:
        total = 0.0
        for code, p in draw_odds(view["unseen"]).items():
            if code == "DRAW_TWO":
                total += p * (0.5 if depth else self._draw_value(ctx, view, depth + 1))
            else:
                total += p * self._card_value(code, ctx, view)
        return total

    # ---- decisions ------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: RatatatView) -> int:
        decision = view["decision"]
        ctx = self._context(view)
        own = ctx["own"]
        if decision == "turn":
            top = view["top_discard"]
            if self.legal(action_mask, TAKE_DISCARD) and top in DIGITS:
                _, gain = self._best_slot(own, float(top))
                if gain > 0 and gain >= self._draw_value(ctx, view) - 0.25:
                    return TAKE_DISCARD
            return DRAW
        if decision == "take_slot":
            k, _ = self._best_slot(own, float(view["held"]))  # type: ignore[arg-type]
            return SLOT0 + k
        if decision in ("drawn_card", "draw_two_extra"):
            held: str = view["held"]  # type: ignore[assignment]  # the drawn card: seen
            return self._handle(held, ctx, view, decision == "draw_two_extra")
        if decision == "peek":
            row = view["rows"][ctx["me"]]
            unknown = [k for k, c in enumerate(row) if c is None]
            return PEEK0 + (unknown[0] if unknown else 0)
        if decision == "swap":
            _, k, s, j = self._swap_gain(ctx)
            return swap_action(k, s, j)
        if decision == "knock":
            return KNOCK if self._should_knock(ctx, view) else NO_KNOCK
        return self.fallback(action_mask)

    def _handle(self, code: str, ctx: dict[str, Any], view: RatatatView, extra: bool) -> int:
        redraw = self._draw_value(ctx, view) if extra else None
        if code in DIGITS:
            k, gain = self._best_slot(ctx["own"], float(code))
            keep = gain if gain > 0 else -self._give_away_cost(int(code), view)
            if redraw is not None and redraw - self._give_away_cost(int(code), view) > keep:
                return REDRAW
            return SLOT0 + k if gain > 0 else DISCARD
        value = self._card_value(code, ctx, view)
        if redraw is not None and redraw > value:
            return REDRAW
        if code == "SWAP":
            return USE if self._swap_gain(ctx)[0] > 0.5 else DISCARD
        if code == "PEEK":
            return USE if value > 0 else DISCARD
        return USE  # DRAW_TWO

    def _should_knock(self, ctx: dict[str, Any], view: RatatatView) -> bool:
        me = ctx["me"]
        mine = sum(ctx["own"])
        unknown = sum(c is None for c in view["rows"][me])
        others = []
        for s, row in enumerate(view["rows"]):
            if s == me:
                continue
            value = 0.0
            for j, c in enumerate(row):
                if c in DIGITS:
                    value += float(c)
                elif c is None and view["owner_knows"][s][j]:
                    value += ctx["mean"] - 1.5
                else:
                    value += ctx["mean"]
            others.append(value)
        # each opponent still improves on its last turn; unknown own slots add risk
        margin = self.knock_margin + 0.75 * unknown
        return mine + margin <= min(others) or mine <= 4.0


#: scripted baselines, weakest first (``agents.make_agent("ratatat", name)``)
BASELINES = {"greedy": GreedyAgent, "tracker": TrackerAgent}
