"""Many games in lock-step, so that agents with their own ``act_batch`` decide for all of them at once.

:func:`play_lockstep` advances every unfinished game of a batch by one decision per round.
Agents that override ``act_batch`` (and do not set ``batchable = False``) get one ``act_batch``
call per round with the decisions of every game waiting on them, so they must not keep per-game
state between calls; every other agent (scripted baselines, network agents) acts game by game.

Results do not depend on which games share a batch: each seat of each game has its own agent
object, reset with ``envs.core.seeding.agent_seed(deal_seed, seat)`` (the seeds :func:`agents.evaluation.tournament.play_game` gives
with ``agent_seed=deal_seed``), and a network agent's decision is computed from its own
observation alone (:meth:`agents.policy.NumpyActor.legal_logits`, no BLAS), so neither the batch
nor the machine's BLAS kernel can change it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.core import seeding
from cardarena.envs.core.engine import CardArenaError
from cardarena.envs.core.errors import AgentFault
from cardarena.envs.core.loop import as_action, decide, finish, result
from cardarena.envs.core.registry import get_spec
from cardarena.envs.core.replay import agent_note

Job = tuple[int, Sequence[str]]  # (deal seed, agent spec per seat)


def batch_kind(agent: Any) -> str | None:
    """ "custom" (its own act_batch) or None (one by one)."""
    flag = getattr(agent, "batchable", None)
    if flag is None:
        own = getattr(type(agent), "act_batch", None)
        flag = own is not None and own is not Agent.act_batch
    return "custom" if flag else None


def play_lockstep(
    game: str,
    options: Mapping[str, Any],
    agents: Mapping[str, Any],
    jobs: Sequence[Job],
    trace: list[list[int]] | None = None,
    on_fault: str = "stop",
    notes: list[list[Any]] | None = None,
) -> list[Any]:
    """Play every job (deck seed, seat specs) at once; one :class:`GameRecord` per job, in order.

    An :class:`~envs.core.errors.AgentFault` (an outside agent that timed out, crashed or
    answered wrongly) stops the batch (``on_fault="stop"``) or forfeits that game for the
    faulty seat (``"forfeit"``: its record says so, the others go on). When a game ends, every
    seat's agent hears its result (``envs.core.loop.finish``).

    ``agents`` maps each spec used in ``jobs`` to a built agent; it is copied once per seat and
    game, so it is never reset or mutated here. With ``trace`` (a list), each job's actions in
    order are appended to it (what ``evaluate.py --record`` writes replays from); with
    ``notes`` (a list, given with ``trace``), the note each agent left on each of those actions
    (``envs.core.replay.agent_note``: a language model's transcript, else None).
    """
    spec = get_spec(game)
    engine = spec.make_engine(**options)
    num_actions = engine.num_actions
    states = [engine.new_game(np.random.default_rng(seed)) for seed, _ in jobs]
    seats = [_seat_agents(game, agents, seed, lineup) for seed, lineup in jobs]
    kinds = [[batch_kind(a) for a in row] for row in seats]
    one_mask = np.zeros(num_actions, dtype=np.int8)
    decisions = [0] * len(jobs)
    played: list[list[int]] = [[] for _ in jobs]
    noted: list[list[Any]] = [[] for _ in jobs]
    said: dict[int, Any] = {}
    outcomes: dict[int, dict[str, Any]] = {}
    cooperative = spec.cooperative

    def ended(g: int, forfeit: int | None = None, fault: str | None = None) -> None:
        outcomes[g] = result(engine, states[g], forfeit, fault, cooperative)
        finish(seats[g], outcomes[g])

    active = _unfinished(engine, states, range(len(jobs)), outcomes, ended)
    while active:
        actions: dict[int, int] = {}
        turn: dict[int, int] = {}
        custom: dict[str, list[tuple[int, np.ndarray, np.ndarray, dict[str, Any]]]] = {}
        for g in active:
            state = states[g]
            seat: int = engine.current_player(state)  # not over: an int
            turn[g] = seat
            agent = seats[g][seat]
            kind = kinds[g][seat]
            if kind == "custom":
                mask = np.zeros(num_actions, dtype=np.int8)
                mask[engine.legal_actions(state)] = 1
                custom.setdefault(jobs[g][1][seat], []).append(
                    (g, spec.encode(state, seat), mask, spec.view(state, seat))
                )
            else:
                try:
                    actions[g] = _decide(game, spec, engine, state, seat, agent, one_mask, jobs, g)
                    if notes is not None:
                        said[g] = agent_note(agent)
                except AgentFault as fault:
                    if on_fault != "forfeit":
                        raise
                    ended(g, seat, str(fault))
        for group in custom.values():
            _act_batch(game, jobs, seats, turn, group, actions)
        for g in active:
            if g not in outcomes:  # not forfeited
                _apply(engine, states[g], actions[g], turn[g], jobs, g)
                decisions[g] += 1
                played[g].append(actions[g])
                if notes is not None:
                    noted[g].append(said.pop(g, None))
        active = _unfinished(engine, states, active, outcomes, ended)
    if trace is not None:
        trace.extend(played)
    if notes is not None:
        notes.extend(noted)
    return _records(jobs, outcomes, decisions)


def _apply(engine: Any, state: Any, action: int, seat: int, jobs: Sequence[Job], g: int) -> None:
    try:
        engine.apply(state, action, seat)
    except CardArenaError as err:
        raise _in_game(err, jobs, g, seat) from None


def _unfinished(
    engine: Any,
    states: list[Any],
    games: Iterable[int],
    outcomes: dict[int, Any],
    ended: Callable[[int], None],
) -> list[int]:
    """The games of ``games`` still to play; those that have just ended are ``ended``."""
    still = []
    for g in games:
        if g in outcomes:  # forfeited
            continue
        if engine.is_over(states[g]):
            ended(g)
        else:
            still.append(g)
    return still


def _decide(
    game: str,
    spec: Any,
    engine: Any,
    state: Any,
    seat: int,
    agent: Any,
    mask: np.ndarray,
    jobs: Sequence[Job],
    g: int,
) -> int:
    """One decision of game ``g``; a failure of the agent names it, its seat and deck seed."""
    try:
        return decide(spec, engine, state, seat, agent, mask)
    except AgentFault as err:
        raise err.at(seat, int(jobs[g][0])) from None
    except CardArenaError as err:
        raise _in_game(err, jobs, g, seat) from None
    except Exception as err:  # noqa: BLE001
        raise AgentError(_failure(game, *_who(jobs, g, seat), "act", err)) from err
    except SystemExit as err:
        raise AgentError(_failure(game, *_who(jobs, g, seat), "act", err)) from None


def _seat_agents(
    game: str, agents: Mapping[str, Any], seed: int, lineup: Sequence[str]
) -> list[Any]:
    """A copy of each seat's agent, reset with the seat's seed."""
    row = []
    for i, name in enumerate(lineup):
        agent = copy.copy(agents[name])
        try:
            agent.reset(seeding.agent_seed(seed, i))
        except Exception as err:  # noqa: BLE001 - any failure of an agent is reported as one
            raise AgentError(_failure(game, name, i, seed, "reset", err)) from err
        except SystemExit as err:
            raise AgentError(_failure(game, name, i, seed, "reset", err)) from None
        row.append(agent)
    return row


def _act_batch(
    game: str,
    jobs: Sequence[Job],
    seats: list[list[Any]],
    turn: dict[int, int],
    group: list[tuple[int, np.ndarray, np.ndarray, Any]],
    actions: dict[int, int],
) -> None:
    """One ``act_batch`` call for the games of ``group`` (game, observation, mask, view), which
    wait on the same agent spec; their actions go into ``actions``."""
    gs = [item[0] for item in group]
    try:
        chosen = seats[gs[0]][turn[gs[0]]].act_batch(
            np.stack([item[1] for item in group]),
            np.stack([item[2] for item in group]),
            [item[3] for item in group],
        )
    except (Exception, SystemExit) as err:  # noqa: BLE001
        who = _who(jobs, gs[0], turn[gs[0]])
        raise AgentError(_failure(game, *who, "act_batch", err)) from None
    for g, act in zip(gs, chosen, strict=True):
        try:
            actions[g] = as_action(act, jobs[g][1][turn[g]])
        except CardArenaError as err:
            raise _in_game(err, jobs, g, turn[g]) from None


def _records(
    jobs: Sequence[Job], outcomes: dict[int, dict[str, Any]], decisions: list[int]
) -> list[Any]:
    """One :class:`GameRecord` per game, finished or forfeited (``envs.core.loop.result``)."""
    from cardarena.agents.evaluation.ratings import finishing_ranks
    from cardarena.agents.evaluation.records import GameRecord, short_fault

    records = []
    for g, (seed, lineup) in enumerate(jobs):
        out = outcomes[g]
        records.append(
            GameRecord(
                deal_seed=int(seed),
                lineup=list(lineup),
                returns=out["returns"],
                scores=out["scores"],
                winners=out["winners"],
                decisions=decisions[g],
                ranks=finishing_ranks(out["scores"], out["winners"]),
                forfeit=out["forfeit"],
                fault=short_fault(out["fault"]),
            )
        )
    return records


class AgentError(CardArenaError):
    """An agent raised (or tried to exit the process) while playing."""


def _who(jobs: Sequence[Job], g: int, seat: int) -> tuple[str, int, int]:
    seed, lineup = jobs[g]
    return lineup[seat], seat, int(seed)


def _failure(game: str, name: str, seat: int, seed: int, call: str, err: BaseException) -> str:
    if isinstance(err, SystemExit):
        what = f"tried to exit the process (SystemExit {err.code!r})"
    else:
        what = f"raised {type(err).__name__}: {err}"
    return f"agent {name!r} {what} in {call}() playing {game} at seat {seat} (deck seed {seed})"


def _in_game(err: CardArenaError, jobs: Sequence[Job], g: int, seat: int) -> CardArenaError:
    """``err`` with the agent, seat and deck seed it happened at."""
    seed, lineup = jobs[g]
    return type(err)(f"agent {lineup[seat]!r} at seat {seat} (deck seed {seed}): {err}")
