# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""The Game on a C struct: the native core (engine state, encoder, rollouts, the planner).

The same game as ``rules.py`` (rule ids G1-G11 of ``docs/rules/thegame.md``), step for step:
every function below mirrors the method of ``TheGame`` it names, in the same order of effects,
so that both cores reach the same states. The only random numbers of a game are the deal's
(``stack_deck``: ``rng.permutation(98)``), drawn from the numpy bit generator of the state's
``np.random.Generator`` through numpy's C API (``bitgen_t``) with numpy's own algorithm (a
Fisher-Yates shuffle whose indices come from ``random_interval``), so the same seed gives the
same game on either core and the generator ends in the same state. ``tests/test_native_thegame.py``
steps both cores side by side.

The encoder computes every float as ``encoding.py`` does (double precision, rounded to float32
at the end, the same operations), so the observation is byte-identical. A Python state that no
game reaches (a card twice, a card both in the hand and on a pile, a value the struct cannot
hold) is encoded by the reference encoder ``encoding.encode_python``, which has its own
arithmetic for such states.

``NativePlanner`` is ``PlannerAgent`` of ``agents/baselines/thegame.py`` on the struct, decision
for decision (the same search in the same order, the same float arithmetic), for rollouts.

The random-number plumbing every game's core shares (numpy's ``random_interval`` and
permutation, Python's Mersenne Twister for the random rollout policy) is
``envs/core/_native_common.pxi``, included below.

Built optionally by ``setup.py``; ``native.py`` is the Python side (``NATIVE_AVAILABLE``).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.math cimport INFINITY
from libc.string cimport memcpy, memset

cimport numpy as cnp
from numpy.random cimport bitgen_t

import numpy as np

from cardarena.envs.core.engine import ConfigError, copy_generator
from cardarena.envs.thegame.rules import TheGameState

cdef str GAME = "thegame"  # the name the shared code's errors start with
include "../core/_native_common.pxi"

cnp.import_array()

# ---- constants of rules.py / encoding.py (checked against them by the tests) -------------------
cdef enum:
    LOWEST = 2
    HIGHEST = 99
    NCARDS = 98
    NPILES = 4
    MAXP = 5
    MAXHAND = 8
    MIN_CARDS = 2
    BACKWARDS = 10
    END = 392
    SIGNAL0 = 393
    NUM_ACTIONS = 405
    MAXLEGAL = 64  # 8 cards x 4 piles + end + 12 signals = 45
    PILE_BLOCK = 9
    SEAT_BLOCK = 13
    OBS_SIZE = 410

cdef int FOUNDATIONS[4]
FOUNDATIONS[:] = [1, 1, 100, 100]
cdef int HAND_SIZES[6]
HAND_SIZES[:] = [0, 8, 7, 6, 6, 6]

OBS_SIZE_C = OBS_SIZE
NUM_ACTIONS_C = NUM_ACTIONS
END_C = END
SIGNAL0_C = SIGNAL0
FOUNDATIONS_C = tuple(FOUNDATIONS[k] for k in range(NPILES))
HAND_SIZES_C = {k: HAND_SIZES[k] for k in range(1, MAXP + 1)}


cdef struct TG:
    int n
    int hand_size
    int min_empty  # min_cards_when_empty
    int signals_on
    int8_t hands[5][8]  # per seat, in the Python state's order (sorted ascending)
    int nhand[5]
    int8_t draw[98]  # top of the pile is the end (draw[ndraw - 1]), as in rules.py
    int ndraw
    int8_t piles[4][98]
    int npile[4]
    int tops[4]
    int current
    int minimum
    int played
    int8_t signals[5][4]
    int8_t changed[4]
    int on_piles
    int over
    int won
    long long turn_index
    long long decisions


# ---- the engine (TheGame's methods, same names) -------------------------------------------------
cdef inline int can_play(TG *s, int seat) noexcept nogil:
    """``can_play(hands[seat], tops)`` (G5), reading the hand's ends as the Python code does."""
    cdef int m = s.nhand[seat], k, c
    cdef int8_t *hand = s.hands[seat]
    cdef int t0 = s.tops[0], t1 = s.tops[1], t2 = s.tops[2], t3 = s.tops[3]
    if m == 0:
        return 0
    if hand[m - 1] > (t0 if t0 < t1 else t1) or hand[0] < (t2 if t2 > t3 else t3):
        return 1
    for k in range(m):
        c = hand[k]
        if c == t0 - 10 or c == t1 - 10 or c == t2 + 10 or c == t3 + 10:
            return 1
    return 0


cdef void start_turn(TG *s, int seat) noexcept nogil:
    """G4: the minimum is fixed for the turn; G9: lost at once when nothing fits."""
    cdef int k, guard
    if s.nhand[seat] == 0:  # G7 (only reachable from a scenario deal)
        guard = 0
        while s.nhand[seat] == 0 and guard < s.n:
            seat = (seat + 1) % s.n
            guard += 1
    s.current = seat
    s.played = 0
    s.minimum = MIN_CARDS if s.ndraw else s.min_empty
    for k in range(NPILES):
        s.changed[k] = 0
    if not can_play(s, seat):
        s.over = 1
        s.current = -1


cdef inline void insort(int8_t *hand, int *m, int8_t x) noexcept nogil:
    """``bisect.insort`` (insort_right) of ``x`` into ``hand``."""
    cdef int lo = 0, hi = m[0], mid, k
    while lo < hi:
        mid = (lo + hi) // 2
        if x < hand[mid]:
            hi = mid
        else:
            lo = mid + 1
    k = m[0]
    while k > lo:
        hand[k] = hand[k - 1]
        k -= 1
    hand[lo] = x
    m[0] += 1


cdef void end_turn(TG *s, int seat) noexcept nogil:
    """G6: draw back up while the draw pile lasts; G7: the next seat holding cards plays."""
    cdef int need = s.hand_size - s.nhand[seat], nxt, guard = 0
    while need > 0 and s.ndraw:
        s.ndraw -= 1
        insort(s.hands[seat], &s.nhand[seat], s.draw[s.ndraw])
        need -= 1
    nxt = (seat + 1) % s.n
    while s.nhand[nxt] == 0 and guard < s.n:
        nxt = (nxt + 1) % s.n
        guard += 1
    s.turn_index += 1
    start_turn(s, nxt)


cdef int legal(TG *s, int *out) noexcept nogil:
    """The legal actions into ``out``, in ``legal_actions``' order (sorted); their count."""
    cdef int m = 0, k, c, b, p, v, seat
    cdef int t0, t1, t2, t3
    if s.over:
        return 0
    seat = s.current
    t0 = s.tops[0]
    t1 = s.tops[1]
    t2 = s.tops[2]
    t3 = s.tops[3]
    for k in range(s.nhand[seat]):
        c = s.hands[seat][k]
        b = (c - LOWEST) << 2
        if c > t0 or c == t0 - 10:
            out[m] = b
            m += 1
        if c > t1 or c == t1 - 10:
            out[m] = b + 1
            m += 1
        if c < t2 or c == t2 + 10:
            out[m] = b + 2
            m += 1
        if c < t3 or c == t3 + 10:
            out[m] = b + 3
            m += 1
    if s.played >= s.minimum:
        out[m] = END
        m += 1
    if s.signals_on:
        for p in range(NPILES):
            if not s.changed[p]:
                for v in range(3):
                    if v != s.signals[seat][p]:
                        out[m] = SIGNAL0 + p * 3 + v
                        m += 1
    return m


cdef int apply_action(TG *s, int action) noexcept nogil:
    """``apply`` by the current seat of a game not over; 0 (nothing changed) when the action is
    not legal (the engine raises the error), else 1."""
    cdef int seat = s.current, card, pile, top, ok, k, at, value
    cdef int8_t *hand
    if 0 <= action < END:  # G4/G5: one card onto one pile
        card = (action >> 2) + LOWEST
        pile = action & 3
        hand = s.hands[seat]
        top = s.tops[pile]
        if pile < 2:
            ok = card > top or card == top - BACKWARDS
        else:
            ok = card < top or card == top + BACKWARDS
        at = -1
        if ok:
            for k in range(s.nhand[seat]):
                if hand[k] == card:
                    at = k
                    break
        if at < 0:
            return 0
        for k in range(at, s.nhand[seat] - 1):
            hand[k] = hand[k + 1]
        s.nhand[seat] -= 1
        s.piles[pile][s.npile[pile]] = <int8_t>card
        s.npile[pile] += 1
        s.tops[pile] = card
        s.played += 1
        s.on_piles += 1
        s.decisions += 1
        if s.on_piles == NCARDS:  # G8: won
            s.over = 1
            s.won = 1
            s.current = -1
        elif s.played < s.minimum and not can_play(s, seat):
            s.over = 1  # G9: owes cards, none fits (no look-ahead)
            s.current = -1
        return 1
    if action == END:
        if s.played < s.minimum:
            return 0
        s.decisions += 1
        end_turn(s, seat)
        return 1
    if s.signals_on and SIGNAL0 <= action < NUM_ACTIONS:  # G11
        pile = (action - SIGNAL0) // 3
        value = (action - SIGNAL0) % 3
        if s.changed[pile] or s.signals[seat][pile] == value:
            return 0
        s.signals[seat][pile] = <int8_t>value
        s.changed[pile] = 1
        s.decisions += 1
        return 1
    return 0


cdef void new_game_c(TG *s, bitgen_t *bg, int n, int min_empty, int signals_on,
                     int first) noexcept nogil:
    """``new_game`` without options: the whole deck shuffled (``stack_deck``), dealt (G2)."""
    cdef int8_t order[98]
    cdef int k, seat, at = 0, j
    memset(s, 0, sizeof(TG))
    s.n = n
    s.hand_size = HAND_SIZES[n]
    s.min_empty = min_empty
    s.signals_on = signals_on
    for k in range(NCARDS):
        order[k] = <int8_t>(LOWEST + k)
    shuffle(bg, order, NCARDS)
    for seat in range(n):
        for j in range(s.hand_size):
            insort(s.hands[seat], &s.nhand[seat], order[at])
            at += 1
    s.ndraw = NCARDS - at
    for k in range(s.ndraw):
        s.draw[k] = order[NCARDS - 1 - k]
    for k in range(NPILES):
        s.tops[k] = FOUNDATIONS[k]
    s.current = first
    start_turn(s, first)


# ---- the encoder (encoding.py's arithmetic, see its docstring) ---------------------------------
cdef inline int count_open(int *prefix, int lo, int hi) noexcept nogil:
    """Open cards with values in [lo, hi] (``prefix[v]``: open cards below v, v in 0..128)."""
    if lo < 0:
        lo = 0
    if hi > 127:
        hi = 127
    if hi < lo:
        return 0
    return prefix[hi + 1] - prefix[lo]


cdef void encode_c(TG *s, int seat, float *o) noexcept nogil:
    """The observation of ``seat`` into ``o``: ``encoding.encode_python`` of the same state (the
    card vectors, the pile blocks of ``_pile_blocks``, the seat blocks, turn and options)."""
    cdef uint8_t is_open[128]
    cdef uint8_t is_mine[128]
    cdef int prefix[129]
    cdef int n = s.n, k, p, c, top, room, fits, cheapest, zero, cost, lowest, highest, held, cur
    cdef int current, acting, sk, v
    cdef int8_t *hand = s.hands[seat]
    cdef float *b
    memset(o, 0, OBS_SIZE * sizeof(float))
    memset(is_mine, 0, sizeof(is_mine))
    for k in range(128):
        is_open[k] = 1 if LOWEST <= k <= HIGHEST else 0
    for p in range(NPILES):
        for k in range(s.npile[p]):
            c = s.piles[p][k]
            is_open[c] = 0
            o[NCARDS + c - LOWEST] = 1.0
    for k in range(s.nhand[seat]):
        c = hand[k]
        is_mine[c] = 1
        o[c - LOWEST] = 1.0
    prefix[0] = 0
    for k in range(128):
        prefix[k + 1] = prefix[k] + is_open[k]
        if LOWEST <= k <= HIGHEST and is_open[k] and not is_mine[k]:
            o[2 * NCARDS + k - LOWEST] = 1.0
    current = -1 if s.over else s.current
    acting = current == seat
    b = o + 3 * NCARDS
    for p in range(NPILES):
        top = s.tops[p]
        zero = 0
        cheapest = 0
        if p < 2:  # up from 1
            room = count_open(prefix, top + 1, 127)
            fits = 0
            lowest = -1
            for c in range(top + 1 if top + 1 > 0 else 0, 128):
                if is_mine[c]:
                    fits += 1
                    if lowest < 0:
                        lowest = c
            if fits:
                cheapest = count_open(prefix, top + 1, lowest - 1)
            zero = fits and not cheapest
            if top >= 10 and is_mine[top - 10]:
                cost = -count_open(prefix, top - 9, top - 1)
                if not fits or cost < cheapest:
                    cheapest = cost
                fits += 1
                zero = zero or not cost
        else:  # down from 100
            room = count_open(prefix, 0, top - 1)
            fits = 0
            highest = -1
            for c in range(0, top if top < 128 else 128):
                if is_mine[c]:
                    fits += 1
                    highest = c
            if fits:
                cheapest = count_open(prefix, highest + 1, top - 1)
            zero = fits and not cheapest
            if top + 10 < 128 and is_mine[top + 10]:
                cost = -count_open(prefix, top + 1, top + 9)
                if not fits or cost < cheapest:
                    cheapest = cost
                fits += 1
                zero = zero or not cost
        b[0] = <float>(top / 100.0)
        b[1] = 1.0 if p < 2 else 0.0
        b[2] = <float>(s.npile[p] / 50.0)
        b[3] = <float>(room / <double>NCARDS)
        if fits:
            b[4] = <float>(cheapest / <double>NCARDS) if cheapest > 0 else 0.0
        else:
            b[4] = 1.0
        b[5] = 1.0 if zero else 0.0
        b[6] = 1.0 if fits and cheapest < 0 else 0.0
        b[7] = <float>(fits / 8.0)
        b[8] = 1.0 if acting and s.changed[p] else 0.0
        b += PILE_BLOCK
    for k in range(n):
        sk = (seat + k) % n
        held = s.nhand[sk]
        b[0] = 1.0
        b[1] = <float>(held / 8.0)
        b[2] = 1.0 if sk == current else 0.0
        b[3] = 1.0 if sk == 0 else 0.0
        b[4] = 1.0 if held == 0 else 0.0
        for p in range(NPILES):
            v = s.signals[sk][p]
            if v:
                b[5 + 2 * p + v - 1] = 1.0
        b += SEAT_BLOCK
    b = o + 3 * NCARDS + PILE_BLOCK * NPILES + SEAT_BLOCK * MAXP
    b[0] = <float>(s.played / 8.0) if acting else 0.0
    b[1] = 0.0 if s.over else <float>(s.minimum / 2.0)
    b[2] = 1.0 if acting and s.played >= s.minimum else 0.0
    b[3] = 1.0 if s.ndraw == 0 else 0.0
    b[4] = <float>(s.ndraw / <double>NCARDS)
    b[5] = <float>((NCARDS - s.on_piles) / <double>NCARDS)
    b[6] = 1.0 if s.signals_on else 0.0
    b[7] = 1.0 if s.min_empty == 2 else 0.0
    b[8 + n - 1] = 1.0
    b[8 + MAXP] = 1.0 if s.over else 0.0
    b[8 + MAXP + 1] = 1.0 if s.won else 0.0


# ---- the planner baseline as a rollout policy (agents/baselines/thegame.py, PlannerAgent) ------
cdef enum:
    MAXPLAN = 16  # at most 8 plays, 4 signals and end
    MAXMOVES = 64
    MAXSEEN = 256  # slots of the table of positions reached (max_nodes at most half)


cdef struct PlannerCfg:
    double bonus
    double dead_weight
    double last_weight
    double wait_penalty
    double help_penalty
    int wait_cost
    int help_cost
    int max_nodes


cdef struct PlanStep:  # (expected key, action): the key is (hand, tops, played, own signals)
    int8_t hand[8]
    int nhand
    int tops[4]
    int played
    int8_t sig[4]
    int action


cdef struct Plan:
    PlanStep steps[16]
    int n
    int at  # the steps before ``at`` are played (PlannerAgent._plan is steps[at:n])


cdef struct Move:
    double k
    int c
    int p
    int setup


cdef struct Search:
    PlannerCfg *cfg
    uint64_t ob[2]  # the open cards (``op``) as bits: values 0..63, 64..127
    double penalty[4]
    int need
    double best_val
    int best_seq[8][2]
    int best_len
    int fb_n
    double fb_cost
    int fb_seq[8][2]
    int fb_len
    int seq[8][2]
    int seq_len
    int nodes
    uint64_t seen_lo[256]
    uint64_t seen_hi[256]
    int seen_tops[256][4]
    double seen_cost[256]
    uint8_t used[256]


cdef inline int in_bits(uint64_t *bits, int c) noexcept nogil:
    """``in_hand`` of a hand kept as bits (``bits[0]``: cards 0..63, ``bits[1]``: 64..127)."""
    if c < 0 or c > 127:
        return 0
    return <int>((bits[c >> 6] >> (c & 63)) & 1)


cdef inline int fits_top(int card, int pile, int top) noexcept nogil:
    if pile < 2:
        return card > top or card == top - 10
    return card < top or card == top + 10


cdef inline int takes(int q, int v, int *t) noexcept nogil:
    return v > t[q] if q < 2 else v < t[q]


cdef inline int popcount64(uint64_t x) noexcept nogil:
    x = x - ((x >> 1) & <uint64_t>0x5555555555555555ULL)
    x = (x & <uint64_t>0x3333333333333333ULL) + ((x >> 2) & <uint64_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <uint64_t>0x0F0F0F0F0F0F0F0FULL
    return <int>((x * <uint64_t>0x0101010101010101ULL) >> 56)


cdef inline uint64_t bits_from(int a, int b) noexcept nogil:
    """The bits a..b (0 <= a <= b <= 63)."""
    return ((~(<uint64_t>0)) >> (63 - b)) & ((~(<uint64_t>0)) << a)


cdef inline int count_open_bits(uint64_t *ob, int lo, int hi) noexcept nogil:
    """``count_open`` of the open cards as bits (``ob[0]``: values 0..63, ``ob[1]``: 64..127)."""
    cdef int total = 0
    if lo < 0:
        lo = 0
    if hi > 127:
        hi = 127
    if hi < lo:
        return 0
    if lo < 64:
        total += popcount64(ob[0] & bits_from(lo, hi if hi < 64 else 63))
    if hi >= 64:
        total += popcount64(ob[1] & bits_from((lo if lo >= 64 else 64) - 64, hi - 64))
    return total


cdef void between_counts(uint64_t *ob, int *t, int p, int lo, int hi, int *cnt, int *dead,
                         int *last) noexcept nogil:
    """The open cards strictly between ``lo`` and ``hi``: their number, those no pile but ``p``
    takes and those exactly one other pile takes (constant between the other piles' tops)."""
    cdef int a = lo + 1, b = hi - 1, q, x, k, j, m = 0, s, e, others, c
    cdef int cuts[4]
    cnt[0] = count_open_bits(ob, a, b)
    dead[0] = 0
    last[0] = 0
    if cnt[0] == 0:
        return
    for q in range(NPILES):
        if q == p:
            continue
        x = t[q] + 1 if q < 2 else t[q]  # where the set of cards q takes begins or ends
        if a < x <= b:
            k = m
            while k > 0 and cuts[k - 1] > x:
                cuts[k] = cuts[k - 1]
                k -= 1
            cuts[k] = x
            m += 1
    s = a
    for j in range(m + 1):
        e = cuts[j] - 1 if j < m else b
        if e >= s:
            others = 0
            for q in range(NPILES):
                if q != p and takes(q, s, t):
                    others += 1
            c = count_open_bits(ob, s, e)
            if others == 0:
                dead[0] += c
            elif others == 1:
                last[0] += c
        if j < m:
            s = cuts[j]


cdef int moves_c(int8_t *h, int m, int *t, uint64_t *ob, double *penalty, double dw, double lw,
                 Move *out) noexcept nogil:
    """``_moves``: the plays from hand ``h`` (sorted) onto tops ``t``, sorted as Python sorts the
    tuples (cost, card, pile, sets up a trick); their count (``ob``: the open cards as bits)."""
    cdef int n = 0, p, i, k, c, top, step, forward, lo, hi, cnt, dead, last
    cdef int cands[10]
    cdef int ncand, j, dup
    cdef double kk
    cdef Move tmp
    cdef uint64_t hb[2]
    hb[0] = 0
    hb[1] = 0
    for k in range(m):  # the hand as bits: a card's test in one step
        hb[h[k] >> 6] |= (<uint64_t>1) << (h[k] & 63)
    for p in range(NPILES):
        top = t[p]
        ncand = 0
        if p < 2:
            i = 0
            while i < m and h[i] <= top:  # bisect_right
                i += 1
            for k in range(i + 1, m):
                if in_bits(hb, h[k] - 10):
                    cands[ncand] = h[k]
                    ncand += 1
            if i < m:
                cands[ncand] = h[i]
                ncand += 1
            if in_bits(hb, top - 10):
                cands[ncand] = top - 10
                ncand += 1
            step = -10
        else:
            i = 0
            while i < m and h[i] < top:  # bisect_left
                i += 1
            for k in range(0, (i - 1) if i - 1 > 0 else 0):
                if in_bits(hb, h[k] + 10):
                    cands[ncand] = h[k]
                    ncand += 1
            if i > 0:
                cands[ncand] = h[i - 1]
                ncand += 1
            if in_bits(hb, top + 10):
                cands[ncand] = top + 10
                ncand += 1
            step = 10
        for j in range(ncand):
            c = cands[j]
            dup = 0
            for k in range(j):
                if cands[k] == c:
                    dup = 1
            if dup:  # a set in Python
                continue
            forward = c > top if p < 2 else c < top
            if c > top:
                lo = top
                hi = c
            else:
                lo = c
                hi = top
            between_counts(ob, t, p, lo, hi, &cnt, &dead, &last)
            kk = cnt
            if cnt:
                kk += dw * dead
                kk += lw * last
                kk = kk + penalty[p] if forward else -kk
            out[n].k = kk
            out[n].c = c
            out[n].p = p
            out[n].setup = in_bits(hb, c + step)
            n += 1
    for i in range(1, n):  # insertion sort by (k, c, p, setup)
        tmp = out[i]
        j = i - 1
        while j >= 0 and (out[j].k > tmp.k or (out[j].k == tmp.k and (
                out[j].c > tmp.c or (out[j].c == tmp.c and (
                    out[j].p > tmp.p or (out[j].p == tmp.p and out[j].setup > tmp.setup)))))):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = tmp
    return n


cdef void dfs(Search *S, int8_t *h, int m, int *t, uint8_t *op, int n, double cost) noexcept nogil:
    cdef Move mv[64]
    cdef int nm, k, i, j, found
    cdef double val
    cdef uint64_t lo = 0, hi = 0
    cdef int8_t h2[8]
    cdef int t2[4]
    cdef int c, p
    S.nodes += 1
    if n >= S.need:
        val = cost - S.cfg.bonus * n
        if val < S.best_val:
            S.best_val = val
            S.best_len = S.seq_len
            memcpy(S.best_seq, S.seq, sizeof(S.seq))
    elif n > S.fb_n or (n == S.fb_n and -cost > -S.fb_cost):
        S.fb_n = n
        S.fb_cost = cost
        S.fb_len = S.seq_len
        memcpy(S.fb_seq, S.seq, sizeof(S.seq))
    if S.nodes >= S.cfg.max_nodes or m == 0:
        return
    for k in range(m):
        if h[k] < 64:
            lo |= (<uint64_t>1) << h[k]
        else:
            hi |= (<uint64_t>1) << (h[k] - 64)
    # the positions reached (a dict in Python): an open-addressing table of MAXSEEN slots,
    # never more than half full (at most max_nodes <= MAXSEEN / 2 positions)
    i = <int>(((lo * <uint64_t>0x9E3779B97F4A7C15ULL) ^ (hi * <uint64_t>0xC2B2AE3D27D4EB4FULL)
               ^ (<uint64_t>(t[0] | (t[1] << 7) | (t[2] << 14) | (t[3] << 21))
                  * <uint64_t>0x165667B19E3779F9ULL)) >> 56)
    while True:
        if not S.used[i]:
            S.used[i] = 1
            S.seen_lo[i] = lo
            S.seen_hi[i] = hi
            for k in range(NPILES):
                S.seen_tops[i][k] = t[k]
            S.seen_cost[i] = cost
            break
        if (S.seen_lo[i] == lo and S.seen_hi[i] == hi and S.seen_tops[i][0] == t[0]
                and S.seen_tops[i][1] == t[1] and S.seen_tops[i][2] == t[2]
                and S.seen_tops[i][3] == t[3]):
            if S.seen_cost[i] <= cost:
                return
            S.seen_cost[i] = cost
            break
        i = (i + 1) & (MAXSEEN - 1)
    nm = moves_c(h, m, t, S.ob, S.penalty, S.cfg.dead_weight, S.cfg.last_weight, mv)
    for i in range(nm):
        if n >= S.need and mv[i].k >= S.cfg.bonus and not mv[i].setup:
            continue  # an extra play only when cheap, or to set up a trick
        c = mv[i].c
        p = mv[i].p
        j = 0
        found = 0
        for k in range(m):
            if h[k] == c and not found:
                found = 1
                continue
            h2[j] = h[k]
            j += 1
        for k in range(NPILES):
            t2[k] = t[k]
        t2[p] = c
        op[c] = 0
        S.ob[c >> 6] &= ~((<uint64_t>1) << (c & 63))
        S.seq[S.seq_len][0] = c
        S.seq[S.seq_len][1] = p
        S.seq_len += 1
        dfs(S, h2, j, t2, op, n + 1, cost + mv[i].k)
        S.seq_len -= 1
        op[c] = 1
        S.ob[c >> 6] |= (<uint64_t>1) << (c & 63)


cdef int play_cost_c(int card, int pile, int top, uint8_t *op) noexcept nogil:
    """``encoding.play_cost``: open cards jumped over (negative for the backwards trick)."""
    cdef int lo, hi, v, cnt = 0
    if card > top:  # the cards strictly between the card and the top
        lo = top
        hi = card
    else:
        lo = card
        hi = top
    for v in range(lo + 1, hi):
        if LOWEST <= v <= HIGHEST and op[v]:
            cnt += 1
    if (pile < 2 and card > top) or (pile >= 2 and card < top):
        return cnt
    return -cnt


cdef inline void plan_key(PlanStep *st, int8_t *hand, int m, int *tops, int played,
                          int8_t *sig) noexcept nogil:
    cdef int k
    for k in range(m):
        st.hand[k] = hand[k]
    st.nhand = m
    for k in range(NPILES):
        st.tops[k] = tops[k]
        st.sig[k] = sig[k]
    st.played = played


cdef int plan_turn(TG *s, PlannerCfg *cfg, int seat, Plan *plan) noexcept nogil:
    """``PlannerAgent.plan_turn`` of the current seat into ``plan``; its length."""
    cdef Search S
    cdef uint8_t op[128]
    cdef int8_t hand[8]
    cdef int tops[4]
    cdef int8_t sig[4]
    cdef int m = s.nhand[seat], k, p, q, played = s.played, c, best, any_fit, cost, want
    cdef int np_ = 0, need, k2
    memset(op, 0, sizeof(op))
    for k in range(LOWEST, HIGHEST + 1):
        op[k] = 1
    for p in range(NPILES):
        for k in range(s.npile[p]):
            op[s.piles[p][k]] = 0
    for k in range(m):
        hand[k] = s.hands[seat][k]
    for p in range(NPILES):
        tops[p] = s.tops[p]
        sig[p] = s.signals[seat][p]
    need = s.minimum - played
    if need < 0:
        need = 0
    S.cfg = cfg
    S.need = need
    S.best_val = INFINITY  # inf
    S.best_len = 0
    S.fb_n = -1
    S.fb_cost = INFINITY
    S.fb_len = 0
    S.seq_len = 0
    S.nodes = 0
    memset(S.used, 0, sizeof(S.used))
    for p in range(NPILES):  # pile_penalties
        S.penalty[p] = 0.0
    if s.signals_on:
        for q in range(s.n):
            if q == seat or s.nhand[q] == 0:
                continue
            for p in range(NPILES):
                if s.signals[q][p] == 1 and cfg.wait_penalty > S.penalty[p]:
                    S.penalty[p] = cfg.wait_penalty
                elif s.signals[q][p] == 2 and cfg.help_penalty > S.penalty[p]:
                    S.penalty[p] = cfg.help_penalty
    S.ob[0] = 0
    S.ob[1] = 0
    for k in range(128):
        if op[k]:
            S.ob[k >> 6] |= (<uint64_t>1) << (k & 63)
    dfs(&S, hand, m, tops, op, 0, 0.0)
    if not S.best_val < INFINITY:
        S.best_len = S.fb_len
        memcpy(S.best_seq, S.fb_seq, sizeof(S.seq))
    for k in range(S.best_len):  # plays: op is whole again (dfs restores it)
        c = S.best_seq[k][0]
        p = S.best_seq[k][1]
        plan_key(&plan.steps[np_], hand, m, tops, played, sig)
        plan.steps[np_].action = (c - LOWEST) * 4 + p
        np_ += 1
        q = 0
        for k2 in range(m):
            if hand[k2] != c:
                hand[q] = hand[k2]
                q += 1
        m = q
        tops[p] = c
        played += 1
    if played < s.minimum:
        plan.n = np_
        return np_  # stuck: the game ends after these plays (G9)
    if s.signals_on:
        for k in range(S.best_len):
            op[S.best_seq[k][0]] = 0
        for p in range(NPILES):  # wanted_signals
            any_fit = 0
            best = 0
            for k in range(m):
                if fits_top(hand[k], p, tops[p]):
                    cost = play_cost_c(hand[k], p, tops[p], op)
                    if not any_fit or cost < best:
                        best = cost
                    any_fit = 1
            if not any_fit:
                want = 0
            elif best <= cfg.wait_cost:
                want = 1
            elif best <= cfg.help_cost:
                want = 2
            else:
                want = 0
            if want != sig[p] and not s.changed[p]:
                plan_key(&plan.steps[np_], hand, m, tops, played, sig)
                plan.steps[np_].action = SIGNAL0 + p * 3 + want
                np_ += 1
                sig[p] = <int8_t>want
    plan_key(&plan.steps[np_], hand, m, tops, played, sig)
    plan.steps[np_].action = END
    np_ += 1
    plan.n = np_
    return np_


cdef int planner_act(TG *s, PlannerCfg *cfg, Plan *plan) noexcept nogil:
    """``PlannerAgent.act`` of the current seat, its plan (``_plan``) kept in ``plan``."""
    cdef int seat = s.current, k, ok, m, a
    cdef int acts[MAXLEGAL]
    cdef PlanStep *st
    cdef Plan fresh
    m = legal(s, acts)
    if m == 0:  # a loaded state G9 should have ended: nothing to play
        return -1
    if plan.at < plan.n:
        st = &plan.steps[plan.at]
        ok = st.nhand == s.nhand[seat] and st.played == s.played
        if ok:
            for k in range(st.nhand):
                if st.hand[k] != s.hands[seat][k]:
                    ok = 0
            for k in range(NPILES):
                if st.tops[k] != s.tops[k] or st.sig[k] != s.signals[seat][k]:
                    ok = 0
        if ok:
            ok = 0
            for k in range(m):
                if acts[k] == st.action:
                    ok = 1
            if ok:
                plan.at += 1
                return st.action
    fresh.at = 0
    plan_turn(s, cfg, seat, &fresh)
    ok = 0
    if fresh.n:
        a = fresh.steps[0].action
        for k in range(m):
            if acts[k] == a:
                ok = 1
    if not ok:  # cannot happen with a consistent view
        return acts[0]
    plan[0] = fresh
    plan.at = 1
    return fresh.steps[0].action


cdef PlannerCfg planner_cfg(object agent) except *:
    cdef PlannerCfg cfg
    cfg.bonus = agent.bonus
    cfg.dead_weight = agent.dead_weight
    cfg.last_weight = agent.last_weight
    cfg.wait_penalty = agent.wait_penalty
    cfg.help_penalty = agent.help_penalty
    cfg.wait_cost = agent.wait_cost
    cfg.help_cost = agent.help_cost
    cfg.max_nodes = agent.max_nodes
    if not 1 <= cfg.max_nodes <= MAXSEEN // 2:
        raise ConfigError(f"thegame native planner: max_nodes {cfg.max_nodes}; allowed: "
                          f"1..{MAXSEEN // 2}")
    return cfg


cdef PlannerCfg default_planner_cfg() noexcept:
    cdef PlannerCfg cfg
    cfg.bonus = 1.5
    cfg.dead_weight = 5.0
    cfg.last_weight = 1.0
    cfg.wait_penalty = 4.0
    cfg.help_penalty = 2.0
    cfg.wait_cost = 2
    cfg.help_cost = 5
    cfg.max_nodes = 120
    return cfg


cdef class NativePlanner:
    """``PlannerAgent`` (``agents/baselines/thegame.py``) in C, one per seat: ``act(state)``
    gives the action the Python agent of the current seat gives for its view, its turn plan kept
    between calls as the Python agent keeps it. Settings are the agent's (``from_agent``) or its
    defaults."""

    cdef PlannerCfg cfg
    cdef Plan plans[5]

    def __init__(self, agent=None):
        self.cfg = default_planner_cfg() if agent is None else planner_cfg(agent)
        self.reset()

    def reset(self):
        cdef int k
        for k in range(MAXP):
            self.plans[k].n = 0
            self.plans[k].at = 0

    def act(self, NativeState state):
        """The action of the current seat's planner (a ConfigError once the game is over)."""
        if state.s.over:
            raise ConfigError("thegame native planner: the game is over; no seat acts")
        return planner_act(&state.s, &self.cfg, &self.plans[state.s.current])


# ---- Python state <-> struct -------------------------------------------------------------------
cdef int check_range(str what, object value, long low, long high) except? -1:
    if type(value) is not int and not isinstance(value, (int, np.integer)):
        raise ConfigError(f"thegame state: {what} is {value!r}; allowed: an int in {low}..{high}")
    if not low <= value <= high:
        raise ConfigError(f"thegame state: {what} is {value}; allowed: {low}..{high}")
    return <int>value


cdef int load_cards(int8_t *dst, object cards, int cap, str what) except -1:
    cdef Py_ssize_t m = len(cards), k
    if m > cap:
        raise ConfigError(f"thegame state: {what} holds {m} cards; allowed: at most {cap}")
    for k in range(m):
        c = cards[k]
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not LOWEST <= c <= HIGHEST:
            raise ConfigError(
                f"thegame state: {what} holds card {c!r}; allowed: {LOWEST}..{HIGHEST}")
        dst[k] = <int8_t>c
    return <int>m


cdef int load_state(TG *s, object st) except -1:
    """The struct of a ``TheGameState`` that will be played on (rules.py's fields, their meaning
    unchanged): every index the C code uses is checked, and that the zones hold the 98 cards,
    each once (no zone can then outgrow its array)."""
    cdef int n, k, p, cards = 0
    cdef uint8_t seen[128]
    memset(s, 0, sizeof(TG))
    n = check_range("num_players", st.num_players, 1, MAXP)
    s.n = n
    s.hand_size = check_range("hand_size", st.hand_size, 1, MAXHAND)
    s.min_empty = check_range("min_cards_when_empty", st.min_cards_when_empty, 1, 2)
    s.signals_on = 1 if st.signals_on else 0
    hands = st.hands
    signals = st.signals
    if len(hands) != n or len(signals) != n:
        raise ConfigError(f"thegame state: hands and signals need {n} entries")
    for k in range(n):
        s.nhand[k] = load_cards(s.hands[k], hands[k], s.hand_size, f"hands[{k}]")
        row = signals[k]
        if len(row) != NPILES:
            raise ConfigError(f"thegame state: signals[{k}] needs {NPILES} values")
        for p in range(NPILES):
            s.signals[k][p] = <int8_t>check_range(f"signals[{k}][{p}]", row[p], 0, 2)
    s.ndraw = load_cards(s.draw, st.draw_pile, NCARDS, "draw_pile")
    piles = st.piles
    tops = st.tops
    changed = st.signal_changed
    if len(piles) != NPILES or len(tops) != NPILES or len(changed) != NPILES:
        raise ConfigError(
            f"thegame state: piles, tops and signal_changed need {NPILES} entries")
    for p in range(NPILES):
        s.npile[p] = load_cards(s.piles[p], piles[p], NCARDS, f"piles[{p}]")
        s.tops[p] = check_range(f"tops[{p}]", tops[p], 1, 100)
        s.changed[p] = 1 if changed[p] else 0
    memset(seen, 0, sizeof(seen))
    for k in range(n):
        for p in range(s.nhand[k]):
            seen[s.hands[k][p]] += 1
    for k in range(s.ndraw):
        seen[s.draw[k]] += 1
    for p in range(NPILES):
        for k in range(s.npile[p]):
            seen[s.piles[p][k]] += 1
    for k in range(LOWEST, HIGHEST + 1):
        if seen[k] != 1:
            raise ConfigError(
                f"thegame state: card {k} is in {seen[k]} zones; allowed: every card of the deck "
                f"in exactly one zone (a hand, the draw pile or a pile)")
    s.over = 1 if st.over else 0
    s.won = 1 if st.won else 0
    s.current = check_range("current", st.current, -1 if s.over else 0, n - 1)
    s.minimum = check_range("minimum", st.minimum, 0, MIN_CARDS)
    s.played = check_range("played_this_turn", st.played_this_turn, 0, NCARDS)
    s.on_piles = check_range("on_piles", st.on_piles, 0, NCARDS)
    s.turn_index = st.turn_index
    s.decisions = st.decisions
    return 0


cdef inline int view_int(object value, long low, long high) except? -2:
    """``value`` for the encoder's view of a Python state: -2 when it is not an int in
    [low, high] (the reference encoder then takes the state)."""
    cdef long v
    if type(value) is not int:
        return -2
    v = <long>value
    if not low <= v <= high:
        return -2
    return <int>v


cdef int view_cards(int8_t *dst, object cards, int cap) except? -2:
    cdef Py_ssize_t m, k
    cdef list lst
    cdef object c
    cdef long v
    if type(cards) is not list:
        return -2
    lst = <list>cards
    m = len(lst)
    if m > cap:
        return -2
    for k in range(m):
        c = lst[k]
        if type(c) is not int:
            return -2
        v = <long>c
        if not LOWEST <= v <= HIGHEST:
            return -2
        dst[k] = <int8_t>v
    return <int>m


cdef int load_view(TG *s, object st, int seat) except -1:
    """The struct fields the encoder reads, of a Python state; 0 when the state is one the
    struct cannot hold or no game reaches (``encoding._encode_odd``'s: a card twice, both in the
    hand and on a pile, not a card), which the reference encoder then takes; else 1."""
    cdef int n, k, p, v
    cdef uint8_t seen[128]
    cdef list hands, signals, row, piles, tops, changed
    cdef object o
    n = view_int(st.num_players, 1, MAXP)
    if n < 0 or not 0 <= seat < n:
        return 0
    s.n = n
    o = st.hands
    if type(o) is not list:
        return 0
    hands = <list>o
    o = st.signals
    if type(o) is not list:
        return 0
    signals = <list>o
    o = st.piles
    if type(o) is not list:
        return 0
    piles = <list>o
    o = st.tops
    if type(o) is not list:
        return 0
    tops = <list>o
    o = st.signal_changed
    if type(o) is not list:
        return 0
    changed = <list>o
    if len(hands) != n or len(signals) != n or len(piles) != NPILES or len(tops) != NPILES:
        return 0
    if len(changed) != NPILES:
        return 0
    for k in range(n):
        if k == seat:
            s.nhand[k] = view_cards(s.hands[k], hands[k], MAXHAND)
        else:
            s.nhand[k] = len(hands[k])
            if s.nhand[k] > MAXHAND:
                s.nhand[k] = -2
        if s.nhand[k] < 0:
            return 0
        o = signals[k]
        if type(o) is not list:
            return 0
        row = <list>o
        if len(row) != NPILES:
            return 0
        for p in range(NPILES):
            v = view_int(row[p], 0, 2)
            if v < 0:
                return 0
            s.signals[k][p] = <int8_t>v
    memset(seen, 0, sizeof(seen))
    for k in range(s.nhand[seat]):
        seen[s.hands[seat][k]] += 1
    for p in range(NPILES):
        s.npile[p] = view_cards(s.piles[p], piles[p], NCARDS)
        if s.npile[p] < 0:
            return 0
        for k in range(s.npile[p]):
            seen[s.piles[p][k]] += 1
        s.tops[p] = view_int(tops[p], 0, 100)
        o = changed[p]
        if s.tops[p] < 0 or type(o) is not bool:
            return 0
        s.changed[p] = 1 if o is True else 0
    for k in range(LOWEST, HIGHEST + 1):
        if seen[k] > 1:
            return 0
    s.ndraw = len(st.draw_pile)
    if s.ndraw > 1 << 20:
        return 0
    o = st.signals_on
    if type(o) is not bool:
        return 0
    s.signals_on = 1 if o is True else 0
    o = st.over
    if type(o) is not bool:
        return 0
    s.over = 1 if o is True else 0
    o = st.won
    if type(o) is not bool:
        return 0
    s.won = 1 if o is True else 0
    s.min_empty = view_int(st.min_cards_when_empty, -1000, 1000)
    s.current = view_int(st.current, -1000, 1000)
    s.minimum = view_int(st.minimum, -1000, 1000)
    s.played = view_int(st.played_this_turn, -1000, 1000)
    s.on_piles = view_int(st.on_piles, -1000, 1000)
    if s.min_empty == -2 or s.current == -2 or s.minimum == -2 or s.played == -2:
        return 0
    if s.on_piles == -2:
        return 0
    return 1


cdef list cards_list(int8_t *cards, int m):
    return [cards[k] for k in range(m)]


cdef inline void check_seat(int seat, int n) except *:
    if not 0 <= seat < n:
        raise IndexError(f"thegame: seat {seat} is not a seat of this {n}-player game (0..{n - 1})")


cdef inline cnp.ndarray new_obs():
    cdef cnp.npy_intp dims[1]
    dims[0] = OBS_SIZE
    return cnp.PyArray_EMPTY(1, dims, cnp.NPY_FLOAT32, 0)


def encode(state, seat):
    """The observation of ``seat`` (``encoding.encode_python``'s, byte for byte) of a
    ``TheGameState`` or a native state."""
    cdef TG s
    cdef cnp.ndarray out
    cdef int k
    if type(state) is NativeState:
        k = seat
        check_seat(k, (<NativeState>state).s.n)
        out = new_obs()
        encode_c(&(<NativeState>state).s, k, <float *>cnp.PyArray_DATA(out))
        return out
    if (type(seat) is int or isinstance(seat, np.integer)) and -MAXP <= seat <= MAXP:
        k = seat
        if load_view(&s, state, k):
            out = new_obs()
            encode_c(&s, k, <float *>cnp.PyArray_DATA(out))
            return out
    from cardarena.envs.thegame.encoding import encode_python  # a state no game reaches

    return encode_python(state, seat)


# ---- the state object --------------------------------------------------------------------------
cdef class NativeState:
    """A thegame state on a C struct, with the numpy generator it draws from.

    Its read-only attributes have the names and values of ``TheGameState``'s (lists are fresh
    copies), so code that reads a state (renders, views, baselines) reads either."""

    cdef TG s
    cdef object _rng
    cdef object _bits  # keeps the bit generator (owner of the bitgen_t) alive
    cdef bitgen_t *bg

    cdef int _set_rng(self, object rng) except -1:
        self._rng = rng
        self._bits = rng.bit_generator
        self.bg = bitgen_of(rng)
        return 0

    # ---- construction ----
    @staticmethod
    def new_game(rng, int num_players, int min_cards_when_empty, bint signals, int first_player):
        """``TheGame.new_game(rng)`` without options (a shuffled deck, dealt)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        if not 1 <= num_players <= MAXP or not 0 <= first_player < num_players:
            raise ConfigError(f"thegame: {num_players} players, first player {first_player}; "
                              f"allowed: 1..{MAXP} players, a first player among them")
        if not 1 <= min_cards_when_empty <= 2:
            raise ConfigError(
                f"thegame: min_cards_when_empty {min_cards_when_empty}; allowed: 1 or 2")
        st._set_rng(rng)
        new_game_c(&st.s, st.bg, num_players, min_cards_when_empty, signals, first_player)
        return st

    @staticmethod
    def from_python(state, rng=None):
        """The native copy of a ``TheGameState`` (drawing from ``rng``, default its own
        generator, shared)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        load_state(&st.s, state)
        st._set_rng(state.rng if rng is None else rng)
        return st

    def to_python(self, copy_rng=True):
        """The ``TheGameState`` of this state (its generator copied, or shared)."""
        cdef TG *s = &self.s
        cdef int k
        return TheGameState(
            num_players=s.n,
            hand_size=s.hand_size,
            min_cards_when_empty=s.min_empty,
            signals_on=bool(s.signals_on),
            rng=copy_generator(self._rng) if copy_rng else self._rng,
            hands=[cards_list(s.hands[k], s.nhand[k]) for k in range(s.n)],
            draw_pile=cards_list(s.draw, s.ndraw),
            piles=[cards_list(s.piles[k], s.npile[k]) for k in range(NPILES)],
            tops=[s.tops[k] for k in range(NPILES)],
            current=s.current,
            minimum=s.minimum,
            played_this_turn=s.played,
            signals=[[s.signals[k][p] for p in range(NPILES)] for k in range(s.n)],
            signal_changed=[bool(s.changed[k]) for k in range(NPILES)],
            on_piles=s.on_piles,
            over=bool(s.over),
            won=bool(s.won),
            turn_index=s.turn_index,
            decisions=s.decisions,
        )

    def __reduce__(self):
        return (_rebuild, (self.to_python(),))

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def clone(self, rng=None):
        """An independent copy (the generator copied exactly, or replaced by ``rng``)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        st.s = self.s
        st._set_rng(copy_generator(self._rng) if rng is None else rng)
        return st

    # ---- queries ----
    def legal_actions(self):
        cdef int acts[MAXLEGAL]
        cdef int m = legal(&self.s, acts), k
        return [acts[k] for k in range(m)]

    def legal_mask(self):
        """The action mask (int8, size 405)."""
        cdef int acts[MAXLEGAL]
        cdef int m = legal(&self.s, acts), k
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        cdef int8_t[::1] view = out
        for k in range(m):
            view[acts[k]] = 1
        return out

    def current_player(self):
        return None if self.s.over else self.s.current

    def returns(self):
        cdef double v = self.s.on_piles / <double>NCARDS
        return [v] * self.s.n

    def encode(self, int seat):
        """The observation of ``seat`` (as ``encoding.encode``)."""
        cdef cnp.ndarray out = new_obs()
        check_seat(seat, self.s.n)
        encode_c(&self.s, seat, <float *>cnp.PyArray_DATA(out))
        return out

    # ---- play ----
    def apply(self, action):
        """Play ``action`` (an int) for the current seat; False (nothing changed) when it is
        not legal or the game is over (the engine raises the error)."""
        if self.s.over or not 0 <= action < NUM_ACTIONS:
            return False
        return bool(apply_action(&self.s, <int>action))

    def rollouts(self, int count, seed, str horizon="game", str policy="random"):
        """``count`` playouts from this state to the end of the game, all inside C (thegame has
        no rounds: ``horizon`` is ``"game"``). ``policy`` ``"random"``: random legal actions
        from ``np.random.default_rng(seed)``; ``"planner"``: the planner baseline (its default
        settings, a fresh agent per seat and playout; deterministic, so every playout is the
        same game). This state and its generator are unchanged. Returns (values
        float64[count, seats]: the shared return, cards on the piles / 98, decisions played)."""
        if horizon != "game":
            raise ConfigError(
                f"thegame rollouts: horizon {horizon!r}; allowed: 'game' (thegame has no rounds)")
        if count < 0:
            raise ConfigError(f"thegame rollouts: count {count}; allowed: 0 or more")
        if policy not in ("random", "planner"):
            raise ConfigError(
                f"thegame rollouts: policy {policy!r}; allowed: 'random' or 'planner'")
        cdef int use_planner = policy == "planner"
        cdef PlannerCfg cfg = default_planner_cfg()
        cdef Plan plans[5]
        rng = np.random.default_rng(seed)
        cdef object bits = rng.bit_generator  # alive until the end
        cdef bitgen_t *bg = bitgen_of(rng)
        cdef int n = self.s.n, i, m, k
        cdef long long decisions = 0
        cdef int acts[MAXLEGAL]
        cdef double v
        cdef TG w
        values = np.zeros((count, n), dtype=np.float64)
        cdef double[:, ::1] vals = values
        with nogil:
            for i in range(count):
                w = self.s
                for k in range(MAXP):
                    plans[k].n = 0
                    plans[k].at = 0
                while not w.over:
                    if use_planner:
                        m = planner_act(&w, &cfg, &plans[w.current])
                        if m < 0:
                            break
                        apply_action(&w, m)
                        decisions += 1
                        continue
                    m = legal(&w, acts)
                    if m == 0:  # a loaded state G9 should have ended: nothing to play
                        break
                    apply_action(&w, acts[random_interval(bg, <uint64_t>(m - 1))])
                    decisions += 1
                v = w.on_piles / <double>NCARDS
                for k in range(n):
                    vals[i, k] = v
        return values, decisions

    # ---- TheGameState's attribute names (read-only copies) ----
    @property
    def rng(self):
        return self._rng

    @property
    def num_players(self):
        return self.s.n

    @property
    def hand_size(self):
        return self.s.hand_size

    @property
    def min_cards_when_empty(self):
        return self.s.min_empty

    @property
    def signals_on(self):
        return bool(self.s.signals_on)

    @property
    def hands(self):
        return [cards_list(self.s.hands[k], self.s.nhand[k]) for k in range(self.s.n)]

    @property
    def draw_pile(self):
        return cards_list(self.s.draw, self.s.ndraw)

    @property
    def piles(self):
        return [cards_list(self.s.piles[k], self.s.npile[k]) for k in range(NPILES)]

    @property
    def tops(self):
        return [self.s.tops[k] for k in range(NPILES)]

    @property
    def current(self):
        return self.s.current

    @property
    def minimum(self):
        return self.s.minimum

    @property
    def played_this_turn(self):
        return self.s.played

    @property
    def signals(self):
        return [[self.s.signals[k][p] for p in range(NPILES)] for k in range(self.s.n)]

    @property
    def signal_changed(self):
        return [bool(self.s.changed[k]) for k in range(NPILES)]

    @property
    def on_piles(self):
        return self.s.on_piles

    @property
    def over(self):
        return bool(self.s.over)

    @property
    def won(self):
        return bool(self.s.won)

    @property
    def turn_index(self):
        return self.s.turn_index

    @property
    def decisions(self):
        return self.s.decisions


def _draw_interval(rng, mx):
    """One ``random_interval(mx)`` from ``rng``'s bit generator, as the rollouts draw their
    actions (for tests that replay a rollout on the Python engine)."""
    cdef object bits = rng.bit_generator
    if mx < 0:
        raise ConfigError(f"thegame: random_interval({mx}); allowed: 0 or more")
    return random_interval(bitgen_of(rng), <uint64_t>mx)


#: PlannerAgent's options and defaults (agents/baselines/thegame.py), for play_out's keywords
PLANNER_OPTIONS = {"bonus": 1.5, "dead_weight": 5.0, "last_weight": 1.0, "wait_penalty": 4.0,
                   "help_penalty": 2.0, "wait_cost": 2, "help_cost": 5, "max_nodes": 120}


class _Options:
    def __init__(self, options):
        self.__dict__.update(options)


def rollout_batch(list states, str policy="random", horizon="game", seed=0, int rollouts=1,
                  start=None, **options):
    """``rollouts`` playouts of every native state in ``states``, all inside C, with ``policy``
    (``random`` or ``planner``, with ``PlannerAgent``'s options; a fresh agent per seat and
    playout) to the ``horizon``: ``"game"`` or an int N >= 1 (N decisions); thegame has no
    rounds (``start`` must be None). The random actions come from
    ``np.random.default_rng(seed)``; the states are unchanged. Returns (values
    float64[len(states) * rollouts, seats]: the shared return, cards on the piles / 98; rollout
    r of state i in row i * rollouts + r; decisions played)."""
    cdef int i, r, k, a, m = len(states), n = 0, use_planner
    cdef long long decisions = 0, made, max_decisions = 1LL << 62
    cdef int acts[MAXLEGAL]
    cdef PlannerCfg cfg
    cdef Plan plans[5]
    cdef double v
    cdef TG w
    cdef TG *src
    if policy not in ("random", "planner"):
        raise ConfigError(f"thegame rollouts: policy {policy!r}; allowed: 'random' or 'planner'")
    use_planner = policy == "planner"
    if isinstance(horizon, int) and not isinstance(horizon, bool) and horizon >= 1:
        max_decisions = horizon
    elif horizon != "game":
        raise ConfigError(f"thegame rollouts: horizon {horizon!r}; allowed: 'game' or a number "
                          f"of decisions >= 1 (thegame has no rounds)")
    if start is not None:
        raise ConfigError(f"thegame rollouts: start {start!r}; allowed: None (thegame has no "
                          f"rounds)")
    check_rollouts(rollouts)
    unknown = sorted(set(options) - set(PLANNER_OPTIONS))
    if unknown or (options and not use_planner):
        raise ConfigError(f"thegame rollouts: options {sorted(options)} for policy {policy!r}; "
                          f"allowed: {sorted(PLANNER_OPTIONS) if use_planner else 'none'}")
    cfg = planner_cfg(_Options({**PLANNER_OPTIONS, **options}))
    for i in range(m):
        if type(states[i]) is not NativeState:
            raise ConfigError(f"thegame rollouts: a {type(states[i]).__name__} among the "
                              f"states; allowed: native states (NativeState.from_python)")
        if i and (<NativeState>states[i]).s.n != n:
            raise ConfigError(f"thegame rollouts: states of {n} and "
                              f"{(<NativeState>states[i]).s.n} players; allowed: one player "
                              f"count per call")
        n = (<NativeState>states[i]).s.n
    rng = np.random.default_rng(seed)
    cdef object bits = rng.bit_generator  # alive until the end
    cdef bitgen_t *bg = bitgen_of(rng)
    values = np.zeros((m * rollouts, n), dtype=np.float64)
    if m == 0:
        return values, 0
    cdef double[:, ::1] vals = values
    cdef void **ptrs = <void **>PyMem_Malloc(m * sizeof(void *))
    if ptrs == NULL:
        raise MemoryError()
    try:
        for i in range(m):
            ptrs[i] = <void *>&(<NativeState>states[i]).s
        with nogil:
            for i in range(m):
                src = <TG *>ptrs[i]
                for r in range(rollouts):
                    w = src[0]
                    for k in range(MAXP):
                        plans[k].n = 0
                        plans[k].at = 0
                    made = 0
                    while not w.over and made < max_decisions:
                        if use_planner:
                            a = planner_act(&w, &cfg, &plans[w.current])
                            if a < 0:
                                break
                        else:
                            k = legal(&w, acts)
                            if k == 0:  # a loaded state G9 should have ended
                                break
                            a = acts[random_interval(bg, <uint64_t>(k - 1))]
                        apply_action(&w, a)
                        made += 1
                    decisions += made
                    v = w.on_piles / <double>NCARDS
                    for k in range(n):
                        vals[i * rollouts + r, k] = v
    finally:
        PyMem_Free(ptrs)
    return values, decisions


def play_out(list states, str policy="random", start=None, seeds=None, py=None,
             long long max_decisions=20_000, **options):
    """``Rollout.run`` of the search agents on every native state, in place and in C: each state
    is played on to the game's end (thegame has no rounds: ``start`` must be None) with
    ``policy``: ``random`` (``legal[int(rng.random() * len(legal))]`` of Python's
    ``random.Random``: a fresh ``random.Random(seeds[i])`` per state, or the one ``py`` for all,
    consumed in order as many ``run(state, py)`` calls would) or ``planner`` (``PlannerAgent``'s
    decisions with its options, ``PLANNER_OPTIONS``; a fresh agent per seat and state). Returns
    values float64[len(states), seats] (the shared return)."""
    cdef MT mt
    cdef NativeState st
    cdef int i, k, a, m = len(states), n = 0, use_planner, made
    cdef int acts[MAXLEGAL]
    cdef PlannerCfg cfg
    cdef Plan plans[5]
    cdef double v
    if policy not in ("random", "planner"):
        raise ConfigError(f"thegame rollouts: policy {policy!r}; allowed: 'random' or 'planner'")
    use_planner = policy == "planner"
    if start is not None:
        raise ConfigError(f"thegame play_out: start {start!r}; allowed: None (thegame has no "
                          f"rounds: every rollout plays to the game's end)")
    unknown = sorted(set(options) - set(PLANNER_OPTIONS))
    if unknown or (options and not use_planner):
        raise ConfigError(f"thegame play_out: options {sorted(options)} for policy {policy!r}; "
                          f"allowed: {sorted(PLANNER_OPTIONS) if use_planner else 'none'}")
    cfg = planner_cfg(_Options({**PLANNER_OPTIONS, **options}))
    for i in range(m):
        if type(states[i]) is not NativeState:
            raise ConfigError(f"thegame play_out: a {type(states[i]).__name__} among the "
                              f"states; allowed: native states (NativeState.from_python)")
        if i and (<NativeState>states[i]).s.n != n:
            raise ConfigError(f"thegame play_out: states of {n} and "
                              f"{(<NativeState>states[i]).s.n} players; allowed: one player "
                              f"count per call")
        n = (<NativeState>states[i]).s.n
    check_seeds(not use_planner, seeds, py, m)
    values = np.zeros((m, n), dtype=np.float64)
    if m == 0:
        return values
    cdef double[:, ::1] vals = values
    saved = None
    if py is not None and not use_planner:
        saved = mt_load(&mt, py)
    for i in range(m):
        st = <NativeState>states[i]
        if seeds is not None and not use_planner:
            mt_seed(&mt, <uint64_t>seeds[i])
        with nogil:
            for k in range(MAXP):
                plans[k].n = 0
                plans[k].at = 0
            made = 0
            while not st.s.over and made < max_decisions:
                if use_planner:
                    a = planner_act(&st.s, &cfg, &plans[st.s.current])
                    if a < 0:
                        break
                else:
                    k = legal(&st.s, acts)
                    if k == 0:  # a loaded state G9 should have ended: nothing to play
                        break
                    a = acts[<int>(mt_random(&mt) * k)]
                apply_action(&st.s, a)
                made += 1
            v = st.s.on_piles / <double>NCARDS
            for k in range(n):
                vals[i, k] = v
    if saved is not None:
        mt_store(&mt, py, saved)
    return values


def _rebuild(state):
    """The unpickled native state (pickled as its ``TheGameState``)."""
    return NativeState.from_python(state)
