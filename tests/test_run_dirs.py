"""A finished training run is never overwritten or resumed by accident, and one run at a time
writes a directory (``agents/training/trainer.py``: ``check_run_dir``, ``run_lock``)."""

from __future__ import annotations

import pytest

from cardarena.agents.training.config import load_config
from cardarena.agents.training.expert_iteration import train_expert_iteration
from cardarena.agents.training.trainer import _prepare_run_dir, run_lock, train
from cardarena.envs.core.errors import ConfigError
from cardarena.train import main


def _finished_run(path, kind="ppo"):
    path.mkdir(parents=True, exist_ok=True)
    (path / "summary.json").write_text('{"finished": true}')
    (path / "final.zip").write_bytes(b"model")
    (path / "config.yaml").write_text("game: flip6\n")
    if kind == "ppo":
        (path / "trainer_state.json").write_text("{}")
    else:
        (path / "round_1.zip").write_bytes(b"round")
    (path / "notes.txt").write_text("mine")  # not a run file: never deleted
    return {p.name: p.read_bytes() for p in path.iterdir()}


def _cfg(path, **more):
    return load_config("configs/flip6.yaml", {"output_dir": str(path), **more})


def test_resume_of_a_finished_run_says_so_and_changes_nothing(tmp_path):
    before = _finished_run(tmp_path / "run")
    with pytest.raises(ConfigError, match="holds a finished run .summary.json.: there is nothing"):
        train(_cfg(tmp_path / "run"), resume=True)
    assert {p.name: p.read_bytes() for p in (tmp_path / "run").iterdir()} == before
    assert main(["--resume", str(tmp_path / "run"), "--no-progress"]) == 2


@pytest.mark.parametrize("kind", ["ppo", "expert_iteration"])
def test_a_new_run_into_a_finished_run_is_refused_without_overwrite(tmp_path, kind, capsys):
    before = _finished_run(tmp_path / "run", kind)
    cfg = _cfg(tmp_path / "run")
    with pytest.raises(ConfigError, match="already holds a run .* pass --overwrite"):
        train(cfg)
    with pytest.raises(ConfigError, match="already holds a run"):
        train_expert_iteration(cfg)
    assert {p.name: p.read_bytes() for p in (tmp_path / "run").iterdir()} == before
    args = ["--config", "configs/flip6.yaml", "--output-dir", str(tmp_path / "run")]
    assert main([*args, "--no-progress"]) == 2
    assert "--overwrite" in capsys.readouterr().err


def test_overwrite_deletes_the_run_files_and_keeps_the_rest(tmp_path):
    _finished_run(tmp_path / "run", "expert_iteration")
    (tmp_path / "run" / "checkpoints").mkdir()
    (tmp_path / "run" / "checkpoints" / "step_1.zip").write_bytes(b"x")
    run_dir, state, ckpt = _prepare_run_dir(_cfg(tmp_path / "run"), resume=False, overwrite=True)
    assert state == {} and ckpt is None
    left = sorted(p.name for p in run_dir.iterdir())
    assert left == ["checkpoints", "config.yaml", "notes.txt", "snapshots"]
    assert list((run_dir / "checkpoints").iterdir()) == []
    assert "flip6" in (run_dir / "config.yaml").read_text()


def test_a_second_run_on_the_same_directory_is_refused_while_the_first_runs(tmp_path):
    cfg = _cfg(tmp_path / "run")
    lock = run_lock(cfg)
    try:
        with pytest.raises(ConfigError, match="being written by another run .* --output-dir"):
            train(cfg)
        with pytest.raises(ConfigError, match="being written by another run"):
            train_expert_iteration(cfg)
    finally:
        lock.release()
    assert not (tmp_path / "run" / "trainer_state.json").exists()


def test_overwrite_is_for_a_new_run_not_a_resume(tmp_path, capsys):
    _finished_run(tmp_path / "run")
    with pytest.raises(SystemExit):
        main(["--resume", str(tmp_path / "run"), "--overwrite"])
    assert "--overwrite is for a new run" in capsys.readouterr().err
