"""Peak resident memory of random games in a fresh process (``bench/throughput.py --rss-games``).

The child reads its own high-water mark (``VmHWM``) after the imports and a reset and at the end;
the long games (sevn, suicidium) run last.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardarena import envs  # noqa: E402

#: games whose random games are long: their peak-RSS runs go last
LONG_GAMES = ("sevn", "suicidium")


_RSS_SCRIPT = """
import resource, sys
import numpy as np
from cardarena import envs

def peak_kib():
    # VmHWM: this process's own high-water mark. ru_maxrss is not: on Linux it keeps the
    # parent's resident size across fork + exec, so every child would report the bench's own.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

game, n, games, loop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = np.random.default_rng(0)
if loop == "aec":
    env = envs.make(game, num_players=n)
    env.reset(seed=0)
    base = peak_kib()
    for g in range(games):
        env.reset(seed=g)
        while env.agents:
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
else:
    engine = envs.get_spec(game).make_engine(num_players=n)
    base = peak_kib()
    for g in range(games):
        state = engine.new_game(np.random.default_rng(g))
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
print(base, peak_kib())
"""


def peak_rss(game: str, num_players: int, games: int, loop: str = "aec") -> tuple[float, float]:
    """(RSS after the imports and one reset, peak RSS) in MiB of a fresh process playing
    ``games`` random games through the AEC loop (``loop="aec"``) or the bare engine."""
    out = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, game, str(num_players), str(games), loop],
        check=True,
        capture_output=True,
        text=True,
        cwd=str(ROOT),
    )
    base, peak = out.stdout.strip().splitlines()[-1].split()
    return int(base) / 1024.0, int(peak) / 1024.0


def peak_rss_mib(game: str, num_players: int, games: int, loop: str = "aec") -> float:
    """Peak resident memory of a fresh process playing ``games`` random games (MiB)."""
    return peak_rss(game, num_players, games, loop)[1]


def rss_section(
    games: list[str], rss_games: int, rss_players: int, loop: str, into: dict[str, Any]
) -> None:
    """Peak RSS of ``rss_games`` random games per game at ``rss_players`` (or the nearest allowed)
    players through the ``loop`` ("aec" or "engine"), printed and stored ``into`` by game/players;
    the long games last."""
    print(f"peak RSS, {rss_games} random games through the {loop} loop:")
    cls_of = {g: envs.get_spec(g).engine_cls for g in games}
    ordered = sorted(games, key=lambda g: (g in LONG_GAMES, g))
    for game in ordered:
        cls = cls_of[game]
        n = min(max(rss_players, cls.min_players), cls.max_players)
        start = time.perf_counter()
        base, peak = peak_rss(game, n, rss_games, loop)
        took = time.perf_counter() - start
        into[f"{game}/{n}p"] = {
            "games": rss_games,
            "loop": loop,
            "rss_after_reset_mib": base,
            "peak_rss_mib": peak,
            "seconds": took,
        }
        print(
            f"{f'{game} {n}p':<28} peak {peak:6.1f} MiB (after imports and a reset "
            f"{base:6.1f} MiB)  {took:6.0f} s",
            flush=True,
        )
