"""The Game played open-handed: a search over the whole deal with perfect information.

The Game is cooperative: the team wins when all 98 cards are on the four piles (rule G8) and
scores the cards it did not play otherwise (G10). :class:`OpenHandSolver` sees what no seat of
the real game sees: every hand and the order of the draw pile. It searches the whole deal for
the line of play (the team's plays and turn ends, through every seat) that leaves the fewest
cards, so it tells whether a deal is winnable at all, and how close to a win it is when not.
That is the game's ceiling: no team of legal players, which see only their own hands, can do
better on a deal than the best line of that deal.

The rules it plays are the engine's (``envs/thegame/rules.py``): a turn plays cards one at a
time, 2 at least while the draw pile lasts and then ``min_cards_when_empty`` (G4); a card goes
on an ascending pile when it is higher than the top or exactly 10 lower, on a descending pile
when it is lower or exactly 10 higher (G5, the "back by ten" move); the player draws back up to
its hand size at the end of its turn (G6); seats without cards are skipped (G7); the game is
lost the moment the current player still owes a card and none of its cards fits (G9). Signals
(G11) change nothing a perfect-information team needs and are never played.

The search is depth-first over decisions (a play, or ending the turn once the minimum is met):

* move ordering, planner-like: the back-by-ten moves first (they reopen the pile), then the
  plays by the open cards they jump over (cards in some hand or the draw pile lying between the
  top and the card: they can no longer go on that pile), smallest first; once the minimum is
  met, ending the turn comes right after the plays that jump over at most ``end_cost`` open
  cards;
* a transposition table on a canonical key (the two ascending piles' tops as a sorted pair, the
  same for the descending ones; every hand; how far the draw pile has gone; whose turn; the
  cards still owed this turn): a position whose subtree was searched is never searched again;
* branch and bound by a dominance argument: an open card is *dead* when no pile can ever take
  it again (an ascending pile takes every card above the lowest top it can still reach, and
  its top goes down only by back-by-ten moves: to a card 10 below the top, or 10 below an open
  card above it, and so on; the mirror on a descending pile), so a position with k dead cards
  leaves k cards at least whatever is played. A position whose dead cards are at least the
  best line found is cut;
* a node budget (``max_nodes``): past it the search stops and says so.

Three outcomes (:class:`OpenResult`): ``winnable`` (a line playing all 98 cards, found),
``not_winnable`` (the search finished: no line wins, and the best line found is the optimum),
``unknown`` (the budget ran out first; the best line found is only an upper bound on the
optimum). The line is a list of engine actions that :func:`replay` applies to the deal, so a
test checks the engine's own verdict on it.

:class:`OpenHandAgent` (spec ``open_hand``) plays the line the solver finds. It is not a legal
player (``legal_player = False``): it must be handed the true state (``see``), which no seat
may look at; it is there to measure the ceiling (:func:`play_open_hand`), not to play tables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.thegame.rules import END, MIN_CARDS, NUM_CARDS, TheGame, TheGameState

#: the outcomes of a search
WINNABLE, NOT_WINNABLE, UNKNOWN = "winnable", "not_winnable", "unknown"
BACK = 10  # G5: the back-by-ten move


@dataclass
class OpenResult:
    """What :meth:`OpenHandSolver.solve` found on one deal.

    ``cards_left``: cards not played on the best line found (0: won); the optimum when
    ``status`` is not ``unknown``; None when the budget ran out before any line ended. ``line``: that line's engine actions from the state solved.
    ``nodes``: decisions searched; ``seconds``: CPU time of the search."""

    status: str
    cards_left: int | None
    line: list[int] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class _OutOfBudget(Exception):
    pass


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask`` (card values), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def fits_any(hand: int, tops: list[int]) -> bool:
    """Whether some card of the bitmask ``hand`` fits some pile (G5)."""
    t0, t1, t2, t3 = tops
    low = t0 if t0 < t1 else t1
    high = t2 if t2 > t3 else t3
    if hand >> (low + 1) or hand & ((1 << high) - 1):
        return True
    back = (1 << (t0 - BACK) if t0 > BACK else 0) | (1 << (t1 - BACK) if t1 > BACK else 0)
    back |= (1 << (t2 + BACK) if t2 + BACK < 100 else 0) | (
        1 << (t3 + BACK) if t3 + BACK < 100 else 0
    )
    return bool(hand & back)


def reach(open_cards: int, pile: int, top: int) -> int:
    """The open cards (bitmask) that ``pile`` with ``top`` can still take, some of them first:
    on an ascending pile every card above the lowest top it can reach, which goes down by
    back-by-ten moves (a card 10 below the top, or 10 below an open card above it); the mirror
    on a descending pile."""
    m = top
    if pile < 2:
        while True:
            above = (open_cards >> (m + 1) << (m + 1)) | (1 << m)
            lower = (above >> BACK) & open_cards & ((1 << m) - 1)
            if not lower:
                return open_cards >> m << m
            m = (lower & -lower).bit_length() - 1
    while True:
        below = (open_cards & ((1 << m) - 1)) | (1 << m)
        higher = (below << BACK) & open_cards & ~((2 << m) - 1)
        if not higher:
            return open_cards & ((2 << m) - 1)
        m = higher.bit_length() - 1


def dead_cards(open_cards: int, tops: list[int]) -> int:
    """The open cards (bitmask) no pile can ever take again, whatever is played (:func:`reach`
    of every pile: a card none reaches leaves a card not played at least)."""
    alive = 0
    for p in range(4):
        alive |= reach(open_cards, p, tops[p])
    return open_cards & ~alive


def _lost(open_cards: int, tops: tuple[int, ...]) -> int:
    """The ordering's measure of a position (a heuristic, no bound): the open cards each pile
    can no longer take directly, summed over the piles. A pile keeps the cards beyond its top
    and those that back-by-ten moves reach from its top or from those cards alone, without
    going beyond again (the full reach of :func:`reach`, which is what the bound needs, is
    nearly every card while most are open: it would order nothing)."""
    lost = 0
    for p in range(4):
        t = tops[p]
        if p < 2:
            r = ((open_cards >> (t + 1)) << (t + 1)) | (1 << t)
            while True:
                more = r | ((r >> BACK) & open_cards)
                if more == r:
                    break
                r = more
        else:
            r = (open_cards & ((1 << t) - 1)) | (1 << t)
            while True:
                more = r | ((r << BACK) & open_cards)
                if more == r:
                    break
                r = more
        lost += (open_cards & ~r).bit_count()
    return lost


class OpenHandSolver:
    """Searches a deal of The Game with every hand and the draw order known (module docstring).

    ``max_nodes``: positions searched at most, inside turns included (past it the result is
    ``unknown``). ``dead_weight`` and ``bonus`` order the ends of a turn (ordering only: every
    end is tried): an end scores the open cards lost to each pile (:func:`_lost`), plus
    ``dead_weight`` per dead card (:func:`dead_cards`), less ``bonus`` per card played this
    turn; lowest first."""

    def __init__(
        self, max_nodes: int = 200_000, dead_weight: float = 10.0, bonus: float = 0.5
    ) -> None:
        if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1:
            raise ConfigError(f"max_nodes must be a positive int, got {max_nodes!r}")
        for name, value in (("dead_weight", dead_weight), ("bonus", bonus)):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 0 <= value < 1e6
            ):
                raise ConfigError(f"{name} must be a number in [0, 1e6), got {value!r}")
        self.max_nodes = max_nodes
        self.dead_weight, self.bonus = float(dead_weight), float(bonus)

    def solve(self, state: TheGameState) -> OpenResult:
        """The best line from ``state`` (a game of the engine, running or over)."""
        if not isinstance(state, TheGameState):
            raise ConfigError(
                f"the open-hand solver takes a thegame state (TheGame().new_game(...)), got "
                f"{type(state).__name__}"
            )
        start = time.process_time()
        search = _Search(state, self)
        status = search.run()
        left = search.best if search.best <= NUM_CARDS else None  # None: no line finished
        return OpenResult(status, left, search.best_line, search.nodes, time.process_time() - start)


#: a turn's end: (score, its plays, the hand, the tops, open cards)
_End = tuple[float, tuple[int, ...], int, tuple[int, ...], int]
_WHOLE = 1 << 62  # a position searched with every discrepancy
_CACHE = 200_000  # turn positions whose ends are kept


def _score(end: _End) -> float:
    return end[0]


class _Search:
    """One search: the position as compact numbers (hands as bitmasks), changed and undone.

    The tree is over turns: a node is the current player's turn (from its start, or from where
    the state solved stands); its children are the distinct positions the turn can end in (the
    cards played and the tops), found by a search inside the turn that meets every reachable
    position once. A turn that wins, or gets stuck owing a card (G9), is a leaf met there."""

    def __init__(self, state: TheGameState, solver: OpenHandSolver) -> None:
        self.max_nodes, self.dead_weight, self.bonus = (
            solver.max_nodes,
            solver.dead_weight,
            solver.bonus,
        )
        self.n, self.hand_size, self.when_empty = (
            state.num_players,
            state.hand_size,
            state.min_cards_when_empty,
        )
        self.hands = [sum(1 << c for c in hand) for hand in state.hands]
        self.order = state.draw_pile[::-1]  # top first
        self.drawn = 0
        self.tops = tuple(state.tops)
        self.open = sum(self.hands) + sum(1 << c for c in self.order)
        self.on_piles = state.on_piles
        self.current, self.played, self.minimum = (
            state.current,
            state.played_this_turn,
            state.minimum,
        )
        self.over, self.won = state.over, state.won
        self.nodes = 0
        #: turn positions searched: the discrepancies they were searched with (_WHOLE: all)
        self.searched: dict[tuple[int, ...], int] = {}
        self.ends: dict[tuple[int, ...], list[list[_End]]] = {}  # their ends, ordered
        self.path: list[int] = []
        self.best = NUM_CARDS + 1
        self.best_line: list[int] = []

    def run(self) -> str:
        """Limited discrepancy search: pass k follows the ordering except for discrepancies
        summing to k at most (taking a turn's i-th end costs i), k = 0, 1, 2, ...; a pass that
        cut nothing searched the whole tree (the best line is then the optimum)."""
        if self.over:
            self.best = NUM_CARDS - self.on_piles
            return WINNABLE if self.won else NOT_WINNABLE
        try:
            for limit in range(NUM_CARDS * 64):
                complete = self._turn(limit)
                if self.best == 0:
                    return WINNABLE
                if complete:
                    return NOT_WINNABLE
        except _OutOfBudget:
            pass
        return WINNABLE if self.best == 0 else UNKNOWN

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfBudget

    def _leaf(self, on_piles: int, plays: list[int]) -> None:
        left = NUM_CARDS - on_piles
        if left < self.best:
            self.best = left
            self.best_line = self.path + plays

    # ---- the tree of turns ------------------------------------------------------------------
    def _turn(self, limit: int) -> bool:
        """The current player's turn (the game is not over; some card of its fits, G9), searched
        with ``limit`` discrepancies left; whether nothing below was cut by the limit."""
        self._count()
        t0, t1, t2, t3 = self.tops
        key: tuple[int, ...] = (min(t0, t1), max(t0, t1), min(t2, t3), max(t2, t3))
        key += (self.drawn, self.current, self.played, *self.hands)
        if self.searched.get(key, -1) >= limit:
            return self.searched[key] == _WHOLE  # searched already, as far
        if dead_cards(self.open, list(self.tops)).bit_count() >= self.best:
            self.searched[key] = _WHOLE
            return True  # cannot beat the best line found
        complete = True
        for i, end in enumerate(self._children(key, limit)):
            if self.best == 0:
                return True
            if i > limit:
                complete = False  # the rest is beyond this pass
                break
            complete &= self._after(end, limit - i)
        self.searched[key] = _WHOLE if complete else limit
        return complete

    def _children(self, key: tuple[int, ...], limit: int) -> Any:
        """The ends of this turn, the likely ones first: those reached through the planner's
        candidate plays by score, then the others by score (made only when a pass gets there)."""
        cached = self.ends.get(key)
        if cached is None:
            if len(self.ends) > _CACHE:
                self.ends.clear()
            cached = self.ends[key] = [sorted(self._ends(True), key=_score)]
        yield from cached[0]
        if len(cached) == 1:
            if limit < len(cached[0]):
                yield cached[0][0]  # a placeholder past the limit: the caller stops there
                return
            narrow = {(end[2], end[3]) for end in cached[0]}
            rest = [end for end in self._ends(False) if (end[2], end[3]) not in narrow]
            cached.append(sorted(rest, key=_score))
        yield from cached[1]

    def _after(self, end: _End, limit: int) -> bool:
        """The turn ended in ``end``: draw (G6), the next seat holding cards (G7) plays."""
        _, plays, hand, tops, open_cards = end
        seat = self.current
        saved = (self.hands[seat], self.tops, self.open, self.on_piles, self.drawn, self.played)
        saved_minimum = self.minimum
        self.on_piles += len(plays)
        take = self.order[self.drawn : self.drawn + self.hand_size - hand.bit_count()]
        for c in take:
            hand |= 1 << c
        self.hands[seat], self.tops, self.open = hand, tops, open_cards
        self.drawn += len(take)
        nxt = (seat + 1) % self.n
        while not self.hands[nxt]:  # some hand holds cards: the game is not won
            nxt = (nxt + 1) % self.n
        self.current, self.played = nxt, 0
        self.minimum = MIN_CARDS if self.drawn < len(self.order) else self.when_empty  # G4
        self.path += plays
        self.path.append(END)
        complete = True
        if fits_any(self.hands[nxt], list(tops)):
            complete = self._turn(limit)
        else:
            self._leaf(self.on_piles, [])  # G9 at the start of the turn
        del self.path[len(self.path) - len(plays) - 1 :]
        self.hands[seat], self.tops, self.open, self.on_piles, self.drawn, self.played = saved
        self.current, self.minimum = seat, saved_minimum
        return complete

    # ---- inside a turn ------------------------------------------------------------------------
    def _ends(self, narrow: bool) -> list[_End]:
        """Every distinct position the current turn can end in (its wins and G9 losses are
        leaves, met here), each with its ordering score (:class:`OpenHandSolver`). ``narrow``:
        only through the planner's candidate plays (:func:`_fitting`)."""
        ends: list[_End] = []
        seen: set[tuple[int, ...]] = set()
        hand = self.hands[self.current]
        self._inside(hand, self.tops, self.played, self.open, [], ends, (seen, narrow))
        return ends

    def _inside(
        self,
        hand: int,
        tops: tuple[int, ...],
        played: int,
        open_cards: int,
        plays: list[int],
        ends: list[_End],
        memo: tuple[set[tuple[int, ...]], bool],
    ) -> None:
        seen, narrow = memo
        t0, t1, t2, t3 = tops
        key = (hand, min(t0, t1), max(t0, t1), min(t2, t3), max(t2, t3))
        if key in seen or self.best == 0:
            return
        seen.add(key)
        self._count()
        if played >= self.minimum:  # G4: the turn may end here
            dead = dead_cards(open_cards, list(tops)).bit_count()
            if dead < self.best:
                lost = _lost(open_cards, tops)
                score = lost + self.dead_weight * dead - self.bonus * played
                ends.append((score, tuple(plays), hand, tops, open_cards))
        on_piles = self.on_piles + played - self.played
        for card, pile in _fitting(hand, tops, narrow):
            bit = 1 << card
            after = tops[:pile] + (card,) + tops[pile + 1 :]
            plays.append((card - 2) * 4 + pile)
            if on_piles + 1 == NUM_CARDS:  # G8
                self._leaf(on_piles + 1, plays)
            elif played + 1 < self.minimum and not fits_any(hand ^ bit, list(after)):
                self._leaf(on_piles + 1, plays)  # G9: owes a card, none fits
            else:
                self._inside(hand ^ bit, after, played + 1, open_cards ^ bit, plays, ends, memo)
            plays.pop()


def _fitting(hand: int, tops: tuple[int, ...], narrow: bool = False) -> list[tuple[int, int]]:
    """(card, pile) for every card of the bitmask ``hand`` that fits a pile (G5); of two piles
    with the same top (and direction) only the first. ``narrow``: only the planner's candidates
    on each pile, the nearest card, the back-by-ten card and the cards that set up a back-by-ten
    with another card in hand."""
    out: list[tuple[int, int]] = []
    for p in range(4):
        if (p == 1 and tops[1] == tops[0]) or (p == 3 and tops[3] == tops[2]):
            continue  # the same as its twin
        t = tops[p]
        if p < 2:
            cards = _bits(hand >> (t + 1) << (t + 1))
            if narrow and cards:
                cards = [
                    c for i, c in enumerate(cards) if not i or (c > BACK and hand >> (c - BACK) & 1)
                ]
            if t > BACK and hand >> (t - BACK) & 1:
                cards.append(t - BACK)
        else:
            cards = _bits(hand & ((1 << t) - 1))[::-1]
            if narrow and cards:
                cards = [c for i, c in enumerate(cards) if not i or hand >> (c + BACK) & 1]
            if t + BACK < 100 and hand >> (t + BACK) & 1:
                cards.append(t + BACK)
        out.extend((c, p) for c in cards)
    return out


def replay(engine: TheGame, state: TheGameState, line: list[int]) -> TheGameState:
    """``line`` applied by the engine to a copy of ``state`` (an illegal action raises)."""
    state = engine.clone(state)
    for action in line:
        engine.apply(state, action)
    return state


def deal(seed: int, num_players: int, **options: Any) -> tuple[TheGame, TheGameState]:
    """The deal of deck seed ``seed`` (``engine.new_game(np.random.default_rng(seed))``, as every
    evaluation of the suite deals it)."""
    # describe_action / parse_action come with the class keywords, which mypy does not see
    engine = TheGame(num_players=num_players, **options)  # type: ignore[abstract]
    return engine, engine.new_game(np.random.default_rng(seed))


def play_open_hand(
    seed: int, num_players: int, max_nodes: int = 200_000, **options: Any
) -> tuple[OpenResult, int | None]:
    """Solve the deal of ``seed`` and play its best line through the engine, an
    :class:`OpenHandAgent` in every seat: (the solver's result, the cards the engine says were
    left; None when the budget ran out before any line ended)."""
    engine, state = deal(seed, num_players, **options)
    agent = OpenHandAgent(max_nodes=max_nodes)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    while not engine.is_over(state):
        mask[:] = 0
        mask[engine.legal_actions(state)] = 1
        agent.see(state)
        engine.apply(state, agent.act(mask, mask, None))
        if agent.result is not None and agent.result.cards_left is None:
            return agent.result, None  # no line to follow
    assert agent.result is not None
    return agent.result, int(engine.scores(state)[0])


class OpenHandAgent(Agent):
    """Plays the open-hand solver's best line (spec ``open_hand``). Not a legal player: before
    each ``act`` it must be handed the true state (:meth:`see`), every hand and the draw pile
    included, which no seat of the game may see. One instance can sit in every seat (the line
    is the team's); an instance in one seat solves again when the game is not where its line
    expects it."""

    name = "open_hand"
    legal_player = False
    uses_observation = False
    uses_view = False

    def __init__(self, max_nodes: int = 200_000, seed: int | None = None) -> None:
        super().__init__(seed)
        self.solver = OpenHandSolver(max_nodes=max_nodes)
        # replays lines; any table size (the state carries its own)
        self.engine = TheGame()  # type: ignore[abstract]
        self._state: TheGameState | None = None
        self._line: list[int] = []
        self._marks: list[tuple[Any, ...]] = []  # where the game is before each action of the line
        self._base = 0  # the state's ``decisions`` where the line starts
        self.result: OpenResult | None = None  # the last search

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._state, self._line, self._marks, self.result = None, [], [], None

    def see(self, state: TheGameState) -> None:
        """The true state of the game about to be decided (what makes it no legal player)."""
        self._state = state

    #: the game loop hands it the true state before each decision (``envs.core.loop.decide``),
    #: so tournaments seat it with ``--allow-seers`` and label it not a legal player
    sees_state = True

    def set_state(self, spec: Any, engine: Any, state: TheGameState, seat: int) -> None:
        """The game loop's hook for agents that see the state (``sees_state``): :meth:`see`,
        a native core's state read into the Python engine's (``to_dict`` / ``from_dict``)."""
        if not isinstance(state, TheGameState):
            state = self.engine.from_dict(engine.to_dict(state))
        self.see(state)

    @staticmethod
    def _mark(state: TheGameState) -> tuple[Any, ...]:
        return (state.current, state.played_this_turn, len(state.draw_pile), *state.tops)

    def _solve(self, state: TheGameState) -> None:
        self.result = self.solver.solve(state)
        self._line = self.result.line
        self._base = state.decisions
        self._marks = []
        copy = self.engine.clone(state)
        for action in self._line:
            self._marks.append(self._mark(copy))
            self.engine.apply(copy, action)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any) -> int:
        state = self._state
        if state is None:
            raise ConfigError(
                "open_hand is not a legal player: it plays from every hand and the draw order. "
                "Hand it the true state with agent.see(state) before each act, or measure a "
                "deal with play_open_hand(seed, num_players) (agents/exact/thegame_open.py)"
            )
        self._state = None  # one state per decision
        at = state.decisions - self._base
        if not (0 <= at < len(self._line) and self._marks[at] == self._mark(state)):
            self._solve(state)  # the first decision, or the game left the line
            at = 0
        if at < len(self._line) and action_mask[self._line[at]]:
            return self._line[at]
        # no line ended within the budget (or none can be followed): the first legal action
        return int(np.flatnonzero(action_mask)[0])


def main(argv: list[str] | None = None) -> None:
    """Measure the ceiling: ``python -m cardarena.agents.exact.thegame_open --players 2 --deals
    200 --first-seed 9500000`` solves each deal, plays its line through the engine and prints
    the shares proved winnable / proved not / unknown, the mean fewest cards left and the CPU
    seconds per deal (``--out F.json``: every deal's figures too)."""
    import argparse
    import json

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=9_500_000)
    parser.add_argument("--max-nodes", type=int, default=200_000)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    for n in args.players:
        rows: list[dict[str, Any]] = []
        for seed in range(args.first_seed, args.first_seed + args.deals):
            result, left = play_open_hand(seed, n, args.max_nodes)
            if left != result.cards_left:
                raise RuntimeError(f"deal {seed}: the engine left {left}, the solver said {result}")
            rows.append(
                {
                    "seed": seed,
                    "status": result.status,
                    "cards_left": left,
                    "nodes": result.nodes,
                    "seconds": round(result.seconds, 3),
                }
            )
        report[str(n)] = rows
        share = {
            k: sum(r["status"] == k for r in rows) / len(rows)
            for k in (WINNABLE, NOT_WINNABLE, UNKNOWN)
        }
        lefts = [r["cards_left"] for r in rows if r["cards_left"] is not None]
        print(
            f"{n} players, {len(rows)} deals (seeds {args.first_seed}..{args.first_seed + args.deals - 1}, "
            f"max_nodes {args.max_nodes}): winnable {share[WINNABLE]:.3f}, proved not "
            f"{share[NOT_WINNABLE]:.3f}, unknown {share[UNKNOWN]:.3f}; mean fewest cards left "
            f"{sum(lefts) / max(1, len(lefts)):.2f} over {len(lefts)} deals with a line; "
            f"{sum(r['seconds'] for r in rows) / len(rows):.2f} CPU s per deal",
            flush=True,
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
