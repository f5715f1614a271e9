"""cardarena environments. ``envs.make("flip6", num_players=4)`` gives a PettingZoo AEC env.

The games are the names in ``envs/core/registry.py`` (``GAMES``; adding a game is one line
there), each one's manifest the ``SPEC`` of ``envs/<game>/__init__.py``. Importing this package
imports no game, no gymnasium and no PettingZoo: a game is imported when it is first asked for
(``envs.get_spec``, ``envs.make``, ``envs.flip6``), and the ``cardarena/<game>-v0`` ids are
registered with gymnasium and PettingZoo as soon as those are imported.
"""

from __future__ import annotations

import importlib
from typing import Any

from cardarena.envs.core.registry import (
    _after_import,
    get_spec,
    make,
    make_raw,
    names,
    register_game,
)
from cardarena.envs.core.spec import GameSpec

_after_import()

__all__ = ["GAMES", "GameSpec", "get_spec", "make", "make_raw", "names", "register_game"]


def __getattr__(attr: str) -> Any:
    if attr == "GAMES":  # every registered game (a list made now: registration can add one)
        return names()
    if attr in names():  # envs.flip6 without importing it first
        return importlib.import_module(f"{__name__}.{attr}")
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
