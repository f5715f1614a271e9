"""Every state a game reaches restores: ``from_dict(to_dict(state))`` after every step of random
games, and the restored game goes on exactly as the original.

Two copies of each game are played with the same random legal actions: ``a`` straight on, ``b``
replaced after every step by its own JSON round trip (``from_dict(json(to_dict(b)))``). At every
step both must have the same legal actions, the same deciding seat and the same ``to_dict``
(generator state included), so a state the game itself reached and cannot be loaded, or a
restore that changes how the game goes on, fails naming the game, seed and step. The engine is
the manifest's default core (native where built; ``CARDARENA_CORE=python`` for the reference).

    python bench/restore_fuzz.py [--games 2000] [--game ratatat] [--seed 0]

``tests/test_restore.py`` runs it on fewer games per game and player count, with every option
set of each manifest, and keeps the states an earlier fuzz found refused as regression cases.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from cardarena import envs


def option_sets(name: str) -> list[dict[str, Any]]:
    """The engine option sets of a game's manifest (rule options and encodings), at least {}."""
    spec = envs.get_spec(name)
    sets = [dict(o) for o in spec.option_sets] or [{}]
    for option, values in spec.rule_options.items():
        for value in values:
            sets.append({option: value})
    unique: list[dict[str, Any]] = []
    for s in sets:
        if s not in unique:
            unique.append(s)
    return unique


def player_counts(name: str) -> list[int]:
    cls = envs.get_spec(name).engine_cls
    return list(range(cls.min_players, cls.max_players + 1))


def restore_every_step(
    name: str,
    num_players: int,
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    first: int = 0,
) -> dict[str, int]:
    """Games ``first`` .. ``first + games - 1`` (random legal actions), each state round-tripped
    after every step (module docstring); the games and round trips done. An AssertionError names
    the game, its seed and the step of the first failure."""
    engine = envs.get_spec(name).make_engine(num_players=num_players, **(options or {}))
    trips = 0
    for g in range(first, first + games):
        rng = np.random.default_rng([seed, num_players, g])
        a = engine.new_game(np.random.default_rng([seed, num_players, g, 1]))
        b = engine.clone(a)
        step = 0
        while True:
            where = f"{name} {num_players}p {options or {}} seed [{seed}, {num_players}, {g}] step {step}"
            saved = engine.to_dict(b)
            try:
                b = engine.from_dict(json.loads(json.dumps(saved)))
            except Exception as err:
                raise AssertionError(
                    f"{where}: a state the game reached is refused: {err}"
                ) from err
            trips += 1
            assert engine.to_dict(b) == saved, f"{where}: the restored state differs"
            assert engine.to_dict(a) == saved, f"{where}: the restored game went another way"
            assert engine.legal_actions(b) == engine.legal_actions(a), where
            assert engine.current_player(b) == engine.current_player(a), where
            if engine.is_over(a):
                assert engine.is_over(b) and engine.returns(b) == engine.returns(a), where
                break
            legal = engine.legal_actions(a)
            action = legal[int(rng.integers(len(legal)))]
            seat = engine.current_player(a)
            engine.apply(a, action, seat)
            engine.apply(b, action, seat)
            step += 1
    return {"games": games, "round_trips": trips}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    for name in args.game or envs.names():
        sets = option_sets(name)
        for n in player_counts(name):
            per_set = max(1, args.games // len(sets))
            start = time.perf_counter()
            total = {"games": 0, "round_trips": 0}
            for options in sets:
                done = restore_every_step(name, n, per_set, args.seed, options)
                total = {k: total[k] + done[k] for k in total}
            total["seconds"] = round(time.perf_counter() - start, 1)
            report[f"{name} {n}p"] = total
            print(f"{name} {n} players: {total}", flush=True)
    return report


if __name__ == "__main__":
    main()
