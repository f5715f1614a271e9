"""Is a setting of a scripted baseline better? One seat with it against a table without it.

    python bench/baseline_settings.py --game suicidium --option mode=SURVIVE \\
        --seat heuristic:draw_margin=10 --field heuristic:draw_margin=5 --deals 1000

``--seat`` and ``--field`` are a scripted baseline of the game with keyword settings of its
constructor (``name:key=value,key=value``; values are read as Python literals). Every deck seed
is played with the ``--seat`` agent in each seat in turn and ``--field`` agents elsewhere
(engine-direct, the agents read ``view`` only), so ``--num-players`` x ``--deals`` games. Prints
the seat's win rate (a shared win counts 1/winners) with a normal 95% interval; par is
1/num_players. This is how the suicidium heuristic's draw margin and lift weight were chosen
(docs/results/suicidium.md).

``--seat-noise P`` makes the seat replace a share P of its decisions that have more than one
legal action by a random legal one: what an imitation that is right on 1 - P of the decisions,
wrong at random on the others, would score (docs/results/README.md, "How precise a clone must be").
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def parse_agent(text: str) -> tuple[str, dict[str, Any]]:
    """``name:key=value,...`` -> (name, settings)."""
    name, _, rest = text.partition(":")
    settings: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise SystemExit(f"error: setting {item!r} of {text!r} is not key=value")
        try:
            settings[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            settings[key.strip()] = value.strip()
    return name, settings


class Noisy:
    """``agent``, except that a share ``noise`` of its decisions with more than one legal action
    are a random legal action instead (a planned follow-up is then dropped)."""

    def __init__(self, agent: Any, noise: float, seed: int) -> None:
        from cardarena.agents.base import RandomAgent

        self.agent, self.noise = agent, noise
        self.random = RandomAgent(seed)  # its generator also draws the coin
        self.changed = 0

    def act(self, observation: Any, action_mask: np.ndarray, view: dict[str, Any]) -> int:
        action = self.agent.act(observation, action_mask, view)
        if action_mask.sum() > 1 and self.random.rng.random() < self.noise:
            if hasattr(self.agent, "plan"):  # the suicidium heuristic's follow-ups
                self.agent.plan = []
            self.changed += 1
            return self.random.act(observation, action_mask, view)
        return action


def duel(
    game: str,
    options: dict[str, Any],
    seat: str,
    field: str,
    deals: int,
    first_seed: int,
    seat_noise: float = 0.0,
) -> dict[str, Any]:
    from cardarena.agents import scripted
    from cardarena.envs.core.loop import play
    from cardarena.envs.core.registry import get_spec

    baselines = scripted(game)
    (seat_name, seat_kw), (field_name, field_kw) = parse_agent(seat), parse_agent(field)
    if not 0.0 <= seat_noise <= 1.0:
        raise SystemExit(f"error: --seat-noise must be in [0, 1], got {seat_noise}")
    for name in (seat_name, field_name):
        if name not in baselines:
            raise SystemExit(
                f"error: {name!r} is not a scripted baseline of {game}: {list(baselines)}"
            )
    spec = get_spec(game)
    engine = spec.make_engine(**options)
    n = engine.num_players
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    wins: list[float] = []
    from tqdm import tqdm

    for deal in tqdm(range(deals), desc=f"{seat} vs {field}", unit="deal"):
        for me in range(n):
            agents = [baselines[field_name](seed=s, **field_kw) for s in range(n)]
            agents[me] = baselines[seat_name](seed=100 + me, **seat_kw)
            if seat_noise:
                agents[me] = Noisy(agents[me], seat_noise, seed=first_seed + deal * n + me)
            state = engine.new_game(np.random.default_rng(first_seed + deal))
            play(spec, engine, state, agents, mask=mask)
            winners = engine.winners(state)
            wins.append(1.0 / len(winners) if me in winners else 0.0)
    w = np.asarray(wins)
    half = 1.96 * float(w.std()) / np.sqrt(len(w))
    return {
        "game": game,
        "options": options,
        "seat": seat,
        "seat_noise": seat_noise,
        "field": field,
        "games": len(w),
        "first_seed": first_seed,
        "win_rate": float(w.mean()),
        "win_ci": [float(w.mean()) - half, float(w.mean()) + half],
        "par": 1.0 / n,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--seat", required=True, help="name:key=value,... (one seat)")
    parser.add_argument("--field", required=True, help="name:key=value,... (the other seats)")
    parser.add_argument(
        "--seat-noise", type=float, default=0.0, help="share of the seat's decisions made at random"
    )
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=700000)
    parser.add_argument("--out", default=None, help="also write the result as JSON here")
    args = parser.parse_args(argv)
    from cardarena.envs.core.engine import ConfigError
    from cardarena.envs.core.options import parse_options

    options: dict[str, Any] = {"num_players": args.num_players}
    try:
        options.update(parse_options(args.option))
    except ConfigError as err:
        parser.error(str(err))
    start = time.perf_counter()
    result = duel(
        args.game, options, args.seat, args.field, args.deals, args.first_seed, args.seat_noise
    )
    result["seconds"] = time.perf_counter() - start
    lo, hi = result["win_ci"]
    noisy = f" ({args.seat_noise:.0%} of its decisions at random)" if args.seat_noise else ""
    print(
        f"{args.seat}{noisy} in one seat, {args.field} in the others: win rate {result['win_rate']:.3f} "
        f"[{lo:.3f}, {hi:.3f}] over {result['games']} games (par {result['par']:.3f})"
    )
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
