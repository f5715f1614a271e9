"""One-step lookahead over cloned game states: try each legal action, finish the game at random
many times from a copy, play the action with the best average payoff.

    python examples/lookahead_search.py                    # tiny: 2 games, 4 rollouts per action
    python examples/lookahead_search.py --games 50 --rollouts 64 --game ratatat

``env.unwrapped.to_dict()`` is the whole state as JSON data, hidden cards included, and
``engine.from_dict(data)`` makes an independent copy. Searching the true state would peek at
cards the seat cannot see, so each rollout first redraws them with ``engine.resample_hidden``:
a world the seat's information allows. (agents/search has the tuned versions: pimc, ismcts.)
"""

from __future__ import annotations

import argparse

import numpy as np

from cardarena import envs
from cardarena.agents import make_agent


def lookahead(env, seat: int, rollouts: int, rng: np.random.Generator) -> int:
    engine = env.unwrapped.game  # the rules engine behind the AEC env
    saved = env.unwrapped.to_dict()  # plain JSON data: could go to a file or another process
    saved.pop("aec")  # the env's pending rewards; the engine reads the rest
    round_now = engine.round_index(engine.from_dict(saved))
    best, best_value = None, -np.inf
    for action in engine.legal_actions(engine.from_dict(saved)):
        total = 0.0
        for _ in range(rollouts):
            world = engine.resample_hidden(engine.from_dict(saved), seat, rng)
            engine.apply(world, action)
            # play on at random to the end of this round (games without rounds: of the game)
            while not engine.is_over(world) and engine.round_index(world) == round_now:
                legal = engine.legal_actions(world)
                engine.apply(world, legal[rng.integers(len(legal))])
            over = engine.is_over(world)
            total += engine.returns(world)[seat] if over else engine.standing(world, seat)
        if total / rollouts > best_value:
            best, best_value = action, total / rollouts
    return int(best)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="flip6")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--rollouts", type=int, default=4, help="random playouts per action")
    parser.add_argument("--opponent", default="random", help="agent spec of the other seats")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    env = envs.make(args.game)
    n = env.unwrapped.game.num_players
    payoff = 0.0
    for g in range(args.games):
        env.reset(seed=g)
        searcher = g % n  # the search agent's seat, rotating
        others = [make_agent(args.game, args.opponent, seed=g * n + s) for s in range(n)]
        for name in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            seat = env.possible_agents.index(name)
            if terminated or truncated:
                payoff += reward if seat == searcher else 0.0
                env.step(None)
                continue
            if seat == searcher:
                env.step(lookahead(env, seat, args.rollouts, rng))
            else:
                view = env.unwrapped.view(seat)  # what scripted agents read
                env.step(others[seat].act(obs["observation"], obs["action_mask"], view))
    print(f"{args.game}: lookahead ({args.rollouts} rollouts/action) against {args.opponent}, "
          f"mean payoff {payoff / args.games:+.3f} over {args.games} games")  # fmt: skip


if __name__ == "__main__":
    main()
