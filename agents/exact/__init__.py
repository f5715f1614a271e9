"""Agents that play a game, or a part of it, exactly: solved by dynamic programming rather than
scripted or learned (``optimal_round`` of flip6: the round's expected points maximised exactly),
or by search with perfect information (``open_hand`` of thegame: the best line of a deal with
every hand and the draw order known; not a legal player, ``legal_player = False``).

Solved models that seat no agent of the suite: ``flip6_game`` (flip6 for two seats solved for
the game, on the number cards) and ``sevn_round`` (a lower bound on sevn's round positions).

``EXACT`` maps a game to its solved agents' factories (each takes ``seed=``); ``make_agent``
builds them by name like the scripted baselines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _flip6_round(seed: int | None = None) -> Any:
    from cardarena.agents.exact.flip6_round import OptimalRoundAgent

    return OptimalRoundAgent(seed=seed)


def _thegame_open(seed: int | None = None) -> Any:
    from cardarena.agents.exact.thegame_open import OpenHandAgent

    return OpenHandAgent(seed=seed)


EXACT: dict[str, dict[str, Callable[..., Any]]] = {
    "flip6": {"optimal_round": _flip6_round},
    "thegame": {"open_hand": _thegame_open},
}


def exact(game: str) -> dict[str, Callable[..., Any]]:
    """The solved agents of ``game`` by name (empty for a game with none)."""
    return dict(EXACT.get(game, {}))
