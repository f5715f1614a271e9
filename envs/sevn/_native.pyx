# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""SEVN on a C struct: the native core (engine state, encoder, random rollouts).

The same game as ``rules.py`` (rule ids S1-S27 of ``docs/rules/sevn.md``), step for step: every
function below mirrors the method of ``SevnGame`` it names, in the same order of effects, so that
both cores reach the same states. Every random number is drawn from the numpy bit generator of the
state's ``np.random.Generator`` through numpy's C API (``bitgen_t``), with numpy's own algorithm
(``Generator.permutation``: a Fisher-Yates shuffle whose indices come from ``random_interval``),
so the same seed gives the same game on either core and the generator ends in the same state.
``tests/test_native_sevn.py`` steps both cores side by side.

The encoder computes every float as ``encoding.encode_python`` does (double precision, rounded to
float32 at the end, the same operations; the sums over the next-card pile are whole numbers, so
they are exact in any order), so the observation is byte-identical (-0.0 included: a held number
of a row scoring 0 loses ``-0.0`` points, as ``encoding_rows`` writes it).

The random-number plumbing every game's core shares (numpy's ``random_interval`` and
permutation, Python's Mersenne Twister for the random rollout policy) is
``envs/core/_native_common.pxi``, included below.

Built optionally by ``setup.py``; ``native.py`` is the Python side (``NATIVE_AVAILABLE``).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport pow
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset

cimport numpy as cnp
from numpy.random cimport bitgen_t

import numpy as np

from cardarena.envs.core.engine import ConfigError, copy_generator
from cardarena.envs.sevn.rules import SevnState

cdef str GAME = "sevn"  # the name the shared code's errors start with
include "../core/_native_common.pxi"

cnp.import_array()

# ---- constants of rules.py and encoding_tables.py (checked by tests/test_native_sevn.py) -------
cdef enum:
    NK = 31
    LAST_VALUE = 16
    BALLAST_M2 = 14
    X2 = 17
    LAST_MODIFIER = 22
    FREEZE = 23
    SECOND_CHANCE = 24
    FLIP_THREE = 25
    FORK = 26
    STORM = 27
    FEATHERWEIGHT = 28
    HEAVYWEIGHT = 29
    STRAIGHT = 30
    NUMBER_MASK = 16383
    SEVN_VALUES = 7
    SEVN_BONUS = 17
    FEATHERWEIGHT_POINTS = 15
    HEAVYWEIGHT_POINTS = 12
    STRAIGHT_POINTS_PER_CARD = 4
    IN_HAND = 0
    PASSED = 1
    FROZEN = 2
    BUSTED = 3
    NO_DECISION = 0
    TURN = 1
    TARGET_FREEZE = 2
    TARGET_FLIP_THREE = 3
    TARGET_SECOND_CHANCE = 4
    FORK_CHOICE = 5
    KEEP_BALLAST = 6
    NUM_DECISIONS = 7
    MAXP = 8
    PASS = 0
    DRAW = 1
    TARGET0 = 2
    FORK0 = 10
    KEEP = 12
    DISCARD = 13
    NUM_ACTIONS = 14
    DECK = 120
    ROWCAP = 120
    QCAP = 128
    QCAP_LOADED = 64  # a hand's draws can queue at most 25 more (3 FLIP_THREE, 2 STORM)
    SEAT_BLOCK = 44
    QUEUE_SHOWN = 4
    OBS_SIZE = 576

cdef int CARD_VALUE[31]
CARD_VALUE[:] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -2, -4, -6,
                 0, 2, 4, 6, 8, 10, 0, 0, 0, 0, 0, 0, 0, 0]
cdef int DECK_COUNTS[31]
DECK_COUNTS[:] = [1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 2, 2, 2,
                  1, 1, 1, 1, 1, 1, 3, 3, 3, 2, 2, 1, 1, 1]
#: the bit of a kept non-value card among the seat block's flags 25..34 (0: none)
cdef int KEPT_BIT[31]
KEPT_BIT[:] = [0] * 17 + [1, 2, 4, 8, 16, 32, 0, 512, 0, 0, 0, 64, 128, 256]
cdef uint8_t FULL_DECK[120]
_full = [card for card in range(NK) for _ in range(DECK_COUNTS[card])]
for _k in range(DECK):
    FULL_DECK[_k] = _full[_k]

NUM_CARD_KINDS_C = NK
OBS_SIZE_C = OBS_SIZE
NUM_ACTIONS_C = NUM_ACTIONS
CARD_VALUE_C = [CARD_VALUE[k] for k in range(NK)]
DECK_COUNTS_C = [DECK_COUNTS[k] for k in range(NK)]
FULL_DECK_C = [FULL_DECK[k] for k in range(DECK)]
KEPT_BIT_C = [KEPT_BIT[k] for k in range(NK)]


cdef struct S7:
    int n
    int target
    int dealer
    int scores[8]
    uint8_t draw[120]  # top of the pile is the end (draw[ndraw - 1]), as in rules.py
    int ndraw
    uint8_t discard[120]
    int ndiscard
    uint8_t table[8][120]
    int ntable[8]
    int status[8]
    int values[8]
    int second[8]
    int x2[8]
    uint8_t aside[2]
    int naside
    int8_t queue[128]  # queue[0] is the next pending draw
    int nqueue
    int deal_pos
    int decision
    int decider
    int next_turn
    int banked[8]
    int last_banked[8]
    int last_sevn
    int winners[8]
    int nwin
    int over
    int hand_index
    long long decisions


cdef inline int popcount(int x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef inline int longest_run(int mask) noexcept nogil:
    cdef int run = 0
    while mask:
        mask &= mask << 1
        run += 1
    return run


cdef inline int bonus_points(int bonus, int count, int low, int high, int bits) noexcept nogil:
    """S22-S24 of ``hand_score`` from a row's sums (``encoding_rows._bonus_points``)."""
    cdef int points = 0, run
    if bonus & 1 and count >= 4 and low == count:
        points += FEATHERWEIGHT_POINTS
    if bonus & 2 and high >= 3:
        points += HEAVYWEIGHT_POINTS
    if bonus & 4:
        run = longest_run(bits & NUMBER_MASK)
        if run >= 3:
            points += STRAIGHT_POINTS_PER_CARD * run
    return points


# ---- the engine (SevnGame's methods, same names) -----------------------------------------------
cdef int hand_score(S7 *s, int seat, int sevn) noexcept nogil:
    """S21-S25 (``rules.hand_score``) of ``seat``'s row."""
    cdef int total = 0, modifiers = 0, doubled = 0, bonus = 0, bits = 0
    cdef int count = 0, low = 0, high = 0, k, c, v, score
    for k in range(s.ntable[seat]):
        c = s.table[seat][k]
        if c <= LAST_VALUE:
            v = CARD_VALUE[c]
            total += v
            bits |= 1 << c
            count += 1
            low += v <= 6
            high += v >= 10
        elif c == X2:
            doubled = 1
        elif c <= LAST_MODIFIER:
            modifiers += CARD_VALUE[c]
        elif c == FEATHERWEIGHT:
            bonus |= 1
        elif c == HEAVYWEIGHT:
            bonus |= 2
        elif c == STRAIGHT:
            bonus |= 4
    score = (2 * total if doubled else total) + modifiers
    score += bonus_points(bonus, count, low, high, bits)
    if sevn:
        score += SEVN_BONUS
    return score if score > 0 else 0


cdef inline void bank(S7 *s, int seat, int sevn) noexcept nogil:
    cdef int points = hand_score(s, seat, sevn)
    s.scores[seat] += points
    s.banked[seat] = points


cdef void start_hand(S7 *s) noexcept nogil:
    cdef int k
    for k in range(s.n):
        s.status[k] = IN_HAND
        s.values[k] = 0
        s.second[k] = 0
        s.x2[k] = 0
        s.banked[k] = -1
    s.next_turn = (s.dealer + 1) % s.n
    s.nqueue = 0
    s.deal_pos = 0


cdef void end_hand(S7 *s, int sevn_seat) noexcept nogil:
    cdef int seat, k, best, count, at
    cdef int n = s.n
    for seat in range(n):
        for k in range(s.ntable[seat]):
            s.discard[s.ndiscard] = s.table[seat][k]
            s.ndiscard += 1
        s.ntable[seat] = 0
    s.nqueue = 0
    for k in range(n):
        s.values[k] = 0
        s.second[k] = 0
        s.x2[k] = 0
        s.last_banked[k] = s.banked[k]
    s.last_sevn = sevn_seat
    s.hand_index += 1
    best = s.scores[0]
    at = 0
    for k in range(1, n):
        if s.scores[k] > best:
            best = s.scores[k]
            at = k
    count = 0
    for k in range(n):
        if s.scores[k] == best:
            count += 1
    if best >= s.target and count == 1:
        s.winners[0] = at
        s.nwin = 1
        s.over = 1
        s.decision = NO_DECISION
        s.decider = -1
        for k in range(n):
            s.banked[k] = -1
        return
    s.dealer = (s.dealer + 1) % n
    start_hand(s)


cdef inline int draw(S7 *s, bitgen_t *bg) noexcept nogil:
    """``_draw``: the top card, reshuffling the discard pile first when the draw pile is empty
    (``rng.permutation``); -1 when both piles are empty (impossible by the card count)."""
    if s.ndraw == 0:
        if s.ndiscard == 0:
            return -1
        memcpy(s.draw, s.discard, s.ndiscard)
        shuffle(bg, s.draw, s.ndiscard)
        s.ndraw = s.ndiscard
        s.ndiscard = 0
    s.ndraw -= 1
    return s.draw[s.ndraw]


cdef inline void to_table(S7 *s, int seat, int card) noexcept nogil:
    s.table[seat][s.ntable[seat]] = <uint8_t>card
    s.ntable[seat] += 1


cdef inline void to_discard(S7 *s, int card) noexcept nogil:
    s.discard[s.ndiscard] = <uint8_t>card
    s.ndiscard += 1


cdef int takers(S7 *s, int drawer) noexcept nogil:
    """``second_chance_takers`` as a mask of seats."""
    cdef int k, mask = 0
    for k in range(s.n):
        if k != drawer and s.status[k] == IN_HAND and not s.second[k]:
            mask |= 1 << k
    return mask


cdef void sevn(S7 *s, int seat) noexcept nogil:
    cdef int k
    for k in range(s.n):
        if s.status[k] == IN_HAND:
            bank(s, k, k == seat)
    end_hand(s, seat)


cdef inline void add_value(S7 *s, int seat, int card) noexcept nogil:
    to_table(s, seat, card)
    s.values[seat] |= 1 << card
    if popcount(s.values[seat]) == SEVN_VALUES:
        sevn(s, seat)


cdef void resolve(S7 *s, bitgen_t *bg, int seat, int card) noexcept nogil:
    """``_resolve``: ``card`` drawn by ``seat`` (S9-S17); may leave a decision pending."""
    cdef int k, found, m, first
    if card < 0:
        return
    if card <= LAST_VALUE:
        if card >= BALLAST_M2:
            s.aside[s.naside] = <uint8_t>card
            s.naside += 1
            s.decision = KEEP_BALLAST
            s.decider = seat
            return
        if s.values[seat] >> card & 1:
            if s.second[seat]:  # the first SECOND_CHANCE of the row leaves it
                found = 0
                m = s.ntable[seat]
                for k in range(m):
                    if found:
                        s.table[seat][k - 1] = s.table[seat][k]
                    elif s.table[seat][k] == SECOND_CHANCE:
                        found = 1
                if found:
                    s.ntable[seat] = m - 1
                s.second[seat] = 0
                to_discard(s, SECOND_CHANCE)
                to_discard(s, card)
            else:
                to_table(s, seat, card)
                s.status[seat] = BUSTED
            return
        add_value(s, seat, card)
        return
    if card <= LAST_MODIFIER or card >= FEATHERWEIGHT:
        to_table(s, seat, card)
        if card == X2:
            s.x2[seat] = 1
        return
    if card == FREEZE or card == FLIP_THREE:
        s.aside[s.naside] = <uint8_t>card
        s.naside += 1
        s.decision = TARGET_FREEZE if card == FREEZE else TARGET_FLIP_THREE
        s.decider = seat
    elif card == SECOND_CHANCE:
        if not s.second[seat]:
            to_table(s, seat, card)
            s.second[seat] = 1
        elif takers(s, seat):
            s.aside[s.naside] = <uint8_t>card
            s.naside += 1
            s.decision = TARGET_SECOND_CHANCE
            s.decider = seat
        else:
            to_discard(s, card)
    elif card == FORK:
        to_table(s, seat, card)
        first = draw(s, bg)
        s.aside[s.naside] = <uint8_t>first
        s.naside += 1
        s.aside[s.naside] = <uint8_t>draw(s, bg)
        s.naside += 1
        s.decision = FORK_CHOICE
        s.decider = seat
    else:  # STORM
        to_table(s, seat, card)
        for k in range(s.n):
            m = (seat + k) % s.n
            if s.status[m] == IN_HAND:
                s.queue[s.nqueue] = <int8_t>m
                s.nqueue += 1


cdef void advance(S7 *s, bitgen_t *bg) noexcept nogil:
    cdef int seat, k, found
    cdef int n = s.n
    while not s.over and s.decision == NO_DECISION:
        if s.nqueue:
            seat = s.queue[0]
            s.nqueue -= 1
            memmove(&s.queue[0], &s.queue[1], s.nqueue)
            if s.status[seat] == IN_HAND:
                resolve(s, bg, seat, draw(s, bg))
            continue
        if s.deal_pos < n:
            seat = (s.dealer + 1 + s.deal_pos) % n
            s.deal_pos += 1
            if s.status[seat] == IN_HAND:
                resolve(s, bg, seat, draw(s, bg))
            continue
        seat = s.next_turn
        found = 0
        for k in range(n):
            if s.status[seat] == IN_HAND:
                s.decision = TURN
                s.decider = seat
                found = 1
                break
            seat = (seat + 1) % n
        if not found:
            end_hand(s, -1)


cdef int legal(S7 *s, int *out) noexcept nogil:
    """The legal actions (sorted) into ``out``; their count."""
    cdef int k, m = 0, mask
    cdef int decision = s.decision
    if s.over:
        return 0
    if decision == TURN:
        out[0] = PASS
        out[1] = DRAW
        return 2
    if decision == TARGET_FREEZE or decision == TARGET_FLIP_THREE:
        for k in range(s.n):
            if s.status[k] == IN_HAND:
                out[m] = TARGET0 + k
                m += 1
        return m
    if decision == TARGET_SECOND_CHANCE:
        mask = takers(s, s.decider)
        for k in range(s.n):
            if mask >> k & 1:
                out[m] = TARGET0 + k
                m += 1
        return m
    if decision == FORK_CHOICE:
        out[0] = FORK0
        out[1] = FORK0 + 1
        return 2
    if decision == KEEP_BALLAST and s.naside:
        if s.values[s.decider] >> s.aside[0] & 1:
            out[0] = DISCARD
            return 1
        out[0] = KEEP
        out[1] = DISCARD
        return 2
    return 0


cdef int is_legal(S7 *s, int action) noexcept nogil:
    cdef int acts[14]
    cdef int m = legal(s, acts), k
    for k in range(m):
        if acts[k] == action:
            return 1
    return 0


cdef void apply_action(S7 *s, bitgen_t *bg, int action) noexcept nogil:
    """``apply`` of a legal action by the deciding seat (the caller checked both)."""
    cdef int seat = s.decider
    cdef int decision = s.decision
    cdef int target, card, chosen, other
    s.decisions += 1
    s.decision = NO_DECISION
    if decision == TURN:
        s.next_turn = (seat + 1) % s.n
        if action == PASS:
            s.status[seat] = PASSED
            bank(s, seat, 0)
        else:
            resolve(s, bg, seat, draw(s, bg))
    elif decision == FORK_CHOICE:
        chosen = s.aside[action - FORK0]
        other = s.aside[1 - (action - FORK0)]
        s.naside = 0
        to_discard(s, other)
        resolve(s, bg, seat, chosen)
    elif decision == KEEP_BALLAST:
        s.naside -= 1
        card = s.aside[s.naside]
        if action == DISCARD:
            to_discard(s, card)
        else:
            add_value(s, seat, card)
    else:
        target = action - TARGET0
        s.naside -= 1
        card = s.aside[s.naside]
        to_table(s, target, card)
        if decision == TARGET_FREEZE:
            s.status[target] = FROZEN
            bank(s, target, 0)
        elif decision == TARGET_FLIP_THREE:
            for chosen in range(3):
                s.queue[s.nqueue] = <int8_t>target
                s.nqueue += 1
        else:
            s.second[target] = 1
    advance(s, bg)


cdef void new_game_c(S7 *s, bitgen_t *bg, int n, int target, int dealer) noexcept nogil:
    """``new_game`` without options: the whole deck shuffled (``stack_deck``), dealt."""
    cdef uint8_t top_first[120]
    cdef int k
    memset(s, 0, sizeof(S7))
    s.n = n
    s.target = target
    s.dealer = dealer
    memcpy(top_first, FULL_DECK, DECK)
    shuffle(bg, top_first, DECK)
    for k in range(DECK):
        s.draw[k] = top_first[DECK - 1 - k]
    s.ndraw = DECK
    for k in range(n):
        s.last_banked[k] = -1
    s.decision = NO_DECISION
    s.decider = -1
    s.last_sevn = -1
    start_hand(s)
    advance(s, bg)


cdef void returns_c(S7 *s, double *out) noexcept nogil:
    cdef int k
    cdef double win, lose
    if not s.over or s.nwin == 0 or s.nwin == s.n:
        for k in range(s.n):
            out[k] = 0.0
        return
    win = 1.0 / s.nwin
    lose = -1.0 / (s.n - s.nwin)
    for k in range(s.n):
        out[k] = lose
    for k in range(s.nwin):
        out[s.winners[k]] = win


cdef void standing_c(S7 *s, double *out) noexcept nogil:
    """``standing`` of every seat: lead over the best other seat / target score."""
    cdef int k, j, best
    for k in range(s.n):
        best = -2147483647
        for j in range(s.n):
            if j != k and s.scores[j] > best:
                best = s.scores[j]
        out[k] = (s.scores[k] - best) / <double>s.target


# ---- the encoder (encoding.encode_python's arithmetic, see the module docstring) ---------------
cdef inline double clip(double x) noexcept nogil:
    return -1.0 if x < -1.0 else (2.0 if x > 2.0 else x)


cdef inline double min2(double x) noexcept nogil:
    return 2.0 if x > 2.0 else x


cdef int row_deltas(S7 *s, int seat, double *out) noexcept nogil:
    """``encoding_rows._delta_pair``'s deltas of ``seat``'s row (points, as doubles: the same
    values and zero signs); returns the row's hand score (``hand_score(row)``)."""
    cdef int total = 0, modifiers = 0, doubled = 0, bonus = 0, bits = 0
    cdef int count = 0, low = 0, high = 0, k, c, v, t, raw, points, now, after, is_sevn
    cdef int values = s.values[seat]
    cdef int second = s.second[seat]
    for k in range(s.ntable[seat]):
        c = s.table[seat][k]
        if c <= LAST_VALUE:
            v = CARD_VALUE[c]
            total += v
            bits |= 1 << c
            count += 1
            low += v <= 6
            high += v >= 10
        elif c == X2:
            doubled = 1
        elif c <= LAST_MODIFIER:
            modifiers += CARD_VALUE[c]
        elif c == FEATHERWEIGHT:
            bonus |= 1
        elif c == HEAVYWEIGHT:
            bonus |= 2
        elif c == STRAIGHT:
            bonus |= 4
    raw = (2 * total if doubled else total) + modifiers
    points = bonus_points(bonus, count, low, high, bits) if bonus else 0
    now = raw + points if raw + points > 0 else 0
    is_sevn = popcount(values) + 1 == SEVN_VALUES
    for c in range(LAST_VALUE + 1):
        if values >> c & 1:
            out[c] = 0.0 if second or c >= BALLAST_M2 else -<double>now
        else:
            v = CARD_VALUE[c]
            t = total + v
            after = (2 * t if doubled else t) + modifiers
            if bonus:
                after += bonus_points(
                    bonus, count + 1, low + (v <= 6), high + (v >= 10), bits | 1 << c)
            if is_sevn:
                after += SEVN_BONUS
            after = (after if after > 0 else 0) - now
            if c >= BALLAST_M2:
                out[c] = <double>after if after > 0 else 0.0
            else:
                out[c] = <double>after
    for c in range(LAST_VALUE + 1, NK):
        if c == X2:
            after = 2 * total + modifiers + points
        elif c <= LAST_MODIFIER:
            after = raw + CARD_VALUE[c] + points
        elif c == FEATHERWEIGHT:
            after = raw + bonus_points(bonus | 1, count, low, high, bits)
        elif c == HEAVYWEIGHT:
            after = raw + bonus_points(bonus | 2, count, low, high, bits)
        elif c == STRAIGHT:
            after = raw + bonus_points(bonus | 4, count, low, high, bits)
        else:
            out[c] = 0.0
            continue
        out[c] = <double>((after if after > 0 else 0) - now)
    return now


cdef void encode_c(S7 *s, int seat, float *o) noexcept nogil:
    cdef int n = s.n
    cdef double target = <double>s.target
    cdef int src_counts[31]
    cdef int discard_counts[31]
    cdef int pending[8]
    cdef double deltas[31]
    cdef double mine[31]
    cdef double each[8]
    cdef uint8_t *src
    cdef int total, k, c, leader, over, deciding, status, values, now, kept, has_mine
    cdef int score, banked, dup
    cdef double sum_deltas, x, y, p, bb, hs60, bust
    cdef float *b
    memset(o, 0, OBS_SIZE * sizeof(float))
    for k in range(NK):
        src_counts[k] = 0
        discard_counts[k] = 0
    for k in range(s.ndiscard):
        discard_counts[s.discard[k]] += 1
    if s.ndraw:
        src = s.draw
        total = s.ndraw
        for k in range(total):
            src_counts[src[k]] += 1
    else:
        total = s.ndiscard
        for k in range(NK):
            src_counts[k] = discard_counts[k]
    leader = s.scores[0]
    for k in range(1, n):
        if s.scores[k] > leader:
            leader = s.scores[k]
    for k in range(MAXP):
        pending[k] = 0
        each[k] = 0.0
    for k in range(s.nqueue):
        pending[s.queue[k]] += 1
    over = s.over
    deciding = -1 if over else s.decider
    has_mine = 0
    for c in range(n):
        b = o + c * SEAT_BLOCK
        status = s.status[c]
        values = s.values[c]
        score = s.scores[c]
        b[0] = 1.0
        b[1] = 1.0 if c == seat else 0.0
        b[2] = 1.0 if c == s.dealer else 0.0
        b[3] = 1.0 if c == deciding else 0.0
        b[4 + status] = 1.0
        for k in range(LAST_VALUE + 1):
            b[8 + k] = 1.0 if values >> k & 1 else 0.0
        kept = 0
        for k in range(s.ntable[c]):
            kept |= KEPT_BIT[s.table[c][k]]
        for k in range(10):
            b[25 + k] = 1.0 if kept >> k & 1 else 0.0
        if status == IN_HAND:
            now = row_deltas(s, c, deltas)
            hs60 = min2(now / 60.0)
            if not over:
                sum_deltas = 0.0
                for k in range(NK):
                    sum_deltas += deltas[k] * src_counts[k]
                x = ((sum_deltas / total) if total else 0.0) / 30.0
                each[c] = clip(x)
                if c == seat:
                    has_mine = 1
                    for k in range(NK):
                        mine[k] = clip(deltas[k] / 30.0)
            if total == 0 or s.second[c]:
                bust = 0.0
            else:
                dup = 0
                for k in range(14):
                    if values >> k & 1:
                        dup += src_counts[k]
                bust = dup / <double>total
        else:
            now = 0
            hs60 = 0.0
            bust = 0.0
        x = score / target
        y = (score + now) / target
        p = pending[c] / 4.0
        banked = s.banked[c]
        bb = (banked if banked > 0 else 0) / 60.0
        b[35] = <float>hs60
        b[36] = <float>min2(x)
        b[37] = <float>min2(y)
        b[38] = <float>(popcount(values) / 7.0)
        b[39] = <float>bust
        b[40] = <float>min2(p)
        b[41] = <float>min2(s.ntable[c] / 20.0)
        b[42] = 1.0 if score == leader else 0.0
        b[43] = <float>min2(bb)
    b = o + MAXP * SEAT_BLOCK
    b[0 if over else s.decision] = 1.0
    b += NUM_DECISIONS
    for k in range(s.naside if s.naside < 2 else 2):
        b[k * NK + s.aside[k]] = 1.0
    b += 2 * NK
    for k in range(s.nqueue if s.nqueue < QUEUE_SHOWN else QUEUE_SHOWN):
        b[k * MAXP + s.queue[k]] = 1.0
    b += QUEUE_SHOWN * MAXP
    b[0] = <float>min2(s.nqueue / 10.0)
    b[1] = 1.0 if s.deal_pos < n and not over else 0.0
    b[2] = <float>(s.ndraw / 120.0)
    b += 3
    for k in range(NK):
        b[k] = <float>(src_counts[k] / <double>DECK_COUNTS[k])
    b += NK
    for k in range(NK):
        b[k] = <float>(discard_counts[k] / <double>DECK_COUNTS[k])
    b += NK
    b[seat] = 1.0
    b[MAXP + n - 2] = 1.0
    b += MAXP + 7
    b[0] = 1.0 if s.ndraw == 0 else 0.0
    b += 1
    if over:
        return
    if has_mine:
        for k in range(NK):
            b[k] = <float>mine[k]
    b += NK
    if has_mine:
        b[0] = <float>each[seat]
    for k in range(MAXP):
        b[1 + k] = <float>each[k]
    if has_mine and s.naside:
        b[1 + MAXP] = <float>mine[s.aside[0]]
        if s.naside > 1:
            b[2 + MAXP] = <float>mine[s.aside[1]]


# ---- Python state <-> struct -------------------------------------------------------------------
# ---- the scripted baselines (agents/baselines/sevn.py) as rollout policies -------------------
# ``ThresholdAgent`` and ``ExpectedValueAgent`` read the seat's view; everything they read is in
# the struct (S26: every drawn card is public). The arithmetic is the Python agents', in the same
# order: Python's ``sum`` of these terms adds left to right (the int terms exactly, then in
# doubles, which hold them exactly), ``x ** k`` is ``pow``, ``max(a, b)`` is ``a`` unless
# ``b > a`` and ``min(a, b)`` is ``a`` unless ``b < a``; ``tests/test_native_sevn.py`` holds the
# decisions to the agents' on thousands of positions.
cdef enum:
    POLICY_RANDOM = 0
    POLICY_THRESHOLD = 1
    POLICY_EV = 2
    NUM_NUMBERS = 14  # the number cards 0..13 (``range(14)`` of the agents)


#: a hand's score a player can expect to bank from an empty row (``TYPICAL_HAND``)
cdef double TYPICAL_HAND = 22.0


cdef struct Model:  # SeatModel of one seat's view
    S7 *s
    int seat
    int *counts  # the pile the next card comes from, per kind
    int total
    int values  # held_mask of the row
    int nvalues
    int has_sc
    int score  # hand_score of the row
    int in_hand


cdef int row_score_with(S7 *s, int seat, int extra, int sevn) noexcept nogil:
    """``hand_score(row + [extra], sevn)`` (``extra`` -1: the row alone)."""
    cdef int total = 0, modifiers = 0, doubled = 0, bonus = 0, bits = 0
    cdef int count = 0, low = 0, high = 0, k, c, v, score, m = s.ntable[seat]
    for k in range(m + (extra >= 0)):
        c = s.table[seat][k] if k < m else extra
        if c <= LAST_VALUE:
            v = CARD_VALUE[c]
            total += v
            bits |= 1 << c
            count += 1
            low += v <= 6
            high += v >= 10
        elif c == X2:
            doubled = 1
        elif c <= LAST_MODIFIER:
            modifiers += CARD_VALUE[c]
        elif c == FEATHERWEIGHT:
            bonus |= 1
        elif c == HEAVYWEIGHT:
            bonus |= 2
        elif c == STRAIGHT:
            bonus |= 4
    score = (2 * total if doubled else total) + modifiers
    score += bonus_points(bonus, count, low, high, bits)
    if sevn:
        score += SEVN_BONUS
    return score if score > 0 else 0


cdef void model_of(Model *m, S7 *s, int seat, int *counts, int total) noexcept nogil:
    """``SeatModel.of(view, seat)``."""
    cdef int k, c
    m.s = s
    m.seat = seat
    m.counts = counts
    m.total = total
    m.values = 0
    for k in range(s.ntable[seat]):
        c = s.table[seat][k]
        if c <= LAST_VALUE:
            m.values |= 1 << c
    m.nvalues = popcount(m.values)
    m.has_sc = s.second[seat]
    m.score = row_score_with(s, seat, -1, 0)
    m.in_hand = s.status[seat] == IN_HAND


cdef inline int next_counts(S7 *s, int *counts) noexcept nogil:
    """``next_card_counts`` into ``counts``; their total."""
    cdef int k
    memset(counts, 0, NK * sizeof(int))
    if s.ndraw:
        for k in range(s.ndraw):
            counts[s.draw[k]] += 1
        return s.ndraw
    for k in range(s.ndiscard):
        counts[s.discard[k]] += 1
    return s.ndiscard


cdef inline int add_value_m(Model *m, int card) noexcept nogil:
    return row_score_with(m.s, m.seat, card, m.nvalues + 1 == SEVN_VALUES) - m.score


cdef inline double second_chance_value(Model *m) noexcept nogil:
    return 2.0 + 0.3 * m.score


cdef double ballast_keep_value(Model *m, int card) noexcept nogil:
    cdef int after
    cdef double progress = 0.0
    if m.values >> card & 1:
        return -1e9
    after = m.nvalues + 1
    if after == 4:
        progress = 0.5
    elif after == 5:
        progress = 2.0
    elif after == 6:
        progress = 5.0
    return <double>add_value_m(m, card) + progress


cdef double bust_chance_m(Model *m) noexcept nogil:
    cdef int v, dup = 0
    if not m.total:
        return 0.0
    for v in range(NUM_NUMBERS):
        if m.values >> v & 1:
            dup += m.counts[v]
    return dup / <double>m.total


cdef void card_deltas(Model *m, double *out) noexcept nogil:
    """``SeatModel._card_deltas`` (0 for STORM and FORK)."""
    cdef int card
    cdef double b
    for card in range(NK):
        if card < NUM_NUMBERS:
            if m.values >> card & 1:
                out[card] = -second_chance_value(m) if m.has_sc else -<double>m.score
            else:
                out[card] = <double>add_value_m(m, card)
        elif card <= LAST_VALUE:
            b = ballast_keep_value(m, card)
            out[card] = b if b > 0.0 else 0.0
        elif card <= LAST_MODIFIER or card >= FEATHERWEIGHT:
            out[card] = <double>(row_score_with(m.s, m.seat, card, 0) - m.score)
        elif card == SECOND_CHANCE:
            out[card] = -0.5 if m.has_sc else second_chance_value(m)
        elif card == FREEZE or card == FLIP_THREE:
            out[card] = 1.0
        else:
            out[card] = 0.0


cdef double expected_m(Model *m, double *deltas) noexcept nogil:
    cdef double total = 0.0
    cdef int c
    if not m.total:
        return 0.0
    for c in range(NK):
        if m.counts[c]:
            total += m.counts[c] * deltas[c]
    return total / m.total


cdef double best_of_two(Model *m, double *deltas) noexcept nogil:
    """E[max] of two cards (``SeatModel.best_of_two``): the (delta, probability) pairs in
    ``sorted`` order."""
    cdef double d[31]
    cdef double p[31]
    cdef double value = 0.0, below = 0.0, td, tp
    cdef int c, k, j, np_ = 0
    if not m.total:
        return 0.0
    for c in range(NK):
        if m.counts[c]:
            td = deltas[c]
            tp = m.counts[c] / <double>m.total
            j = np_
            while j > 0 and (d[j - 1] > td or (d[j - 1] == td and p[j - 1] > tp)):
                d[j] = d[j - 1]
                p[j] = p[j - 1]
                j -= 1
            d[j] = td
            p[j] = tp
            np_ += 1
    for k in range(np_):
        value += d[k] * (pow(below + p[k], 2.0) - pow(below, 2.0))
        below += p[k]
    return value


cdef void deltas_m(Model *m, double *out) noexcept nogil:
    """``SeatModel.deltas``."""
    card_deltas(m, out)
    out[STORM] = expected_m(m, out)
    out[FORK] = best_of_two(m, out)


cdef inline double draw_value_m(Model *m) noexcept nogil:
    cdef double out[31]
    deltas_m(m, out)
    return expected_m(m, out)


cdef double after_draws(Model *m, int k) noexcept nogil:
    """``SeatModel.after_draws``."""
    cdef double bust, gain = 0.0, number_share = 0.0, x, survive
    cdef long long gains = 0, weights = 0, numbers = 0
    cdef int v
    if not m.in_hand:
        return <double>m.score
    bust = bust_chance_m(m)
    if m.has_sc:
        bust *= bust
    for v in range(NUM_NUMBERS):
        if not m.values >> v & 1 and m.counts[v]:
            gains += <long long>add_value_m(m, v) * m.counts[v]
            weights += m.counts[v]
    if weights:
        gain = gains / <double>weights
    if m.total:
        for v in range(NUM_NUMBERS):
            numbers += m.counts[v]
        number_share = numbers / <double>m.total
    x = bust * 1.15
    survive = pow(1.0 - (1.0 if 1.0 < x else x), <double>k)
    return survive * (m.score + k * gain * number_share)


cdef inline int hand_score_view(S7 *s, int seat) noexcept nogil:
    """``view["hand_scores"][seat]``."""
    return row_score_with(s, seat, -1, 0) if s.status[seat] == IN_HAND else 0


cdef int must_chase(S7 *s, int me, int in_hand_too, int *standings) noexcept nogil:
    cdef int k, theirs, mine = standings[me]
    for k in range(s.n):
        if k == me:
            continue
        if s.status[k] != IN_HAND:
            theirs = s.scores[k]
        elif in_hand_too:
            theirs = standings[k]
        else:
            continue
        if theirs >= s.target and theirs >= mine:
            return 1
    return 0


cdef inline double weight_of(S7 *s, int *standings, int seat) noexcept nogil:
    cdef double threat = standings[seat] / <double>s.target
    return 1.0 + 2.0 * (1.5 if 1.5 < threat else threat)


cdef int threshold_act(S7 *s, int threshold) noexcept nogil:
    """``ThresholdAgent.act`` for the deciding seat (a running game's decision)."""
    cdef int me = s.decider, d = s.decision, k, best = -1, values
    cdef int standings[8]
    cdef int acts[14]
    cdef int m = legal(s, acts)
    cdef double a, b
    for k in range(s.n):
        standings[k] = s.scores[k] + hand_score_view(s, k)
    if d == TURN:
        if must_chase(s, me, 0, standings):
            return DRAW
        return DRAW if hand_score_view(s, me) < threshold else PASS
    if d == FORK_CHOICE:
        values = 0
        for k in range(s.ntable[me]):
            if s.table[me][k] <= LAST_VALUE:
                values |= 1 << s.table[me][k]
        a = 0.0
        b = 0.0
        if s.aside[0] < NUM_NUMBERS:
            a = -100.0 if values >> s.aside[0] & 1 else <double>s.aside[0]
        if s.aside[1] < NUM_NUMBERS:
            b = -100.0 if values >> s.aside[1] & 1 else <double>s.aside[1]
        return FORK0 + (1 if b > a else 0)
    if d == KEEP_BALLAST:
        return KEEP if acts[0] == KEEP and popcount(s.values[me]) == SEVN_VALUES - 1 else DISCARD
    if d == TARGET_SECOND_CHANCE:  # min by (standing, seat)
        for k in range(m):
            if best < 0 or standings[acts[k] - TARGET0] < standings[best]:
                best = acts[k] - TARGET0
        return TARGET0 + best
    for k in range(m):  # max of the others by (standing, -seat)
        if acts[k] - TARGET0 != me and (best < 0 or standings[acts[k] - TARGET0] > standings[best]):
            best = acts[k] - TARGET0
    return TARGET0 + (me if best < 0 else best)


cdef int ev_act(S7 *s, double margin, int chase_in_hand, double lead_aversion) noexcept nogil:
    """``ExpectedValueAgent.act`` for the deciding seat (a running game's decision)."""
    cdef int me = s.decider, d = s.decision, k, t, rival, best
    cdef int standings[8]
    cdef int counts[31]
    cdef int acts[14]
    cdef int m = legal(s, acts), total = next_counts(s, counts)
    cdef double deltas[31]
    cdef double value, best_value, threat, best_threat, potential, v
    cdef Model own, other
    for k in range(s.n):
        standings[k] = s.scores[k] + hand_score_view(s, k)
    model_of(&own, s, me, counts, total)
    if d == TURN:
        if must_chase(s, me, chase_in_hand, standings):
            return DRAW
        rival = -2147483647
        for k in range(s.n):
            if k != me and standings[k] > rival:
                rival = standings[k]
        margin = margin + lead_aversion * (s.scores[me] - rival) / <double>s.target
        return DRAW if draw_value_m(&own) > margin else PASS
    if d == FORK_CHOICE:
        deltas_m(&own, deltas)
        return FORK0 + (1 if deltas[s.aside[1]] > deltas[s.aside[0]] else 0)
    if d == KEEP_BALLAST:
        return KEEP if acts[0] == KEEP and ballast_keep_value(&own, s.aside[0]) > 0 else DISCARD
    if d == TARGET_SECOND_CHANCE:  # min by (threat, seat)
        best = -1
        best_threat = 0.0
        for k in range(m):
            t = acts[k] - TARGET0
            threat = standings[t] / <double>s.target
            if best < 0 or threat < best_threat:
                best, best_threat = t, threat
        return TARGET0 + best
    best = me
    if d == TARGET_FREEZE:
        v = draw_value_m(&own)
        best_value = -(v if v > 0.0 else 0.0)  # stopping ourselves
        for k in range(m):
            t = acts[k] - TARGET0
            if t == me:
                continue
            model_of(&other, s, t, counts, total)
            potential = TYPICAL_HAND - other.score
            potential = (potential if potential > 0.0 else 0.0) * (1.0 - bust_chance_m(&other))
            value = potential * weight_of(s, standings, t)
            if value > best_value:
                best, best_value = t, value
        return TARGET0 + best
    best_value = after_draws(&own, 3) - own.score  # TARGET_FLIP_THREE
    for k in range(m):
        t = acts[k] - TARGET0
        if t == me:
            continue
        model_of(&other, s, t, counts, total)
        value = (other.score - after_draws(&other, 3)) * weight_of(s, standings, t)
        if value > best_value:
            best, best_value = t, value
    return TARGET0 + best


# ---- playing rollouts in C (the search's ``Rollout``: ``play_out``) ----------------------------
cdef struct Play:
    int policy
    int threshold  # ThresholdAgent.threshold
    double margin  # ExpectedValueAgent.margin
    int chase_in_hand  # ExpectedValueAgent.chase_in_hand
    double lead_aversion  # ExpectedValueAgent.lead_aversion
    int use_mt  # the random policy's actions: random.random() of mt (1), or the bit generator (0)
    MT *mt  # legal[int(random.random() * len(legal))] (use_mt 1)
    bitgen_t *pick  # legal[random_interval(len(legal) - 1)] (use_mt 0)
    int to_round  # stop when the hand index is no longer ``start``
    int start
    long long max_decisions


cdef int policy_id(str policy) except -1:
    if policy == "random":
        return POLICY_RANDOM
    if policy == "threshold":
        return POLICY_THRESHOLD
    if policy == "ev":
        return POLICY_EV
    raise ConfigError(f"sevn rollouts: policy {policy!r}; allowed: 'random', 'threshold' or "
                      f"'ev'")


cdef inline int policy_action_c(S7 *s, Play *p) noexcept nogil:
    cdef int acts[14]
    cdef int m
    if p.policy == POLICY_EV:
        return ev_act(s, p.margin, p.chase_in_hand, p.lead_aversion)
    if p.policy == POLICY_THRESHOLD:
        return threshold_act(s, p.threshold)
    m = legal(s, acts)
    if p.use_mt:
        return acts[<int>(mt_random(p.mt) * m)]
    return acts[random_interval(p.pick, <uint64_t>(m - 1))]


cdef long long play_c(S7 *w, bitgen_t *bg, Play *p) noexcept nogil:
    """Play ``w`` on with the policy (reshuffles from ``bg``) to the horizon; decisions made."""
    cdef long long made = 0
    while not w.over and made < p.max_decisions and not (p.to_round and w.hand_index != p.start):
        apply_action(w, bg, policy_action_c(w, p))
        made += 1
    return made


cdef int load_cards(uint8_t *dst, object cards, int cap, str what) except -1:
    cdef Py_ssize_t m = len(cards), k
    cdef long c
    if m > cap:
        raise ConfigError(f"sevn state: {what} holds {m} cards; allowed: at most {cap}")
    for k in range(m):
        c = cards[k]
        if not 0 <= c < NK:
            raise ConfigError(f"sevn state: {what} holds card {c!r}; allowed: 0..{NK - 1}")
        dst[k] = <uint8_t>c
    return <int>m


cdef int check_range(str what, long long value, long long low, long long high) except -1:
    if not low <= value <= high:
        raise ConfigError(f"sevn state: {what} is {value}; allowed: {low}..{high}")
    return 0


cdef int load_state(S7 *s, object st, bint whole) except -1:
    """The struct of a ``SevnState`` (rules.py's fields, their meaning unchanged). Every index
    the C code uses is checked; ``whole``: also that the zones hold the 120 cards of the deck
    (a state that will be played on: no zone can then outgrow its array)."""
    cdef int n = st.num_players, k, cards
    check_range("num_players", n, 2, MAXP)
    s.n = n
    check_range("target_score", st.target_score, 1, 100_000)
    s.target = st.target_score
    check_range("dealer", st.dealer, 0, n - 1)
    s.dealer = st.dealer
    rows = (st.scores, st.status, st.values, st.table, st.has_second_chance, st.has_x2,
            st.banked, st.last_banked)
    for row in rows:
        if len(row) != n:
            raise ConfigError(
                f"sevn state: scores, status, values, table, has_second_chance, has_x2, banked "
                f"and last_banked need {n} entries; one has {len(row)}")
    scores, status, values, table, second, x2, banked, last_banked = rows
    for k in range(n):
        check_range("a score", scores[k], -(10**8), 10**8)
        s.scores[k] = scores[k]
        check_range("status", status[k], IN_HAND, BUSTED)
        s.status[k] = status[k]
        check_range("values", values[k], 0, (1 << (LAST_VALUE + 1)) - 1)
        s.values[k] = values[k]
        s.second[k] = 1 if second[k] else 0
        s.x2[k] = 1 if x2[k] else 0
        check_range("banked", banked[k], -1, 10**8)
        s.banked[k] = banked[k]
        check_range("last_banked", last_banked[k], -1, 10**8)
        s.last_banked[k] = last_banked[k]
        s.ntable[k] = load_cards(s.table[k], table[k], ROWCAP, f"table[{k}]")
    s.ndraw = load_cards(s.draw, st.draw_pile, DECK, "draw_pile")
    s.ndiscard = load_cards(s.discard, st.discard_pile, DECK, "discard_pile")
    s.naside = load_cards(s.aside, st.set_aside, 2, "set_aside")
    if whole:
        cards = s.ndraw + s.ndiscard + s.naside
        for k in range(n):
            cards += s.ntable[k]
        if cards != DECK:
            raise ConfigError(f"sevn state: the zones hold {cards} cards; allowed: the {DECK} "
                              f"cards of the deck")
    queue = st.queue
    if len(queue) > QCAP_LOADED:
        raise ConfigError(
            f"sevn state: {len(queue)} pending draws; allowed: at most {QCAP_LOADED}")
    s.nqueue = len(queue)
    for k in range(s.nqueue):
        check_range("a pending draw's seat", queue[k], 0, n - 1)
        s.queue[k] = <int8_t>queue[k]
    check_range("deal_pos", st.deal_pos, 0, n)
    s.deal_pos = st.deal_pos
    check_range("decision", st.decision, NO_DECISION, KEEP_BALLAST)
    s.decision = st.decision
    check_range("decider", st.decider, -1, n - 1)
    s.decider = st.decider
    if s.decision != NO_DECISION and s.decider < 0 and not st.over:
        raise ConfigError("sevn state: a decision with decider -1; allowed: a seat 0..n-1")
    check_range("next_turn", st.next_turn, 0, n - 1)
    s.next_turn = st.next_turn
    check_range("last_sevn", st.last_sevn, -1, n - 1)
    s.last_sevn = st.last_sevn
    s.over = 1 if st.over else 0
    check_range("hand_index", st.hand_index, 0, 10**9)
    s.hand_index = st.hand_index
    check_range("decisions", st.decisions, 0, 10**15)
    s.decisions = st.decisions
    winners = st.winners
    if len(winners) > n:
        raise ConfigError(f"sevn state: winners {winners!r}; allowed: at most {n} seats")
    s.nwin = len(winners)
    for k in range(s.nwin):
        check_range("a winner", winners[k], 0, n - 1)
        s.winners[k] = winners[k]
    return 0


cdef list cards_list(uint8_t *cards, int m):
    return [cards[k] for k in range(m)]


cdef inline int check_seat(int seat, int n) except -1:
    if not 0 <= seat < n:
        raise IndexError(f"sevn: seat {seat} is not a seat of this {n}-player game (0..{n - 1})")
    return 0


cdef inline cnp.ndarray new_obs():
    cdef cnp.npy_intp dims[1]
    dims[0] = OBS_SIZE
    return cnp.PyArray_EMPTY(1, dims, cnp.NPY_FLOAT32, 0)


def encode(state, int seat):
    """The observation of ``seat`` (``encoding.encode_python``'s, byte for byte) of a
    ``SevnState`` or a native state."""
    cdef S7 s
    cdef S7 *p
    cdef cnp.ndarray out = new_obs()
    if type(state) is NativeState:
        p = &(<NativeState>state).s
    else:
        load_state(&s, state, False)
        p = &s
    check_seat(seat, p.n)
    encode_c(p, seat, <float *>cnp.PyArray_DATA(out))
    return out


# ---- the state object --------------------------------------------------------------------------
cdef class NativeState:
    """A sevn game state on a C struct, with the numpy generator it draws from.

    Its read-only attributes have the names and values of ``SevnState``'s (lists are fresh
    copies), so code that reads a state (renders, views, baselines) reads either."""

    cdef S7 s
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
    def new_game(rng, int num_players, int target_score, int dealer):
        """``SevnGame.new_game(rng)`` without options (a shuffled deck, dealt)."""
        check_range("num_players", num_players, 2, MAXP)
        check_range("target_score", target_score, 1, 100_000)
        check_range("dealer", dealer, 0, num_players - 1)
        cdef NativeState st = NativeState.__new__(NativeState)
        st._set_rng(rng)
        new_game_c(&st.s, st.bg, num_players, target_score, dealer)
        return st

    @staticmethod
    def from_python(state, rng=None):
        """The native copy of a ``SevnState`` (drawing from ``rng``, default its own
        generator, shared)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        load_state(&st.s, state, True)
        st._set_rng(state.rng if rng is None else rng)
        return st

    def to_python(self, copy_rng=True):
        """The ``SevnState`` of this state (its generator copied, or shared)."""
        cdef S7 *s = &self.s
        cdef int k
        cdef int n = s.n
        return SevnState(
            num_players=n,
            target_score=s.target,
            rng=copy_generator(self._rng) if copy_rng else self._rng,
            scores=[s.scores[k] for k in range(n)],
            dealer=s.dealer,
            draw_pile=cards_list(s.draw, s.ndraw),
            discard_pile=cards_list(s.discard, s.ndiscard),
            table=[cards_list(s.table[k], s.ntable[k]) for k in range(n)],
            status=[s.status[k] for k in range(n)],
            values=[s.values[k] for k in range(n)],
            has_second_chance=[bool(s.second[k]) for k in range(n)],
            has_x2=[bool(s.x2[k]) for k in range(n)],
            set_aside=cards_list(s.aside, s.naside),
            queue=[s.queue[k] for k in range(s.nqueue)],
            deal_pos=s.deal_pos,
            decision=s.decision,
            decider=s.decider,
            next_turn=s.next_turn,
            banked=[s.banked[k] for k in range(n)],
            last_banked=[s.last_banked[k] for k in range(n)],
            last_sevn=s.last_sevn,
            winners=[s.winners[k] for k in range(s.nwin)],
            over=bool(s.over),
            hand_index=s.hand_index,
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
        cdef int acts[14]
        cdef int m = legal(&self.s, acts), k
        return [acts[k] for k in range(m)]

    def legal_mask(self):
        """The action mask (int8, size 14)."""
        cdef int acts[14]
        cdef int m = legal(&self.s, acts), k
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        cdef int8_t[::1] view = out
        for k in range(m):
            view[acts[k]] = 1
        return out

    def current_player(self):
        return None if self.s.over else self.s.decider

    def is_legal(self, int action):
        return 0 <= action < NUM_ACTIONS and bool(is_legal(&self.s, action))

    def returns(self):
        cdef double out[8]
        returns_c(&self.s, out)
        return [out[k] for k in range(self.s.n)]

    def standing(self):
        cdef double out[8]
        standing_c(&self.s, out)
        return [out[k] for k in range(self.s.n)]

    def encode(self, int seat):
        """The observation of ``seat`` (as ``encoding.encode_python``)."""
        cdef cnp.ndarray out = new_obs()
        check_seat(seat, self.s.n)
        encode_c(&self.s, seat, <float *>cnp.PyArray_DATA(out))
        return out

    # ---- play ----
    def apply(self, int action):
        """Play ``action`` for the deciding seat; False (nothing changed) when it is not legal
        or the game is over (the engine raises the error)."""
        if self.s.over or not 0 <= action < NUM_ACTIONS or not is_legal(&self.s, action):
            return False
        apply_action(&self.s, self.bg, action)
        return True

    def rollouts(self, int count, seed, str horizon="game"):
        """``count`` random-legal-action playouts from this state, all inside C: to the end of
        the game (``horizon="game"``: the returns) or of the hand in progress (``"round"``:
        each seat's standing, its lead over the best other seat / target score, or the returns
        if the game ended first). Actions and reshuffles come from ``np.random.default_rng(seed)``
        (this state and its generator are unchanged). Returns (values float64[count, seats],
        decisions played)."""
        if horizon not in ("game", "round"):
            raise ConfigError(f"sevn rollouts: horizon {horizon!r}; allowed: 'game' or 'round'")
        if count < 0:
            raise ConfigError(f"sevn rollouts: count {count}; allowed: 0 or more")
        rng = np.random.default_rng(seed)
        cdef object bits = rng.bit_generator  # alive until the end
        cdef bitgen_t *bg = bitgen_of(rng)
        cdef int n = self.s.n, i, m
        cdef int to_round = horizon == "round"
        cdef int start_hand = self.s.hand_index
        cdef long long decisions = 0
        cdef int acts[14]
        cdef S7 w
        values = np.zeros((count, n), dtype=np.float64)
        cdef double[:, ::1] vals = values
        with nogil:
            for i in range(count):
                w = self.s
                while not w.over and not (to_round and w.hand_index != start_hand):
                    m = legal(&w, acts)
                    if m == 0:
                        break
                    apply_action(&w, bg, acts[random_interval(bg, <uint64_t>(m - 1))])
                    decisions += 1
                if w.over or not to_round:
                    returns_c(&w, &vals[i, 0])
                else:
                    standing_c(&w, &vals[i, 0])
        return values, decisions

    # ---- SevnState's attribute names (read-only copies) ----
    @property
    def rng(self):
        return self._rng

    @property
    def num_players(self):
        return self.s.n

    @property
    def target_score(self):
        return self.s.target

    @property
    def scores(self):
        return [self.s.scores[k] for k in range(self.s.n)]

    @property
    def dealer(self):
        return self.s.dealer

    @property
    def draw_pile(self):
        return cards_list(self.s.draw, self.s.ndraw)

    @property
    def discard_pile(self):
        return cards_list(self.s.discard, self.s.ndiscard)

    @property
    def table(self):
        return [cards_list(self.s.table[k], self.s.ntable[k]) for k in range(self.s.n)]

    @property
    def status(self):
        return [self.s.status[k] for k in range(self.s.n)]

    @property
    def values(self):
        return [self.s.values[k] for k in range(self.s.n)]

    @property
    def has_second_chance(self):
        return [bool(self.s.second[k]) for k in range(self.s.n)]

    @property
    def has_x2(self):
        return [bool(self.s.x2[k]) for k in range(self.s.n)]

    @property
    def set_aside(self):
        return cards_list(self.s.aside, self.s.naside)

    @property
    def queue(self):
        return [self.s.queue[k] for k in range(self.s.nqueue)]

    @property
    def deal_pos(self):
        return self.s.deal_pos

    @property
    def decision(self):
        return self.s.decision

    @property
    def decider(self):
        return self.s.decider

    @property
    def next_turn(self):
        return self.s.next_turn

    @property
    def banked(self):
        return [self.s.banked[k] for k in range(self.s.n)]

    @property
    def last_banked(self):
        return [self.s.last_banked[k] for k in range(self.s.n)]

    @property
    def last_sevn(self):
        return self.s.last_sevn

    @property
    def winners(self):
        return [self.s.winners[k] for k in range(self.s.nwin)]

    @property
    def over(self):
        return bool(self.s.over)

    @property
    def hand_index(self):
        return self.s.hand_index

    @property
    def decisions(self):
        return self.s.decisions


def policy_action(state, str policy, int threshold=30, double margin=0.0, bint chase_in_hand=True,
                  double lead_aversion=10.0):
    """The action the C port of ``policy`` (``threshold`` or ``ev``, with the baseline's
    options) picks for the deciding seat of ``state`` (a native state or a ``SevnState``); None
    when the game is over."""
    cdef S7 s
    cdef Play p
    cdef int pid = policy_id(policy)
    if pid == POLICY_RANDOM:
        raise ConfigError("sevn policy_action: 'random' draws; allowed: 'threshold' or 'ev'")
    if type(state) is NativeState:
        s = (<NativeState>state).s
    else:
        load_state(&s, state, False)
    if s.over:
        return None
    cdef int acts[14]
    if legal(&s, acts) == 0 or not 0 <= s.decider < s.n:
        raise ConfigError(f"sevn policy_action: no seat is deciding (decision {s.decision}, "
                          f"decider {s.decider}); allowed: a state waiting for a decision")
    memset(&p, 0, sizeof(Play))
    p.policy = pid
    p.threshold = threshold
    p.margin = margin
    p.chase_in_hand = chase_in_hand
    p.lead_aversion = lead_aversion
    return policy_action_c(&s, &p)


def rollout_batch(list states, str policy="random", horizon="game", seed=0, int rollouts=1,
                  start=None, int threshold=30, double margin=0.0, bint chase_in_hand=True,
                  double lead_aversion=10.0):
    """``rollouts`` playouts of every native state in ``states``, all inside C, with ``policy``
    (``random``, ``threshold`` or ``ev``) to the ``horizon``: ``"game"`` (the returns),
    ``"round"`` (the end of hand ``start``, default each state's hand in progress: each seat's
    standing, or the returns if the game ended first) or an int N >= 1 (N decisions, valued the
    same way). The random actions and the reshuffles come from ``np.random.default_rng(seed)``;
    the states and their generators are unchanged. Returns (values float64[len(states) *
    rollouts, seats], rollout r of state i in row i * rollouts + r; decisions played)."""
    cdef Play p
    cdef int i, r, m = len(states), n = 0
    cdef long long decisions = 0
    cdef S7 w
    cdef S7 *src
    cdef int own_start = start is None
    memset(&p, 0, sizeof(Play))
    p.policy = policy_id(policy)
    p.threshold = threshold
    p.margin = margin
    p.chase_in_hand = chase_in_hand
    p.lead_aversion = lead_aversion
    round_horizon(horizon, start, &p.to_round, &p.start, &p.max_decisions)
    check_rollouts(rollouts)
    for i in range(m):
        if type(states[i]) is not NativeState:
            raise ConfigError(f"sevn rollouts: a {type(states[i]).__name__} among the states; "
                              f"allowed: native states (NativeState.from_python)")
        if i and (<NativeState>states[i]).s.n != n:
            raise ConfigError(f"sevn rollouts: states of {n} and {(<NativeState>states[i]).s.n} "
                              f"players; allowed: one player count per call")
        n = (<NativeState>states[i]).s.n
    rng = np.random.default_rng(seed)
    cdef object bits = rng.bit_generator  # alive until the end
    cdef bitgen_t *bg = bitgen_of(rng)
    cdef int cut = horizon != "game"
    p.pick = bg
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
                src = <S7 *>ptrs[i]
                if own_start:
                    p.start = src.hand_index
                for r in range(rollouts):
                    w = src[0]
                    decisions += play_c(&w, bg, &p)
                    if w.over or not cut:
                        returns_c(&w, &vals[i * rollouts + r, 0])
                    else:
                        standing_c(&w, &vals[i * rollouts + r, 0])
    finally:
        PyMem_Free(ptrs)
    return values, decisions


def play_out(list states, str policy="random", start=None, seeds=None, py=None,
             int threshold=30, double margin=0.0, bint chase_in_hand=True,
             double lead_aversion=10.0, long long max_decisions=20_000):
    """``Rollout.run`` of the search agents on every native state, in place and in C: each state
    is played on with ``policy`` (``random``, or ``threshold`` / ``ev``: ``ThresholdAgent`` /
    ``ExpectedValueAgent``'s decisions with their options) to the game's end (``start`` None:
    the returns) or to the end of hand ``start`` (the standing, or the returns if the game
    ended first), drawing its reshuffles from its own generator, exactly as the Python engine
    would; the random policy's actions are ``legal[int(rng.random() * len(legal))]`` of
    Python's ``random.Random``: a fresh ``random.Random(seeds[i])`` per state, or the one ``py``
    for all (consumed in order, as many ``run(state, py)`` calls would). So the values are those
    of the Python ``Rollout`` with the same generators. Returns values float64[len(states),
    seats]."""
    cdef Play p
    cdef MT mt
    cdef NativeState st
    cdef int i, m = len(states), n = 0, to_round = start is not None
    p.policy = policy_id(policy)
    p.threshold = threshold
    p.margin = margin
    p.chase_in_hand = chase_in_hand
    p.lead_aversion = lead_aversion
    p.use_mt = 1
    p.mt = &mt
    p.pick = NULL
    p.max_decisions = max_decisions
    p.to_round = to_round
    p.start = start if to_round else 0
    for i in range(m):
        if type(states[i]) is not NativeState:
            raise ConfigError(f"sevn play_out: a {type(states[i]).__name__} among the states; "
                              f"allowed: native states (NativeState.from_python)")
        if i and (<NativeState>states[i]).s.n != n:
            raise ConfigError(f"sevn play_out: states of {n} and {(<NativeState>states[i]).s.n} "
                              f"players; allowed: one player count per call")
        n = (<NativeState>states[i]).s.n
    check_seeds(p.policy == POLICY_RANDOM, seeds, py, m)
    values = np.zeros((m, n), dtype=np.float64)
    if m == 0:
        return values
    cdef double[:, ::1] vals = values
    saved = None
    if py is not None and p.policy == POLICY_RANDOM:
        saved = mt_load(&mt, py)
    for i in range(m):
        st = <NativeState>states[i]
        if seeds is not None and p.policy == POLICY_RANDOM:
            mt_seed(&mt, <uint64_t>seeds[i])
        with nogil:
            play_c(&st.s, st.bg, &p)
            if st.s.over or not to_round:
                returns_c(&st.s, &vals[i, 0])
            else:
                standing_c(&st.s, &vals[i, 0])
    if saved is not None:
        mt_store(&mt, py, saved)
    return values


def _rebuild(state):
    """The unpickled native state (pickled as its ``SevnState``)."""
    return NativeState.from_python(state)
