"""The one game loop: how a seat's decision is put to its agent and applied to the engine.

Tournaments, lock-step batches, the self-play adapter, rollout improvement, human play and the
benches all play through :func:`decide` and :func:`play`, so an agent sees the same thing
whoever runs the game: the action mask, and the observation and ``view`` only if it reads them
(``uses_observation`` / ``uses_view``, both True when absent). A move with one legal action is
first offered to ``act_forced`` (an agent that can play it without looking returns True).

Search agents (``uses_worlds = True``) also get, before each ``act``, a :class:`Worlds` handle
through ``set_worlds``: the engine, the spec, the seat and ``sample(rng)``, which draws complete
game states from the seat's information set. The handle is built from a scrubbed copy of the
state (its hidden cards already redrawn once), so it holds nothing the seat could not see.

Seers (``sees_state = True``, ``agents/seer.py``) get, before each ``act``, a copy of the true
state through ``set_state(spec, engine, state, seat)``: every hidden card and the generator of
the reshuffles to come. They are references, not legal players (``legal_player = False``), and
no other agent is ever handed the state.

Outside agents (``uses_text = True``: a process speaking the JSON-lines protocol of
``docs/protocol.md``) also get, before each ``act``, the seat's text render and the engine
through ``set_text(text, engine, seat)`` (the engine names the actions and parses answers; it
holds no game). :func:`finish` hands every seat's agent that has an ``end_game`` method the
game's result (scores, winners, returns, its seat; a forfeit names the seat that forfeited).
Agents that do not opt in cost one attribute look-up per decision.

An agent here is a ``seats.SeatAgent`` (the loop itself calls only ``act(observation,
action_mask, view) -> int``): the engine layer names no player class (``agents/`` implements the
protocol).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardarena.envs.core.engine import (
    CardArenaError,
    GameEngine,
    ResetNeededError,
    split_returns,
    unguarded,
)
from cardarena.envs.core.seats import SeatAgent

#: seed of the generator that scrubs the state a :class:`Worlds` handle keeps (any fixed value:
#: the scrubbed copy depends on the seat's information only, see ``GameEngine.resample_hidden``)
_SCRUB_SEED = 0x5EA5C4


class Worlds:
    """Sampler of the worlds a seat cannot tell apart, for search agents.

    ``sample(rng)`` returns a fresh, complete engine state consistent with everything ``seat``
    has observed, its hidden parts drawn from the seat's posterior by ``rng``; the agent may
    advance it with ``engine.apply`` freely. Built from a scrubbed copy: one ``resample_hidden``
    with a private generator, so no true hidden card is kept here.
    """

    __slots__ = ("_scrubbed", "engine", "seat", "spec")

    def __init__(self, spec: Any, engine: GameEngine, state: Any, seat: int) -> None:
        self.spec = spec
        self.engine = engine
        self.seat = seat
        self._scrubbed = engine.resample_hidden(state, seat, np.random.default_rng(_SCRUB_SEED))

    def sample(self, rng: np.random.Generator) -> Any:
        return self.engine.resample_hidden(self._scrubbed, self.seat, rng)


def decide(
    spec: Any, engine: GameEngine, state: Any, seat: int, agent: SeatAgent, mask: np.ndarray
) -> int:
    """``agent``'s action for ``seat``; ``mask`` (int8, one entry per action) is filled here."""
    legal = engine.legal_actions(state)
    if len(legal) == 1:
        forced = getattr(agent, "act_forced", None)
        if forced is not None and forced(int(legal[0])):  # e.g. a network: no forward pass
            return int(legal[0])
    mask[:] = 0
    mask[legal] = 1
    if getattr(agent, "uses_worlds", False):
        agent.set_worlds(Worlds(spec, engine, state, seat))  # type: ignore[attr-defined]
    if getattr(agent, "sees_state", False):  # a seer (agents/seer.py): not a legal player
        agent.set_state(spec, engine, engine.clone(state), seat)  # type: ignore[attr-defined]
    if getattr(agent, "uses_text", False):
        agent.set_text(spec.render(state, seat), engine, seat)  # type: ignore[attr-defined]
    action = agent.act(
        spec.encode(state, seat) if getattr(agent, "uses_observation", True) else None,
        mask,
        spec.view(state, seat) if getattr(agent, "uses_view", True) else None,
    )
    return as_action(action, getattr(agent, "name", type(agent).__name__))


def result(
    engine: GameEngine,
    state: Any,
    forfeit: int | None = None,
    fault: str | None = None,
    cooperative: bool = False,
) -> dict[str, Any]:
    """A game's result as plain data: ``scores``, ``winners``, ``returns`` (every seat), and
    ``forfeit`` (the seat that forfeited, or None) with ``fault`` (why). A forfeited game is
    scored as it stood; every other seat wins it (``split_returns`` of them), none of a
    cooperative game's team does."""
    scores = [float(s) for s in engine.scores(state)]
    if forfeit is None:
        winners = [int(w) for w in engine.winners(state)]
        returns = [float(r) for r in engine.returns(state)]
    else:
        n = engine.num_players
        winners = [] if cooperative else [s for s in range(n) if s != forfeit]
        returns = [float(r) for r in split_returns(winners, n)]
    return {
        "scores": scores,
        "winners": winners,
        "returns": returns,
        "forfeit": forfeit,
        "fault": fault,
    }


def finish(agents: Sequence[Any], outcome: dict[str, Any]) -> None:
    """Tell every seat's agent that has an ``end_game`` method how the game ended
    (:func:`result`, with ``seat`` added: the agent's own)."""
    for seat, agent in enumerate(agents):
        end = getattr(agent, "end_game", None)
        if end is not None:
            end({**outcome, "seat": seat})


def as_action(action: Any, name: str) -> int:
    """An agent's answer as an action index, or an error naming the agent and what it returned."""
    try:
        return int(action)
    except (TypeError, ValueError):
        raise CardArenaError(f"agent {name!r} returned {action!r}, not an action index") from None


def play(
    spec: Any,
    engine: GameEngine,
    state: Any,
    agents: Sequence[SeatAgent | None],
    until: Callable[[Any], bool] | None = None,
    on_action: Callable[[int, int], None] | None = None,
    mask: np.ndarray | None = None,
) -> int:
    """Play ``state`` on, each seat by its agent, until the game ends, ``until(state)`` holds
    or the seat to act has no agent (None: a learner or a person decides it); returns the number
    of decisions made. ``on_action(seat, action)`` is called after each one is applied; ``mask``
    is a buffer to reuse (a caller that plays many short stretches saves the allocation)."""
    if mask is None:
        mask = np.zeros(engine.num_actions, dtype=np.int8)
    if state is None:
        raise ResetNeededError(f"{engine.name}: no game to play (None); deal one first.")
    made = 0
    # the engine's methods without their check of the state (there is one): envs/core/engine.py
    is_over, current, apply = (
        unguarded(engine.is_over),
        unguarded(engine.current_player),
        unguarded(engine.apply),
    )
    while not is_over(state) and not (until is not None and until(state)):
        seat: int = current(state)  # not over: an int
        agent = agents[seat]
        if agent is None:
            break
        action = decide(spec, engine, state, seat, agent, mask)
        apply(state, action, seat)
        made += 1
        if on_action is not None:
            on_action(seat, action)
    return made
