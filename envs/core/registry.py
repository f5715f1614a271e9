"""The registry of games: ``envs.make(name)`` and PettingZoo's ``cardarena/<name>-v<k>`` ids."""

from __future__ import annotations

import importlib
from typing import Any

import pettingzoo

from envs.core.aec import CardGameEnv, GameSpec
from envs.core.engine import ConfigError

_SPECS: dict[str, GameSpec] = {}


def register_game(spec: GameSpec, module: str) -> None:
    """Register a game under its name, in PettingZoo's AEC registry and in gymnasium's (as the
    single-agent env of :mod:`envs.core.gym_registration`), all under ``spec.env_id``."""
    _SPECS[spec.name] = spec
    env_id = spec.env_id
    if env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", env_id, entry_point=f"{module}:env")
    from envs.core import gym_registration  # imports the self-play adapter, which imports us

    gym_registration.register(spec.name, env_id)


def get_spec(name: str) -> GameSpec:
    if name not in _SPECS:
        importlib.import_module("envs")  # registers every game
    try:
        return _SPECS[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; registered games: {sorted(_SPECS)}") from None


def names() -> list[str]:
    importlib.import_module("envs")
    return sorted(_SPECS)


def make(name: str, **options: Any) -> CardGameEnv:
    """The env with its safety checks (order enforcing, out-of-bounds actions)."""
    return CardGameEnv(get_spec(name), checks=True, **options)


def make_raw(name: str, **options: Any) -> CardGameEnv:
    """The env without the safety checks (the engine still refuses illegal actions)."""
    return CardGameEnv(get_spec(name), checks=False, **options)
