"""thegame's native core against the Python core: lock-step alignment over many games, and speed.

* **lock-step** (``bench/native_lockstep.py``): the Python engine (``rules.py``) and the native
  engine (``native.py``) play the same games side by side, every quantity compared at every step,
  over the manifest's option sets (signals, min_cards_when_empty) and first players; some games
  start from stacked decks or scenario piles (``new_game`` options).
* **speed** (CPU time of this process, ``time.process_time``, so a loaded machine reports what
  one core does): decisions/s of both engines stepped from Python (``legal_actions`` + ``apply``,
  the same random legal actions); the encoder's microseconds per observation (Python encoder,
  compiled encoder on a Python state, compiled encoder on a native state); rollouts in one call
  (``NativeState.rollouts``) to the game's end, decisions/s, with random legal actions and with
  the native planner baseline in every seat (signals off and on).

    python bench/native_thegame.py [--games 50000] [--seed 0] [--out bench/results/native_thegame.json]

``tests/test_native_thegame.py`` runs the lock-step on 500 games per player count.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import native_lockstep
from cardarena.envs import get_spec
from cardarena.envs.thegame import encoding
from cardarena.envs.thegame.native import (
    NATIVE_BUILT,
    NativeState,
    NativeThegameGame,
    compiled_encode,
)
from cardarena.envs.thegame.rules import CARD_CODES, FOUNDATIONS, FULL_DECK, TheGame, fits

PLAYER_COUNTS = (1, 2, 3, 4, 5)
OPTION_SETS: list[dict[str, Any]] = list(get_spec("thegame").option_sets)


def _options(rng: np.random.Generator, n: int) -> dict[str, Any] | None:
    """``new_game`` options for five games in 24: a stacked deck top, a first player, scenario
    piles (legal G5 builds) early in a game, or late: 0-30 open cards that fit (short hands, an
    empty draw pile, seats without cards, won games and won deals) or 0-38 open cards at random."""
    kind = int(rng.integers(24))
    if kind >= 5:
        return None
    if kind == 0:
        top = rng.permutation(FULL_DECK)[: int(rng.integers(1, 20))]
        return {"deck": [CARD_CODES[int(c)] for c in top]}
    if kind == 1:
        return {"first_player": int(rng.integers(n))}
    piles: list[list[str]] = [[], [], [], []]
    if kind == 2:
        used: set[int] = set()
        for p in range(4):
            top = FOUNDATIONS[p]
            for _ in range(int(rng.integers(0, 12))):
                card = int(rng.integers(2, 100))
                if card not in used and fits(card, p, top):
                    piles[p].append(CARD_CODES[card])
                    used.add(card)
                    top = card
        return {"piles": piles}
    if kind == 3:  # the open cards a window that fits: the game often runs to its end
        k = int(rng.integers(0, 31))
        start = int(rng.integers(2, 100 - k + 1))
        below = [c for c in FULL_DECK if c < start]
        above = [c for c in FULL_DECK if c >= start + k][::-1]
        for p, side in ((0, below), (2, above)):
            for c in side:
                piles[p + int(rng.integers(2))].append(CARD_CODES[c])
        return {"piles": piles}
    placed = rng.permutation(FULL_DECK)[: int(rng.integers(60, 99))]
    cuts = sorted(int(x) for x in rng.integers(0, len(placed) + 1, size=3))
    for p, chunk in enumerate(np.split(placed, cuts)):
        cards = sorted(int(c) for c in chunk)
        piles[p] = [CARD_CODES[c] for c in (cards if p < 2 else cards[::-1])]
    return {"piles": piles}


def _engine_options(plan: np.random.Generator, n: int, g: int) -> dict[str, Any]:
    """An option set of the manifest (in turn) and a first player per game."""
    return {**OPTION_SETS[g % len(OPTION_SETS)], "first_player": int(plan.integers(n))}


def lockstep(num_players: int, games: int, seed: int = 0) -> dict[str, int]:
    """``games`` games of ``num_players`` in lock-step (``bench/native_lockstep.py``)."""
    return native_lockstep.lockstep("thegame", num_players, games, seed, _engine_options, _options)


# ---- speed --------------------------------------------------------------------------------------
def stepping_speed(engine: Any, games: int, seed: int = 0) -> float:
    """Decisions/s (CPU) of ``engine`` stepped from Python with random legal actions."""
    rng = np.random.default_rng(seed)
    picks = rng.random(1 << 16).tolist()
    k = steps = 0
    start = time.process_time()
    for g in range(games):
        state = engine.new_game(np.random.default_rng([seed, g]))
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(picks[k] * len(legal))])
            k = (k + 1) & 0xFFFF
            steps += 1
    return steps / (time.process_time() - start)


def encoder_speed(
    num_players: int, positions: int = 2000, seed: int = 0, signals: bool = True
) -> dict[str, float]:
    """Microseconds (CPU) per observation of the three encoders, over positions of random games."""
    py = TheGame(num_players, signals=signals)
    rng = np.random.default_rng(seed)
    states = []
    state = py.new_game(np.random.default_rng(seed))
    while len(states) < positions:
        if py.is_over(state):
            state = py.new_game(np.random.default_rng([seed, len(states)]))
        states.append((py.clone(state), int(rng.integers(num_players))))
        legal = py.legal_actions(state)
        py.apply(state, legal[int(rng.integers(len(legal)))])
    natives = [(NativeState.from_python(s), seat) for s, seat in states]
    out = {}
    for name, fn, pairs in (
        ("python", encoding.encode_python, states),
        ("compiled_python_state", compiled_encode, states),
        ("compiled_native_state", None, natives),
    ):
        repeats = 0
        start = time.process_time()
        while True:
            if fn is None:
                for s, seat in pairs:
                    s.encode(seat)
            else:
                for s, seat in pairs:
                    fn(s, seat)
            repeats += 1
            elapsed = time.process_time() - start
            if elapsed > 0.5:
                break
        out[name] = elapsed / (repeats * len(pairs)) * 1e6
    return out


def rollout_speed(
    num_players: int, count: int, seed: int = 0, signals: bool = False, policy: str = "random"
) -> float:
    """Decisions/s (CPU) of ``count`` rollouts in one call (``policy`` in every seat), from
    fresh deals (one call per deal: a planner rollout is deterministic)."""
    nat = NativeThegameGame(num_players, signals=signals)
    deals = 1 if policy == "random" else 20
    decisions = 0
    elapsed = 0.0
    for d in range(deals):
        state = nat.new_game(np.random.default_rng([seed, d]))
        start = time.process_time()
        decisions += nat.rollouts(state, count // deals, seed, policy=policy)[1]
        elapsed += time.process_time() - start
    return decisions / elapsed


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50_000, help="lock-step games in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-games", type=int, default=400, help="games per stepping figure")
    parser.add_argument("--rollouts", type=int, default=20_000, help="rollouts per figure")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if not NATIVE_BUILT:
        raise SystemExit("the native core is not built (setup.py build_ext --inplace)")
    report: dict[str, Any] = {"lockstep": {}, "speed": {}}
    per_count = -(-args.games // len(PLAYER_COUNTS))  # at least --games in all
    for n in PLAYER_COUNTS if per_count else ():
        start = time.perf_counter()
        result = lockstep(n, per_count, args.seed)
        result["seconds"] = round(time.perf_counter() - start, 1)
        report["lockstep"][n] = result
        print(f"lock-step {n} players: {result}", flush=True)
    for n in PLAYER_COUNTS:
        row: dict[str, Any] = {"encoder_us": encoder_speed(n, seed=args.seed)}
        if args.speed_games:
            row["python_decisions_per_s"] = stepping_speed(TheGame(n), args.speed_games, args.seed)
            row["native_decisions_per_s"] = stepping_speed(
                NativeThegameGame(n), args.speed_games, args.seed
            )
        if args.rollouts:
            row["rollout_game_decisions_per_s"] = rollout_speed(n, args.rollouts, args.seed)
            row["rollout_game_decisions_per_s_signals"] = rollout_speed(
                n, args.rollouts, args.seed, signals=True
            )
            for signals in (False, True):
                row[f"planner_rollout_decisions_per_s{'_signals' if signals else ''}"] = (
                    rollout_speed(n, args.rollouts // 20, args.seed, signals, "planner")
                )
        report["speed"][n] = row
        print(f"speed {n} players: {json.dumps(row)}", flush=True)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
