"""Throughput regression check (issue 9): every game's AEC loop through ``env()`` stays at least
twice as fast as PettingZoo's texas_holdem_v4.

The ratio is measured in one short run, the two envs interleaved (``bench/throughput.py``'s
``aec_ratio``: texas, game, texas, game, ... and the median of the pairs), so the machine's speed
and load cancel out. A ratio under the bar is measured once more, longer, before the test fails.
Timing-sensitive, so these tests are marked ``serial`` and run alone, after the parallel part
(``make test``: ``pytest -n 2 -m "not serial"``, then ``pytest -m serial -p no:xdist``).
The latest full figures (about 4.5-6x) are in bench/README.md.
"""

from __future__ import annotations

import pytest

import envs

pytest.importorskip("rlcard")  # texas_holdem_v4 needs it (a dev dependency)

from bench.throughput import aec_ratio  # noqa: E402

#: the bar: AEC steps/s of a game over texas_holdem_v4's, same loop, same run
MIN_RATIO = 2.0
#: seconds per timed run and interleaved pairs of the quick measurement, and of the confirmation
QUICK = (0.3, 3)
CONFIRM = (1.0, 3)


def _counts(name: str) -> list[int]:
    """4 players (or the nearest allowed) and the maximum: the slowest encodings."""
    cls = envs.get_spec(name).engine_cls
    return sorted({min(max(4, cls.min_players), cls.max_players), cls.max_players})


CASES = [pytest.param(name, n, id=f"{name}-{n}p") for name in envs.names() for n in _counts(name)]


@pytest.mark.serial
@pytest.mark.parametrize(("name", "n"), CASES)
def test_aec_steps_per_second_at_least_twice_texas_holdem(name: str, n: int) -> None:
    ratio = aec_ratio(name, n, *QUICK)
    if ratio < MIN_RATIO:  # one slow window on a busy machine is not a regression: look longer
        ratio = aec_ratio(name, n, *CONFIRM)
    assert ratio >= MIN_RATIO, (
        f"{name} {n}p: AEC steps/s are only {ratio:.2f}x texas_holdem_v4's (want >= {MIN_RATIO}); "
        f"profile it with: python bench/throughput.py --profile {name}/{n}"
    )
