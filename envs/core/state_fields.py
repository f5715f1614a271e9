"""A game state declared once: what ``to_dict`` writes, what ``from_dict`` reads and refuses, which
lists are card zones and how ``clone`` copies each attribute.

A state class is a slotted dataclass decorated with :func:`state_fields`; its ``FIELDS`` name
every saved field in the order ``to_dict`` writes it (after ``game`` and ``num_players``)::

    @state_fields
    @dataclass(slots=True)
    class MyState:
        num_players: int
        target_score: int
        ...

        FIELDS = declare(
            target_score=Int(1, 10_000),
            scores=Ints(0, lambda s: s.target_score + 100, length=N),
            current_player=Derived(lambda game, state: game.current_player(state)),
            draw_pile=Cards(CARD_CODES, CODE_TO_CARD, reverse=True, zone="draw_pile"),
            values=Cache(),  # not saved: rebuilt by the engine's check_state
            rng=Rng(),
        )

A bound (``low``, ``high``, ``length``, ``max_len``) is a number or a function of the state read so
far (its fields with constant bounds are read first, then the others in declaration order). The
engine's generic ``to_dict`` / ``from_dict`` / ``card_zones`` / ``clone`` walk this declaration;
``from_dict`` reads through :class:`~cardarena.envs.core.state_io.StateReader`, so every refusal
names the field and what is allowed, and the engine's ``check_state`` adds the rules between
fields that a declaration cannot say.

``clone`` is generated from the class's annotations: ints, bools, strings and tuples are shared,
lists are copied to their depth, the generator is copied (or replaced). An attribute the copy
cannot copy safely (a dict, a set, any other object), or one the declaration does not name, is a
``TypeError`` when the class is defined.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardarena.envs.core.engine import _dup, copy_generator
from cardarena.envs.core.state_io import Loading, rng_from_dict, rng_to_dict

Bound = Any  # an int, or a function of the state read so far


def N(state: Any) -> int:
    """The bound "one per seat": the state's ``num_players``."""
    return int(state.num_players)


def _at(bound: Bound, state: Any) -> Any:
    return bound(state) if callable(bound) else bound


class Field:
    """One saved field (or one item of a list field)."""

    #: the state attribute it lives in (default: its key)
    attr: str | None = None
    #: written by to_dict / read back by from_dict
    saved = True
    read = True

    def _bounds(self) -> tuple[Any, ...]:
        return ()

    @property
    def dynamic(self) -> bool:
        """Whether a bound depends on other fields (read in the second pass)."""
        return any(callable(b) for b in self._bounds())

    def of(self, attr: str) -> Field:
        """The same field stored in attribute ``attr`` (its JSON key differs)."""
        self.attr = attr
        return self

    def dump(self, value: Any) -> Any:
        return value

    def inline(self, value: str, me: str, scope: dict[str, Any]) -> str:
        """``dump`` as a Python expression of the expression ``value``, for the compiled
        ``to_dict`` (``scope``: the names it may use; ``me``: a name free for this field). The
        default calls :meth:`dump`."""
        if type(self).dump is Field.dump:
            return value
        scope[me] = self
        return f"{me}.dump({value})"

    def load(self, c: Loading, key: str, value: Any) -> Any:
        raise NotImplementedError

    def zones(self, value: Any, out: dict[str, list[str]]) -> None:
        """Add the card zones this field holds to ``out`` (none by default)."""


class Int(Field):
    def __init__(self, low: Bound, high: Bound) -> None:
        self.low, self.high = low, high

    def _bounds(self) -> tuple[Any, ...]:
        return (self.low, self.high)

    def load(self, c: Loading, key: str, value: Any) -> int:
        return c.r.int(key, _at(self.low, c.state), _at(self.high, c.state), value)


class Seat(Field):
    """A seat; ``none`` (-1 or None) is the JSON form of "no seat", -1 in the state."""

    def __init__(self, none: Any = ...) -> None:
        self.none = none

    def dump(self, value: Any) -> Any:
        return None if self.none is None and value < 0 else value

    def inline(self, value: str, me: str, scope: dict[str, Any]) -> str:
        return Field.inline(self, value, me, scope) if self.none is None else value

    def load(self, c: Loading, key: str, value: Any) -> int:
        if self.none is ...:
            return c.r.seat(key, value=value)
        return c.r.seat(key, none=self.none, value=value)


class Bool(Field):
    def dump(self, value: Any) -> bool:
        return bool(value)

    def inline(self, value: str, me: str, scope: dict[str, Any]) -> str:
        return value  # the state holds a bool

    def load(self, c: Loading, key: str, value: Any) -> bool:
        return c.r.bool(key, value)


class Choice(Field):
    """An index into ``names``, saved as the name."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def dump(self, value: Any) -> str:
        return self.names[value]

    def inline(self, value: str, me: str, scope: dict[str, Any]) -> str:
        scope[me] = self.names
        return f"{me}[{value}]"

    def load(self, c: Loading, key: str, value: Any) -> int:
        return c.r.choice(key, self.names, value)


class SeatMask(Field):
    """A bitmask of seats (bit s: seat s), saved as the sorted list of its seats."""

    def dump(self, value: Any) -> list[int]:
        return [s for s in range(value.bit_length()) if value >> s & 1]

    def load(self, c: Loading, key: str, value: Any) -> int:
        mask = 0
        for s in c.r.seats(key, value=value):
            mask |= 1 << s
        return mask


def _engine_attr(c: Loading, what: Any) -> Any:
    """``what``, or the engine's attribute of that name (a per-engine lookup or parser)."""
    return getattr(c.engine, what) if isinstance(what, str) else what


class Card(Field):
    """One card (its code in JSON); ``none=None``: JSON null is "no card", -1 in the state."""

    def __init__(
        self, codes: Sequence[str], lookup: Any, parse: Any = None, none: Any = ..., zone: str = ""
    ) -> None:
        self.codes, self.lookup, self.parse, self.none, self.zone = codes, lookup, parse, none, zone

    def dump(self, value: Any) -> Any:
        return None if self.none is None and value < 0 else self.codes[value]

    def load(self, c: Loading, key: str, value: Any) -> int:
        if self.none is None and value is None:
            return -1
        lookup = _engine_attr(c, self.lookup)
        return c.r.cards(
            key, _engine_attr(c, self.parse or "parse_card"), value=[value], lookup=lookup
        )[0]

    def zones(self, value: Any, out: dict[str, list[str]]) -> None:
        if self.zone:
            out[self.zone] = [self.codes[value]] if value >= 0 else []


class Cards(Field):
    """A list of cards (codes in JSON); ``reverse``: the JSON order is the state's reversed (a
    pile whose top is the end of the list is saved top first). ``zone``: its card-zone name
    (the zone lists the cards in the state's order, in the JSON order with ``zone_as_saved``)."""

    def __init__(
        self,
        codes: Sequence[str],
        lookup: Any,
        parse: Any = None,
        max_len: Bound = None,
        length: Bound = None,
        reverse: bool = False,
        zone: str = "",
        zone_as_saved: bool = False,
    ) -> None:
        self.codes, self.lookup, self.parse = codes, lookup, parse
        self.max_len, self.length, self.reverse, self.zone = max_len, length, reverse, zone
        self.zone_reversed = reverse and zone_as_saved

    def _bounds(self) -> tuple[Any, ...]:
        return (self.max_len, self.length)

    def dump(self, value: Any) -> list[str]:
        codes = self.codes
        return [codes[c] for c in (reversed(value) if self.reverse else value)]

    def inline(self, value: str, me: str, scope: dict[str, Any]) -> str:
        scope[me] = self.codes
        return f"[{me}[c] for c in {'reversed(' + value + ')' if self.reverse else value}]"

    def load(self, c: Loading, key: str, value: Any) -> list[int]:
        state = c.state
        cards = c.r.cards(
            key,
            _engine_attr(c, self.parse or "parse_card"),
            max_len=_at(self.max_len, state),
            length=_at(self.length, state),
            value=value,
            lookup=_engine_attr(c, self.lookup),
        )
        return cards[::-1] if self.reverse else cards

    def zones(self, value: Any, out: dict[str, list[str]]) -> None:
        if self.zone:
            codes = self.codes
            out[self.zone] = [codes[c] for c in (value[::-1] if self.zone_reversed else value)]


class Seats(Field):
    """A list of seats (distinct unless ``unique`` is False; at most one per seat by default)."""

    def __init__(self, max_len: Bound = None, unique: bool = True) -> None:
        self.max_len, self.unique = max_len, unique

    def _bounds(self) -> tuple[Any, ...]:
        return (self.max_len,)

    def dump(self, value: Any) -> list[int]:
        return list(value)

    def inline(self, value: str, me: str, scope: dict[str, Any]) -> str:
        return f"list({value})"

    def load(self, c: Loading, key: str, value: Any) -> list[int]:
        return c.r.seats(key, _at(self.max_len, c.state), self.unique, value)


class List(Field):
    """A list of ``item`` (exactly ``length`` long, or at most ``max_len``). ``zone``: a format
    (``"table_{}"``) naming the card zone of each item (a :class:`Cards`)."""

    def __init__(
        self, item: Field, length: Bound = None, max_len: Bound = None, zone: str = ""
    ) -> None:
        self.item, self.length, self.max_len, self.zone = item, length, max_len, zone
        self._plain = type(item).dump is Field.dump

    def _bounds(self) -> tuple[Any, ...]:
        return (self.length, self.max_len, *self.item._bounds())

    def dump(self, value: Any) -> list[Any]:
        if self._plain:
            return list(value)
        dump = self.item.dump
        return [dump(x) for x in value]

    def inline(self, value: str, me: str, scope: dict[str, Any]) -> str:
        if self._plain:
            return f"list({value})"
        return f"[{self.item.inline('x', me + '_item', scope)} for x in {value}]"

    def load(self, c: Loading, key: str, value: Any) -> list[Any]:
        state, item = c.state, self.item
        length, most = _at(self.length, state), _at(self.max_len, state)
        if type(item) is Int:  # the common case, checked at once
            return c.r.ints(key, _at(item.low, state), _at(item.high, state), length, most, value)
        items = c.r.list(key, length, most, value)
        load = item.load
        return [load(c, f"{key}[{i}]", x) for i, x in enumerate(items)]

    def zones(self, value: Any, out: dict[str, list[str]]) -> None:
        if self.zone:
            codes = self.item.codes  # type: ignore[attr-defined]
            for s, cards in enumerate(value):
                out[self.zone.format(s)] = [codes[c] for c in cards]


def Ints(low: Bound, high: Bound, length: Bound = None, max_len: Bound = None) -> List:
    """A list of ints in ``[low, high]``."""
    return List(Int(low, high), length=length, max_len=max_len)


def Bools(length: Bound = None) -> List:
    return List(Bool(), length=length)


class Tuple(Field):
    """A fixed-length tuple in the state, a list in JSON."""

    def __init__(self, *items: Field) -> None:
        self.items = items

    def _bounds(self) -> tuple[Any, ...]:
        return tuple(b for item in self.items for b in item._bounds())

    def dump(self, value: Any) -> list[Any]:
        return [item.dump(x) for item, x in zip(self.items, value, strict=True)]

    def load(self, c: Loading, key: str, value: Any) -> tuple[Any, ...]:
        items = c.r.list(key, len(self.items), value=value)
        pairs = enumerate(zip(self.items, items, strict=True))
        return tuple(f.load(c, f"{key}[{i}]", x) for i, (f, x) in pairs)


class Chunks(Field):
    """A flat state list saved as ``count`` rows of ``size`` (each a ``row``, e.g. a
    :class:`Cards`); ``zone``: a format naming each row's card zone (``"row_{}"``)."""

    def __init__(self, row: Field, size: int, count: Bound = N, zone: str = "") -> None:
        self.row, self.size, self.count, self.zone = row, size, count, zone

    def _bounds(self) -> tuple[Any, ...]:
        return (self.count, *self.row._bounds())

    def dump(self, value: Any) -> list[Any]:
        size, dump = self.size, self.row.dump
        return [dump(value[i : i + size]) for i in range(0, len(value), size)]

    def load(self, c: Loading, key: str, value: Any) -> list[Any]:
        flat: list[Any] = []
        load = self.row.load
        for s, row in enumerate(c.r.rows(key, _at(self.count, c.state), value)):
            flat += load(c, f"{key}[{s}]", row)
        return flat

    def zones(self, value: Any, out: dict[str, list[str]]) -> None:
        if self.zone:
            codes, size = self.row.codes, self.size  # type: ignore[attr-defined]
            for s in range(len(value) // size):
                out[self.zone.format(s)] = [codes[c] for c in value[s * size : (s + 1) * size]]


class Rng(Field):
    """The generator, saved as its bit generator's exact state."""

    def dump(self, value: Any) -> dict[str, Any]:
        return rng_to_dict(value)

    def load(self, c: Loading, key: str, value: Any) -> np.random.Generator:
        return rng_from_dict(value, key, f"{c.r.game} state: ")


class Derived(Field):
    """Written by to_dict from ``fn(engine, state)``, not read: from_dict checks that the saved
    value agrees with the state it built. ``.of(attr)``: it mirrors attribute ``attr``, a cache
    that the engine's ``check_state`` rebuilds."""

    read = False

    def __init__(self, fn: Callable[[Any, Any], Any]) -> None:
        self.fn = fn


class Cache(Field):
    """A state attribute that is not saved (it mirrors other fields): the engine's
    ``check_state`` rebuilds it."""

    saved = read = False


# ---- the declaration on the class --------------------------------------------------------------------
_SHAREABLE = {"int", "bool", "str", "float", "None", "tuple", "list", "np.random.Generator"}


def _copy_kind(owner: str, name: str, annotation: Any) -> str:
    """How clone copies an attribute annotated ``annotation``; TypeError if it cannot."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "?")
    names = set(re.findall(r"[A-Za-z_][\w.]*", text))
    bad = sorted(names - _SHAREABLE)
    if bad:
        raise TypeError(
            f"{owner}.{name} is annotated {text!r}: clone cannot copy {bad} safely (a state holds "
            f"ints, bools, strings, tuples of them, lists of those and one np.random.Generator); "
            f"store it as lists or tuples"
        )
    if "np.random.Generator" in names:
        if text != "np.random.Generator":
            raise TypeError(f"{owner}.{name}: a generator must be an attribute of its own")
        return "rng"
    depth = text.count("list[")
    if depth == 0:
        return "share"
    if depth == 1:
        return "list"
    return "nested" if depth == 2 and "|" not in text else "deep"


_COPY = {
    "share": "state.{0}",
    "list": "state.{0}[:]",
    "nested": "[x[:] for x in state.{0}]",
    "deep": "_dup(state.{0})",
    "rng": "rng if rng is not None else _copy_generator(state.{0})",
}


class Layout:
    """The walked form of a declaration (built once per state class)."""

    def __init__(self, cls: type, declared: dict[str, Field]) -> None:
        owner = cls.__name__
        annotations = {f.name: f.type for f in dataclasses.fields(cls)}
        if "num_players" not in annotations:
            raise TypeError(f"{owner} has no num_players field")
        self.fields: list[tuple[str, str | None, Field]] = []
        seen = {"num_players": "num_players"}
        for key, f in declared.items():
            attr = f.attr if isinstance(f, Derived) else (f.attr or key)
            if attr is not None:
                if attr not in annotations:
                    raise TypeError(f"{owner} declares {key!r} but has no attribute {attr!r}")
                if attr in seen:
                    raise TypeError(f"{owner}.{attr} is declared twice ({seen[attr]!r}, {key!r})")
                seen[attr] = key
            self.fields.append((key, attr, f))
        missing = [a for a in annotations if a not in seen]
        if missing:
            raise TypeError(
                f"{owner} does not declare {missing}: every attribute is a saved field, a "
                f"Derived one's source or a Cache (rebuilt by check_state)"
            )
        self.saved = [(k, None if not f.read else a, f) for k, a, f in self.fields if f.saved]
        readable = [(k, a, f) for k, a, f in self.fields if f.read and f.saved]
        self.passes = (
            [x for x in readable if not x[2].dynamic],
            [x for x in readable if x[2].dynamic],
        )
        self.derived = tuple(k for k, _, f in self.fields if not f.read and f.saved)
        self.caches = tuple(a for _, a, f in self.fields if a and not (f.saved and f.read))
        self.zones = [(a, f) for _, a, f in self.fields if getattr(f, "zone", "")]
        self.to_dict = self._compile_to_dict()
        self.clone = self._compile_clone(
            cls, {a: _copy_kind(owner, a, t) for a, t in annotations.items()}
        )

    def _compile_to_dict(self) -> Callable[..., dict[str, Any]]:
        """``to_dict`` as one dict display (as fast as a hand-written one)."""
        scope: dict[str, Any] = {}
        items = ['"game": game.name', '"num_players": state.num_players']
        for i, (key, attr, f) in enumerate(self.saved):
            if attr is None:
                scope[f"_f{i}"] = f.fn  # type: ignore[attr-defined]
                value = f"_f{i}(game, state)"
            else:
                value = f.inline(f"state.{attr}", f"_f{i}", scope)
            items.append(f"{key!r}: {value}")
        text = "def to_dict(game, state):\n    return {\n        " + ",\n        ".join(items)
        exec(text + ",\n    }", scope)  # noqa: S102 - our own text, built from the declaration
        return scope["to_dict"]

    @staticmethod
    def _compile_clone(cls: type, kinds: dict[str, str]) -> Callable[..., Any]:
        lines = ["def clone(state, rng=None):", "    new = _new(_cls)"]
        lines += [f"    new.{a} = {_COPY[k].format(a)}" for a, k in kinds.items()]
        lines.append("    return new")
        scope: dict[str, Any] = {
            "_new": object.__new__,
            "_cls": cls,
            "_dup": _dup,
            "_copy_generator": copy_generator,
        }
        exec("\n".join(lines), scope)  # noqa: S102 - our own text, built from attribute names
        return scope["clone"]


def declare(**declared: Field) -> dict[str, Field]:
    """The saved fields of a state class, in the order ``to_dict`` writes them (its ``FIELDS``)."""
    for key, f in declared.items():
        if not isinstance(f, Field):
            raise TypeError(f"field {key!r} is declared as {f!r}, not a state_fields type")
    return declared


def state_fields(cls: type) -> type:
    """Class decorator (above ``@dataclass(slots=True)``): read the class's ``FIELDS`` (see the
    module docstring); TypeError at once for an attribute left out or one clone cannot copy."""
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"@state_fields goes above @dataclass(slots=True) ({cls.__name__})")
    declared = cls.__dict__.get("FIELDS")
    if not isinstance(declared, dict):
        raise TypeError(f"{cls.__name__} has no FIELDS = declare(...) in its body")
    cls.__layout__ = Layout(cls, declared)  # type: ignore[attr-defined]
    return cls
