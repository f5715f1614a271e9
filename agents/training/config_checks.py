"""Value checkers of the training config's fields (:mod:`agents.training.config`).

A checker takes a YAML value and returns it (normalised), or raises :class:`Bad` with what the
value must be; the config builder adds the key path and the value it got.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

#: a checker takes a YAML value and returns it (normalised) or raises Bad("must be ...")
Checker = Callable[[Any], Any]


class Bad(Exception):
    """A value's complaint, without its key (the builder adds the key path)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(low: int, high: int | None = None) -> Checker:
    if high is not None:
        text = f"an integer in [{low}, {high}]"
    else:
        text = "a positive integer" if low == 1 else f"an integer >= {low}"

    def check(value: Any) -> int:
        if not _is_int(value) or value < low or (high is not None and value > high):
            raise Bad(f"must be {text}")
        return value

    return check


def _parses_as_float(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def number(low: float, high: float | None = None, open_low: bool = False) -> Checker:
    """A finite number in [low, high] (``open_low``: (low, high]); YAML ints are accepted."""
    if high is None:
        text = f"a number {'>' if open_low else '>='} {low:g}"
    else:
        text = f"a number in {'(' if open_low else '['}{low:g}, {high:g}]"

    def check(value: Any) -> float:
        if isinstance(value, str) and _parses_as_float(value):  # YAML 1.1 reads 3e-4 as text
            raise Bad(f"must be {text} (YAML reads {value} as text: write it with a dot, 3.0e-4)")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Bad(f"must be {text}")
        if not math.isfinite(value) or value < low or (open_low and value == low):
            raise Bad(f"must be {text}")
        if high is not None and value > high:
            raise Bad(f"must be {text}")
        return value

    return check


def minutes(value: Any) -> float | None:
    """A wall-clock budget in minutes: a positive finite number, or null (no limit)."""
    text = "a positive number of minutes (e.g. 60 or 0.5), or null for no limit"
    if value is None:
        return None
    if isinstance(value, str) and _parses_as_float(value):  # YAML 1.1 reads 1e2 as text
        raise Bad(f"must be {text} (YAML reads {value} as text: write it with a dot, 1.0e2)")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Bad(f"must be {text}")
    if not math.isfinite(value) or value <= 0:
        raise Bad(f"must be {text}")
    return value


def optional(check: Checker) -> Checker:
    def opt(value: Any) -> Any:
        if value is None:
            return None
        try:
            return check(value)
        except Bad as bad:
            raise Bad(f"{bad} or null") from None

    return opt


def choice(*options: str) -> Checker:
    def check(value: Any) -> str:
        if value not in options:
            raise Bad(f"must be one of {list(options)}")
        return value

    return check


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Bad("must be true or false")
    return value


def nonempty(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Bad("must be a non-empty string")
    return value


def mapping(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise Bad("must be a mapping of names to values")
    return dict(value)


def layers(value: Any) -> list[int]:
    if not isinstance(value, list) or not all(_is_int(v) and v >= 1 for v in value):
        raise Bad("must be a list of positive integers (layer widths)")
    return list(value)


def weights(value: Any) -> dict[str, float]:
    if not isinstance(value, dict) or not value:
        raise Bad("must be a non-empty mapping of agent names to weights")
    for name, w in value.items():
        if not isinstance(name, str) or isinstance(w, bool) or not isinstance(w, (int, float)):
            raise Bad("must map agent names to numbers")
        if not math.isfinite(w) or w < 0:
            raise Bad(f"weights must be numbers >= 0 ({name}: {w!r})")
    return dict(value)


def agent_list(value: Any) -> str | list[str]:
    if value == "all":
        return value
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise Bad("must be 'all' or a list of agent names")
    return list(value)


def improve(value: Any) -> dict[str, Any] | None:
    from cardarena.agents.training.improve import improve_config

    return improve_config(value)  # its own errors name warm_start.improve.KEY


def game_name(value: Any) -> str:
    from cardarena.envs.core.registry import names

    if value not in names():
        raise Bad(f"must be a registered game, one of {names()}")
    return value
