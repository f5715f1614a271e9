"""Greedy evaluation of the learner during and after training (through the evaluation room's
``play_game`` and ``summarise``)."""

from __future__ import annotations

from typing import Any

from cardarena.agents import best_baseline, make_agent, scripted_names
from cardarena.agents.training.config import TrainConfig


def eval_opponents(cfg: TrainConfig, cooperative: bool) -> tuple[str, list[str]]:
    """The headline baseline of a config and every baseline evaluated against during the run."""
    against = cfg.eval.against or best_baseline(cfg.game)
    if cooperative:
        return against, [against]
    baselines = scripted_names(cfg.game) if cfg.eval.baselines == "all" else cfg.eval.baselines
    return against, list(dict.fromkeys([*baselines, against]))


def evaluate_actor(
    game: str,
    env_options: dict[str, Any],
    actor: Any,
    against: str,
    deals: int,
    first_seed: int,
) -> dict[str, float]:
    """Win rate of ``actor`` (greedy) at a table of ``against`` players, every seat rotation."""
    from cardarena.agents.evaluation.tournament import play_game, summarise
    from cardarena.agents.policy import PolicyAgent
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(game)
    n = spec.make_engine(**env_options).num_players
    records = []
    me = PolicyAgent(actor, name="learner")
    if spec.cooperative:  # the learner plays every seat; the team result is what counts
        from cardarena.agents.evaluation.tournament import summarise_coop

        for d in range(deals):
            seats = [PolicyAgent(actor, name="learner") for _ in range(n)]
            records.append(play_game(game, env_options, seats, first_seed + d, agent_seed=d))
        team = summarise_coop(records)[0]
        return {
            "win_rate": team.win_rate,
            "ci_low": team.win_ci[0],
            "ci_high": team.win_ci[1],
            "mean_score": team.mean_score,
        }
    others = [make_agent(game, against) for _ in range(n - 1)]
    for d in range(deals):
        for seat in range(n):
            seats: list[Any] = list(others)
            seats.insert(seat, me)
            rec = play_game(game, env_options, seats, first_seed + d, agent_seed=d)
            rec.lineup = ["learner" if i == seat else against for i in range(n)]
            records.append(rec)
    summary = {s.name: s for s in summarise(records, ["learner", against])}["learner"]
    return {
        "win_rate": summary.win_rate,
        "ci_low": summary.win_ci[0],
        "ci_high": summary.win_ci[1],
        "mean_score": summary.mean_score,
    }
