"""Each game's manifest (``GameSpec`` in ``envs/<game>/__init__.py``) is the one place its facts
live, the registry finds games without importing them, and every generic table reads it.

* Every registered game fills every field the suite needs (``envs.core.spec.REQUIRED``), and the
  manifest agrees with the code it names (sizes, baselines, pictures, privileged encodings,
  shipped round values, zoo agents, recorded observation digests).
* A throw-away game (a 2-seat "highest card wins" with a hidden card, defined below) registered
  with ``register_game`` is picked up by every generic table of the suite: the registry, the env
  and its PettingZoo/gymnasium ids, the golden recorder, the observation digests, the docs checks,
  the picture leak check, the legality check, the speed floors, the test harness, the strength
  bench; a manifest missing a field fails naming it. The registration is undone afterwards.
* Engines import alone: ``import cardarena.envs.<game>.rules`` loads no gymnasium, PettingZoo,
  torch, agent code or other game (a fresh interpreter per game), and ``import cardarena.envs``
  registers the ids without importing any game.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardarena import envs
from cardarena.agents.base import Agent
from cardarena.agents.search.leaf import manifest_fits
from cardarena.envs.core import registry
from cardarena.envs.core.engine import ConfigError, GameEngine, IllegalActionError, check_int
from cardarena.envs.core.pictures import BACK, OBSERVER, Card, Table, picture, seat_row
from cardarena.envs.core.spec import (
    REQUIRED,
    GameSpec,
    GoldenCase,
    Ladder,
    SearchRow,
    ZooClaim,
    missing_fields,
)

ROOT = Path(__file__).resolve().parents[1]
GAMES = envs.names()


# ---- every registered game's manifest -------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_manifest_fills_what_the_suite_needs(game: str) -> None:
    spec = envs.get_spec(game)
    assert not missing_fields(spec), f"{game}: the manifest (GameSpec) lacks {missing_fields(spec)}"
    assert spec.name == game and spec.env_id == f"cardarena/{game}-v{spec.version}"


@pytest.mark.parametrize("game", GAMES)
def test_every_manifest_agrees_with_the_code_it_names(game: str) -> None:
    spec = envs.get_spec(game)
    encoder = importlib.import_module(spec.encoder)
    assert spec.obs_size == encoder.OBS_SIZE, f"{game}: obs_size is not {spec.encoder}.OBS_SIZE"
    assert issubclass(spec.engine_cls, GameEngine) and spec.engine_cls.name == game
    baselines = importlib.import_module(spec.baselines_module).BASELINES
    assert tuple(baselines) == spec.baselines, f"{game}: baselines are {list(baselines)}"
    privileged = spec.privileged_module()
    assert callable(privileged.encode_privileged) and callable(privileged.privileged_size)
    assert callable(spec.layout)
    for option_set in spec.option_sets:
        spec.make_engine(**option_set)  # every option set is one the engine takes
    for key, values in spec.rule_options.items():
        for value in values:
            spec.make_engine(**{key: value})
    assert set(spec.golden_grid) <= set(spec.rule_options)
    zoo = {p.stem for p in (ROOT / "agents" / "zoo").glob(f"{game}*.zip")}
    assert {z.agent for z in spec.zoo} == zoo, f"{game}: zoo agents shipped: {sorted(zoo)}"
    leaf = {p.name for p in (ROOT / "agents" / "zoo" / "leaf").glob(f"{game}_*.npz")}
    named = {p.name for p in manifest_fits(game)}
    assert named == leaf, f"{game}: round- and state-value fits shipped: {sorted(leaf)}"
    assert {policy for policy, _ in spec.round_values} <= set(spec.baselines)
    assert {policy for policy, _, _ in spec.state_values} <= set(spec.baselines)


def test_every_configuration_the_manifests_name_has_recorded_digests() -> None:
    from tests.golden.observations import GOLDEN, configs, key

    recorded = set(json.loads(GOLDEN.read_text()))
    assert {key(*c) for c in configs()} == recorded


def test_games_are_listed_without_being_imported() -> None:
    code = (
        "import sys; import cardarena.envs as e; names = e.names();"
        "loaded = [g for g in names if f'cardarena.envs.{g}' in sys.modules];"
        "heavy = [m for m in ('gymnasium', 'pettingzoo', 'torch') if m in sys.modules];"
        "print(names, loaded, heavy)"
    )
    out = _python(code)
    assert out == f"{GAMES} [] []", out


# ---- engines import alone -------------------------------------------------------------------------


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_module_imports_alone(game: str) -> None:
    others = [g for g in GAMES if g != game]
    code = (
        f"import sys; import cardarena.envs.{game}.rules;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('gymnasium', 'pettingzoo', 'torch', 'stable_baselines3', 'sb3_contrib')"
        " or m.startswith('cardarena.agents')"
        f" or any(m.startswith(f'cardarena.envs.{{g}}') for g in {others!r})))"
    )
    assert _python(code) == "[]"


def test_ids_are_registered_whichever_is_imported_first() -> None:
    check = (
        "import gymnasium, pettingzoo;"
        "ids = [f'cardarena/{g}-v0' for g in e.names()];"
        "assert all(i in gymnasium.registry for i in ids), 'gymnasium';"
        "assert all(i in pettingzoo.aec_registry for i in ids), 'pettingzoo';"
        "env = pettingzoo.make('aec', 'cardarena/flip6-v0', num_players=3); env.reset(seed=0);"
        "print(env.num_agents)"
    )
    assert _python("import cardarena.envs as e;" + check) == "3"  # the hook registers them
    assert _python("import gymnasium, pettingzoo; import cardarena.envs as e;" + check) == "3"


# ---- a throw-away game ----------------------------------------------------------------------------

CODES = [str(v) for v in range(1, 11)]


@dataclass(slots=True)
class HighCardState:
    rng: np.random.Generator
    hands: list[int]
    pile: list[int]
    turn: int = 0


class HighCard(GameEngine):
    """Two seats get one card each (1..10), unseen by the other; each in turn keeps it or swaps
    it for the top of the pile; the higher card wins."""

    name = "highcard"
    num_actions = 2
    min_players = 2
    max_players = 2
    reward_kind = "zero_sum"

    def __init__(self, num_players: int = 2, swaps: bool = True) -> None:
        self.num_players = check_int("num_players", num_players, 2, 2)
        self.swaps = bool(swaps)

    def new_game(self, rng: np.random.Generator, options: dict[str, Any] | None = None) -> Any:
        if options:
            raise ConfigError(f"highcard takes no reset options, got {sorted(options)}")
        order = [int(i) + 1 for i in rng.permutation(10)]
        return HighCardState(rng, order[:2], order[2:])

    def apply(self, state: Any, action: int, seat: int | None = None) -> None:
        self.check_turn(state, seat)
        if action not in self.legal_actions(state):
            raise self.illegal(state, action)
        if action == 1:
            state.hands[state.turn], state.pile[0] = state.pile[0], state.hands[state.turn]
        state.turn += 1

    def current_player(self, state: Any) -> int | None:
        return None if self.is_over(state) else state.turn

    def legal_actions(self, state: Any) -> list[int]:
        return [] if self.is_over(state) else ([0, 1] if self.swaps else [0])

    def is_over(self, state: Any) -> bool:
        return state.turn >= 2

    def returns(self, state: Any) -> list[float]:
        if not self.is_over(state):
            return [0.0, 0.0]
        win = self.winners(state)
        return [0.0, 0.0] if len(win) == 2 else [1.0 if s in win else -1.0 for s in range(2)]

    def scores(self, state: Any) -> list[float]:
        return [float(h) for h in state.hands]

    def winners(self, state: Any) -> list[int]:
        if not self.is_over(state):
            return []
        return [s for s in range(2) if state.hands[s] == max(state.hands)]

    def describe_action(self, action: int) -> str:
        return ("keep", "swap")[action]

    def parse_action(self, text: str) -> int:
        if text not in ("keep", "swap"):
            raise IllegalActionError(f"highcard actions are 'keep' and 'swap', got {text!r}")
        return ("keep", "swap").index(text)

    def to_dict(self, state: Any) -> dict[str, Any]:
        return {"hands": list(state.hands), "pile": list(state.pile), "turn": state.turn}

    def from_dict(self, data: dict[str, Any]) -> Any:
        return HighCardState(
            np.random.default_rng(0), list(data["hands"]), list(data["pile"]), data["turn"]
        )

    def card_zones(self, state: Any) -> dict[str, list[str]]:
        return {
            "draw_pile": [CODES[c - 1] for c in state.pile],
            "hands": [CODES[c - 1] for c in state.hands],
        }

    def deck_codes(self) -> list[str]:
        return list(CODES)

    def resample_hidden(self, state: Any, seat: int, rng: np.random.Generator) -> Any:
        unseen = [state.hands[1 - seat], *state.pile]
        order = [unseen[i] for i in rng.permutation(len(unseen))]
        hands = list(state.hands)
        hands[1 - seat] = order[0]
        return HighCardState(rng, hands, order[1:], state.turn)


def encode(state: Any, seat: int) -> np.ndarray:
    return np.array(
        [state.hands[seat] / 10, state.turn == 0, state.turn == 1, state.turn >= 2], np.float32
    )


def render(state: Any, seat: int | None) -> str:
    mine = f"  your card {state.hands[seat]}" if seat is not None else ""
    return f"highcard turn {state.turn}{mine}"


def view(state: Any, seat: int) -> dict[str, Any]:
    return {"card": state.hands[seat], "turn": state.turn}


def layout(state: Any, seat: Any) -> Table:
    seats = [
        seat_row(
            s,
            seat,
            "",
            [Card(str(state.hands[s])) if seat in (s, OBSERVER) else BACK],
            state.turn == s,
        )
        for s in range(2)
    ]
    return Table(title="highcard", seats=seats)


privileged = types.SimpleNamespace(
    encode_privileged=lambda state, seat: np.array([state.hands[1 - seat] / 10], np.float32),
    privileged_size=lambda engine: 1,
)


class Keeper(Agent):
    def act(self, observation: Any, action_mask: Any, view: Any) -> int:
        return 0


class Judge(Agent):
    def act(self, observation: Any, action_mask: Any, view: Any) -> int:
        return int(view["card"] < 6 and action_mask[1])


SPEC = GameSpec(
    name="highcard",
    engine_cls=HighCard,
    encode=encode,
    render=render,
    view=view,
    obs_size=4,
    rule_letter="H",
    hides_information=True,
    reset_options=(),
    picture=layout,
    privileged=privileged,
    baselines=("keeper", "judge"),
    baselines_module="highcard_baselines",
    option_sets=({}, {"swaps": False}),
    rule_options={"swaps": (True, False)},
    golden=tuple(GoldenCase(s, ("judge", "keeper"), {"swaps": s % 2 == 0}) for s in range(20)),
    zoo=(ZooClaim("highcard", num_players=2, claim="beats"),),
    ladders=(Ladder("highcard", {"num_players": 2}, 10),),
    search=(SearchRow("highcard", "pimc:worlds=4", num_players=2),),
    speed_floors={2: 1.0},
    summary="highest card wins, one hidden card each",
)


@pytest.fixture
def highcard(monkeypatch):
    """The throw-away game registered for one test (its baselines module put in sys.modules)."""
    module = types.ModuleType("highcard_baselines")
    module.BASELINES = {"keeper": Keeper, "judge": Judge}
    monkeypatch.setitem(sys.modules, "highcard_baselines", module)
    import gymnasium  # noqa: F401  (so that its id is registered now)
    import pettingzoo  # noqa: F401

    undo = envs.register_game(SPEC)
    try:
        yield SPEC
    finally:
        undo()
    assert "highcard" not in envs.names()
    assert SPEC.env_id not in pettingzoo.aec_registry and SPEC.env_id not in gymnasium.registry


def _fresh(relative: str) -> types.ModuleType:
    """A new copy of a module of the repository, so that its tables are built now."""
    path = ROOT / relative
    name = "fresh_" + path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def test_a_registered_game_is_a_full_env(highcard) -> None:
    import gymnasium
    import pettingzoo

    assert "highcard" in envs.names() and "highcard" in envs.GAMES
    assert envs.get_spec("highcard") is highcard
    env = envs.make("highcard", render_mode="rgb_array")
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1]))
    assert env.render().shape[2] == 3
    assert pettingzoo.make("aec", highcard.env_id).unwrapped.spec is highcard
    assert highcard.env_id in gymnasium.registry
    single = gymnasium.make(highcard.env_id, opponents="judge")
    obs, _ = single.reset(seed=0)
    assert obs.shape == (4,)

    from cardarena.agents import best_baseline, make_agent, scripted_names
    from cardarena.agents.training.privileged import privileged_module

    assert scripted_names("highcard") == ["random", "keeper", "judge"]
    assert best_baseline("highcard") == "judge"
    assert isinstance(make_agent("highcard", "judge"), Judge)
    assert privileged_module("highcard") is privileged


def test_every_generic_table_picks_up_a_registered_game(highcard) -> None:
    record = _fresh("tests/golden/record.py")
    cases = [c for c in record.CASES if c.game == "highcard"]
    assert len(cases) == 20 and record.play(cases[0])  # the golden recorder plays its cases
    observations = _fresh("tests/golden/observations.py")
    assert [(n, o) for g, n, o in observations.configs() if g == "highcard"] == [
        (2, {}),
        (2, {"swaps": False}),
    ]
    docs = _fresh("tests/test_docs.py")
    assert docs.GAMES["highcard"] == "H"
    with pytest.raises(AssertionError, match="docs/rules/highcard.md is missing"):
        docs.test_every_registered_game_has_a_rules_doc()
    pictures = _fresh("tests/test_pictures.py")
    assert "highcard" in pictures.HIDDEN
    pictures.test_own_cards_face_up_others_hidden("highcard")
    legality = _fresh("tests/test_engine_legality.py")
    ids = [p.id for p in legality.CONFIGS if p.values[0] == "highcard"]
    assert ids == ["highcard-2p-True", "highcard-2p-False"]
    legality.test_apply_accepts_exactly_the_legal_actions("highcard", 2, {"swaps": True})
    harness = _fresh("tests/test_harness.py")
    assert "highcard" in [p.values[0] for p in harness.GAMES]
    throughput = _fresh("tests/test_throughput.py")
    assert throughput.FLOORS[("highcard", 2)] == 1.0
    assert ("highcard", 2) in [tuple(p.values) for p in throughput.CASES]
    strength = _fresh("bench/strength.py")
    assert (
        strength.ZOO["highcard"] == ("highcard", {}, 2) and strength.CLAIMS["highcard"] == "beats"
    )
    assert strength.LADDERS["highcard"] == ("highcard", {"num_players": 2}, 10)
    assert strength.SEARCH["highcard"] == ("highcard", {}, 2, "pimc:worlds=4")
    tamper = _fresh("tests/test_replay_tamper.py")
    assert "highcard" in tamper.GAMES
    assert picture(highcard, highcard.make_engine().new_game(np.random.default_rng(0)), 0).ndim == 3


@pytest.mark.parametrize("field", REQUIRED)
def test_a_manifest_missing_a_field_is_named(field: str) -> None:
    empty = {"engine": "", "encoder": "", "obs_size": 0, "rule_letter": "", "picture": None}
    empty |= {"privileged": None, "baselines": (), "baselines_module": None, "golden": ()}
    empty |= {"ladders": (), "summary": ""}
    spec = dataclasses.replace(SPEC, **{field: empty[field]})
    if field == "engine":
        spec = GameSpec(
            **{
                f.name: getattr(SPEC, f.name)
                for f in dataclasses.fields(SPEC)
                if f.name != "engine_cls"
            }
        )
    if field == "encoder":
        spec = GameSpec(
            **{
                f.name: getattr(SPEC, f.name)
                for f in dataclasses.fields(SPEC)
                if f.name not in ("encode", "render", "view")
            }
        )
    assert missing_fields(spec) == [field]
    with pytest.raises(AssertionError, match=field):
        undo = registry.register_game(spec)
        try:
            test_every_manifest_fills_what_the_suite_needs(spec.name)
        finally:
            undo()


def test_registering_refuses_a_taken_name_and_non_manifests() -> None:
    with pytest.raises(ConfigError, match="'flip6' is registered already"):
        envs.register_game(dataclasses.replace(envs.get_spec("flip6"), obs_size=1))
    with pytest.raises(ConfigError, match="takes a GameSpec"):
        envs.register_game({"name": "x"})
    with pytest.raises(ConfigError, match="unknown game 'nope'"):
        envs.get_spec("nope")
    with pytest.raises(ConfigError, match="has no 'engine'"):
        _ = GameSpec(name="bare").engine_cls


def test_a_manifest_file_is_read_field_by_field_with_clear_errors() -> None:
    from cardarena.envs.core.spec import manifest_from_dict

    spec = manifest_from_dict(
        {"name": "x", "speed_floors": {"4": 2}, "golden": [{"seed": 1, "players": ["a", "b"]}]}
    )
    assert spec.speed_floors == {4: 2.0} and spec.golden == (GoldenCase(1, ("a", "b")),)
    with pytest.raises(ConfigError, match="unknown key 'obs_sise'"):
        manifest_from_dict({"name": "x", "obs_sise": 3})
    with pytest.raises(ConfigError, match="obs_size must be an int, got '3'"):
        manifest_from_dict({"name": "x", "obs_size": "3"})
    with pytest.raises(ConfigError, match=r"golden\[0\]: unknown keys \['seat'\]"):
        manifest_from_dict({"name": "x", "golden": [{"seed": 1, "seat": 2}]})
    with pytest.raises(ConfigError, match=r"zoo\[0\].*agent"):
        manifest_from_dict({"name": "x", "zoo": [{"claim": "beats"}]})
    with pytest.raises(ConfigError, match="speed_floors maps player counts"):
        manifest_from_dict({"name": "x", "speed_floors": {"four": 2}})
    with pytest.raises(ConfigError, match="no name"):
        manifest_from_dict({"obs_size": 3})
