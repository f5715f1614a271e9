"""Reading a saved state back: the generator's state, and the field reader of ``from_dict``.

``to_dict`` writes a state as plain JSON data; ``from_dict`` reads it through a
:class:`StateReader`, which refuses anything impossible or corrupted with a :class:`ConfigError`
that names the field, the bad value and what is allowed.
"""

from __future__ import annotations

import builtins
import copy
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from cardarena.envs.core.errors import ConfigError

if TYPE_CHECKING:
    from cardarena.envs.core.engine import GameEngine


def rng_to_dict(rng: np.random.Generator) -> dict[str, Any]:
    """The generator's exact state as JSON data (for ``to_dict``)."""
    return dict(copy.deepcopy(rng.bit_generator.state))


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
    if (
        _canon(rng_to_dict(rng)) != _canon(data)
        or not _naturals(data)
        or data.get("has_uint32", 0) not in (0, 1)
    ):  # numpy turned a float, a bool or a
        raise ConfigError(  # negative number into some other state: not what was saved
            f"{where}field {field!r} is not a {name} state as to_dict() writes it (its numbers "
            f"must be the non-negative integers of rng.bit_generator.state); got {_show(data)}"
        )
    return rng


def _naturals(data: Any) -> bool:
    """Whether every number in ``data`` (dicts and lists of them) is a non-negative int."""
    if isinstance(data, dict):
        return all(_naturals(v) for v in data.values())
    if isinstance(data, list):
        return all(_naturals(v) for v in data)
    if isinstance(data, bool) or isinstance(data, float):
        return False
    return not isinstance(data, int) or data >= 0


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
    def int(
        self, field: str, low: builtins.int, high: builtins.int, value: Any = _MISSING
    ) -> builtins.int:
        """An int in ``[low, high]`` (bools and floats refused)."""
        if value is _MISSING:
            value = self.get(field)
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise self.error(field, value, f"an integer in [{low}, {high}]")
        if not low <= int(value) <= high:
            raise self.error(field, value, f"an integer in [{low}, {high}]")
        return int(value)

    def seat(self, field: str, none: Any = _MISSING, value: Any = _MISSING) -> builtins.int:
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

    def bool(self, field: str, value: Any = _MISSING) -> builtins.bool:
        if value is _MISSING:
            value = self.get(field)
        if not isinstance(value, bool | np.bool_):
            raise self.error(field, value, "true or false")
        return bool(value)

    def choice(
        self, field: str, names: builtins.list[str] | tuple[str, ...], value: Any = _MISSING
    ) -> builtins.int:
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
        length: builtins.int | None = None,
        max_len: builtins.int | None = None,
        value: Any = _MISSING,
    ) -> builtins.list[Any]:
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
        low: builtins.int,
        high: builtins.int,
        length: builtins.int | None = None,
        max_len: builtins.int | None = None,
        value: Any = _MISSING,
    ) -> builtins.list[builtins.int]:
        items = self.list(field, length, max_len, value)
        if all(type(v) is int for v in items) and (
            not items or (low <= min(items) and max(items) <= high)
        ):
            return items  # the common case, checked at once
        return [self.int(f"{field}[{i}]", low, high, v) for i, v in enumerate(items)]

    def bools(
        self, field: str, length: builtins.int | None = None, value: Any = _MISSING
    ) -> builtins.list[builtins.bool]:
        items = self.list(field, length, value=value)
        return [self.bool(f"{field}[{i}]", v) for i, v in enumerate(items)]

    def seats(
        self,
        field: str,
        max_len: builtins.int | None = None,
        unique: builtins.bool = True,
        value: Any = _MISSING,
    ) -> builtins.list[builtins.int]:
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
        parse: Callable[[Any], builtins.int],
        max_len: builtins.int | None = None,
        length: builtins.int | None = None,
        value: Any = _MISSING,
        lookup: dict[str, builtins.int] | None = None,
    ) -> builtins.list[builtins.int]:
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

    def rows(self, field: str, count: builtins.int, value: Any = _MISSING) -> builtins.list[Any]:
        """A list of exactly ``count`` lists (one per seat, pile...)."""
        items = self.list(field, count, value=value)
        for i, row in enumerate(items):
            self.list(f"{field}[{i}]", value=row)
        return items

    def floats(
        self, field: str, bound: float, length: builtins.int, value: Any = _MISSING
    ) -> builtins.list[float]:
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


class Loading:
    """What a declared field (``envs/core/state_fields.py``) reads with: the engine, the
    reader and the state built so far."""

    __slots__ = ("engine", "r", "state")

    def __init__(self, engine: Any, r: StateReader, state: Any) -> None:
        self.engine, self.r, self.state = engine, r, state
