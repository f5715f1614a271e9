"""Agents of the suite: the protocol, random, scripted baselines per game, trained policies.

``make_agent(game, spec)`` builds any of them from a short string:

===================  ======================================================================
spec                 agent
===================  ======================================================================
``random``           uniform over legal actions (every game)
scripted name        a baseline of that game (``BASELINES`` in ``agents/baselines/<game>.py``):
                     flip6 and sevn ``threshold``, ``ev``; ratatat ``greedy``, ``tracker``;
                     thegame ``greedy``, ``planner``; suicidium ``heuristic``
``zoo:NAME``         the pretrained checkpoint ``agents/zoo/NAME.zip`` (NAME: letters, digits, ``_-.``)
``path/to/x.zip``    a checkpoint written by ``train.py`` (JSON and arrays: nothing in it can run)
``sb3:path/x.zip``   the weights of a plain stable-baselines3 MaskablePPO ``model.save`` file,
                     read without unpickling anything (its pickled fields are never decoded)
``module:factory``   your own: ``factory(game=..., seed=...)`` returns an :class:`Agent`
``pimc[:k=v,...]``   search: determinized rollouts (``agents/search``), e.g.
                     ``pimc:worlds=16,rollouts=1,rollout=ev``
``ismcts[:k=v,...]`` search: single-observer information-set MCTS, e.g.
                     ``ismcts:iterations=200,rollout=random,c=0.7``
===================  ======================================================================
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

from cardarena.agents.base import Agent, RandomAgent
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.registry import get_spec

ZOO_DIR = Path(__file__).resolve().parent / "zoo"


def scripted(game: str) -> dict[str, Callable[..., Agent]]:
    """Scripted baselines of ``game``, weakest first: ``BASELINES`` of the module its manifest
    names (``baselines_module``, ``agents/baselines/<game>.py``).

    Each value is a factory taking ``seed=``; the last entry is the game's best baseline.
    """
    name = get_spec(
        game
    ).baselines_module  # the manifest names the module (envs never import agents)
    return dict(importlib.import_module(name).BASELINES) if name else {}


def scripted_names(game: str) -> list[str]:
    return ["random", *scripted(game)]


def best_baseline(game: str) -> str:
    return scripted_names(game)[-1]


def zoo_names() -> list[str]:
    return sorted(p.stem for p in ZOO_DIR.glob("*.zip"))


def zoo_path(spec: str) -> Path:
    """The file of ``zoo:NAME``, which must be a plain name of a file in the zoo folder."""
    name = spec[4:]
    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", name) or name not in zoo_names():
        raise ConfigError(f"no pretrained agent {spec!r}; the zoo holds {zoo_names()}")
    return ZOO_DIR / f"{name}.zip"


def _network(game: str, path: str | Path, name: str | None, seed: int | None, sb3: bool = False):
    """A network agent from a checkpoint, refused when it was made for another game."""
    from cardarena.agents.policy import PolicyAgent
    from cardarena.envs.core.registry import get_spec

    agent = PolicyAgent.from_checkpoint(path, sb3=sb3, seed=seed, name=name or Path(path).stem)
    made_for = agent.actor.meta.get("game")
    spec = get_spec(game)
    if made_for not in (None, game) or agent.actor.obs_size != spec.obs_size:
        raise ConfigError(
            f"{path} was trained for {made_for or 'another game'} (observations of "
            f"{agent.actor.obs_size} numbers); {game} needs {spec.obs_size}: pick a {game} "
            f"checkpoint"
        )
    if agent.actor.num_actions != spec.make_engine().num_actions:
        raise ConfigError(f"{path} has {agent.actor.num_actions} actions, not {game}'s")
    return agent


def make_agent(game: str, spec: str, seed: int | None = None) -> Agent:
    """Build an agent for ``game`` from a short spec (see the module docstring)."""
    if spec == "random":
        return RandomAgent(seed)
    baselines = scripted(game)
    if spec in baselines:
        return baselines[spec](seed=seed)
    if spec.partition(":")[0] in ("pimc", "ismcts"):
        from cardarena.agents.search import make_search_agent

        return make_search_agent(game, spec, seed)
    if spec.startswith("zoo:"):
        return _network(game, zoo_path(spec), spec, seed)
    if spec.startswith("sb3:"):
        return _network(game, spec[4:], None, seed, sb3=True)
    if spec.endswith(".zip"):
        return _network(game, spec, None, seed)
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
        f"a checkpoint path ending in .zip, 'pimc[:options]', 'ismcts[:options]' or "
        f"'module:factory'"
    )


__all__ = ["Agent", "RandomAgent", "best_baseline", "make_agent", "scripted", "scripted_names"]
