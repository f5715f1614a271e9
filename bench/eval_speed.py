"""Evaluation speed: games/s of batched lock-step play against one-by-one SB3 ``predict``.

    python bench/eval_speed.py [--checkpoint agents/zoo/flip6.zip] [--games 256] [--repeats 3]

The same games (deck seeds x tables, same agent seeds) are played three ways on one process with
one BLAS/torch thread:

* ``predict``: one ``MaskablePPO.predict(obs, action_masks=mask, deterministic=True)`` call per
  network decision (what a plain SB3 evaluation loop does);
* ``numpy``: :class:`agents.policy.PolicyAgent` one decision at a time (``play_game``);
* ``batched``: :func:`agents.evaluation.lockstep.play_lockstep`, every game in lock-step, one forward pass for
  all the decisions waiting on the network.

Two lineups: ``network`` (the checkpoint in every seat) and ``mixed`` (the checkpoint against the
game's scripted baselines and random, every rotation). Each figure is the median of ``--repeats``
runs. ``agreement`` is the share of games whose result (scores and winners) is the same as with
``predict`` (greedy actions of the same network; float rounding differs between torch and numpy).
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardarena.agents import make_agent, scripted_names  # noqa: E402
from cardarena.agents.evaluation.lockstep import play_lockstep  # noqa: E402
from cardarena.agents.evaluation.schedule import seatings  # noqa: E402
from cardarena.agents.evaluation.tournament import play_game  # noqa: E402
from cardarena.envs.core import seeding  # noqa: E402
from cardarena.envs.core.registry import get_spec  # noqa: E402

DEFAULT_CHECKPOINTS = [ROOT / "agents/zoo/flip6.zip", Path("/tmp/tiny_flip6/final.zip")]


def play_predict(
    game: str, options: dict[str, Any], model: Any, agents: dict[str, Any], net: str, jobs: list
) -> list[tuple[list[float], list[int]]]:
    """Games one after the other; the network's seats call ``model.predict`` per decision."""
    spec = get_spec(game)
    engine = spec.make_engine(**options)
    out = []
    for seed, lineup in jobs:
        state = engine.new_game(np.random.default_rng(seed))
        seats = []
        for i, name in enumerate(lineup):
            agent = copy.copy(agents[name])
            agent.reset(seeding.agent_seed(seed, i))
            seats.append(agent)
        mask = np.zeros(engine.num_actions, dtype=np.int8)
        while not engine.is_over(state):
            seat = engine.current_player(state)
            mask[:] = 0
            mask[engine.legal_actions(state)] = 1
            obs = spec.encode(state, seat)
            if lineup[seat] == net:
                action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
            else:
                action = seats[seat].act(obs, mask, spec.view(state, seat))
            engine.apply(state, int(action), seat)
        out.append(([float(s) for s in engine.scores(state)], list(engine.winners(state))))
    return out


def play_numpy(game: str, options: dict[str, Any], agents: dict[str, Any], jobs: list) -> list:
    out = []
    for seed, lineup in jobs:
        seats = [copy.copy(agents[name]) for name in lineup]
        r = play_game(game, options, seats, seed, agent_seed=seed)
        out.append((r.scores, r.winners))
    return out


def play_batched(game: str, options: dict[str, Any], agents: dict[str, Any], jobs: list) -> list:
    return [(r.scores, r.winners) for r in play_lockstep(game, options, agents, jobs)]


def timed(fn: Any, games: int, repeats: int) -> tuple[float, Any]:
    rates, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", default=None, help="MaskablePPO .zip (default: zoo/tiny)")
    parser.add_argument("--game", default="flip6")
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--games", type=int, default=256, help="games per lineup and method")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "bench/results/eval_speed.json"))
    args = parser.parse_args(argv)
    ckpt = args.checkpoint or next((str(p) for p in DEFAULT_CHECKPOINTS if p.exists()), None)
    if ckpt is None:
        parser.error(
            "no checkpoint: pass --checkpoint, or train a tiny one with `python train.py --config "
            "configs/flip6.yaml --timesteps 4096 --output-dir /tmp/tiny_flip6 --no-progress`"
        )
    import torch
    from sb3_contrib import MaskablePPO

    from cardarena.agents import checkpoint
    from cardarena.envs.core.single_agent import SelfPlayEnv

    torch.set_num_threads(1)
    options = {"num_players": args.num_players}
    # the same weights as an SB3 model, for the predict() path (checkpoints hold arrays only)
    meta, arrays = checkpoint.read(ckpt)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[meta["policy"]["activation"]]
    model = MaskablePPO(
        "MlpPolicy",
        SelfPlayEnv(args.game, options),
        policy_kwargs={"net_arch": meta["policy"]["net_arch"], "activation_fn": activation},
        device="cpu",
    )
    names = model.policy.state_dict()
    model.policy.load_state_dict({k: torch.from_numpy(arrays[k].copy()) for k in names})
    net = "net"
    agents = {net: make_agent(args.game, ckpt)}
    others = scripted_names(args.game)[::-1]  # best baseline first, random last
    for name in others:
        agents[name] = make_agent(args.game, name)
    n = args.num_players
    lineups = {
        "network": [[net] * n],
        "mixed": seatings([net, *others[: n - 1]], n),
    }
    report: dict[str, Any] = {
        "game": args.game,
        "options": options,
        "checkpoint": ckpt,
        "games": args.games,
        "repeats": args.repeats,
        "machine": {
            "python": platform.python_version(),
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "threads": "1 BLAS/torch thread, one process",
        },
        "lineups": {},
    }
    for label, tables in lineups.items():
        deals = -(-args.games // len(tables))
        jobs = [(seed, tuple(t)) for seed in range(deals) for t in tables][: args.games]
        decisions = sum(r.decisions for r in play_lockstep(args.game, options, agents, jobs))
        rate_p, res_p = timed(
            lambda jobs=jobs: play_predict(args.game, options, model, agents, net, jobs),
            len(jobs),
            args.repeats,
        )
        rate_n, _ = timed(
            lambda jobs=jobs: play_numpy(args.game, options, agents, jobs), len(jobs), args.repeats
        )
        rate_b, res_b = timed(
            lambda jobs=jobs: play_batched(args.game, options, agents, jobs),
            len(jobs),
            args.repeats,
        )
        agree = float(np.mean([a == b for a, b in zip(res_p, res_b, strict=True)]))
        entry = {
            "tables": [list(t) for t in tables],
            "games": len(jobs),
            "decisions_per_game": decisions / len(jobs),
            "games_per_s": {"predict": rate_p, "numpy": rate_n, "batched": rate_b},
            "speedup_batched_vs_predict": rate_b / rate_p,
            "speedup_numpy_vs_predict": rate_n / rate_p,
            "agreement_with_predict": agree,
        }
        report["lineups"][label] = entry
        print(
            f"{label:8s} {len(jobs)} games ({entry['decisions_per_game']:.0f} decisions/game): "
            f"predict {rate_p:7.1f} games/s | numpy one-by-one {rate_n:7.1f} | "
            f"batched {rate_b:7.1f}  -> batched {rate_b / rate_p:.1f}x predict "
            f"(same results in {agree:.1%} of games)"
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
