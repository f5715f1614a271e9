"""Speed of the search internals and agents, per game (one process, one core).

* **random / baseline rollout decisions/s**: what a search pays per simulated decision, with the
  random policy and with the game's best scripted baseline (``agents.specs.best_baseline``), from
  mid-game states to the game's end. Where the engine plays the policy in C
  (``engine.rollout_policies``: the native engines of flip6, sevn, ratatat and thegame) through
  its batch entry point (``engine.rollout_batch``: many rollouts in one call, states untouched),
  otherwise through the Python ``Rollout``'s loops (``engine.clone`` once per rollout, then
  ``legal_actions`` + ``apply`` with a random legal action, or ``envs.core.loop.play`` with the
  baseline in every seat; clones counted in the time). The ``*_core`` fields say which. Issue 31's targets:
  >= 5M random and >= 1M best-baseline rollout decisions/s per core.
* **sample/s**: ``Worlds.sample`` (one world of the seat's information set).
* **search decisions/s**: decisions of a search agent at its budget (``--agents``), each a
  ``decide`` with at least two legal actions, on positions of random games.
* **pimc worlds per 0.1 s** (``--worlds-agent``, default ``pimc:worlds=8,rollout=<best>,
  horizon=round``): worlds a PIMC decision samples and rolls out in 0.1 CPU seconds, with the
  rollouts in C where the engine has them (``c``) and kept in Python (``python``,
  ``SearchAgent.native_rollouts = False``), on the same positions.

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
from cardarena.agents.specs import best_baseline, build_agent
from cardarena.envs.core.loop import Worlds, decide, play


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
    """The Python ``Rollout``'s random loop: clone, then random legal actions to the end."""
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


def baseline_rollout_speed(name: str, spec, engine, starts: list, policy: str, seconds: float):
    """The Python ``Rollout``'s scripted loop: clone, then ``play`` with ``policy`` everywhere."""
    agents = [build_agent(name, policy, seed=s) for s in range(engine.num_players)]
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    made, t0, i = 0, time.process_time(), 0
    while time.process_time() - t0 < seconds:
        made += play(spec, engine, engine.clone(starts[i % len(starts)]), agents, mask=mask)
        i += 1
    return made / (time.process_time() - t0)


def native_rollout_speed(engine, starts: list, policy: str, seconds: float) -> float:
    """``engine.rollout_batch``: every start rolled out ``rollouts`` times per call, in C."""
    made, t0, seed = 0, time.process_time(), 0
    while time.process_time() - t0 < seconds:
        _, decisions = engine.rollout_batch(starts, policy, "game", seed, rollouts=200)
        made += decisions
        seed += 1
    return made / (time.process_time() - t0)


def policy_speed(name: str, spec, engine, starts: list, policy: str, seconds: float):
    """(decisions/s, core): in C where the engine has the policy, else the Python Rollout."""
    if policy in getattr(engine, "rollout_policies", {}):
        return native_rollout_speed(engine, starts, policy, seconds), "native batch (C)"
    if policy == "random":
        return rollout_speed(engine, starts, seconds), "python Rollout"
    return baseline_rollout_speed(name, spec, engine, starts, policy, seconds), "python Rollout"


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


def worlds_per_budget(name: str, spec, engine, starts: list, agent_spec: str, native: bool):
    """Worlds a PIMC decision samples and rolls out per 0.1 CPU second (a few positions)."""
    agent = make_agent(name, agent_spec, seed=0)
    agent.native_rollouts = native
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    worlds, t0 = 0, time.process_time()
    for state in starts[:12]:
        decide(spec, engine, state, engine.current_player(state), agent, mask)
        worlds += agent.last_worlds
    return 0.1 * worlds / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=envs.names())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--agents", nargs="+", default=["pimc", "ismcts"])
    parser.add_argument(
        "--worlds-agent",
        default="pimc:worlds=8,rollout={best},horizon=round",
        help="the PIMC spec of the worlds-per-0.1 s column ({best}: the best baseline)",
    )
    parser.add_argument("--out", default="bench/results/search_speed.json")
    args = parser.parse_args()
    rows = []
    print(
        f"{'game':<10} {'random dec/s':>13} {'baseline':>10} {'dec/s':>11} {'sample/s':>9} "
        f"{'worlds/0.1s c':>14} {'python':>7} "
        + " ".join(f"{a + ' dec/s':>16}" for a in args.agents)
    )
    for name in args.games:
        spec = envs.get_spec(name)
        cls = spec.engine_cls
        n = min(max(args.players, cls.min_players), cls.max_players)
        engine = spec.make_engine(num_players=n)
        starts = positions(engine, 50, seed=1)
        best = best_baseline(name)
        random_rate, random_core = policy_speed(name, spec, engine, starts, "random", args.seconds)
        best_rate, best_core = policy_speed(name, spec, engine, starts, best, args.seconds)
        worlds_spec = args.worlds_agent.format(best=best)
        row = {
            "game": name,
            "players": n,
            "engine": type(engine).__name__,
            "random_rollout_decisions_per_s": random_rate,
            "random_rollout_core": random_core,
            "baseline": best,
            "baseline_rollout_decisions_per_s": best_rate,
            "baseline_rollout_core": best_core,
            "samples_per_s": sample_speed(spec, engine, starts, args.seconds / 2),
            "worlds_agent": worlds_spec,
            "worlds_per_0.1s_c": worlds_per_budget(name, spec, engine, starts, worlds_spec, True),
            "worlds_per_0.1s_python": worlds_per_budget(
                name, spec, engine, starts, worlds_spec, False
            ),
        }
        for a in args.agents:
            row[f"{a}_decisions_per_s"] = search_speed(name, spec, engine, starts, a, args.seconds)
        rows.append(row)
        print(
            f"{name + '/' + str(n):<10} {random_rate:>13,.0f} {best:>10} {best_rate:>11,.0f} "
            f"{row['samples_per_s']:>9,.0f} {row['worlds_per_0.1s_c']:>14,.1f} "
            f"{row['worlds_per_0.1s_python']:>7,.1f} "
            + " ".join(f"{row[f'{a}_decisions_per_s']:>16,.2f}" for a in args.agents),
            flush=True,
        )
    for row in rows:
        print(
            f"  {row['game']}: random rollouts {row['random_rollout_core']}, "
            f"{row['baseline']} rollouts {row['baseline_rollout_core']} ({row['engine']})"
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "players": args.players,
                "seconds": args.seconds,
                "targets": {"random_per_s": 5_000_000, "baseline_per_s": 1_000_000},
                "rows": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
