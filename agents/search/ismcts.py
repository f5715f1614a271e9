"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012, SO-ISMCTS).

One tree over the searching seat's information sets: a node is a sequence of (player, action)
moves from the root, which every seat observes in these games (draws and hidden cards are not in
the tree). Each iteration samples one determinization (a world of the root seat's information
set), descends the tree with the moves legal in that world, choosing by UCB1 where every move
counts how often it was *available* (instead of the parent's visits), expands one untried move,
rolls out with the rollout policy and backs up each seat's value into the moves that seat made.
The move played is the root's most visited legal move. With ``depth=N`` the rollout from the
expanded node is cut after N decisions and valued like the PIMC's (the same ``Rollout``).
"""

from __future__ import annotations

import math
import random
from typing import Any

from cardarena.agents.search.base import SearchAgent
from cardarena.agents.search.rollout import Rollout


class Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[tuple[int, int], Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of the values of the seat that made the move into this node
        self.avail = 1


class IsmctsAgent(SearchAgent):
    """``ismcts:iterations=200,rollout=random,c=0.7,horizon=game``."""

    def __init__(
        self,
        game: str,
        seed: int | None = None,
        name: str = "ismcts",
        iterations: int = 200,
        c: float = 0.7,
        rollout: str = "random",
        horizon: str = "game",
        value: str = "standing",
        depth: int = 0,
    ) -> None:
        super().__init__(game, seed, name, rollout, horizon, value, depth)
        self.iterations = iterations
        self.c = c

    def search(self, worlds: Any, legal: list[int], rollout: Rollout, py: random.Random) -> int:
        engine, seat = worlds.engine, worlds.seat
        is_over, current, legal_of, apply = (
            engine.is_over,
            engine.current_player,
            engine.legal_actions,
            engine.apply,
        )
        c, log, sqrt = self.c, math.log, math.sqrt
        root = Node()
        start = None
        for i in range(self.iterations):
            state = worlds.sample(self.rng)
            if i == 0:
                start = rollout.start(state)
            node, path = root, []
            while not is_over(state):
                player = current(state)
                moves = legal_of(state)
                children = node.children
                untried = []
                best, best_score, best_action = None, -math.inf, -1
                for a in moves:
                    child = children.get((player, a))
                    if child is None:
                        untried.append(a)
                        continue
                    child.avail += 1
                    score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if score > best_score:
                        best, best_score, best_action = child, score, a
                if untried:
                    action = untried[int(py.random() * len(untried))]
                    node = children[(player, action)] = Node()
                    apply(state, action, player)
                    path.append((node, player))
                    break
                apply(state, best_action, player)
                node = best  # type: ignore[assignment]  # tried children: one is the best
                path.append((node, player))
            values = rollout.run(state, py, start)
            for visited, player in path:
                visited.visits += 1
                visited.total += values[player]
        visits = [(root.children.get((seat, a)), a) for a in legal]
        counts = [float(n.visits) if n is not None else 0.0 for n, _ in visits]
        self.last_scores = (list(legal), counts)
        most = max(n.visits if n is not None else 0 for n, _ in visits)
        ties = [a for n, a in visits if (n.visits if n is not None else 0) == most]
        return ties[int(py.random() * len(ties))]
