"""Record the golden playthroughs: ``python -m tests.golden.record [--game G ...] [--prune]``.

Each case below is one game (options, deal seed, agent per seat) played by scripted and random
agents and written as a replay (:mod:`agents.tools.replay`) to ``tests/golden/<game>/<name>.jsonl``.
``tests/test_golden.py`` replays every file through the engine; after an intended rules change,
re-record the game's files with this script and review the diff (``git diff --stat`` shows which
games changed). The cases are each game's ``golden`` in its manifest (``envs/<game>/__init__.py``):
every player count and the options that change the rules (``rule_options``).
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


def _cases() -> list[Case]:
    """Every registered game's golden cases, from its manifest (``GameSpec.golden``)."""
    from cardarena.envs.core.registry import get_spec, names

    return [
        Case(game, c.seed, tuple(c.players), dict(c.options))
        for game in names()
        for c in get_spec(game).golden
    ]


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
