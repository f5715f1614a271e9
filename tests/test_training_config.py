"""The training config: every bad value is a ConfigError naming its key, before any training, and
``train.py`` turns it into ``error: ...`` and exit status 2 (no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardarena.agents.training.config import TrainConfig, from_dict, load_config
from cardarena.envs.core.engine import ConfigError

#: (YAML after "game: flip6" unless it names a game itself, text the error must contain)
BAD_CONFIGS = [
    # the file and the top level
    ("", "is empty"),
    ("- game: flip6\n", "top level must be a mapping"),
    ("game: [flip6\n", "not a valid YAML"),
    ("gaem: flip6\n", "gaem: unknown key; known: game, env"),
    # game and its options (checked by building the engine)
    ("game: chess\n", "game must be a registered game"),
    ("game: 3\n", "game must be a registered game"),
    ("env: 4\n", "env must be a mapping"),
    ("env: {num_players: 9}\n", "env: num_players must be in [3, 6]"),
    ("env: {players: 4}\n", "env: flip6: bad option"),
    ("game: ratatat\nenv: {memory: total}\n", "env: "),
    ("game: thegame\nwarm_start: {imitate: ev}\n", "warm_start.imitate: unknown agent 'ev'"),
    # top-level scalars
    ("seed: -1\n", "seed must be an integer in [0, 4294967295], got -1"),
    ("seed: 1.5\n", "seed must be an integer"),
    ("total_timesteps: 0\n", "total_timesteps must be a positive integer, got 0"),
    ("total_timesteps: 1e5\n", "total_timesteps must be a positive integer, got '1e5'"),
    ("n_envs: 0\n", "n_envs must be a positive integer"),
    ("n_envs: true\n", "n_envs must be a positive integer, got True"),
    ("vec_env: threads\n", "vec_env must be one of ['dummy', 'split', 'subproc']"),
    ("vec_env: split\nn_envs: 1\nppo: {batch_size: 256}\n", "vec_env: split needs n_envs >= 2"),
    ("reward_shaping: -0.5\n", "reward_shaping must be a number >= 0"),
    ("reward_shaping: lots\n", "reward_shaping must be a number"),
    ("output_dir: ''\n", "output_dir must be a non-empty string"),
    ("output_dir: {file}\n", "output_dir"),
    ("output_dir: {file}/run\n", "is a file"),
    ("checkpoint_every: 0\n", "checkpoint_every must be a positive integer"),
    ("time_limit_minutes: 0\n", "time_limit_minutes must be a positive number of minutes"),
    ("time_limit_minutes: 1h\n", "or null for no limit, got '1h'"),
    ("device: gpu\n", "device must be one of ['auto', 'cpu', 'cuda']"),
    # ppo
    ("ppo: 5\n", "ppo must be a mapping"),
    ("ppo:\n", "ppo must be a mapping"),
    ("ppo: {batch_sise: 64}\n", "ppo.batch_sise: unknown key; known: learning_rate"),
    ("ppo: {batch_size: 0}\n", "ppo.batch_size must be an integer >= 2, got 0"),
    ("ppo: {batch_size: 1}\n", "ppo.batch_size must be an integer >= 2"),
    ("ppo: {batch_size: 300}\n", "ppo.batch_size (300) must divide a rollout"),
    ("ppo: {batch_size: 4096, n_steps: 256}\nn_envs: 8\n", "ppo.batch_size (4096) must divide"),
    ("ppo: {learning_rate: 0}\n", "ppo.learning_rate must be a number > 0"),
    ("ppo: {learning_rate: -0.001}\n", "ppo.learning_rate must be a number > 0"),
    ("ppo: {learning_rate: 3e-4}\n", "ppo.learning_rate must be a number > 0 (YAML reads 3e-4"),
    ("ppo: {gamma: 1.5}\n", "ppo.gamma must be a number in [0, 1]"),
    ("ppo: {gae_lambda: -0.1}\n", "ppo.gae_lambda must be a number in [0, 1]"),
    ("ppo: {n_steps: 0}\n", "ppo.n_steps must be a positive integer"),
    ("ppo: {n_epochs: two}\n", "ppo.n_epochs must be a positive integer"),
    ("ppo: {clip_range: 0}\n", "ppo.clip_range must be a number > 0"),
    ("ppo: {target_kl: -1}\n", "ppo.target_kl must be a number > 0 or null"),
    ("ppo: {max_grad_norm: .nan}\n", "ppo.max_grad_norm must be a number > 0"),
    ("ppo: {ent_coef: [0.1]}\n", "ppo.ent_coef must be a number >= 0"),
    # policy
    ("policy: [128]\n", "policy must be a mapping"),
    ("policy: {net_arch: 128}\n", "policy.net_arch must be a list of positive integers"),
    ("policy: {net_arch: [128, 0]}\n", "policy.net_arch must be a list of positive integers"),
    ("policy: {activation: gelu}\n", "policy.activation must be one of ['tanh', 'relu']"),
    ("policy: {privileged_critic: 1}\n", "policy.privileged_critic must be true or false"),
    # torch_threads
    ("torch_threads: 4\n", "torch_threads must be a mapping"),
    ("torch_threads: {rollout: 0}\n", "torch_threads.rollout must be a positive integer or null"),
    ("torch_threads: {update: many}\n", "torch_threads.update must be a positive integer"),
    ("torch_threads: {cores: 2}\n", "torch_threads.cores: unknown key"),
    # opponents
    ("opponents: scripted\n", "opponents must be a mapping"),
    ("opponents: {scripted: {evv: 1.0}}\n", "opponents.scripted.evv: unknown agent 'evv'"),
    ("opponents: {scripted: {ev: -1}}\n", "opponents.scripted weights must be numbers >= 0"),
    ("opponents: {scripted: ev}\n", "opponents.scripted must be a non-empty mapping"),
    ("opponents: {scripted: {ev: heavy}}\n", "opponents.scripted must map agent names"),
    (
        "opponents: {scripted: {ev: 0}, latest: 0.2, past: 0.2}\n",
        "opponents.scripted needs a positive weight",
    ),
    ("opponents: {latest: 0.7, past: 0.7}\n", "opponents.latest + opponents.past must be"),
    ("opponents: {latest: 1.5}\n", "opponents.latest must be a number in [0, 1]"),
    ("opponents: {past: -0.1}\n", "opponents.past must be a number in [0, 1]"),
    ("opponents: {snapshot_win_rate: 2}\n", "opponents.snapshot_win_rate must be a number in"),
    ("opponents: {prioritized: 'yes please'}\n", "opponents.prioritized must be true or false"),
    ("opponents: {priority_power: -1}\n", "opponents.priority_power must be a number >= 0"),
    ("opponents: {snapshot_every: 0}\n", "opponents.snapshot_every must be a positive integer"),
    ("opponents: {max_snapshots: -3}\n", "opponents.max_snapshots must be a positive integer"),
    # eval
    ("eval: []\n", "eval must be a mapping"),
    ("eval: {against: evv}\n", "eval.against: unknown agent 'evv'"),
    ("eval: {baselines: some}\n", "eval.baselines must be 'all' or a list of agent names"),
    ("eval: {baselines: [ev, nobody]}\n", "eval.baselines: unknown agent 'nobody'"),
    ("eval: {deals: 0}\n", "eval.deals must be a positive integer"),
    ("eval: {every: -5}\n", "eval.every must be a positive integer"),
    ("eval: {final_deals: 0}\n", "eval.final_deals must be a positive integer"),
    ("eval: {aginst: ev}\n", "eval.aginst: unknown key"),
    # warm_start
    ("warm_start: 1\n", "warm_start must be a mapping"),
    ("warm_start: {imitate: evv}\n", "warm_start.imitate: unknown agent 'evv'"),
    ("warm_start: {imitate: ev, games: 0}\n", "warm_start.games must be a positive integer"),
    ("warm_start: {epochs: -1}\n", "warm_start.epochs must be a positive integer"),
    ("warm_start: {learning_rate: 0}\n", "warm_start.learning_rate must be a number > 0"),
    ("warm_start: {lr_decay: 1.5}\n", "warm_start.lr_decay must be a number in (0, 1]"),
    ("warm_start: {rare_games: -1}\n", "warm_start.rare_games must be an integer >= 0"),
    ("warm_start: {improve: lots}\n", "warm_start.improve must be null or a mapping"),
    ("warm_start: {improve: {rollouts: 0}}\n", "warm_start.improve.rollouts must be a positive"),
    ("warm_start: {improve: {workers: true}}\n", "warm_start.improve.workers must be a positive"),
    (
        "warm_start: {imitate: ev, rare_games: 10, improve: {workers: 1}}\n",
        "warm_start.rare_games: with warm_start.improve",
    ),
]


def _write(tmp_path: Path, text: str) -> Path:
    afile = tmp_path / "a_file"
    afile.write_text("not a directory")
    if text and "game:" not in text:
        text = "game: flip6\n" + text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace("{file}", str(afile)))
    return path


@pytest.mark.parametrize("text, message", BAD_CONFIGS)
def test_a_bad_config_is_refused_naming_its_key(tmp_path, capsys, text, message):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert message in str(err.value)
    # train.py: the same message, exit status 2, nothing trained (a ConfigError is the only
    # exception main() catches, so anything else would fail this test with its traceback)
    from cardarena.train import main

    assert main(["--config", str(path), "--no-progress"]) == 2
    err_text = capsys.readouterr().err
    assert err_text.startswith("error: ") and message in err_text
    assert not (tmp_path / "runs").exists() and not Path("runs/flip6/trainer_state.json").exists()


def test_there_are_forty_cases_or_more():
    assert len(BAD_CONFIGS) >= 40


@pytest.mark.parametrize("path", sorted(Path("configs").glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_config_loads_and_round_trips(path):
    cfg = load_config(path)
    assert isinstance(cfg, TrainConfig)
    # config.yaml of a run is to_dict(): it loads back to the same config (--resume reads it)
    assert from_dict(cfg.to_dict()) == cfg


def test_overrides_merge_section_by_section_and_are_checked(tmp_path):
    base = load_config("configs/flip6.yaml")
    cfg = load_config("configs/flip6.yaml", {"ppo": {"n_steps": 512}, "seed": 3})
    assert cfg.ppo.n_steps == 512 and cfg.seed == 3
    assert cfg.ppo.batch_size == base.ppo.batch_size and cfg.opponents == base.opponents
    with pytest.raises(ConfigError, match="total_timesteps must be a positive integer"):
        load_config("configs/flip6.yaml", {"total_timesteps": -5})
    # free mappings are replaced whole, not merged
    cfg = load_config("configs/flip6_demo.yaml", {"opponents": {"scripted": {"random": 1.0}}})
    assert cfg.opponents.scripted == {"random": 1.0}


def test_a_minimal_config_takes_the_documented_defaults(tmp_path):
    path = tmp_path / "min.yaml"
    path.write_text("game: sevn\n")
    cfg = load_config(path)
    assert cfg == TrainConfig(game="sevn")
    assert cfg.ppo.learning_rate == 3e-4 and cfg.eval.baselines == "all"


def test_a_config_that_is_not_a_readable_file_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "missing.yaml")
    with pytest.raises(ConfigError, match="is not a file"):
        load_config(tmp_path)
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"game: \xff\xfe\n")
    with pytest.raises(ConfigError, match="not a valid YAML"):
        load_config(binary)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--timesteps", "0"], "argument --timesteps: must be a positive integer, got 0"),
        (["--timesteps", "-100"], "argument --timesteps: must be a positive integer"),
        (["--timesteps", "many"], "argument --timesteps: must be an integer"),
        (["--seed", "-1"], "argument --seed: must be an integer >= 0, got -1"),
    ],
)
def test_bad_train_arguments_exit_2(capsys, args, message):
    from cardarena.train import main

    with pytest.raises(SystemExit) as exit_:
        main(["--config", "configs/flip6.yaml", *args])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_an_output_dir_that_is_a_file_exits_2(tmp_path, capsys):
    from cardarena.train import main

    afile = tmp_path / "taken"
    afile.write_text("x")
    args = ["--config", "configs/flip6.yaml", "--output-dir", str(afile), "--no-progress"]
    assert main(args) == 2
    assert "error: " in capsys.readouterr().err
    assert main(["--config", str(tmp_path), "--no-progress"]) == 2
    assert "is not a file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text, message",
    [("ppo: {batch_size: 0}\n", "ppo.batch_size"), ("eval: {baselines: some}\n", "eval.baselines")],
)
def test_train_py_prints_one_error_line_and_no_traceback(tmp_path, text, message):
    path = _write(tmp_path, text)
    out = subprocess.run(
        [sys.executable, "train.py", "--config", str(path), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("error: ") and message in out.stderr
    assert "Traceback" not in out.stderr


def test_device_auto_is_the_gpu_when_there_is_one_else_the_cpu():
    import torch

    from cardarena.agents.training.device import resolve_device

    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cpu") == "cpu"
    assert load_config("configs/flip6.yaml").device == "auto"


def test_device_cuda_without_a_gpu_is_an_error_before_any_training(tmp_path, capsys):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    from cardarena.train import main

    out = tmp_path / "run"
    args = ["--config", "configs/flip6.yaml", "--output-dir", str(out), "--no-progress"]
    assert main([*args, "--device", "cuda"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "'cuda'" in err and "--device auto" in err
    assert not out.exists()  # refused while checking the config: nothing built or trained
    with pytest.raises(ConfigError, match="device: 'cuda' was asked for"):
        load_config("configs/flip6.yaml", {"device": "cuda"})
    with pytest.raises(SystemExit) as exit_:  # argparse names the choices
        main([*args, "--device", "gpu"])
    assert exit_.value.code == 2


def test_set_overrides_any_key_and_is_checked(tmp_path, capsys, monkeypatch):
    import cardarena.train as train

    seen = {}

    def fake_train(cfg, progress_bar, resume, overwrite=False):
        seen["cfg"] = cfg
        raise ConfigError("stop here")

    monkeypatch.setattr(train, "train", fake_train)
    args = ["--config", "configs/flip6.yaml", "--no-progress"]
    sets = ["--set", "policy.privileged_critic=true", "--set", "ppo.n_epochs=2"]
    assert train.main([*args, *sets, "--device", "cpu"]) == 2
    cfg = seen["cfg"]
    assert cfg.policy.privileged_critic is True and cfg.ppo.n_epochs == 2
    assert cfg.device == "cpu" and cfg.ppo.batch_size == 1024  # the rest from the file
    capsys.readouterr()
    assert train.main([*args, "--set", "ppo.bogus=1"]) == 2
    assert "ppo.bogus: unknown key" in capsys.readouterr().err
    for bad in ("ppo.n_epochs", "=3", "ppo..x=1"):
        with pytest.raises(SystemExit) as exit_:
            train.main([*args, "--set", bad])
        assert exit_.value.code == 2
        assert "must be KEY=VALUE" in capsys.readouterr().err
