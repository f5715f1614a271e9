"""State I/O from a declaration (``envs/core/state_fields.py``): what ``@state_fields`` refuses at
class definition, the compiled ``clone``, the generic ``to_dict`` / ``from_dict`` / ``card_zones``
on a throw-away game, and the shared engine pieces (``envs/core/engine_parts.py``)."""

from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core import engine_parts as parts
from cardarena.envs.core import state_fields as sf
from cardarena.envs.core.engine import GameEngine
from cardarena.envs.core.errors import ConfigError, IllegalActionError

GAMES = [pytest.param(name, id=name) for name in envs.names()]


# ---- a throw-away game declared with every field type ------------------------------------------
CODES = ["A", "B", "C", "D"]
LOOKUP = {c: i for i, c in enumerate(CODES)}
parse = parts.card_parser("toy", CODES)


@sf.state_fields
@dataclass(slots=True)
class ToyState:
    num_players: int
    limit: int
    rng: np.random.Generator
    pile: list[int]
    rows: list[int]  # two cards per seat, flat
    hands: list[list[int]]
    known: int  # bitmask of seats
    held: int = -1
    mover: int = 0
    log: list[tuple[int, int]] = field(default_factory=list)
    over: bool = False
    total: int = 0  # a cache: cards in the hands

    FIELDS = sf.declare(
        limit=sf.Int(1, 9),
        pile=sf.Cards(CODES, LOOKUP, parse, max_len=lambda s: s.limit, reverse=True, zone="pile"),
        rows=sf.Chunks(sf.Cards(CODES, LOOKUP, parse, length=2), 2, zone="row_{}"),
        hands=sf.List(sf.Cards(CODES, LOOKUP, parse), length=sf.N, zone="hand_{}"),
        known=sf.SeatMask(),
        held=sf.Card(CODES, LOOKUP, parse, none=None, zone="held"),
        mover=sf.Seat(none=None),
        current_player=sf.Derived(lambda game, s: game.current_player(s)),
        log=sf.List(sf.Tuple(sf.Seat(), sf.Int(0, 3)), max_len=4),
        over=sf.Bool(),
        total=sf.Cache(),
        rng=sf.Rng(),
    )


class ToyGame(GameEngine[ToyState], describe=lambda a: f"act {a}", parse=lambda t: int(t[4:])):
    name = "toy"
    num_actions = 4
    max_players = 2
    card_codes, full_deck = CODES, [0, 1, 2, 3, 0, 1, 2, 3]

    def __init__(self) -> None:
        self.num_players = 2

    def new_game(self, rng: np.random.Generator, options: Any = None) -> ToyState:
        return ToyState(2, 5, rng, [0, 1], [2, 3, 0, 1], [[2], [3]], 0b10, held=-1, mover=-1)

    def current_player(self, state: ToyState) -> int | None:
        return None if state.mover < 0 else state.mover

    def legal_actions(self, state: ToyState) -> list[int]:
        return [0]

    def apply(self, state: ToyState, action: int, seat: int | None = None) -> None:
        raise NotImplementedError

    def check_state(self, state: ToyState, r: Any) -> None:
        state.total = sum(len(h) for h in state.hands)
        if state.over and state.mover >= 0:
            raise r.error("mover", state.mover, "null once the game is over")

    def resample_hidden(self, state: ToyState, seat: int, rng: np.random.Generator) -> ToyState:
        return self.clone(state)


def toy() -> tuple[ToyGame, ToyState]:
    game = ToyGame()
    state = game.new_game(np.random.default_rng(0))
    state.mover, state.log = 1, [(0, 3), (1, 2)]
    return game, state


def test_the_declaration_writes_every_field_in_order_and_reads_it_back() -> None:
    game, state = toy()
    data = game.to_dict(state)
    assert list(data) == [
        "game",
        "num_players",
        "limit",
        "pile",
        "rows",
        "hands",
        "known",
        "held",
        "mover",
        "current_player",
        "log",
        "over",
        "rng",
    ]
    assert data["pile"] == ["B", "A"]  # top first: the end of the state's list
    assert data["rows"] == [["C", "D"], ["A", "B"]] and data["known"] == [1]
    assert data["held"] is None and data["log"] == [[0, 3], [1, 2]]
    back = game.from_dict(json.loads(json.dumps(data)))
    assert game.to_dict(back) == data
    assert back.log == [(0, 3), (1, 2)] and back.total == 2  # tuples again; the cache rebuilt
    zones = game.card_zones(back)
    assert zones == {
        "pile": ["A", "B"],
        "row_0": ["C", "D"],
        "row_1": ["A", "B"],
        "hand_0": ["C"],
        "hand_1": ["D"],
        "held": [],
    }
    assert game.conservation_error(back) is None
    assert game.describe_action(2) == "act 2" and game.parse_action("act 3") == 3


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("limit", 10, r"'limit' is 10; allowed: an integer in \[1, 9\]"),
        ("pile", ["A"] * 6, "'pile'.*at most 5 items"),  # the bound follows the saved limit
        ("rows", [["A", "B"]], "'rows'.*exactly 2 items"),
        ("rows", [["A", "B"], ["C"]], r"'rows\[1\]'.*exactly 2 items"),
        ("hands", [["C"], ["Z"]], r"'hands\[1\]\[0\]'.*unknown toy card code 'Z'"),
        ("known", [0, 0], "'known'.*distinct seats"),
        ("mover", 5, r"'mover' is 5; allowed: a seat in \[0, 1\] or None"),
        ("log", [[0, 9]], r"'log\[0\]\[1\]' is 9"),
        ("current_player", 0, "'current_player' is 0; allowed: 1"),
        ("rng", {"bit_generator": "os"}, "'rng'"),
    ],
)
def test_a_bad_field_is_refused_naming_it_and_what_is_allowed(
    key: str, value: Any, match: str
) -> None:
    game, state = toy()
    data = json.loads(json.dumps(game.to_dict(state)))
    data[key] = value
    with pytest.raises(ConfigError, match=match):
        game.from_dict(data)


def test_check_state_refuses_what_lies_between_fields() -> None:
    game, state = toy()
    data = game.to_dict(state)
    data["over"] = True
    with pytest.raises(ConfigError, match="'mover' is 1; allowed: null once the game is over"):
        game.from_dict(data)


# ---- what @state_fields refuses at class definition ---------------------------------------------
def declare_state(annotation: str, declared: dict[str, sf.Field] | None = None) -> type:
    """A state class with one attribute ``extra`` annotated ``annotation``, defined now."""
    scope: dict[str, Any] = {"sf": sf, "dataclass": dataclass, "np": np}
    fields = declared if declared is not None else {"extra": sf.Int(0, 1)}
    scope["FIELDS_IN"] = fields
    exec(  # noqa: S102 - the test defines classes from text on purpose
        "from __future__ import annotations\n"
        "@sf.state_fields\n"
        "@dataclass(slots=True)\n"
        "class Bad:\n"
        "    num_players: int\n"
        f"    extra: {annotation}\n"
        "    FIELDS = FIELDS_IN\n",
        scope,
    )
    return scope["Bad"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "annotation",
    ["dict[str, int]", "set[int]", "list[dict[str, int]]", "Any", "object", "list[Card]"],
)
def test_an_attribute_clone_cannot_copy_is_an_error_at_class_definition(annotation: str) -> None:
    with pytest.raises(TypeError, match="clone cannot copy"):
        declare_state(annotation)


def test_an_undeclared_or_unknown_attribute_is_an_error_at_class_definition() -> None:
    with pytest.raises(TypeError, match=r"does not declare \['extra'\]"):
        declare_state("int", {})
    with pytest.raises(TypeError, match="declares 'other' but has no attribute 'other'"):
        declare_state("int", {"extra": sf.Int(0, 1), "other": sf.Bool()})
    with pytest.raises(TypeError, match="declared twice"):
        declare_state("int", {"extra": sf.Int(0, 1), "again": sf.Int(0, 1).of("extra")})
    with pytest.raises(TypeError, match="generator must be an attribute of its own"):
        declare_state("list[np.random.Generator]")
    with pytest.raises(TypeError, match="not a state_fields type"):
        sf.declare(extra=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="above @dataclass"):
        sf.state_fields(type("Plain", (), {}))
    assert declare_state("list[list[int]]").__layout__  # type: ignore[attr-defined]


# ---- the compiled clone on every game ---------------------------------------------------------------
def mutate_lists(value: Any) -> None:
    """Change every list in ``value`` in place (appending a marker), nested ones too."""
    if type(value) is list:
        for item in value:
            mutate_lists(item)
        value.append(-99)


@pytest.mark.parametrize("name", GAMES)
def test_clone_copies_every_list_and_the_generator(name: str) -> None:
    spec = envs.get_spec(name)
    # the Python core: the test reads the fields of the state's dataclass
    engine = spec.make_engine(core="python", num_players=spec.engine_cls.max_players)
    state = engine.new_game(np.random.default_rng(3))
    rng = np.random.default_rng(3)
    for _ in range(40):
        if engine.is_over(state):
            break
        legal = engine.legal_actions(state)
        engine.apply(state, legal[int(rng.integers(len(legal)))])
    before = json.dumps(engine.to_dict(state))
    twin = engine.clone(state)
    assert json.dumps(engine.to_dict(twin)) == before
    lists = [f.name for f in dataclasses.fields(twin) if type(getattr(twin, f.name)) is list]
    assert "draw_pile" in lists and len(lists) >= 5
    for attr in lists:
        mutate_lists(getattr(twin, attr))
    twin.rng.random()
    assert json.dumps(engine.to_dict(state)) == before  # nothing of the original moved
    shared = np.random.default_rng(1)
    assert engine.clone(state, rng=shared).rng is shared


@pytest.mark.parametrize("name", GAMES)
def test_every_game_state_is_declared(name: str) -> None:
    cls = envs.get_spec(name).engine_cls
    assert cls.state_class is not None and hasattr(cls.state_class, "__layout__")
    assert cls.to_dict is GameEngine.to_dict and cls.from_dict is GameEngine.from_dict


# ---- the shared engine pieces ---------------------------------------------------------------------------
def test_split_returns_and_lead() -> None:
    assert parts.split_returns([1], 4) == [-1 / 3, 1.0, -1 / 3, -1 / 3]
    assert parts.split_returns([0, 2], 4) == [0.5, -0.5, 0.5, -0.5]
    assert parts.split_returns([], 3) == [0.0] * 3 == parts.split_returns([0, 1, 2], 3)
    assert parts.lead([10, 30, 20], 1, 10.0) == 1.0
    assert parts.lead([10, 30, 20], 0, 10.0) == -2.0
    assert parts.lead([10, 30, 20], 0, 10.0, lower_wins=True) == 1.0


def test_card_parser_and_text_table() -> None:
    read = parts.card_parser("toy", ["ZERO", "x2", "7"])
    assert [read(c) for c in ("ZERO", " zero ", "x2", "X2", "7", 7)] == [0, 0, 1, 1, 2, 2]
    with pytest.raises(ConfigError, match=r"unknown toy card code 'nine'; known codes"):
        read("nine")
    describe = parts.text_table("toy", ["a", "b"])
    assert describe(1) == "b"
    with pytest.raises(IllegalActionError, match="toy has actions 0..1; got 2"):
        describe(2)
    assert parts.fixed_size(17)(object()) == 17


def test_the_default_returns_scores_and_winners_read_the_state() -> None:
    # the Python core: the test writes the fields of a Python state (the defaults read them)
    game = envs.get_spec("flip6").make_engine(core="python", num_players=3)
    state = game.new_game(np.random.default_rng(0))
    assert game.returns(state) == [0.0] * 3 and game.winners(state) == []
    ended = copy.copy(state)
    ended.over, ended.winners, ended.scores = True, [2], [1, 2, 70]
    assert game.returns(ended) == [-0.5, -0.5, 1.0]
    assert game.scores(ended) == [1.0, 2.0, 70.0] and game.winners(ended) == [2]
    assert game.current_player(ended) is None and game.decision_name(ended) == "game_over"
