# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""Flip 6 on a C struct: the native core (engine state, encoder, random rollouts).

The same game as ``rules.py`` (rule ids F1-F18 of ``docs/rules/flip6.md``), step for step: every
function below mirrors the method of ``Flip6Game`` it names, in the same order of effects, so that
both cores reach the same states. Every random number is drawn from the numpy bit generator of the
state's ``np.random.Generator`` through numpy's C API (``bitgen_t``), with numpy's own algorithm
(``Generator.permutation``: a Fisher-Yates shuffle whose indices come from ``random_interval``),
so the same seed gives the same game on either core and the generator ends in the same state.
``tests/test_native_flip6.py`` steps both cores side by side.

The encoder computes every float as ``encoding.py`` does (double precision, rounded to float32 at
the end, the same operations in the same order), so the observation is byte-identical.

The rollout policies are the C ports of the scripted baselines of ``agents/baselines/flip6.py``
(``threshold``, ``ev``): functions of the state that compute what the baseline reads in its
``view`` with the same double-precision operations in the same order (the odds in the order of the
view's dicts, sums left to right), so they pick the same action; ``tests/test_native_rollouts.py``
holds them to the Python agents. The engine knows nothing of agents: the Python baselines are the
reference. ``rollout_batch`` and ``play_out`` play many rollouts in one call.

The random-number plumbing every game's core shares (numpy's ``random_interval`` and
permutation, Python's Mersenne Twister for the random rollout policy) is
``envs/core/_native_common.pxi``, included below.

Built optionally by ``setup.py``; ``native.py`` is the Python side (``NATIVE_AVAILABLE``).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, uint32_t, uint64_t
from libc.math cimport pow
from libc.string cimport memcpy, memset

cimport numpy as cnp
from numpy.random cimport bitgen_t

import numpy as np

from cardarena.envs.core.engine import ConfigError, copy_generator
from cardarena.envs.flip6.rules import Flip6State

cdef str GAME = "flip6"  # the name the shared code's errors start with
include "../core/_native_common.pxi"

cnp.import_array()

# ---- constants of rules.py (checked against it by tests/test_native_flip6.py) ------------------
cdef enum:
    EXTRA_LIFE = 7
    FREEZE = 8
    FLIP3 = 9
    DOUBLE = 10
    NK = 11
    IN_ROUND = 0
    STAYED = 1
    FROZEN = 2
    BUSTED = 3
    NO_DECISION = 0
    TURN = 1
    TARGET_FREEZE = 2
    TARGET_FLIP3 = 3
    MAXP = 6
    STAY = 0
    HIT = 1
    TARGET0 = 2
    NUM_ACTIONS = 8
    TASK_DEAL = 0
    TASK_FLIP3 = 1
    DECK = 26
    MAXSTACK = 8
    MAXASIDE = 4
    MAXSTACK_LOADED = 6  # room for the pushes of one step
    SEAT_BLOCK = 31
    OBS_SIZE = 225
    FLIP6_BONUS = 6

cdef int DECK_COUNTS[11]
DECK_COUNTS[:] = [1, 1, 2, 3, 4, 5, 6, 1, 1, 1, 1]
cdef int8_t FULL_DECK[26]
FULL_DECK[:] = [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 8, 9, 10]

NUM_CARD_KINDS_C = NK
OBS_SIZE_C = OBS_SIZE
DECK_COUNTS_C = [DECK_COUNTS[k] for k in range(NK)]
FULL_DECK_C = [FULL_DECK[k] for k in range(DECK)]


cdef struct F6:
    int n
    int target
    int dealer
    int scores[6]
    int8_t draw[26]  # top of the pile is the end (draw[ndraw - 1]), as in rules.py
    int ndraw
    int8_t discard[26]
    int ndiscard
    int8_t table[6][26]
    int ntable[6]
    int status[6]
    int values[6]
    int life[6]
    int dbl[6]
    int8_t aside[26]
    int naside
    int stack[8][3]
    int nstack
    int decision
    int decider
    int next_turn
    int over
    int round_index
    int flip6_seat
    long long decisions
    int winners[6]
    int nwin


cdef inline int popcount(int x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


# ---- the engine (Flip6Game's methods, same names) ----------------------------------------------
cdef int round_score(F6 *s, int seat, int flip6) noexcept nogil:
    cdef int total = 0, k, c
    for k in range(s.ntable[seat]):
        c = s.table[seat][k]
        if 1 <= c <= 6:
            total += c
    if s.dbl[seat]:
        total *= 2
    return total + (FLIP6_BONUS if flip6 else 0)


cdef void start_round(F6 *s) noexcept nogil:
    cdef int k
    for k in range(s.n):
        s.status[k] = IN_ROUND
        s.values[k] = 0
        s.life[k] = 0
        s.dbl[k] = 0
    s.next_turn = (s.dealer + 1) % s.n
    s.stack[0][0] = TASK_DEAL
    s.stack[0][1] = 0
    s.stack[0][2] = 0
    s.nstack = 1


cdef void end_round(F6 *s) noexcept nogil:
    cdef int seat, k
    for seat in range(s.n):
        for k in range(s.ntable[seat]):
            s.discard[s.ndiscard] = s.table[seat][k]
            s.ndiscard += 1
        s.ntable[seat] = 0
    s.nstack = 0
    s.dealer = (s.dealer + 1) % s.n
    s.round_index += 1
    start_round(s)


cdef void bank(F6 *s, int mask, int flip6_seat) noexcept nogil:
    """``_bank`` for the seats of ``mask`` (ascending, as the engine lists them)."""
    cdef int seat, reached = 0, best = -2147483647
    for seat in range(s.n):
        if mask >> seat & 1:
            s.scores[seat] += round_score(s, seat, seat == flip6_seat)
            if s.status[seat] == IN_ROUND:
                s.status[seat] = STAYED
            if s.scores[seat] >= s.target:
                reached |= 1 << seat
                if s.scores[seat] > best:
                    best = s.scores[seat]
    if reached:
        s.nwin = 0
        for seat in range(s.n):
            if reached >> seat & 1 and s.scores[seat] == best:
                s.winners[s.nwin] = seat
                s.nwin += 1
        s.over = 1
        s.decision = NO_DECISION
        s.decider = -1
        s.nstack = 0


cdef inline void freeze(F6 *s, int seat) noexcept nogil:
    s.status[seat] = FROZEN
    bank(s, 1 << seat, -1)


cdef void flip6(F6 *s, int seat) noexcept nogil:
    cdef int k, mask = 0
    for k in range(s.n):
        if s.status[k] == IN_ROUND:
            mask |= 1 << k
    s.flip6_seat = seat
    bank(s, mask, seat)
    if not s.over:
        end_round(s)


cdef inline int draw(F6 *s, bitgen_t *bg) noexcept nogil:
    """``_draw``: the top card, reshuffling the discard pile first when the draw pile is empty
    (``rng.permutation``); -1 when both piles are empty."""
    if s.ndraw == 0:
        if s.ndiscard == 0:
            return -1
        memcpy(s.draw, s.discard, s.ndiscard)
        shuffle(bg, s.draw, s.ndiscard)
        s.ndraw = s.ndiscard
        s.ndiscard = 0
    s.ndraw -= 1
    return s.draw[s.ndraw]


cdef void draw_for(F6 *s, bitgen_t *bg, int seat, int in_flip3) noexcept nogil:
    cdef int card = draw(s, bg)
    cdef int bit, k, found
    if card < 0:
        s.status[seat] = STAYED
        bank(s, 1 << seat, -1)
        return
    if card <= 6:
        bit = 1 << card
        if s.values[seat] & bit:
            if s.life[seat]:  # F10: EXTRA_LIFE and the duplicate to the discard pile
                found = 0
                for k in range(s.ntable[seat]):
                    if found:
                        s.table[seat][k - 1] = s.table[seat][k]
                    elif s.table[seat][k] == EXTRA_LIFE:
                        found = 1
                s.ntable[seat] -= 1
                s.life[seat] = 0
                s.discard[s.ndiscard] = EXTRA_LIFE
                s.discard[s.ndiscard + 1] = <int8_t>card
                s.ndiscard += 2
            else:
                s.table[seat][s.ntable[seat]] = <int8_t>card
                s.ntable[seat] += 1
                s.status[seat] = BUSTED
            return
        s.table[seat][s.ntable[seat]] = <int8_t>card
        s.ntable[seat] += 1
        s.values[seat] |= bit
        if popcount(s.values[seat]) == 6:
            flip6(s, seat)
        return
    if card == EXTRA_LIFE:
        s.table[seat][s.ntable[seat]] = <int8_t>card
        s.ntable[seat] += 1
        s.life[seat] = 1
    elif card == DOUBLE:
        s.table[seat][s.ntable[seat]] = <int8_t>card
        s.ntable[seat] += 1
        s.dbl[seat] = 1
    elif card == FREEZE and in_flip3:
        s.table[seat][s.ntable[seat]] = <int8_t>card
        s.ntable[seat] += 1
        freeze(s, seat)
    else:
        s.aside[s.naside] = <int8_t>card
        s.naside += 1
        s.decision = TARGET_FREEZE if card == FREEZE else TARGET_FLIP3
        s.decider = seat


cdef void advance(F6 *s, bitgen_t *bg) noexcept nogil:
    cdef int kind, a, b, seat, k, any_in
    cdef int n = s.n
    while not s.over and s.decision == NO_DECISION:
        if s.nstack:
            s.nstack -= 1
            kind = s.stack[s.nstack][0]
            a = s.stack[s.nstack][1]
            b = s.stack[s.nstack][2]
            if kind == TASK_DEAL:
                if a < n:
                    s.stack[s.nstack][0] = TASK_DEAL
                    s.stack[s.nstack][1] = a + 1
                    s.stack[s.nstack][2] = 0
                    s.nstack += 1
                    seat = (s.dealer + 1 + a) % n
                    if s.status[seat] == IN_ROUND:
                        draw_for(s, bg, seat, 0)
            else:
                if s.status[a] == IN_ROUND:
                    if b > 1:
                        s.stack[s.nstack][0] = TASK_FLIP3
                        s.stack[s.nstack][1] = a
                        s.stack[s.nstack][2] = b - 1
                        s.nstack += 1
                    draw_for(s, bg, a, 1)
            continue
        any_in = 0
        for k in range(n):
            if s.status[k] == IN_ROUND:
                any_in = 1
                break
        if any_in:
            seat = s.next_turn
            while s.status[seat] != IN_ROUND:
                seat = (seat + 1) % n
            s.decision = TURN
            s.decider = seat
        else:
            end_round(s)


cdef int legal(F6 *s, int *out) noexcept nogil:
    """The legal actions (sorted) into ``out``; their count."""
    cdef int k, m = 0
    if s.over:
        return 0
    if s.decision == TURN:
        out[0] = STAY
        if s.ndraw or s.ndiscard:
            out[1] = HIT
            return 2
        return 1
    for k in range(s.n):
        if s.status[k] == IN_ROUND:
            out[m] = TARGET0 + k
            m += 1
    return m


cdef int is_legal(F6 *s, int action) noexcept nogil:
    cdef int acts[8]
    cdef int m = legal(s, acts), k
    for k in range(m):
        if acts[k] == action:
            return 1
    return 0


cdef void apply_action(F6 *s, bitgen_t *bg, int action) noexcept nogil:
    """``apply`` of a legal action by the deciding seat (the caller checked both)."""
    cdef int seat = s.decider
    cdef int decision = s.decision
    cdef int target, card
    s.decisions += 1
    s.decision = NO_DECISION
    if decision == TURN:
        s.next_turn = (seat + 1) % s.n
        if action == STAY:
            s.status[seat] = STAYED
            bank(s, 1 << seat, -1)
        else:
            draw_for(s, bg, seat, 0)
    else:
        target = action - TARGET0
        s.naside -= 1
        card = s.aside[s.naside]
        s.table[target][s.ntable[target]] = <int8_t>card
        s.ntable[target] += 1
        if decision == TARGET_FREEZE:
            freeze(s, target)
        else:
            s.stack[s.nstack][0] = TASK_FLIP3
            s.stack[s.nstack][1] = target
            s.stack[s.nstack][2] = 3
            s.nstack += 1
    advance(s, bg)


cdef void new_game_c(F6 *s, bitgen_t *bg, int n, int target, int dealer) noexcept nogil:
    """``new_game`` without options: the whole deck shuffled (``stack_deck``), dealt."""
    cdef int8_t top_first[26]
    cdef int k
    memset(s, 0, sizeof(F6))
    s.n = n
    s.target = target
    s.dealer = dealer
    memcpy(top_first, FULL_DECK, DECK)
    shuffle(bg, top_first, DECK)
    for k in range(DECK):
        s.draw[k] = top_first[DECK - 1 - k]
    s.ndraw = DECK
    s.decision = NO_DECISION
    s.decider = -1
    s.flip6_seat = -1
    start_round(s)
    advance(s, bg)


cdef void returns_c(F6 *s, double *out) noexcept nogil:
    cdef int k
    cdef double win, lose
    if not s.over or s.nwin == s.n:
        for k in range(s.n):
            out[k] = 0.0
        return
    win = 1.0 / s.nwin
    lose = -1.0 / (s.n - s.nwin)
    for k in range(s.n):
        out[k] = lose
    for k in range(s.nwin):
        out[s.winners[k]] = win


cdef void standing_c(F6 *s, double *out) noexcept nogil:
    """``potential`` of every seat: lead over the best other seat / target score."""
    cdef int k, j, best
    for k in range(s.n):
        best = -2147483647
        for j in range(s.n):
            if j != k and s.scores[j] > best:
                best = s.scores[j]
        out[k] = (s.scores[k] - best) / <double>s.target


# ---- rollout policies: the scripted baselines of agents/baselines/flip6.py --------------------
cdef enum:
    POLICY_RANDOM = 0
    POLICY_THRESHOLD = 1
    POLICY_EV = 2

POLICIES = {"random": POLICY_RANDOM, "threshold": POLICY_THRESHOLD, "ev": POLICY_EV}


cdef struct Odds:
    int m  # entries, in the order of the view's dict (draw_odds)
    int card[11]
    double p[11]


cdef inline int view_round_score(F6 *s, int seat) noexcept nogil:
    """The view's ``round_scores[seat]``: the round score while in the round, else 0."""
    return round_score(s, seat, 0) if s.status[seat] == IN_ROUND else 0


cdef inline int view_values(F6 *s, int seat) noexcept nogil:
    """The view's ``values[seat]`` as a bit mask (none once busted)."""
    return 0 if s.status[seat] == BUSTED else s.values[seat]


cdef void draw_odds_c(F6 *s, Odds *o) noexcept nogil:
    """``draw_odds(view)``: the unseen cards by kind (the draw pile), or the discard pile by first
    appearance when the draw pile is empty (F16); probabilities ``n / total``."""
    cdef int counts[11]
    cdef int k, c, seat, total = 0
    o.m = 0
    if s.ndraw > 0:
        for k in range(NK):
            counts[k] = DECK_COUNTS[k]
        for k in range(s.ndiscard):
            counts[s.discard[k]] -= 1
        for seat in range(s.n):
            for k in range(s.ntable[seat]):
                counts[s.table[seat][k]] -= 1
        for k in range(s.naside):
            counts[s.aside[k]] -= 1
        for k in range(NK):
            if counts[k] > 0:
                o.card[o.m] = k
                o.m += 1
    else:
        for k in range(NK):
            counts[k] = 0
        for k in range(s.ndiscard):
            c = s.discard[k]
            if counts[c] == 0:
                o.card[o.m] = c
                o.m += 1
            counts[c] += 1
    for k in range(o.m):
        total += counts[o.card[k]]
    if total == 0:
        o.m = 0
    for k in range(o.m):
        o.p[k] = counts[o.card[k]] / <double>total


cdef inline double odds_of(Odds *o, int card) noexcept nogil:
    cdef int k
    for k in range(o.m):
        if o.card[k] == card:
            return o.p[k]
    return 0.0


cdef double bust_probability_c(F6 *s, Odds *o, int seat) noexcept nogil:
    """``bust_probability(view, seat)``: the odds of the values held, ascending."""
    cdef double total = 0.0
    cdef int v, values = view_values(s, seat)
    for v in range(7):
        if values >> v & 1:
            total += odds_of(o, v)
    return total


cdef double hit_value_c(F6 *s, Odds *o, int seat) noexcept nogil:
    """``ExpectedValueAgent.hit_value``: the expected change of the round score from one card."""
    cdef int held = view_values(s, seat), nheld = popcount(view_values(s, seat))
    cdef int score = view_round_score(s, seat)
    cdef int mult = 2 if s.dbl[seat] else 1
    cdef int k, c, gain
    cdef double p, ev = 0.0
    for k in range(o.m):
        c = o.card[k]
        p = o.p[k]
        if c <= 6:
            if held >> c & 1:
                ev += p * (-1.0 if s.life[seat] else <double>(-score))
            else:
                gain = c * mult
                if nheld == 5:
                    gain += 6
                ev += p * <double>gain
        elif c == DOUBLE:
            ev += p * <double>(score if not s.dbl[seat] else 0)
        elif c == EXTRA_LIFE:
            ev += p * 1.0
        elif c == FREEZE or c == FLIP3:
            ev += p * 0.5
    return ev


cdef inline int can_hit(F6 *s) noexcept nogil:
    return s.ndraw > 0 or s.ndiscard > 0


cdef int threshold_action(F6 *s, int threshold) noexcept nogil:
    """``ThresholdAgent.act``: hit below ``threshold`` round points; FREEZE/FLIP3 hit the leader."""
    cdef int me = s.decider, t, key, best = -2147483647, leader = -1, rs
    if s.decision == TURN:
        if not can_hit(s):
            return STAY
        rs = view_round_score(s, me)
        if s.scores[me] + rs >= s.target:
            return STAY
        return HIT if rs < threshold else STAY
    for t in range(s.n):  # the other targets, ascending: the first best is the smallest seat
        if t != me and s.status[t] == IN_ROUND:
            key = s.scores[t] + view_round_score(s, t)
            if key > best:
                best = key
                leader = t
    return TARGET0 + (me if leader < 0 else leader)


cdef int ev_turn(F6 *s, int me, double risk_margin) noexcept nogil:
    cdef Odds o
    cdef int k
    if not can_hit(s):
        return STAY
    if s.scores[me] + view_round_score(s, me) >= s.target:
        return STAY
    for k in range(s.n):  # someone banks a win on their next stay: we cannot wait
        if k != me and s.status[k] == IN_ROUND and s.scores[k] + view_round_score(s, k) >= s.target:
            return HIT
    draw_odds_c(s, &o)
    return HIT if hit_value_c(s, &o, me) > risk_margin else STAY


cdef int ev_freeze_target(F6 *s, int me) noexcept nogil:
    cdef Odds o
    cdef int t, best_t = -1, others = 0, me_in = s.status[me] == IN_ROUND
    cdef double harm, best = 0.0, closeness, target = <double>s.target
    draw_odds_c(s, &o)
    for t in range(s.n):
        if t != me and s.status[t] == IN_ROUND:
            others += 1
    if me_in and (
        others == 0
        or (bust_probability_c(s, &o, me) >= 0.35 and view_round_score(s, me) >= 8)
    ):
        return me
    if others == 0:
        return me
    for t in range(s.n):
        if t != me and s.status[t] == IN_ROUND:
            closeness = (s.scores[t] + 1) / target
            harm = (closeness * 10.0 - <double>view_round_score(s, t)) + 5.0 * (
                1.0 - bust_probability_c(s, &o, t))
            if best_t < 0 or harm > best:
                best = harm
                best_t = t
    return best_t


cdef int ev_flip3_target(F6 *s, int me) noexcept nogil:
    cdef Odds o
    cdef int t, best_t = -1
    cdef double loss, best = 0.0, risk, risk3
    draw_odds_c(s, &o)
    for t in range(s.n):
        if t != me and s.status[t] == IN_ROUND:
            risk = bust_probability_c(s, &o, t)
            risk3 = 1.0 - pow(1.0 - risk, 3.0)
            loss = (risk3 * <double>(view_round_score(s, t) + 1)) * (
                1.0 + s.scores[t] / <double>s.target)
            if best_t < 0 or loss > best:
                best = loss
                best_t = t
    if best_t < 0:
        return me
    if s.status[me] == IN_ROUND and hit_value_c(s, &o, me) > 2.0 and best < 2.0:
        return me
    return best_t


cdef int ev_action(F6 *s, double risk_margin) noexcept nogil:
    """``ExpectedValueAgent.act``: price a hit by counting cards; aim FREEZE/FLIP3 to hurt."""
    cdef int me = s.decider
    if s.decision == TURN:
        return ev_turn(s, me, risk_margin)
    if s.decision == TARGET_FREEZE:
        return TARGET0 + ev_freeze_target(s, me)
    return TARGET0 + ev_flip3_target(s, me)


# ---- playing rollouts in C ----------------------------------------------------------------------
cdef struct Play:
    int policy
    int threshold  # ThresholdAgent.threshold
    double risk_margin  # ExpectedValueAgent.risk_margin
    int use_mt  # the random policy's actions: random.random() of mt (1), or the bit generator (0)
    MT *mt
    bitgen_t *pick  # the bit generator of the random policy's actions (use_mt 0)
    int to_round  # stop when the round index is no longer ``start``
    int start
    long long max_decisions


cdef inline int policy_action_c(F6 *s, Play *p) noexcept nogil:
    cdef int acts[8]
    cdef int m
    if p.policy == POLICY_THRESHOLD:
        return threshold_action(s, p.threshold)
    if p.policy == POLICY_EV:
        return ev_action(s, p.risk_margin)
    m = legal(s, acts)
    if p.use_mt:
        return acts[<int>(mt_random(p.mt) * m)]
    return acts[random_interval(p.pick, <uint64_t>(m - 1))]


cdef long long play_c(F6 *w, bitgen_t *bg, Play *p) noexcept nogil:
    """Play ``w`` on with the policy (reshuffles from ``bg``) to the horizon; decisions made."""
    cdef long long made = 0
    while not w.over and made < p.max_decisions and not (p.to_round and w.round_index != p.start):
        apply_action(w, bg, policy_action_c(w, p))
        made += 1
    return made


cdef inline void value_c(F6 *w, int cut, double *out) noexcept nogil:
    """The returns when the game ended or the horizon is the game's end, else the standing."""
    if w.over or not cut:
        returns_c(w, out)
    else:
        standing_c(w, out)


# ---- the encoder (encoding.py's arithmetic, see its docstring) ---------------------------------
cdef inline double clip2(double x) noexcept nogil:
    return 2.0 if x > 2.0 else x


cdef void encode_c(F6 *s, int seat, float *o) noexcept nogil:
    cdef int n = s.n
    cdef double target = <double>s.target
    cdef int discard[11]
    cdef int unseen[11]
    cdef int *source
    cdef double odds[7]
    cdef double odds_double, hit_tail, all_odds, all_weighted, p_dup, p_new, w_held, ev
    cdef double rs30, bits6, cards10, x, y, z
    cdef int k, c, total, leader, status, values, flags, rs, bonus, dec, has_f3, has_fr, score
    cdef int bank_now, v
    cdef float f_e, f_f, f_f3, ftotal
    cdef float *b
    memset(o, 0, OBS_SIZE * sizeof(float))
    for k in range(NK):
        discard[k] = 0
    for k in range(s.ndiscard):
        discard[s.discard[k]] += 1
    for k in range(NK):
        unseen[k] = DECK_COUNTS[k] - discard[k]
    for c in range(n):
        for k in range(s.ntable[c]):
            unseen[s.table[c][k]] -= 1
    for k in range(s.naside):
        unseen[s.aside[k]] -= 1
    if s.ndraw:
        source = &unseen[0]
    else:
        source = &discard[0]
    total = 0
    for k in range(NK):
        total += source[k]
    if total > 0:
        ftotal = <float>total
        for k in range(7):
            odds[k] = <double>(<float>source[k] / ftotal)
        odds_double = <double>(<float>source[DOUBLE] / ftotal)
        f_e = <float>source[EXTRA_LIFE] / ftotal
        f_f = <float>source[FREEZE] / ftotal
        f_f3 = <float>source[FLIP3] / ftotal
        hit_tail = <double>f_e + 0.5 * <double>(<float>(<double>f_f + <double>f_f3))
    else:
        for k in range(7):
            odds[k] = <double>source[k]
        odds_double = <double>source[DOUBLE]
        hit_tail = <double>source[EXTRA_LIFE] + 0.5 * <double>(
            <float>(<double>source[FREEZE] + <double>source[FLIP3]))
    all_odds = 0.0
    all_weighted = 0.0
    for k in range(7):
        all_odds += odds[k]
    for k in range(7):
        all_weighted += odds[k] * k
    leader = s.scores[0]
    for k in range(1, n):
        if s.scores[k] > leader:
            leader = s.scores[k]
    dec = -1 if s.over else s.decider
    for c in range(n):
        b = o + c * SEAT_BLOCK
        status = s.status[c]
        values = s.values[c]
        score = s.scores[c]
        b[0] = 1.0
        b[1] = 1.0 if c == seat else 0.0
        b[2] = 1.0 if c == s.dealer else 0.0
        b[3] = 1.0 if c == dec else 0.0
        b[4 + status] = 1.0
        rs = 0
        has_f3 = 0
        has_fr = 0
        for k in range(s.ntable[c]):
            v = s.table[c][k]
            if 1 <= v <= 6:
                rs += v
            elif v == FLIP3:
                has_f3 = 1
            elif v == FREEZE:
                has_fr = 1
        if s.dbl[c]:
            rs *= 2
        flags = values
        bits6 = popcount(values) / 6.0
        cards10 = s.ntable[c] / 10.0
        bonus = 6 if popcount(values) == 5 else 0
        if status == IN_ROUND:
            rs30 = rs / 30.0
            p_dup = 0.0
            w_held = 0.0
            for k in range(7):
                if values >> k & 1:
                    p_dup += odds[k]
            for k in range(7):
                if values >> k & 1:
                    w_held += odds[k] * k
            p_new = all_odds - p_dup
            ev = (
                (2 if s.dbl[c] else 1) * (all_weighted - w_held)
                + bonus * p_new
                - (1.0 if s.life[c] else <double>rs) * p_dup
                + odds_double * (0 if s.dbl[c] else rs)
                + hit_tail
            ) / 20.0
            ev = 1.0 if ev > 1.0 else (-1.0 if ev < -1.0 else ev)
            bank_now = (score + rs) >= target
        else:
            if status == BUSTED:
                flags = 0
                bits6 = 0.0
            rs = 0
            rs30 = 0.0
            p_dup = 0.0
            ev = 0.0
            p_new = 0.0
            bank_now = 0
        for k in range(7):
            b[8 + k] = 1.0 if flags >> k & 1 else 0.0
        x = score / target
        y = (score + rs) / target
        z = (score - leader) / target
        b[15] = 1.0 if s.life[c] else 0.0
        b[16] = 1.0 if s.dbl[c] else 0.0
        b[17] = <float>rs30
        b[18] = <float>clip2(x)
        b[19] = <float>(((target - score) if target - score > 0 else 0.0) / target)
        b[20] = <float>bits6
        b[21] = <float>p_dup
        b[22] = <float>cards10
        b[23] = <float>clip2(y)
        b[24] = 1.0 if has_f3 else 0.0
        b[25] = 1.0 if has_fr else 0.0
        b[26] = 1.0 if score == leader else 0.0
        b[27] = <float>ev
        b[28] = 1.0 if bank_now else 0.0
        b[29] = <float>p_new
        b[30] = <float>(-1.0 if z < -1.0 else z)
    b = o + MAXP * SEAT_BLOCK
    b[0 if s.over else s.decision] = 1.0
    b += 4
    for k in range(s.nstack - 1, -1, -1):
        if s.stack[k][0] == TASK_FLIP3:
            b[0] = <float>(s.stack[k][2] / 3.0)
            break
    b[1] = <float>(s.ndraw / 26.0)
    for k in range(NK):
        b[2 + k] = <float>(unseen[k] / <double>DECK_COUNTS[k])
    b += 2 + NK
    for k in range(NK):
        b[k] = <float>(discard[k] / <double>DECK_COUNTS[k])
    b += NK
    b[seat] = 1.0
    b[MAXP + n - 3] = 1.0
    b[MAXP + 4] = 1.0 if s.ndraw == 0 else 0.0


# ---- Python state <-> struct -------------------------------------------------------------------
cdef int load_cards(int8_t *dst, list cards, int cap, str what) except -1:
    cdef Py_ssize_t m = len(cards), k
    cdef long c
    if m > cap:
        raise ConfigError(f"flip6 state: {what} holds {m} cards; allowed: at most {cap}")
    for k in range(m):
        c = cards[k]
        if not 0 <= c < NK:
            raise ConfigError(f"flip6 state: {what} holds card {c!r}; allowed: 0..{NK - 1}")
        dst[k] = <int8_t>c
    return <int>m


cdef int check_range(str what, long value, long low, long high) except -1:
    if not low <= value <= high:
        raise ConfigError(f"flip6 state: {what} is {value}; allowed: {low}..{high}")
    return 0


cdef int load_state(F6 *s, object st, bint whole) except -1:
    """The struct of a ``Flip6State`` (rules.py's fields, their meaning unchanged). Every index
    the C code uses is checked; ``whole``: also that the zones hold the 26 cards of the deck
    (a state that will be played on: no zone can then outgrow its array)."""
    cdef int n = st.num_players, k, cards
    cdef list table, stack
    check_range("num_players", n, 3, MAXP)
    s.n = n
    s.target = st.target_score
    check_range("target_score", s.target, 1, 10_000)
    s.dealer = st.dealer
    check_range("dealer", s.dealer, 0, n - 1)
    scores = st.scores
    status = st.status
    values = st.values
    life = st.has_life
    dbl = st.has_double
    table = st.table
    if len(scores) != n or len(status) != n or len(values) != n or len(table) != n:
        raise ConfigError(f"flip6 state: scores, status, values and table need {n} entries")
    if len(life) != n or len(dbl) != n:
        raise ConfigError(f"flip6 state: has_life and has_double need {n} entries")
    for k in range(n):
        s.scores[k] = scores[k]
        s.status[k] = status[k]
        check_range("status", s.status[k], IN_ROUND, BUSTED)
        s.values[k] = values[k]
        check_range("values", s.values[k], 0, 127)
        s.life[k] = 1 if life[k] else 0
        s.dbl[k] = 1 if dbl[k] else 0
        s.ntable[k] = load_cards(s.table[k], table[k], DECK, "table")
    s.ndraw = load_cards(s.draw, st.draw_pile, DECK, "draw_pile")
    s.ndiscard = load_cards(s.discard, st.discard_pile, DECK, "discard_pile")
    s.naside = load_cards(s.aside, st.set_aside, MAXASIDE, "set_aside")
    if whole:
        cards = s.ndraw + s.ndiscard + s.naside
        for k in range(n):
            cards += s.ntable[k]
        if cards != DECK:
            raise ConfigError(f"flip6 state: the zones hold {cards} cards; allowed: the {DECK} "
                              f"cards of the deck")
    stack = st.stack
    if len(stack) > MAXSTACK_LOADED:
        raise ConfigError(
            f"flip6 state: {len(stack)} pending tasks; allowed: at most {MAXSTACK_LOADED}")
    s.nstack = len(stack)
    for k in range(s.nstack):
        task = stack[k]
        s.stack[k][0] = task[0]
        s.stack[k][1] = task[1]
        s.stack[k][2] = task[2]
        check_range("a pending task's kind", s.stack[k][0], TASK_DEAL, TASK_FLIP3)
        if s.stack[k][0] == TASK_FLIP3:
            check_range("a FLIP3 task's seat", s.stack[k][1], 0, n - 1)
    s.decision = st.decision
    check_range("decision", s.decision, NO_DECISION, TARGET_FLIP3)
    s.decider = st.decider
    check_range("decider", s.decider, -1, n - 1)
    s.next_turn = st.next_turn
    check_range("next_turn", s.next_turn, 0, n - 1)
    s.over = 1 if st.over else 0
    s.round_index = st.round_index
    s.flip6_seat = st.flip6_seat
    s.decisions = st.decisions
    winners = st.winners
    if len(winners) > n:
        raise ConfigError(f"flip6 state: winners {winners!r}; allowed: at most {n} seats")
    s.nwin = len(winners)
    for k in range(s.nwin):
        s.winners[k] = winners[k]
        check_range("a winner", s.winners[k], 0, n - 1)
    return 0


cdef list cards_list(int8_t *cards, int m):
    return [cards[k] for k in range(m)]


cdef inline void check_seat(int seat, int n) except *:
    if not 0 <= seat < n:
        raise IndexError(f"flip6: seat {seat} is not a seat of this {n}-player game (0..{n - 1})")


cdef inline cnp.ndarray new_obs():
    cdef cnp.npy_intp dims[1]
    dims[0] = OBS_SIZE
    return cnp.PyArray_EMPTY(1, dims, cnp.NPY_FLOAT32, 0)


def encode(state, int seat):
    """The observation of ``seat`` (``encoding.encode``'s, byte for byte) of a ``Flip6State`` or
    a native state."""
    cdef F6 s
    cdef F6 *p
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
    """A flip6 game state on a C struct, with the numpy generator it draws from.

    Its read-only attributes have the names and values of ``Flip6State``'s (lists are fresh
    copies), so code that reads a state (renders, views, baselines) reads either."""

    cdef F6 s
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
        """``Flip6Game.new_game(rng)`` without options (a shuffled deck, dealt)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        st._set_rng(rng)
        new_game_c(&st.s, st.bg, num_players, target_score, dealer)
        return st

    @staticmethod
    def from_python(state, rng=None):
        """The native copy of a ``Flip6State`` (drawing from ``rng``, default its own
        generator, shared)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        load_state(&st.s, state, True)
        st._set_rng(state.rng if rng is None else rng)
        return st

    def to_python(self, copy_rng=True):
        """The ``Flip6State`` of this state (its generator copied, or shared)."""
        cdef F6 *s = &self.s
        cdef int k
        return Flip6State(
            num_players=s.n,
            target_score=s.target,
            rng=copy_generator(self._rng) if copy_rng else self._rng,
            scores=[s.scores[k] for k in range(s.n)],
            dealer=s.dealer,
            draw_pile=cards_list(s.draw, s.ndraw),
            discard_pile=cards_list(s.discard, s.ndiscard),
            table=[cards_list(s.table[k], s.ntable[k]) for k in range(s.n)],
            status=[s.status[k] for k in range(s.n)],
            values=[s.values[k] for k in range(s.n)],
            has_life=[bool(s.life[k]) for k in range(s.n)],
            has_double=[bool(s.dbl[k]) for k in range(s.n)],
            set_aside=cards_list(s.aside, s.naside),
            stack=[(s.stack[k][0], s.stack[k][1], s.stack[k][2]) for k in range(s.nstack)],
            decision=s.decision,
            decider=s.decider,
            next_turn=s.next_turn,
            winners=[s.winners[k] for k in range(s.nwin)],
            over=bool(s.over),
            round_index=s.round_index,
            flip6_seat=s.flip6_seat,
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
        cdef int acts[8]
        cdef int m = legal(&self.s, acts), k
        return [acts[k] for k in range(m)]

    def legal_mask(self):
        """The action mask (int8, size 8)."""
        cdef int acts[8]
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
        cdef double out[6]
        returns_c(&self.s, out)
        return [out[k] for k in range(self.s.n)]

    def standing(self):
        cdef double out[6]
        standing_c(&self.s, out)
        return [out[k] for k in range(self.s.n)]

    def encode(self, int seat):
        """The observation of ``seat`` (as ``encoding.encode``)."""
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

    def resample_hidden(self, rng):
        """``RaceGame.resample_hidden`` (any seat: only the draw pile's order and the generator
        are hidden): a copy drawing from ``default_rng(rng.integers(2**63))``, its draw pile
        sorted, then ordered by ``rng.permutation``; the same draws from ``rng``."""
        cdef NativeState st = self.clone(np.random.default_rng(int(rng.integers(2**63))))
        cdef int i, j, m = st.s.ndraw
        cdef int8_t c
        for i in range(1, m):  # sorted(): an insertion sort of at most 26 cards
            c = st.s.draw[i]
            j = i - 1
            while j >= 0 and st.s.draw[j] > c:
                st.s.draw[j + 1] = st.s.draw[j]
                j -= 1
            st.s.draw[j + 1] = c
        cdef object bits = rng.bit_generator
        shuffle(bitgen_of(rng), st.s.draw, m)
        return st

    def rollouts(self, int count, seed, str horizon="game"):
        """``count`` random-legal-action playouts from this state, all inside C: to the end of
        the game (``horizon="game"``: the returns) or of the round in progress (``"round"``:
        each seat's standing, its lead over the best other seat / target score, or the returns
        if the game ended first). Actions and reshuffles come from ``np.random.default_rng(seed)``
        (this state and its generator are unchanged). Returns (values float64[count, seats],
        decisions played)."""
        if horizon not in ("game", "round"):
            raise ConfigError(f"flip6 rollouts: horizon {horizon!r}; allowed: 'game' or 'round'")
        if count < 0:
            raise ConfigError(f"flip6 rollouts: count {count}; allowed: 0 or more")
        rng = np.random.default_rng(seed)
        cdef object bits = rng.bit_generator  # alive until the end
        cdef bitgen_t *bg = bitgen_of(rng)
        cdef int n = self.s.n, i, m, k
        cdef int to_round = horizon == "round"
        cdef int start_round = self.s.round_index
        cdef long long decisions = 0
        cdef int acts[8]
        cdef F6 w
        values = np.zeros((count, n), dtype=np.float64)
        cdef double[:, ::1] vals = values
        with nogil:
            for i in range(count):
                w = self.s
                while not w.over and not (to_round and w.round_index != start_round):
                    m = legal(&w, acts)
                    apply_action(&w, bg, acts[random_interval(bg, <uint64_t>(m - 1))])
                    decisions += 1
                if w.over or not to_round:
                    returns_c(&w, &vals[i, 0])
                else:
                    standing_c(&w, &vals[i, 0])
        return values, decisions

    # ---- Flip6State's attribute names (read-only copies) ----
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
    def has_life(self):
        return [bool(self.s.life[k]) for k in range(self.s.n)]

    @property
    def has_double(self):
        return [bool(self.s.dbl[k]) for k in range(self.s.n)]

    @property
    def set_aside(self):
        return cards_list(self.s.aside, self.s.naside)

    @property
    def stack(self):
        return [
            (self.s.stack[k][0], self.s.stack[k][1], self.s.stack[k][2])
            for k in range(self.s.nstack)
        ]

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
    def winners(self):
        return [self.s.winners[k] for k in range(self.s.nwin)]

    @property
    def over(self):
        return bool(self.s.over)

    @property
    def round_index(self):
        return self.s.round_index

    @property
    def flip6_seat(self):
        return self.s.flip6_seat

    @property
    def decisions(self):
        return self.s.decisions


# ---- rollouts in one call (the search agents' batch entry points) -------------------------------
cdef int policy_id(str policy) except -1:
    if policy not in POLICIES:
        raise ConfigError(
            f"flip6 rollouts: policy {policy!r}; allowed: {sorted(POLICIES)} (the C ports of "
            f"the random player and of the scripted baselines)")
    return POLICIES[policy]


cdef int check_states(list states) except -1:
    cdef object st
    cdef int n = -1
    for st in states:
        if type(st) is not NativeState:
            raise ConfigError(
                f"flip6 rollouts: a {type(st).__name__} among the states; allowed: native states "
                f"(NativeFlip6Game's, or NativeState.from_python of a Flip6State)")
        if n >= 0 and (<NativeState>st).s.n != n:
            raise ConfigError(
                f"flip6 rollouts: states of {n} and {(<NativeState>st).s.n} players; allowed: "
                f"one player count per call")
        n = (<NativeState>st).s.n
    return n if n > 0 else 0  # no states: 0 seats


def policy_action(state, str policy, int threshold=15, double risk_margin=0.0):
    """The action the C port of ``policy`` (``threshold`` or ``ev``, with the baseline's option)
    picks for the deciding seat of ``state`` (a native state or a ``Flip6State``); None when the
    game is over."""
    cdef F6 s
    cdef Play p
    cdef int pid = policy_id(policy)
    if pid == POLICY_RANDOM:
        raise ConfigError("flip6 policy_action: 'random' draws; allowed: 'threshold' or 'ev'")
    memset(&p, 0, sizeof(Play))
    if type(state) is NativeState:
        s = (<NativeState>state).s
    else:
        load_state(&s, state, False)
    if s.over:
        return None
    if s.decision == NO_DECISION or not 0 <= s.decider < s.n or s.status[s.decider] != IN_ROUND:
        raise ConfigError(f"flip6 policy_action: no seat is deciding (decision {s.decision}, "
                          f"decider {s.decider}); allowed: a state waiting for a decision")
    p.policy = pid
    p.threshold = threshold
    p.risk_margin = risk_margin
    return policy_action_c(&s, &p)


def rollout_batch(list states, str policy="random", horizon="game", seed=0, int rollouts=1,
                  start=None, int threshold=15, double risk_margin=0.0):
    """``rollouts`` playouts of every native state in ``states``, all inside C, with ``policy``
    (``random``, ``threshold`` or ``ev``) to the ``horizon``: ``"game"`` (the returns),
    ``"round"`` (the end of round ``start``, default each state's round in progress: each seat's
    standing, or the returns if the game ended first) or an int N >= 1 (N decisions, valued the
    same way). The random actions and the reshuffles come from ``np.random.default_rng(seed)``;
    the states and their generators are unchanged. Returns (values float64[len(states) *
    rollouts, seats], rollout r of state i in row i * rollouts + r; decisions played)."""
    cdef Play p
    cdef int n = check_states(states), i, r, m = len(states)
    cdef long long decisions = 0
    cdef F6 w
    cdef F6 *src
    cdef int own_start = start is None
    p.policy = policy_id(policy)
    p.threshold = threshold
    p.risk_margin = risk_margin
    p.use_mt = 0
    round_horizon(horizon, start, &p.to_round, &p.start, &p.max_decisions)
    check_rollouts(rollouts)
    rng = np.random.default_rng(seed)
    cdef object bits = rng.bit_generator  # alive until the end
    cdef bitgen_t *bg = bitgen_of(rng)
    cdef int cut = horizon != "game"
    p.pick = bg
    values = np.zeros((m * rollouts, n if n > 0 else 0), dtype=np.float64)
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
                src = <F6 *>ptrs[i]
                if own_start:
                    p.start = src.round_index
                for r in range(rollouts):
                    w = src[0]
                    decisions += play_c(&w, bg, &p)
                    value_c(&w, cut, &vals[i * rollouts + r, 0])
    finally:
        PyMem_Free(ptrs)
    return values, decisions


def play_out(list states, str policy="random", start=None, seeds=None, py=None,
             int threshold=15, double risk_margin=0.0, long long max_decisions=20_000):
    """``Rollout.run`` of the search agents on every native state, in place and in C: each state
    is played on with ``policy`` to the game's end (``start`` None: the returns) or to the end of
    round ``start`` (the standing, or the returns if the game ended first), drawing its
    reshuffles from its own generator, exactly as the Python engine would; the random policy's
    actions are ``legal[int(rng.random() * len(legal))]`` of Python's ``random.Random``: a fresh
    ``random.Random(seeds[i])`` per state, or the one ``py`` for all (consumed in order, as
    many ``run(state, py)`` calls would). So the values are those of the Python ``Rollout``
    with the same generators. Returns values float64[len(states), seats]."""
    cdef Play p
    cdef MT mt
    cdef NativeState st
    cdef int n = check_states(states), i, m = len(states)
    cdef int to_round = start is not None
    p.policy = policy_id(policy)
    p.threshold = threshold
    p.risk_margin = risk_margin
    p.use_mt = 1
    p.mt = &mt
    p.pick = NULL
    p.max_decisions = max_decisions
    p.to_round = to_round
    p.start = start if to_round else 0
    check_seeds(p.policy == POLICY_RANDOM, seeds, py, m)
    values = np.zeros((m, n if n > 0 else 0), dtype=np.float64)
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
            value_c(&st.s, to_round, &vals[i, 0])
    if saved is not None:
        mt_store(&mt, py, saved)
    return values


def _rebuild(state):
    """The unpickled native state (pickled as its ``Flip6State``)."""
    return NativeState.from_python(state)
