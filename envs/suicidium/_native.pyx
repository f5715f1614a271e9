# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""Suicidium on a C struct: the native core (the state as a struct, the compiled encoder).

The encoder computes every float as ``encoding.py`` (``encode_python``) does: double precision
from the same integers, rounded to float32 at the end, so the observation is byte-identical
(``tests/test_native_suicidium.py`` compares the two on every seat of every step of random games
of every player count and option set).

The card tables (kind, effect, amount, targeting per catalogue index) are read from ``rules.py``
at import, so the catalogue stays data; the constants that name rules' ints are checked against
``rules.py`` by the test.

Built optionally by ``setup.py``; ``native.py`` is the Python side (``NATIVE_BUILT``).
"""

from libc.stdint cimport int8_t, int16_t
from libc.string cimport memset

cimport numpy as cnp

from cardarena.envs.core.engine import ConfigError
from cardarena.envs.suicidium import encoding_layout as _layout
from cardarena.envs.suicidium import rules as _rules

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
    ST_END_TURN = 8
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

OBS_SIZE_C = OBS_SIZE
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
    ``SuicidiumState``."""
    cdef SU s
    cdef cnp.ndarray out = new_obs()
    load_state(&s, state, False)
    check_seat(seat, s.n)
    encode_c(&s, seat, <float *>cnp.PyArray_DATA(out))
    return out
