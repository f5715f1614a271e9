"""The registry of games: ``envs.make(name)``, the manifests, and the ``cardarena/<name>-v<k>`` ids.

The suite's own games are the names in :data:`GAMES` (adding a game is one line there); each
one's manifest (:class:`~cardarena.envs.core.spec.GameSpec`) is ``SPEC`` in
``cardarena.envs.<name>``, imported the first time the game is asked for. :func:`register_game`
adds a game from anywhere else (a plug-in, a test) without editing this file.

Nothing here imports gymnasium or PettingZoo. Their ids are registered when they are there to
register with: at once if the package is already imported, otherwise by a one-shot hook that
runs when it is first imported (:func:`_after_import`). The entry points are strings
(``cardarena.envs.core.registry:make``, and for gymnasium's single-agent env
``cardarena.agents.gym_env:make_env``, which lives with the players: envs never import agents),
so registering imports no game either.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Callable
from typing import Any

from cardarena.envs.core.errors import ConfigError
from cardarena.envs.core.spec import GameSpec

#: the suite's games, by name; each is the package ``cardarena.envs.<name>`` holding ``SPEC``
GAMES: tuple[str, ...] = ("flip6", "ratatat", "sevn", "suicidium", "thegame")

#: gymnasium's entry point of every game: the single-agent env with scripted or trained opponents
#: lives with the players (it builds them from agent specs), so it is named, not imported: envs
#: never import agents, and gymnasium imports it only when someone makes that env
GYM_ENTRY_POINT = "cardarena.agents.gym_env:make_registered"
#: PettingZoo's entry point of every game (``make(name=..., **options)``)
AEC_ENTRY_POINT = "cardarena.envs.core.registry:make_registered"
#: the keyword an id's registration passes its game under (gymnasium and PettingZoo merge a user's
#: keywords over the id's, so the game is checked, never silently replaced: :func:`id_game`)
ID_GAME = "registered_game"

#: name -> the package holding its ``SPEC`` (the suite's games and :func:`register_game`'s)
_MODULES: dict[str, str | None] = {name: f"cardarena.envs.{name}" for name in GAMES}
#: name -> manifest, filled on first use
_SPECS: dict[str, GameSpec] = {}


def names() -> list[str]:
    """Every registered game, sorted (nothing is imported)."""
    return sorted(_MODULES)


def get_spec(name: str) -> GameSpec:
    """The manifest of game ``name`` (its package is imported on first use)."""
    spec = _SPECS.get(name)
    if spec is not None:
        return spec
    module = _MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        raise ConfigError(f"unknown game {name!r}; registered games: {names()}")
    spec = importlib.import_module(module).SPEC
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise ConfigError(f"{module}.SPEC is not the GameSpec of {name!r}")
    _SPECS[name] = spec
    return spec


def register_game(spec: GameSpec) -> Callable[[], None]:
    """Register a game given by its manifest (a built-in game's package calls nothing: it is in
    :data:`GAMES`). Returns the function that undoes it (tests register throw-away games)."""
    if not isinstance(spec, GameSpec):
        raise ConfigError(f"register_game takes a GameSpec, got {type(spec).__name__}")
    if spec.name in _MODULES and get_spec(spec.name) is not spec:
        raise ConfigError(f"a game named {spec.name!r} is registered already; pick another name")
    _MODULES[spec.name] = None
    _SPECS[spec.name] = spec
    _register_ids([spec.name])

    def undo() -> None:
        _MODULES.pop(spec.name, None)
        _SPECS.pop(spec.name, None)
        if "pettingzoo" in sys.modules:
            sys.modules["pettingzoo"].aec_registry.pop(spec.env_id, None)
        if "gymnasium" in sys.modules:
            sys.modules["gymnasium"].registry.pop(spec.env_id, None)

    return undo


def env_id(name: str) -> str:
    """``cardarena/<name>-v<version>`` (the built-in games are all at version 0)."""
    spec = _SPECS.get(name)
    return spec.env_id if spec is not None else f"cardarena/{name}-v0"


def make(name: str, **options: Any) -> Any:
    """The env with its safety checks (order enforcing, out-of-bounds actions)."""
    from cardarena.envs.core.aec import CardGameEnv

    return CardGameEnv(get_spec(name), checks=True, **options)


def id_game(options: dict[str, Any], *keys: str) -> str:
    """The game an env id fixes, popped from ``options`` (its :data:`ID_GAME` entry); a ``game``
    or ``name`` keyword naming another game is a ConfigError (it would make another game under
    this id), the same game is dropped."""
    game = options.pop(ID_GAME)
    for key in keys:
        if key in options:
            other = options.pop(key)
            if other != game:
                raise ConfigError(
                    f"the env id {env_id(game)!r} is {game}; {key}={other!r} cannot change it: "
                    f"make {env_id(str(other)) if isinstance(other, str) else 'the other id'} "
                    f"instead"
                )
    return str(game)


def make_registered(**options: Any) -> Any:
    """PettingZoo's entry point of the ids: :func:`make` of the id's game."""
    return make(id_game(options, "name", "game"), **options)


def make_raw(name: str, **options: Any) -> Any:
    """The env without the safety checks (the engine still refuses illegal actions)."""
    from cardarena.envs.core.aec import CardGameEnv

    return CardGameEnv(get_spec(name), checks=False, **options)


def factories(spec: GameSpec) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """A game package's ``env`` and ``raw_env``: its env with and without the safety checks."""

    def env(**options: Any) -> Any:
        return make(spec.name, **options)

    def raw_env(**options: Any) -> Any:
        return make_raw(spec.name, **options)

    env.__doc__ = f"{spec.name} with the safety checks on (what users and tests should take)."
    raw_env.__doc__ = (
        f"{spec.name} without the safety checks (the engine still refuses illegal actions)."
    )
    return env, raw_env


# ---- the ids in PettingZoo's and gymnasium's registries -------------------------------------------


def _register_ids(games: list[str] | None = None) -> None:
    """Register ``games`` (default all) with PettingZoo and gymnasium, where they are imported."""
    for name in names() if games is None else games:
        env = env_id(name)
        pettingzoo = sys.modules.get("pettingzoo")
        if pettingzoo is not None and hasattr(pettingzoo, "aec_registry"):
            if env not in pettingzoo.aec_registry:
                pettingzoo.register("aec", env, entry_point=AEC_ENTRY_POINT, kwargs={ID_GAME: name})
        gymnasium = sys.modules.get("gymnasium")
        if gymnasium is not None and hasattr(gymnasium, "registry"):
            if env not in gymnasium.registry:
                # the env checks the order of calls itself (ResetNeededError, one of
                # cardarena's errors, rather than gymnasium's ResetNeeded)
                gymnasium.register(
                    id=env,
                    entry_point=GYM_ENTRY_POINT,
                    kwargs={ID_GAME: name},
                    order_enforce=False,
                )


class _Loader(importlib.abc.Loader):
    """A module's own loader, then a callback once the module has run."""

    def __init__(self, loader: Any, callback: Callable[[], None]) -> None:
        self._loader = loader
        self._callback = callback

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        self._callback()

    def __getattr__(self, attr: str) -> Any:  # get_resource_reader, is_package, ...
        return getattr(self._loader, attr)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs :func:`_register_ids` right after ``gymnasium`` or ``pettingzoo`` is first imported."""

    def __init__(self, packages: set[str]) -> None:
        self.waiting = set(packages)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in self.waiting:
            return None
        self.waiting.discard(fullname)  # one shot; also keeps the lookup below from recursing
        if not self.waiting and self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader, _register_ids)
        return spec


def _after_import() -> None:
    """Register the ids now with whichever of gymnasium / PettingZoo is imported, and when the
    other is first imported (called once, by ``cardarena/envs/__init__.py``)."""
    _register_ids()
    waiting = {p for p in ("gymnasium", "pettingzoo") if p not in sys.modules}
    if waiting and not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport(waiting))
