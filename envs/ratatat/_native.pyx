# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""Ratatat on a C struct: the native core (encoder; engine state and random rollouts).

The same game as ``rules.py`` (rule ids R1-R18 of ``docs/rules/ratatat.md``), step for step: every
engine function below mirrors the method of ``RatatatGame`` it names, in the same order of
effects, so that both cores reach the same states. Every random number is drawn from the numpy bit
generator of the state's ``np.random.Generator`` through numpy's C API (``bitgen_t``), with
numpy's own algorithm (``Generator.permutation``: a Fisher-Yates shuffle whose indices come from
``random_interval``), so the same seed gives the same game on either core and the generator ends
in the same state. ``tests/test_native_ratatat.py`` steps both cores side by side.

The encoder computes every float as ``encoding.encode_python`` does (double precision, rounded to
float32 at the end, the same operations in the same order), so the observation is byte-identical.

The random-number plumbing every game's core shares (numpy's ``random_interval`` and
permutation, Python's Mersenne Twister for the random rollout policy) is
``envs/core/_native_common.pxi``, included below.

Built optionally by ``setup.py``; ``native.py`` is the Python side (``NATIVE_AVAILABLE``).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset

cimport numpy as cnp
from numpy.random cimport bitgen_t

import numpy as np

from cardarena.envs.core.engine import ConfigError, copy_generator
from cardarena.envs.ratatat.rules import RatatatState

cdef str GAME = "ratatat"  # the name the shared code's errors start with
include "../core/_native_common.pxi"

cnp.import_array()

# ---- constants of rules.py and encoding.py (checked against them by the tests) ---------------
cdef enum:
    NK = 13
    SWAP_CARD = 10
    PEEK_CARD = 11
    DRAW_TWO_CARD = 12
    DECK = 66
    SPS = 4  # slots per seat
    MAXP = 6
    MAXSLOTS = 24
    NO_DECISION = 0
    TURN = 1
    TAKE_SLOT = 2
    DRAWN = 3
    DRAW_TWO_EXTRA = 4
    SWAP_TARGET = 5
    PEEK_SLOT = 6
    KNOCK_CHOICE = 7
    NUM_DECISIONS = 8
    TAKE_DISCARD = 0
    DRAW = 1
    SLOT0 = 2
    DISCARD = 6
    USE = 7
    REDRAW = 8
    PEEK0 = 9
    KNOCK = 13
    NO_KNOCK = 14
    SWAP0 = 15
    NUM_ACTIONS = 111
    PERFECT_RECALL = 0
    NO_MEMORY = 1
    SEER = 2
    MAXINUSE = 8  # at most 6 in play (5 DRAW_TWOs and a SWAP or PEEK)
    MAXLOG = 24
    SLOT_BLOCK = 16
    SEAT_BLOCK = 12
    OBS_SIZE = 547
    SEATS_AT = 384  # SLOT_BLOCK * MAXSLOTS
    HELD_AT = 456  # + SEAT_BLOCK * MAXP
    TOP_AT = 471
    MID_AT = 484
    DECISION_AT = 525
    ME_AT = 533
    COUNT_AT = 539
    MEMORY_AT = 544

cdef int DECK_COUNTS[13]
DECK_COUNTS[:] = [4, 4, 4, 4, 4, 4, 4, 4, 4, 9, 9, 7, 5]
cdef int8_t FULL_DECK[66]
cdef int _k, _c, _m = 0
for _c in range(NK):
    for _k in range(DECK_COUNTS[_c]):
        FULL_DECK[_m] = <int8_t>_c
        _m += 1


def _accumulated(card):
    """Entry k: k times ``obs[i] += 1.0 / DECK_COUNTS[card]`` on a float32 vector: the value
    ``encoding._SPECIAL_SHARE`` holds, computed the same way."""
    acc = np.zeros(1, dtype=np.float32)
    out = [0.0]
    for _ in range(DECK_COUNTS[card]):
        acc[0] += 1.0 / DECK_COUNTS[card]
        out.append(float(acc[0]))
    return out


#: SHARE[c - 10][copies]: the in-use / set-aside value of ``copies`` of special ``c``
cdef double SHARE[3][10]
for _c in range(3):
    for _k, _v in enumerate(_accumulated(10 + _c)):
        SHARE[_c][_k] = _v

NUM_CARD_KINDS_C = NK
OBS_SIZE_C = OBS_SIZE
NUM_ACTIONS_C = NUM_ACTIONS
DECK_COUNTS_C = [DECK_COUNTS[_k] for _k in range(NK)]
FULL_DECK_C = [FULL_DECK[_k] for _k in range(DECK)]
SPECIAL_SHARE_C = {10 + _c: [SHARE[_c][_k] for _k in range(DECK_COUNTS[10 + _c] + 1)]
                   for _c in range(3)}


cdef struct R:
    int n
    int max_turns
    int num_rounds
    int memory
    int scores[6]
    int last_scores[6]  # the latest finished round's scores (round_scores lives in NativeState)
    int dealer
    int round_index
    int8_t draw[66]  # top of the pile is the end (draw[ndraw - 1]), as in rules.py
    int ndraw
    int8_t discard[66]  # top is the end
    int ndiscard
    int8_t slots[24]  # 4 per seat, seat-major
    int knowers[24]
    long long gens[24]
    long long seen_at[144]  # [seat * 4n + slot]
    long long changed_at[24]
    long long last_decided[6]
    int held
    int held_public
    long long held_gen
    int8_t in_use[8]
    int nin_use
    int8_t aside[66]
    int naside
    long long pile_gen
    int decision
    int decider
    int turns
    int played
    int knocker
    int8_t last_rows[24]
    int nlast_rows
    int last_knocker
    int8_t log_seat[25]
    int8_t log_action[25]
    int nlog
    int winners[6]
    int nwin
    int over
    long long decisions
    int err  # a draw from two empty piles (unreachable with 66 cards; rules.py raises)


# ---- the engine (RatatatGame's methods, same names) --------------------------------------------
cdef void deal(R *s, int8_t *top_first) noexcept nogil:
    """``_deal``: R3-R5, 4 face-down cards to each seat from left of the dealer, one turned up."""
    cdef int n = s.n, total = s.n * SPS, a, k, base, seat
    cdef long long gen, t
    for k in range(DECK):
        s.draw[k] = top_first[DECK - 1 - k]
    s.ndraw = DECK
    s.ndiscard = 0
    s.naside = 0
    s.nin_use = 0
    s.held = -1
    s.held_public = 0
    s.held_gen = -1
    s.pile_gen += 1
    gen = s.pile_gen
    t = s.decisions
    for a in range(n):
        base = ((s.dealer + 1 + a) % n) * SPS
        for k in range(SPS):
            s.ndraw -= 1
            s.slots[base + k] = s.draw[s.ndraw]
    for k in range(total):
        s.knowers[k] = 0
        s.gens[k] = gen
        s.changed_at[k] = t
    for seat in range(n):  # R4: each seat looks at its outer slots 0 and 3
        base = seat * SPS
        s.knowers[base] = 1 << seat
        s.knowers[base + 3] = 1 << seat
        s.seen_at[seat * total + base] = t
        s.seen_at[seat * total + base + 3] = t
    s.ndraw -= 1
    s.discard[0] = s.draw[s.ndraw]
    s.ndiscard = 1
    s.turns = 0
    s.played = 0
    s.knocker = -1
    s.nlog = 0
    s.decision = TURN
    s.decider = (s.dealer + 1) % n


cdef int draw(R *s, bitgen_t *bg) noexcept nogil:
    """``_draw``: R11, an empty draw pile is rebuilt from every discard but the top one."""
    cdef int m
    if s.ndraw == 0:
        if s.ndiscard < 2:  # unreachable with 66 cards and at most 24 slots
            s.err = 1
            return 0
        m = s.ndiscard - 1
        memcpy(s.draw, s.discard, m)
        shuffle(bg, s.draw, m)
        s.ndraw = m
        s.discard[0] = s.discard[m]
        s.ndiscard = 1
        s.pile_gen += 1
    s.ndraw -= 1
    return s.draw[s.ndraw]


cdef inline void draw_to_hand(R *s, bitgen_t *bg) noexcept nogil:
    s.held = draw(s, bg)
    s.held_public = 0
    s.held_gen = s.pile_gen


cdef void place(R *s, int seat, int k, long long t) noexcept nogil:
    """``_place``: the card in hand into own slot ``k``; the replaced card goes face up (R6)."""
    cdef int i = seat * SPS + k, total = s.n * SPS, x
    s.discard[s.ndiscard] = s.slots[i]
    s.ndiscard += 1
    s.slots[i] = <int8_t>s.held
    s.changed_at[i] = t
    if s.held_public:  # R18: a taken discard and its slot are public
        s.knowers[i] = (1 << s.n) - 1
        s.gens[i] = -1
        for x in range(s.n):
            s.seen_at[x * total + i] = t
    else:  # R18: a drawn card swapped in is private; everyone else forgets the slot (R17)
        s.knowers[i] = 1 << seat
        s.gens[i] = s.held_gen
        s.seen_at[seat * total + i] = t
    s.held = -1
    s.held_public = 0


cdef void swap(R *s, int seat, int code, long long t) noexcept nogil:
    """``_swap``: R7/R17, two slots swapped unseen; every seat's knowledge follows the cards."""
    cdef int k = code // (MAXP * SPS), rest = code % (MAXP * SPS)
    cdef int other = rest // SPS, j = rest % SPS
    cdef int a = seat * SPS + k, b = other * SPS + j, total = s.n * SPS, x, ic
    cdef int8_t c
    cdef long long g
    c = s.slots[a]
    s.slots[a] = s.slots[b]
    s.slots[b] = c
    ic = s.knowers[a]
    s.knowers[a] = s.knowers[b]
    s.knowers[b] = ic
    g = s.gens[a]
    s.gens[a] = s.gens[b]
    s.gens[b] = g
    s.changed_at[a] = t
    s.changed_at[b] = t
    for x in range(s.n):
        g = s.seen_at[x * total + a]
        s.seen_at[x * total + a] = s.seen_at[x * total + b]
        s.seen_at[x * total + b] = g


cdef inline void next_turn(R *s, int seat) noexcept nogil:
    s.decision = TURN
    s.decider = (seat + 1) % s.n  # R5: clockwise


cdef void end_round(R *s, bitgen_t *bg) noexcept nogil:
    """``_end_round``: R13-R16, reveal, replace specials knocker first, score, deal or finish."""
    cdef int n = s.n, total = s.n * SPS, off, base, i, k, best
    cdef int8_t top_first[66]
    for off in range(n):  # R14: the knocker first, then clockwise
        base = ((s.knocker + off) % n) * SPS
        for i in range(base, base + SPS):
            while s.slots[i] >= 10:
                s.aside[s.naside] = s.slots[i]
                s.naside += 1
                s.slots[i] = <int8_t>draw(s, bg)
                if s.err:
                    return
    for k in range(n):  # R15
        s.last_scores[k] = 0
        for i in range(k * SPS, k * SPS + SPS):
            s.last_scores[k] += s.slots[i]
        s.scores[k] += s.last_scores[k]
    memcpy(s.last_rows, s.slots, total)
    s.nlast_rows = total
    s.last_knocker = s.knocker
    s.round_index += 1
    if s.round_index >= s.num_rounds:  # R16
        best = s.scores[0]
        for k in range(1, n):
            if s.scores[k] < best:
                best = s.scores[k]
        s.nwin = 0
        for k in range(n):
            if s.scores[k] == best:
                s.winners[s.nwin] = k
                s.nwin += 1
        s.over = 1
        s.decision = NO_DECISION
        s.decider = -1
        for i in range(total):  # R13: every card face up
            s.knowers[i] = (1 << n) - 1
        return
    s.dealer = (s.dealer + 1) % n  # R5: the next round starts one seat further
    memcpy(top_first, FULL_DECK, DECK)  # R16: all cards reshuffled
    shuffle(bg, top_first, DECK)
    deal(s, top_first)


cdef void end_action(R *s, bitgen_t *bg, int seat) noexcept nogil:
    """``_end_action``: used specials go face up, then R10 / R12 decide."""
    cdef int n = s.n
    while s.nin_use:  # innermost power first; the outermost special ends on top
        s.nin_use -= 1
        s.discard[s.ndiscard] = s.in_use[s.nin_use]
        s.ndiscard += 1
    s.turns += 1
    s.played |= 1 << seat
    if s.knocker >= 0:  # R10: a last turn; the round ends before the knocker again
        if (seat + 1) % n == s.knocker:
            end_round(s, bg)
            return
    elif s.turns >= s.max_turns:  # R12: as if this player had knocked
        s.knocker = seat
        end_round(s, bg)
        return
    elif s.played == (1 << n) - 1:  # R10: everyone has played once
        s.decision = KNOCK_CHOICE
        s.decider = seat
        return
    next_turn(s, seat)


cdef int legal(R *s, int *out) noexcept nogil:
    """``legal_actions`` (sorted) into ``out`` (room for 80); their count."""
    cdef int d = s.decision, m = 0, k, other, j
    if s.over or d == NO_DECISION:
        return 0
    if d == TURN:  # R6 A: a special on top of the discard pile cannot be taken
        if s.ndiscard and s.discard[s.ndiscard - 1] < 10:
            out[0] = TAKE_DISCARD
            out[1] = DRAW
            return 2
        out[0] = DRAW
        return 1
    if d == TAKE_SLOT or d == DRAWN or d == DRAW_TWO_EXTRA:
        for k in range(SPS):
            out[k] = SLOT0 + k
        if d == TAKE_SLOT:
            return SPS
        m = SPS
        out[m] = DISCARD
        m += 1
        if s.held >= 10:
            out[m] = USE
            m += 1
        if d == DRAW_TWO_EXTRA:
            out[m] = REDRAW
            m += 1
        return m
    if d == SWAP_TARGET:
        for k in range(SPS):
            for other in range(s.n):
                if other != s.decider:
                    for j in range(SPS):
                        out[m] = SWAP0 + k * MAXP * SPS + other * SPS + j
                        m += 1
        return m
    if d == PEEK_SLOT:
        for k in range(SPS):
            out[k] = PEEK0 + k
        return SPS
    out[0] = KNOCK
    out[1] = NO_KNOCK
    return 2


cdef int is_legal(R *s, int action) noexcept nogil:
    cdef int d = s.decision, other
    if s.over or d == NO_DECISION or not 0 <= action < NUM_ACTIONS:
        return 0
    if d == TURN:
        if action == DRAW:
            return 1
        return action == TAKE_DISCARD and s.ndiscard and s.discard[s.ndiscard - 1] < 10
    if d == TAKE_SLOT:
        return SLOT0 <= action < SLOT0 + SPS
    if d == DRAWN or d == DRAW_TWO_EXTRA:
        if SLOT0 <= action <= DISCARD:
            return 1
        if action == USE:
            return s.held >= 10
        return action == REDRAW and d == DRAW_TWO_EXTRA
    if d == SWAP_TARGET:
        if action < SWAP0:
            return 0
        other = ((action - SWAP0) % (MAXP * SPS)) // SPS
        return other < s.n and other != s.decider
    if d == PEEK_SLOT:
        return PEEK0 <= action < PEEK0 + SPS
    return action == KNOCK or action == NO_KNOCK


cdef void apply_action(R *s, bitgen_t *bg, int action) noexcept nogil:
    """``apply`` of a legal action by the deciding seat (the caller checked both)."""
    cdef int seat = s.decider, d = s.decision, i, card
    cdef long long t
    s.decisions += 1
    t = s.decisions
    s.last_decided[seat] = t
    s.log_seat[s.nlog] = <int8_t>seat
    s.log_action[s.nlog] = <int8_t>action
    s.nlog += 1
    if s.nlog > MAXLOG:
        memmove(s.log_seat, s.log_seat + 12, s.nlog - 12)
        memmove(s.log_action, s.log_action + 12, s.nlog - 12)
        s.nlog -= 12
    if d == TURN:
        if action == TAKE_DISCARD:  # R6 A
            s.ndiscard -= 1
            s.held = s.discard[s.ndiscard]
            s.held_public = 1
            s.held_gen = -1
            s.decision = TAKE_SLOT
        else:  # R6 B
            draw_to_hand(s, bg)
            s.decision = DRAWN
        return
    if d == KNOCK_CHOICE:  # R10
        if action == KNOCK:
            s.knocker = seat
        next_turn(s, seat)
        return
    if d == SWAP_TARGET:  # R7
        swap(s, seat, action - SWAP0, t)
        end_action(s, bg, seat)
        return
    if d == PEEK_SLOT:  # R8
        i = seat * SPS + action - PEEK0
        s.knowers[i] |= 1 << seat
        s.seen_at[seat * s.n * SPS + i] = t
        end_action(s, bg, seat)
        return
    # a card in hand: TAKE_SLOT, DRAWN or DRAW_TWO_EXTRA
    if action < DISCARD:  # slot K (R6 A / B)
        place(s, seat, action - SLOT0, t)
        end_action(s, bg, seat)
    elif action == DISCARD:
        s.discard[s.ndiscard] = <int8_t>s.held
        s.ndiscard += 1
        s.held = -1
        end_action(s, bg, seat)
    elif action == REDRAW:  # R9: discard the extra card, the next one must be handled
        s.discard[s.ndiscard] = <int8_t>s.held
        s.ndiscard += 1
        draw_to_hand(s, bg)
        s.decision = DRAWN
    else:  # USE: R7-R9
        card = s.held
        s.held = -1
        s.in_use[s.nin_use] = <int8_t>card
        s.nin_use += 1
        if card == SWAP_CARD:
            s.decision = SWAP_TARGET
        elif card == PEEK_CARD:
            s.decision = PEEK_SLOT
        else:
            draw_to_hand(s, bg)
            s.decision = DRAW_TWO_EXTRA


cdef void new_game_c(R *s, bitgen_t *bg, int n, int max_turns, int num_rounds, int memory,
                     int dealer) noexcept nogil:
    """``new_game`` without options: the whole deck shuffled (``stack_deck``), dealt."""
    cdef int8_t top_first[66]
    memset(s, 0, sizeof(R))
    s.n = n
    s.max_turns = max_turns
    s.num_rounds = num_rounds
    s.memory = memory
    s.dealer = dealer
    s.held = -1
    s.held_gen = -1
    s.knocker = -1
    s.last_knocker = -1
    s.decider = -1
    memcpy(top_first, FULL_DECK, DECK)
    shuffle(bg, top_first, DECK)
    deal(s, top_first)


cdef void returns_c(R *s, double *out) noexcept nogil:
    """``split_returns`` of the winners (zeros while the game runs)."""
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


cdef void standing_c(R *s, double *out) noexcept nogil:
    """``potential`` of every seat: the lead over the best other total (lower wins) / 36 per
    round."""
    cdef int k, j, best
    cdef double scale = 36.0 * s.num_rounds
    for k in range(s.n):
        best = 2147483647
        for j in range(s.n):
            if j != k and s.scores[j] < best:
                best = s.scores[j]
        out[k] = (best - s.scores[k]) / scale


# ---- the encoder (encoding.encode_python's arithmetic, see its docstring) ----------------------
cdef inline double clip2(double x) noexcept nogil:
    return 2.0 if x > 2.0 else x


cdef inline int pmod(int a, int n) noexcept nogil:
    """Python's ``a % n`` (n > 0)."""
    cdef int r = a % n
    return r + n if r < 0 else r


cdef void visible_c(R *s, int seat, int *vis) noexcept nogil:
    """``rules.visible_slots``: the card of every slot as ``seat`` sees it, or -1."""
    cdef int total = s.n * SPS, i, bit = 1 << seat
    cdef long long since
    if s.over or s.memory == SEER:
        for i in range(total):
            vis[i] = s.slots[i]
    elif s.memory == PERFECT_RECALL:
        for i in range(total):
            vis[i] = s.slots[i] if s.knowers[i] & bit else -1
    else:
        since = s.last_decided[seat]
        for i in range(total):
            vis[i] = s.slots[i] if (s.knowers[i] & bit and
                                    s.seen_at[seat * total + i] >= since) else -1


cdef inline int visible_held_c(R *s, int seat) noexcept nogil:
    if s.held < 0:
        return -1
    if s.decider == seat or s.held_public or s.memory == SEER:
        return s.held
    return -1


cdef void encode_c(R *s, int seat, float *o) noexcept nogil:
    cdef int n = s.n, total = s.n * SPS
    cdef int vis[24]
    cdef int discard[13]
    cdef int counts[13]
    cdef int copies[13]
    cdef int i, c, k, numbers, weighted, held, low, starter, decider, knocker, played, owing
    cdef int known_sum, known, score, unseen_total, special, everyone
    cdef long long since = s.last_decided[seat]
    cdef double mean, max_total, est, x, y, rounds_div
    cdef float *b
    memset(o, 0, OBS_SIZE * sizeof(float))
    visible_c(s, seat, vis)
    for i in range(total):
        b = o + SLOT_BLOCK * i
        c = vis[i]
        if c >= 0:
            b[c] = 1.0
        else:
            b[13] = 1.0
        if s.memory != NO_MEMORY and (s.knowers[i] >> (i // SPS)) & 1:
            b[14] = 1.0
        if s.changed_at[i] > since:
            b[15] = 1.0
    # unseen_counts
    for k in range(NK):
        discard[k] = 0
        counts[k] = DECK_COUNTS[k]
    for i in range(s.ndiscard):
        discard[s.discard[i]] += 1
        counts[s.discard[i]] -= 1
    for i in range(s.nin_use):
        counts[s.in_use[i]] -= 1
    for i in range(s.naside):
        counts[s.aside[i]] -= 1
    for i in range(total):
        if vis[i] >= 0:
            counts[vis[i]] -= 1
    held = visible_held_c(s, seat)
    if held >= 0:
        counts[held] -= 1
    numbers = 0
    weighted = 0
    for k in range(10):
        numbers += counts[k]
        weighted += k * counts[k]
    mean = weighted / <double>numbers if numbers > 0 else 4.5
    max_total = 36.0 * s.num_rounds
    low = s.scores[0]
    for k in range(1, n):
        if s.scores[k] < low:
            low = s.scores[k]
    starter = (s.dealer + 1) % n
    decider = -1 if s.over else s.decider
    knocker = s.knocker
    played = s.played
    owing = knocker >= 0 and not s.over
    for c in range(n):
        known_sum = 0
        known = 0
        est = 0.0
        for i in range(c * SPS, c * SPS + SPS):
            k = vis[i]
            if k >= 0:
                known += 1
                if k < 10:
                    known_sum += k
                    est += k
                else:
                    est += mean
            else:
                est += mean
        score = s.scores[c]
        x = score / max_total
        y = (score - low) / max_total
        b = o + SEATS_AT + SEAT_BLOCK * c
        b[0] = 1.0
        b[1] = 1.0 if c == seat else 0.0
        b[2] = 1.0 if c == decider else 0.0
        b[3] = 1.0 if c == starter else 0.0
        b[4] = 1.0 if c == knocker else 0.0
        b[5] = 1.0 if played >> c & 1 else 0.0
        b[6] = 1.0 if (owing and c != knocker and
                       pmod(c - decider, n) < pmod(knocker - decider, n)) else 0.0
        b[7] = <float>clip2(x)
        b[8] = <float>(known_sum / 36.0)
        b[9] = <float>(known / 4.0)
        b[10] = <float>(est / 36.0)
        b[11] = <float>clip2(y)
    if held >= 0:
        b = o + HELD_AT
        b[held] = 1.0
        b[13 if s.decider == seat else 14] = 1.0
    if s.ndiscard:
        o[TOP_AT + s.discard[s.ndiscard - 1]] = 1.0
    b = o + MID_AT
    unseen_total = 0
    special = 0
    for k in range(NK):
        b[k] = <float>(discard[k] / <double>DECK_COUNTS[k])
        b[NK + k] = <float>(counts[k] / <double>DECK_COUNTS[k])
        unseen_total += counts[k]
        if k >= 10:
            special += counts[k]
    b += 2 * NK
    if s.nin_use:
        for k in range(10, NK):
            copies[k] = 0
        for i in range(s.nin_use):
            copies[s.in_use[i]] += 1
        for k in range(10, NK):
            b[k - 10] = <float>SHARE[k - 10][copies[k]]
    if s.naside:
        for k in range(10, NK):
            copies[k] = 0
        for i in range(s.naside):
            copies[s.aside[i]] += 1
        for k in range(10, NK):
            b[3 + k - 10] = <float>SHARE[k - 10][copies[k]]
    b += 6
    everyone = (1 << n) - 1
    rounds_div = 6.0 if 6.0 >= s.num_rounds else <double>s.num_rounds
    b[0] = <float>(s.ndraw / 66.0)
    b[1] = <float>(mean / 9.0)
    b[2] = <float>(special / <double>unseen_total) if unseen_total else 0.0
    b[3] = <float>(s.round_index / 6.0)
    b[4] = <float>((s.num_rounds - s.round_index) / rounds_div)
    b[5] = 1.0 if knocker >= 0 else 0.0
    b[6] = 1.0 if played == everyone else 0.0
    x = s.turns / <double>s.max_turns
    b[7] = <float>(2.0 if 2.0 < x else x)
    b[8] = 1.0 if s.ndiscard and s.discard[s.ndiscard - 1] < 10 else 0.0
    o[DECISION_AT + (0 if s.over else s.decision)] = 1.0
    o[ME_AT + seat] = 1.0
    o[COUNT_AT + n - 2] = 1.0
    o[MEMORY_AT + s.memory] = 1.0


# ---- the tracker baseline (agents/baselines/ratatat.py: TrackerAgent) as a rollout policy -------
cdef struct TCtx:
    int me
    int n
    double mean
    double own[4]
    double opp_value[20]
    int opp_seat[20]
    int opp_slot[20]
    int nopp
    int counts[13]
    int unseen_total
    int vis[24]
    int owner_knows[24]
    double give_away_free  # 1 when a give-away costs nothing (knocked, nobody else owes a turn)
    double knock_margin
    double peek_value


cdef inline int owes_c(R *s, int c) noexcept nogil:
    """``encoding_text.owes_last_turn``."""
    if s.knocker < 0 or s.over or c == s.knocker:
        return 0
    return pmod(c - s.decider, s.n) < pmod(s.knocker - s.decider, s.n)


cdef void tracker_context(R *s, int seat, TCtx *x) noexcept nogil:
    """``TrackerAgent._context`` of the view of ``seat``: the mean unseen number, the own row's
    estimates and the opponents' slots' values."""
    cdef int n = s.n, total = s.n * SPS, i, k, c, held, numbers = 0, weighted = 0, other
    x.me = seat
    x.n = n
    visible_c(s, seat, x.vis)
    for k in range(NK):
        x.counts[k] = DECK_COUNTS[k]
    for i in range(s.ndiscard):
        x.counts[s.discard[i]] -= 1
    for i in range(s.nin_use):
        x.counts[s.in_use[i]] -= 1
    for i in range(s.naside):
        x.counts[s.aside[i]] -= 1
    for i in range(total):
        if x.vis[i] >= 0:
            x.counts[x.vis[i]] -= 1
    held = visible_held_c(s, seat)
    if held >= 0:
        x.counts[held] -= 1
    x.unseen_total = 0
    for k in range(NK):
        x.unseen_total += x.counts[k]
    for k in range(10):
        numbers += x.counts[k]
        weighted += k * x.counts[k]
    x.mean = weighted / <double>numbers if numbers > 0 else 4.5
    for i in range(total):
        x.owner_knows[i] = s.memory != NO_MEMORY and (s.knowers[i] >> (i // SPS)) & 1
    for k in range(SPS):
        c = x.vis[seat * SPS + k]
        x.own[k] = <double>c if 0 <= c < 10 else x.mean
    x.nopp = 0
    for i in range(total):
        other = i // SPS
        if other == seat:
            continue
        c = x.vis[i]
        if 0 <= c < 10:
            x.opp_value[x.nopp] = <double>c
        elif c < 0 and x.owner_knows[i]:
            x.opp_value[x.nopp] = x.mean - 1.5
        else:
            x.opp_value[x.nopp] = x.mean
        x.opp_seat[x.nopp] = other
        x.opp_slot[x.nopp] = i % SPS
        x.nopp += 1
    x.give_away_free = 0
    if s.knocker >= 0:
        x.give_away_free = 1
        for other in range(n):
            if other != seat and owes_c(s, other):
                x.give_away_free = 0
                break


cdef inline int worst_own(TCtx *x) noexcept nogil:
    """``max(range(4), key=lambda i: (own[i], -i))``: the first highest estimate."""
    cdef int k, best = 0
    for k in range(1, SPS):
        if x.own[k] > x.own[best]:
            best = k
    return best


cdef inline double give_away_cost(TCtx *x, int v) noexcept nogil:
    """``_give_away_cost``: discarding a low card offers it to the next player (R6 A)."""
    cdef double d
    if x.give_away_free:
        return 0.0
    d = 3.5 - v
    return (d if d > 0.0 else 0.0) * 0.4


cdef inline double swap_gain(TCtx *x, int *k, int *seat, int *slot) noexcept nogil:
    """``_swap_gain``: own worst estimate for the opponent slot valued lowest (first in seat,
    slot order), its gain times 1.5."""
    cdef int i, best = 0
    k[0] = worst_own(x)
    for i in range(1, x.nopp):
        if x.opp_value[i] < x.opp_value[best]:
            best = i
    seat[0] = x.opp_seat[best]
    slot[0] = x.opp_slot[best]
    return (x.own[k[0]] - x.opp_value[best]) * 1.5


cdef double card_value(TCtx *x, R *s, int code) noexcept nogil:
    """``_card_value``: the best use of a card now in hand (expected round-score decrease)."""
    cdef int k, a, b, unknown
    cdef double gain, cost
    if code < 10:
        k = worst_own(x)
        gain = x.own[k] - <double>code
        cost = -give_away_cost(x, code)
        return gain if gain >= cost else cost  # max(gain, cost): gain unless cost is larger
    if code == SWAP_CARD:
        gain = swap_gain(x, &k, &a, &b)
        return gain if gain >= 0.0 else 0.0
    if code == PEEK_CARD:
        unknown = 0
        for k in range(SPS):
            if x.vis[x.me * SPS + k] < 0:
                unknown += 1
        return x.peek_value if unknown else 0.0
    return draw_value(x, s, 1)  # DRAW_TWO: at least one more draw


cdef double draw_value(TCtx *x, R *s, int depth) noexcept nogil:
    """``_draw_value``: the expectation of ``_card_value`` over the unseen cards."""
    cdef double total = 0.0, p
    cdef int code
    if x.unseen_total <= 0:
        return 0.0
    for code in range(NK):
        if x.counts[code] > 0:
            p = x.counts[code] / <double>x.unseen_total
            if code == DRAW_TWO_CARD:
                total += p * (0.5 if depth else draw_value(x, s, depth + 1))
            else:
                total += p * card_value(x, s, code)
    return total


cdef int tracker_act(R *s, double knock_margin, double peek_value) noexcept nogil:
    """``TrackerAgent.act`` for the deciding seat (a legal action of a running game)."""
    cdef TCtx x
    cdef int seat = s.decider, d = s.decision, k, a, b, top, code, unknown, other, i, c
    cdef double gain, keep, redraw, value, mine, best_other, row
    x.knock_margin = knock_margin
    x.peek_value = peek_value
    tracker_context(s, seat, &x)
    if d == TURN:
        if s.ndiscard:
            top = s.discard[s.ndiscard - 1]
            if top < 10:
                k = worst_own(&x)
                gain = x.own[k] - <double>top
                if gain > 0 and gain >= draw_value(&x, s, 0) - 0.25:
                    return TAKE_DISCARD
        return DRAW
    if d == TAKE_SLOT:
        return SLOT0 + worst_own(&x)
    if d == DRAWN or d == DRAW_TWO_EXTRA:
        code = s.held
        redraw = draw_value(&x, s, 0) if d == DRAW_TWO_EXTRA else 0.0
        if code < 10:
            k = worst_own(&x)
            gain = x.own[k] - <double>code
            keep = gain if gain > 0 else -give_away_cost(&x, code)
            if d == DRAW_TWO_EXTRA and redraw - give_away_cost(&x, code) > keep:
                return REDRAW
            return SLOT0 + k if gain > 0 else DISCARD
        value = card_value(&x, s, code)
        if d == DRAW_TWO_EXTRA and redraw > value:
            return REDRAW
        if code == SWAP_CARD:
            return USE if swap_gain(&x, &k, &a, &b) > 0.5 else DISCARD
        if code == PEEK_CARD:
            return USE if value > 0 else DISCARD
        return USE  # DRAW_TWO
    if d == PEEK_SLOT:
        for k in range(SPS):
            if x.vis[seat * SPS + k] < 0:
                return PEEK0 + k
        return PEEK0
    if d == SWAP_TARGET:
        swap_gain(&x, &k, &a, &b)
        return SWAP0 + k * MAXP * SPS + a * SPS + b
    # KNOCK_CHOICE: _should_knock
    mine = 0.0
    unknown = 0
    for k in range(SPS):
        mine += x.own[k]
        if x.vis[seat * SPS + k] < 0:
            unknown += 1
    best_other = 0.0
    a = 1
    for other in range(s.n):
        if other == seat:
            continue
        row = 0.0
        for i in range(other * SPS, other * SPS + SPS):
            c = x.vis[i]
            if 0 <= c < 10:
                row += <double>c
            elif c < 0 and x.owner_knows[i]:
                row += x.mean - 1.5
            else:
                row += x.mean
        if a or row < best_other:
            best_other = row
            a = 0
    if mine + (knock_margin + 0.75 * unknown) <= best_other or mine <= 4.0:
        return KNOCK
    return NO_KNOCK


# ---- Python state <-> struct -------------------------------------------------------------------
# ---- playing rollouts in C (the search's ``Rollout``: ``play_out``) ----------------------------
cdef enum:
    POLICY_RANDOM = 0
    POLICY_TRACKER = 1


cdef struct Play:
    int policy
    double knock_margin  # TrackerAgent.knock_margin
    double peek_value  # TrackerAgent.peek_value
    int use_mt  # the random policy's actions: random.random() of mt (1), or the bit generator (0)
    MT *mt  # legal[int(random.random() * len(legal))] (use_mt 1)
    bitgen_t *pick  # legal[random_interval(len(legal) - 1)] (use_mt 0)
    int to_round  # stop when the round index is no longer ``start``
    int start
    long long max_decisions


cdef int policy_id(str policy) except -1:
    if policy == "random":
        return POLICY_RANDOM
    if policy == "tracker":
        return POLICY_TRACKER
    raise ConfigError(f"ratatat rollouts: policy {policy!r}; allowed: 'random' or 'tracker'")


cdef long long play_c(R *w, bitgen_t *bg, Play *p, long long made) noexcept nogil:
    """Play ``w`` on with the policy (reshuffles from ``bg``) to the horizon, or until a round
    ends (the caller records its scores) or a draw finds both piles empty (``w.err``); the
    decisions made, counting on from ``made``."""
    cdef int acts[80]
    cdef int m, round_index = w.round_index
    while (not w.over and made < p.max_decisions and not (p.to_round and w.round_index != p.start)
           and w.round_index == round_index):
        if p.policy == POLICY_TRACKER:
            apply_action(w, bg, tracker_act(w, p.knock_margin, p.peek_value))
        else:
            m = legal(w, acts)
            if p.use_mt:
                apply_action(w, bg, acts[<int>(mt_random(p.mt) * m)])
            else:
                apply_action(w, bg, acts[random_interval(p.pick, <uint64_t>(m - 1))])
        made += 1
        if w.err:
            break
    return made


cdef int check_range(str what, long long value, long long low, long long high) except -1:
    if not low <= value <= high:
        raise ConfigError(f"ratatat state: {what} is {value}; allowed: {low}..{high}")
    return 0


cdef int load_cards(int8_t *dst, list cards, int cap, str what) except -1:
    cdef Py_ssize_t m = len(cards), k
    cdef long c
    if m > cap:
        raise ConfigError(f"ratatat state: {what} holds {m} cards; allowed: at most {cap}")
    for k in range(m):
        c = cards[k]
        if not 0 <= c < NK:
            raise ConfigError(f"ratatat state: {what} holds card {c!r}; allowed: 0..{NK - 1}")
        dst[k] = <int8_t>c
    return <int>m


cdef int check_length(str what, list values, Py_ssize_t length) except -1:
    if len(values) != length:
        raise ConfigError(
            f"ratatat state: {what} has {len(values)} entries; allowed: exactly {length}")
    return 0


cdef int load_state(R *s, object st, bint whole) except -1:
    """The struct of a ``RatatatState`` (rules.py's fields, their meaning unchanged). Every index
    the C code uses is checked; ``whole``: also the log, the last rows and that the zones hold
    the 66 cards of the deck (a state that will be played on: no zone can then outgrow its
    array)."""
    cdef int n = st.num_players, total, k, cards
    cdef list slots, knowers, gens, seen_at, changed_at, last_decided, scores, log
    check_range("num_players", n, 2, MAXP)
    total = n * SPS
    s.n = n
    s.max_turns = st.max_turns
    check_range("max_turns", s.max_turns, 1, 100_000)
    s.num_rounds = st.num_rounds
    check_range("num_rounds", s.num_rounds, 1, 1000)
    s.memory = st.memory
    check_range("memory", s.memory, PERFECT_RECALL, SEER)
    scores = st.scores
    check_length("scores", scores, n)
    for k in range(n):
        s.scores[k] = scores[k]
        s.last_scores[k] = 0
    s.dealer = st.dealer
    check_range("dealer", s.dealer, 0, n - 1)
    s.round_index = st.round_index
    check_range("round_index", s.round_index, 0, s.num_rounds)
    s.ndraw = load_cards(s.draw, st.draw_pile, DECK, "draw_pile")
    s.ndiscard = load_cards(s.discard, st.discard_pile, DECK, "discard_pile")
    slots = st.slots
    knowers = st.knowers
    gens = st.gens
    seen_at = st.seen_at
    changed_at = st.changed_at
    last_decided = st.last_decided
    check_length("slots", slots, total)
    check_length("knowers", knowers, total)
    check_length("gens", gens, total)
    check_length("changed_at", changed_at, total)
    check_length("seen_at", seen_at, n * total)
    check_length("last_decided", last_decided, n)
    load_cards(s.slots, slots, total, "slots")
    for k in range(total):
        s.knowers[k] = knowers[k]
        check_range("knowers", s.knowers[k], 0, (1 << n) - 1)
        s.gens[k] = gens[k]
        s.changed_at[k] = changed_at[k]
    for k in range(n * total):
        s.seen_at[k] = seen_at[k]
    for k in range(n):
        s.last_decided[k] = last_decided[k]
    s.held = st.held
    check_range("held", s.held, -1, NK - 1)
    s.held_public = 1 if st.held_public else 0
    s.held_gen = st.held_gen
    s.nin_use = load_cards(s.in_use, st.in_use, MAXINUSE, "in_use")
    s.naside = load_cards(s.aside, st.set_aside, DECK, "set_aside")
    s.pile_gen = st.pile_gen
    s.decision = st.decision
    check_range("decision", s.decision, NO_DECISION, KNOCK_CHOICE)
    s.decider = st.decider
    check_range("decider", s.decider, -1, n - 1)
    s.turns = st.turns
    s.played = st.played
    check_range("played", s.played, 0, (1 << n) - 1)
    s.knocker = st.knocker
    check_range("knocker", s.knocker, -1, n - 1)
    s.last_knocker = st.last_knocker
    s.over = 1 if st.over else 0
    s.decisions = st.decisions
    winners = st.winners
    if len(winners) > n:
        raise ConfigError(f"ratatat state: winners {winners!r}; allowed: at most {n} seats")
    s.nwin = len(winners)
    for k in range(s.nwin):
        s.winners[k] = winners[k]
        check_range("a winner", s.winners[k], 0, n - 1)
    s.err = 0
    if not whole:
        s.nlast_rows = 0
        s.nlog = 0
        return 0
    s.nlast_rows = load_cards(s.last_rows, st.last_rows, total, "last_rows")
    log = st.log
    if len(log) > MAXLOG:
        raise ConfigError(f"ratatat state: log holds {len(log)} entries; allowed: at most 24")
    s.nlog = len(log)
    for k in range(s.nlog):
        entry = log[k]
        check_range("a logged seat", entry[0], 0, n - 1)
        check_range("a logged action", entry[1], 0, NUM_ACTIONS - 1)
        s.log_seat[k] = <int8_t>entry[0]
        s.log_action[k] = <int8_t>entry[1]
    cards = s.ndraw + s.ndiscard + total + s.nin_use + s.naside + (1 if s.held >= 0 else 0)
    if cards != DECK:
        raise ConfigError(f"ratatat state: the zones hold {cards} cards; allowed: the {DECK} "
                          f"cards of the deck")
    if s.decision == TURN and not s.over and s.ndiscard == 0:
        raise ConfigError("ratatat state: decision 'turn' with an empty discard pile; allowed: a "
                          "face-up card to start a turn (R6)")
    return 0


cdef list cards_list(int8_t *cards, int m):
    return [cards[k] for k in range(m)]


cdef inline void check_seat(int seat, int n) except *:
    if not 0 <= seat < n:
        raise IndexError(f"ratatat: seat {seat} is not a seat of this {n}-player game "
                         f"(0..{n - 1})")


cdef inline cnp.ndarray new_obs():
    cdef cnp.npy_intp dims[1]
    dims[0] = OBS_SIZE
    return cnp.PyArray_EMPTY(1, dims, cnp.NPY_FLOAT32, 0)


def encode(state, int seat):
    """The observation of ``seat`` (``encoding.encode_python``'s, byte for byte) of a
    ``RatatatState`` or a native state."""
    cdef R s
    cdef R *p
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
    """A ratatat game state on a C struct, with the numpy generator it draws from.

    Its read-only attributes have the names and values of ``RatatatState``'s (lists are fresh
    copies), so code that reads a state (renders, views, baselines) reads either."""

    cdef R s
    cdef object _rng
    cdef object _bits  # keeps the bit generator (owner of the bitgen_t) alive
    cdef bitgen_t *bg
    cdef list _round_scores  # per finished round (not in the struct: up to 1000 rounds)

    cdef int _set_rng(self, object rng) except -1:
        self._rng = rng
        self._bits = rng.bit_generator
        self.bg = bitgen_of(rng)
        return 0

    # ---- construction ----
    @staticmethod
    def new_game(rng, int num_players, int max_turns, int num_rounds, int memory, int dealer):
        """``RatatatGame.new_game(rng)`` without options (a shuffled deck, dealt)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        check_range("num_players", num_players, 2, MAXP)
        check_range("max_turns", max_turns, 1, 100_000)
        check_range("num_rounds", num_rounds, 1, 1000)
        check_range("memory", memory, PERFECT_RECALL, SEER)
        check_range("dealer", dealer, 0, num_players - 1)
        st._set_rng(rng)
        st._round_scores = []
        new_game_c(&st.s, st.bg, num_players, max_turns, num_rounds, memory, dealer)
        return st

    @staticmethod
    def from_python(state, rng=None):
        """The native copy of a ``RatatatState`` (drawing from ``rng``, default its own
        generator, shared)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        load_state(&st.s, state, True)
        st._round_scores = [list(r) for r in state.round_scores]
        st._set_rng(state.rng if rng is None else rng)
        return st

    def to_python(self, copy_rng=True):
        """The ``RatatatState`` of this state (its generator copied, or shared)."""
        cdef R *s = &self.s
        return RatatatState(
            num_players=s.n,
            max_turns=s.max_turns,
            num_rounds=s.num_rounds,
            memory=s.memory,
            rng=copy_generator(self._rng) if copy_rng else self._rng,
            scores=self.scores,
            dealer=s.dealer,
            round_index=s.round_index,
            round_scores=self.round_scores,
            draw_pile=self.draw_pile,
            discard_pile=self.discard_pile,
            slots=self.slots,
            knowers=self.knowers,
            gens=self.gens,
            seen_at=self.seen_at,
            changed_at=self.changed_at,
            last_decided=self.last_decided,
            held=s.held,
            held_public=bool(s.held_public),
            held_gen=s.held_gen,
            in_use=self.in_use,
            set_aside=self.set_aside,
            pile_gen=s.pile_gen,
            decision=s.decision,
            decider=s.decider,
            turns=s.turns,
            played=s.played,
            knocker=s.knocker,
            last_rows=self.last_rows,
            last_knocker=s.last_knocker,
            log=self.log,
            winners=self.winners,
            over=bool(s.over),
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
        st._round_scores = [list(r) for r in self._round_scores]
        st._set_rng(copy_generator(self._rng) if rng is None else rng)
        return st

    # ---- queries ----
    def legal_actions(self):
        cdef int acts[80]
        cdef int m = legal(&self.s, acts), k
        return [acts[k] for k in range(m)]

    def legal_mask(self):
        """The action mask (int8, size 111)."""
        cdef int acts[80]
        cdef int m = legal(&self.s, acts), k
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        cdef int8_t[::1] view = out
        for k in range(m):
            view[acts[k]] = 1
        return out

    def current_player(self):
        return None if self.s.over else self.s.decider

    def is_legal(self, int action):
        return bool(is_legal(&self.s, action))

    def returns(self):
        cdef double out[6]
        returns_c(&self.s, out)
        return [out[k] for k in range(self.s.n)]

    def standing(self):
        """Every seat's ``potential``: its lead over the best other total / 36 per round."""
        cdef double out[6]
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
        cdef int round_index = self.s.round_index
        if not is_legal(&self.s, action):
            return False
        apply_action(&self.s, self.bg, action)
        if self.s.err:
            raise RuntimeError("ratatat: no card left to draw (draw and discard piles empty)")
        if self.s.round_index != round_index:
            self._round_scores.append([self.s.last_scores[k] for k in range(self.s.n)])
        return True

    def tracker_action(self, double knock_margin=7.0, double peek_value=1.5):
        """The action ``TrackerAgent(knock_margin, peek_value)`` (agents/baselines/ratatat.py)
        takes for the deciding seat, from what that seat sees; None once the game is over."""
        if self.s.over or self.s.decision == NO_DECISION:
            return None
        return tracker_act(&self.s, knock_margin, peek_value)

    def rollouts(self, int count, seed, str horizon="game", str policy="random"):
        """``count`` playouts from this state, all inside C: to the end of the game
        (``horizon="game"``: the returns) or of the round in progress (``"round"``: each seat's
        standing, its lead over the best other total / 36 per round, or the returns if the game
        ended first). Every seat plays ``policy``: ``"random"`` (a uniform legal action) or
        ``"tracker"`` (``TrackerAgent``'s decisions with its default settings, from what the
        deciding seat sees). Random actions and reshuffles come from
        ``np.random.default_rng(seed)`` (this state and its generator are unchanged). Returns
        (values float64[count, seats], decisions played)."""
        if horizon not in ("game", "round"):
            raise ConfigError(
                f"ratatat rollouts: horizon {horizon!r}; allowed: 'game' or 'round'")
        if policy not in ("random", "tracker"):
            raise ConfigError(
                f"ratatat rollouts: policy {policy!r}; allowed: 'random' or 'tracker'")
        if count < 0:
            raise ConfigError(f"ratatat rollouts: count {count}; allowed: 0 or more")
        rng = np.random.default_rng(seed)
        cdef object bits = rng.bit_generator  # alive until the end
        cdef bitgen_t *bg = bitgen_of(rng)
        cdef int n = self.s.n, i, m, failed = 0
        cdef int to_round = horizon == "round"
        cdef int tracker = policy == "tracker"
        cdef int start_round = self.s.round_index
        cdef long long decisions = 0
        cdef int acts[80]
        cdef R w
        values = np.zeros((count, n), dtype=np.float64)
        cdef double[:, ::1] vals = values
        with nogil:
            for i in range(count):
                w = self.s
                while not w.over and not (to_round and w.round_index != start_round):
                    if tracker:
                        apply_action(&w, bg, tracker_act(&w, 7.0, 1.5))
                    else:
                        m = legal(&w, acts)
                        apply_action(&w, bg, acts[random_interval(bg, <uint64_t>(m - 1))])
                    decisions += 1
                    if w.err:
                        failed = 1
                        break
                if failed:
                    break
                if w.over or not to_round:
                    returns_c(&w, &vals[i, 0])
                else:
                    standing_c(&w, &vals[i, 0])
        if failed:
            raise RuntimeError("ratatat: no card left to draw (draw and discard piles empty)")
        return values, decisions

    # ---- RatatatState's attribute names (read-only copies) ----
    @property
    def rng(self):
        return self._rng

    @property
    def num_players(self):
        return self.s.n

    @property
    def max_turns(self):
        return self.s.max_turns

    @property
    def num_rounds(self):
        return self.s.num_rounds

    @property
    def memory(self):
        return self.s.memory

    @property
    def scores(self):
        return [self.s.scores[k] for k in range(self.s.n)]

    @property
    def dealer(self):
        return self.s.dealer

    @property
    def round_index(self):
        return self.s.round_index

    @property
    def round_scores(self):
        return [list(r) for r in self._round_scores]

    @property
    def draw_pile(self):
        return cards_list(self.s.draw, self.s.ndraw)

    @property
    def discard_pile(self):
        return cards_list(self.s.discard, self.s.ndiscard)

    @property
    def slots(self):
        return cards_list(self.s.slots, self.s.n * SPS)

    @property
    def knowers(self):
        return [self.s.knowers[k] for k in range(self.s.n * SPS)]

    @property
    def gens(self):
        return [self.s.gens[k] for k in range(self.s.n * SPS)]

    @property
    def seen_at(self):
        return [self.s.seen_at[k] for k in range(self.s.n * self.s.n * SPS)]

    @property
    def changed_at(self):
        return [self.s.changed_at[k] for k in range(self.s.n * SPS)]

    @property
    def last_decided(self):
        return [self.s.last_decided[k] for k in range(self.s.n)]

    @property
    def held(self):
        return self.s.held

    @property
    def held_public(self):
        return bool(self.s.held_public)

    @property
    def held_gen(self):
        return self.s.held_gen

    @property
    def in_use(self):
        return cards_list(self.s.in_use, self.s.nin_use)

    @property
    def set_aside(self):
        return cards_list(self.s.aside, self.s.naside)

    @property
    def pile_gen(self):
        return self.s.pile_gen

    @property
    def decision(self):
        return self.s.decision

    @property
    def decider(self):
        return self.s.decider

    @property
    def turns(self):
        return self.s.turns

    @property
    def played(self):
        return self.s.played

    @property
    def knocker(self):
        return self.s.knocker

    @property
    def last_rows(self):
        return cards_list(self.s.last_rows, self.s.nlast_rows)

    @property
    def last_knocker(self):
        return self.s.last_knocker

    @property
    def log(self):
        return [(self.s.log_seat[k], self.s.log_action[k]) for k in range(self.s.nlog)]

    @property
    def winners(self):
        return [self.s.winners[k] for k in range(self.s.nwin)]

    @property
    def over(self):
        return bool(self.s.over)

    @property
    def decisions(self):
        return self.s.decisions


def rollout_batch(list states, str policy="random", horizon="game", seed=0, int rollouts=1,
                  start=None, double knock_margin=7.0, double peek_value=1.5):
    """``rollouts`` playouts of every native state in ``states``, all inside C, with ``policy``
    (``random`` or ``tracker``) to the ``horizon``: ``"game"`` (the returns), ``"round"`` (the
    end of round ``start``, default each state's round in progress: each seat's standing, or
    the returns if the game ended first) or an int N >= 1 (N decisions, valued the same way).
    The random actions and the reshuffles come from ``np.random.default_rng(seed)``; the states
    and their generators are unchanged. Returns (values float64[len(states) * rollouts, seats],
    rollout r of state i in row i * rollouts + r; decisions played)."""
    cdef Play p
    cdef int i, r, m = len(states), n = 0, failed = 0
    cdef long long decisions = 0, made
    cdef R w
    cdef R *src
    cdef int own_start = start is None
    memset(&p, 0, sizeof(Play))
    p.policy = policy_id(policy)
    p.knock_margin = knock_margin
    p.peek_value = peek_value
    round_horizon(horizon, start, &p.to_round, &p.start, &p.max_decisions)
    check_rollouts(rollouts)
    for i in range(m):
        if type(states[i]) is not NativeState:
            raise ConfigError(f"ratatat rollouts: a {type(states[i]).__name__} among the "
                              f"states; allowed: native states (NativeState.from_python)")
        if i and (<NativeState>states[i]).s.n != n:
            raise ConfigError(f"ratatat rollouts: states of {n} and "
                              f"{(<NativeState>states[i]).s.n} players; allowed: one player "
                              f"count per call")
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
                src = <R *>ptrs[i]
                if own_start:
                    p.start = src.round_index
                for r in range(rollouts):
                    w = src[0]
                    made = 0
                    while True:  # play_c stops at every round's end
                        made = play_c(&w, bg, &p, made)
                        if w.err or w.over or made >= p.max_decisions or (
                                p.to_round and w.round_index != p.start):
                            break
                    decisions += made
                    if w.err:
                        failed = 1
                        break
                    if w.over or not cut:
                        returns_c(&w, &vals[i * rollouts + r, 0])
                    else:
                        standing_c(&w, &vals[i * rollouts + r, 0])
                if failed:
                    break
    finally:
        PyMem_Free(ptrs)
    if failed:
        raise RuntimeError("ratatat: no card left to draw (draw and discard piles empty)")
    return values, decisions


def play_out(list states, str policy="random", start=None, seeds=None, py=None,
             double knock_margin=7.0, double peek_value=1.5, long long max_decisions=20_000):
    """``Rollout.run`` of the search agents on every native state, in place and in C: each state
    is played on with ``policy`` (``random`` or ``tracker``, ``TrackerAgent``'s decisions with
    its options) to the game's end (``start`` None: the returns) or to the end of round
    ``start`` (the standing, or the returns if the game ended first), drawing its reshuffles
    from its own generator, exactly as the Python engine would; the random policy's actions are
    ``legal[int(rng.random() * len(legal))]`` of Python's ``random.Random``: a fresh
    ``random.Random(seeds[i])`` per state, or the one ``py`` for all (consumed in order, as
    many ``run(state, py)`` calls would). So the values are those of the Python ``Rollout``
    with the same generators. Returns values float64[len(states), seats]."""
    cdef Play p
    cdef MT mt
    cdef NativeState st
    cdef int i, j, k, m = len(states), n = 0, to_round = start is not None
    cdef long long made
    p.policy = policy_id(policy)
    p.knock_margin = knock_margin
    p.peek_value = peek_value
    p.use_mt = 1
    p.mt = &mt
    p.pick = NULL
    p.max_decisions = max_decisions
    p.to_round = to_round
    p.start = start if to_round else 0
    for i in range(m):
        if type(states[i]) is not NativeState:
            raise ConfigError(f"ratatat play_out: a {type(states[i]).__name__} among the "
                              f"states; allowed: native states (NativeState.from_python)")
        if i and (<NativeState>states[i]).s.n != n:
            raise ConfigError(f"ratatat play_out: states of {n} and "
                              f"{(<NativeState>states[i]).s.n} players; allowed: one player "
                              f"count per call")
        n = (<NativeState>states[i]).s.n
    check_seeds(p.policy == POLICY_RANDOM, seeds, py, m)
    values = np.zeros((m, n), dtype=np.float64)
    if m == 0:
        return values
    cdef double[:, ::1] vals = values
    saved = None
    if py is not None and p.policy == POLICY_RANDOM:
        saved = mt_load(&mt, py)
    try:
        for i in range(m):
            st = <NativeState>states[i]
            if seeds is not None and p.policy == POLICY_RANDOM:
                mt_seed(&mt, <uint64_t>seeds[i])
            made = 0
            while True:
                k = st.s.round_index
                with nogil:
                    made = play_c(&st.s, st.bg, &p, made)
                if st.s.err:
                    raise RuntimeError(
                        "ratatat: no card left to draw (draw and discard piles empty)")
                if st.s.round_index != k:  # as NativeState.apply records a finished round
                    st._round_scores.append([st.s.last_scores[j] for j in range(n)])
                    continue
                break
            if st.s.over or not to_round:
                returns_c(&st.s, &vals[i, 0])
            else:
                standing_c(&st.s, &vals[i, 0])
    finally:
        if saved is not None:
            mt_store(&mt, py, saved)
    return values


def _rebuild(state):
    """The unpickled native state (pickled as its ``RatatatState``)."""
    return NativeState.from_python(state)
