"""Rollouts for the search agents: play a sampled world on with a cheap policy and value the end.

Rollouts copy and advance engine states directly (``engine.clone``, ``legal_actions``,
``apply``): no JSON, no environment wrapper. Two kinds of policy:

* ``random``: uniform over the legal actions, drawn with Python's ``random.Random`` (a numpy call
  per decision would cost more than the engine step);
* a scripted baseline of the game (``ev``, ``greedy``, ...): one instance per seat, played through
  ``envs.core.loop.play`` so it reads exactly what it reads in a real game.

On an engine with rollout policies in C (``engine.rollout_policies``: the policy names and the
options of each port, e.g. flip6's native engine, ``envs/flip6/native.py``; the option ``rng``
hands the port each seat's agent's generator, for a policy that draws at random, e.g.
suicidium's ``heuristic``) a rollout of such a
policy runs there instead (``engine.play_out``), in place and with the same generators, so its
values and therefore the search's decisions are those of the Python path; ``run_many`` plays a
whole batch in one call. Given agents (a network, expert iteration) always play in Python.

The value of a rollout is ``engine.returns`` of its last state (thegame: the team's shared
return). With ``horizon="round"`` a rollout of a game played over rounds stops when the round in
progress at the root of the search ends and values the position by ``engine.standing`` (the lead
in game totals), unless the game ended first.

With ``depth=N`` (N >= 1) a rollout also stops after N decisions (a cut that comes before the
end of the game, or of the round with ``horizon="round"``). A cut position is valued by
``engine.standing`` or by a learned state value (``leaf.state_value``: a :class:`LeafValue`
whose ``features`` is ``"state_features"``), the same in C (``play_out(...,
max_decisions=N)``) as in Python, so the two paths still give the same values. That is search
in games without rounds (suicidium, thegame): the rollouts stop early and the leaf says what
the position is worth.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardarena.envs.core.engine import ConfigError, GameEngine
from cardarena.envs.core.loop import play

HORIZONS = ("game", "round")
#: a rollout longer than this many decisions is cut (no game of the suite comes near it)
MAX_ROLLOUT = 20_000


class Rollout:
    """A rollout policy of one game: ``run(state, rng)`` plays ``state`` on (in place) and returns
    the value of every seat."""

    def __init__(
        self,
        game: str,
        spec: Any,
        engine: GameEngine,
        policy: str,
        horizon: str,
        agents: list[Any] | None = None,
        leaf: Any = None,
        native: bool = True,
        depth: int = 0,
    ):
        if horizon not in HORIZONS:
            raise ConfigError(f"horizon must be one of {list(HORIZONS)}, got {horizon!r}")
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_ROLLOUT:
            raise ConfigError(
                f"depth must be an integer from 0 (no cut) to {MAX_ROLLOUT} (decisions of a "
                f"rollout before it is cut), got {depth!r}"
            )
        #: decisions after which a rollout is cut (0: none; MAX_ROLLOUT caps every rollout)
        self.depth = depth
        self.engine = engine
        self.spec = spec
        self.policy = policy
        self.horizon = horizon
        #: a ``leaf.LeafValue`` valuing round boundaries instead of ``engine.standing`` (None)
        self.leaf = leaf
        self.agents: list[Any] | None = None
        self.mask = np.zeros(engine.num_actions, dtype=np.int8)
        if agents is not None:  # given players (one per seat), e.g. a network's
            self.agents = list(agents)
        elif policy != "random":
            from cardarena.agents.specs import build_agent, scripted

            if policy not in scripted(game):
                raise ConfigError(
                    f"rollout must be 'random' or a scripted baseline of {game} "
                    f"{list(scripted(game))}, got {policy!r}"
                )
            self.agents = [build_agent(game, policy, seed=s) for s in range(engine.num_players)]
        #: (policy, options) of the engine's C port of the policy, or None: rollouts in Python
        self.native: tuple[str, dict[str, Any]] | None = None
        ports = getattr(engine, "rollout_policies", None)
        if native and ports and agents is None and policy in ports:
            names = [k for k in ports[policy] if k != "rng"]
            options = {k: getattr(self.agents[0], k) for k in names} if self.agents else {}
            self.native = (policy, options)
        #: the port draws the agents' random choices from their own generators (option "rng")
        self.native_rngs = self.native is not None and "rng" in (ports or {})[policy]

    def reseed(self, rng: random.Random) -> None:
        """Re-seed the scripted agents (called once per search, from the searching agent's rng)."""
        if self.agents is not None:
            for agent in self.agents:
                agent.reset(rng.getrandbits(63))

    def start(self, state: Any) -> int | None:
        """The round a search from ``state`` values at its end (None: play to the game's end).
        Taken at the root, so that every rollout of one search stops at the same boundary."""
        return self.engine.round_index(state) if self.horizon == "round" else None

    def run(
        self, state: Any, rng: random.Random, start: int | None = None, seat: int | None = None
    ) -> Any:
        """Play ``state`` on (in place) to the end of the game, or of round ``start`` (the
        value of :meth:`start` at the search's root), or for ``depth`` decisions when that
        comes first; the value of every seat, or of ``seat``
        alone when given (one leaf evaluation instead of one per seat)."""
        engine = self.engine
        if self.native is not None and self.native[0] != "random":
            # (a random rollout of one state stays here: handing ``rng``'s state to C and back
            # costs more than the native engine's Python loop; run_many seeds C directly)
            policy, options = self.native_options()
            values = engine.play_out([state], policy, start, **options)[0]  # type: ignore[attr-defined]
            if self.leaf is not None or self.depth:
                return self.value(state) if seat is None else self.value_of(state, seat)
            return values.tolist() if seat is None else float(values[seat])
        steps = self.depth or MAX_ROLLOUT
        if self.agents is None:
            legal_actions, apply, is_over = engine.legal_actions, engine.apply, engine.is_over
            pick = rng.random
            if start is None:
                for _ in range(steps):
                    if is_over(state):
                        break
                    legal = legal_actions(state)
                    apply(state, legal[int(pick() * len(legal))])
            else:
                round_index = engine.round_index
                for _ in range(steps):
                    if is_over(state) or round_index(state) != start:
                        break
                    legal = legal_actions(state)
                    apply(state, legal[int(pick() * len(legal))])
        else:
            play(self.spec, engine, state, self.agents, until=self._until(start), mask=self.mask)
        return self.value(state) if seat is None else self.value_of(state, seat)

    def _until(self, start: int | None) -> Any:
        """The ``until`` of ``loop.play`` for a rollout of ``run``: the end of round ``start``
        (None: no round end) or ``depth`` decisions, whichever comes first (None: neither)."""
        round_index = self.engine.round_index
        if not self.depth:
            return None if start is None else (lambda s: round_index(s) != start)
        left = [self.depth]  # play asks before each decision: stop once none are left

        def until(s: Any) -> bool:
            if left[0] == 0 or (start is not None and round_index(s) != start):
                return True
            left[0] -= 1
            return False

        return until

    def run_many(
        self, states: list[Any], seeds: list[int], start: int | None = None, seat: int | None = None
    ) -> list[Any]:
        """``run(states[i], random.Random(seeds[i]), start, seat)`` for every i, in order: one
        call into C where the engine has the policy natively, else one ``run`` after another."""
        if self.native is None:
            return [
                self.run(state, random.Random(s), start, seat)
                for state, s in zip(states, seeds, strict=True)
            ]
        policy, options = self.native_options()
        values = self.engine.play_out(states, policy, start, seeds=seeds, **options)  # type: ignore[attr-defined]
        if self.leaf is not None or self.depth:
            if seat is None:
                return [self.value(state) for state in states]
            return [self.value_of(state, seat) for state in states]
        return values.tolist() if seat is None else values[:, seat].tolist()

    def native_options(self) -> tuple[str, dict[str, Any]]:
        """(policy, options) for ``engine.play_out``: with ``rngs``, each seat's agent's
        generator (as it is now: ``reseed`` replaces them), where the port draws from them."""
        policy, options = self.native  # type: ignore[misc]
        if self.depth:
            options = {**options, "max_decisions": self.depth}
        if self.native_rngs and self.agents is not None:
            return policy, {**options, "rngs": [agent.rng for agent in self.agents]}
        return policy, options

    def value_of(self, state: Any, seat: int) -> float:
        """``value(state)[seat]``, computing that seat's only."""
        engine = self.engine
        if plays_to_the_end(engine, state, self.horizon, self.depth):
            return engine.returns(state)[seat]
        if self.leaf is not None:
            features = getattr(engine, self.leaf.features)
            return float(self.leaf(features(state, seat)[None])[0])
        return engine.standing(state, seat)

    def value(self, state: Any) -> list[float]:
        engine = self.engine
        if plays_to_the_end(engine, state, self.horizon, self.depth):
            return engine.returns(state)
        if self.leaf is not None:
            features, seats = getattr(engine, self.leaf.features), range(engine.num_players)
            return self.leaf(np.stack([features(state, s) for s in seats])).tolist()
        return [engine.standing(state, s) for s in range(engine.num_players)]


def plays_to_the_end(engine: GameEngine, state: Any, horizon: str, depth: int = 0) -> bool:
    """Whether the value of ``state`` is its return (the game ended, or rollouts go to the end:
    no depth cut, and no round end to stop at)."""
    if engine.is_over(state):
        return True
    if depth:
        return False
    return horizon == "game" or engine.round_index(state) is None
