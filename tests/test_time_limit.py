"""The wall-clock budget of a training run (``time_limit_minutes``, ``train.py --time-limit``):
checked like every config value; a run it stops keeps, saves and evaluates what it trained and
says what was cut; the final evaluation is not counted; a run without a limit is unchanged.

Most tests drive the budget with a fake clock, so they do not depend on the machine's speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from cardarena.agents.training import learner_eval
from cardarena.agents.training.budget import TimeBudget, TimeLimit
from cardarena.agents.training.callbacks import SelfPlayCallback
from cardarena.agents.training.config import TrainConfig, load_config
from cardarena.agents.training.trainer import train
from cardarena.envs.core.engine import ConfigError


class FakeClock:
    """Seconds that move only when a test moves them (``tick``: also this much per reading)."""

    def __init__(self, tick: float = 0.0) -> None:
        self.t = 0.0
        self.tick = tick

    def __call__(self) -> float:
        self.t += self.tick
        return self.t


# ---- the config key and the flag --------------------------------------------------------------

FIX = "must be a positive number of minutes (e.g. 60 or 0.5), or null for no limit"


@pytest.mark.parametrize(
    "value, shown",
    [
        ("0", "0"),
        ("-5", "-5"),
        ("60m", "'60m'"),
        ("true", "True"),
        (".inf", "inf"),
        ("[60]", "[60]"),
    ],
)
def test_a_bad_time_limit_is_refused_naming_the_value_and_the_fix(tmp_path, value, shown):
    path = tmp_path / "bad.yaml"
    path.write_text(f"game: flip6\ntime_limit_minutes: {value}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert f"time_limit_minutes {FIX}, got {shown}" in str(err.value)


def test_a_time_limit_written_1e2_gets_the_yaml_hint(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("game: flip6\ntime_limit_minutes: 1e2\n")
    with pytest.raises(ConfigError, match="YAML reads 1e2 as text: write it with a dot"):
        load_config(path)


def test_good_time_limits_and_the_default(tmp_path):
    assert TrainConfig().time_limit_minutes is None  # the dataclass: no limit
    path = tmp_path / "ok.yaml"
    for text, value in (("60", 60), ("0.5", 0.5), ("null", None)):
        path.write_text(f"game: flip6\ntime_limit_minutes: {text}\n")
        assert load_config(path).time_limit_minutes == value
    path.write_text("game: flip6\n")
    assert load_config(path).time_limit_minutes is None


#: every game's default config (configs/flip6_demo.yaml is the README's few-minute demo)
DEFAULTS = sorted(p for p in Path("configs").glob("*.yaml") if p.stem != "flip6_demo")


def test_every_default_config_has_a_60_minute_budget():
    from cardarena.envs.core.registry import names

    covered = {load_config(p).game for p in DEFAULTS}
    assert covered >= set(names()), f"games without a config: {set(names()) - covered}"
    for path in DEFAULTS:
        assert load_config(path).time_limit_minutes == 60, path
        assert "time_limit_minutes: 60 " in path.read_text(), f"{path}: comment the key"


def test_train_py_time_limit_flag_overrides_the_config_and_is_checked(
    tmp_path, monkeypatch, capsys
):
    import cardarena.train as cli

    seen = []

    def fake_train(cfg, progress_bar, resume, overwrite=False):
        seen.append(cfg)
        raise ConfigError("stop here")

    monkeypatch.setattr(cli, "train", fake_train)
    path = tmp_path / "cfg.yaml"
    path.write_text("game: flip6\ntime_limit_minutes: 45\n")
    args = ["--config", str(path), "--no-progress"]
    assert cli.main(args) == 2
    assert cli.main([*args, "--time-limit", "7.5"]) == 2
    assert cli.main([*args, "--time-limit", "none"]) == 2
    assert cli.main([*args, "--set", "time_limit_minutes=20"]) == 2
    assert [c.time_limit_minutes for c in seen] == [45, 7.5, None, 20]
    capsys.readouterr()
    assert cli.main([*args, "--set", "time_limit_minutes=-1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and f"time_limit_minutes {FIX}, got -1" in err
    for bad in ("0", "-3", "soon", "nan"):
        with pytest.raises(SystemExit) as exit_:
            cli.main([*args, "--time-limit", bad])
        assert exit_.value.code == 2
        assert "argument --time-limit: must be a positive number of minutes" in (
            capsys.readouterr().err
        )


# ---- the budget itself ------------------------------------------------------------------------


def test_steps_stop_when_the_next_item_would_not_fit():
    clock = FakeClock()
    budget = TimeBudget(1.0, clock=clock)  # 60 s
    done = []
    for i in budget.steps(range(10), "work", 10, "items"):
        done.append(i)
        clock.t += 25.0  # each item takes 25 s: after two (50 s) a third would end at 75 s
    assert done == [0, 1]
    assert budget.cuts == [{"phase": "work", "done": 2, "of": 10, "unit": "items"}]
    assert budget.stopped and "work after 2 of 10 items" in budget.message()
    clock.t = 70.0  # past the budget
    # a phase that has started does at least `least` items, even with nothing left
    assert list(budget.steps(range(5), "more", 5, "items")) == [0]
    # a phase that may be skipped (least=0) is, and says so
    assert list(budget.steps(range(5), "rounds", 5, "rounds", least=0)) == []
    assert budget.cuts[-1] == {"phase": "rounds", "done": 0, "of": 5, "unit": "rounds"}
    # all items done: no cut recorded, even past the budget
    assert list(budget.steps(range(1), "last", 1, "items")) == [0]
    assert [c["phase"] for c in budget.cuts] == ["work", "more", "rounds"]


def test_no_limit_passes_everything_and_reports_nothing():
    budget = TimeBudget(None, clock=FakeClock(tick=1e9))
    assert list(budget.steps(range(100), "work", 100, "items", least=0)) == list(range(100))
    assert budget.allows(1e12) and not budget.stopped
    assert budget.report(5.0) is None


def test_a_resumed_budget_counts_the_time_already_spent():
    clock = FakeClock()
    budget = TimeBudget(10.0, spent=590.0, clock=clock)
    assert budget.elapsed() == 590.0 and budget.allows(10.0) and not budget.allows(10.5)


def test_time_limit_callback_stops_ppo_at_a_rollout_boundary():
    """The budget runs out during the second rollout: that rollout and its update still happen,
    the third rollout is dropped at its first step, and nothing is learnt from that step."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from cardarena.agents.training.budget import StopFirst
    from cardarena.envs.core.single_agent import SelfPlayEnv

    clock = FakeClock()
    budget = TimeBudget(1.0, clock=clock)

    class SpendDuringSecondRollout(BaseCallback):
        rollouts, steps_seen = 0, 0

        def _on_rollout_end(self) -> None:
            self.rollouts += 1
            if self.rollouts == 2:
                clock.t += 120.0  # two minutes: the budget is gone

        def _on_step(self) -> bool:
            self.steps_seen += 1
            return True

    torch.manual_seed(0)
    env = SelfPlayEnv("flip6", {"num_players": 3}, seed=0)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, device="cpu", seed=0
    )
    limit, spy = TimeLimit(budget), SpendDuringSecondRollout()
    model.learn(total_timesteps=10_000, callback=StopFirst([limit, spy]))
    assert limit.stopping and limit.timesteps == 128  # two rollouts of 64 steps learnt from
    assert model.num_timesteps == 129  # the dropped rollout's first step was counted
    assert spy.steps_seen == 128  # the stop skipped the other callbacks on that step


# ---- whole runs --------------------------------------------------------------------------------


def _tiny(tmp_path: Path, name: str = "run", **extra) -> TrainConfig:
    """configs/flip6.yaml shrunk to seconds: a 3-game warm start, 256 x 2 steps per rollout."""
    over = {
        "total_timesteps": 2048,
        "time_limit_minutes": None,
        "n_envs": 2,
        "vec_env": "dummy",
        "output_dir": str(tmp_path / name),
        "torch_threads": {"rollout": 1, "update": 1},
        "ppo": {"n_steps": 256, "batch_size": 256, "n_epochs": 2},
        "opponents": {"snapshot_every": 512},
        "eval": {"every": 256, "deals": 3, "against": "ev", "baselines": ["ev"], "final_deals": 3},
        "checkpoint_every": 512,
        "warm_start": {"imitate": "ev", "games": 3, "epochs": 2, "improve": None},
    }
    over.update(extra)
    return load_config("configs/flip6.yaml", over)


def _plays_a_game(path: Path) -> None:
    from cardarena.agents import make_agent
    from cardarena.envs.core.loop import play
    from cardarena.envs.core.registry import get_spec

    spec = get_spec("flip6")
    engine = spec.make_engine(num_players=3)
    seats = [make_agent("flip6", str(path)), make_agent("flip6", "ev"), make_agent("flip6", "ev")]
    for i, seat in enumerate(seats):
        seat.reset(i)
    state = engine.new_game(np.random.default_rng(0))
    assert play(spec, engine, state, seats) > 0
    assert engine.is_over(state)


def test_a_run_stopped_by_its_time_limit_keeps_saves_and_evaluates_what_it_trained(
    tmp_path, monkeypatch
):
    """Fake clock: the warm start and the first rollout take no time, then two hours pass in
    the first rollout; the final evaluation takes another hour, which the budget does not count."""
    clock = FakeClock()
    first_end = SelfPlayCallback._on_rollout_end

    def rollout_end(self):
        clock.t = max(clock.t, 7200.0)
        first_end(self)

    monkeypatch.setattr(SelfPlayCallback, "_on_rollout_end", rollout_end)
    evaluate = learner_eval.evaluate_actor

    def final_evaluation(*args, **kwargs):
        if kwargs.get("first_seed") == 20_000_000:
            clock.t += 3600.0
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(learner_eval, "evaluate_actor", final_evaluation)
    cfg = _tiny(tmp_path, time_limit_minutes=60)
    run = train(cfg, progress_bar=False, budget=TimeBudget(60, clock=clock))

    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] == 512 < summary["total_timesteps"] == 2048
    limit = summary["time_limit"]
    assert limit["stopped"] and limit["minutes"] == 60
    assert limit["cuts"] == [{"phase": "ppo", "done": 512, "of": 2048, "unit": "timesteps"}]
    assert "stopped the run: ppo after 512 of 2,048 timesteps" in limit["message"]
    assert limit["run_seconds"] == 7200.0  # the final evaluation's hour is not counted
    # everything a normal run leaves, from the steps it did train
    assert 0.0 <= summary["final_eval"]["win_rate"] <= 1.0 and summary["final_eval"]["deals"] == 3
    assert json.loads((run / "warm_start.json").read_text())["decisions"] > 0
    history = json.loads((run / "eval_history.json").read_text())
    assert [h["timesteps"] for h in history] == [256, 512]
    assert (run / "learning_curve.png").exists()
    from cardarena.agents import checkpoint

    meta, _ = checkpoint.read(run / "final.zip")
    assert meta["timesteps"] == 512
    _plays_a_game(run / "final.zip")


def test_a_warm_start_that_spends_the_budget_is_learnt_from_and_ppo_is_skipped(tmp_path):
    """A clock that moves 1 s per reading, budget 0.5 min: the teacher games stop early, one
    cloning epoch still fits what was played, PPO does not start; the model is saved and plays."""
    budget = TimeBudget(0.5, clock=FakeClock(tick=1.0))
    warm = {"imitate": "ev", "games": 200, "epochs": 5, "improve": None}
    cfg = _tiny(tmp_path, time_limit_minutes=0.5, warm_start=warm)
    run = train(cfg, progress_bar=False, budget=budget)
    summary = json.loads((run / "summary.json").read_text())
    cuts = {c["phase"]: c for c in summary["time_limit"]["cuts"]}
    assert set(cuts) == {"warm start: ev games", "warm start: cloning", "ppo"}
    assert 1 <= cuts["warm start: ev games"]["done"] < 200
    assert cuts["warm start: cloning"]["done"] == 1  # what was played is learnt from
    assert cuts["ppo"]["done"] == 0 and summary["timesteps"] == 0
    warm = json.loads((run / "warm_start.json").read_text())
    assert warm["decisions"] > 0 and warm["games"] == cuts["warm start: ev games"]["done"]
    assert 0.0 <= summary["final_eval"]["win_rate"] <= 1.0
    _plays_a_game(run / "final.zip")


def test_expert_iteration_rounds_stop_when_the_budget_is_spent(tmp_path, monkeypatch):
    from cardarena.agents.training.expert_iteration import train_expert_iteration

    clock = FakeClock()
    cfg = load_config(
        "configs/flip6.yaml",
        {
            "env": {"num_players": 3},
            "output_dir": str(tmp_path / "exit"),
            "time_limit_minutes": 1,
            "warm_start": {"imitate": None},
            "eval": {"final_deals": 2, "against": "ev"},
            "expert_iteration": {
                "rounds": 3,
                "games_per_round": 1,
                "teacher": "pimc:worlds=2,rollout=random",
                "epochs": 1,
            },
        },
    )
    import cardarena.agents.training.expert_iteration as ei

    fit = ei.fit

    def slow_fit(*args, **kwargs):
        clock.t += 40.0  # a round takes 40 s: a second one would end at 80 s, past 60 s
        return fit(*args, **kwargs)

    monkeypatch.setattr(ei, "fit", slow_fit)
    run = train_expert_iteration(cfg, False, budget=TimeBudget(1, clock=clock))
    summary = json.loads((run / "summary.json").read_text())
    assert len(summary["rounds"]) == 1
    assert summary["time_limit"]["cuts"] == [
        {"phase": "expert iteration", "done": 1, "of": 3, "unit": "rounds"}
    ]
    _plays_a_game(run / "final.zip")


def test_a_run_without_a_limit_is_unchanged(tmp_path):
    """No limit, and a limit it never reaches: the same steps, the same weights, no cut."""
    from cardarena.agents import checkpoint

    free = train(_tiny(tmp_path, "free"), progress_bar=False)
    roomy = train(_tiny(tmp_path, "roomy", time_limit_minutes=600), progress_bar=False)
    a, b = (json.loads((r / "summary.json").read_text()) for r in (free, roomy))
    assert a["time_limit"] is None and a["timesteps"] == b["timesteps"] >= 2048
    assert b["time_limit"]["stopped"] is False and b["time_limit"]["cuts"] == []
    assert "finished within its time limit of 600 min" in b["time_limit"]["message"]
    (_, wa), (_, wb) = checkpoint.read(free / "final.zip"), checkpoint.read(roomy / "final.zip")
    assert wa.keys() == wb.keys() and all(np.array_equal(wa[k], wb[k]) for k in wa)
    assert a["final_eval"] == b["final_eval"]


def test_train_py_time_limit_stops_a_long_run_on_the_real_clock(tmp_path):
    """``--time-limit 0.05`` (3 s) on a run of 10M steps: it ends, exit 0, and says why."""
    cfg = _tiny(tmp_path).to_dict()
    cfg["total_timesteps"] = 10_000_000
    cfg["eval"]["every"] = 10_000_000
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(cfg))
    out = subprocess.run(
        [
            sys.executable,
            "train.py",
            "--config",
            str(path),
            "--time-limit",
            "0.05",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "the time limit of 0.05 min stopped the run: " in out.stdout
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["time_limit"]["stopped"] and summary["timesteps"] < 10_000_000
    assert (tmp_path / "run" / "final.zip").exists()
