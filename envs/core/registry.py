"""The registry of games: ``envs.make(name)`` and PettingZoo's ``cardarena/<name>-v<k>`` ids."""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium
import pettingzoo

from cardarena.envs.core.aec import CardGameEnv, GameSpec
from cardarena.envs.core.engine import ConfigError

_SPECS: dict[str, GameSpec] = {}


#: gymnasium's entry point of every game: the single-agent env with scripted or trained opponents
#: lives with the players (it builds them from agent specs), so it is named, not imported: envs
#: never import agents, and gymnasium imports it only when someone makes the env
GYM_ENTRY_POINT = "cardarena.agents.gym_env:make_env"


def register_game(spec: GameSpec, module: str) -> None:
    """Register a game under its name, in PettingZoo's AEC registry and in gymnasium's (as the
    single-agent env with opponents, ``agents.gym_env``), all under ``spec.env_id``."""
    _SPECS[spec.name] = spec
    env_id = spec.env_id
    if env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", env_id, entry_point=f"{module}:env")
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point=GYM_ENTRY_POINT, kwargs={"game": spec.name})


def get_spec(name: str) -> GameSpec:
    if name not in _SPECS:
        importlib.import_module("cardarena.envs")  # registers every game
    try:
        return _SPECS[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; registered games: {sorted(_SPECS)}") from None


def names() -> list[str]:
    importlib.import_module("cardarena.envs")
    return sorted(_SPECS)


def make(name: str, **options: Any) -> CardGameEnv:
    """The env with its safety checks (order enforcing, out-of-bounds actions)."""
    return CardGameEnv(get_spec(name), checks=True, **options)


def make_raw(name: str, **options: Any) -> CardGameEnv:
    """The env without the safety checks (the engine still refuses illegal actions)."""
    return CardGameEnv(get_spec(name), checks=False, **options)
