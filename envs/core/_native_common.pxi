# The random-number plumbing that every game's native core shares, written once.
#
# Each ``envs/<game>/_native.pyx`` pulls this file in, right after its own imports and before its
# first type or function (the MT struct and the fused card type must be declared before the game's
# code uses them), with the game's name, which the errors raised here start with:
#     cdef str GAME = "flip6"
#     include "../core/_native_common.pxi"
# (the path is relative to the .pyx, so setup.py needs no include path). ``include`` pastes the text into the
# game's module, so every function here is compiled inside each game's extension, as static C
# code, exactly as when each .pyx carried its own copy: no C calls between modules, and the same
# arithmetic. (A .pxd could not hold the ``def`` function below, and its cimport would need the
# installed name cardarena.envs.core, which the checkout, with envs/ at the top level, lacks.)
#
# What is here:
# - numpy's ``random_interval`` and ``Generator.permutation`` (``shuffle``) on a numpy bit
#   generator (``bitgen_t``), and ``bitgen_of`` to reach the bit generator of an
#   ``np.random.Generator``;
# - Python's ``random.Random`` (CPython's Mersenne Twister) in C for the random rollout policy:
#   ``MT``, ``mt_seed``, ``mt_random``, and ``mt_load`` / ``mt_store`` to move the state of a
#   ``random.Random`` in and out; ``_python_randoms`` exposes it to the tests.

from cpython.pycapsule cimport PyCapsule_GetPointer
from cpython.tuple cimport PyTuple_GET_ITEM
from libc.stdint cimport int8_t, int16_t, uint8_t, uint32_t, uint64_t

from numpy.random cimport bitgen_t

from cardarena.envs.core.engine import ConfigError


# ---- numpy's random_interval and permutation (numpy/random/src/distributions) ----------------
cdef inline uint64_t random_interval(bitgen_t *bg, uint64_t mx) noexcept nogil:
    """A uniform integer in [0, mx], drawn exactly as numpy's ``random_interval``."""
    cdef uint64_t mask, value
    if mx == 0:
        return 0
    mask = mx
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    if mx <= <uint64_t>0xFFFFFFFFUL:
        while True:
            value = bg.next_uint32(bg.state) & mask
            if value <= mx:
                return value
    while True:
        value = bg.next_uint64(bg.state) & mask
        if value <= mx:
            return value


#: the element types of the games' card arrays that ``shuffle`` reorders
ctypedef fused card_t:
    int8_t
    uint8_t
    int16_t


cdef inline void shuffle(bitgen_t *bg, card_t *data, int n) noexcept nogil:
    """``data`` reordered as ``[data[i] for i in rng.permutation(n)]`` (numpy's ``_shuffle_raw``
    on ``arange(n)``: for i from n-1 down to 1, swap i with random_interval(i))."""
    cdef int i, j
    cdef card_t t
    for i in range(n - 1, 0, -1):
        j = <int>random_interval(bg, <uint64_t>i)
        t = data[i]
        data[i] = data[j]
        data[j] = t


cdef inline bitgen_t *bitgen_of(object rng) except NULL:
    capsule = rng.bit_generator.capsule
    return <bitgen_t *>PyCapsule_GetPointer(capsule, "BitGenerator")


# ---- Python's random.Random (CPython's _randommodule.c: MT19937, random() in 53 bits) ----------
cdef enum:
    MT_N = 624
    MT_M = 397


cdef struct MT:
    uint32_t mt[624]
    int index


cdef void mt_init_genrand(MT *r, uint32_t s) noexcept nogil:
    cdef int i
    r.mt[0] = s
    for i in range(1, MT_N):
        r.mt[i] = <uint32_t>(<uint32_t>1812433253 * (r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) + <uint32_t>i)
    r.index = MT_N


cdef void mt_seed(MT *r, uint64_t seed) noexcept nogil:
    """``random.Random(seed)`` for 0 <= seed < 2**64: ``init_by_array`` of its 32-bit words."""
    cdef uint32_t key[2]
    cdef int length = 2 if seed >> 32 else 1, i = 1, j = 0, k
    key[0] = <uint32_t>(seed & 0xFFFFFFFFUL)
    key[1] = <uint32_t>(seed >> 32)
    mt_init_genrand(r, <uint32_t>19650218)
    k = MT_N if MT_N > length else length
    while k:
        r.mt[i] = <uint32_t>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * <uint32_t>1664525))
                             + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        r.mt[i] = <uint32_t>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * <uint32_t>1566083941))
                             - <uint32_t>i)
        i += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        k -= 1
    r.mt[0] = <uint32_t>0x80000000UL


cdef uint32_t mt_next(MT *r) noexcept nogil:
    cdef uint32_t y
    cdef uint32_t *mt = r.mt
    cdef int kk
    if r.index >= MT_N:
        for kk in range(MT_N - MT_M):
            y = (mt[kk] & <uint32_t>0x80000000UL) | (mt[kk + 1] & <uint32_t>0x7FFFFFFFUL)
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ (<uint32_t>0x9908B0DFUL if y & 1 else 0)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (mt[kk] & <uint32_t>0x80000000UL) | (mt[kk + 1] & <uint32_t>0x7FFFFFFFUL)
            mt[kk] = mt[kk + MT_M - MT_N] ^ (y >> 1) ^ (<uint32_t>0x9908B0DFUL if y & 1 else 0)
        y = (mt[MT_N - 1] & <uint32_t>0x80000000UL) | (mt[0] & <uint32_t>0x7FFFFFFFUL)
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (<uint32_t>0x9908B0DFUL if y & 1 else 0)
        r.index = 0
    y = mt[r.index]
    r.index += 1
    y ^= y >> 11
    y ^= (y << 7) & <uint32_t>0x9D2C5680UL
    y ^= (y << 15) & <uint32_t>0xEFC60000UL
    y ^= y >> 18
    return y


cdef inline double mt_random(MT *r) noexcept nogil:
    """``random.random()``."""
    cdef uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef object mt_load(MT *r, object py):
    """The state of a ``random.Random`` (``getstate``); returns what ``mt_store`` puts back
    around it (the version and the Gaussian cache)."""
    cdef tuple state = py.getstate()
    cdef tuple internal = state[1]
    cdef int k
    if len(internal) != MT_N + 1:
        raise ConfigError(f"{GAME} rollouts: a random.Random state of {len(internal)} words; "
                          f"allowed: {MT_N + 1} (CPython's Mersenne Twister)")
    for k in range(MT_N):
        r.mt[k] = <uint32_t>(<object>PyTuple_GET_ITEM(internal, k))
    r.index = <int>(<object>PyTuple_GET_ITEM(internal, MT_N))
    return state


cdef int mt_store(MT *r, object py, tuple state) except -1:
    """Back into the ``random.Random`` (``setstate``)."""
    cdef list words = [None] * (MT_N + 1)
    cdef int k
    for k in range(MT_N):
        words[k] = r.mt[k]
    words[MT_N] = r.index
    py.setstate((state[0], tuple(words), state[2]))
    return 0


def _python_randoms(seed, int count, py=None):
    """``count`` values of ``random.Random(seed).random()`` (or of ``py``, advanced) from the C
    Mersenne Twister of the random rollout policy (for the tests)."""
    cdef MT mt
    saved = None
    if py is not None:
        saved = mt_load(&mt, py)
    else:
        mt_seed(&mt, <uint64_t>seed)
    out = [mt_random(&mt) for _ in range(count)]
    if saved is not None:
        mt_store(&mt, py, saved)
    return out


# ---- the checks the rollout entry points (rollout_batch, play_out) share ------------------------
cdef inline int round_horizon(object horizon, object start, int *to_round, int *start_at,
                              long long *max_decisions) except -1:
    """``rollout_batch``'s ``horizon`` in a game of rounds (inline: a game without rounds, which
    has its own horizons, compiles it without an unused-function warning): ``"game"``, ``"round"`` (``to_round``
    1; ``start_at`` the round ``start`` when one is given, else left to the caller: each state's
    round in progress) or an int N >= 1 (``max_decisions`` N; else no limit)."""
    to_round[0] = 0
    start_at[0] = 0
    max_decisions[0] = 1LL << 62
    if horizon == "round":
        to_round[0] = 1
        if start is not None:
            start_at[0] = start
    elif isinstance(horizon, int) and not isinstance(horizon, bool) and horizon >= 1:
        max_decisions[0] = horizon
    elif horizon != "game":
        raise ConfigError(f"{GAME} rollouts: horizon {horizon!r}; allowed: 'game', 'round' or a "
                          f"number of decisions >= 1")
    return 0


cdef int check_rollouts(int rollouts) except -1:
    """``rollout_batch``'s playouts per state: 1 or more."""
    if rollouts < 1:
        raise ConfigError(f"{GAME} rollouts: rollouts {rollouts}; allowed: 1 or more")
    return 0


cdef int check_seeds(bint random, object seeds, object py, int m) except -1:
    """``play_out``'s Mersenne Twisters for ``m`` states: with the random policy (``random``)
    either ``seeds`` (one per state) or ``py``, not both; ``seeds``, when given, one per state."""
    if random and (seeds is None) == (py is None):
        raise ConfigError(f"{GAME} play_out: the random policy needs seeds (one per state) or py "
                          f"(one random.Random), exactly one of them")
    if seeds is not None and len(seeds) != m:
        raise ConfigError(f"{GAME} play_out: {len(seeds)} seeds for {m} states; allowed: one each")
    return 0
