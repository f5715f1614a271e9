"""bench/best_response.py runs end to end on a tiny budget (its figures, in
docs/results/best_response.md, need 100k timesteps per run: not a unit test)."""

from __future__ import annotations

import json

import pytest


def test_best_response_writes_every_field(tmp_path, capsys):
    from bench.best_response import main

    out = tmp_path / "br.json"
    args = ["--game", "flip6", "--target", "ev", "--num-players", "3", "--timesteps", "256"]
    args += ["--eval-games", "6", "--seed", "1", "--no-progress", "--keep", str(tmp_path)]
    assert main([*args, "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert {
        "game",
        "num_players",
        "par",
        "timesteps",
        "eval_games",
        "seed",
        "date",
        "command",
    } <= set(result)
    assert result["command"].startswith("python bench/best_response.py --game flip6")
    (row,) = result["targets"]
    assert row["target"] == "ev" and row["timesteps"] == 256
    for measured in (
        row["best_response"],
        row["reference_vs_target"],
        result["reference"]["vs_random"],
    ):
        assert measured["games"] == 6  # 2 deck seeds x 3 seat rotations
        low, high = measured["wilson_95"]
        assert 0 <= low <= measured["win_rate"] <= high <= 1
        assert len(measured["bootstrap_95"]) == 2
    assert result["reference"]["trained_against"] == "random"
    assert (tmp_path / "flip6_3p_ev.zip").exists() and (tmp_path / "flip6_3p_random.zip").exists()
    assert "| `ev` |" in capsys.readouterr().out
    # the kept learners measured again, without training: the same games, the same results
    again = tmp_path / "again.json"
    reference = str(tmp_path / "flip6_3p_random.zip")
    rerun = [*args, "--reuse", "--reference-checkpoint", reference, "--out", str(again)]
    assert main(rerun) == 0
    second = json.loads(again.read_text())
    (same,) = second["targets"]
    assert same["reused"] and same["best_response"] == row["best_response"]
    assert same["reference_vs_target"] == row["reference_vs_target"]
    assert "vs_random" not in second["reference"]


def test_wilson_interval():
    from bench.best_response import wilson

    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_a_cooperative_game_or_an_unknown_target_is_refused(capsys):
    from bench.best_response import main

    assert main(["--game", "thegame", "--target", "planner", "--timesteps", "8"]) == 2
    assert main(["--game", "flip6", "--target", "nobody", "--timesteps", "8"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def test_warm_start_clones_the_target_first(tmp_path):
    from bench.best_response import main

    out = tmp_path / "ws.json"
    args = ["--game", "flip6", "--target", "ev", "--num-players", "3", "--timesteps", "128"]
    args += ["--eval-games", "3", "--warm-start", "4", "--no-reference", "--no-progress"]
    assert main([*args, "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    (row,) = result["targets"]
    assert row["warm_start"]["teacher"] == "ev" and row["warm_start"]["games"] == 4
    assert "reference" not in result and "reference_vs_target" not in row
