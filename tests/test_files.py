"""Outputs written safely (``agents/files.py``): atomic writes with unique temporary names, one
run per output, numbered backups; and the tournament holding its results file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from cardarena.agents.evaluation.tournament import run_tournament
from cardarena.agents.files import OutputLock, atomic_write_text, atomic_writer, numbered_backup
from cardarena.envs.core.errors import ConfigError


def test_an_atomic_write_replaces_the_file_whole_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "sub" / "out.json"
    atomic_write_text(path, "one")
    atomic_write_text(path, "two")
    assert path.read_text() == "two"
    assert sorted(p.name for p in path.parent.iterdir()) == ["out.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "out.json"
    path.write_text("old")
    with pytest.raises(RuntimeError, match="midway"):
        with atomic_writer(path) as f:
            f.write("half")
            raise RuntimeError("midway")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_two_writers_of_one_file_use_two_temporary_names(tmp_path):
    path = tmp_path / "out.json"
    with atomic_writer(path) as a, atomic_writer(path) as b:
        assert a.name != b.name
        a.write('{"a": 1}')
        b.write('{"b": 2}')
    assert json.loads(path.read_text()) == {"a": 1}  # the last rename wins, whole


def test_backups_are_numbered_and_never_overwritten(tmp_path):
    path = tmp_path / "r.jsonl"
    assert numbered_backup(path) is None
    for k in (1, 2, 3):
        path.write_text(f"run {k}")
        assert numbered_backup(path) == tmp_path / f"r.jsonl.bak{k}"
    assert [(tmp_path / f"r.jsonl.bak{k}").read_text() for k in (1, 2, 3)] == [
        "run 1",
        "run 2",
        "run 3",
    ]
    assert not path.exists()


def test_a_second_holder_of_an_output_is_refused_naming_the_file_and_the_holder(tmp_path):
    path = tmp_path / "r.jsonl"
    with OutputLock(path, "--out"):
        with pytest.raises(ConfigError) as err:
            OutputLock(path, "--out").acquire()
        assert str(path) in str(err.value) and f"pid {os.getpid()}" in str(err.value)
        assert "choose another --out" in str(err.value)
    with OutputLock(path):  # released: free again
        pass


def test_a_lock_held_by_another_process_refuses_and_dies_with_it(tmp_path):
    path = tmp_path / "r.jsonl"
    holder = textwrap.dedent(
        f"""
        import sys, time
        from cardarena.agents.files import OutputLock
        lock = OutputLock({str(path)!r}).acquire()
        print("held", flush=True)
        time.sleep(60)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        with pytest.raises(ConfigError, match=f"pid {proc.pid}"):
            OutputLock(path).acquire()
    finally:
        proc.kill()
        proc.wait()
    with OutputLock(path):  # a killed holder leaves no stale lock
        pass


def test_a_tournament_refuses_a_results_file_another_run_is_writing(tmp_path):
    path = tmp_path / "r.jsonl"
    lineup = ["random", "random", "random"]
    with OutputLock(path, "--out"):
        with pytest.raises(ConfigError, match="being written by another run"):
            run_tournament(
                "flip6", lineup, 1, {"num_players": 3}, progress=False, results_path=path
            )
        assert not path.exists()  # nothing written
    done = run_tournament("flip6", lineup, 1, {"num_players": 3}, progress=False, results_path=path)
    assert done.played >= 1
    again = run_tournament(
        "flip6", lineup, 1, {"num_players": 3}, progress=False, results_path=path
    )
    assert again.played == 0 and again.reused == done.played  # the lock was released after each run
