"""The manifest of a game: everything the suite needs to know about it, in one typed place.

Each game's ``envs/<game>/__init__.py`` holds one :class:`GameSpec` and nothing else of weight.
Its code is named, not imported (``"cardarena.envs.flip6.rules:Flip6Game"``): a name is imported
the first time it is used (``spec.engine_cls``, ``spec.encode``, ...), so that reading a manifest,
listing the games or importing one game's ``rules.py`` loads no other game, no gymnasium, no
PettingZoo and no torch. Baselines are agent spec names and a module path, never imports: envs
never import agents.

Every generic table of the suite reads these fields (the test harness, the rules-doc checks, the
golden recorders, the picture leak check, the strength bench, the speed floors, the games page
``docs/games.md``); ``tests/test_manifest.py`` registers a throw-away game and shows that each of
them picks it up. A game missing a field the suite needs fails a test naming the field.

This module imports nothing but the standard library and the errors, so that it stays cheap.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardarena.envs.core.errors import ConfigError


def resolve(name: Any) -> Any:
    """``"package.module:attr"`` (or ``"package.module"``) -> the object it names; anything
    but a string is already the object (a test's manifest may give its code directly)."""
    if not isinstance(name, str):
        return name
    module, _, attr = name.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GoldenCase:
    """One golden playthrough: a deal seed, the agent spec of every seat (their number is the
    player count) and the engine options (``tests/golden/record.py`` records it)."""

    seed: int
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ZooClaim:
    """A pretrained agent (``zoo:<agent>``) against the game's best baseline at ``num_players``
    seats (``bench/strength.py``); ``claim`` is the verdict the docs give it (``"beats"``,
    ``"below par"``, ``"at par"``), or None where none is checked."""

    agent: str
    options: Mapping[str, Any] = field(default_factory=dict)
    num_players: int = 4
    claim: str | None = None


@dataclass(frozen=True)
class SearchRow:
    """The best search setting measured (``docs/results/search.md``): ``agent`` (an agent spec)
    in one seat against the best baseline (a cooperative game: a team of it next to the baseline
    team), reported by ``bench/strength.py --only search`` under ``label``."""

    label: str
    agent: str
    options: Mapping[str, Any] = field(default_factory=dict)
    num_players: int = 4


@dataclass(frozen=True)
class Ladder:
    """A table of the baselines, weakest first (every seat rotation): claimed, each is above
    the one before it (``bench/strength.py --only ladder``)."""

    label: str
    options: Mapping[str, Any]
    deals: int


@dataclass(frozen=True)
class GameSpec:
    """What the suite needs to know about one game.

    ``engine`` names the engine class; ``encoder`` the module with ``encode(state, seat)``,
    ``render(state, seat)`` and ``view(state, seat)``. The resolved objects are ``engine_cls``,
    ``encode``, ``render`` and ``view`` (given directly, they replace what the names say:
    ``dataclasses.replace(spec, encode=f)``, as the benches do).
    """

    name: str
    #: ``"module:Class"`` of the :class:`~cardarena.envs.core.engine.GameEngine`
    engine: str = ""
    #: the module of ``encode``, ``render``, ``view`` (and ``OBS_SIZE``)
    encoder: str = ""
    #: ``"module:Class"`` of the engine on the native core (a C struct, same games from the same
    #: generator; ``envs/core/native.py``), or empty where the game runs on Python only. The
    #: module must import without the extension and say ``NATIVE_BUILT``.
    native_engine: str = ""
    #: the observation's length (``OBS_SIZE`` of the encoder; a test checks they agree)
    obs_size: int = 0
    #: the letter of the rule ids of ``docs/rules/<game>.md`` (F1, S3, ...)
    rule_letter: str = ""
    #: whether some seat cannot see some card (the picture and view leak checks then have work)
    hides_information: bool = False
    version: int = 0
    cooperative: bool = False
    #: options accepted by reset(options=...) besides those the engine's new_game takes
    reset_options: tuple[str, ...] = ("deck",)
    obs_low: float = -1.0
    obs_high: float = 2.0
    #: ``"module:function"`` laying out the ``rgb_array`` picture (``envs/core/pictures.py``)
    picture: str | Callable[..., Any] | None = None
    #: the module whose ``narrate(before, after, actor, seat, name)`` tells a seat, from its two
    #: views, what an action did beyond its text (``envs/core/narration.py``); None: the text only
    narration: str | Any | None = None
    #: the module of ``encode_privileged(state, seat)`` and ``privileged_size(engine)``: the
    #: hidden state a training run's privileged critic may read (``envs/<game>/privileged.py``)
    privileged: str | Any | None = None
    #: the scripted baselines' agent spec names, weakest first (the last is the best baseline),
    #: and the module whose ``BASELINES`` builds them (named, not imported)
    baselines: tuple[str, ...] = ()
    baselines_module: str | None = None
    #: engine option sets that change the encoding: the golden observation digests
    #: (``tests/golden/observations.py``) hash each one at every player count
    option_sets: tuple[Mapping[str, Any], ...] = ({},)
    #: engine options that change the rules -> the values the golden playthroughs must cover
    #: (and the legality check runs, at a few player counts, in every combination)
    rule_options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    #: the rule options whose every combination the golden set covers at every player count
    golden_grid: tuple[str, ...] = ()
    #: short tables (engine options, ``num_players`` included) with the options that change what
    #: a seat sees: the human-play and replay tests play each one
    play_tables: tuple[Mapping[str, Any], ...] = ({},)
    #: the golden playthroughs (at least 20, every player count, every value of ``rule_options``)
    golden: tuple[GoldenCase, ...] = ()
    #: the strength claims: zoo agents, baseline ladders, the best search settings
    zoo: tuple[ZooClaim, ...] = ()
    ladders: tuple[Ladder, ...] = ()
    search: tuple[SearchRow, ...] = ()
    #: player count -> the least plain-loop speed, as a multiple of PettingZoo's texas_holdem_v4,
    #: while the game runs on its Python core (``tests/test_throughput.py``: counts not named must
    #: reach 3x there; on the native core every count must reach 4x and these are not read)
    speed_floors: Mapping[int, float] = field(default_factory=dict)
    #: the shipped round-value fits of the search (``agents/zoo/leaf/<game>_<policy>_<n>p.npz``):
    #: (rollout policy, player count) pairs
    round_values: tuple[tuple[str, int], ...] = ()
    #: the shipped state-value fits of depth-limited search
    #: (``agents/zoo/leaf/<game>_<policy>_<n>p<options>_state.npz``): (rollout policy, player
    #: count, options tag) triples, the tag being ``""`` for the default options or, say, ``"_mode1"``
    state_values: tuple[tuple[str, int, str], ...] = ()
    #: what kind of game it is, in a few words (the games page, ``docs/games.md``)
    summary: str = ""
    #: anything else a game wants to carry (the suite reads nothing here)
    extra: dict[str, Any] = field(default_factory=dict)
    # Resolved from ``engine`` / ``encoder`` on first use unless given (see the class docstring).
    # The None defaults never reach a reader: __post_init__ drops them, so the first read
    # resolves the name; hence the types say what a reader gets.
    engine_cls: type[Any] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    encode: Callable[[Any, int], Any] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    render: Callable[[Any, int | None], str] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    view: Callable[[Any, int], Any] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if not self.name:
            raise ConfigError("GameSpec needs a name")
        for lazy in _LAZY:
            if self.__dict__.get(lazy) is None:
                del self.__dict__[lazy]  # read from the names on first use (__getattr__)

    def __getattr__(self, attr: str) -> Any:
        if attr not in _LAZY:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {attr!r}")
        source = self.engine if attr == "engine_cls" else self.encoder
        if not source:
            which = "engine" if attr == "engine_cls" else "encoder"
            raise ConfigError(f"{self.name}: the manifest (GameSpec) has no {which!r}")
        value = resolve(source) if attr == "engine_cls" else getattr(resolve(source), attr)
        self.__dict__[attr] = value  # cached: later reads are plain attribute reads
        return value

    @property
    def env_id(self) -> str:
        return f"cardarena/{self.name}-v{self.version}"

    @property
    def layout(self) -> Callable[[Any, Any], Any] | None:
        """The picture's layout function (``picture`` resolved), or None: the text table."""
        return resolve(self.picture) if self.picture else None

    def privileged_module(self) -> Any:
        """The module named by ``privileged``, or a :class:`ConfigError` saying the game has none."""
        if not self.privileged:
            raise ConfigError(
                f"policy.privileged_critic: {self.name} has no privileged encoding (its "
                "manifest names no 'privileged' module); set it to false"
            )
        return resolve(self.privileged)

    def best_baseline(self) -> str:
        return self.baselines[-1] if self.baselines else "random"

    def native_built(self) -> bool:
        """Whether this game has a native core and its extension is built."""
        if not self.native_engine:
            return False
        return bool(getattr(resolve(self.native_engine.partition(":")[0]), "NATIVE_BUILT", False))

    def engine_class(self, core: str | None = None) -> type[Any]:
        """The engine class ``core`` asks for (``envs/core/native.py``): ``"python"``, ``"native"``
        (a ConfigError where the game has none or it is not built) or None (``CARDARENA_CORE``,
        else native where built, else Python)."""
        from cardarena.envs.core.native import check_core, core_choice

        if core is None:
            core = core_choice()
            if core == "native" and not self.native_built():
                core = "python"
        check_core(core)
        if core == "python":
            return self.engine_cls
        if not self.native_engine:
            raise ConfigError(
                f"{self.name} has no native core; use core='python' (or leave core out)"
            )
        if not self.native_built():
            raise ConfigError(
                f"{self.name}: the native core is not built (it needs Cython, numpy and a C "
                "compiler when the package is installed: reinstall with them); use core='python' "
                "(or leave core out)"
            )
        return resolve(self.native_engine)

    def make_engine(self, core: str | None = None, **options: Any) -> Any:
        """The engine with ``options``, on the core ``core`` asks for (:meth:`engine_class`)."""
        cls = self.engine_class(core)
        try:
            return cls(**options)
        except TypeError as err:  # unknown keyword: say which options exist
            known = [p for p in inspect.signature(cls).parameters if p != "self"]
            raise ConfigError(
                f"{self.name}: bad option ({err}). Options of {self.name}: {known}, core, "
                "render_mode and render_seat."
            ) from None

    def option_default(self, option: str) -> Any:
        """The engine's default value of ``option`` (its ``__init__`` signature)."""
        param = inspect.signature(self.engine_cls).parameters.get(option)
        if param is None or param.default is inspect.Parameter.empty:
            raise ConfigError(f"{self.name}: the engine has no option {option!r} with a default")
        return param.default


#: fields read from ``engine`` / ``encoder`` when not given
_LAZY = ("engine_cls", "encode", "render", "view")
for _name in _LAZY:  # no class attribute: a missing instance attribute reaches __getattr__
    delattr(GameSpec, _name)

#: the fields every game's manifest must fill for the suite's generic tests to apply
REQUIRED = (
    "engine",
    "encoder",
    "obs_size",
    "rule_letter",
    "picture",
    "privileged",
    "baselines",
    "baselines_module",
    "golden",
    "ladders",
    "summary",
)


def missing_fields(spec: GameSpec) -> list[str]:
    """The :data:`REQUIRED` fields ``spec`` leaves empty (tests name them in their failures);
    ``engine`` / ``encoder`` count as given when their objects are."""
    given = {
        "engine": "engine_cls" in spec.__dict__,
        "encoder": all(f in spec.__dict__ for f in ("encode", "render", "view")),
    }
    return [f for f in REQUIRED if not (getattr(spec, f) or given.get(f))]


# ---- reading a manifest file ----------------------------------------------------------------------

#: the manifest's file name, beside the game package's ``__init__.py``
MANIFEST_FILE = "game.toml"
#: tables of the file -> the dataclass each row becomes
_ROWS: dict[str, type] = {
    "golden": GoldenCase,
    "zoo": ZooClaim,
    "ladders": Ladder,
    "search": SearchRow,
}
#: plain fields -> the TOML type they must have
_PLAIN: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "engine": str,
    "encoder": str,
    "native_engine": str,
    "obs_size": int,
    "rule_letter": str,
    "hides_information": bool,
    "version": int,
    "cooperative": bool,
    "reset_options": list,
    "obs_low": (int, float),
    "obs_high": (int, float),
    "picture": str,
    "narration": str,
    "privileged": str,
    "baselines": list,
    "baselines_module": str,
    "option_sets": list,
    "rule_options": dict,
    "golden_grid": list,
    "play_tables": list,
    "speed_floors": dict,
    "round_values": list,
    "state_values": list,
    "summary": str,
}


def _row(cls: type, row: Any, where: str) -> Any:
    if not isinstance(row, dict):
        raise ConfigError(f"{where}: each entry must be a table, got {row!r}")
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(row) - set(names))
    if unknown:
        raise ConfigError(f"{where}: unknown keys {unknown}; the keys are {names}")
    try:
        built = cls(**row)
    except TypeError as err:
        raise ConfigError(f"{where}: {err} (the keys are {names})") from None
    if isinstance(built, GoldenCase):
        built = dataclasses.replace(built, players=tuple(built.players))
    return built


def _is_a(value: Any, kind: Any) -> bool:
    """``isinstance`` that leaves a type checker's idea of ``value`` as it was (the kinds of a
    manifest key are looked up at run time)."""
    return isinstance(value, kind)


def manifest_from_dict(data: dict[str, Any], where: str = "manifest") -> GameSpec:
    """A :class:`GameSpec` from a manifest file's data; an unknown key or a value of the wrong
    type is a :class:`ConfigError` naming it."""
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key in _ROWS:
            if not isinstance(value, list):
                raise ConfigError(f"{where}: {key} must be a list of tables, got {value!r}")
            rows = [_row(_ROWS[key], r, f"{where}: {key}[{i}]") for i, r in enumerate(value)]
            kwargs[key] = tuple(rows)
            continue
        if key not in _PLAIN:
            raise ConfigError(
                f"{where}: unknown key {key!r}; the keys are {sorted({*_PLAIN, *_ROWS})}"
            )
        if not _is_a(value, _PLAIN[key]) or (_PLAIN[key] is int and isinstance(value, bool)):
            want = _PLAIN[key]
            shown = {str: "a string", int: "an int", bool: "true or false", list: "a list"}
            raise ConfigError(
                f"{where}: {key} must be {shown.get(want, 'a table') if isinstance(want, type) else 'a number'}, got {value!r}"
            )
        if key == "speed_floors":
            try:
                value = {int(n): float(v) for n, v in value.items()}
            except (TypeError, ValueError):
                raise ConfigError(
                    f"{where}: speed_floors maps player counts to numbers, got {value!r}"
                ) from None
        elif key == "rule_options":
            value = {k: tuple(v) if isinstance(v, list) else (v,) for k, v in value.items()}
        elif key in ("round_values", "state_values"):
            value = tuple(tuple(v) for v in value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[key] = value
    if "name" not in kwargs:
        raise ConfigError(f"{where}: no name")
    return GameSpec(**kwargs)


def load_manifest(package: str) -> GameSpec:
    """The manifest of the game package ``package`` (its ``game.toml``)."""
    import importlib.resources
    import tomllib

    where = f"{package.replace('.', '/')}/{MANIFEST_FILE}"
    try:
        text = (importlib.resources.files(package) / MANIFEST_FILE).read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{where}: {err}") from None
    return manifest_from_dict(data, where)
