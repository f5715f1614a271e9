"""Throughput regression check: every game's AEC loop through ``env()`` stays at least four times
as fast as PettingZoo's texas_holdem_v4 in the plain (training) loop.

The plain loop is ``reset(seed)`` once and ``reset()`` between games (bench/aec_timing.py's
``aec_steps_per_second``); texas_holdem_v4 rebuilds its rlcard env on every *seeded* reset, which
halves its speed, so a seeded loop would hide a regression like sevn's (about 5x down to 2.5x in
the seeded loop, 1.4x in the plain one) behind a flattering ratio.

The bar is 4x for a game on its native core (a compiled engine and encoder: ``native_engine`` in
its manifest, the extension built, ``CARDARENA_CORE`` not ``python``), with no per-case floor
below it. A game still on the Python core (no native engine yet, or it is not built or switched
off) is held at its manifest's ``speed_floors`` instead where it names the player count (its
Python encoder costs 10-20 us per observation: 2.4-3.4x texas on a loaded 2-core machine,
2026-12-02), so that a regression like sevn's (a halving) still fails there too; the floors are
read for the Python core only, so a game's floors may stay in its manifest as its fallback's.

The ratio is measured robustly for a loaded 2-core machine: both envs in this process, interleaved
(texas, game, texas, game, ...), on this thread's CPU time, the best run of each over the best run
of the other (``bench/aec_timing.py``'s ``best_ratio``: a load can only slow a run, so the best
runs seen in the same minutes are the ones to compare). A ratio under the bar is measured once
more, with more and longer runs, before the test fails. Timing-sensitive, so these tests are marked
``serial`` and run alone, after the parallel part (``make test``: ``pytest -n 2 -m "not serial"``,
then ``pytest -m serial -p no:xdist``). The latest full figures are in bench/README.md.
"""

from __future__ import annotations

import pytest

from cardarena import envs

pytest.importorskip("rlcard")  # texas_holdem_v4 needs it (a dev dependency)

from bench.aec_timing import best_ratio  # noqa: E402

#: the bar: plain-loop AEC steps/s of a game over texas_holdem_v4's, same loop, same run
MIN_RATIO = 4.0
#: the floors of the cases on the Python core (``speed_floors`` of each game's manifest); a game on
#: its native core is held at MIN_RATIO whatever its manifest says. Delete a game's floors once
#: its Python core is at the bar too, or once it cannot run without its native core.
FLOORS = {
    (name, n): floor
    for name in envs.names()
    for n, floor in envs.get_spec(name).speed_floors.items()
}
#: seconds per timed run and interleaved runs of each env of the quick measurement, and of the
#: confirmation; at most 10 x 2 x (3 x 0.25 + 5 x 0.5) s when every case needs confirming
QUICK = (0.25, 3)
CONFIRM = (0.5, 5)


def on_native_core(name: str) -> bool:
    """Whether ``envs.make(name)`` plays on the game's native engine (and so its compiled
    encoder): ``native_engine`` in the manifest, the extension built, ``CARDARENA_CORE`` not
    ``python``."""
    spec = envs.get_spec(name)
    return spec.engine_class() is not spec.engine_cls


def bar(name: str, n: int) -> float:
    """The least plain-loop ratio to texas_holdem_v4 that ``name`` at ``n`` players must reach:
    MIN_RATIO on the native core; on the Python core its manifest's floor, if it names one."""
    if on_native_core(name):
        return MIN_RATIO
    return FLOORS.get((name, n), MIN_RATIO)


def _counts(name: str) -> list[int]:
    """4 players (or the nearest allowed) and the maximum: the slowest encodings."""
    cls = envs.get_spec(name).engine_cls
    return sorted({min(max(4, cls.min_players), cls.max_players), cls.max_players})


CASES = [pytest.param(name, n, id=f"{name}-{n}p") for name in envs.names() for n in _counts(name)]


@pytest.mark.serial
@pytest.mark.parametrize(("name", "n"), CASES)
def test_plain_loop_at_least_four_times_texas_holdem(name: str, n: int) -> None:
    want = bar(name, n)
    ratio = best_ratio(name, n, *QUICK)
    if ratio < want:  # one slow window on a busy machine is not a regression: look longer
        ratio = max(ratio, best_ratio(name, n, *CONFIRM))
    core = "native" if on_native_core(name) else "python"
    assert ratio >= want, (
        f"{name} {n}p ({core} core): plain-loop AEC steps/s are only {ratio:.2f}x "
        f"texas_holdem_v4's (want >= {want}); profile it with: "
        f"python bench/throughput.py --clock cpu --profile {name}/{n}"
    )


# ---- the bar itself (quick, not timed: these run in the parallel part) --------------------------
def test_a_game_on_its_native_core_is_held_at_the_bar_whatever_its_floors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardarena.envs.flip6 import native

    if not native.NATIVE_BUILT:
        pytest.skip("flip6's native core is not built")
    monkeypatch.delenv("CARDARENA_CORE", raising=False)
    assert FLOORS[("flip6", 4)] < MIN_RATIO  # the manifest keeps a floor for its Python core...
    assert on_native_core("flip6")
    assert bar("flip6", 4) == bar("flip6", 6) == MIN_RATIO  # ...which the native core ignores


def test_a_game_on_the_python_core_is_held_at_its_floors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDARENA_CORE", "python")
    for name in envs.names():
        assert not on_native_core(name)
        for n in _counts(name):
            assert bar(name, n) == FLOORS.get((name, n), MIN_RATIO) <= MIN_RATIO
    # a game without a native engine is on Python whatever the environment says
    monkeypatch.delenv("CARDARENA_CORE")
    for name in envs.names():
        if not envs.get_spec(name).native_engine:
            assert not on_native_core(name)
            assert bar(name, 4) == FLOORS.get((name, 4), MIN_RATIO)
