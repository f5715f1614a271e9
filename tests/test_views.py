"""Each game's ``view`` is the ``TypedDict`` it declares (``envs/<game>/views.py``): over a few
hundred states of random play per game and player count, the keys of ``view(state, seat)`` are
exactly the declared keys (required ones always there, optional ones only where declared) and
every value, nested rows included, has the declared type."""

# no "from __future__ import annotations": TypedDict reads NotRequired from real annotations

import importlib
import types
import typing
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import numpy as np
import pytest

from cardarena.envs.core.registry import get_spec

VIEWS = {
    "flip6": "Flip6View",
    "sevn": "SevnView",
    "ratatat": "RatatatView",
    "thegame": "TheGameView",
    "suicidium": "SuicidiumView",
}
#: engine options that change what the view holds, beside the defaults
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "ratatat": [{"memory": "none"}],
    "thegame": [{"signals": True}],
    "suicidium": [{"mode": "DEPRESSION"}, {"expansion": True}],
}
STATES = 300  # per game, player count and option set


def declared(game: str) -> type:
    return getattr(importlib.import_module(f"cardarena.envs.{game}.views"), VIEWS[game])


def mismatches(value: Any, tp: Any, where: str) -> list[str]:
    """Where ``value`` is not of the declared type ``tp`` (``[]``: it is)."""
    origin = get_origin(tp)
    if tp is Any:
        return []
    if origin is NotRequired:
        return mismatches(value, get_args(tp)[0], where)
    if origin in (Union, types.UnionType):
        options = [mismatches(value, t, where) for t in get_args(tp)]
        return [] if any(not m for m in options) else [f"{where}: {value!r} is not {tp}"]
    if tp is None or tp is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if is_typeddict(tp):
        if type(value) is not dict:
            return [f"{where}: {type(value).__name__}, not a dict ({tp.__name__})"]
        out = []
        keys, required = set(value), set(tp.__required_keys__)
        if not required <= keys or not keys <= required | tp.__optional_keys__:
            out.append(
                f"{where}: keys missing {sorted(required - keys)}, undeclared "
                f"{sorted(keys - required - tp.__optional_keys__)} ({tp.__name__})"
            )
        hints = get_type_hints(tp)
        for key in sorted(keys & set(hints)):
            out += mismatches(value[key], hints[key], f"{where}[{key!r}]")
        return out
    if origin is list:
        if type(value) is not list:
            return [f"{where}: {type(value).__name__}, not a list"]
        (item,) = get_args(tp)
        return [m for i, v in enumerate(value) for m in mismatches(v, item, f"{where}[{i}]")]
    if origin is dict:
        if type(value) is not dict:
            return [f"{where}: {type(value).__name__}, not a dict"]
        k, v = get_args(tp)
        return [
            m
            for key, val in value.items()
            for m in mismatches(key, k, f"{where} key") + mismatches(val, v, f"{where}[{key!r}]")
        ]
    if tp is float:  # an int is a float here, as in the type checkers' reading
        ok = type(value) in (float, int)
    else:  # exact: a bool is no int, a numpy integer is no int (the view goes to JSON)
        ok = type(value) is tp
    return [] if ok else [f"{where}: {value!r} ({type(value).__name__}) is not {tp.__name__}"]


def random_states(game: str, n: int, options: dict[str, Any], count: int, seed: int):
    """``count`` states of random play (several games, the ends included)."""
    engine = get_spec(game).make_engine(num_players=n, **options)
    rng = np.random.default_rng(seed)
    while True:
        state = engine.new_game(rng)
        while True:
            yield state
            count -= 1
            if count == 0:
                return
            if engine.is_over(state):
                break
            engine.apply(state, int(rng.choice(engine.legal_actions(state))))


def cases():
    for game in VIEWS:
        cls = get_spec(game).engine_cls
        for n in range(cls.min_players, cls.max_players + 1):
            for options in [{}, *OPTIONS.get(game, [])]:
                yield pytest.param(game, n, options, id=f"{game}-{n}p-{options or 'default'}")


@pytest.mark.parametrize("game,n,options", list(cases()))
def test_view_is_its_declared_type(game, n, options):
    spec, tp = get_spec(game), declared(game)
    assert get_type_hints(spec.view)["return"] is tp, f"{game}'s view() is not annotated {tp}"
    for i, state in enumerate(random_states(game, n, options, STATES, seed=n)):
        seat = i % n
        value = spec.view(state, seat)
        problems = mismatches(value, tp, "view")
        assert not problems, f"{game} {n}p state {i} seat {seat}:\n" + "\n".join(problems[:10])


def test_suicidium_table_rows_show_both_shapes():
    """The optional keys of a table row (``multiplier``, ...) are there for a card played on no
    card and absent for a response: both shapes occur, so the check above reads both."""
    from cardarena.envs.suicidium.views import TableEntryView

    spec = get_spec("suicidium")
    shapes = set()
    for state in random_states("suicidium", 4, {}, 3000, seed=7):
        for row in spec.view(state, 0)["table"]:
            shapes.add(frozenset(row) & TableEntryView.__optional_keys__)
    assert shapes == {frozenset(), TableEntryView.__optional_keys__}


def test_the_checker_finds_a_wrong_key_and_a_wrong_type():
    class Row(typing.TypedDict):
        a: int
        b: NotRequired[list[str | None]]

    assert mismatches({"a": 1, "b": ["x", None]}, Row, "v") == []
    assert mismatches({"a": 1}, Row, "v") == []
    assert mismatches({"a": True}, Row, "v")  # a bool is not an int
    assert mismatches({"a": np.int64(1)}, Row, "v")
    assert mismatches({"a": 1, "c": 2}, Row, "v")  # undeclared key
    assert mismatches({"b": []}, Row, "v")  # missing required key
    assert mismatches({"a": 1, "b": [3]}, Row, "v")  # nested wrong type
    assert mismatches([{"a": 1}], list[Row], "v") == []
    assert mismatches({"x": 1.5}, dict[str, int], "v")
