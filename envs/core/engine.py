"""The interface every rules engine implements, and the errors it raises.

An engine is a small class holding a game's configuration; the game state is a separate mutable
object it creates and advances. Engines know cards, seats and turns only: no gymnasium, pettingzoo,
torch or agent code is imported here or in any ``rules.py``. Actions are plain ints in
``range(num_actions)`` whose meaning never changes during a game; every engine also gives each action
a stable text form.
"""

from __future__ import annotations

import copy
import functools
import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
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


#: bit generators a saved ``rng`` may name (numpy's own; nothing else is looked up by name)
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def rng_from_dict(data: Any, field: str = "rng", where: str = "") -> np.random.Generator:
    """A generator in exactly the state :func:`rng_to_dict` saved (for ``from_dict``).

    Raises ConfigError (``where`` prefixes the message) for anything but the state of one of
    numpy's bit generators."""
    name = data.get("bit_generator") if isinstance(data, dict) else None
    if name not in BIT_GENERATORS:
        raise ConfigError(
            f"{where}field {field!r} is {_show(data)}; allowed: a numpy bit generator state "
            f"(rng.bit_generator.state) naming one of {list(BIT_GENERATORS)}"
        )
    rng = np.random.Generator(getattr(np.random, name)())
    try:
        rng.bit_generator.state = data  # numpy copies the numbers out; data stays unshared
    except (TypeError, ValueError, KeyError, OverflowError, IndexError) as err:
        raise ConfigError(
            f"{where}field {field!r} is not a valid {name} state ({err}); allowed: the "
            f"rng.bit_generator.state that to_dict() wrote"
        ) from None
    return rng


def _show(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (a bad field may be huge)."""
    if isinstance(value, list | tuple | dict | set) and len(value) > 50:
        return f"a {type(value).__name__} of {len(value)} items"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_MISSING = object()


def _canon(value: Any) -> str:
    """JSON text of plain data, so that ``1``, ``1.0`` and ``True`` stay apart."""
    return json.dumps(value, sort_keys=True, default=repr)


class StateReader:
    """Reads the fields of a saved state (a ``to_dict()`` mapping) for ``from_dict``.

    Every getter checks type, range and size and raises :class:`ConfigError` naming the field,
    the bad value and what is allowed, so an impossible or corrupted file is refused with a clear
    message instead of an obscure exception (or a state no rule can reach). The constructor checks
    the envelope: a dict, the right ``game`` and ``num_players``, no unknown fields.
    """

    #: the longest list any field may hold (every deck of the suite is far smaller)
    MAX_ITEMS = 1_000

    def __init__(self, engine: GameEngine, data: Any) -> None:
        self.game = engine.name
        if not isinstance(data, dict):
            raise ConfigError(
                f"{self.game}: a saved state must be the dict to_dict() returns, got {_show(data)}"
            )
        self.data = data
        if data.get("game", _MISSING) != engine.name:
            raise self.error("game", data.get("game", _MISSING), repr(engine.name))
        self.num_players = self.int("num_players", 1, 64)
        if self.num_players != engine.num_players:
            raise ConfigError(
                f"{self.game}: state is for {self.num_players} players but this game has "
                f"{engine.num_players} (field 'num_players')"
            )

    # ---- errors ----------------------------------------------------------------------------------
    def error(self, field: str, value: Any, allowed: str) -> ConfigError:
        if value is _MISSING:
            return ConfigError(f"{self.game} state: field {field!r} is missing; allowed: {allowed}")
        return ConfigError(
            f"{self.game} state: field {field!r} is {_show(value)}; allowed: {allowed}"
        )

    def get(self, field: str) -> Any:
        if field not in self.data:
            raise self.error(field, _MISSING, "the value to_dict() writes")
        return self.data[field]

    # ---- scalars ---------------------------------------------------------------------------------
    def int(self, field: str, low: int, high: int, value: Any = _MISSING) -> int:
        """An int in ``[low, high]`` (bools and floats refused)."""
        if value is _MISSING:
            value = self.get(field)
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise self.error(field, value, f"an integer in [{low}, {high}]")
        if not low <= int(value) <= high:
            raise self.error(field, value, f"an integer in [{low}, {high}]")
        return int(value)

    def seat(self, field: str, none: Any = _MISSING, value: Any = _MISSING) -> int:
        """A seat index; with ``none`` given, that value (-1 or None) is also allowed."""
        if value is _MISSING:
            value = self.get(field)
        if none is not _MISSING and value == none and type(value) is type(none):
            return -1
        n = self.num_players
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value < n:
            extra = "" if none is _MISSING else f" or {none!r}"
            raise self.error(field, value, f"a seat in [0, {n - 1}]{extra}")
        return int(value)

    def bool(self, field: str, value: Any = _MISSING) -> bool:
        if value is _MISSING:
            value = self.get(field)
        if not isinstance(value, bool | np.bool_):
            raise self.error(field, value, "true or false")
        return bool(value)

    def choice(self, field: str, names: list[str] | tuple[str, ...], value: Any = _MISSING) -> int:
        """The index of a name among ``names``."""
        if value is _MISSING:
            value = self.get(field)
        if not isinstance(value, str) or value not in names:
            raise self.error(field, value, f"one of {list(names)}")
        return names.index(value)

    # ---- lists -----------------------------------------------------------------------------------
    def list(
        self,
        field: str,
        length: int | None = None,
        max_len: int | None = None,
        value: Any = _MISSING,
    ) -> list[Any]:
        """A list (exactly ``length`` long, or at most ``max_len``)."""
        if value is _MISSING:
            value = self.get(field)
        most = self.MAX_ITEMS if max_len is None else max_len
        if not isinstance(value, list | tuple):
            shape = f"a list of {length} items" if length is not None else "a list"
            raise self.error(field, value, shape)
        if length is not None and len(value) != length:
            raise self.error(field, value, f"a list of exactly {length} items")
        if len(value) > most:
            raise self.error(field, value, f"a list of at most {most} items")
        return list(value)

    def ints(
        self,
        field: str,
        low: int,
        high: int,
        length: int | None = None,
        max_len: int | None = None,
        value: Any = _MISSING,
    ) -> list[int]:
        items = self.list(field, length, max_len, value)
        if all(type(v) is int for v in items) and (
            not items or (low <= min(items) and max(items) <= high)
        ):
            return items  # the common case, checked at once
        return [self.int(f"{field}[{i}]", low, high, v) for i, v in enumerate(items)]

    def bools(self, field: str, length: int | None = None, value: Any = _MISSING) -> list[bool]:
        items = self.list(field, length, value=value)
        return [self.bool(f"{field}[{i}]", v) for i, v in enumerate(items)]

    def seats(
        self, field: str, max_len: int | None = None, unique: bool = True, value: Any = _MISSING
    ) -> list[int]:
        """Seat indices (distinct unless ``unique`` is False)."""
        n = self.num_players
        items = self.list(field, max_len=n if max_len is None else max_len, value=value)
        if all(type(v) is int and 0 <= v < n for v in items):
            out = items
        else:
            out = [self.seat(f"{field}[{i}]", value=v) for i, v in enumerate(items)]
        if unique and len(set(out)) != len(out):
            raise self.error(field, items, "distinct seats")
        return out

    def cards(
        self,
        field: str,
        parse: Callable[[Any], int],
        max_len: int | None = None,
        length: int | None = None,
        value: Any = _MISSING,
        lookup: dict[str, int] | None = None,
    ) -> list[int]:
        """Card codes as the engine's ints (``parse`` raises ConfigError for an unknown code).

        ``lookup`` (exact code -> int, only cards ``parse`` accepts) is a fast path for the
        codes ``to_dict`` writes; anything else goes through ``parse``."""
        items = self.list(field, length, max_len, value)
        if lookup is not None:
            out = [lookup.get(c, -1) if type(c) is str else -1 for c in items]
            if -1 not in out:
                return out
        out = []
        for i, code in enumerate(items):
            if not isinstance(code, str):
                raise self.error(f"{field}[{i}]", code, "a card code (a string)")
            try:
                out.append(parse(code))
            except ConfigError as err:
                raise ConfigError(f"{self.game} state: field '{field}[{i}]': {err}") from None
        return out

    def rows(self, field: str, count: int, value: Any = _MISSING) -> list[Any]:
        """A list of exactly ``count`` lists (one per seat, pile...)."""
        items = self.list(field, count, value=value)
        for i, row in enumerate(items):
            self.list(f"{field}[{i}]", value=row)
        return items

    def floats(self, field: str, bound: float, length: int, value: Any = _MISSING) -> list[float]:
        """``length`` finite numbers in ``[-bound, bound]``."""
        items = self.list(field, length, value=value)
        for i, v in enumerate(items):
            if (
                isinstance(v, bool)
                or not isinstance(v, int | float | np.integer | np.floating)
                or not -bound <= v <= bound
            ):
                raise self.error(f"{field}[{i}]", v, f"a finite number in [{-bound}, {bound}]")
        return [float(v) for v in items]

    def rng(self, field: str = "rng") -> np.random.Generator:
        return rng_from_dict(self.get(field), field, f"{self.game} state: ")


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


# ---- action texts from outside (a person's line, a replay file) ----------------------------------
#: the longest action text any engine reads (the longest one written is 32 characters)
MAX_ACTION_TEXT = 100
#: the characters action texts are made of: printable ASCII, plus the whitespace split() drops
_TEXT_CHARS = frozenset(map(chr, range(0x20, 0x7F))) | frozenset("\t\n\r")


def action_forms(engine: GameEngine[Any], limit: int = 12) -> str:
    """The action texts an engine reads, one example per first word with a count of the rest:
    ``'stay', 'hit', 'target 0' (+5 more 'target ...')``."""
    groups: dict[str, list[str]] = {}
    for a in range(engine.num_actions):
        text = engine.describe_action(a)
        groups.setdefault(text.split(" ", 1)[0], []).append(text)
    shown = []
    for word, texts in list(groups.items())[:limit]:
        more = f" (+{len(texts) - 1} more {word!r} ...)" if len(texts) > 1 else ""
        shown.append(f"{texts[0]!r}{more}")
    if len(groups) > limit:
        shown.append(f"... ({len(groups) - limit} more kinds)")
    return ", ".join(shown)


def refuse_text(engine: GameEngine[Any], text: Any, why: str, legal: Sequence[str] | None = None):
    """The :class:`IllegalActionError` for an action text ``engine`` does not read."""
    shown = _show(text, 60)
    known = f"legal now: {list(legal)}" if legal is not None else f"known: {action_forms(engine)}"
    return IllegalActionError(f"{engine.name}: cannot read action text {shown} ({why}); {known}")


def _guard_parse(parse: Callable[[Any, str], int]) -> Callable[[Any, str], int]:
    """``parse_action`` of an engine, made to raise :class:`IllegalActionError` (naming the text
    and the texts it reads) for any input: a non-string, an over-long text, a character no action
    text uses (``'²'`` or ``'٣'`` pass ``str.isdigit`` but are no digits of an action text), or
    whatever the game's own parser trips on (``int()`` of 5,000 digits, a table lookup)."""

    @functools.wraps(parse)
    def parse_action(self: GameEngine[Any], text: str) -> int:
        if not isinstance(text, str):
            raise refuse_text(self, text, f"type {type(text).__name__}, not str")
        if len(text) > MAX_ACTION_TEXT:
            raise refuse_text(self, text, f"{len(text)} characters; at most {MAX_ACTION_TEXT}")
        odd = next((c for c in text if c not in _TEXT_CHARS), None)
        if odd is not None:
            raise refuse_text(self, text, f"the character {odd!r} is in no action text")
        if not text.strip():
            raise refuse_text(self, text, "empty")
        try:
            action = parse(self, text)
        except IllegalActionError:
            raise  # the game's own refusal already names the text and the forms it reads
        except (CardArenaError, ValueError, OverflowError, IndexError, KeyError, TypeError) as err:
            raise refuse_text(self, text, f"{type(err).__name__}: {err}") from None
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise refuse_text(self, text, f"the parser gave {action!r}, not an action id")
        if not 0 <= int(action) < self.num_actions:
            raise refuse_text(self, text, f"the parser gave {action!r}, out of range")
        return int(action)

    parse_action._guarded = True  # type: ignore[attr-defined]
    return parse_action


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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every engine's ``parse_action`` is wrapped by :func:`_guard_parse`, so a text from a
        person or a file is refused with a clear :class:`IllegalActionError`, whatever the game's
        own parser would have raised."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("parse_action")
        if own is not None and callable(own) and not getattr(own, "_guarded", False):
            if not getattr(own, "__isabstractmethod__", False):
                cls.parse_action = _guard_parse(own)  # type: ignore[method-assign]

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
    def parse_action(self, text: str) -> int:
        """The action id of an action text (any form ``describe_action`` writes). Every engine's
        version is wrapped (see ``__init_subclass__``): any text it cannot read raises
        :class:`IllegalActionError` naming the text and the texts it reads."""

    def potential(self, state: S, seat: int) -> float:
        """A measure of how well ``seat`` stands, for potential-based reward shaping in training.

        Shaping with ``coef * (potential(after) - potential(before))`` adds up over a game to
        ``coef * (potential(end) - potential(start))`` and leaves the optimal policy unchanged
        (Ng et al., 1999); it only gives the learner a denser signal. Default: no shaping.
        """
        return 0.0

    def standing(self, state: S, seat: int) -> float:
        """How well ``seat`` stands at a round boundary, for search rollouts cut at the end of a
        round (``agents/search``, ``horizon=round``): higher is better, 0 for level, about -1..1.
        Default: :meth:`potential`. A game played over rounds whose ``potential`` is not its
        standing (it may be 0: no shaping) overrides this."""
        return self.potential(state, seat)

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
        ``seat`` has seen: one world of ``seat``'s information set, drawn from its posterior
        (uniform over the arrangements of the unseen cards; no inference from other players'
        choices). The result is a function of ``seat``'s information and ``rng`` only: two
        states that differ only in what ``seat`` cannot see give the same copy for the same
        ``rng`` state (the unseen cards are put in a canonical order before they are shuffled).
        Used by the leak tests and by search agents (``envs.core.loop.Worlds``)."""

    # ----- copying ------------------------------------------------------------------------------
    def clone(self, state: S, rng: np.random.Generator | None = None) -> S:
        """An independent copy of ``state`` for search rollouts (no JSON, no checks).

        Game states are slotted dataclasses of ints, bools, lists (nested lists copied, tuples
        shared: they are immutable) and one generator: copied exactly when ``rng`` is None,
        else replaced by ``rng`` (cheaper: rollouts from one sampled world may share its
        generator)."""
        cls = type(state)
        new = object.__new__(cls)
        for name in cls.__slots__:
            value = getattr(state, name)
            if type(value) is list:
                value = _dup(value)
            elif isinstance(value, np.random.Generator):
                value = rng if rng is not None else copy_generator(value)
            setattr(new, name, value)
        return new

    def conservation_error(self, state: S) -> str | None:
        """None when every card of the deck is in exactly one zone, else what is wrong."""
        seen: Counter[str] = Counter()
        for cards in self.card_zones(state).values():
            seen.update(cards)
        want = Counter(self.deck_codes())
        if seen == want:
            return None
        return f"missing {dict(want - seen)}, extra {dict(seen - want)}"

    def check_loaded(self, state: S, reader: StateReader, derived: tuple[str, ...] = ()) -> S:
        """The checks every ``from_dict`` ends with, on the state it built from ``reader``.

        Every card of the deck exactly once (:meth:`conservation_error`); a running game waits on
        a seat that has a legal action, an ended one on nobody; the saved fields are exactly those
        ``to_dict`` writes, and the ``derived`` ones (written but not read back, such as
        ``current_player``) agree with the state. Only ``from_dict`` calls this, never play.
        """
        game = self.name
        seen = [c for cards in self.card_zones(state).values() for c in cards]
        seen.sort()
        deck = self.__dict__.get("_sorted_deck")
        if deck is None:
            deck = self.__dict__["_sorted_deck"] = sorted(self.deck_codes())
        problem = None if seen == deck else self.conservation_error(state)
        if problem is not None:
            raise ConfigError(
                f"{game} state: the cards do not add up to the deck ({problem}); allowed: every "
                f"card of the deck exactly once across draw pile, discard pile, table, hands and "
                f"set-aside"
            )
        if not self.is_over(state):
            seat = self.current_player(state)
            if not isinstance(seat, int) or not 0 <= seat < self.num_players:
                raise ConfigError(
                    f"{game} state: the game runs but the deciding seat is {seat!r}; allowed: a "
                    f"seat in [0, {self.num_players - 1}]"
                )
            if not self.legal_actions(state):
                raise ConfigError(
                    f"{game} state: seat {seat} holds the decision "
                    f"'{self.decision_name(state)}' but has no legal action in it; allowed: a "
                    f"running game waits on a seat that can act"
                )
        saved = self.to_dict(state)
        data = reader.data
        unknown = sorted(str(k) for k in data if k not in saved)
        if unknown:
            raise ConfigError(
                f"{game} state: unknown field(s) {_show(unknown)}; allowed fields: {sorted(saved)}"
            )
        missing = sorted(k for k in saved if k not in data)
        if missing:
            raise reader.error(missing[0], _MISSING, "the value to_dict() writes")
        for key in derived:
            if _canon(data[key]) != _canon(saved[key]):
                raise reader.error(
                    key, data[key], f"{saved[key]!r} (what the rest of the state implies)"
                )
        return state

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


def _dup(value: list[Any]) -> list[Any]:
    """A copy of a list, nested lists copied too (everything else in a state is immutable)."""
    return [_dup(x) if type(x) is list else x for x in value]


def copy_generator(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in exactly ``rng``'s state."""
    bits = rng.bit_generator
    fresh = type(bits)()
    fresh.state = bits.state
    return np.random.Generator(fresh)


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
