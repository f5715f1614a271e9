"""A scripted Suicidium player that reads the mode from its view (rules: docs/rules/suicidium.md).

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

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.suicidium.rules import (
    AMOUNT,
    DISCARD0,
    DRAW0,
    E_CANCEL_ANY,
    E_CANCEL_EVENT,
    E_CANCEL_POINTS,
    E_DISCARD_RANDOM,
    E_DOUBLE,
    E_DRAW,
    E_DRAW_DISCARD,
    E_EXCHANGE_HANDS,
    E_PEEK,
    E_POINTS_ALL,
    E_POINTS_GAIN_LOSS,
    E_POINTS_ONE,
    E_POINTS_OPPONENTS,
    E_RECOVER,
    E_REDIRECT,
    E_SHIELD,
    E_SKIP_DRAW,
    E_SKIP_MAIN,
    E_STEAL_PLAYED,
    E_STEAL_RANDOM,
    EFFECT,
    ID_TO_CARD,
    KIND,
    ON0,
    PASS,
    PLAY0,
    POINTS,
    RESPONSE,
    TAKE0,
    TARGET0,
    fits_target,
)
from cardarena.envs.suicidium.views import SuicidiumView, TableEntryView

CANCEL_FITS = {E_CANCEL_POINTS, E_CANCEL_EVENT, E_CANCEL_ANY}
HARMFUL_HAND_EFFECTS = {E_DISCARD_RANDOM, E_DRAW_DISCARD, E_STEAL_RANDOM, E_EXCHANGE_HANDS, E_PEEK}


class HeuristicAgent(Agent):
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
        super().__init__(seed)
        self.play_threshold = play_threshold
        #: SURVIVE: draw down to this much WP at most (10: only the one card of U9 when nothing
        #: is worth playing). Measured, 4-player tables, 4,000 games each: the old margin 5
        #: (draw while WP > 5) wins 0.221 in one seat against three of margin 8, and margin 10
        #: 0.311 against three of margin 5, 0.275 against three of margin 8
        #: (``bench/baseline_settings.py``; ``tests/test_suicidium_agents.py`` checks it).
        self.draw_margin = draw_margin
        #: DEPRESSION: worth of one WP gained by an opponent, against 1 for one WP I lose. Measured
        #: as above: 0.3 wins 0.267 against three of the former 0.6, 0.6 wins 0.240 against three
        #: of 0.3 (0.0 and 0.15: 0.257, 0.262; 1.0: 0.244).
        self.lift_weight = lift_weight
        self.plan: list[int] = []  # follow-up actions of the card being played

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.plan = []

    # ---- values ------------------------------------------------------------------------------
    def seat_value(self, v: SuicidiumView, s: int, before: int, after: int) -> float:
        """What a WP change of seat ``s`` from ``before`` to ``after`` is worth to me."""
        me = v["seat"]
        diff = after - before
        zero = after <= 0
        risk = 0.3 + v["match_chance"][s]
        if v["mode"] == "SURVIVE":
            if s == me:
                return diff - (12.0 * risk if zero else 0.0)
            weak = 1.0 + (10 - before) / 20.0  # the weakest is the best target
            return -0.6 * diff * weak + (6.0 * risk if zero else 0.0)
        if s == me:
            return -diff + (6.0 + 12.0 * v["match_chance"][me] if zero else 0.0)
        return self.lift_weight * diff - (6.0 + 12.0 * v["match_chance"][s] if zero else 0.0)

    def changes_value(self, v: SuicidiumView, changes: list[tuple[int, int]]) -> float:
        wp = list(v["wp"])
        total = 0.0
        for s, delta in changes:
            if not v["in_game"][s] or (delta < 0 and self.shielded(v, s)):
                continue
            before = wp[s]
            after = max(0, min(10, before + delta))
            wp[s] = after if after > 0 else 10
            total += self.seat_value(v, s, before, after)
        return total

    @staticmethod
    def shielded(v: SuicidiumView, s: int) -> bool:
        return any(x["effect"] == "shield" for x in v["lasting"][s])

    @staticmethod
    def points_changes(card: int, seats: list[int], mult: int = 1) -> list[tuple[int, int]]:
        amount = AMOUNT[card] * mult
        if EFFECT[card] == E_POINTS_GAIN_LOSS:
            return [(s, amount if k == 0 else -amount) for k, s in enumerate(seats)]
        return [(s, amount) for s in seats]

    def live(self, v: SuicidiumView) -> list[int]:
        return [s for s in range(v["num_players"]) if v["in_game"][s]]

    def opponents(self, v: SuicidiumView) -> list[int]:
        return [s for s in self.live(v) if s != v["seat"]]

    def event_value(self, v: SuicidiumView, card: int, target: int, player: int) -> float:
        """Value to me of EVENT ``card`` of ``player`` landing on ``target``."""
        me = v["seat"]
        survive = v["mode"] == "SURVIVE"
        eff = EFFECT[card]
        if eff == E_SKIP_MAIN:
            if target == me:
                return -1.5
            return 1.2 if not survive else 0.8
        if eff == E_SKIP_DRAW:
            if target == me:
                return -0.8 if survive else 0.3
            return 0.4 if survive else -0.3
        if eff == E_SHIELD:
            if survive:
                return (2.5 - v["wp"][me] / 5.0) if target == me else -0.3
            return -2.0 if target == me else (1.5 - v["wp"][target] / 10.0)
        if eff in (E_DRAW, E_RECOVER):
            gain = 0.8 * (AMOUNT[card] or 1)
            return gain if target == me else -0.3 * gain
        if eff in HARMFUL_HAND_EFFECTS:
            if target == me:
                return -1.5
            if player != me:
                return 0.0
            size = v["hand_sizes"][target]
            if eff == E_EXCHANGE_HANDS:
                return 0.6 * (size - len(v["hand"])) - 0.5
            if eff == E_PEEK:
                return 0.2
            if eff == E_STEAL_RANDOM:
                return 1.2 if size else 0.0
            return (0.4 + 0.2 * min(size, AMOUNT[card] or 1)) if size else 0.0
        return 0.0

    def entry_value(
        self, v: SuicidiumView, entry: TableEntryView, mult: int | None = None
    ) -> float:
        """Value to me of a main table card resolving with its current responses."""
        card = ID_TO_CARD[entry["card"]]
        seats = entry.get("recipients", entry["seats"])
        if KIND[card] == POINTS:
            m = entry.get("multiplier", 1) if mult is None else mult
            return self.changes_value(v, self.points_changes(card, seats, m))
        return self.event_value(v, card, seats[0] if seats else entry["player"], entry["player"])

    def keep_value(self, v: SuicidiumView, card: int) -> float:
        """How much a card in hand is worth keeping (discard choices, time machine)."""
        eff = EFFECT[card]
        a = abs(AMOUNT[card])
        n_opp = max(1, len(self.opponents(v)))
        survive = v["mode"] == "SURVIVE"
        if KIND[card] == POINTS:
            if eff == E_POINTS_ONE:
                return a
            if eff == E_POINTS_OPPONENTS:
                return a * n_opp * (0.8 if survive else 0.1)
            if eff == E_POINTS_ALL:
                return 0.5
            if eff == E_POINTS_GAIN_LOSS:
                return 1.2 * a
            return 0.6 * a
        if KIND[card] == RESPONSE:
            if eff in CANCEL_FITS:
                return 2.5 if eff == E_CANCEL_ANY else 2.0
            return 1.5 if eff in (E_DOUBLE, E_REDIRECT) else 1.0
        return 1.5

    # ---- choosing ------------------------------------------------------------------------------
    def best_play(self, v: SuicidiumView, card: int) -> tuple[float, list[int]]:
        """Best value of playing ``card`` now and the follow-up actions (targets) it needs."""
        me = v["seat"]
        eff = EFFECT[card]
        live, opps = self.live(v), self.opponents(v)
        if KIND[card] == POINTS:
            if eff == E_POINTS_OPPONENTS:
                return self.changes_value(v, self.points_changes(card, opps)), []
            if eff == E_POINTS_ALL:
                return self.changes_value(v, self.points_changes(card, live)), []
            pool = live if eff == E_POINTS_ONE else opps
            best: tuple[float, list[int]] = (-1e9, [])
            for t in pool:
                seats = [t] if eff == E_POINTS_ONE else [me, t]
                val = self.changes_value(v, self.points_changes(card, seats))
                if val > best[0]:
                    best = (val, [TARGET0 + t])
            return best
        if KIND[card] == RESPONSE:
            return self.best_response(v, card)
        if eff in (E_DRAW, E_RECOVER):
            if eff == E_RECOVER and not v["takeable"]:
                return 0.0, []
            return self.event_value(v, card, me, me), []
        pool = live if eff == E_SHIELD else opps
        best = (-1e9, [])
        for t in pool:
            val = self.event_value(v, card, t, me)
            if val > best[0]:
                best = (val, [TARGET0 + t])
        return best

    def best_response(self, v: SuicidiumView, card: int) -> tuple[float, list[int]]:
        """Best use of RESPONSE ``card`` on the table: (gain, [on ..., targets ...])."""
        eff = EFFECT[card]
        table = v["table"]
        by_index = {e["index"]: e for e in table}
        best: tuple[float, list[int]] = (-1e9, [])
        for e in table:
            target = ID_TO_CARD[e["card"]]
            if not fits_target(card, target):
                continue
            gain = -1e9
            plan = [ON0 + target]
            if eff in CANCEL_FITS:
                if e["target"] is None:  # a main card: cancel what hurts me
                    gain = -self.entry_value(v, e) if e["works"] else -1e9
                elif EFFECT[target] in CANCEL_FITS and e["works"]:  # restore what it cancels
                    victim = by_index.get(e["target_index"])
                    if victim is not None and victim["target"] is None:
                        gain = self.entry_value(v, victim)
                elif e["works"]:
                    gain = 0.5 if e["player"] != v["seat"] else -1.0
            elif eff == E_DOUBLE:
                if e["works"] and KIND[target] == POINTS:
                    gain = self.changes_value(v, self.points_changes(target, e["recipients"]))
            elif eff == E_REDIRECT:
                gain, seats = self.best_redirect(v, e, target)
                plan += [TARGET0 + s for s in seats]
            elif eff == E_STEAL_PLAYED:
                gain = 0.3 * self.keep_value(v, target)
            if gain > best[0]:
                best = (gain, plan)
        return best

    def best_redirect(
        self, v: SuicidiumView, e: TableEntryView, target: int
    ) -> tuple[float, list[int]]:
        if not e["works"]:
            return -1e9, []
        now = self.entry_value(v, e)
        live = self.live(v)
        slots = len(e["seats"])
        if KIND[target] == POINTS:
            seats: list[int] = []
            for k in range(slots):
                base = self.points_changes(target, e["recipients"], e["multiplier"])[k][1]
                seats.append(max(live, key=lambda s: self.changes_value(v, [(s, base)])))
            val = self.changes_value(
                v,
                [
                    (s, d)
                    for s, (_, d) in zip(
                        seats, self.points_changes(target, seats, e["multiplier"]), strict=True
                    )
                ],
            )
            return val - now, seats
        best_seat = max(live, key=lambda s: self.event_value(v, target, s, e["player"]))
        return self.event_value(v, target, best_seat, e["player"]) - now, [best_seat]

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: SuicidiumView) -> int:
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

    def choose_draw(self, v: SuicidiumView, legal: list[int]) -> int:
        draws = [a - DRAW0 for a in legal if DRAW0 <= a < DRAW0 + 8]
        swaps = [a for a in legal if a >= DISCARD0]
        me = v["seat"]
        if v["mode"] == "SURVIVE":
            want = max(0, v["wp"][me] - self.draw_margin)
            if not v["skip_main_now"] and not any(
                self.best_play(v, ID_TO_CARD[c])[0] > self.play_threshold for c in v["hand"]
            ):
                want = max(want, 1)
        else:
            want = 0
            lowest = min((v["wp"][s] for s in self.opponents(v)), default=10)
            if lowest > 3 and len(v["hand"]) < 2:
                want = 1
        fitting = [k for k in draws if k <= want]
        if fitting:
            return DRAW0 + max(fitting)
        if draws and (not swaps or min(draws) >= 1):
            return DRAW0 + min(draws)
        if swaps:
            return min(swaps, key=lambda a: self.keep_value(v, a - DISCARD0))
        return legal[0]

    def choose_play(self, v: SuicidiumView, legal: list[int], main: bool) -> int:
        best_val, best_action, best_plan = -1e9, PASS, []
        for a in legal:
            if a == PASS:
                continue
            card = a - PLAY0
            val, plan = self.best_play(v, card)
            if KIND[card] == RESPONSE:
                val -= 0.5 * self.keep_value(v, card) / 2.5  # keep responses for what matters
            if val > best_val:
                best_val, best_action, best_plan = val, a, plan
        threshold = self.play_threshold if main else 1.0
        if PASS in legal and best_val <= threshold:
            return PASS
        self.plan = list(best_plan)
        return best_action


#: scripted baselines, weakest first (``agents.make_agent("suicidium", name)``)
BASELINES = {"heuristic": HeuristicAgent}
