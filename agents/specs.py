"""Agent specs: the short strings ``make_agent`` reads, resolved to agents.

Everything but the search specs (``pimc[:...]``, ``ismcts[:...]``) is built here; a named
search setting (``search:LABEL``, a ``[[search]]`` row of the game's manifest) is resolved here
to its spec. The search
package builds its rollout and leaf players from this module, and ``cardarena.agents`` hands the
search specs to ``agents.search``, so the two never import each other (tests/test_layers.py).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

from cardarena.agents.base import Agent, RandomAgent
from cardarena.agents.exact import exact
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.registry import get_spec

ZOO_DIR = Path(__file__).resolve().parent / "zoo"
#: the spec kinds (text before the first ``:``) of the search agents (``agents/search``)
SEARCH_KINDS = ("pimc", "ismcts")
#: ``search:LABEL``: the search setting the game's manifest names LABEL (:func:`search_settings`)
NAMED_SEARCH = "search:"


def scripted(game: str) -> dict[str, Callable[..., Agent]]:
    """Scripted baselines of ``game``, weakest first: ``BASELINES`` of the module its manifest
    names (``baselines_module``, ``agents/baselines/<game>.py``).

    Each value is a factory taking ``seed=``; the last entry is the game's best baseline.
    """
    # the manifest names the module (envs never import agents)
    name = get_spec(game).baselines_module
    return dict(importlib.import_module(name).BASELINES) if name else {}


def scripted_names(game: str) -> list[str]:
    return ["random", *scripted(game)]


def best_baseline(game: str) -> str:
    return scripted_names(game)[-1]


def search_settings(game: str) -> dict[str, str]:
    """The search settings ``game``'s manifest names (its ``[[search]]`` rows in
    ``envs/<game>/game.toml``: the best measured), label -> agent spec; ``search:LABEL``
    builds one."""
    return {row.label: row.agent for row in get_spec(game).search}


def _named_search(
    game: str, spec: str, seed: int | None, search: Callable[[str, str, int | None], Agent] | None
) -> Agent:
    """``search:LABEL``: the agent of that setting, named by the spec as written."""
    label = spec[len(NAMED_SEARCH) :]
    settings = search_settings(game)
    if label not in settings:
        known = ", ".join(f"'{NAMED_SEARCH}{k}'" for k in settings) or "none"
        raise ConfigError(
            f"unknown search setting {spec!r} for {game}; its manifest names {known} "
            f"(the [[search]] rows of its game.toml); or write the setting out, e.g. "
            f"'pimc:worlds=16,rollout=random'"
        )
    agent = build_agent(game, settings[label], seed, search)
    agent.name = spec
    return agent


def zoo_names() -> list[str]:
    return sorted(p.stem for p in ZOO_DIR.glob("*.zip"))


def zoo_path(spec: str) -> Path:
    """The file of ``zoo:NAME``, which must be a plain name of a file in the zoo folder."""
    name = spec[4:]
    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", name) or name not in zoo_names():
        raise ConfigError(f"no pretrained agent {spec!r}; the zoo holds {zoo_names()}")
    return ZOO_DIR / f"{name}.zip"


def _network(
    game: str, path: str | Path, name: str | None, seed: int | None, sb3: bool = False
) -> Agent:
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


#: spec kinds of players outside this process (``agents/outside``)
OUTSIDE_KINDS = ("llm:", "exec:", "exec+obs:")


def _outside(
    game: str, spec: str, seed: int | None, search: Callable[[str, str, int | None], Agent] | None
) -> Agent:
    """A language model behind a function (``llm:``, agents/outside/llm.py) or a program
    (``exec:``, agents/outside/process.py); refused as a rollout or leaf player of a search,
    which would ask it thousands of times."""
    if search is None:
        raise ConfigError(f"an outside player ({spec!r}) cannot play inside a search")
    if spec.startswith("llm:"):
        from cardarena.agents.outside.llm import build_llm_agent

        return build_llm_agent(game, spec, seed, lambda g, s, r: build_agent(g, s, r, search))
    from cardarena.agents.outside.process import exec_agent

    return exec_agent(game, spec, seed)


def _factory(game: str, spec: str, seed: int | None) -> Agent:
    """``module:factory``: the user's ``factory(game=..., seed=...)``."""
    module, _, factory = spec.partition(":")
    try:
        make = getattr(importlib.import_module(module), factory)
    except (ImportError, AttributeError) as err:
        raise ConfigError(f"cannot load agent {spec!r}: {err}") from None
    if not callable(make):
        raise ConfigError(f"{spec!r} is {make!r}, not a factory function")
    try:
        built = make(game=game, seed=seed)
    except TypeError as err:  # not a factory(game=..., seed=...) at all
        raise ConfigError(
            f"agent factory {spec!r} cannot be called as {factory}(game=..., seed=...): "
            f"{err}; a factory takes those two keywords and returns an object with act()"
        ) from None
    if not hasattr(built, "act"):
        raise ConfigError(f"{spec!r} returned {built!r}, which has no act() method")
    return built


def build_agent(
    game: str,
    spec: str,
    seed: int | None = None,
    search: Callable[[str, str, int | None], Agent] | None = None,
) -> Agent:
    """Build an agent for ``game`` from a short spec (``cardarena.agents``' docstring).

    ``search(game, spec, seed)`` builds the search specs; without it (inside a search: its
    rollout and leaf players) a search spec is refused.
    """
    if spec == "random":
        return RandomAgent(seed)
    baselines = scripted(game)
    if spec in baselines:
        return baselines[spec](seed=seed)
    solved = exact(game)
    if spec in solved:
        return solved[spec](seed=seed)
    if spec.startswith(NAMED_SEARCH):
        return _named_search(game, spec, seed, search)
    if spec.partition(":")[0] in SEARCH_KINDS:
        if search is None:
            raise ConfigError(
                f"a search agent ({spec!r}) cannot play inside a search; use 'random', a "
                f"scripted baseline of {game} {list(baselines)}, 'zoo:NAME' or a checkpoint"
            )
        return search(game, spec, seed)
    if spec.startswith(OUTSIDE_KINDS):
        return _outside(game, spec, seed, search)
    if spec.startswith("zoo:"):
        return _network(game, zoo_path(spec), spec, seed)
    if spec.startswith("sb3:"):
        return _network(game, spec[4:], None, seed, sb3=True)
    if spec.endswith(".zip"):
        return _network(game, spec, None, seed)
    if ":" in spec:
        return _factory(game, spec, seed)
    raise ConfigError(
        f"unknown agent {spec!r} for {game}; use one of {scripted_names(game) + list(exact(game))}, "
        f"'zoo:NAME', a checkpoint path ending in .zip, 'pimc[:options]', 'ismcts[:options]', "
        f"'search:LABEL' {list(search_settings(game))}, "
        f"'llm:module:function', 'exec:COMMAND' or 'module:factory'"
    )
