"""The errors every cardarena engine and env raises, and the checks of integer options."""

from __future__ import annotations

from typing import Any

import numpy as np


class CardArenaError(Exception):
    """Base class of every error raised by cardarena engines and environments."""


class IllegalActionError(CardArenaError, ValueError):
    """An action that is not legal in the current decision."""


class ActionTypeError(IllegalActionError, TypeError):
    """An action that is not an integer: a float, a text, a bool, a list, or None while a seat
    must act (actions are Python or numpy ints of ``Discrete(num_actions)``)."""


class OutOfTurnError(CardArenaError, RuntimeError):
    """A seat tried to act while another seat holds the decision."""


class GameOverError(CardArenaError, RuntimeError):
    """An action was given to a game that has already ended."""


class ConfigError(CardArenaError, ValueError):
    """A bad configuration value or reset option."""


class ResetNeededError(CardArenaError, RuntimeError):
    """A call that needs a game before there is one: an env before ``reset()``, an engine
    method given ``None`` for its state."""


class UnknownAgentError(ConfigError, KeyError):
    """An agent name or seat the env does not have (``observe("player_9")`` at a 4-seat table)."""

    def __str__(self) -> str:  # KeyError's own str() would quote the message
        return str(self.args[0]) if self.args else ""


class AgentFault(CardArenaError, RuntimeError):
    """An agent that failed at the table: an outside process that timed out, crashed, wrote
    garbage or answered an illegal action. The message names the agent, the game, the seat
    and the deck seed (once the caller that knows it has added it: :meth:`at`) and what happened.
    """

    def __init__(
        self,
        what: str,
        agent: str = "?",
        game: str = "?",
        seat: int | None = None,
        deal_seed: int | None = None,
    ) -> None:
        self.what, self.agent, self.game = what, agent, game
        self.seat, self.deal_seed = seat, deal_seed
        super().__init__(str(self))

    def at(self, seat: int | None = None, deal_seed: int | None = None) -> AgentFault:
        """The same fault with the seat and deck seed filled in (those already known kept)."""
        return AgentFault(
            self.what,
            self.agent,
            self.game,
            self.seat if self.seat is not None else seat,
            self.deal_seed if self.deal_seed is not None else deal_seed,
        )

    def __str__(self) -> str:
        seat = "?" if self.seat is None else self.seat
        seed = "?" if self.deal_seed is None else self.deal_seed
        return (
            f"agent {self.agent!r} playing {self.game} at seat {seat} (deck seed {seed}): "
            f"{self.what}"
        )

    def __reduce__(self) -> Any:  # pickled whole between worker processes
        return (AgentFault, (self.what, self.agent, self.game, self.seat, self.deal_seed))


def check_int(name: str, value: Any, low: int, high: int) -> int:
    """Validate an integer option so that a typo fails at construction with the allowed range."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ConfigError(f"{name} must be an integer in [{low}, {high}], got {value!r}")
    if not low <= int(value) <= high:
        raise ConfigError(f"{name} must be in [{low}, {high}], got {value!r}")
    return int(value)


def check_number(name: str, value: Any) -> float:
    """A finite real number (a Python or numpy int or float, not a bool) as a float, or the
    ConfigError naming the option."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, int | float | np.number)
        or not np.isfinite(value)
    ):
        raise ConfigError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def check_scores(scores: Any, num_players: int) -> list[int]:
    """Validate a ``scores`` scenario option: one non-negative integer game total per seat
    (None: everybody at 0)."""
    if scores is None:
        return [0] * num_players
    if (
        not isinstance(scores, list | tuple)
        or len(scores) != num_players
        or any(isinstance(s, bool) or not isinstance(s, int | np.integer) or s < 0 for s in scores)
    ):
        raise ConfigError(f"scores must be {num_players} non-negative integers, got {scores!r}")
    return [int(s) for s in scores]
