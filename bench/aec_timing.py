"""The timed loops of ``bench/throughput.py`` (also used by ``tests/test_throughput.py``).

* :func:`aec_steps_per_second`: random legal play through an AEC env, the same loop for every env
  (PettingZoo's included): the plain loop (``reset(seed)`` once, ``reset()`` between games) or the
  seeded loop (``reset(seed)`` before every game);
* :func:`interleaved` / :func:`aec_ratio`: a game against texas_holdem_v4, texas, game, texas,
  game, ... so that both see the same machine load; :func:`best_ratio`, the same pairs on this
  thread's CPU time and the best run of each (what the CI guard reads on a loaded machine);
* :func:`encoder_cost`: the encoder's microseconds per observation and its share of a step;
* :func:`engine_decisions_per_second`: the bare engine;
* :func:`profile`: cProfile of one AEC loop.

Every timing reads ``CLOCK`` (wall time, or this thread's CPU time after ``use_clock("cpu")``).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardarena import envs  # noqa: E402

#: the clock of every timing here: wall time (``time.perf_counter``, the default) or, with
#: :func:`use_clock` ("cpu"), this thread's CPU time (``time.thread_time``): on a machine shared
#: with other jobs the CPU time leaves out the time the process waited for a core
CLOCK = [time.perf_counter]


def use_clock(kind: str) -> None:
    """Time with the wall clock (``"wall"``) or this thread's CPU time (``"cpu"``)."""
    CLOCK[0] = {"wall": time.perf_counter, "cpu": time.thread_time}[kind]


def aec_steps_per_second(
    make_env: Callable[[], Any], seconds: float, seed: int = 0, reseed: bool = False
) -> float:
    """AEC steps/s of random legal play (the loop of the module docstring) for ``seconds``.

    ``reseed=False`` is the plain (training) loop: ``reset(seed)`` once, then ``reset()`` between
    games; ``reseed=True`` the seeded loop: ``reset(seed)`` before every game (texas_holdem_v4
    rebuilds its rlcard env on a seeded reset, which halves its speed)."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    games = 0
    start = CLOCK[0]()
    deadline = start + seconds
    while True:
        for _ in range(256):
            if not env.agents:
                games += 1
                if reseed:
                    env.reset(seed=seed + games)
                else:
                    env.reset()
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        if CLOCK[0]() >= deadline:
            break
    return steps / (CLOCK[0]() - start)


def timer_overhead(batches: int = 20, rounds: int = 1_000) -> tuple[float, float]:
    """(seconds a timed interval of :func:`encoder_cost` holds besides the call it times, seconds
    the timing adds to a loop step): the same wrapper around a function that does nothing, the
    smallest of ``batches`` batches (a batch the machine interrupted reads high).

    One read of this thread's CPU time costs about 0.6-0.85 us on the reference machine (a system
    call), a wall-clock read about 0.07 us; about one read falls inside each timed interval."""
    clock = CLOCK[0]
    spent = [0.0]

    def nothing(state: Any, seat: int) -> None:
        return None

    def timed(state: Any, seat: int) -> None:
        t0 = clock()
        out = nothing(state, seat)
        spent[0] += clock() - t0
        return out

    inside = added = float("inf")
    for _ in range(batches):
        start = clock()
        for _ in range(rounds):
            nothing(None, 0)
        bare = clock() - start
        spent[0] = 0.0
        start = clock()
        for _ in range(rounds):
            timed(None, 0)
        wrapped = clock() - start
        inside = min(inside, (spent[0] - bare) / rounds)
        added = min(added, (wrapped - bare) / rounds)
    return max(inside, 0.0), max(added, 0.0)


def encoder_cost(game: str, num_players: int, seconds: float) -> tuple[float, float]:
    """(microseconds per ``encode`` call, its share of the plain loop's time): the plain loop of
    ``game`` with its encoder wrapped in a timer (a separate run from the timed ratios). The
    timer's own cost (:func:`timer_overhead`, measured just before) is taken out of both."""
    import dataclasses

    spent = [0.0, 0]
    clock = CLOCK[0]

    def make_env() -> Any:
        env = envs.make(game, num_players=num_players)
        encode = env.spec.encode

        def timed(state: Any, seat: int) -> np.ndarray:
            t0 = clock()
            out = encode(state, seat)
            spent[0] += clock() - t0
            spent[1] += 1
            return out

        env.spec = dataclasses.replace(env.spec, encode=timed)
        env._table.encode = timed  # the table binds its encoder once (envs/core/table.py)
        return env

    inside, added = timer_overhead()
    start = clock()
    aec_steps_per_second(make_env, seconds)
    took = clock() - start
    calls = max(spent[1], 1)
    encoding = spent[0] - inside * spent[1]
    return 1e6 * encoding / calls, encoding / (took - added * spent[1])


def engine_decisions_per_second(
    game: str, num_players: int, seconds: float, seed: int = 0
) -> float:
    """Decisions/s of random legal play on the bare engine (``legal_actions`` + ``apply``)."""
    engine = envs.get_spec(game).make_engine(num_players=num_players)
    rng = np.random.default_rng(seed)
    # the random choices come from a block of uniforms drawn at once: one rng.integers call per
    # decision (about 1.2 us) would be a third of the time measured, and none of it the engine's
    block = 4096
    uniforms = iter(())
    decisions = 0
    g = 0
    start = CLOCK[0]()
    deadline = start + seconds
    while CLOCK[0]() < deadline:
        state = engine.new_game(np.random.default_rng(seed + g))
        g += 1
        is_over, legal_actions, apply = engine.is_over, engine.legal_actions, engine.apply
        while not is_over(state):
            legal = legal_actions(state)
            u = next(uniforms, None)
            if u is None:
                uniforms = iter(rng.random(block).tolist())
                u = next(uniforms)
            apply(state, legal[int(u * len(legal))])
            decisions += 1
    return decisions / (CLOCK[0]() - start)


def median_of(fn: Callable[[], float], repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def player_counts(game: str) -> list[int]:
    """2 (or the minimum when above 2; plus the minimum when below 2, e.g. a solitaire), 4 (or
    the nearest allowed) and the maximum."""
    cls = envs.get_spec(game).engine_cls
    low, high = cls.min_players, cls.max_players
    return sorted({low, max(2, low) if high >= 2 else low, min(max(4, low), high), high})


def texas_env() -> Any:
    from pettingzoo.classic import texas_holdem_v4

    return texas_holdem_v4.env()


def connect_four_env() -> Any:
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def interleaved(
    make_env: Callable[[], Any], seconds: float, repeats: int, reseed: bool = False
) -> tuple[list[float], list[float]]:
    """(env steps/s, texas_holdem_v4 steps/s) of ``repeats`` interleaved pairs, both in the plain
    loop (``reseed=False``) or both in the seeded loop."""
    ours, peer = [], []
    for _ in range(repeats):
        peer.append(aec_steps_per_second(texas_env, seconds, reseed=reseed))
        ours.append(aec_steps_per_second(make_env, seconds, reseed=reseed))
    return ours, peer


def aec_ratio(
    game: str, num_players: int, seconds: float, repeats: int = 3, reseed: bool = False
) -> float:
    """AEC steps/s of ``game`` over texas_holdem_v4's, measured interleaved (A B A B ...) so
    that both see the same machine load; the median of ``repeats`` pairs. The plain loop by
    default, the seeded loop with ``reseed=True``."""
    ours, peer = interleaved(
        lambda: envs.make(game, num_players=num_players), seconds, repeats, reseed
    )
    return statistics.median(o / p for o, p in zip(ours, peer, strict=True))


def best_ratio(
    game: str, num_players: int, seconds: float, runs: int = 3, reseed: bool = False
) -> float:
    """The best of ``runs`` plain-loop (or seeded, ``reseed=True``) runs of ``game`` over the best
    of ``runs`` runs of texas_holdem_v4, interleaved (texas, game, texas, game, ...) and timed on
    this thread's CPU time, whatever clock ``use_clock`` set.

    On a machine shared with other jobs a run can only be slowed (a wait for a core is not CPU
    time, but a neighbour's cache traffic or a descheduled moment still is), so the fastest run of
    each env is its closest to the unloaded speed, and the two bests seen in the same minutes are
    what a regression guard compares: a median of pairs moves with the load, a best much less."""
    saved = CLOCK[0]
    CLOCK[0] = time.thread_time
    try:
        ours, peer = interleaved(
            lambda: envs.make(game, num_players=num_players), seconds, runs, reseed
        )
    finally:
        CLOCK[0] = saved
    return max(ours) / max(peer)


def profile(target: str, seconds: float, lines: int = 25) -> None:
    """cProfile of the AEC loop of ``target`` ("game/players"), sorted by own time."""
    import cProfile
    import pstats

    game, _, count = target.partition("/")
    n = int(count) if count else None
    options = {"num_players": n} if n else {}
    profiler = cProfile.Profile()
    profiler.enable()
    rate = aec_steps_per_second(lambda: envs.make(game, **options), seconds)
    profiler.disable()
    print(f"{target}: {rate:.0f} AEC steps/s under the profiler")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(lines)
