"""Tampered replays (cut, dropped lines, corrupt JSON, wrong types, huge numbers, unicode, swapped
seats, bad headers) fail ``verify`` with a one-line verdict and never an exception, in format 1
(the golden files) and format 2 (with the end line); a multi-file ``--verify`` reports each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cardarena.agents.tools.replay import main
from cardarena.envs.core.registry import names
from cardarena.envs.core.replay import FORMAT, Replay, record_game, verify
from tests.golden.record import CASES

ROOT = Path(__file__).resolve().parents[1]
GAMES = names()


def _n(path: Path) -> int:
    return sum('"action"' in line for line in path.read_text().splitlines())


# one golden file per game, long enough for every tampering (two checks at least)
def golden_file(game: str) -> Path:
    long = [c.path for c in CASES if c.game == game and c.path.exists() and _n(c.path) > 70]
    assert long, f"{game}: no golden playthrough of over 70 actions (GameSpec.golden, recorded)"
    return long[0]


def _format2(src: Path, dst: Path) -> Path:
    """The same game recorded again by today's writer (format 2, with the end line)."""
    replay = Replay.load(src)
    engine = replay.engine()
    h = replay.header
    actions = [engine.parse_action(a["action"]) for a in replay.actions]
    record_game(
        dst, h["game"], h["options"], h["seed"], h["players"], actions, h.get("reset_options"),
        h.get("source", ""), h.get("check_every", 30), timestamp=False,
    )  # fmt: skip
    return dst


# ---- the tamperings: each takes the file's lines (text) and returns the new ones ----------------
Lines = list[str]


def _kinds(lines: Lines) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {"action": [], "check": [], "result": [], "end": []}
    for i, line in enumerate(lines[1:], 1):
        item = json.loads(line)
        out["action" if "action" in item else item["type"]].append(i)
    return out


def _edit(kind: str, pick: Callable[[list[int]], int], change: Callable[[dict], None]):
    def tamper(lines: Lines) -> Lines:
        i = pick(_kinds(lines)[kind]) if kind != "header" else 0
        item = json.loads(lines[i])
        change(item)
        return [*lines[:i], json.dumps(item), *lines[i + 1 :]]

    return tamper


def _set(kind, key, value, pick=lambda ix: ix[len(ix) // 2]):
    return _edit(kind, pick, lambda item: item.__setitem__(key, value))


def _drop_key(kind, key, pick=lambda ix: ix[len(ix) // 2]):
    return _edit(kind, pick, lambda item: item.pop(key))


def _replace_line(text, where="action"):
    def tamper(lines):
        i = _kinds(lines)[where][len(_kinds(lines)[where]) // 2]
        return [*lines[:i], text, *lines[i + 1 :]]

    return tamper


def _drop(where, pick):
    def tamper(lines):
        i = pick(_kinds(lines)[where])
        return [*lines[:i], *lines[i + 1 :]]

    return tamper


def _swap_actions(lines):
    ix = _kinds(lines)["action"]
    for a, b in zip(ix, ix[1:], strict=False):
        if b == a + 1 and json.loads(lines[a])["action"] != json.loads(lines[b])["action"]:
            return [*lines[:a], lines[b], lines[a], *lines[b + 1 :]]
    raise AssertionError("no two different adjacent actions")


def _other_seat(item):
    item["seat"] = 1 - item["seat"] if item["seat"] < 2 else 0


def _move_ahead(lines):  # a check moved before its action
    i = _kinds(lines)["check"][0]
    return [*lines[: i - 1], lines[i], lines[i - 1], *lines[i + 1 :]]


def _scores_plus_one(item):
    item["scores"] = [s + 1 for s in item["scores"]]


def _initial_pile_reversed(item):
    item["initial"]["draw_pile"] = item["initial"]["draw_pile"][::-1]


mid = lambda ix: ix[len(ix) // 2]  # noqa: E731
first = lambda ix: ix[0]  # noqa: E731
last = lambda ix: ix[-1]  # noqa: E731

TAMPERS: dict[str, Callable[[Lines], Lines]] = {
    # cut short
    "cut the last line": lambda lines: lines[:-1],
    "cut the last 2 lines": lambda lines: lines[:-2],
    "cut the last 3 lines": lambda lines: lines[:-3],
    "cut the last 5 lines": lambda lines: lines[:-5],
    "cut the last 10 lines": lambda lines: lines[:-10],
    "cut half the file": lambda lines: lines[: len(lines) // 2],
    "only the header": lambda lines: lines[:1],
    "the last line half written": lambda lines: [*lines[:-1], lines[-1][: len(lines[-1]) // 2]],
    "a middle line half written": lambda lines: [
        *lines[: len(lines) // 2],
        lines[len(lines) // 2][:20],
        *lines[len(lines) // 2 + 1 :],
    ],
    "an empty file": lambda lines: [],
    # lines dropped, repeated, moved
    "drop a middle action": _drop("action", mid),
    "drop the first action": _drop("action", first),
    "drop the last action": _drop("action", last),
    "drop a check": _drop("check", first),
    "drop the final check": _drop("check", last),
    "drop the result": _drop("result", first),
    "drop the header": lambda lines: lines[1:],
    "repeat an action": lambda lines: [*lines[:5], lines[4], *lines[5:]],
    "swap two actions": _swap_actions,
    "a check before its action": _move_ahead,
    "a second header": lambda lines: [lines[0], *lines[:3], *lines[3:]],
    "a line after the end": lambda lines: [*lines, lines[3]],
    "an empty middle line": _replace_line(""),
    # not JSON, not an object
    "corrupt JSON": _replace_line('{"seat": 0, "action": "hit", "digest": '),
    "a JSON null": _replace_line("null"),
    "a JSON list": _replace_line("[1, 2]"),
    "a JSON number": _replace_line("42"),
    "a JSON string": _replace_line('"hit"'),
    "unicode junk": _replace_line("☃ \u2603 \u00b2 \u0663 \U0001f0a1"),
    "a 5000-digit number": _replace_line('{"seat": ' + "9" * 5000 + ', "action": "x"}'),
    "deep nesting": _replace_line("[" * 100_000 + "]" * 100_000),
    "an unknown line type": _replace_line('{"type": "comment", "text": "hi"}'),
    "NaN scores": _set("check", "scores", float("nan"), first),
    # action lines
    "seat as a string": _set("action", "seat", "0"),
    "seat true": _set("action", "seat", True),
    "seat -1": _set("action", "seat", -1),
    "seat 99": _set("action", "seat", 99),
    "a huge seat": _set("action", "seat", 10**300),
    "another seat acts": _edit("action", mid, _other_seat),
    "action text a number": _set("action", "action", 123),
    "action text a non-ASCII digit": _set("action", "action", "target \u00b2"),
    "action text 5000 characters": _set("action", "action", "x" * 5000),
    "action text unknown": _set("action", "action", "bogus move"),
    "action text empty": _set("action", "action", ""),
    "action text control characters": _set("action", "action", "hit\x00\x1b[2J"),
    "no digest": _drop_key("action", "digest"),
    "no action key": _drop_key("action", "action"),
    "no seat": _drop_key("action", "seat"),
    "a wrong digest": _set("action", "digest", "0123456789ab", first),
    "a digest not hex": _set("action", "digest", "zz"),
    "an extra key": _set("action", "note", "hi"),
    # check and result lines
    "check step a string": _set("check", "step", "30", first),
    "check step huge": _set("check", "step", 10**400, first),
    "check legal not a list": _set("check", "legal", "stay", first),
    "check fields a list": _set("check", "fields", [], first),
    "check to_move 42": _set("check", "to_move", 42, first),
    "check without zones": _drop_key("check", "zones", first),
    "result scores a string": _set("result", "scores", "x", first),
    "result steps off by one": _edit("result", first, lambda i: i.update(steps=i["steps"] + 1)),
    "result winners seat 99": _set("result", "winners", [99], first),
    "result scores changed": _edit("result", first, _scores_plus_one),
    "a second result": lambda lines: [*lines, lines[_kinds(lines)["result"][0]]],
    # header
    "header type": _set("header", "type", "game"),
    "header format 99": _set("header", "format", 99),
    "header format a string": _set("header", "format", "1"),
    "header format true": _set("header", "format", True),
    "unknown game": _set("header", "game", "chess"),
    "game a number": _set("header", "game", 5),
    "options not an object": _set("header", "options", [4]),
    "options num_players 99": _edit("header", first, lambda h: h["options"].update(num_players=99)),
    "options unknown key": _edit("header", first, lambda h: h["options"].update(bogus=1)),
    "options a bad value": _edit("header", first, lambda h: h["options"].update(num_players="x")),
    "seed -1": _set("header", "seed", -1),
    "seed a string": _set("header", "seed", "7"),
    "seed a float": _set("header", "seed", 7.5),
    "seed huge": _set("header", "seed", 10**1000),
    "no seed": _drop_key("header", "seed"),
    "one player name too many": _edit("header", first, lambda h: h["players"].append("x")),
    "players not a list": _set("header", "players", "ab"),
    "initial a list": _set("header", "initial", []),
    "initial draw pile reversed": _edit("header", first, _initial_pile_reversed),
    "check_every 0": _set("header", "check_every", 0),
    "reset_options refused": _set("header", "reset_options", {"deck": ["NO_SUCH_CARD"]}),
}


def _write(path: Path, lines: Lines) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """Per game: the golden file (format 1) and the same game re-recorded (format 2)."""
    d = tmp_path_factory.mktemp("fmt2")
    return {g: (golden_file(g), _format2(golden_file(g), d / f"{g}.jsonl")) for g in GAMES}


def test_the_sources_verify_and_there_are_enough_tamperings(sources):
    assert len(TAMPERS) >= 40
    for fmt1, fmt2 in sources.values():
        assert json.loads(fmt1.read_text().splitlines()[0])["format"] == 1
        assert json.loads(fmt2.read_text().splitlines()[0])["format"] == FORMAT == 3  # notes: 3
        assert verify(fmt1).ok and verify(fmt2).ok


@pytest.mark.parametrize("fmt", [1, 2])
@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_replay_fails_with_one_line_and_no_exception(name, fmt, sources, tmp_path):
    game = GAMES[list(TAMPERS).index(name) % len(GAMES)]  # each tampering on another game
    src = sources[game][fmt - 1]
    path = _write(tmp_path / "t.jsonl", TAMPERS[name](src.read_text().splitlines()))
    verdict = verify(path)  # never raises
    line = verdict.line()
    assert not verdict.ok, f"{name}: {line}"
    assert line.startswith(f"{path}: FAIL: ") and "\n" not in line and len(line) <= 300
    assert "internal error" not in line, line  # every reason is a named one
    if name.startswith("cut") or name in ("the last line half written", "drop the result"):
        assert "cut short" in line or "missing" in line or "counts" in line, line


def test_undecodable_bytes_fail_cleanly(tmp_path):
    path = tmp_path / "bin.jsonl"
    path.write_bytes(b"\xff\xfe\x00garbage\n")
    verdict = verify(path)
    assert not verdict.ok and "cannot read replay" in verdict.line()
    assert not verify(tmp_path / "missing.jsonl").ok


def test_a_format_1_file_still_reads(sources, tmp_path):
    """Today's file with its end line removed and format 1 in the header: the old format."""
    _, fmt2 = sources["thegame"]
    lines = fmt2.read_text().splitlines()[:-1]
    header = json.loads(lines[0])
    header["format"] = 1
    path = _write(tmp_path / "old.jsonl", [json.dumps(header), *lines[1:]])
    assert verify(path).ok
    # an end line is no line of format 1
    assert not verify(_write(tmp_path / "mixed.jsonl", [json.dumps(header), *lines[1:], "{}"])).ok


def _batch(sources, tmp_path):
    good = [p for pair in sources.values() for p in pair]
    names = ["cut the last 10 lines", "corrupt JSON", "seat 99", "unknown game", "a huge seat",
             "action text a non-ASCII digit", "drop a middle action", "deep nesting"]  # fmt: skip
    bad = []
    for i, name in enumerate(names):
        src = good[i % len(good)]
        bad.append(_write(tmp_path / f"bad{i}.jsonl", TAMPERS[name](src.read_text().splitlines())))
    files = [good[0], *bad[:4], *good[1:], *bad[4:]]
    return files, set(good), set(bad)


def test_a_multi_file_verify_reports_every_file(sources, tmp_path, capsys):
    files, good, bad = _batch(sources, tmp_path)
    assert main([*map(str, files), "--verify"]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == len(files)  # one verdict line per file, in order
    for path, line in zip(files, lines, strict=True):
        assert line.startswith(f"{path}: {'OK (' if path in good else 'FAIL: '}"), line
    assert f"{len(bad)} of {len(files)} replays fail" in out.err


def test_the_command_line_never_shows_a_traceback(sources, tmp_path):
    files, good, bad = _batch(sources, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "cardarena.agents.tools.replay", "--verify", *map(str, files)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout
    assert len(proc.stdout.splitlines()) == len(files)
    assert proc.stdout.count(": FAIL: ") == len(bad) and proc.stdout.count(": OK (") == len(good)
