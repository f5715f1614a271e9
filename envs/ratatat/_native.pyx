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

Built optionally by ``setup.py``; ``native.py`` is the Python side (``NATIVE_AVAILABLE``).
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, uint64_t
from libc.string cimport memcpy, memmove, memset

cimport numpy as cnp
from numpy.random cimport bitgen_t

import numpy as np

from cardarena.envs.core.engine import ConfigError, copy_generator
from cardarena.envs.ratatat.rules import RatatatState

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


# ---- Python state <-> struct -------------------------------------------------------------------
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


cdef inline bitgen_t *bitgen_of(object rng) except NULL:
    capsule = rng.bit_generator.capsule
    return <bitgen_t *>PyCapsule_GetPointer(capsule, "BitGenerator")


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
    """A ratatat game state on a C struct, with the numpy generator it draws from."""

    cdef R s
    cdef object _rng
    cdef object _bits  # keeps the bit generator (owner of the bitgen_t) alive
    cdef bitgen_t *bg
    cdef list _round_scores

    cdef int _set_rng(self, object rng) except -1:
        self._rng = rng
        self._bits = rng.bit_generator
        self.bg = bitgen_of(rng)
        return 0

    @staticmethod
    def from_python(state, rng=None):
        """The native copy of a ``RatatatState`` (drawing from ``rng``, default its own
        generator, shared)."""
        cdef NativeState st = NativeState.__new__(NativeState)
        load_state(&st.s, state, True)
        st._round_scores = [list(r) for r in state.round_scores]
        st._set_rng(state.rng if rng is None else rng)
        return st

    def encode(self, int seat):
        """The observation of ``seat`` (as ``encoding.encode_python``)."""
        cdef cnp.ndarray out = new_obs()
        check_seat(seat, self.s.n)
        encode_c(&self.s, seat, <float *>cnp.PyArray_DATA(out))
        return out
