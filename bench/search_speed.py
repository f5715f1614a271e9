"""Speed of the search internals and agents, per game (one process, one core).

* **rollout decisions/s**: what a search pays per simulated decision: from a mid-game state,
  ``engine.clone`` once per rollout, then ``legal_actions`` + ``apply`` with a uniformly random
  legal action (Python's ``random``) until the game ends; clones counted in the time.
* **sample/s**: ``Worlds.sample`` (one world of the seat's information set).
* **search decisions/s**: decisions of a search agent at its budget (``--agents``), each a
  ``decide`` with at least two legal actions, on positions of random games.

Rates are per CPU second of this process (``time.process_time``), so a machine shared with other
jobs reports what one core does rather than its share of the wall clock.

    python bench/search_speed.py [--games flip6 ...] [--players 4] [--seconds 2]
                                 [--agents pimc ismcts] [--out bench/results/search_speed.json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np

from cardarena import envs
from cardarena.agents import make_agent
from cardarena.envs.core.loop import Worlds, decide


def positions(engine, count: int, seed: int) -> list:
    """Mid-game states (several legal actions) from random games."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = engine.new_game(np.random.default_rng(int(rng.integers(2**31))))
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            if len(legal) > 1 and rng.random() < 0.1:
                out.append(engine.clone(state))
                if len(out) >= count:
                    break
            engine.apply(state, legal[int(rng.integers(len(legal)))])
    return out


def rollout_speed(engine, starts: list, seconds: float) -> float:
    py = random.Random(0)
    legal_actions, apply, is_over, clone = (
        engine.legal_actions,
        engine.apply,
        engine.is_over,
        engine.clone,
    )
    made, t0, i = 0, time.process_time(), 0
    while time.process_time() - t0 < seconds:
        state = clone(starts[i % len(starts)])
        i += 1
        while not is_over(state):
            legal = legal_actions(state)
            apply(state, legal[int(py.random() * len(legal))])
            made += 1
    return made / (time.process_time() - t0)


def sample_speed(spec, engine, starts: list, seconds: float) -> float:
    rng = np.random.default_rng(0)
    handles = [Worlds(spec, engine, s, engine.current_player(s)) for s in starts]
    made, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds:
        handles[made % len(handles)].sample(rng)
        made += 1
    return made / (time.process_time() - t0)


def search_speed(name: str, spec, engine, starts: list, agent_spec: str, seconds: float) -> float:
    agent = make_agent(name, agent_spec, seed=0)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    made, t0 = 0, time.process_time()
    while time.process_time() - t0 < seconds or made < 3:
        state = starts[made % len(starts)]
        decide(spec, engine, state, engine.current_player(state), agent, mask)
        made += 1
    return made / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=envs.names())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--agents", nargs="+", default=["pimc", "ismcts"])
    parser.add_argument("--out", default="bench/results/search_speed.json")
    args = parser.parse_args()
    rows = []
    print(
        f"{'game':<10} {'rollout dec/s':>14} {'sample/s':>10} "
        + " ".join(f"{a + ' dec/s':>16}" for a in args.agents)
    )
    for name in args.games:
        spec = envs.get_spec(name)
        cls = spec.engine_cls
        n = min(max(args.players, cls.min_players), cls.max_players)
        engine = spec.make_engine(num_players=n)
        starts = positions(engine, 50, seed=1)
        row = {
            "game": name,
            "players": n,
            "rollout_decisions_per_s": rollout_speed(engine, starts, args.seconds),
            "samples_per_s": sample_speed(spec, engine, starts, args.seconds / 2),
        }
        for a in args.agents:
            row[f"{a}_decisions_per_s"] = search_speed(name, spec, engine, starts, a, args.seconds)
        rows.append(row)
        print(
            f"{name + '/' + str(n):<10} {row['rollout_decisions_per_s']:>14,.0f} "
            f"{row['samples_per_s']:>10,.0f} "
            + " ".join(f"{row[f'{a}_decisions_per_s']:>16,.2f}" for a in args.agents),
            flush=True,
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"players": args.players, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
