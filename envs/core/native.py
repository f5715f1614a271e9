"""Which core plays a game: the compiled (native) one where it is built, else the Python one.

A game may ship a native core: a Cython extension ``envs/<game>/_native.pyx`` (built by
``setup.py`` when Cython, numpy and a C compiler are there) and a module naming its engine in the
manifest (``native_engine = "cardarena.envs.<game>.native:Native<Game>Game"``). The Python engine
(``rules.py``) and encoder stay the reference; each native core is lock-step tested against them
(``tests/test_native_<game>.py``), so that the same seed gives the same game on either core.

The choice, for every engine the suite builds (``GameSpec.make_engine``, ``envs.make``):

* ``core="native"``: the native engine; a :class:`ConfigError` if the game has none or it is not
  built;
* ``core="python"``: the Python engine;
* ``core=None`` (the default): ``CARDARENA_CORE`` in the environment if set (``native`` or
  ``python``), else native where built, else Python. ``CARDARENA_CORE=python`` also switches off
  the compiled encoders, so that a whole run is on the reference code.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

from cardarena.envs.core.engine import state_error
from cardarena.envs.core.errors import ConfigError

#: environment variable choosing the core: "native" (the default where built) or "python"
CORE_VARIABLE = "CARDARENA_CORE"
CORES = ("native", "python")


def check_core(core: object, where: str = "core") -> str:
    """``core`` if it is one of :data:`CORES`, else a ConfigError naming it."""
    if core not in CORES:
        raise ConfigError(
            f"{where}={core!r}; allowed: {' or '.join(repr(c) for c in CORES)} "
            "(or leave it out: native where it is built)"
        )
    return str(core)


def core_choice() -> str:
    """The core ``CARDARENA_CORE`` asks for ("native" when unset)."""
    value = os.environ.get(CORE_VARIABLE, "").strip().lower() or "native"
    if value not in CORES:
        raise ConfigError(
            f"environment variable {CORE_VARIABLE}={os.environ[CORE_VARIABLE]!r}; allowed: "
            f"{' or '.join(repr(c) for c in CORES)} (or unset: native where it is built)"
        )
    return value


def load_extension(module: str) -> ModuleType | None:
    """The compiled extension ``module`` (``cardarena.envs.<game>._native``), or None when it is
    not built."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


class NativeEngine:
    """What every game's native engine does the same way, mixed in before the game's Python
    engine class (``class NativeSevnGame(NativeEngine, SevnGame)``): the queries read the native
    state, and serialisation, ``card_zones`` and ``resample_hidden`` go through the Python engine
    ``self.python`` (the reference), converting the state. A game sets ``state_class`` (its
    compiled ``NativeState``) and ``python_state`` (its Python state class)."""

    state_class: Any
    python_state: type
    python: Any
    #: the hot methods, which catch a state that is not one (None before a game) themselves at
    #: no cost (``engine.state_error``); every other state method is wrapped (``guard_state``)
    checks_state_inline = ("apply", "current_player", "legal_actions", "is_over", "returns")

    def from_python(self, state: Any) -> Any:
        """The native state of a Python one (sharing its generator)."""
        return self.state_class.from_python(state)

    def to_python(self, state: Any) -> Any:
        """The Python state of a native one (its generator copied)."""
        return state.to_python()

    def current_player(self, state: Any) -> int | None:
        try:
            return state.current_player()
        except AttributeError:
            raise state_error(self, "current_player", state) from None

    def legal_actions(self, state: Any) -> list[int]:
        try:
            return state.legal_actions()
        except AttributeError:
            raise state_error(self, "legal_actions", state) from None

    def is_over(self, state: Any) -> bool:
        try:
            return state.over
        except AttributeError:
            raise state_error(self, "is_over", state) from None

    def returns(self, state: Any) -> list[float]:
        try:
            return state.returns()
        except AttributeError:
            raise state_error(self, "returns", state) from None

    def clone(self, state: Any, rng: Any = None) -> Any:
        if isinstance(state, self.python_state):
            return self.python.clone(state, rng)
        return state.clone(rng)

    def to_dict(self, state: Any) -> dict[str, Any]:
        return self.python.to_dict(state.to_python(copy_rng=False))

    def from_dict(self, data: dict[str, Any]) -> Any:
        return self.state_class.from_python(self.python.from_dict(data))

    def card_zones(self, state: Any) -> dict[str, list[str]]:
        return self.python.card_zones(state.to_python(copy_rng=False))

    def resample_hidden(self, state: Any, seat: int, rng: Any) -> Any:
        world = self.python.resample_hidden(state.to_python(copy_rng=False), seat, rng)
        return self.state_class.from_python(world)


def _guard_mixin() -> None:
    """The mixin's other state methods refuse ``None`` as every engine's do
    (``engine.guard_state``)."""
    from cardarena.envs.core.engine import STATE_METHODS, guard_state

    for method in STATE_METHODS:
        own = NativeEngine.__dict__.get(method)
        if callable(own) and method not in NativeEngine.checks_state_inline:
            setattr(NativeEngine, method, guard_state(own))


_guard_mixin()
