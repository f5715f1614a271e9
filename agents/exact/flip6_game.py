"""flip6 for two seats solved for the game: the policy that maximises the chance of winning.

The suite's flip6 seats 3 to 6 players; this module solves a two-seat variant of it, a model of
its own (not the suite's engine, which refuses two seats). The model:

* Two seats, 0 and 1. Seat 0 deals the first round and the dealer passes each round (F4). A round
  opens with the deal: the seat left of the dealer gets a card first, then the dealer (F5); a
  special dealt there is resolved at once, and the deal goes on after it (a FLIP3 sequence first,
  as the engine's stack does). Then turns alternate from the seat left of the dealer, skipping a
  seat out of the round (F6): STAY banks the round score (F7), HIT draws a card (F8).
* Cards resolve as in the rules: a new value stays in the row, the sixth distinct value is a Flip
  6 (both seats still in bank, +6 to the maker, F9), a duplicate busts unless an EXTRA_LIFE
  cancels it (F10); FREEZE and FLIP3 are aimed by the drawer at a seat still in the round (F11,
  F12: a FREEZE inside FLIP3 freezes the receiver); DOUBLE doubles the number total (F13).
* **Every round is dealt from a fresh shuffled deck** (the rules keep the pile between rounds,
  F16; the model does not, so the round start carries no deck memory: this is the
  simplification that makes the state small). Inside a round the pile is the deck less every
  card dealt, known to both seats (F3). With the full deck it never runs out (two seats hold at
  most 19 of the 26 cards in a round), so F16's reshuffle does not arise; with a deck so small
  that it does, a seat that would draw from an empty pile stays (the cards an EXTRA_LIFE
  discards are not reshuffled back).
* The game ends when a seat's banked total reaches the target ``T`` (F17); if both reach it at
  one Flip 6, the higher total wins and equal totals share the win (F18).

The **state** is (both totals, the dealer, both seats' holdings: values, EXTRA_LIFE, DOUBLE, or
the points banked, or busted; the pending deal or FLIP3 cards; whose turn; the pile's
composition). The **value** of a state is seat 0's chance of winning plus half its chance of a
shared win, so the two seats' values sum to 1; seat 0 maximises it, seat 1 minimises it.

A round is a finite tree of positions (each draw shrinks the pile), compiled once per dealer into
a list in children-first order (:class:`RoundGraph`). Positions do not depend on the totals, so
the solver keeps for every position an array over the totals (seat 0's total, seat 1's total at
the round's start) and computes all of them at once; a round's end reads the next round's value
at the new totals. A round in which nobody banks returns to the same totals with the other
dealer, so the solver iterates (value iteration over the two dealers' round-start tables, Gauss-
Seidel) until no value moves by more than ``tol``.

The full deck's round has more than 600,000 positions (:func:`round_positions` counts them, with a
cap); :data:`NUMBERS` is the reduced deck solved here: the 21 number cards 1-6 (F1) alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from cardarena.envs.core.engine import ConfigError

#: card kinds (flip6_round.KINDS): ZERO, 1..6, EXTRA_LIFE, FREEZE, FLIP3, DOUBLE
EXTRA_LIFE, FREEZE, FLIP3, DOUBLE = 7, 8, 9, 10
#: the full 26-card deck as counts per kind (F1, F2)
FULL = (1, 1, 2, 3, 4, 5, 6, 1, 1, 1, 1)
#: the 21 number cards 1-6 alone (F1): the reduced deck solved in docs/results/ceilings.md
NUMBERS = (0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0)

IN, OUT, BUST = 0, 1, 2
TURN, AIM_FREEZE, AIM_FLIP3 = 1, 2, 3
# a seat: (IN, values bitmask, life, double) | (OUT, points banked) | (BUST,)
Seat = tuple[int, ...]
Bank = tuple[int, int] | None  # (seat, points) banked on an edge


def score(held: int, double: int) -> int:
    """Round score of the values in ``held`` (bit v: value v), doubled by DOUBLE (F13, F14)."""
    total = sum(v for v in range(1, 7) if held >> v & 1)
    return 2 * total if double else total


def check_deck(deck: Sequence[int]) -> tuple[int, ...]:
    """A deck as 11 counts per kind, each at most the full deck's (ConfigError otherwise)."""
    counts = tuple(int(c) for c in deck)
    if len(counts) != len(FULL) or any(c < 0 or c > f for c, f in zip(counts, FULL, strict=True)):
        raise ConfigError(
            f"flip6_game: deck {tuple(deck)!r} is not 11 counts per card kind (ZERO, 1-6, "
            f"EXTRA_LIFE, FREEZE, FLIP3, DOUBLE), each between 0 and the full deck's {FULL}"
        )
    return counts


def _put(seats: tuple[Seat, Seat], s: int, new: Seat) -> tuple[Seat, Seat]:
    return (new, seats[1]) if s == 0 else (seats[0], new)


def _key(kind: str, seats: tuple[Seat, Seat], pile, stack, nxt: int, what: int, s: int) -> tuple:
    """A position's key, with whose turn is next written once: at a turn it is the mover's
    (the turn passes it on, F6) and with one seat left in the round it is that seat's."""
    if kind == "D" and what == TURN:
        nxt = s
    elif seats[1 - nxt][0] == IN and seats[nxt][0] != IN:
        nxt = 1 - nxt
    return (kind, seats, pile, stack, nxt, what, s)


def _banked(seat: Seat) -> int:
    return seat[1] if seat[0] == OUT else 0


@dataclass
class RoundGraph:
    """The round's positions for one dealer, children first.

    ``kind[i]``: "D" a decision of ``who[i]`` (edges: its options), "C" a draw (edges carry
    probabilities), "E" the round's end with ``points[i]`` banked, "F" a Flip 6 ending it with
    ``points[i]`` banked in the round and ``banking[i]`` the seats banking at that moment.
    ``edges[i]``: (probability, bank, child); a bank (seat, points) is checked against the
    target when it happens (F17). ``banked[i]``: the points each seat banked before position i.
    """

    dealer: int
    deck: tuple[int, ...]
    kind: list[str] = field(default_factory=list)
    who: list[int] = field(default_factory=list)
    label: list[str] = field(default_factory=list)
    edges: list[list[tuple[float, Bank, int]]] = field(default_factory=list)
    points: list[tuple[int, int]] = field(default_factory=list)
    banking: list[tuple[int, ...]] = field(default_factory=list)
    banked: list[tuple[int, int]] = field(default_factory=list)
    keys: list[tuple] = field(default_factory=list)
    root: int = -1

    @property
    def decisions(self) -> int:
        return sum(1 for k in self.kind if k == "D")


class _Builder:
    """Builds a :class:`RoundGraph` by depth-first search (``cap``: stop past that many)."""

    def __init__(self, deck: tuple[int, ...], dealer: int, cap: int | None) -> None:
        self.graph = RoundGraph(dealer, deck)
        self.index: dict[tuple, int] = {}
        self.cap = cap

    # -- positions ---------------------------------------------------------------------------
    def advance(self, seats: tuple[Seat, Seat], pile: tuple[int, ...], stack: tuple, nxt: int):
        """Run what the rules decide (pending deal and FLIP3 cards, F5, F12) up to the next
        draw, decision or end of round; returns a position key."""
        while stack:
            task, stack = stack[-1], stack[:-1]
            s = task[1]
            if seats[s][0] != IN:
                continue  # F5, F12: a seat out of the round gets no card
            if task[0] == 0:
                return _key("C", seats, pile, stack, nxt, 0, s)
            if task[2] > 1:
                stack = (*stack, (1, s, task[2] - 1))
            return _key("C", seats, pile, stack, nxt, 1, s)
        for s in (nxt, 1 - nxt):
            if seats[s][0] == IN:
                return _key("D", seats, pile, stack, nxt, TURN, s)
        return ("E", _banked(seats[0]), _banked(seats[1]))

    def flip6(self, seats: tuple[Seat, Seat], s: int, held: int, dbl: int) -> tuple:
        points = []
        for q in (0, 1):
            sq = seats[q]
            if q == s:
                points.append(score(held, dbl) + 6)  # F9: the bonus is never doubled
            elif sq[0] == IN:
                points.append(score(sq[1], sq[3]))
            else:
                points.append(_banked(sq))
        return ("F", *points, tuple(q for q in (0, 1) if seats[q][0] == IN))

    def drawn(self, key: tuple, card: int, rest: tuple[int, ...]) -> tuple[Bank, tuple]:
        """The position after seat ``key[6]`` draws ``card`` (F8-F13)."""
        _, seats, _, stack, nxt, in_flip3, s = key
        _, held, life, dbl = seats[s]
        if card <= 6:
            if held >> card & 1:  # a duplicate (F8 C): EXTRA_LIFE saves (F10), else a bust
                new = (IN, held, 0, dbl) if life else (BUST,)
                return None, self.advance(_put(seats, s, new), rest, stack, nxt)
            now = held | 1 << card
            if now.bit_count() == 6:
                return None, self.flip6(seats, s, now, dbl)
            return None, self.advance(_put(seats, s, (IN, now, life, dbl)), rest, stack, nxt)
        if card in (EXTRA_LIFE, DOUBLE):
            new = (IN, held, 1, dbl) if card == EXTRA_LIFE else (IN, held, life, 1)
            return None, self.advance(_put(seats, s, new), rest, stack, nxt)
        if card == FREEZE and in_flip3:  # F12: frozen, no choice
            points = score(held, dbl)
            after = self.advance(_put(seats, s, (OUT, points)), rest, stack, nxt)
            return (s, points), after
        aim = AIM_FREEZE if card == FREEZE else AIM_FLIP3
        return None, _key("D", seats, rest, stack, nxt, aim, s)

    def options(self, key: tuple) -> list[tuple[float, Bank, tuple, str]]:
        kind, seats, pile, stack, nxt, what, s = key
        if kind == "C":
            total = sum(pile)
            if not total:  # F16: nothing to draw, the seat stays
                points = score(seats[s][1], seats[s][3])
                after = self.advance(_put(seats, s, (OUT, points)), pile, stack, nxt)
                return [(1.0, (s, points), after, "stay")]
            out = []
            for card, n in enumerate(pile):
                if n:
                    rest = pile[:card] + (n - 1,) + pile[card + 1 :]
                    bank, child = self.drawn(key, card, rest)
                    out.append((n / total, bank, child, str(card)))
            return out
        if what == TURN:
            points = score(seats[s][1], seats[s][3])
            stay = self.advance(_put(seats, s, (OUT, points)), pile, stack, 1 - s)  # F7
            out = [(1.0, (s, points), stay, "stay")]
            if any(pile):
                out.append((1.0, None, _key("C", seats, pile, stack, 1 - s, 0, s), "hit"))
            return out
        out = []
        for t in (0, 1):
            if seats[t][0] != IN:
                continue
            if what == AIM_FREEZE:  # F11
                points = score(seats[t][1], seats[t][3])
                after = self.advance(_put(seats, t, (OUT, points)), pile, stack, nxt)
                out.append((1.0, (t, points), after, f"target {t}"))
            else:  # F12: three cards for the target
                after = self.advance(seats, pile, (*stack, (1, t, 3)), nxt)
                out.append((1.0, None, after, f"target {t}"))
        return out

    def add(self, key: tuple) -> int:
        """Depth first, children before parents (an explicit stack: rounds are deep)."""
        todo = [(key, False)]
        graph, index = self.graph, self.index
        while todo:
            node, expanded = todo.pop()
            if node in index:
                continue
            if node[0] in ("E", "F"):
                self._store(node, [])
                continue
            opts = self.options(node)
            if not expanded:
                todo.append((node, True))
                todo.extend((child, False) for _, _, child, _ in opts if child not in index)
                continue
            self._store(node, opts)
            if self.cap is not None and len(graph.kind) >= self.cap:
                raise _Capped
        return index[key]

    def _store(self, node: tuple, opts: list) -> None:
        g, i = self.graph, len(self.graph.kind)
        self.index[node] = i
        g.kind.append(node[0])
        g.keys.append(node)
        if node[0] in ("E", "F"):
            g.who.append(-1)
            g.edges.append([])
            g.label.append("")
            g.points.append((node[1], node[2]))
            g.banking.append(node[3] if node[0] == "F" else ())
            g.banked.append((0, 0))
            return
        seats = node[1]
        g.who.append(node[6] if node[0] == "D" else -1)
        g.edges.append([(p, bank, self.index[child]) for p, bank, child, _ in opts])
        g.label.append("|".join(lab for *_, lab in opts))
        g.points.append((0, 0))
        g.banking.append(())
        g.banked.append((_banked(seats[0]), _banked(seats[1])))


class _Capped(Exception):
    pass


def round_graph(deck: Sequence[int] = NUMBERS, dealer: int = 0, cap: int | None = None):
    """The round of ``deck`` dealt by ``dealer`` (:class:`RoundGraph`); past ``cap`` positions
    a ``RuntimeError`` says how many were built."""
    counts = check_deck(deck)
    if dealer not in (0, 1):
        raise ConfigError(f"flip6_game: dealer {dealer!r} is not a seat; use 0 or 1")
    builder = _Builder(counts, dealer, cap)
    fresh: tuple[Seat, Seat] = ((IN, 0, 0, 0), (IN, 0, 0, 0))
    root = builder.advance(fresh, counts, ((0, dealer), (0, 1 - dealer)), 1 - dealer)
    try:
        builder.graph.root = builder.add(root)
    except _Capped:
        raise RuntimeError(
            f"flip6_game: the round of deck {counts} has more than {cap} positions "
            f"(stopped at {len(builder.graph.kind)})"
        ) from None
    return builder.graph


def round_positions(deck: Sequence[int] = NUMBERS, cap: int | None = None) -> dict[str, int]:
    """Positions of one round, both dealers together: ``decisions`` (a seat to choose: turn or
    aim), ``draws`` (chance), ``ends`` (end of round outcomes)."""
    out = {"decisions": 0, "draws": 0, "ends": 0}
    for dealer in (0, 1):
        g = round_graph(deck, dealer, cap)
        out["decisions"] += g.decisions
        out["draws"] += sum(1 for k in g.kind if k == "C")
        out["ends"] += sum(1 for k in g.kind if k in ("E", "F"))
    return out


def count_states(target: int, deck: Sequence[int] = NUMBERS, graphs=None) -> int:
    """Decision states of the game to ``target``: every (totals, dealer, round position) with a
    seat to choose, the totals under the target.

    Every pair of round-start totals under the target is reachable with either dealer (rounds
    of 0 or 1 point get there), and a round's positions do not depend on the totals except that
    a seat which banked ``b`` this round needs a start total under ``target - b`` (F17). So the
    count is the sum over decision positions of ``(target - b0) * (target - b1)``;
    ``tests/test_exact_flip6_game.py`` checks it against a search of the whole game.
    """
    if target < 1:
        raise ConfigError(f"flip6_game: target {target!r} is under 1; use a target of 1 or more")
    graphs = graphs or [round_graph(deck, d) for d in (0, 1)]
    total = 0
    for g in graphs:
        for kind, (b0, b1) in zip(g.kind, g.banked, strict=True):
            if kind == "D":
                total += max(target - b0, 0) * max(target - b1, 0)
    return total


# -- values ----------------------------------------------------------------------------------

#: a decision rule of one seat: (graph, position, seat 0's start totals grid, seat 1's) -> the
#: index of the option it takes, an int array over the grid; None: the seat plays optimally
Rule = Callable[[RoundGraph, int, np.ndarray, np.ndarray], np.ndarray]


class GameSolver:
    """Values of the two-seat game to ``target`` on ``deck`` (module docstring).

    ``rules[s]``: None (seat s plays to win, optimally) or a :data:`Rule`; ``tie``: what a
    shared win is worth to seat 0 (0.5: the value is zero-sum; 0 or 1 measure the chance of a
    shared win). :meth:`solve` fills ``start[d]``, seat 0's value at each pair of round-start
    totals with dealer d.
    """

    def __init__(
        self,
        target: int,
        deck: Sequence[int] = NUMBERS,
        rules: tuple[Rule | None, Rule | None] = (None, None),
        graphs: list[RoundGraph] | None = None,
        tie: float = 0.5,
    ) -> None:
        if target < 1:
            raise ConfigError(f"flip6_game: target {target!r} is under 1; use 1 or more")
        self.target = target
        self.graphs = graphs or [round_graph(deck, d) for d in (0, 1)]
        self.rules = rules
        self.tie = tie  # seat 0's value of a shared win (F18)
        t = target
        self.a, self.b = np.meshgrid(np.arange(t), np.arange(t), indexing="ij")
        self.start = np.full((2, t, t), 0.5)
        self.sweeps = 0
        self._lasts: dict[int, dict[int, list[int]]] = {}
        #: called with (graph, position, option values) at every decision, if set
        self.watch: Callable[[RoundGraph, int, np.ndarray], None] | None = None

    def _next(self, dealer: int, points: tuple[int, int]) -> np.ndarray:
        """Seat 0's value at the next round's start, totals shifted by ``points`` (0.5 where a
        total would pass the target: those entries are decided by the bank that got there)."""
        t = self.target
        nxt = self.start[1 - dealer]
        out = np.full((t, t), 0.5)
        p0, p1 = points
        if p0 < t and p1 < t:
            out[: t - p0, : t - p1] = nxt[p0:, p1:]
        return out

    def _flip6(self, g: RoundGraph, i: int) -> np.ndarray:
        """F9, F17, F18: the seats banking at the Flip 6 that reach the target decide."""
        p0, p1 = g.points[i]
        out = self._next(g.dealer, (p0, p1))
        tot0, tot1 = self.a + p0, self.b + p1
        r0 = (tot0 >= self.target) & (0 in g.banking[i])
        r1 = (tot1 >= self.target) & (1 in g.banking[i])
        both = np.where(tot0 > tot1, 1.0, np.where(tot0 < tot1, 0.0, self.tie))
        out = np.where(r0 & ~r1, 1.0, out)
        out = np.where(r1 & ~r0, 0.0, out)
        return np.where(r0 & r1, both, out)

    def _edge(self, vals: list, bank: Bank, child: int) -> np.ndarray:
        v = vals[child]
        if bank is None:
            return v
        s, points = bank
        total = (self.a if s == 0 else self.b) + points
        return np.where(total >= self.target, 1.0 - s, v)  # F17: banking to the target wins

    def round_values(self, g: RoundGraph, keep: bool = False) -> list:
        """Seat 0's value at the positions of ``g`` (arrays over the start totals); ``keep``:
        all of them (else each is freed after its last parent, and the root is kept)."""
        vals: list = [None] * len(g.kind)
        last = self._last_use(g) if not keep else {}
        for i, kind in enumerate(g.kind):
            if kind == "E":
                vals[i] = self._next(g.dealer, g.points[i])
            elif kind == "F":
                vals[i] = self._flip6(g, i)
            elif kind == "C":
                acc = np.zeros((self.target, self.target))
                for p, bank, child in g.edges[i]:
                    acc += p * self._edge(vals, bank, child)
                vals[i] = acc
            else:
                vals[i] = self._decide(g, i, vals)
            for child in last.get(i, ()):
                vals[child] = None  # its last parent is done: free the memory
        return vals

    def _last_use(self, g: RoundGraph) -> dict[int, list[int]]:
        """For each position, the children whose last parent it is (the root is kept)."""
        cached = self._lasts.get(g.dealer)
        if cached is None:
            last: dict[int, int] = {}
            for i, edges in enumerate(g.edges):
                for _, _, child in edges:
                    last[child] = i
            cached = {}
            for child, parent in last.items():
                cached.setdefault(parent, []).append(child)
            self._lasts[g.dealer] = cached
        return cached

    def _decide(self, g: RoundGraph, i: int, vals: list) -> np.ndarray:
        opts = np.stack([self._edge(vals, bank, child) for _, bank, child in g.edges[i]])
        if self.watch is not None:
            self.watch(g, i, opts)
        rule = self.rules[g.who[i]]
        if rule is None:
            return opts.max(axis=0) if g.who[i] == 0 else opts.min(axis=0)
        pick = rule(g, i, self.a, self.b)
        return np.take_along_axis(opts, pick[None], axis=0)[0]

    def solve(self, tol: float = 1e-12, max_sweeps: int = 500) -> GameSolver:
        """Value iteration until no round-start value moves by more than ``tol``."""
        for _ in range(max_sweeps):
            moved = 0.0
            for g in self.graphs:
                new = self.round_values(g)[g.root]
                moved = max(moved, float(np.abs(new - self.start[g.dealer]).max()))
                self.start[g.dealer] = new
            self.sweeps += 1
            if moved <= tol:
                return self
        raise RuntimeError(f"flip6_game: no convergence in {max_sweeps} sweeps (moved {moved})")

    def first_player(self) -> float:
        """Seat 1's value at the game's start (seat 0 deals the first round, F4, so seat 1 is
        the first to be dealt and to play, F5, F6): its chance of winning plus half a shared."""
        return 1.0 - float(self.start[0][0, 0])


def threshold_rule(k: int) -> Rule:
    """ "Stay at k": at a turn, stay once the round score is k or more, or when staying reaches the
    target; aim FREEZE at the other seat and FLIP3 at the other seat (as ``threshold`` does)."""

    def rule(g: RoundGraph, i: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        key = g.keys[i]
        seats, what, s = key[1], key[5], key[6]
        labels = g.label[i].split("|")
        if what == TURN:
            points = score(seats[s][1], seats[s][3])
            if len(labels) == 1:
                return np.zeros(a.shape, dtype=int)
            mine = a if s == 0 else b
            stay = (points >= k) | (mine + points >= a.shape[0])
            return np.where(stay, labels.index("stay"), labels.index("hit"))
        other = f"target {1 - s}"
        pick = labels.index(other) if other in labels else 0
        return np.full(a.shape, pick, dtype=int)

    return rule


def solve_table(targets: Sequence[int], deck: Sequence[int] = NUMBERS) -> list[dict]:
    """For each target: decision states, sweeps, seconds, the first player's value."""
    graphs = [round_graph(deck, d) for d in (0, 1)]
    rows = []
    for t in targets:
        began = time.process_time()
        solver = GameSolver(t, deck, graphs=graphs).solve()
        rows.append(
            {
                "target": t,
                "states": count_states(t, deck, graphs),
                "sweeps": solver.sweeps,
                "cpu_s": round(time.process_time() - began, 1),
                "first_player": solver.first_player(),
            }
        )
    return rows


def disagreement(solver: GameSolver, k: int) -> tuple[int, int]:
    """Turn decision states (position, totals) of a solved ``solver`` where "stay at k" (its
    turn rule, :func:`threshold_rule`) picks an option worth strictly less to the mover than
    the best one: (such states, all turn states with a choice). Totals a bank already took to
    the target are left out."""
    rule = threshold_rule(k)
    counts = [0, 0]
    t = solver.target

    def watch(g: RoundGraph, i: int, opts: np.ndarray) -> None:
        key = g.keys[i]
        if key[5] != TURN or opts.shape[0] < 2:
            return
        b0, b1 = g.banked[i]
        live = (solver.a + b0 < t) & (solver.b + b1 < t)
        mine = opts if g.who[i] == 0 else 1.0 - opts
        pick = rule(g, i, solver.a, solver.b)
        got = np.take_along_axis(mine, pick[None], axis=0)[0]
        worse = got < mine.max(axis=0) - 1e-12
        counts[0] += int((worse & live).sum())
        counts[1] += int(live.sum())

    solver.watch = watch
    try:
        for g in solver.graphs:
            solver.round_values(g)
    finally:
        solver.watch = None
    return counts[0], counts[1]
