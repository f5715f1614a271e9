"""Shared machinery: engine interface, the manifest, the generic AEC env, the registry.

The names below are imported on first use, so that importing an engine (which imports this
package) loads neither gymnasium nor PettingZoo.
"""

from __future__ import annotations

import importlib
from typing import Any

from cardarena.envs.core.errors import (
    ActionTypeError,
    AgentFault,
    CardArenaError,
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
    ResetNeededError,
    UnknownAgentError,
)
from cardarena.envs.core.spec import GameSpec

#: name -> the module it lives in (imported when the name is first read)
_LAZY = {"CardGameEnv": "cardarena.envs.core.aec", "GameEngine": "cardarena.envs.core.engine"}

__all__ = [
    "ActionTypeError",
    "AgentFault",
    "CardArenaError",
    "CardGameEnv",
    "ConfigError",
    "GameEngine",
    "GameOverError",
    "GameSpec",
    "IllegalActionError",
    "OutOfTurnError",
    "ResetNeededError",
    "UnknownAgentError",
]


def __getattr__(attr: str) -> Any:
    if attr in _LAZY:
        return getattr(importlib.import_module(_LAZY[attr]), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
