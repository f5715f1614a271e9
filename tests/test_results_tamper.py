"""A results file read back is checked (``agents/evaluation/results.py``): every kind of edit or
damage is a one-line error naming the file and line, never a traceback, never trusted."""

from __future__ import annotations

import json

import pytest

from cardarena.agents.evaluation.results import line_sum
from cardarena.agents.evaluation.tournament import run_tournament
from cardarena.envs.core.errors import ConfigError

LINEUP = ["ev", "threshold", "random"]
OPTIONS = {"num_players": 3}


def _game_line(lines):
    return next(i for i, line in enumerate(lines) if '"type":"game"' in line)


def _edit(key, value, resum=False):
    def edit(lines):
        i = _game_line(lines)
        item = json.loads(lines[i])
        item[key] = value
        if resum:
            item["sum"] = line_sum(item)
        lines[i] = json.dumps(item)
        return lines

    return edit


def _replace(text):
    def edit(lines):
        lines[_game_line(lines)] = text
        return lines

    return edit


def _first_run_line(key, value):
    def edit(lines):
        item = json.loads(lines[0])
        item[key] = value
        lines[0] = json.dumps(item)
        return lines

    return edit


TAMPERS = {
    "a score changed": _edit("scores", [99.0, 0.0, 0.0]),
    "a winner changed": _edit("winners", [1]),
    "the checksum removed": _edit("sum", None),
    "a seat that does not exist, checksum redone": _edit("winners", [7], resum=True),
    "an agent of no run, checksum redone": _edit("lineup", ["ev", "ev", "mystery"], resum=True),
    "a negative deal seed, checksum redone": _edit("deal_seed", -3, resum=True),
    "scores of the wrong length, checksum redone": _edit("scores", [1.0], resum=True),
    "a string for decisions, checksum redone": _edit("decisions", "many", resum=True),
    "an unknown field, checksum redone": _edit("colour", "red", resum=True),
    "a list instead of a line": _replace("[1, 2, 3]"),
    "a line of another kind": _replace('{"type": "note"}'),
    "a huge line": _replace('{"type": "game", "x": "' + "a" * 70_000 + '"}'),
    "the run line's format": _first_run_line("format", 99),
    "the run line removed": lambda lines: lines[1:],
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    path = tmp_path_factory.mktemp("results") / "r.jsonl"
    run_tournament("flip6", LINEUP, 2, OPTIONS, progress=False, results_path=path)
    return path.read_text().splitlines()


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_a_tampered_results_file_is_refused_naming_the_line(tmp_path, results, tamper):
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(TAMPERS[tamper](list(results))) + "\n")
    with pytest.raises(ConfigError) as err:
        run_tournament("flip6", LINEUP, 2, OPTIONS, progress=False, results_path=path)
    message = str(err.value)
    assert str(path) in message and "--fresh" in message and len(message) < 600


def test_the_untouched_file_and_a_line_cut_by_a_kill_are_read(tmp_path, results):
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(results) + "\n")
    again = run_tournament("flip6", LINEUP, 2, OPTIONS, progress=False, results_path=path)
    assert again.played == 0 and again.reused == len(results) - 1
    path.write_text("\n".join(results[:-1]) + "\n" + results[-1][:30])
    cut = run_tournament("flip6", LINEUP, 2, OPTIONS, progress=False, results_path=path)
    assert cut.played == 1


def test_a_format_1_file_without_checksums_is_still_read(tmp_path, results):
    lines = []
    for line in results:
        item = json.loads(line)
        item.pop("sum", None)
        if item["type"] == "run":
            item["format"] = 1
        lines.append(json.dumps(item))
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    again = run_tournament("flip6", LINEUP, 2, OPTIONS, progress=False, results_path=path)
    assert again.played == 0


def test_a_results_file_says_what_made_it(tmp_path, monkeypatch):
    from cardarena import evaluate

    monkeypatch.chdir(tmp_path)
    args = ["--game", "flip6", "--agents", "zoo:flip6", "ev", "random", "--num-players", "3"]
    assert evaluate.main([*args, "--deals", "1", "--no-report", "--out", "r.json"]) == 0
    data = json.loads((tmp_path / "r.json").read_text())
    made = data["made_by"]
    assert data["format"] == 1 and "--deals" in made["command"]
    assert made["versions"]["cardarena"] and made["versions"]["numpy"]
    assert len(made["fingerprints"]["zoo:flip6"]) == 16 and made["fingerprints"]["ev"] is None
    run = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert run["format"] == 2 and run["made_by"]["versions"] == made["versions"]
