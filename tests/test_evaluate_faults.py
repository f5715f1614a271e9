"""A failing agent or a dead worker stops a tournament with a clear error, keeps the games played
before it in the .jsonl results store, and a re-run resumes from there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardarena.evaluate as evaluate

ROOT = Path(__file__).resolve().parent.parent
DEALS = 8
# 3 seats, 3 tables per deck seed, 3 games per chunk: one chunk per deck seed
COMMON = ["--game", "flip6", "--num-players", "3", "--deals", str(DEALS), "--batch-games", "3",
          "--bootstrap", "50", "--no-progress", "--no-report"]  # fmt: skip


def _cli(args, env_off=False, timeout=180):
    """evaluate.py in its own process (a killed agent may take the process down with it)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    if env_off:
        env["FAULTY_AGENTS_OFF"] = "1"
    return subprocess.run(
        [sys.executable, str(ROOT / "evaluate.py"), *COMMON, *args],
        capture_output=True,
        text=True,
        timeout=timeout,  # a hang fails the test instead of blocking the suite
        env=env,
        cwd=ROOT,
    )


def _games(path: Path) -> list[tuple]:
    return sorted(
        (g["deal_seed"], tuple(g["lineup"]), tuple(g["scores"]))
        for g in map(json.loads, path.read_text().splitlines())
        if g["type"] == "game"
    )


def _resume_and_compare(out: Path, agents: list[str], kept: int, tmp_path: Path) -> None:
    """A re-run with the agent behaving plays only what is missing and gets a clean run's games."""
    again = _cli(["--agents", *agents, "--workers", "1", "--out", str(out)], env_off=True)
    assert again.returncode == 0, again.stderr
    data = json.loads(out.read_text())
    assert (data["played"], data["reused"]) == (3 * DEALS - kept, kept)
    clean = tmp_path / "clean.json"
    ok = _cli(["--agents", *agents, "--workers", "1", "--out", str(clean)], env_off=True)
    assert ok.returncode == 0, ok.stderr
    assert _games(out.with_suffix(".jsonl")) == _games(clean.with_suffix(".jsonl"))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_agent_that_exits_stops_the_run_with_its_name_and_the_run_resumes(tmp_path, workers):
    out = tmp_path / "r.json"
    agents = ["faulty_agents:exits", "ev", "random"]
    run = _cli(["--agents", *agents, "--workers", workers, "--out", str(out)])
    assert run.returncode == 2, (run.returncode, run.stderr)
    err = run.stderr
    assert "'faulty_agents:exits'" in err and "flip6" in err and "SystemExit 3" in err, err
    assert "deck seed 5" in err and "run the same command again to resume" in err, err
    kept = len(_games(out.with_suffix(".jsonl")))
    assert kept >= 3 * 5 if workers == "1" else kept >= 3  # the deck seeds before 5 at least
    assert all(seed != 5 for seed, _, _ in _games(out.with_suffix(".jsonl")))
    _resume_and_compare(out, agents, kept, tmp_path)


def test_a_killed_worker_stops_the_run_instead_of_hanging_and_the_run_resumes(tmp_path):
    out = tmp_path / "r.json"
    agents = ["faulty_agents:dies", "ev", "random"]
    run = _cli(["--agents", *agents, "--workers", "2", "--out", str(out)])
    assert run.returncode == 2, (run.returncode, run.stderr)
    err = run.stderr
    assert "worker process died" in err and "flip6" in err and "'faulty_agents:dies'" in err, err
    assert "resume" in err, err
    kept = len(_games(out.with_suffix(".jsonl")))
    assert all(seed != 5 for seed, _, _ in _games(out.with_suffix(".jsonl")))
    _resume_and_compare(out, agents, kept, tmp_path)


def test_an_agent_killing_the_only_process_keeps_what_was_played(tmp_path):
    """With --workers 1 the games run in the evaluator's own process: a SIGKILL there ends it
    (nothing can report it), but every finished chunk is already on disk and a re-run resumes."""
    out = tmp_path / "r.json"
    agents = ["faulty_agents:dies", "ev", "random"]
    run = _cli(["--agents", *agents, "--workers", "1", "--out", str(out)])
    assert run.returncode == -9, (run.returncode, run.stderr)
    kept = len(_games(out.with_suffix(".jsonl")))
    assert kept == 3 * 5
    _resume_and_compare(out, agents, kept, tmp_path)


def test_an_agent_that_raises_is_named_in_process(tmp_path, capsys):
    out = tmp_path / "r.json"
    rc = evaluate.main(
        [*COMMON, "--agents", "ev", "faulty_agents:raises", "random", "--workers", "1",
         "--out", str(out)]
    )  # fmt: skip
    assert rc == 2
    err = capsys.readouterr().err
    assert "'faulty_agents:raises' raised RuntimeError: this agent fails on purpose" in err
    assert "deck seed 5" in err and str(out.with_suffix(".jsonl")) in err


def test_finished_chunks_are_delivered_while_others_still_run():
    # the second chunk only finishes once the first has reached ``done``: a loop that waited for
    # every chunk (or for a failure) before delivering any would never return (and a killed run
    # would lose every game its workers had played)
    from concurrent.futures import ThreadPoolExecutor
    from threading import Event

    from cardarena.agents.evaluation.backends import deliver

    first_delivered = Event()
    got: list[str] = []

    def done(records):
        got.append(records)
        first_delivered.set()

    def second():
        assert first_delivered.wait(timeout=20), "the first chunk was never delivered"
        return "second"

    with ThreadPoolExecutor(2) as pool:
        futures = {pool.submit(lambda: "first"): [(0, 0)], pool.submit(second): [(1, 0)]}
        assert deliver(futures, done, set(), lambda err: err) is None
    assert got == ["first", "second"]
