"""The JSON observation of a game: a JSON Schema of its ``view``, made from the view's declaration.

A seat's ``view`` (``spec.view(state, seat)``) is plain data of a declared ``TypedDict``
(``envs/<game>/views.py``), so it is already the JSON an agent outside the process reads: a
language model's prompt (``agents/outside/prompt.py``), a process over a pipe. :func:`view_schema`
turns the declaration into a JSON Schema (draft 2020-12): every key, its type, whether it is always
there (``required``; a ``NotRequired`` key is not), no other key (``additionalProperties: false``),
and the ``#:`` comment above a key in the declaration as its ``description``. The schema is made
on demand from the code, so it never drifts from the declaration, and ``tests/test_view_schema.py``
checks the views of random games of every game, player count and option set against it.
:func:`schema_errors` checks a value against such a schema (the subset of JSON Schema written
here) without any dependency.

    python -m cardarena.envs.core.view_schema flip6      # the schema of flip6's view, as JSON

Manual: docs/llm_agents.md.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
import types
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

from cardarena.envs.core.errors import ConfigError

#: the JSON Schema dialect of :func:`view_schema`
DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SCALARS = {int: "integer", float: "number", str: "string", bool: "boolean"}


def view_type(game: str) -> type:
    """The declared ``TypedDict`` of ``game``'s view (the return annotation of its ``view``)."""
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(game)
    tp = get_type_hints(spec.view).get("return")
    if not is_typeddict(tp):
        raise ConfigError(
            f"{game}'s view() is annotated {tp!r}, not a TypedDict: declare its view type in "
            f"envs/{game}/views.py and annotate view() with it (docs/ADDING_A_GAME.md)"
        )
    return tp  # type: ignore[return-value]


def _comments(cls: type) -> dict[str, str]:
    """``key -> text`` of the ``#:`` comments above the keys of ``cls`` and its bases."""
    out: dict[str, str] = {}
    for base in reversed(cls.__mro__):
        try:
            lines = inspect.getsource(base).splitlines()
        except (OSError, TypeError):  # no source (a built-in, a class made at run time)
            continue
        pending: list[str] = []
        for line in lines:
            text = line.strip()
            if text.startswith("#:"):
                pending.append(text[2:].strip())
                continue
            key = re.match(r"([A-Za-z_]\w*)\s*:", text)
            if key and pending:
                out[key.group(1)] = " ".join(pending)
            pending = []
    return out


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = get_origin(tp)
    if tp is Any:
        return {}
    if origin is NotRequired:
        return _schema(get_args(tp)[0], defs)
    if tp is None or tp is type(None):
        return {"type": "null"}
    if origin in (Union, types.UnionType):
        options = [_schema(t, defs) for t in get_args(tp)]
        if all(set(o) == {"type"} and isinstance(o["type"], str) for o in options):
            return {"type": [o["type"] for o in options]}
        return {"anyOf": options}
    if is_typeddict(tp):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}  # a placeholder while it is built (a type naming itself)
            defs[tp.__name__] = _object(tp, defs)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    if origin is list:
        return {"type": "array", "items": _schema(get_args(tp)[0], defs)}
    if origin is dict:
        key, value = get_args(tp)
        if key is not str:
            raise ConfigError(f"a view's dict keys must be str to be JSON, not {key!r}")
        return {"type": "object", "additionalProperties": _schema(value, defs)}
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    raise ConfigError(
        f"a view holds {tp!r}, which has no JSON form: use int, float, str, bool, None, list, "
        f"dict[str, ...] or a TypedDict"
    )


def _object(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    hints = get_type_hints(cls)
    notes = _comments(cls)
    properties = {}
    for key, tp in hints.items():
        prop = _schema(tp, defs)
        if key in notes:
            prop = {**prop, "description": notes[key]}
        properties[key] = prop
    out: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": [k for k in hints if k in cls.__required_keys__],  # type: ignore[attr-defined]
        "additionalProperties": False,
    }
    doc = inspect.getdoc(cls)
    if doc and cls.__doc__ is not None and "__doc__" in cls.__dict__:
        out = {"description": " ".join(doc.split()), **out}
    return out


def view_schema(game: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``game``'s view, from its declaration; the nested row
    types (a suicidium table entry, ...) are ``$defs`` the top level refers to."""
    tp = view_type(game)
    defs: dict[str, Any] = {}
    top = _object(tp, defs)
    schema = {
        "$schema": DIALECT,
        "$id": f"cardarena:{game}/view",
        "title": f"{game} view ({tp.__name__}, envs/{game}/views.py)",
        **top,
    }
    if defs:
        schema["$defs"] = defs
    return schema


def schema_errors(value: Any, schema: dict[str, Any], where: str = "view") -> list[str]:
    """Where ``value`` breaks ``schema`` (``[]``: it does not), for the schemas
    :func:`view_schema` writes: ``type`` (one or a list), ``properties``, ``required``,
    ``additionalProperties`` (false or a schema), ``items``, ``anyOf``, ``$ref`` to ``$defs``.
    JSON's reading: a bool is not an integer or a number; an integer is a number."""
    return _errors(value, schema, schema, where)


def _type_ok(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return type(value) is bool
    if name == "integer":
        return type(value) is int or (type(value) is float and value.is_integer())
    if name == "number":
        return type(value) in (int, float)
    if name == "string":
        return type(value) is str
    if name == "array":
        return type(value) is list
    if name == "object":
        return type(value) is dict
    raise ConfigError(f"schema type {name!r} is not one schema_errors reads")


def _errors(value: Any, schema: dict[str, Any], root: dict[str, Any], where: str) -> list[str]:
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return _errors(value, root["$defs"][name], root, where)
    if "anyOf" in schema:
        if any(not _errors(value, s, root, where) for s in schema["anyOf"]):
            return []
        return [f"{where}: {value!r} matches none of {schema['anyOf']}"]
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_ok(value, n) for n in names):
            return [f"{where}: {value!r} ({type(value).__name__}) is not {' or '.join(names)}"]
    out = []
    if type(value) is dict:
        props = schema.get("properties", {})
        missing = [k for k in schema.get("required", []) if k not in value]
        if missing:
            out.append(f"{where}: keys missing {missing}")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                out += _errors(item, props[key], root, f"{where}[{key!r}]")
            elif extra is False:
                out.append(f"{where}: key {key!r} is not in the schema")
            elif isinstance(extra, dict):
                out += _errors(item, extra, root, f"{where}[{key!r}]")
    elif type(value) is list and "items" in schema:
        for i, item in enumerate(value):
            out += _errors(item, schema["items"], root, f"{where}[{i}]")
    return out


def main(argv: list[str] | None = None) -> int:
    from cardarena.envs.core.registry import names

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in names():
        print(f"usage: python -m cardarena.envs.core.view_schema GAME  (GAME: {names()})")
        return 2
    print(json.dumps(view_schema(args[0]), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
