"""The Ray backend on a real local Ray instance (2 CPUs): same games as the local backend."""

from __future__ import annotations

import json

import pytest

ray = pytest.importorskip(
    "ray", reason="ray is not installed (pip install -e '.[ray]' or '.[dev]' to run this test)"
)

import cardarena.evaluate as evaluate  # noqa: E402

pytestmark = pytest.mark.ray


def test_evaluate_with_ray_backend_matches_local(tmp_path, capsys):
    common = [
        "--game", "flip6", "--num-players", "3", "--deals", "10", "--no-progress",
        "--agents", "tiny_policy:make", "tiny_policy:make_sampled", "ev",
        "--batch-games", "6", "--bootstrap", "200", "--no-report",
    ]  # fmt: skip
    assert not ray.is_initialized()
    rc = evaluate.main(
        [*common, "--backend", "ray", "--workers", "2", "--out", str(tmp_path / "ray.json")]
    )
    assert rc == 0, capsys.readouterr().err
    assert not ray.is_initialized()  # the local instance it started is shut down again
    assert evaluate.main([*common, "--workers", "1", "--out", str(tmp_path / "local.json")]) == 0
    by_ray = json.loads((tmp_path / "ray.json").read_text())
    local = json.loads((tmp_path / "local.json").read_text())
    assert by_ray["backend"] == "ray" and by_ray["played"] == 30
    assert by_ray["games"] == local["games"]
    assert by_ray["rating"] == local["rating"]
    assert by_ray["leaderboard"] == local["leaderboard"]


def test_search_agents_on_ray_match_local(tmp_path, capsys):
    """pimc and ismcts (tiny budgets) as Ray tasks: the same games as in one local process, though
    Ray gets the games in small chunks (no agent batches) and the local run in one."""
    common = [
        "--game", "flip6", "--num-players", "3", "--deals", "4", "--no-progress",
        "--agents", "pimc:worlds=2,rollout=ev,horizon=round", "ismcts:iterations=8", "ev",
        "--bootstrap", "50", "--no-report",
    ]  # fmt: skip
    rc = evaluate.main(
        [*common, "--backend", "ray", "--workers", "2", "--out", str(tmp_path / "ray.json")]
    )
    assert rc == 0, capsys.readouterr().err
    assert not ray.is_initialized()
    assert evaluate.main([*common, "--workers", "1", "--out", str(tmp_path / "local.json")]) == 0
    by_ray = json.loads((tmp_path / "ray.json").read_text())
    local = json.loads((tmp_path / "local.json").read_text())
    assert by_ray["backend"] == "ray" and by_ray["played"] == 12
    assert by_ray["games"] == local["games"]
    assert by_ray["leaderboard"] == local["leaderboard"]
