"""Helpers of the rule-table tests: play scripted moves on a stacked env and check every step.

A move is ``"SEAT ACTION"`` in the game's action text (``"2 hit"``); every step checks that
SEAT holds the decision and that every card is still somewhere (card conservation).
"""

from __future__ import annotations

from typing import Any

from cardarena.envs.core import CardGameEnv


def check_conservation(env: CardGameEnv) -> None:
    assert env.game.conservation_error(env.state_obj) is None


def act(env: CardGameEnv, move: str) -> None:
    """Play ``"SEAT ACTION"``: SEAT must hold the decision."""
    seat_text, action_text = move.split(" ", 1)
    seat = int(seat_text)
    d = env.to_dict()
    assert not d["over"], f"game over before {move!r}"
    assert d["current_player"] == seat, f"{move!r}: seat {d['current_player']} decides ({d})"
    assert env.agent_selection == f"player_{seat}"
    env.step(env.unwrapped.parse_action(action_text))
    check_conservation(env)


def play(env: CardGameEnv, moves: list[str]) -> dict[str, Any]:
    for move in moves:
        act(env, move)
    return env.to_dict()


def decision(env: CardGameEnv) -> tuple[str, int | None]:
    d = env.to_dict()
    return d["decision"], d["current_player"]


def legal_texts(env: CardGameEnv) -> list[str]:
    return [env.describe_action(a) for a in env.legal_actions()]


def rewards(env: CardGameEnv) -> list[float]:
    return [env.rewards[a] for a in env.possible_agents]
