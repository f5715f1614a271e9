# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""Suicidium on a C struct: the native core (engine state, encoder, rollouts with the random
policy or the C port of the ``heuristic`` baseline).

The same game as ``rules.py`` (rule ids U1-U36 of ``docs/rules/suicidium.md``), step for step:
every engine function below mirrors the method of ``SuicidiumGame`` it names, in the same order
of effects, so that both cores reach the same states. Every random number is drawn from the bit
generator of the state's ``np.random.Generator`` through numpy's C API (``bitgen_t``), with
numpy's own algorithms (``Generator.permutation``: a Fisher-Yates shuffle whose indices come
from ``random_interval``; ``Generator.integers``: Lemire's rejection on 32 bits), so the same
seed gives the same game on either core and the generator ends in the same state.
``tests/test_native_suicidium.py`` steps both cores side by side.

The encoder computes every float as ``encoding.py`` (``encode_python``) does: double precision
from the same integers, rounded to float32 at the end, so the observation is byte-identical.

The card tables (kind, effect, amount, targeting per catalogue index) are read from ``rules.py``
at import, so the catalogue stays data; the constants that name rules' ints are checked against
``rules.py`` by the test.

The rollout policies (``rollout_batch``, ``play_out``, ``policy_action``, ``RolloutPolicy``):
``random`` and ``heuristic``, a port of ``agents/baselines/suicidium.py::HeuristicAgent`` that
makes its decisions (``tests/test_native_suicidium.py`` plays both side by side); the search's
rollouts run here (``agents/search/rollout.py``, ``tests/test_native_rollouts.py``).

The random-number plumbing every game's core shares (numpy's ``random_interval`` and
permutation, Python's Mersenne Twister for the random rollout policy) is
``envs/core/_native_common.pxi``, included below.

Built optionally by ``setup.py``; ``native.py`` is the Python side (``NATIVE_AVAILABLE``).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, int16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

cimport numpy as cnp
from numpy.random cimport bitgen_t

import numpy as np

from cardarena.envs.core.engine import ConfigError, copy_generator
from cardarena.envs.suicidium import encoding_layout as _layout
from cardarena.envs.suicidium import rules as _rules
from cardarena.envs.suicidium.rules import SuicidiumState

cdef str GAME = "suicidium"  # the name the shared code's errors start with
include "../core/_native_common.pxi"

cnp.import_array()

# ---- constants of rules.py and encoding_layout.py (checked by tests/test_native_suicidium.py) ---
cdef enum:
    MAXP = 5
    MAXC = 128  # room for the catalogue's cards (checked at import)
    MAXSEATS = 8  # recipient slots of one table entry
    MAXOBJ = 32  # room for the object deck
    MAXLAST = 16  # lasting events in front of one seat (the catalogue has 11)
    NTYPES = 5
    BOOTH = 3
    # kinds
    POINTS = 0
    EVENT = 1
    RESPONSE = 2
    # effects (rules.E_*)
    E_POINTS_ONE = 0
    E_POINTS_SELF_AND_OPPONENT = 1
    E_POINTS_OPPONENTS = 2
    E_POINTS_ALL = 3
    E_POINTS_GAIN_LOSS = 4
    E_SKIP_DRAW = 5
    E_SKIP_MAIN = 6
    E_SHIELD = 7
    E_DISCARD_RANDOM = 8
    E_DRAW_DISCARD = 9
    E_STEAL_RANDOM = 10
    E_PEEK = 11
    E_EXCHANGE_HANDS = 12
    E_DRAW = 13
    E_RECOVER = 14
    E_CANCEL_POINTS = 15
    E_CANCEL_EVENT = 16
    E_CANCEL_ANY = 17
    E_DOUBLE = 18
    E_REDIRECT = 19
    E_STEAL_PLAYED = 20
    NUM_EFFECTS = 21
    # targeting
    T_NONE = 0
    T_ANY = 1
    T_OPPONENT = 2
    T_CARD = 3
    # decisions, phases, steps
    D_NONE = 0
    D_DRAW = 1
    D_MAIN = 2
    D_TARGET_PLAYER = 3
    D_TARGET_CARD = 4
    D_RESPOND = 5
    D_DISCARD = 6
    D_TAKE = 7
    PH_DRAW = 0
    PH_MAIN = 1
    PH_RESPONSE = 2
    PH_RESOLUTION = 3
    ST_WAIT = 0
    ST_START_TURN = 1
    ST_MAIN = 2
    ST_END_MAIN = 3
    ST_NEXT_RESPONDER = 4
    ST_RESPOND = 5
    ST_RESOLVE_START = 6
    ST_RESOLVE = 7
    ST_END_TURN = 8
    # actions
    PASS = 0
    DRAW0 = 1
    TARGET0 = 9
    PLAY0 = 14
    HAND_SIZE = 7
    MAX_PLAYS = 3
    START_WP = 10
    MAX_WP = 10
    MAXACTS = 512
    # table classes (rules._HAS_*)
    HAS_POINTS = 1
    HAS_EVENT = 2
    HAS_ANY = 4
    ALWAYS = 8
    SURVIVE = 0
    DEPRESSION = 1
    # the observation layout
    SEAT_BLOCK = 20
    GLOBAL_SIZE = 35

# the catalogue's tables (rules.py), filled below
cdef int NUM_CARDS = len(_rules.CATALOGUE)
if NUM_CARDS > MAXC:
    raise ImportError(f"suicidium native core: {NUM_CARDS} cards; room for at most {MAXC}")
cdef int KIND[128]
cdef int EFFECT[128]
cdef int AMOUNT[128]
cdef int TARGETING[128]
cdef int k_
for k_ in range(NUM_CARDS):
    KIND[k_] = _rules.KIND[k_]
    EFFECT[k_] = _rules.EFFECT[k_]
    AMOUNT[k_] = _rules.AMOUNT[k_]
    TARGETING[k_] = _rules.TARGETING[k_]
cdef int N_LASTING = sum(1 for e in _rules.EFFECT if e in _rules.LASTING_EFFECTS)
if N_LASTING > MAXLAST:
    raise ImportError(f"suicidium native core: {N_LASTING} lasting cards; room for {MAXLAST}")
#: objects per type in the object deck, without / with the party objects (5 players)
cdef int OBJECT_COUNTS[2][5]
for k_ in range(NTYPES):
    OBJECT_COUNTS[0][k_] = _layout._OBJECT_COUNTS[0][k_]
    OBJECT_COUNTS[1][k_] = _layout._OBJECT_COUNTS[1][k_]
if sum(_layout._OBJECT_COUNTS[1]) > MAXOBJ:
    raise ImportError("suicidium native core: the object deck outgrows its array")
#: k responses resting on a card: the float32 sum the encoder's table holds
cdef float RESPONSES_ON[129]
for k_ in range(NUM_CARDS + 1):
    RESPONSES_ON[k_] = _layout._RESPONSES_ON[k_]
cdef long long BIG = 10 ** 12  # from_dict's bound of the counters
cdef long long INT_BIG = 1 << 30
cdef int OBS_SIZE = _layout.OBS_SIZE
cdef int P_HAND = _layout.P_HAND
cdef int P_TABLE = _layout.P_TABLE
cdef int P_WORKS = _layout.P_WORKS
cdef int P_MINE = _layout.P_MINE
cdef int P_AIMS_AT_ME = _layout.P_AIMS_AT_ME
cdef int P_PENDING = _layout.P_PENDING
cdef int P_PENDING_TARGET = _layout.P_PENDING_TARGET
cdef int P_DISCARD = _layout.P_DISCARD
cdef int P_KNOWN = _layout.P_KNOWN
cdef int P_RECIPIENT = _layout.P_RECIPIENT
cdef int P_RESPONSES_ON = _layout.P_RESPONSES_ON

cdef int ON0 = PLAY0 + NUM_CARDS
cdef int DISCARD0 = ON0 + NUM_CARDS
cdef int TAKE0 = DISCARD0 + NUM_CARDS
cdef int NUM_ACTIONS = TAKE0 + NUM_CARDS
#: per card: the table classes it adds, those a RESPONSE fits (rules._CARD_CLASS, _RESPONSE_FITS)
cdef int CARD_CLASS[128]
cdef int RESPONSE_FITS[128]
for k_ in range(NUM_CARDS):
    CARD_CLASS[k_] = _rules._CARD_CLASS[k_]
    RESPONSE_FITS[k_] = _rules._RESPONSE_FITS[k_]

OBS_SIZE_C = OBS_SIZE
ACTIONS_C = (PASS, DRAW0, TARGET0, PLAY0, ON0, DISCARD0, TAKE0, NUM_ACTIONS)
CLASSES_C = (HAS_POINTS, HAS_EVENT, HAS_ANY, ALWAYS, HAND_SIZE, MAX_PLAYS, START_WP, MAX_WP)
CARD_CLASS_C = [CARD_CLASS[k_] for k_ in range(NUM_CARDS)]
RESPONSE_FITS_C = [RESPONSE_FITS[k_] for k_ in range(NUM_CARDS)]
NUM_CARDS_C = NUM_CARDS
EFFECTS_C = NUM_EFFECTS
LAYOUT_C = (SEAT_BLOCK, GLOBAL_SIZE, MAXP, NTYPES, BOOTH)
KIND_C = [KIND[k_] for k_ in range(NUM_CARDS)]
EFFECT_C = [EFFECT[k_] for k_ in range(NUM_CARDS)]
AMOUNT_C = [AMOUNT[k_] for k_ in range(NUM_CARDS)]
TARGETING_C = [TARGETING[k_] for k_ in range(NUM_CARDS)]


cdef struct Entry:
    int16_t card
    int16_t player
    int16_t target  # -1: a main card, else the table index it rests on
    int16_t placed
    int16_t nseats
    int16_t seats[8]


cdef struct SU:
    int n
    int mode
    int expansion
    int wp[5]
    int alive[5]
    int16_t hands[5][128]
    int nhand[5]
    int16_t draw[128]  # top of the pile is the end, as in rules.py
    int ndraw
    int16_t discard[128]  # in discard order
    int ndiscard
    int8_t opile[32]  # top of the pile is the end
    int nopile
    int8_t objects[5][32]  # per seat, in the order drawn
    int nobjects[5]
    int16_t lcard[5][16]  # lasting events per seat: card, turn it arrived
    long long lturn[5][16]
    int nlasting[5]
    int known_by[128]
    int active
    long long turn
    int phase
    int step
    int decision
    int decider
    Entry table[128]
    int ntable
    int played
    int drew
    int skip_draw_now
    int skip_main_now
    int responders[5]
    int nresponders
    int responded
    int active_responding
    int need
    int res_idx
    int8_t res_active[128]
    int nres_active
    int discard_left
    int discard_mark
    int winners[5]
    int nwin
    int over
    long long decisions
    int passes_in_a_row


# ---- the table's rules (rules.table_activity, card_modifiers, point_changes) -------------------
cdef inline int is_cancel(int card) noexcept nogil:
    cdef int e = EFFECT[card]
    return e == E_CANCEL_POINTS or e == E_CANCEL_EVENT or e == E_CANCEL_ANY


cdef void table_activity(SU *s, int8_t *active) noexcept nogil:
    """``table_activity``: which cards on the table work (U20-U24)."""
    cdef int8_t cancelled[128]
    cdef int n = s.ntable, i, t
    cdef Entry *e
    for i in range(n):
        cancelled[i] = 0
    for i in range(n - 1, -1, -1):
        e = &s.table[i]
        if not cancelled[i] and e.target >= 0 and is_cancel(e.card):
            cancelled[e.target] = 1
    for i in range(n):
        active[i] = 0
        if cancelled[i]:
            continue
        e = &s.table[i]
        t = e.target
        active[i] = 1 if (t < 0 or is_cancel(e.card) or active[t]) else 0


cdef int card_modifiers(SU *s, int8_t *active, int i, int *mult, int *thief) noexcept nogil:
    """``card_modifiers`` of table card ``i``: the multiplier and the thief (or -1) into ``mult``
    and ``thief``; returns the index of the entry whose seats are the recipients."""
    cdef int j, eff, seats_of = i
    cdef Entry *r
    mult[0] = 1
    thief[0] = -1
    for j in range(i + 1, s.ntable):
        r = &s.table[j]
        if r.target == i and active[j]:
            eff = EFFECT[r.card]
            if eff == E_DOUBLE:
                mult[0] += 1
            elif eff == E_REDIRECT:
                seats_of = j
            elif eff == E_STEAL_PLAYED and thief[0] < 0:
                thief[0] = r.player
    return seats_of


cdef inline int shielded(SU *s, int seat) noexcept nogil:
    cdef int k
    for k in range(s.nlasting[seat]):
        if EFFECT[s.lcard[seat][k]] == E_SHIELD:
            return 1
    return 0


# ---- the encoder (encoding.py's arithmetic) -----------------------------------------------------
cdef void encode_c(SU *s, int seat, float *o) noexcept nogil:
    cdef int n = s.n, i, j, k, c, t, sv, mult, thief, src, delta, amount, card
    cdef int projected[5]
    cdef int on_table[5]
    cdef int counts[5]
    cdef int last_recipient[128]
    cdef int responses[128]
    cdef int8_t activity[128]
    cdef int pile_total, bad, distinct, active, decider, slot, bit
    cdef int seen[5]
    cdef double x, h, tt
    cdef float *b
    cdef Entry *e
    cdef Entry *p
    memset(o, 0, OBS_SIZE * sizeof(float))
    table_activity(s, activity)
    for k in range(n):
        projected[k] = 0
        on_table[k] = 0
    # _projected: the WP changes if the table resolved now, and each main card's recipients
    for i in range(s.ntable):
        e = &s.table[i]
        last_recipient[i] = -1
        if e.target >= 0:
            continue
        src = card_modifiers(s, activity, i, &mult, &thief)
        if s.table[src].nseats:
            last_recipient[i] = s.table[src].seats[s.table[src].nseats - 1]
        card = e.card
        if KIND[card] != POINTS or not activity[i]:
            continue
        amount = AMOUNT[card] * mult
        for k in range(s.table[src].nseats):
            sv = s.table[src].seats[k]
            if EFFECT[card] == E_POINTS_GAIN_LOSS and k != 0:
                delta = -amount
            else:
                delta = amount
            if delta < 0 and shielded(s, sv):
                continue
            projected[sv] += delta
    # object pile counts and the seat blocks
    for t in range(NTYPES):
        counts[t] = OBJECT_COUNTS[1 if n == 5 else 0][t]
    for k in range(n):
        for j in range(s.nobjects[k]):
            counts[s.objects[k][j]] -= 1
    pile_total = 0
    for t in range(NTYPES):
        pile_total += counts[t]
    for i in range(s.ntable):
        if not s.table[i].placed:
            on_table[s.table[i].player] += 1
    active = -1 if s.over else s.active
    decider = -1 if s.over else s.decider
    for k in range(n):
        b = o + k * SEAT_BLOCK
        b[0] = 1.0
        b[1] = 1.0 if k == seat else 0.0
        b[2] = 1.0 if s.alive[k] else 0.0
        b[3] = 1.0 if k == active else 0.0
        b[4] = 1.0 if k == decider else 0.0
        b[5] = <float>(s.wp[k] / 10.0)
        x = projected[k] / 10.0
        x = x if x < 1.0 else 1.0
        b[6] = <float>(x if x > -1.0 else -1.0)
        for t in range(NTYPES):
            seen[t] = 0
        for j in range(s.nobjects[k]):
            seen[s.objects[k][j]] += 1
        distinct = 0
        bad = counts[BOOTH]
        for t in range(NTYPES):
            b[7 + t] = <float>(0.5 * seen[t])
            if seen[t]:
                distinct += 1
                if t != BOOTH:
                    bad += counts[t]
        b[12] = <float>(distinct / 4.0)
        if s.alive[k]:
            b[13] = 1.0 if pile_total == 0 else <float>(<double>bad / <double>pile_total)
        h = s.nhand[k] / 10.0
        b[14] = <float>(2.0 if h > 2.0 else h)
        for j in range(s.nlasting[k]):
            c = EFFECT[s.lcard[k][j]]
            if c == E_SKIP_DRAW:
                b[15] = 1.0
            elif c == E_SKIP_MAIN:
                b[16] = 1.0
            elif c == E_SHIELD:
                b[17] = 1.0
        for j in range(s.nwin):
            if s.winners[j] == k:
                b[18] = 1.0
        tt = on_table[k] / 6.0
        b[19] = <float>(1.0 if tt > 1.0 else tt)
    # the global part
    b = o + MAXP * SEAT_BLOCK
    b[s.mode] = 1.0
    b[2] = 1.0 if s.expansion else 0.0
    b[3 + n - 2] = 1.0
    b[7 + (0 if s.over else s.decision)] = 1.0
    b[15 + s.phase] = 1.0
    b += 19
    if not s.over:
        b[0] = <float>(s.played / 3.0)
        b[1] = 1.0 if (s.drew or s.played) else 0.0
        b[2] = 1.0 if s.skip_draw_now else 0.0
        b[3] = 1.0 if s.skip_main_now else 0.0
        if s.decision == D_TARGET_PLAYER:
            b[4] = <float>(s.need / 5.0)
            b[6] = <float>(redirect_slot_delta(s) / 10.0)
        x = s.discard_left / 3.0
        b[5] = <float>(x if x < 1.0 else 1.0)
    x = s.turn / 100.0
    b[7] = <float>(x if x < 2.0 else 2.0)
    b[8] = <float>(s.ndraw / <double>NUM_CARDS)
    b[9] = <float>(s.ndiscard / <double>NUM_CARDS)
    for t in range(NTYPES):
        b[10 + t] = <float>(counts[t] / 5.0)
    b[15] = <float>(s.nopile / 21.0)
    # the card planes
    for j in range(s.nhand[seat]):
        o[P_HAND + s.hands[seat][j]] = 1.0
    for j in range(s.ndiscard):
        o[P_DISCARD + s.discard[j]] = 1.0
    for i in range(s.ntable):
        responses[i] = 0
    for i in range(s.ntable):
        e = &s.table[i]
        if e.placed:
            continue
        c = e.card
        o[P_TABLE + c] = 1.0
        if activity[i]:
            o[P_WORKS + c] = 1.0
        if e.player == seat:
            o[P_MINE + c] = 1.0
        if e.target < 0:
            if last_recipient[i] >= 0:
                src = card_modifiers(s, activity, i, &mult, &thief)
                for k in range(s.table[src].nseats):
                    if s.table[src].seats[k] == seat:
                        o[P_AIMS_AT_ME + c] = 1.0
                        break
                o[P_RECIPIENT + c] = <float>((last_recipient[i] + 1) / 5.0)
        else:
            responses[e.target] += 1
    for i in range(s.ntable):
        if responses[i]:
            o[P_RESPONSES_ON + s.table[i].card] = RESPONSES_ON[responses[i]]
    if not s.over and (s.decision == D_TARGET_PLAYER or s.decision == D_TARGET_CARD) and s.ntable:
        p = &s.table[s.ntable - 1]
        o[P_PENDING + p.card] = 1.0
        if p.target >= 0:
            o[P_PENDING_TARGET + s.table[p.target].card] = 1.0
    bit = 1 << seat
    for k in range(n):
        if k == seat:
            continue
        for j in range(s.nhand[k]):
            c = s.hands[k][j]
            if s.known_by[c] & bit:
                o[P_KNOWN + c] = <float>((k + 1) / 5.0)


cdef int redirect_slot_delta(SU *s) noexcept nogil:
    """``_redirect_slot_delta``: the WP change of the recipient slot being chosen for a REDIRECT
    (U23), else 0 (the caller checked the decision)."""
    cdef Entry *e
    cdef int target, idx, slot, amount
    if not s.ntable:
        return 0
    e = &s.table[s.ntable - 1]
    if EFFECT[e.card] != E_REDIRECT:
        return 0
    idx = e.target if e.target >= 0 else s.ntable + e.target  # Python's table[-1]
    target = s.table[idx].card
    if KIND[target] != POINTS:
        return 0
    slot = e.nseats
    amount = AMOUNT[target]
    return -amount if EFFECT[target] == E_POINTS_GAIN_LOSS and slot == 1 else amount


# ---- numpy's integers (numpy/random/src/distributions; random_interval: _native_common.pxi) --
cdef inline int random_below(bitgen_t *bg, int high) noexcept nogil:
    """``int(rng.integers(high))`` for 1 <= high < 2**31: numpy's Lemire rejection on 32 bits
    (``buffered_bounded_lemire_uint32``); no draw when high is 1."""
    cdef uint32_t rng = <uint32_t>(high - 1)
    cdef uint32_t rng_excl, leftover, threshold
    cdef uint64_t m
    if rng == 0:
        return 0
    rng_excl = rng + 1
    m = <uint64_t>bg.next_uint32(bg.state) * rng_excl
    leftover = <uint32_t>(m & 0xFFFFFFFFUL)
    if leftover < rng_excl:
        threshold = (0xFFFFFFFFUL - rng) % rng_excl
        while leftover < threshold:
            m = <uint64_t>bg.next_uint32(bg.state) * rng_excl
            leftover = <uint32_t>(m & 0xFFFFFFFFUL)
    return <int>(m >> 32)


# ---- the engine (SuicidiumGame's methods, same names) ----------------------------------------
cdef inline void hand_remove(SU *s, int seat, int card) noexcept nogil:
    """``hands[seat].remove(card)`` (the first copy; order kept)."""
    cdef int k, m = s.nhand[seat], found = 0
    for k in range(m):
        if found:
            s.hands[seat][k - 1] = s.hands[seat][k]
        elif s.hands[seat][k] == card:
            found = 1
    if found:
        s.nhand[seat] = m - 1


cdef inline int hand_pop(SU *s, int seat, int idx) noexcept nogil:
    cdef int k, c = s.hands[seat][idx]
    for k in range(idx + 1, s.nhand[seat]):
        s.hands[seat][k - 1] = s.hands[seat][k]
    s.nhand[seat] -= 1
    return c


cdef inline void hand_add(SU *s, int seat, int card) noexcept nogil:
    s.hands[seat][s.nhand[seat]] = <int16_t>card
    s.nhand[seat] += 1


cdef inline void discard_add(SU *s, int card) noexcept nogil:
    s.discard[s.ndiscard] = <int16_t>card
    s.ndiscard += 1


cdef inline int in_hand(SU *s, int seat, int card) noexcept nogil:
    cdef int k
    for k in range(s.nhand[seat]):
        if s.hands[seat][k] == card:
            return 1
    return 0


cdef inline int draw_max(SU *s, int seat) noexcept nogil:
    """``_draw_max``: the most cards ``seat`` may draw now (U4, U7, U12)."""
    cdef int kmax = HAND_SIZE - s.nhand[seat]
    cdef int cards = s.ndraw + s.ndiscard
    if cards < kmax:
        kmax = cards
    if s.mode == SURVIVE and s.wp[seat] < kmax:
        kmax = s.wp[seat]
    return kmax


cdef inline int table_classes(SU *s) noexcept nogil:
    cdef int flags = 0, i
    for i in range(s.ntable):
        flags |= CARD_CLASS[s.table[i].card]
    return flags


cdef inline int can_open_main(SU *s, int seat) noexcept nogil:
    cdef int k
    for k in range(s.nhand[seat]):
        if KIND[s.hands[seat][k]] != RESPONSE:
            return 1
    return 0


cdef inline void sort_ints(int *a, int m) noexcept nogil:
    cdef int i, j, v
    for i in range(1, m):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef int legal(SU *s, int *out) noexcept nogil:
    """``legal_actions`` (sorted) into ``out``; their count."""
    cdef int d = s.decision, seat = s.decider, m = 0, k, c, flags, kmax, start
    cdef Entry *e
    if s.over:
        return 0
    if d == D_MAIN:
        if s.played < MAX_PLAYS:
            flags = (table_classes(s) if s.ntable else 0) | ALWAYS
            start = 1
            for k in range(s.nhand[seat]):
                c = s.hands[seat][k]
                if (RESPONSE_FITS[c] if KIND[c] == RESPONSE else ALWAYS) & flags:
                    out[start + m] = PLAY0 + c
                    m += 1
        else:
            start = 1
        if m == 0 or s.drew or s.played:  # U9
            out[0] = PASS
            sort_ints(out + 1, m)
            return m + 1
        sort_ints(out + 1, m)
        for k in range(m):
            out[k] = out[k + 1]
        return m
    if d == D_RESPOND:
        out[0] = PASS
        m = 1
        if s.played < MAX_PLAYS:
            flags = table_classes(s) if s.ntable else 0
            for k in range(s.nhand[seat]):
                c = s.hands[seat][k]
                if KIND[c] == RESPONSE and RESPONSE_FITS[c] & flags:
                    out[m] = PLAY0 + c
                    m += 1
            sort_ints(out + 1, m - 1)
        return m
    if d == D_TARGET_PLAYER:
        e = &s.table[s.ntable - 1]
        for k in range(s.n):
            if s.alive[k] and (EFFECT[e.card] == E_REDIRECT or TARGETING[e.card] == T_ANY
                               or k != e.player):
                out[m] = TARGET0 + k
                m += 1
        return m
    if d == D_TARGET_CARD:
        flags = RESPONSE_FITS[s.table[s.ntable - 1].card]
        for k in range(s.ntable - 1):
            if flags & CARD_CLASS[s.table[k].card]:
                out[m] = ON0 + s.table[k].card
                m += 1
        sort_ints(out, m)
        return m
    if d == D_DRAW:
        kmax = draw_max(s, seat)
        if not s.skip_main_now and can_open_main(s, seat):
            out[m] = DRAW0
            m += 1
        for k in range(1, kmax + 1):
            out[m] = DRAW0 + k
            m += 1
        if s.nhand[seat] >= HAND_SIZE:
            start = m
            for k in range(s.nhand[seat]):
                out[m] = DISCARD0 + s.hands[seat][k]
                m += 1
            sort_ints(out + start, m - start)
        return m
    if d == D_DISCARD:
        for k in range(s.nhand[seat]):
            out[m] = DISCARD0 + s.hands[seat][k]
            m += 1
        sort_ints(out, m)
        return m
    if d == D_TAKE:
        for k in range(s.discard_mark):
            out[m] = TAKE0 + s.discard[k]
            m += 1
        sort_ints(out, m)
        return m
    return 0


cdef int is_legal(SU *s, int action) noexcept nogil:
    cdef int acts[MAXACTS]
    cdef int m = legal(s, acts), k
    for k in range(m):
        if acts[k] == action:
            return 1
    return 0


cdef void game_over(SU *s) noexcept nogil:
    s.over = 1
    s.decision = D_NONE
    s.decider = -1
    s.step = ST_WAIT


cdef void zero(SU *s, int seat) noexcept nogil:
    """``_zero`` (U5): WP reached 0: draw an object; a new type resets WP, a match ends the
    player's game."""
    cdef int match = 1, obj, k, left, last = -1
    if s.nopile:
        s.nopile -= 1
        obj = s.opile[s.nopile]
        match = obj == BOOTH
        for k in range(s.nobjects[seat]):
            if s.objects[seat][k] == obj:
                match = 1
        s.objects[seat][s.nobjects[seat]] = <int8_t>obj
        s.nobjects[seat] += 1
    if not match:
        s.wp[seat] = START_WP
        return
    if s.mode == DEPRESSION:
        s.winners[0] = seat
        s.nwin = 1
        game_over(s)
        return
    s.alive[seat] = 0
    for k in range(s.nhand[seat]):
        s.known_by[s.hands[seat][k]] = 0
        discard_add(s, s.hands[seat][k])
    s.nhand[seat] = 0
    for k in range(s.nlasting[seat]):
        discard_add(s, s.lcard[seat][k])
    s.nlasting[seat] = 0
    left = 0
    for k in range(s.n):
        if s.alive[k]:
            left += 1
            last = k
    if left == 1:
        s.winners[0] = last
        s.nwin = 1
        game_over(s)


cdef int draw_card(SU *s, bitgen_t *bg) noexcept nogil:
    """``_draw_card`` (U12): the top card; an empty draw pile is refilled by shuffling the
    discard pile; -1 when both are empty."""
    if s.ndraw == 0:
        if s.ndiscard == 0:
            return -1
        memcpy(s.draw, s.discard, s.ndiscard * sizeof(int16_t))
        shuffle(bg, s.draw, s.ndiscard)
        s.ndraw = s.ndiscard
        s.ndiscard = 0
        s.discard_mark = 0
    s.ndraw -= 1
    return s.draw[s.ndraw]


cdef inline void discard_from_hand(SU *s, int seat, int card) noexcept nogil:
    hand_remove(s, seat, card)
    s.known_by[card] = 0
    discard_add(s, card)


cdef int draw_paid(SU *s, bitgen_t *bg, int seat) noexcept nogil:
    """``_draw_paid``: draw one card in the DRAW phase and pay for it (U7); 0 stops drawing."""
    cdef int card = draw_card(s, bg), k, o
    if card < 0:
        return 0
    hand_add(s, seat, card)
    if s.mode == SURVIVE:
        s.wp[seat] -= 1
        if s.wp[seat] <= 0:
            s.wp[seat] = 0
            zero(s, seat)
            return 0
        return 1
    for k in range(1, s.n):
        o = (seat + k) % s.n
        if s.alive[o]:
            s.wp[o] -= 1
            if s.wp[o] <= 0:
                s.wp[o] = 0
                zero(s, o)
                if s.over:
                    return 0
    return 1


cdef void draw_phase(SU *s, bitgen_t *bg, int seat, int action) noexcept nogil:
    cdef int k, i
    if action >= DISCARD0:
        discard_from_hand(s, seat, action - DISCARD0)
        k = 1
    else:
        k = action - DRAW0
    for i in range(k):
        s.drew += 1
        if not draw_paid(s, bg, seat):
            break
    if s.over:
        return
    if not s.alive[seat] or s.skip_main_now:
        s.step = ST_END_TURN
    else:
        s.phase = PH_MAIN
        s.step = ST_MAIN


cdef void played_one(SU *s) noexcept nogil:
    s.played += 1
    if s.phase == PH_MAIN:
        s.step = ST_MAIN
    else:
        if s.decider != s.active:
            s.responded = 1
        s.step = ST_RESPOND


cdef void play(SU *s, int seat, int card) noexcept nogil:
    """``_play`` (U8/U10): put a card on the table, then ask for its targets."""
    cdef Entry *e
    cdef int k, n = s.n, eff, o
    hand_remove(s, seat, card)
    s.known_by[card] = 0
    e = &s.table[s.ntable]
    s.ntable += 1
    e.card = <int16_t>card
    e.player = <int16_t>seat
    e.target = -1
    e.placed = 0
    e.nseats = 0
    s.decider = seat
    if TARGETING[card] == T_CARD:
        s.decision = D_TARGET_CARD
        return
    eff = EFFECT[card]
    if TARGETING[card] == T_NONE:
        if eff == E_POINTS_OPPONENTS or eff == E_POINTS_ALL:
            for k in range(0 if eff == E_POINTS_ALL else 1, n):
                o = (seat + k) % n
                if s.alive[o]:
                    e.seats[e.nseats] = <int16_t>o
                    e.nseats += 1
        else:
            e.seats[0] = <int16_t>seat
            e.nseats = 1
        played_one(s)
        return
    if eff == E_POINTS_SELF_AND_OPPONENT or eff == E_POINTS_GAIN_LOSS:
        e.seats[0] = <int16_t>seat
        e.nseats = 1
    s.need = 1
    s.decision = D_TARGET_PLAYER


cdef int start_turn(SU *s) noexcept nogil:
    """``_start_turn`` (U7-U9); -1 when every player keeps passing (an engine bug)."""
    cdef int a = s.active, k, eff, skip_draw = 0, skip_main = 0, can_play, can_draw
    s.turn += 1
    s.ntable = 0
    s.played = 0
    s.drew = 0
    s.responded = 0
    s.active_responding = 0
    s.discard_mark = s.ndiscard
    for k in range(s.nlasting[a]):
        if s.lturn[a][k] < s.turn:
            eff = EFFECT[s.lcard[a][k]]
            if eff == E_SKIP_DRAW:
                skip_draw = 1
            if eff == E_SKIP_MAIN:
                skip_main = 1
    s.skip_draw_now = skip_draw
    s.skip_main_now = skip_main
    can_play = not skip_main and can_open_main(s, a)
    can_draw = not skip_draw and (s.nhand[a] >= HAND_SIZE or s.ndraw + s.ndiscard > 0)
    if not can_draw and not can_play:
        s.passes_in_a_row += 1
        if s.passes_in_a_row > 4 * s.n:
            return -1
        s.step = ST_END_TURN
        return 0
    s.passes_in_a_row = 0
    if skip_draw:
        s.phase = PH_MAIN
        s.step = ST_MAIN
    else:
        s.phase = PH_DRAW
        s.decision = D_DRAW
        s.decider = a
        s.step = ST_WAIT
    return 0


cdef void end_turn(SU *s) noexcept nogil:
    """``_end_turn`` (U27): lasting events that arrived before this turn leave; next seat."""
    cdef int a = s.active, k, m = 0, nxt
    for k in range(s.nlasting[a]):
        if s.lturn[a][k] < s.turn:
            discard_add(s, s.lcard[a][k])
        else:
            s.lcard[a][m] = s.lcard[a][k]
            s.lturn[a][m] = s.lturn[a][k]
            m += 1
    s.nlasting[a] = m
    nxt = (a + 1) % s.n
    while not s.alive[nxt]:
        nxt = (nxt + 1) % s.n
    s.active = nxt
    s.phase = PH_DRAW
    s.step = ST_START_TURN


cdef void resolve_points(SU *s, bitgen_t *bg, int card, Entry *src, int mult) noexcept nogil:
    """``_resolve_points`` (U11, U27, U5): seat by seat from the active player."""
    cdef int seats[8]
    cdef int deltas[8]
    cdef int keys[8]
    cdef int m = src.nseats, k, j, sv, dv, kv, amount = AMOUNT[card] * mult, n = s.n, w
    for k in range(m):
        seats[k] = src.seats[k]
        deltas[k] = -amount if EFFECT[card] == E_POINTS_GAIN_LOSS and k != 0 else amount
        keys[k] = ((seats[k] - s.active) % n + n) % n
    for k in range(1, m):  # a stable sort by the key, as list.sort
        sv = seats[k]
        dv = deltas[k]
        kv = keys[k]
        j = k - 1
        while j >= 0 and keys[j] > kv:
            seats[j + 1] = seats[j]
            deltas[j + 1] = deltas[j]
            keys[j + 1] = keys[j]
            j -= 1
        seats[j + 1] = sv
        deltas[j + 1] = dv
        keys[j + 1] = kv
    for k in range(m):
        sv = seats[k]
        if not s.alive[sv]:
            continue
        if deltas[k] < 0 and shielded(s, sv):
            continue
        w = s.wp[sv] + deltas[k]
        if w <= 0:
            s.wp[sv] = 0
            zero(s, sv)
            if s.over:
                return
        else:
            s.wp[sv] = w if w < MAX_WP else MAX_WP


cdef void target_effect(SU *s, bitgen_t *bg, int card, int eff, int t) noexcept nogil:
    """``_target_effect``: an EVENT on seat ``t`` alone."""
    cdef int k, c, times
    if eff == E_DISCARD_RANDOM:
        times = AMOUNT[card] if AMOUNT[card] < s.nhand[t] else s.nhand[t]
        for k in range(times):
            c = hand_pop(s, t, random_below(bg, s.nhand[t]))
            s.known_by[c] = 0
            discard_add(s, c)
    elif eff == E_DRAW_DISCARD:
        for k in range(AMOUNT[card]):
            c = draw_card(s, bg)
            if c < 0:
                break
            hand_add(s, t, c)
        times = AMOUNT[card] if AMOUNT[card] < s.nhand[t] else s.nhand[t]
        if times:
            s.discard_left = times
            s.decision = D_DISCARD
            s.decider = t
    elif eff == E_DRAW:
        for k in range(AMOUNT[card]):
            c = draw_card(s, bg)
            if c < 0:
                break
            hand_add(s, t, c)
    elif eff == E_RECOVER:
        if s.discard_mark > 0:
            s.decision = D_TAKE
            s.decider = t


cdef void exchange_effect(SU *s, bitgen_t *bg, int eff, int player, int t) noexcept nogil:
    """``_exchange_effect``: steal, peek, exchange hands between ``player`` and ``t``."""
    cdef int c, k, both, m
    cdef int16_t tmp[128]
    if eff == E_STEAL_RANDOM:
        if s.nhand[t]:
            c = hand_pop(s, t, random_below(bg, s.nhand[t]))
            hand_add(s, player, c)
            s.known_by[c] = (1 << player) | (1 << t)
    elif eff == E_PEEK:
        for k in range(s.nhand[t]):
            s.known_by[s.hands[t][k]] |= 1 << player
    elif eff == E_EXCHANGE_HANDS:
        m = s.nhand[player]
        memcpy(tmp, s.hands[player], m * sizeof(int16_t))
        memcpy(s.hands[player], s.hands[t], s.nhand[t] * sizeof(int16_t))
        s.nhand[player] = s.nhand[t]
        memcpy(s.hands[t], tmp, m * sizeof(int16_t))
        s.nhand[t] = m
        both = (1 << player) | (1 << t)
        for k in range(s.nhand[player]):
            s.known_by[s.hands[player][k]] = both
        for k in range(s.nhand[t]):
            s.known_by[s.hands[t][k]] = both


cdef void resolve_card(SU *s, bitgen_t *bg, int i) noexcept nogil:
    cdef Entry *e = &s.table[i]
    cdef int card = e.card, player = e.player, mult, thief, src, eff, t
    src = card_modifiers(s, s.res_active, i, &mult, &thief)
    eff = EFFECT[card]
    if KIND[card] == POINTS:
        resolve_points(s, bg, card, &s.table[src], mult)
        return
    if s.table[src].nseats == 0:
        return
    t = s.table[src].seats[0]
    if not s.alive[t]:
        return
    if eff == E_SKIP_DRAW or eff == E_SKIP_MAIN or eff == E_SHIELD:
        if thief < 0:
            s.lcard[t][s.nlasting[t]] = <int16_t>card
            s.lturn[t][s.nlasting[t]] = s.turn
            s.nlasting[t] += 1
            e.placed = 1
        return
    if eff == E_DISCARD_RANDOM or eff == E_DRAW_DISCARD or eff == E_DRAW or eff == E_RECOVER:
        target_effect(s, bg, card, eff, t)
    elif s.alive[player] and t != player:
        exchange_effect(s, bg, eff, player, t)


cdef void resolve(SU *s, bitgen_t *bg) noexcept nogil:
    """``_resolve`` (U11, U24): the table's cards in order, then to the discard pile (or a
    thief's hand)."""
    cdef int i, everyone, steals = 0, thief, mult, card
    while s.res_idx < s.ntable:
        i = s.res_idx
        s.res_idx += 1
        if s.table[i].target < 0 and s.res_active[i]:
            resolve_card(s, bg, i)
            if s.over or s.decision != D_NONE:
                return
    everyone = (1 << s.n) - 1
    for i in range(s.ntable):
        if EFFECT[s.table[i].card] == E_STEAL_PLAYED:
            steals = 1
    for i in range(s.ntable):
        if s.table[i].placed:
            continue
        card = s.table[i].card
        thief = -1
        if steals:
            card_modifiers(s, s.res_active, i, &mult, &thief)
        if thief >= 0 and s.alive[thief]:
            hand_add(s, thief, card)
            s.known_by[card] = everyone
        else:
            discard_add(s, card)
    s.ntable = 0
    s.nres_active = 0
    s.step = ST_END_TURN


cdef int advance(SU *s, bitgen_t *bg) noexcept nogil:
    """``_advance``: everything the rules decide until a player must choose or the game ends;
    -1 when stuck (a step without a decision, or every player passing: an engine bug)."""
    cdef int step, k, n, a, o
    while not s.over and s.decision == D_NONE:
        step = s.step
        if step == ST_MAIN:
            if s.played >= MAX_PLAYS:
                s.step = ST_END_MAIN
            else:
                s.decision = D_MAIN
                s.decider = s.active
        elif step == ST_NEXT_RESPONDER:
            s.played = 0
            if s.nresponders:
                s.decision = D_RESPOND
                s.decider = s.responders[0]
                for k in range(1, s.nresponders):
                    s.responders[k - 1] = s.responders[k]
                s.nresponders -= 1
            elif s.responded and not s.active_responding:
                s.active_responding = 1
                s.decision = D_RESPOND
                s.decider = s.active
            else:
                s.step = ST_RESOLVE_START
        elif step == ST_END_MAIN:
            if s.ntable:
                n = s.n
                a = s.active
                s.phase = PH_RESPONSE
                s.nresponders = 0
                for k in range(1, n):
                    o = (a + k) % n
                    if s.alive[o]:
                        s.responders[s.nresponders] = o
                        s.nresponders += 1
                s.step = ST_NEXT_RESPONDER
            else:
                s.step = ST_END_TURN
        elif step == ST_RESPOND:
            if s.played >= MAX_PLAYS:
                s.step = ST_NEXT_RESPONDER
            else:
                s.decision = D_RESPOND
        elif step == ST_START_TURN:
            if start_turn(s) < 0:
                return -1
        elif step == ST_END_TURN:
            end_turn(s)
        elif step == ST_RESOLVE_START:
            s.phase = PH_RESOLUTION
            table_activity(s, s.res_active)
            s.nres_active = s.ntable
            s.res_idx = 0
            s.step = ST_RESOLVE
        elif step == ST_RESOLVE:
            resolve(s, bg)
        else:
            return -1
    return 0


cdef int apply_action(SU *s, bitgen_t *bg, int action) noexcept nogil:
    """``apply`` of a legal action by the deciding seat (the caller checked both), then
    ``_advance``; -1 when the engine is stuck."""
    cdef int seat = s.decider, d = s.decision, idx, k
    cdef Entry *e
    s.decisions += 1
    s.decision = D_NONE
    if d == D_MAIN or d == D_RESPOND:
        if action == PASS:
            s.step = ST_END_MAIN if d == D_MAIN else ST_NEXT_RESPONDER
        else:
            play(s, seat, action - PLAY0)
    elif d == D_TARGET_PLAYER:
        e = &s.table[s.ntable - 1]
        e.seats[e.nseats] = <int16_t>(action - TARGET0)
        e.nseats += 1
        s.need -= 1
        if s.need > 0:
            s.decision = D_TARGET_PLAYER
        else:
            played_one(s)
    elif d == D_TARGET_CARD:
        e = &s.table[s.ntable - 1]
        idx = 0
        for k in range(s.ntable):
            if s.table[k].card == action - ON0:
                idx = k
                break
        e.target = <int16_t>idx
        if EFFECT[e.card] == E_REDIRECT:
            s.need = s.table[idx].nseats
            s.decision = D_TARGET_PLAYER
        else:
            played_one(s)
    elif d == D_DRAW:
        draw_phase(s, bg, seat, action)
    elif d == D_DISCARD:
        discard_from_hand(s, seat, action - DISCARD0)
        s.discard_left -= 1
        if s.discard_left > 0:
            s.decision = D_DISCARD
        else:
            s.step = ST_RESOLVE
    elif d == D_TAKE:
        idx = 0
        for k in range(s.ndiscard):
            if s.discard[k] == action - TAKE0:
                idx = k
                break
        for k in range(idx + 1, s.ndiscard):
            s.discard[k - 1] = s.discard[k]
        s.ndiscard -= 1
        s.discard_mark -= 1
        hand_add(s, seat, action - TAKE0)
        s.known_by[action - TAKE0] = (1 << s.n) - 1
        s.step = ST_RESOLVE
    return advance(s, bg)


cdef int new_game_c(SU *s, bitgen_t *bg, int n, int mode, int expansion, int16_t *deck, int ndeck,
                    int16_t *objs, int nobjs) noexcept nogil:
    """``new_game`` without options: the action deck shuffled and dealt (7 per seat, seat 0
    first), the object deck shuffled, seat 0 to start."""
    cdef int16_t pile[128]
    cdef int16_t opile[32]
    cdef int k, j
    memset(s, 0, sizeof(SU))
    s.n = n
    s.mode = mode
    s.expansion = expansion
    memcpy(pile, deck, ndeck * sizeof(int16_t))
    shuffle(bg, pile, ndeck)
    for k in range(n):
        for j in range(HAND_SIZE):
            s.hands[k][j] = pile[HAND_SIZE * k + j]
        s.nhand[k] = HAND_SIZE
        s.wp[k] = START_WP
        s.alive[k] = 1
    s.ndraw = ndeck - HAND_SIZE * n
    for k in range(s.ndraw):
        s.draw[k] = pile[ndeck - 1 - k]
    memcpy(opile, objs, nobjs * sizeof(int16_t))
    shuffle(bg, opile, nobjs)
    s.nopile = nobjs
    for k in range(nobjs):
        s.opile[k] = <int8_t>opile[nobjs - 1 - k]
    s.active = 0
    s.phase = PH_DRAW
    s.step = ST_START_TURN
    s.decision = D_NONE
    s.decider = -1
    return advance(s, bg)


cdef void returns_c(SU *s, double *out) noexcept nogil:
    """``split_returns`` of the winners once the game is over, else zeros."""
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


# ---- Python state <-> struct --------------------------------------------------------------------
cdef int check_range(str what, long long value, long long low, long long high) except -1:
    if not low <= value <= high:
        raise ConfigError(f"suicidium state: {what} is {value}; allowed: {low}..{high}")
    return 0


cdef long long ranged(str what, object value, long long low, long long high) except? -99:
    """``value`` as a C integer when it is an int in [low, high], else a ConfigError."""
    cdef long long v
    try:
        v = value
    except (OverflowError, TypeError):
        v = low - 1
    if not low <= v <= high:
        raise ConfigError(f"suicidium state: {what} is {value!r}; allowed: {low}..{high}")
    return v


cdef int load_cards(int16_t *dst, list cards, str what) except -1:
    cdef Py_ssize_t m = len(cards), k
    cdef long c
    if m > NUM_CARDS:
        raise ConfigError(
            f"suicidium state: {what} holds {m} cards; allowed: at most {NUM_CARDS}")
    for k in range(m):
        c = cards[k]
        if not 0 <= c < NUM_CARDS:
            raise ConfigError(
                f"suicidium state: {what} holds card {c!r}; allowed: 0..{NUM_CARDS - 1}")
        dst[k] = <int16_t>c
    return <int>m


cdef int load_objects(int8_t *dst, list objs, str what) except -1:
    cdef Py_ssize_t m = len(objs), k
    cdef long c
    if m > MAXOBJ:
        raise ConfigError(f"suicidium state: {what} holds {m} objects; allowed: at most {MAXOBJ}")
    for k in range(m):
        c = objs[k]
        if not 0 <= c < NTYPES:
            raise ConfigError(
                f"suicidium state: {what} holds object {c!r}; allowed: 0..{NTYPES - 1}")
        dst[k] = <int8_t>c
    return <int>m


cdef int load_seats(int *dst, list seats, int cap, int n, str what) except -1:
    cdef Py_ssize_t m = len(seats), k
    if m > cap:
        raise ConfigError(f"suicidium state: {what} {seats!r}; allowed: at most {cap} seats")
    for k in range(m):
        dst[k] = seats[k]
        check_range(what, dst[k], 0, n - 1)
    return <int>m


cdef int load_state(SU *s, object st, bint whole) except -1:
    """The struct of a ``SuicidiumState`` (rules.py's fields, their meaning unchanged). Every
    index the C code uses is checked; ``whole``: also the draw and object piles' cards and the
    bookkeeping of resolution (a state that will be played on), else only what the encoder
    reads."""
    cdef int n = st.num_players, k, j, m
    cdef list hands, objects, lasting, table, seats, item, known_by, res_active
    cdef Entry *e
    check_range("num_players", n, 2, MAXP)
    if whole:
        memset(s, 0, sizeof(SU))
    s.n = n
    s.mode = st.mode
    check_range("mode", s.mode, SURVIVE, DEPRESSION)
    s.expansion = 1 if st.expansion else 0
    wp = st.wp
    alive = st.alive
    hands = st.hands
    objects = st.objects
    lasting = st.lasting
    if len(wp) != n or len(alive) != n or len(hands) != n or len(objects) != n or len(lasting) != n:
        raise ConfigError(f"suicidium state: wp, alive, hands, objects and lasting need {n} entries")
    for k in range(n):
        s.wp[k] = <int>ranged("wp", wp[k], -1000, 1000)
        s.alive[k] = 1 if alive[k] else 0
        s.nhand[k] = load_cards(s.hands[k], hands[k], "a hand")
        s.nobjects[k] = load_objects(s.objects[k], objects[k], "a seat's objects")
        m = len(lasting[k])
        if m > MAXLAST:
            raise ConfigError(
                f"suicidium state: {m} lasting events in front of seat {k}; allowed: at most "
                f"{MAXLAST}")
        s.nlasting[k] = m
        for j in range(m):
            item = lasting[k][j]
            s.lcard[k][j] = <int16_t>ranged("a lasting event's card", item[0], 0, NUM_CARDS - 1)
            s.lturn[k][j] = ranged("a lasting event's turn", item[1], 0, BIG)
    s.ndiscard = load_cards(s.discard, st.discard_pile, "discard_pile")
    if whole:
        s.ndraw = load_cards(s.draw, st.draw_pile, "draw_pile")
        s.nopile = load_objects(s.opile, st.object_pile, "object_pile")
    else:
        s.ndraw = len(st.draw_pile)
        s.nopile = len(st.object_pile)
    known_by = st.known_by
    if len(known_by) != NUM_CARDS:
        raise ConfigError(f"suicidium state: known_by needs {NUM_CARDS} entries")
    for k in range(NUM_CARDS):
        s.known_by[k] = <int>ranged("known_by", known_by[k], 0, (1 << n) - 1)
    s.active = <int>ranged("active", st.active, 0, n - 1)
    s.turn = ranged("turn", st.turn, 0, BIG)
    s.phase = <int>ranged("phase", st.phase, PH_DRAW, PH_RESOLUTION)
    s.step = <int>ranged("step", st.step, ST_WAIT, ST_END_TURN)
    s.decision = <int>ranged("decision", st.decision, D_NONE, D_TAKE)
    s.decider = <int>ranged("decider", st.decider, -1, n - 1)
    table = st.table
    m = len(table)
    if m > NUM_CARDS:
        raise ConfigError(f"suicidium state: {m} cards on the table; allowed: at most {NUM_CARDS}")
    s.ntable = m
    for k in range(m):
        item = table[k]
        e = &s.table[k]
        e.card = <int16_t>ranged("a table card", item[0], 0, NUM_CARDS - 1)
        e.player = <int16_t>ranged("a table card's player", item[1], 0, n - 1)
        e.target = <int16_t>ranged("a table card's target", item[2], -1, k - 1)
        seats = item[3]
        if len(seats) > MAXSEATS:
            raise ConfigError(
                f"suicidium state: a table card has recipients {seats!r}; allowed: at most "
                f"{MAXSEATS}")
        e.nseats = len(seats)
        for j in range(e.nseats):
            e.seats[j] = <int16_t>ranged("a recipient", seats[j], 0, n - 1)
        e.placed = 1 if item[4] else 0
    s.played = <int>ranged("played", st.played, 0, INT_BIG)
    s.drew = <int>ranged("drew", st.drew, 0, INT_BIG)
    s.skip_draw_now = 1 if st.skip_draw_now else 0
    s.skip_main_now = 1 if st.skip_main_now else 0
    s.need = <int>ranged("need", st.need, 0, INT_BIG)
    s.discard_left = <int>ranged("discard_left", st.discard_left, 0, INT_BIG)
    s.nwin = load_seats(s.winners, st.winners, n, n, "winners")
    s.over = 1 if st.over else 0
    if whole:
        s.nresponders = load_seats(s.responders, st.responders, n, n, "responders")
        s.responded = 1 if st.responded else 0
        s.active_responding = 1 if st.active_responding else 0
        s.res_idx = <int>ranged("res_idx", st.res_idx, 0, INT_BIG)
        res_active = st.res_active
        if len(res_active) > NUM_CARDS:
            raise ConfigError(f"suicidium state: res_active has {len(res_active)} entries; "
                              f"allowed: at most {NUM_CARDS}")
        s.nres_active = len(res_active)
        for k in range(s.nres_active):
            s.res_active[k] = 1 if res_active[k] else 0
        s.discard_mark = <int>ranged("discard_mark", st.discard_mark, 0, s.ndiscard)
        s.decisions = ranged("decisions", st.decisions, 0, BIG)
        s.passes_in_a_row = <int>ranged("passes_in_a_row", st.passes_in_a_row, 0, INT_BIG)
        check_playable(s)
    return 0


cdef int check_playable(SU *s) except -1:
    """What play needs of a loaded state beyond its indices: every card in one zone at most
    (so that no zone outgrows its array), lasting events in front of seats, room for the
    objects and the recipients still to choose, a deciding seat and the card it decides on."""
    cdef int8_t seen[128]
    cdef int k, j, c, objects = s.nopile
    cdef Entry *e
    memset(seen, 0, sizeof(seen))
    for k in range(s.n):
        objects += s.nobjects[k]
        for j in range(s.nhand[k]):
            seen_once(seen, s.hands[k][j], "the hands")
        for j in range(s.nlasting[k]):
            c = s.lcard[k][j]
            if not (EFFECT[c] == E_SKIP_DRAW or EFFECT[c] == E_SKIP_MAIN or EFFECT[c] == E_SHIELD):
                raise ConfigError(f"suicidium state: lasting event {_rules.CARD_IDS[c]!r}; "
                                  f"allowed: a skip draw, skip main or shield card")
            seen_once(seen, c, "the lasting events")
    for k in range(s.ndraw):
        seen_once(seen, s.draw[k], "draw_pile")
    for k in range(s.ndiscard):
        seen_once(seen, s.discard[k], "discard_pile")
    for k in range(s.ntable):
        if not s.table[k].placed:
            seen_once(seen, s.table[k].card, "the table")
        for j in range(k):
            if s.table[j].card == s.table[k].card:
                raise ConfigError(f"suicidium state: card {_rules.CARD_IDS[s.table[k].card]!r} "
                                  f"is twice on the table; allowed: once")
    if objects > MAXOBJ:
        raise ConfigError(f"suicidium state: {objects} objects; allowed: at most {MAXOBJ}")
    if not s.over:
        check_range("the deciding seat of a running game", s.decider, 0, s.n - 1)
        if (s.decision == D_TARGET_PLAYER or s.decision == D_TARGET_CARD) and not s.ntable:
            raise ConfigError("suicidium state: a target decision with an empty table; allowed: "
                              "the card being played on the table")
        if s.decision == D_TARGET_PLAYER and s.table[s.ntable - 1].nseats + s.need > MAXSEATS:
            raise ConfigError(f"suicidium state: need is {s.need}; allowed: at most "
                              f"{MAXSEATS} recipients per card")
    return 0


cdef int seen_once(int8_t *seen, int card, str zone) except -1:
    if seen[card]:
        raise ConfigError(f"suicidium state: card {_rules.CARD_IDS[card]!r} is in two places "
                          f"(again in {zone}); allowed: every card in one zone at most")
    seen[card] = 1
    return 0


cdef inline void check_seat(int seat, int n) except *:
    if not 0 <= seat < n:
        raise IndexError(
            f"suicidium: seat {seat} is not a seat of this {n}-player game (0..{n - 1})")


cdef inline cnp.ndarray new_obs():
    cdef cnp.npy_intp dims[1]
    dims[0] = OBS_SIZE
    return cnp.PyArray_EMPTY(1, dims, cnp.NPY_FLOAT32, 0)


def encode(state, int seat):
    """The observation of ``seat`` (``encoding.encode_python``'s, byte for byte) of a
    ``SuicidiumState`` or a native state."""
    cdef SU s
    cdef SU *p
    cdef cnp.ndarray out = new_obs()
    if type(state) is NativeState:
        p = &(<NativeState>state).s
    else:
        load_state(&s, state, False)
        p = &s
    check_seat(seat, p.n)
    encode_c(p, seat, <float *>cnp.PyArray_DATA(out))
    return out


def random_integers(rng, int high, int count):
    """``[int(rng.integers(high)) for _ in range(count)]`` drawn by the C code (the test checks
    it against numpy)."""
    cdef object bits = rng.bit_generator
    cdef bitgen_t *bg = bitgen_of(rng)
    if not 1 <= high <= 1 << 30:
        raise ConfigError(f"random_integers: high {high}; allowed: 1..{1 << 30}")
    return [random_below(bg, high) for _ in range(count)]


def random_interval_for_test(rng, long long mx):
    """A uniform integer in [0, mx] from ``rng`` as the rollouts pick their actions (numpy's
    ``random_interval``), for a test that replays a rollout from Python."""
    cdef object bits = rng.bit_generator
    cdef bitgen_t *bg = bitgen_of(rng)
    if mx < 0:
        raise ConfigError(f"random_interval_for_test: mx {mx}; allowed: 0 or more")
    return random_interval(bg, <uint64_t>mx)


cdef list cards_list(int16_t *cards, int m):
    return [cards[k] for k in range(m)]


cdef list entry_list(Entry *e):
    return [e.card, e.player, e.target, [e.seats[k] for k in range(e.nseats)], e.placed]


cdef int stuck(int rc) except -1:
    if rc < 0:
        raise RuntimeError("suicidium: stuck without a decision (engine bug or a bad state)")
    return 0


# ---- the state object --------------------------------------------------------------------------
cdef class NativeState:
    """A suicidium game state on a C struct, with the numpy generator it draws from.

    Its read-only attributes have the names and values of ``SuicidiumState``'s (lists are fresh
    copies), so code that reads a state (renders, views, baselines) reads either."""

    cdef SU s
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
    def new_game(rng, int num_players, int mode, bint expansion, list action_deck,
                 list object_deck):
        """``SuicidiumGame.new_game(rng)`` without options (``action_deck`` and
        ``object_deck``: the engine's)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        cdef int16_t deck[128]
        cdef int16_t objs[32]
        cdef int nd = len(action_deck), no = len(object_deck), k
        check_range("num_players", num_players, 2, MAXP)
        if nd > NUM_CARDS or nd < HAND_SIZE * num_players or no > MAXOBJ:
            raise ConfigError(f"suicidium: a deck of {nd} cards and {no} objects; allowed: "
                              f"{HAND_SIZE * num_players}..{NUM_CARDS} cards, {MAXOBJ} objects")
        for k in range(nd):
            deck[k] = <int16_t>ranged("a deck card", action_deck[k], 0, NUM_CARDS - 1)
        for k in range(no):
            objs[k] = <int16_t>ranged("an object", object_deck[k], 0, NTYPES - 1)
        st._set_rng(rng)
        stuck(new_game_c(&st.s, st.bg, num_players, mode, expansion, deck, nd, objs, no))
        return st

    @staticmethod
    def from_python(state, rng=None):
        """The native copy of a ``SuicidiumState`` (drawing from ``rng``, default its own
        generator, shared)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        load_state(&st.s, state, True)
        st._set_rng(state.rng if rng is None else rng)
        return st

    def to_python(self, copy_rng=True):
        """The ``SuicidiumState`` of this state (its generator copied, or shared)."""
        cdef SU *s = &self.s
        return SuicidiumState(
            num_players=s.n,
            mode=s.mode,
            expansion=bool(s.expansion),
            rng=copy_generator(self._rng) if copy_rng else self._rng,
            wp=self.wp,
            alive=self.alive,
            hands=self.hands,
            draw_pile=self.draw_pile,
            discard_pile=self.discard_pile,
            object_pile=self.object_pile,
            objects=self.objects,
            lasting=self.lasting,
            known_by=self.known_by,
            active=s.active,
            turn=s.turn,
            phase=s.phase,
            step=s.step,
            decision=s.decision,
            decider=s.decider,
            table=self.table,
            played=s.played,
            drew=s.drew,
            skip_draw_now=bool(s.skip_draw_now),
            skip_main_now=bool(s.skip_main_now),
            responders=self.responders,
            responded=bool(s.responded),
            active_responding=bool(s.active_responding),
            need=s.need,
            res_idx=s.res_idx,
            res_active=self.res_active,
            discard_left=s.discard_left,
            discard_mark=s.discard_mark,
            winners=self.winners,
            over=bool(s.over),
            decisions=s.decisions,
            passes_in_a_row=s.passes_in_a_row,
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
        cdef int acts[MAXACTS]
        cdef int m = legal(&self.s, acts), k
        return [acts[k] for k in range(m)]

    def legal_mask(self):
        """The action mask (int8, size ``NUM_ACTIONS``)."""
        cdef int acts[MAXACTS]
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
        cdef double out[5]
        returns_c(&self.s, out)
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
        stuck(apply_action(&self.s, self.bg, action))
        return True

    def rollouts(self, int count, seed, str horizon="game"):
        """``count`` random-legal-action playouts from this state to the end of the game, all
        inside C (suicidium has no rounds: ``horizon`` is "game"); actions and shuffles come
        from ``np.random.default_rng(seed)`` (this state and its generator are unchanged).
        Returns (the returns float64[count, seats], decisions played)."""
        if horizon != "game":
            raise ConfigError(
                f"suicidium rollouts: horizon {horizon!r}; allowed: 'game' (no rounds)")
        if count < 0:
            raise ConfigError(f"suicidium rollouts: count {count}; allowed: 0 or more")
        rng = np.random.default_rng(seed)
        cdef object bits = rng.bit_generator  # alive until the end
        cdef bitgen_t *bg = bitgen_of(rng)
        cdef int n = self.s.n, i, m, rc = 0
        cdef long long decisions = 0
        cdef int acts[MAXACTS]
        cdef SU w
        values = np.zeros((count, n), dtype=np.float64)
        cdef double[:, ::1] vals = values
        with nogil:
            for i in range(count):
                w = self.s
                while not w.over:
                    m = legal(&w, acts)
                    if m == 0:
                        rc = -1
                        break
                    rc = apply_action(&w, bg, acts[random_interval(bg, <uint64_t>(m - 1))])
                    decisions += 1
                    if rc < 0:
                        break
                if rc < 0:
                    break
                returns_c(&w, &vals[i, 0])
        stuck(rc)
        return values, decisions

    # ---- SuicidiumState's attribute names (read-only copies) ----
    @property
    def rng(self):
        return self._rng

    @property
    def num_players(self):
        return self.s.n

    @property
    def mode(self):
        return self.s.mode

    @property
    def expansion(self):
        return bool(self.s.expansion)

    @property
    def wp(self):
        return [self.s.wp[k] for k in range(self.s.n)]

    @property
    def alive(self):
        return [bool(self.s.alive[k]) for k in range(self.s.n)]

    @property
    def hands(self):
        return [cards_list(self.s.hands[k], self.s.nhand[k]) for k in range(self.s.n)]

    @property
    def draw_pile(self):
        return cards_list(self.s.draw, self.s.ndraw)

    @property
    def discard_pile(self):
        return cards_list(self.s.discard, self.s.ndiscard)

    @property
    def object_pile(self):
        return [self.s.opile[k] for k in range(self.s.nopile)]

    @property
    def objects(self):
        return [[self.s.objects[k][j] for j in range(self.s.nobjects[k])] for k in range(self.s.n)]

    @property
    def lasting(self):
        return [[[self.s.lcard[k][j], self.s.lturn[k][j]] for j in range(self.s.nlasting[k])]
                for k in range(self.s.n)]

    @property
    def known_by(self):
        return [self.s.known_by[k] for k in range(NUM_CARDS)]

    @property
    def active(self):
        return self.s.active

    @property
    def turn(self):
        return self.s.turn

    @property
    def phase(self):
        return self.s.phase

    @property
    def step(self):
        return self.s.step

    @property
    def decision(self):
        return self.s.decision

    @property
    def decider(self):
        return self.s.decider

    @property
    def table(self):
        return [entry_list(&self.s.table[k]) for k in range(self.s.ntable)]

    @property
    def played(self):
        return self.s.played

    @property
    def drew(self):
        return self.s.drew

    @property
    def skip_draw_now(self):
        return bool(self.s.skip_draw_now)

    @property
    def skip_main_now(self):
        return bool(self.s.skip_main_now)

    @property
    def responders(self):
        return [self.s.responders[k] for k in range(self.s.nresponders)]

    @property
    def responded(self):
        return bool(self.s.responded)

    @property
    def active_responding(self):
        return bool(self.s.active_responding)

    @property
    def need(self):
        return self.s.need

    @property
    def res_idx(self):
        return self.s.res_idx

    @property
    def res_active(self):
        return [bool(self.s.res_active[k]) for k in range(self.s.nres_active)]

    @property
    def discard_left(self):
        return self.s.discard_left

    @property
    def discard_mark(self):
        return self.s.discard_mark

    @property
    def winners(self):
        return [self.s.winners[k] for k in range(self.s.nwin)]

    @property
    def over(self):
        return bool(self.s.over)

    @property
    def decisions(self):
        return self.s.decisions

    @property
    def passes_in_a_row(self):
        return self.s.passes_in_a_row


def _rebuild(state):
    """The unpickled native state (pickled as its ``SuicidiumState``)."""
    return NativeState.from_python(state)


# ---- the heuristic baseline in C (agents/baselines/suicidium.py::HeuristicAgent) ---------------
# Every method of the agent is a function of the same name below, computing the same doubles in
# the same order (the agent's view is ``HV``: what ``encoding_view.view`` gives it, read off the
# struct). Its plan (the follow-ups of the card it plays) is kept per seat in ``Policy``; its one
# random choice (``legal[rng.integers(len(legal))]`` when nothing else decides) draws from the
# seat's own generator with numpy's algorithm.
cdef enum:
    POLICY_RANDOM = 0
    POLICY_HEURISTIC = 1
    MAXPLAN = 16

cdef double NONE_VALUE = -1e9  # the agent's "no use" (-1e9)


cdef struct Policy:
    int policy
    double play_threshold  # HeuristicAgent.play_threshold
    double draw_margin  # HeuristicAgent.draw_margin
    double lift_weight  # HeuristicAgent.lift_weight
    int plan[5][16]  # per seat: the follow-up actions still to play, from ppos on
    int nplan[5]
    int ppos[5]
    bitgen_t *rngs[5]  # per seat: the agent's generator (its random choices), or NULL
    int use_mt  # the random policy's actions: random.random() of mt (1), or the bit generator
    MT *mt
    bitgen_t *pick
    long long max_decisions


cdef struct HV:
    int me
    int n
    int survive
    int wp[5]
    int alive[5]
    int shield[5]
    int hsize[5]
    double mc[5]
    int nlive
    int live[5]
    int nopp
    int opp[5]
    int takeable
    int skip_main
    int nt
    int ti[128]  # the table's entries not placed (the view's "table"), their indices
    int8_t act[128]  # table_activity ("works")
    int mult[128]  # main entries: card_modifiers' multiplier and the entry holding the recipients
    int src[128]


cdef void view_c(SU *s, HV *v, int me) noexcept nogil:
    """What ``encoding_view.view(state, me)`` tells the agent."""
    cdef int n = s.n, k, t, j, total = 0, bad, thief
    cdef int counts[5]
    cdef int held[5]
    v.me = me
    v.n = n
    v.survive = s.mode == SURVIVE
    for t in range(NTYPES):
        counts[t] = OBJECT_COUNTS[1 if n == 5 else 0][t]
    for k in range(n):
        for j in range(s.nobjects[k]):
            counts[s.objects[k][j]] -= 1
    for t in range(NTYPES):
        total += counts[t]
    v.nlive = 0
    v.nopp = 0
    for k in range(n):
        v.wp[k] = s.wp[k]
        v.alive[k] = s.alive[k]
        v.shield[k] = shielded(s, k)
        v.hsize[k] = s.nhand[k]
        if total == 0:
            v.mc[k] = 1.0
        else:
            for t in range(NTYPES):
                held[t] = 0
            for j in range(s.nobjects[k]):
                held[s.objects[k][j]] = 1
            bad = 0
            for t in range(NTYPES):
                if held[t] or t == BOOTH:
                    bad += counts[t]
            v.mc[k] = <double>bad / <double>total
        if s.alive[k]:
            v.live[v.nlive] = k
            v.nlive += 1
            if k != me:
                v.opp[v.nopp] = k
                v.nopp += 1
    v.takeable = s.discard_mark > 0
    v.skip_main = s.skip_main_now
    v.nt = 0
    if s.ntable:
        table_activity(s, v.act)
        for k in range(s.ntable):
            if s.table[k].placed:
                continue
            v.ti[v.nt] = k
            v.nt += 1
            if s.table[k].target < 0:
                v.src[k] = card_modifiers(s, v.act, k, &v.mult[k], &thief)


cdef double seat_value(HV *v, double lift, int s, int before, int after) noexcept nogil:
    cdef int diff = after - before, zero = after <= 0
    cdef double risk = 0.3 + v.mc[s], weak
    if v.survive:
        if s == v.me:
            return diff - (12.0 * risk if zero else 0.0)
        weak = 1.0 + (10 - before) / 20.0
        return -0.6 * diff * weak + (6.0 * risk if zero else 0.0)
    if s == v.me:
        return -diff + (6.0 + 12.0 * v.mc[v.me] if zero else 0.0)
    return lift * diff - (6.0 + 12.0 * v.mc[s] if zero else 0.0)


cdef double changes_value(HV *v, double lift, int *seats, int *deltas, int m) noexcept nogil:
    cdef int wp[5]
    cdef int k, s, d, before, after
    cdef double total = 0.0
    for k in range(v.n):
        wp[k] = v.wp[k]
    for k in range(m):
        s = seats[k]
        d = deltas[k]
        if not v.alive[s] or (d < 0 and v.shield[s]):
            continue
        before = wp[s]
        after = before + d
        if after > 10:
            after = 10
        if after < 0:
            after = 0
        wp[s] = after if after > 0 else 10
        total += seat_value(v, lift, s, before, after)
    return total


cdef inline void points_changes(int card, int m, int mult, int *deltas) noexcept nogil:
    cdef int amount = AMOUNT[card] * mult, k
    for k in range(m):
        deltas[k] = -amount if (EFFECT[card] == E_POINTS_GAIN_LOSS and k != 0) else amount


cdef inline int amount_or_one(int card) noexcept nogil:
    return AMOUNT[card] if AMOUNT[card] else 1


cdef double event_value(HV *v, int card, int target, int player) noexcept nogil:
    cdef int me = v.me, eff = EFFECT[card], size, a
    cdef double gain
    if eff == E_SKIP_MAIN:
        if target == me:
            return -1.5
        return 1.2 if not v.survive else 0.8
    if eff == E_SKIP_DRAW:
        if target == me:
            return -0.8 if v.survive else 0.3
        return 0.4 if v.survive else -0.3
    if eff == E_SHIELD:
        if v.survive:
            return (2.5 - v.wp[me] / 5.0) if target == me else -0.3
        return -2.0 if target == me else (1.5 - v.wp[target] / 10.0)
    if eff == E_DRAW or eff == E_RECOVER:
        gain = 0.8 * amount_or_one(card)
        return gain if target == me else -0.3 * gain
    if (eff == E_DISCARD_RANDOM or eff == E_DRAW_DISCARD or eff == E_STEAL_RANDOM
            or eff == E_EXCHANGE_HANDS or eff == E_PEEK):
        if target == me:
            return -1.5
        if player != me:
            return 0.0
        size = v.hsize[target]
        if eff == E_EXCHANGE_HANDS:
            return 0.6 * (size - v.hsize[me]) - 0.5
        if eff == E_PEEK:
            return 0.2
        if eff == E_STEAL_RANDOM:
            return 1.2 if size else 0.0
        a = amount_or_one(card)
        return (0.4 + 0.2 * (size if size < a else a)) if size else 0.0
    return 0.0


cdef double entry_value(SU *s, HV *v, double lift, int i) noexcept nogil:
    """Value to me of table entry ``i`` (a main card) resolving with its current responses."""
    cdef Entry *e = &s.table[i]
    cdef Entry *r = &s.table[v.src[i]] if e.target < 0 else e
    cdef int card = e.card, k
    cdef int seats[8]
    cdef int deltas[8]
    if KIND[card] == POINTS:
        for k in range(r.nseats):
            seats[k] = r.seats[k]
        points_changes(card, r.nseats, v.mult[i] if e.target < 0 else 1, deltas)
        return changes_value(v, lift, seats, deltas, r.nseats)
    return event_value(v, card, r.seats[0] if r.nseats else e.player, e.player)


cdef double keep_value(HV *v, int card) noexcept nogil:
    cdef int eff = EFFECT[card]
    cdef int a = AMOUNT[card] if AMOUNT[card] >= 0 else -AMOUNT[card]
    cdef int n_opp = v.nopp if v.nopp > 1 else 1
    if KIND[card] == POINTS:
        if eff == E_POINTS_ONE:
            return a
        if eff == E_POINTS_OPPONENTS:
            return (a * n_opp) * (0.8 if v.survive else 0.1)
        if eff == E_POINTS_ALL:
            return 0.5
        if eff == E_POINTS_GAIN_LOSS:
            return 1.2 * a
        return 0.6 * a
    if KIND[card] == RESPONSE:
        if is_cancel(card):
            return 2.5 if eff == E_CANCEL_ANY else 2.0
        return 1.5 if (eff == E_DOUBLE or eff == E_REDIRECT) else 1.0
    return 1.5


cdef double best_play(SU *s, HV *v, double lift, int card, int *plan, int *np) noexcept nogil:
    """Best value of playing ``card`` now; its follow-up actions into ``plan`` (count ``np``)."""
    cdef int me = v.me, eff = EFFECT[card], k, t
    cdef int seats[8]
    cdef int deltas[8]
    cdef double best = NONE_VALUE, val
    np[0] = 0
    if KIND[card] == POINTS:
        if eff == E_POINTS_OPPONENTS or eff == E_POINTS_ALL:
            if eff == E_POINTS_OPPONENTS:
                for k in range(v.nopp):
                    seats[k] = v.opp[k]
                points_changes(card, v.nopp, 1, deltas)
                return changes_value(v, lift, seats, deltas, v.nopp)
            for k in range(v.nlive):
                seats[k] = v.live[k]
            points_changes(card, v.nlive, 1, deltas)
            return changes_value(v, lift, seats, deltas, v.nlive)
        for k in range(v.nlive if eff == E_POINTS_ONE else v.nopp):
            t = v.live[k] if eff == E_POINTS_ONE else v.opp[k]
            if eff == E_POINTS_ONE:
                seats[0] = t
                points_changes(card, 1, 1, deltas)
                val = changes_value(v, lift, seats, deltas, 1)
            else:
                seats[0] = me
                seats[1] = t
                points_changes(card, 2, 1, deltas)
                val = changes_value(v, lift, seats, deltas, 2)
            if val > best:
                best = val
                plan[0] = TARGET0 + t
                np[0] = 1
        return best
    if KIND[card] == RESPONSE:
        return best_response(s, v, lift, card, plan, np)
    if eff == E_DRAW or eff == E_RECOVER:
        if eff == E_RECOVER and not v.takeable:
            return 0.0
        return event_value(v, card, me, me)
    for k in range(v.nlive if eff == E_SHIELD else v.nopp):
        t = v.live[k] if eff == E_SHIELD else v.opp[k]
        val = event_value(v, card, t, me)
        if val > best:
            best = val
            plan[0] = TARGET0 + t
            np[0] = 1
    return best


cdef double best_response(SU *s, HV *v, double lift, int card, int *plan, int *np) noexcept nogil:
    """Best use of RESPONSE ``card`` on the table: the gain; [on ..., targets ...] into plan."""
    cdef int eff = EFFECT[card], j, i, k, target, victim, ns
    cdef int seats[8]
    cdef int deltas[8]
    cdef int redirect[8]
    cdef double best = NONE_VALUE, gain
    cdef Entry *e
    cdef Entry *r
    np[0] = 0
    for j in range(v.nt):
        i = v.ti[j]
        e = &s.table[i]
        target = e.card
        if not (RESPONSE_FITS[card] & CARD_CLASS[target]):
            continue
        gain = NONE_VALUE
        ns = 0
        if is_cancel(card):
            if e.target < 0:  # a main card: cancel what hurts me
                gain = -entry_value(s, v, lift, i) if v.act[i] else NONE_VALUE
            elif is_cancel(target) and v.act[i]:  # restore what it cancels
                victim = e.target
                if not s.table[victim].placed and s.table[victim].target < 0:
                    gain = entry_value(s, v, lift, victim)
            elif v.act[i]:
                gain = 0.5 if e.player != v.me else -1.0
        elif eff == E_DOUBLE:
            if v.act[i] and KIND[target] == POINTS:
                r = &s.table[v.src[i]] if e.target < 0 else e
                for k in range(r.nseats):
                    seats[k] = r.seats[k]
                points_changes(target, r.nseats, 1, deltas)
                gain = changes_value(v, lift, seats, deltas, r.nseats)
        elif eff == E_REDIRECT:
            gain = best_redirect(s, v, lift, i, target, redirect, &ns)
        elif eff == E_STEAL_PLAYED:
            gain = 0.3 * keep_value(v, target)
        if gain > best:
            best = gain
            plan[0] = ON0 + target
            for k in range(ns):
                plan[1 + k] = TARGET0 + redirect[k]
            np[0] = 1 + ns
    return best


cdef double best_redirect(SU *s, HV *v, double lift, int i, int target, int *out,
                          int *ns) noexcept nogil:
    cdef Entry *e = &s.table[i]
    cdef Entry *r
    cdef int slots = e.nseats, k, j, cand, best_seat, mult
    cdef int base[8]
    cdef int deltas[8]
    cdef int one[1]
    cdef int d[1]
    cdef double now, val, top
    ns[0] = 0
    if not v.act[i]:
        return NONE_VALUE
    now = entry_value(s, v, lift, i)
    if KIND[target] == POINTS:
        r = &s.table[v.src[i]] if e.target < 0 else e
        mult = v.mult[i] if e.target < 0 else 1
        points_changes(target, r.nseats, mult, base)
        for k in range(slots):
            d[0] = base[k] if k < r.nseats else 0
            best_seat = -1
            top = 0.0
            for j in range(v.nlive):
                cand = v.live[j]
                one[0] = cand
                val = changes_value(v, lift, one, d, 1)
                if best_seat < 0 or val > top:
                    best_seat = cand
                    top = val
            out[k] = best_seat
        points_changes(target, slots, mult, deltas)
        ns[0] = slots
        return changes_value(v, lift, out, deltas, slots) - now
    best_seat = -1
    top = 0.0
    for j in range(v.nlive):
        cand = v.live[j]
        val = event_value(v, target, cand, e.player)
        if best_seat < 0 or val > top:
            best_seat = cand
            top = val
    out[0] = best_seat
    ns[0] = 1
    return event_value(v, target, best_seat, e.player) - now


cdef inline int among(int a, int *acts, int m) noexcept nogil:
    cdef int k
    for k in range(m):
        if acts[k] == a:
            return 1
    return 0


cdef int choose_play(SU *s, HV *v, Policy *p, int *acts, int m, int main) noexcept nogil:
    cdef double best_val = NONE_VALUE, val, threshold
    cdef int best_action = PASS, best_np = 0, np, k, a, card, has_pass = 0, seat = v.me
    cdef int plan[16]
    cdef int best_plan[16]
    for k in range(m):
        a = acts[k]
        if a == PASS:
            has_pass = 1
            continue
        card = a - PLAY0
        val = best_play(s, v, p.lift_weight, card, plan, &np)
        if KIND[card] == RESPONSE:
            val -= 0.5 * keep_value(v, card) / 2.5  # keep responses for what matters
        if val > best_val:
            best_val = val
            best_action = a
            best_np = np
            memcpy(best_plan, plan, np * sizeof(int))
    threshold = p.play_threshold if main else 1.0
    if has_pass and best_val <= threshold:
        return PASS
    memcpy(p.plan[seat], best_plan, best_np * sizeof(int))
    p.nplan[seat] = best_np
    p.ppos[seat] = 0
    return best_action


cdef int choose_draw(SU *s, HV *v, Policy *p, int *acts, int m) noexcept nogil:
    cdef int me = v.me, k, j, a, np, any_worth = 0, lowest = 10, ndraws = 0
    cdef int plan[16]
    cdef int nswaps = 0, fit = -1, low_draw = 1 << 30, pick = -1
    cdef double want, kv, top = 0.0
    for k in range(m):
        a = acts[k]
        if DRAW0 <= a < DRAW0 + 8:
            ndraws += 1
            if a - DRAW0 < low_draw:
                low_draw = a - DRAW0
        if a >= DISCARD0:
            nswaps += 1
    if v.survive:
        want = v.wp[me] - p.draw_margin
        if not (want > 0):  # max(0, ...): 0 unless the difference is larger
            want = 0
        if not v.skip_main:
            for j in range(s.nhand[me]):
                if best_play(s, v, p.lift_weight, s.hands[me][j], plan, &np) > p.play_threshold:
                    any_worth = 1
                    break
            if not any_worth and not (want >= 1):
                want = 1
    else:
        want = 0
        for k in range(v.nopp):
            if v.wp[v.opp[k]] < lowest:
                lowest = v.wp[v.opp[k]]
        if lowest > 3 and v.hsize[me] < 2:
            want = 1
    for k in range(m):
        a = acts[k]
        if DRAW0 <= a < DRAW0 + 8 and a - DRAW0 <= want and a - DRAW0 > fit:
            fit = a - DRAW0
    if fit >= 0:
        return DRAW0 + fit
    if ndraws and (not nswaps or low_draw >= 1):
        return DRAW0 + low_draw
    if nswaps:
        for k in range(m):
            a = acts[k]
            if a >= DISCARD0:
                kv = keep_value(v, a - DISCARD0)
                if pick < 0 or kv < top:
                    pick = a
                    top = kv
        return pick
    return acts[0]


cdef int heuristic_action(SU *s, Policy *p) noexcept nogil:
    """``HeuristicAgent.act`` for the deciding seat (its plan in ``p``); -1: the agent would
    draw at random and ``p`` has no generator for the seat."""
    cdef int acts[MAXACTS]
    cdef int m = legal(s, acts), seat = s.decider, nxt, k, a, pick, card, np, d = s.decision
    cdef int plan[16]
    cdef double kv, top
    cdef HV v
    cdef bitgen_t *rng
    while p.ppos[seat] < p.nplan[seat]:  # follow-ups of the card just played
        nxt = p.plan[seat][p.ppos[seat]]
        p.ppos[seat] += 1
        if among(nxt, acts, m):
            return nxt
    p.nplan[seat] = 0
    p.ppos[seat] = 0
    view_c(s, &v, seat)
    if d == D_DRAW:
        return choose_draw(s, &v, p, acts, m)
    if d == D_MAIN or d == D_RESPOND:
        return choose_play(s, &v, p, acts, m, d == D_MAIN)
    if d == D_DISCARD or d == D_TAKE:
        pick = -1
        top = 0.0
        for k in range(m):
            a = acts[k]
            kv = keep_value(&v, a - (DISCARD0 if d == D_DISCARD else TAKE0))
            if pick < 0 or (kv < top if d == D_DISCARD else kv > top):
                pick = a
                top = kv
        return pick
    if d == D_TARGET_CARD and v.nt:
        card = s.table[v.ti[v.nt - 1]].card
        best_response(s, &v, p.lift_weight, card, plan, &np)
        if np and among(plan[0], acts, m):
            memcpy(p.plan[seat], plan + 1, (np - 1) * sizeof(int))
            p.nplan[seat] = np - 1
            return plan[0]
    if d == D_TARGET_PLAYER and v.nt:
        card = s.table[v.ti[v.nt - 1]].card
        if KIND[card] != RESPONSE:
            best_play(s, &v, p.lift_weight, card, plan, &np)
            if np and among(plan[0], acts, m):
                return plan[0]
    rng = p.rngs[seat]
    if rng == NULL:
        return -1
    return acts[random_below(rng, m)]


cdef inline int policy_action_c(SU *s, Policy *p) noexcept nogil:
    cdef int acts[MAXACTS]
    cdef int m
    if p.policy == POLICY_HEURISTIC:
        return heuristic_action(s, p)
    m = legal(s, acts)
    if m == 0:
        return -1
    if p.use_mt:
        return acts[<int>(mt_random(p.mt) * m)]
    return acts[random_interval(p.pick, <uint64_t>(m - 1))]


cdef long long play_c(SU *w, bitgen_t *bg, Policy *p, int *rc) noexcept nogil:
    """Play ``w`` on with the policy (the engine's draws from ``bg``) to the game's end or
    ``p.max_decisions``; decisions made. ``rc`` -1: stuck (an engine bug), -2: the heuristic
    needed a generator it was not given."""
    cdef long long made = 0
    cdef int a
    rc[0] = 0
    while not w.over and made < p.max_decisions:
        a = policy_action_c(w, p)
        if a < 0:
            rc[0] = -2 if p.policy == POLICY_HEURISTIC else -1
            return made
        if apply_action(w, bg, a) < 0:
            rc[0] = -1
            return made
        made += 1
    return made


cdef inline void reset_plans(Policy *p) noexcept nogil:
    cdef int k
    for k in range(MAXP):
        p.nplan[k] = 0
        p.ppos[k] = 0


# ---- the Python entry points of the rollout policies --------------------------------------------
POLICIES_C = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}


cdef int policy_id(str policy) except -1:
    if policy not in POLICIES_C:
        raise ConfigError(f"suicidium rollouts: policy {policy!r}; allowed: "
                          f"{sorted(POLICIES_C)}")
    return POLICIES_C[policy]


cdef int set_options(Policy *p, str policy, double play_threshold, double draw_margin,
                     double lift_weight) except -1:
    for name, value in (("play_threshold", play_threshold), ("draw_margin", draw_margin),
                        ("lift_weight", lift_weight)):
        if value != value or value in (float("inf"), float("-inf")):
            raise ConfigError(f"suicidium rollouts: {name} {value!r}; allowed: a finite number")
    memset(p, 0, sizeof(Policy))
    p.policy = policy_id(policy)
    p.play_threshold = play_threshold
    p.draw_margin = draw_margin
    p.lift_weight = lift_weight
    p.max_decisions = 1LL << 62
    return 0


cdef list set_rngs(Policy *p, object rngs, int n, str where):
    """Each seat's generator into ``p`` (kept alive by the returned list); None: none."""
    cdef int k
    if rngs is None:
        return []
    rngs = list(rngs)
    if len(rngs) != n:
        raise ConfigError(f"suicidium {where}: {len(rngs)} generators for {n} seats; allowed: "
                          f"one numpy Generator per seat (each seat's agent's rng)")
    bits = []
    for k in range(n):
        if not isinstance(rngs[k], np.random.Generator):
            raise ConfigError(f"suicidium {where}: generator {k} is {type(rngs[k]).__name__}; "
                              f"allowed: a numpy Generator (np.random.default_rng(seed))")
        bits.append(rngs[k].bit_generator)
        p.rngs[k] = bitgen_of(rngs[k])
    return bits


cdef int check_states(list states) except -2:
    """The seat count shared by ``states`` (all native states), -1 when there are none."""
    cdef int n = -1
    for st in states:
        if type(st) is not NativeState:
            raise ConfigError(f"suicidium rollouts: {type(st).__name__} among the states; "
                              f"allowed: native states (NativeState.from_python converts one)")
        if n < 0:
            n = (<NativeState>st).s.n
        elif (<NativeState>st).s.n != n:
            raise ConfigError("suicidium rollouts: states of different seat counts; allowed: "
                              "one seat count per call")
    return n


cdef int rollout_failed(int rc) except -1:
    if rc == -2:
        raise ConfigError("suicidium rollouts: the heuristic drew at random and has no generator "
                          "for the seat; pass rngs (one numpy Generator per seat)")
    return stuck(rc)


def policy_action(state, str policy="heuristic", rng=None, double play_threshold=0.4,
                  double draw_margin=10, double lift_weight=0.3):
    """The action of a fresh C ``policy`` (no plan yet) for the deciding seat of a native or
    Python state (None: the game is over); its random choice, if any, from ``rng`` (the seat's
    agent's numpy Generator)."""
    cdef Policy p
    cdef SU s
    cdef SU *w
    cdef int a
    set_options(&p, policy, play_threshold, draw_margin, lift_weight)
    if type(state) is NativeState:
        w = &(<NativeState>state).s
    else:
        load_state(&s, state, True)
        w = &s
    if w.over:
        return None
    if p.policy == POLICY_RANDOM:
        raise ConfigError("suicidium policy_action: the random policy has no choice to check; "
                          "allowed: 'heuristic'")
    keep = set_rngs(&p, None if rng is None else [rng] * w.n, w.n, "policy_action")
    a = heuristic_action(w, &p)
    rollout_failed(-2 if a < 0 else 0)
    return a


cdef class RolloutPolicy:
    """A C rollout policy playing every seat, with its plans kept between calls (as one
    ``HeuristicAgent`` per seat keeps its own): ``act(state)`` is the deciding seat's action.
    ``rngs``: each seat's numpy Generator (its agent's ``rng``) for the random choices."""

    cdef Policy p
    cdef list _bits
    cdef int n

    def __init__(self, str policy, int num_players, rngs=None, double play_threshold=0.4,
                 double draw_margin=10, double lift_weight=0.3):
        check_range("num_players", num_players, 2, MAXP)
        set_options(&self.p, policy, play_threshold, draw_margin, lift_weight)
        if self.p.policy == POLICY_RANDOM:
            raise ConfigError("suicidium RolloutPolicy: 'random' keeps nothing between calls; "
                              "allowed: 'heuristic'")
        self.n = num_players
        self._bits = set_rngs(&self.p, rngs, num_players, "RolloutPolicy")

    def act(self, state):
        cdef SU s
        cdef SU *w
        cdef int a
        if type(state) is NativeState:
            w = &(<NativeState>state).s
        else:
            load_state(&s, state, True)
            w = &s
        if w.n != self.n:
            raise ConfigError(f"suicidium RolloutPolicy: a {w.n}-player state; allowed: "
                              f"{self.n} players")
        if w.over:
            return None
        a = heuristic_action(w, &self.p)
        rollout_failed(-2 if a < 0 else 0)
        return a

    def plans(self):
        """Every seat's follow-up actions still to play (the agents' ``plan``)."""
        return [[self.p.plan[k][j] for j in range(self.p.ppos[k], self.p.nplan[k])]
                for k in range(self.n)]


def rollout_batch(list states, str policy="random", horizon="game", seed=0, int rollouts=1,
                  start=None, double play_threshold=0.4, double draw_margin=10,
                  double lift_weight=0.3):
    """``rollouts`` playouts of every native state, all inside C, with ``policy`` (``random``
    or ``heuristic``) to the ``horizon``: ``"game"`` or ``"round"`` (suicidium has no rounds:
    the game's end, ``start`` must be None) or an int N >= 1 (N decisions). The random actions,
    the heuristic's random choices and the engine's draws come from
    ``np.random.default_rng(seed)``; the states and their generators are unchanged; plans start empty in every playout. Returns
    (the returns float64[len(states) * rollouts, seats], zeros for a playout cut before the end:
    suicidium's standing is 0; rollout r of state i in row i * rollouts + r; decisions played)."""
    cdef Policy p
    cdef int n = check_states(states), i, r, k, m = len(states), rc = 0
    cdef long long decisions = 0
    cdef SU w
    set_options(&p, policy, play_threshold, draw_margin, lift_weight)
    if start is not None:
        raise ConfigError(f"suicidium rollouts: start {start!r}; allowed: None (no rounds)")
    if isinstance(horizon, int) and not isinstance(horizon, bool) and horizon >= 1:
        p.max_decisions = horizon
    elif horizon != "game" and horizon != "round":
        raise ConfigError(f"suicidium rollouts: horizon {horizon!r}; allowed: 'game', 'round' "
                          f"(the game's end: no rounds) or a number of decisions >= 1")
    check_rollouts(rollouts)
    rng = np.random.default_rng(seed)
    cdef object bits = rng.bit_generator  # alive until the end
    cdef bitgen_t *bg = bitgen_of(rng)
    p.pick = bg
    for k in range(MAXP):
        p.rngs[k] = bg
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
                for r in range(rollouts):
                    w = (<SU *>ptrs[i])[0]
                    reset_plans(&p)
                    decisions += play_c(&w, bg, &p, &rc)
                    if rc < 0:
                        break
                    returns_c(&w, &vals[i * rollouts + r, 0])
                if rc < 0:
                    break
    finally:
        PyMem_Free(ptrs)
    rollout_failed(rc)
    return values, decisions


def play_out(list states, str policy="random", start=None, seeds=None, py=None, rngs=None,
             double play_threshold=0.4, double draw_margin=10, double lift_weight=0.3,
             long long max_decisions=20_000):
    """``Rollout.run`` of the search agents on every native state, in place and in C: each state
    is played on with ``policy`` to the game's end (suicidium has no rounds: ``start`` must be
    None), drawing the engine's randomness from its own generator, exactly as the Python engine
    would. The random policy's actions are ``legal[int(rng.random() * len(legal))]`` of Python's
    ``random.Random``: a fresh ``random.Random(seeds[i])`` per state, or the one ``py`` for all
    (consumed in order). The heuristic's random choices come from ``rngs`` (seat k's: its agent's
    numpy Generator, advanced as the agent would advance it); its plans start empty for every
    state (a Python agent's plan is empty between rollouts). So the values are those of the
    Python ``Rollout`` with the same generators. Returns values float64[len(states), seats]."""
    cdef Policy p
    cdef MT mt
    cdef NativeState st
    cdef int n = check_states(states), i, m = len(states), rc = 0
    set_options(&p, policy, play_threshold, draw_margin, lift_weight)
    if start is not None:
        raise ConfigError(f"suicidium play_out: start {start!r}; allowed: None (no rounds)")
    if max_decisions < 0:
        raise ConfigError(f"suicidium play_out: max_decisions {max_decisions}; allowed: >= 0")
    p.max_decisions = max_decisions
    p.use_mt = 1
    p.mt = &mt
    # the heuristic's check first: it and the random policy's never both apply
    if p.policy == POLICY_HEURISTIC and rngs is None:
        raise ConfigError("suicidium play_out: the heuristic needs rngs (one numpy Generator per "
                          "seat: each seat's agent's rng) for its random choices")
    check_seeds(p.policy == POLICY_RANDOM, seeds, py, m)
    values = np.zeros((m, n if n > 0 else 0), dtype=np.float64)
    if m == 0:
        return values
    keep = set_rngs(&p, rngs, n, "play_out") if p.policy == POLICY_HEURISTIC else []
    cdef double[:, ::1] vals = values
    saved = None
    if py is not None and p.policy == POLICY_RANDOM:
        saved = mt_load(&mt, py)
    try:
        for i in range(m):
            st = <NativeState>states[i]
            if seeds is not None and p.policy == POLICY_RANDOM:
                mt_seed(&mt, <uint64_t>seeds[i])
            with nogil:
                reset_plans(&p)
                play_c(&st.s, st.bg, &p, &rc)
                if rc == 0:
                    returns_c(&st.s, &vals[i, 0])
            if rc < 0:
                break
    finally:
        if saved is not None:
            mt_store(&mt, py, saved)
    rollout_failed(rc)
    return values
