"""Shared machinery: engine interface, the generic AEC env, the registry."""

from cardarena.envs.core.aec import CardGameEnv, GameSpec
from cardarena.envs.core.engine import (
    CardArenaError,
    ConfigError,
    GameEngine,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
)

__all__ = [
    "CardArenaError",
    "CardGameEnv",
    "ConfigError",
    "GameEngine",
    "GameOverError",
    "GameSpec",
    "IllegalActionError",
    "OutOfTurnError",
]
