"""The learning curve of a run (agents/training/plots.py) and the warm start in TensorBoard: a
title naming the game and the run, the step-0 point right after imitation, and the warm start's
epochs and evaluation as TensorBoard scalars (a tiny run)."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.figure
import pytest

from cardarena.agents.training.config import load_config
from cardarena.agents.training.plots import curve_options, plot_learning_curve


def _drawn(monkeypatch) -> list:
    """The figures plot_learning_curve saves (their axes are read after it returns)."""
    saved: list = []
    real = matplotlib.figure.Figure.savefig

    def savefig(fig, *args, **kwargs):
        saved.append(fig)
        return real(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    return saved


def _point(t, w):
    row = {"win_rate": w, "ci_low": w - 0.1, "ci_high": w + 0.1, "mean_score": 1.0}
    return {"timesteps": t, "ev": row, **row}


def test_the_curve_has_a_title_and_the_warm_start_point(tmp_path, monkeypatch):
    saved = _drawn(monkeypatch)
    history = [_point(256, 0.30), _point(512, 0.35)]
    path = tmp_path / "curve.png"
    plot_learning_curve(
        history, path, ["ev"], 0.25, warm=_point(0, 0.22), title="flip6, 3 players: run r1"
    )
    assert path.stat().st_size > 0
    ax = saved[0].axes[0]
    assert "flip6, 3 players: run r1" in ax.get_title() and "win rate" in ax.get_title()
    curve = next(line for line in ax.get_lines() if line.get_label() == "vs ev")
    assert list(curve.get_xdata()) == [0, 256, 512]
    assert list(curve.get_ydata()) == [0.22, 0.30, 0.35]
    diamonds = [line for line in ax.get_lines() if line.get_marker() == "D"]
    assert any(list(d.get_xdata()) == [0] for d in diamonds)
    assert "step 0: after the warm start" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_without_a_warm_start_the_curve_starts_at_the_first_evaluation(tmp_path, monkeypatch):
    saved = _drawn(monkeypatch)
    plot_learning_curve([_point(256, 0.3)], tmp_path / "c.png", ["ev"], 0.25, title="t")
    ax = saved[0].axes[0]
    assert not [line for line in ax.get_lines() if line.get_marker() == "D"]
    assert curve_options({"num_players": 3, "target_score": 30}) == "3 players, target_score=30"


def _scalars(folder: Path) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out: dict[str, list[tuple[int, float]]] = {}
    for events in sorted(folder.rglob("events.out.tfevents.*")):
        acc = EventAccumulator(str(events), size_guidance={"scalars": 0})
        acc.Reload()
        for tag in acc.Tags()["scalars"]:
            out.setdefault(tag, []).extend((e.step, e.value) for e in acc.Scalars(tag))
    return out


def test_a_tiny_run_logs_the_warm_start_and_plots_its_point(tmp_path, monkeypatch):
    from cardarena.agents.training.trainer import train

    saved = _drawn(monkeypatch)
    cfg = load_config(
        "configs/flip6.yaml",
        {
            "total_timesteps": 512,
            "time_limit_minutes": None,
            "n_envs": 2,
            "vec_env": "dummy",
            "output_dir": str(tmp_path / "run"),
            "torch_threads": {"rollout": 1, "update": 1},
            "ppo": {"n_steps": 256, "batch_size": 256, "n_epochs": 1},
            "opponents": {"snapshot_every": 512},
            "eval": {
                "every": 256,
                "deals": 2,
                "against": "ev",
                "baselines": ["ev"],
                "final_deals": 2,
            },
            "checkpoint_every": 512,
            "warm_start": {"imitate": "ev", "games": 2, "epochs": 3, "improve": None},
        },
    )
    run = train(cfg, progress_bar=False)
    warm = json.loads((run / "warm_start.json").read_text())
    assert len(warm["epochs"]) == 3
    assert all(e["loss"] > 0 and 0 <= e["agreement"] <= 1 for e in warm["epochs"])
    assert warm["evaluation"]["timesteps"] == 0 and 0 <= warm["evaluation"]["win_rate"] <= 1
    scalars = _scalars(run / "tb" / "warm_start")
    assert [step for step, _ in scalars["warm_start/loss"]] == [1, 2, 3]
    assert [v for _, v in scalars["warm_start/agreement"]] == pytest.approx(
        [e["agreement"] for e in warm["epochs"]]
    )
    assert scalars["eval/win_rate_vs_ev"] == [(0, pytest.approx(warm["evaluation"]["win_rate"]))]
    ax = saved[-1].axes[0]
    assert "flip6" in ax.get_title() and run.name in ax.get_title()
    curve = next(line for line in ax.get_lines() if line.get_label() == "vs ev")
    assert curve.get_xdata()[0] == 0
    assert curve.get_ydata()[0] == pytest.approx(warm["evaluation"]["win_rate"])
