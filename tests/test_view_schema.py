"""The JSON observation schema of every game (``envs.core.view_schema``) against the code: over
random games of every game, player count and option set, every ``view`` is valid JSON of its
schema (checked by the suite's own checker and, where installed, by ``jsonschema``), and every
key the schema lists turns up (the optional ones too), so the test fails when the views or their
declarations change without the other."""

# no "from __future__ import annotations": TypedDict reads NotRequired from real annotations

import functools
import json
import typing
from typing import NotRequired

import pytest
from test_views import OPTIONS, cases, random_states

from cardarena.envs.core.errors import ConfigError
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.view_schema import _object, main, schema_errors, view_schema

STATES = 60  # per game, player count and option set
COVERAGE = 1500  # states per game and option set where every key must turn up


def _keys_seen(value, schema, root, path, seen):
    """Every ``path.key`` of an object ``value`` holds, by the schema's object it matched."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].removeprefix("#/$defs/")]
    if isinstance(value, dict) and "properties" in schema:
        for key, item in value.items():
            seen.add(f"{path}.{key}")
            _keys_seen(item, schema["properties"][key], root, f"{path}.{key}", seen)
    elif isinstance(value, list) and "items" in schema:
        for item in value:
            _keys_seen(item, schema["items"], root, f"{path}[]", seen)


def _keys_listed(schema, root, path, out, depth=0):
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].removeprefix("#/$defs/")]
    for key, prop in schema.get("properties", {}).items():
        out.add(f"{path}.{key}")
        _keys_listed(prop, root, f"{path}.{key}", out, depth + 1)
    if "items" in schema:
        _keys_listed(schema["items"], root, f"{path}[]", out, depth + 1)


@functools.cache
def checked(game):
    """The schema of ``game`` and a ``jsonschema`` validator of it (None: not installed)."""
    schema = view_schema(game)
    try:
        import jsonschema
    except ImportError:
        return schema, None
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema, jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("game,n,options", list(cases()))
def test_every_view_is_valid_json_of_its_schema(game, n, options):
    schema, strict = checked(game)
    spec = get_spec(game)
    for i, state in enumerate(random_states(game, n, options, STATES, seed=100 + n)):
        view = json.loads(json.dumps(spec.view(state, i % n)))  # what an outside agent reads
        problems = schema_errors(view, schema)
        assert not problems, f"{game} {n}p state {i}:\n" + "\n".join(problems[:10])
        if strict is not None:
            error = next(iter(strict.iter_errors(view)), None)
            assert error is None, f"{game} {n}p state {i}: jsonschema: {error}"


@pytest.mark.parametrize("game", names())
def test_every_key_the_schema_lists_turns_up(game):
    """A key the schema lists but no view holds (a key the code dropped) fails here."""
    schema, _ = checked(game)
    spec, seen = get_spec(game), set()
    for options in [{}, *OPTIONS.get(game, [])]:
        for i, state in enumerate(random_states(game, 4, options, COVERAGE, seed=5)):
            _keys_seen(spec.view(state, i % 4), schema, schema, "view", seen)
    listed: set[str] = set()
    _keys_listed(schema, schema, "view", listed)
    assert listed - seen == set(), f"{game}: the schema lists keys no view holds"


def test_the_schema_lists_every_declared_key_with_its_comment():
    for game in names():
        schema = view_schema(game)
        hints = typing.get_type_hints(typing.get_type_hints(get_spec(game).view)["return"])
        assert list(schema["properties"]) == list(hints)
        assert schema["additionalProperties"] is False
    flip6 = view_schema("flip6")["properties"]
    assert flip6["holding"]["type"] == ["string", "null"]
    assert "not yet seen" in flip6["unseen"]["description"]  # the #: comment in views.py
    assert flip6["unseen"]["additionalProperties"] == {"type": "integer"}
    suicidium = view_schema("suicidium")
    row = suicidium["$defs"]["TableEntryView"]
    assert "multiplier" in row["properties"] and "multiplier" not in row["required"]
    assert suicidium["properties"]["table"]["items"] == {"$ref": "#/$defs/TableEntryView"}


def test_the_checker_finds_what_is_wrong():
    class Row(typing.TypedDict):
        a: int
        b: NotRequired[list[str | None]]
        c: dict[str, float]

    schema = {"$defs": {}, **_object(Row, {})}
    assert schema_errors({"a": 1, "c": {}}, schema) == []
    assert schema_errors({"a": 1, "b": ["x", None], "c": {"k": 1.5}}, schema) == []
    assert schema_errors({"a": True, "c": {}}, schema)  # a bool is not an integer
    assert schema_errors({"a": 1.5, "c": {}}, schema)
    assert schema_errors({"a": 1, "c": {}, "d": 0}, schema)  # a key the schema does not list
    assert schema_errors({"c": {}}, schema)  # a required key missing
    assert schema_errors({"a": 1, "b": [3], "c": {}}, schema)  # a wrong item
    assert schema_errors({"a": 1, "c": {"k": "x"}}, schema)  # a wrong value of a dict


def test_a_view_type_with_no_json_form_is_refused():
    class Bad(typing.TypedDict):
        s: set[int]

    with pytest.raises(ConfigError, match="no JSON form"):
        _object(Bad, {})


def test_the_command_prints_the_schema(capsys):
    assert main(["thegame"]) == 0
    assert json.loads(capsys.readouterr().out) == view_schema("thegame")
    assert main(["chess"]) == 2


def test_the_coverage_check_finds_a_key_no_view_holds():
    """What ``test_every_key_the_schema_lists_turns_up`` compares: a schema with one key more
    than the views hold (or a view without one of its keys) leaves that key unseen."""
    schema = json.loads(json.dumps(view_schema("flip6")))
    schema["properties"]["gone"] = {"type": "integer"}
    spec = get_spec("flip6")
    seen: set[str] = set()
    for i, state in enumerate(random_states("flip6", 3, {}, 20, seed=0)):
        _keys_seen(spec.view(state, i % 3), schema, schema, "view", seen)
    listed: set[str] = set()
    _keys_listed(schema, schema, "view", listed)
    assert listed - seen == {"view.gone"}
