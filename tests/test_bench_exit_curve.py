"""bench/exit_curve.py: each round of an expert-iteration run against the best baseline."""

from __future__ import annotations

import json

import pytest
import yaml

import train
from bench.exit_curve import main, run_rounds


def _run(tmp_path):
    config = {
        "game": "flip6",
        "env": {"num_players": 3},
        "seed": 1,
        "output_dir": str(tmp_path / "run"),
        "policy": {"net_arch": [16, 16]},
        "eval": {"final_deals": 1, "baselines": ["ev"]},
        "expert_iteration": {"rounds": 2, "games_per_round": 2, "chunk_games": 2, "epochs": 2,
                             "teacher": "pimc:worlds=2,rollout=ev", "network_rollout": False},
    }  # fmt: skip
    path = tmp_path / "exit.yaml"
    path.write_text(yaml.safe_dump(config))
    assert train.main(["--config", str(path), "--no-progress"]) == 0
    return tmp_path / "run"


def test_every_round_is_measured_and_plotted_with_its_labels_and_time(tmp_path):
    run = _run(tmp_path)
    config, rounds = run_rounds(run)
    assert config["game"] == "flip6" and [r["round"] for r in rounds] == [0, 1]
    assert 0 < rounds[0]["minutes"] < rounds[1]["minutes"]  # the run's clock at each round's end
    out = tmp_path / "curve.png"
    assert main([str(run), "--deals", "2", "--out", str(out)]) == 0
    rows = json.loads(out.with_suffix(".json").read_text())
    assert [r["round"] for r in rows] == [0, 1]
    assert rows[1]["labels"] == rounds[1]["fitted_on"] > rows[0]["labels"]
    assert all(r["games"] == 6 and r["against"] == "ev" for r in rows)  # 2 deals x 3 seats
    assert rows[0]["seeds"] == [8_000_000, 8_000_001]  # the choosing range by default
    assert out.stat().st_size > 0
    out.unlink()
    assert main([str(run), "--replot", "--out", str(out)]) == 0  # from the rows, no games
    assert out.stat().st_size > 0


def test_a_directory_without_rounds_is_a_clear_error(tmp_path):
    with pytest.raises(
        SystemExit, match="not found: give the directory of a train.py run with an expert_iteration"
    ):
        main([str(tmp_path), "--out", str(tmp_path / "x.png")])
