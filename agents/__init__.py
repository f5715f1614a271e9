"""Agents of the suite: the protocol, random, scripted baselines per game, trained policies.

``make_agent(game, spec)`` builds any of them from a short string:

===================  ======================================================================
spec                 agent
===================  ======================================================================
``random``           uniform over legal actions (every game)
scripted name        a baseline of that game (``BASELINES`` in ``agents/<game>_baselines.py``):
                     flip6 and sevn ``threshold``, ``ev``; ratatat ``greedy``, ``tracker``;
                     thegame ``greedy``, ``planner``; suicidium ``heuristic``
``zoo:NAME``         the pretrained checkpoint ``agents/zoo/NAME.zip``
``path/to/x.zip``    a MaskablePPO checkpoint written by ``train.py``
``module:factory``   your own: ``factory(game=..., seed=...)`` returns an :class:`Agent`
===================  ======================================================================
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from agents.base import Agent, RandomAgent
from envs.core.engine import ConfigError

ZOO_DIR = Path(__file__).resolve().parent / "zoo"


def scripted(game: str) -> dict[str, Callable[..., Agent]]:
    """Scripted baselines of ``game``, weakest first: ``BASELINES`` of ``agents/<game>_baselines.py``.

    Each value is a factory taking ``seed=``; the last entry is the game's best baseline.
    """
    try:
        module = importlib.import_module(f"agents.{game}_baselines")
    except ModuleNotFoundError as err:
        if err.name != f"agents.{game}_baselines":
            raise
        return {}
    return dict(module.BASELINES)


def scripted_names(game: str) -> list[str]:
    return ["random", *scripted(game)]


def best_baseline(game: str) -> str:
    return scripted_names(game)[-1]


def make_agent(game: str, spec: str, seed: int | None = None) -> Agent:
    """Build an agent for ``game`` from a short spec (see the module docstring)."""
    if spec == "random":
        return RandomAgent(seed)
    baselines = scripted(game)
    if spec in baselines:
        return baselines[spec](seed=seed)
    from agents.policy import PolicyAgent

    if spec.startswith("zoo:"):
        path = ZOO_DIR / f"{spec[4:]}.zip"
        if not path.exists():
            have = sorted(p.stem for p in ZOO_DIR.glob("*.zip"))
            raise ConfigError(f"no pretrained agent {spec!r}; the zoo holds {have}")
        return PolicyAgent.from_checkpoint(path, name=spec, seed=seed)
    if spec.endswith(".zip"):
        return PolicyAgent.from_checkpoint(spec, seed=seed)
    if ":" in spec:
        module, _, factory = spec.partition(":")
        try:
            built = getattr(importlib.import_module(module), factory)(game=game, seed=seed)
        except (ImportError, AttributeError) as err:
            raise ConfigError(f"cannot load agent {spec!r}: {err}") from None
        if not hasattr(built, "act"):
            raise ConfigError(f"{spec!r} returned {built!r}, which has no act() method")
        return built
    raise ConfigError(
        f"unknown agent {spec!r} for {game}; use one of {scripted_names(game)}, 'zoo:NAME', "
        f"a checkpoint path ending in .zip, or 'module:factory'"
    )


__all__ = ["Agent", "RandomAgent", "best_baseline", "make_agent", "scripted", "scripted_names"]
