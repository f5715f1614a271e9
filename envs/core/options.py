"""The one ``--option KEY=VALUE`` parser of the command lines (evaluate, human play, benches).

Values are read as integers (``40``, ``-1``), booleans (``true`` / ``false``, any case) or left
as text (``DEPRESSION``); the game itself then checks each option (``ConfigError`` naming the
option and what it accepts). A key given twice is refused rather than silently overwritten.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from cardarena.envs.core.engine import ConfigError

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INT = re.compile(r"-?[0-9]{1,18}")


def parse_value(text: str) -> Any:
    if _INT.fullmatch(text):
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_options(items: Iterable[str]) -> dict[str, Any]:
    """``["target_score=40", "mode=DEPRESSION"]`` -> ``{"target_score": 40, "mode": "DEPRESSION"}``."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not _KEY.fullmatch(key):
            raise ConfigError(
                f"--option needs KEY=VALUE with a plain KEY, got {item!r} "
                f"(e.g. --option target_score=40)"
            )
        if key in options:
            raise ConfigError(f"--option {key} is given twice ({options[key]!r} and {value!r})")
        options[key] = parse_value(value.strip())
    return options
