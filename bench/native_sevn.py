"""sevn's native core against the Python core: lock-step alignment over many games, and speed.

* **encoder** (:func:`encoder_games`): random games on the Python engine, the compiled encoder
  (``_native.encode`` on the Python state) against the reference (``encoding.encode_python``) on
  every seat of every step, byte for byte.
* **lock-step** (``bench/native_lockstep.py``): the Python engine (``rules.py``) and the native
  engine (``native.py``) play the same games side by side, every quantity compared at every step.
  The games cycle through the manifest's target scores (250, the default, and 60) and shorter
  ones; some start from stacked decks (action cards on top), game totals near the target and a
  dealer (``new_game`` options).
* **speed** (CPU time of this process, ``time.process_time``, so a loaded machine reports what
  one core does): decisions/s of both engines stepped from Python (``legal_actions`` + ``apply``,
  the same random legal actions); the encoder's microseconds per observation (Python encoder,
  compiled encoder on a Python state, compiled encoder on a native state); random rollouts in one
  call (``NativeState.rollouts``) to the game's and to the hand's end, decisions/s.

    python bench/native_sevn.py [--games 50000] [--seed 0] [--out bench/results/native_sevn.json]

``tests/test_native_sevn.py`` runs the encoder check and the lock-step on 500 games per player
count.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import native_lockstep
from cardarena.envs.sevn import encoding
from cardarena.envs.sevn.native import NATIVE_BUILT, NativeSevnGame, NativeState, compiled_encode
from cardarena.envs.sevn.rules import CARD_CODES, CODE_TO_CARD, FULL_DECK, SevnGame

PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8)
#: target scores the lock-step games cycle through: the manifest's option sets (250, 60) and
#: short games (most games of the unit test's count must be short to keep it fast)
TARGETS = (250, 60, 20, 60, 10)
#: the action cards a stacked deck puts on top now and then (every decision comes up early)
ACTIONS = ["FREEZE", "SECOND_CHANCE", "FLIP_THREE", "FORK", "STORM", "-2", "-4", "-6", "x2"]


def encoder_games(num_players: int, games: int, target_score: int, seed: int = 0) -> dict[str, int]:
    """``games`` random games on the Python engine, every seat of every step encoded by both
    encoders (AssertionError naming game, step, seat and the differing indices). With a target
    above 100, nine games in ten start from game totals at 60-98% of it (a game from zero is
    long: they would take most of the time)."""
    observations = steps = 0
    for g in range(games):
        plan = np.random.default_rng([seed, num_players, target_score, g])
        py = SevnGame(num_players, int(plan.integers(num_players)), target_score)
        options = None
        if target_score > 100 and g % 10:
            low, high = int(0.6 * target_score), int(0.98 * target_score)
            options = {"scores": [int(x) for x in plan.integers(low, high, size=num_players)]}
        state = py.new_game(np.random.default_rng([seed, num_players, target_score, g, 1]), options)
        step = 0
        while True:
            for seat in range(num_players):
                want = encoding.encode_python(state, seat)
                got = compiled_encode(state, seat)
                if got.tobytes() != want.tobytes():
                    raise AssertionError(
                        f"sevn encoder, {num_players} players, target {target_score}, game {g}, "
                        f"step {step}, seat {seat}: differs at "
                        f"{np.flatnonzero(want.view(np.uint32) != got.view(np.uint32))}"
                    )
                observations += 1
            if state.over:
                break
            legal = py.legal_actions(state)
            py.apply(state, legal[int(plan.integers(len(legal)))])
            step += 1
            steps += 1
    return {"games": games, "steps": steps, "observations": observations}


def _options(rng: np.random.Generator, n: int) -> dict[str, Any] | None:
    """``new_game`` options for one game in two: game totals (near a 250 target, so that the
    long games end soon; two seats tied at the top), and now and then a dealer and a stacked deck top."""
    if rng.integers(2):
        return None
    scores = [int(x) for x in rng.integers(150, 245, size=n)]
    # S27: with one seat alone at the top past the target the game would be over before it
    # starts (from_dict refuses it, so new_game does), and the short targets are below them all
    scores[sorted(range(n), key=scores.__getitem__)[-2]] = max(scores)
    options: dict[str, Any] = {"scores": scores}
    if rng.integers(3) == 0:
        top = [CODE_TO_CARD[c] for c in rng.permutation(ACTIONS)[: int(rng.integers(1, 5))]]
        rest = list(FULL_DECK)
        for card in top:
            rest.remove(card)
        top += rng.permutation(rest)[: int(rng.integers(0, 8))].tolist()
        options["deck"] = [CARD_CODES[c] for c in top]
        options["dealer"] = int(rng.integers(n))
    return options


def _engine_options(plan: np.random.Generator, n: int, g: int) -> dict[str, Any]:
    """A first dealer and a target score per game (:data:`TARGETS`)."""
    return {"first_dealer": int(plan.integers(n)), "target_score": TARGETS[g % len(TARGETS)]}


def lockstep(num_players: int, games: int, seed: int = 0) -> dict[str, int]:
    """``games`` games of ``num_players`` in lock-step (``bench/native_lockstep.py``)."""
    return native_lockstep.lockstep("sevn", num_players, games, seed, _engine_options, _options)


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


def encoder_speed(num_players: int, positions: int = 2000, seed: int = 0) -> dict[str, float]:
    """Microseconds (CPU) per observation of the three encoders, over positions of random games
    (each encoder on the positions in game order, as an environment calls it)."""
    py = SevnGame(num_players)
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


def rollout_speed(num_players: int, count: int, horizon: str, seed: int = 0) -> float:
    """Decisions/s (CPU) of ``count`` random rollouts in one call, from a fresh deal."""
    nat = NativeSevnGame(num_players)
    state = nat.new_game(np.random.default_rng(seed))
    start = time.process_time()
    _values, decisions = nat.rollouts(state, count, seed, horizon)
    return decisions / (time.process_time() - start)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50_000, help="lock-step games in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed-games", type=int, default=100, help="games per stepping figure")
    parser.add_argument("--rollouts", type=int, default=2000, help="rollouts per speed figure")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if not NATIVE_BUILT:
        raise SystemExit("the native core is not built (setup.py build_ext --inplace)")
    report: dict[str, Any] = {"lockstep": {}, "speed": {}}
    # at least --games in all (rounded up per player count); --games 0: no lock-step
    per_count = max(1, -(-args.games // len(PLAYER_COUNTS))) if args.games else 0
    for n in PLAYER_COUNTS if per_count else ():
        start = time.perf_counter()
        result = lockstep(n, per_count, args.seed)
        result["seconds"] = round(time.perf_counter() - start, 1)
        report["lockstep"][n] = result
        print(f"lock-step {n} players: {result}", flush=True)
    for n in PLAYER_COUNTS:
        row = {
            "python_decisions_per_s": stepping_speed(SevnGame(n), args.speed_games, args.seed),
            "native_decisions_per_s": stepping_speed(
                NativeSevnGame(n), args.speed_games, args.seed
            ),
            "encoder_us": encoder_speed(n, seed=args.seed),
            "rollout_game_decisions_per_s": rollout_speed(n, args.rollouts, "game", args.seed),
            "rollout_round_decisions_per_s": rollout_speed(
                n, 10 * args.rollouts, "round", args.seed
            ),
        }
        report["speed"][n] = row
        print(f"speed {n} players: {json.dumps(row)}", flush=True)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
