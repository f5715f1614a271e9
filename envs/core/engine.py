"""The interface every rules engine implements, and the errors it raises.

An engine is a small class holding a game's configuration; the game state is a separate mutable
object it creates and advances. Engines know cards, seats and turns only: no gymnasium, pettingzoo,
torch or agent code is imported here or in any ``rules.py``. Actions are plain ints in
``range(num_actions)`` whose meaning never changes during a game; every engine also gives each action
a stable text form.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections import Counter
from typing import Any, Generic, TypeVar

import numpy as np

S = TypeVar("S")


class CardArenaError(Exception):
    """Base class of every error raised by cardarena engines and environments."""


class IllegalActionError(CardArenaError, ValueError):
    """An action that is not legal in the current decision."""


class OutOfTurnError(CardArenaError, RuntimeError):
    """A seat tried to act while another seat holds the decision."""


class GameOverError(CardArenaError, RuntimeError):
    """An action was given to a game that has already ended."""


class ConfigError(CardArenaError, ValueError):
    """A bad configuration value or reset option."""


def check_int(name: str, value: Any, low: int, high: int) -> int:
    """Validate an integer option so that a typo fails at construction with the allowed range."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ConfigError(f"{name} must be an integer in [{low}, {high}], got {value!r}")
    if not low <= int(value) <= high:
        raise ConfigError(f"{name} must be in [{low}, {high}], got {value!r}")
    return int(value)


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


def rng_to_dict(rng: np.random.Generator) -> dict[str, Any]:
    """The generator's exact state as JSON data (for ``to_dict``)."""
    return copy.deepcopy(rng.bit_generator.state)


def rng_from_dict(data: dict[str, Any]) -> np.random.Generator:
    """A generator in exactly the state :func:`rng_to_dict` saved (for ``from_dict``)."""
    rng = np.random.Generator(getattr(np.random, data["bit_generator"])())
    rng.bit_generator.state = copy.deepcopy(data)
    return rng


def standing_features(scores: list[int], seat: int, dealer: int, target: float) -> np.ndarray:
    """``round_features`` of a points race: ``seat``'s total, the others' totals highest first,
    its lead over the best other (all / ``target``), and its place in the turn order after
    ``dealer`` (one-hot, 0 = first to act)."""
    n = len(scores)
    me = scores[seat]
    others = sorted((scores[(seat + k) % n] for k in range(1, n)), reverse=True)
    place = np.zeros(n)
    place[(seat - dealer - 1) % n] = 1.0
    return np.concatenate(
        [[me / target], np.asarray(others) / target, [(me - others[0]) / target], place]
    )


class GameEngine(ABC, Generic[S]):
    """Rules of one game for a fixed configuration.

    Subclasses declare ``name``, ``num_actions``, ``min_players``/``max_players`` and the card codes
    of the rules file, and implement the abstract methods. ``apply`` mutates the state in place and
    advances it to the next decision (or the end), so a state is always waiting on exactly one seat
    or over.
    """

    name: str = ""
    num_actions: int = 0
    min_players: int = 1
    max_players: int = 1
    #: "zero_sum" (returns add up to 0) or "shared" (every seat gets the same return)
    reward_kind: str = "zero_sum"

    num_players: int

    # ----- life cycle -------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> S:
        """A fresh game; ``options`` may stack the deck (``deck``) and set up scenarios."""

    @abstractmethod
    def apply(self, state: S, action: int, seat: int | None = None) -> None:
        """Play ``action`` for the deciding seat (``seat`` if given must be that seat)."""

    # ----- queries ----------------------------------------------------------------------------
    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat holding the decision, or None once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[int]:
        """Legal actions of the deciding seat, sorted; empty once the game is over."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def returns(self, state: S) -> list[float]:
        """Return of every seat accumulated so far (the final payoff once the game is over).

        Environments reward each step with the change of this list, so a game with only a
        terminal payoff returns zeros until the end, and a game with running rewards (thegame:
        +1/98 per card placed) returns the running total.
        """

    @abstractmethod
    def scores(self, state: S) -> list[float]:
        """Game totals per seat as the rules count them (points, cards left, ...)."""

    @abstractmethod
    def winners(self, state: S) -> list[int]:
        """Winning seats once the game is over (empty while it runs)."""

    # ----- text form of actions ----------------------------------------------------------------
    @abstractmethod
    def describe_action(self, action: int) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> int: ...

    def potential(self, state: S, seat: int) -> float:
        """A measure of how well ``seat`` stands, for potential-based reward shaping in training.

        Shaping with ``coef * (potential(after) - potential(before))`` adds up over a game to
        ``coef * (potential(end) - potential(start))`` and leaves the optimal policy unchanged
        (Ng et al., 1999); it only gives the learner a denser signal. Default: no shaping.
        """
        return 0.0

    # ----- optional hooks for rollout policy improvement (agents/improve.py) -----------------
    def round_index(self, state: S) -> int | None:
        """Index of the round (hand) in progress, for games played over rounds; None otherwise.

        Rollouts used to improve a policy stop when it changes and value the position there.
        """
        return None

    def round_features(self, state: S, seat: int) -> np.ndarray:
        """A small vector describing ``seat``'s standing between rounds (totals, seat order), the
        input of the learned value of a round boundary. Only games with rounds define it."""
        raise ConfigError(
            f"{self.name} does not define round_features(), so rollout improvement cannot value "
            f"a round boundary; set warm_start.improve to null for this game"
        )

    def decision_name(self, state: S) -> str:
        """A short name of the pending decision, used in error messages and renders."""
        return "turn"

    # ----- serialisation ----------------------------------------------------------------------
    @abstractmethod
    def to_dict(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def from_dict(self, data: dict[str, Any]) -> S: ...

    # ----- invariants used by tests -------------------------------------------------------------
    @abstractmethod
    def card_zones(self, state: S) -> dict[str, list[str]]:
        """Every zone that holds cards (draw pile, discard, table, hands, set-aside) as codes."""

    @abstractmethod
    def deck_codes(self) -> list[str]:
        """The full deck as codes (a multiset): the zones must always add up to it."""

    @abstractmethod
    def resample_hidden(self, state: S, seat: int, rng: np.random.Generator) -> S:
        """A copy of ``state`` whose parts hidden from ``seat`` are redrawn consistently with what
        ``seat`` has seen (used to prove observations leak nothing)."""

    def conservation_error(self, state: S) -> str | None:
        """None when every card of the deck is in exactly one zone, else what is wrong."""
        seen: Counter[str] = Counter()
        for cards in self.card_zones(state).values():
            seen.update(cards)
        want = Counter(self.deck_codes())
        if seen == want:
            return None
        return f"missing {dict(want - seen)}, extra {dict(seen - want)}"

    # ----- helpers for subclasses ---------------------------------------------------------------
    def illegal(self, state: S, action: Any) -> IllegalActionError:
        legal = self.legal_actions(state)
        seat = self.current_player(state)
        shown = ", ".join(f"{a}={self.describe_action(a)!r}" for a in legal)
        what = (
            repr(self.describe_action(action))
            if isinstance(action, int | np.integer) and 0 <= int(action) < self.num_actions
            else "out of range"
        )
        return IllegalActionError(
            f"{self.name}: action {action!r} ({what}) is not legal for seat {seat} in decision "
            f"'{self.decision_name(state)}'. Legal actions: [{shown}]. Pick one of them "
            f"(the observation's action_mask marks them)."
        )

    def check_turn(self, state: S, seat: int | None) -> int:
        """The deciding seat; raises when the game is over or ``seat`` is not the one to act."""
        current = self.current_player(state)
        if current is None:
            raise GameOverError(f"{self.name}: the game is over; start a new one (env.reset()).")
        if seat is not None and seat != current:
            raise OutOfTurnError(
                f"{self.name}: seat {seat} tried to act, but seat {current} holds the decision "
                f"'{self.decision_name(state)}'."
            )
        return current


def stack_deck(
    full_deck: list[int],
    top: list[int],
    rng: np.random.Generator,
    code_of: list[str],
) -> list[int]:
    """The draw pile, top first: the ``top`` cards in that order, the rest shuffled by ``rng``.

    Raises ConfigError if ``top`` asks for more copies of a card than the deck holds.
    """
    if not top:  # the same draw as below, without counting the deck (every new game's case)
        order = rng.permutation(len(full_deck))
        return [full_deck[i] for i in order.tolist()]
    rest = Counter(full_deck)
    for card in top:
        if rest[card] <= 0:
            raise ConfigError(
                f"deck option asks for more copies of {code_of[card]!r} than the deck holds "
                f"({Counter(full_deck)[card]})"
            )
        rest[card] -= 1
    remaining: list[int] = []
    for card in full_deck:
        if rest[card] > 0:
            remaining.append(card)
            rest[card] -= 1
    order = rng.permutation(len(remaining))
    return list(top) + [remaining[i] for i in order]
