"""Record the golden playthroughs: ``python -m tests.golden.record [--game G ...] [--prune]``.

Each case below is one game (options, deal seed, agent per seat) played by scripted and random
agents and written as a replay (:mod:`agents.tools.replay`) to ``tests/golden/<game>/<name>.jsonl``.
``tests/test_golden.py`` replays every file through the engine; after an intended rules change,
re-record the game's files with this script and review the diff (``git diff --stat`` shows which
games changed). Cases cover every player count and the options that change the rules:

=========  =========================================================================================
game       cases
=========  =========================================================================================
flip6      3-6 players x 5 deals; target_score 60 and 30; every dealer
sevn       2-8 players x 3 deals; target_score 250 and 100; every dealer
ratatat    2-6 players x memory perfect_recall / none / seer; num_rounds 1, max_turns cap, dealers
thegame    1-5 players x signals off / on x 2 deals; min_cards_when_empty 2; first_player
suicidium  2-5 players x SURVIVE / DEPRESSION x base / expansion deck; extra 4-player deals
=========  =========================================================================================
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

GOLDEN_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case:
    game: str
    seed: int
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        tags = [f"p{len(self.players)}"]
        for key, value in sorted(self.options.items()):
            if key != "num_players":
                tags.append(f"{key}-{value}".replace("_", "").lower())
        return "_".join([*tags, f"s{self.seed}"])

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / self.game / f"{self.name}.jsonl"

    @property
    def engine_options(self) -> dict[str, Any]:
        return {**self.options, "num_players": len(self.players)}


def _lineup(agents: list[str], n: int, shift: int) -> tuple[str, ...]:
    return tuple(agents[(shift + i) % len(agents)] for i in range(n))


def _cases() -> list[Case]:
    cases: list[Case] = []
    flip6 = ["ev", "threshold", "random"]
    for n in range(3, 7):
        for k in range(5):
            opts: dict[str, Any] = {"first_dealer": k % n}
            if k == 4:
                opts["target_score"] = 30
            cases.append(Case("flip6", 100 * n + k, _lineup(flip6, n, k), opts))
    sevn = ["ev", "threshold", "random"]
    for n in range(2, 9):
        for k in range(3):
            opts = {"first_dealer": k % n, "target_score": 100 if k == 2 else 250}
            cases.append(Case("sevn", 100 * n + k, _lineup(sevn, n, k), opts))
    ratatat = ["tracker", "greedy", "random"]
    for n in range(2, 7):
        for k, memory in enumerate(("perfect_recall", "none", "seer")):
            opts = {"memory": memory}
            if n >= 4:
                opts["num_rounds"] = 2  # keeps the bigger tables' files short
            cases.append(Case("ratatat", 100 * n + k, _lineup(ratatat, n, k), opts))
    cases += [
        Case("ratatat", 901, ("random", "random", "tracker"), {"max_turns": 6}),  # R12 cap
        Case("ratatat", 902, ("greedy", "tracker"), {"num_rounds": 1, "first_dealer": 1}),
        Case("ratatat", 903, ("tracker",) * 4, {"num_rounds": 1, "memory": "none"}),
        Case("ratatat", 904, ("random",) * 5, {"num_rounds": 1, "first_dealer": 3}),
        Case("ratatat", 905, ("tracker", "random"), {"memory": "seer", "max_turns": 10}),
    ]
    thegame = ["planner", "greedy", "random"]
    for n in range(1, 6):
        for signals in (False, True):
            for k in range(2):
                opts = {"signals": signals}
                if k == 1 and n > 1:
                    opts["first_player"] = n - 1
                shift = k + int(signals)
                cases.append(
                    Case("thegame", 100 * n + 10 * signals + k, _lineup(thegame, n, shift), opts)
                )
    cases += [
        Case("thegame", 901, ("planner", "planner"), {"min_cards_when_empty": 2}),
        Case(
            "thegame",
            902,
            ("greedy", "random", "planner"),
            {"min_cards_when_empty": 2, "signals": True},
        ),
    ]
    suicidium = ["heuristic", "random"]
    for n in range(2, 6):
        for mode in ("SURVIVE", "DEPRESSION"):
            for expansion in (False, True):
                shift = n + int(expansion)
                opts = {"mode": mode, "expansion": expansion}
                seed = 100 * n + 10 * (mode == "DEPRESSION") + expansion
                cases.append(Case("suicidium", seed, _lineup(suicidium, n, shift), opts))
    for k in range(4):
        mode = ("SURVIVE", "DEPRESSION")[k % 2]
        cases.append(Case("suicidium", 900 + k, _lineup(suicidium, 4, k), {"mode": mode}))
    return cases


CASES: list[Case] = _cases()


def play(case: Case) -> list[int]:
    """The actions of the case's game, played by its agents (seeded by deal seed and seat)."""
    from cardarena.agents import make_agent
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(case.game)
    engine = spec.make_engine(**case.engine_options)
    state = engine.new_game(np.random.default_rng(case.seed))
    seats = []
    for i, name in enumerate(case.players):
        agent = make_agent(case.game, name, seed=case.seed * 1000 + i)
        agent.reset(case.seed * 1000 + i)
        seats.append(agent)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    actions = []
    while not engine.is_over(state):
        seat = engine.current_player(state)
        mask[:] = 0
        mask[engine.legal_actions(state)] = 1
        action = int(seats[seat].act(spec.encode(state, seat), mask, spec.view(state, seat)))
        engine.apply(state, action, seat)
        actions.append(action)
    return actions


def record(case: Case) -> Path:
    from cardarena.envs.core.replay import record_game

    record_game(
        case.path,
        case.game,
        case.engine_options,
        case.seed,
        list(case.players),
        play(case),
        source="tests/golden/record.py",
        timestamp=False,  # re-recording an unchanged game leaves its file unchanged
    )
    return case.path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.golden.record",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", nargs="*", default=None, help="games to record (default all)")
    parser.add_argument("--prune", action="store_true", help="delete files of no case")
    args = parser.parse_args(argv)
    games = set(args.game) if args.game else {c.game for c in CASES}
    total = 0
    for case in CASES:
        if case.game in games:
            path = record(case)
            total += path.stat().st_size
            print(f"{path.relative_to(GOLDEN_DIR)}  {path.stat().st_size // 1024} KiB")
    stale = [
        p
        for g in games
        for p in (GOLDEN_DIR / g).glob("*.jsonl")
        if p not in {c.path for c in CASES}
    ]
    for p in stale:
        print(f"{'deleted' if args.prune else 'stale (no case; --prune deletes)'}: {p}")
        if args.prune:
            p.unlink()
    print(f"{sum(c.game in games for c in CASES)} games, {total / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
