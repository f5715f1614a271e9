"""Self-play adapter and trainer: rewards, seats, masks, and a tiny end-to-end run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardarena.agents import make_agent
from cardarena.agents.training.config import load_config
from cardarena.agents.training.trainer import train
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.single_agent import SelfPlayEnv


class CountingAgent:
    """Random opponent that counts its own decisions."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = 0
        self.rng = np.random.default_rng(0)

    def reset(self, seed=None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask, view) -> int:
        self.calls += 1
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


def _play(env: SelfPlayEnv, rng: np.random.Generator):
    obs, info = env.reset()
    rewards, learner_steps = [], 0
    done = False
    while not done:
        assert env.engine.current_player(env.state) == env.seat  # only the learner's decisions
        mask = env.action_masks()
        assert mask.any()
        obs, r, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        rewards.append(r)
        learner_steps += 1
    return rewards, learner_steps, info


def test_learner_gets_its_own_terminal_payoff_win_and_loss():
    opponents: list[CountingAgent] = []

    def sampler(rng, k):
        new = [CountingAgent() for _ in range(k)]
        opponents.extend(new)
        return new

    env = SelfPlayEnv("flip6", {"num_players": 4}, opponents=sampler, seed=1)
    rng = np.random.default_rng(0)
    outcomes = set()
    seats = set()
    for _ in range(150):
        opponents.clear()
        rewards, steps, info = _play(env, rng)
        assert all(r == 0 for r in rewards[:-1])
        returns = env.engine.returns(env.state)
        assert rewards[-1] == pytest.approx(returns[env.seat])
        outcomes.add("win" if info["win"] > 0 else "loss")
        seats.add(env.seat)
        # every decision of the game is either a learner step or an opponent decision
        assert steps + sum(o.calls for o in opponents) == env.state.decisions
    assert outcomes == {"win", "loss"}
    assert seats == {0, 1, 2, 3}  # random learner seat


def test_fixed_seat_and_masks_after_the_end():
    env = SelfPlayEnv("flip6", {"num_players": 3}, learner_seat=2, seed=0)
    rewards, _, _ = _play(env, np.random.default_rng(1))
    assert env.seat == 2
    assert not env.action_masks().any()
    with pytest.raises(ValueError):
        SelfPlayEnv("flip6", {"num_players": 3}, learner_seat=3)


def test_sb3_check_env_and_maskable_vec_env():
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_checker import check_env
    from stable_baselines3.common.vec_env import DummyVecEnv

    check_env(SelfPlayEnv("flip6", {"num_players": 4}, seed=0))
    vec = DummyVecEnv(
        [lambda i=i: SelfPlayEnv("flip6", {"num_players": 4}, seed=i) for i in range(2)]
    )
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (2, 8) and masks.any(axis=1).all()


def test_config_errors_are_clear(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: flip6\nppo:\n  learning_rat: 0.1\n")
    with pytest.raises(ConfigError, match="ppo.learning_rat"):
        load_config(bad)
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "missing.yaml")
    bad.write_text("game: flip6\ntorch_threads:\n  update: 0\n")
    with pytest.raises(ConfigError, match="torch_threads.update"):
        load_config(bad)


def test_torch_threads_switch_between_rollouts_and_updates(tmp_path):
    import torch

    from cardarena.agents.training.callbacks import ThreadSwitch

    cfg = tmp_path / "t.yaml"
    cfg.write_text("game: flip6\ntorch_threads:\n  rollout: 1\n  update: 2\n")
    assert load_config(cfg).torch_threads.counts() == (1, 2)
    cfg.write_text("game: flip6\n")
    rollout, update = load_config(cfg).torch_threads.counts()
    assert rollout == 1 and update >= 1  # update: null = every usable core
    before = torch.get_num_threads()
    try:
        switch = ThreadSwitch(1, 2)
        switch.on_rollout_end()
        assert torch.get_num_threads() == 2
        switch.on_rollout_start()
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


#: the default flip6 warm start, shrunk to seconds (rollout relabelling included)
TINY_WARM_START = {
    "imitate": "ev",
    "games": 3,
    "epochs": 2,
    "learning_rate": 1e-3,
    "lr_decay": 0.9,
    "improve": {
        "rollouts": 4,
        "min_rollouts": 2,
        "value_games": 30,
        "value_epochs": 1,
        "workers": 1,
    },
}


def test_tiny_training_run_writes_a_checkpoint_evaluate_can_load(tmp_path):
    cfg = load_config(
        "configs/flip6.yaml",
        {
            "total_timesteps": 2048,
            "n_envs": 2,
            "vec_env": "split",  # one game here, one in a worker process whose pool loads snapshots
            "output_dir": str(tmp_path / "run"),
            "ppo": {"n_steps": 512, "batch_size": 256},  # sections merge key by key
            "opponents": {"snapshot_every": 1024},
            "eval": {"every": 1024, "deals": 5, "against": "ev", "final_deals": 5},
            "checkpoint_every": 1024,
            "warm_start": TINY_WARM_START,
        },
    )
    run = train(cfg, progress_bar=False)
    warm = json.loads((run / "warm_start.json").read_text())
    assert warm["improved"] and warm["decisions"] > 0 and 0 <= warm["changed_share"] <= 1
    assert (run / "final.zip").exists()
    assert list((run / "snapshots").glob("*.zip"))
    assert list((run / "checkpoints").glob("*.zip"))
    assert list((run / "tb").iterdir())
    assert (run / "learning_curve.png").exists()
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] >= 2048
    assert 0.0 <= summary["final_eval"]["win_rate"] <= 1.0
    agent = make_agent("flip6", str(run / "final.zip"))
    mask = np.array([1, 1, 0, 0, 0, 0, 0, 0], dtype=np.int8)
    from cardarena.envs.flip6.encoding import OBS_SIZE

    assert agent.act(np.zeros(OBS_SIZE, np.float32), mask, {}) in (0, 1)


def _tiny_config(tmp_path, **extra):
    base = load_config("configs/flip6.yaml").to_dict()
    cfg = {
        "total_timesteps": 6144,
        "n_envs": 2,
        "output_dir": str(tmp_path / "run"),
        "ppo": {**base["ppo"], "n_steps": 256, "batch_size": 256, "n_epochs": 2},
        "opponents": {**base["opponents"], "snapshot_every": 1024},
        "eval": {**base["eval"], "every": 1024, "deals": 3, "final_deals": 3},
        "checkpoint_every": 1024,
        "warm_start": TINY_WARM_START,
    }
    cfg.update(extra)
    path = tmp_path / "cfg.yaml"
    import yaml

    path.write_text(yaml.safe_dump({**base, **cfg}))
    return path


def test_kill_minus_9_then_resume(tmp_path):
    """A run killed with SIGKILL continues from its last checkpoint with --resume."""
    import os
    import signal
    import subprocess
    import sys
    import time

    cfg_path = _tiny_config(tmp_path, total_timesteps=200_000)
    run = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "train.py", "--config", str(cfg_path), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    state_file = run / "trainer_state.json"
    deadline = time.time() + 120
    while time.time() < deadline:
        if state_file.exists() and json.loads(state_file.read_text())["timesteps"] >= 3072:
            break
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    state = json.loads(state_file.read_text())
    assert not (run / "final.zip").exists()
    killed_at = state["timesteps"]
    assert (run / "checkpoints" / state["checkpoint"]).exists()
    assert len(state["history"]) >= 2  # evaluations before the kill are kept
    # the whole run's time so far (warm start included), where a resumed time limit counts from
    assert state["run_seconds"] >= state["train_seconds"] > 0

    # resume with a budget just past the checkpoint
    from cardarena.train import main

    assert main(["--resume", str(run), "--timesteps", str(killed_at + 1024), "--no-progress"]) == 0
    summary = json.loads((run / "summary.json").read_text())
    assert summary["resumed"] is True
    assert killed_at + 1024 <= summary["timesteps"] < killed_at + 1024 + 1024
    history = json.loads((run / "eval_history.json").read_text())
    assert [h["timesteps"] for h in history][: len(state["history"])] == [
        h["timesteps"] for h in state["history"]
    ]
    from cardarena.agents import checkpoint

    meta, _ = checkpoint.read(run / "final.zip")
    assert meta["timesteps"] == summary["timesteps"]
    # the resumed run restored the optimizer (Adam keeps per-parameter moments after training)
    last = json.loads(state_file.read_text())["checkpoint"]
    meta, arrays = checkpoint.read(run / "checkpoints" / last)
    assert checkpoint.join_tensors(meta["optimizer"], arrays)["state"]


def test_resume_refuses_a_directory_without_a_run(tmp_path):
    from cardarena.train import main

    with pytest.raises(ConfigError, match="trainer_state.json"):
        train(load_config("configs/flip6.yaml", {"output_dir": str(tmp_path)}), resume=True)
    assert main(["--resume", str(tmp_path), "--no-progress"]) == 2


def test_opponent_pool_prioritises_snapshots_that_beat_the_learner(tmp_path):
    from cardarena.agents.training.opponents import OpponentPool

    pool = OpponentPool("flip6", tmp_path, {"ev": 1.0}, latest=0.0, past=1.0)
    pool._snapshots = [("a", object()), ("b", object())]
    pool.set_priorities({"a": 0.9, "b": 0.1})
    rng = np.random.default_rng(0)
    picks = [pool._past_index(rng) for _ in range(2000)]
    assert 0.85 < picks.count(0) / 2000 < 0.95
    pool.set_priorities({})
    picks = [pool._past_index(rng) for _ in range(2000)]
    assert 0.45 < picks.count(0) / 2000 < 0.55
    with pytest.raises(ConfigError):
        OpponentPool("flip6", tmp_path, {"ev": 1.0}, latest=0.7, past=0.7)
    with pytest.raises(ConfigError, match="unknown agent"):
        OpponentPool("flip6", tmp_path, {"evv": 1.0}, latest=0.1, past=0.1)


def test_rare_games_add_only_the_rare_decision_kinds():
    import torch
    from sb3_contrib import MaskablePPO

    from cardarena.agents.training.warm_start import RARE_SHARE, imitation_warm_start

    torch.manual_seed(0)
    env = SelfPlayEnv("sevn", {"num_players": 4}, seed=0)
    model = MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, device="cpu", seed=0)
    info = imitation_warm_start(
        model, "sevn", {"num_players": 4}, "ev", 6, 1, 1e-3, 0.0, 0, False, rare_games=6
    )
    assert "turn" not in info["rare_kinds"] and "fork" in info["rare_kinds"]
    assert 0 < info["rare_decisions"] < RARE_SHARE * info["decisions"] * 2
    plain = imitation_warm_start(model, "sevn", {"num_players": 4}, "ev", 6, 1, 1e-3, 0.0, 0, False)
    assert info["decisions"] == plain["decisions"] + info["rare_decisions"]


def test_fast_masked_policy_matches_sb3_contrib():
    """cardarena.agents.training.masked_policy.FastMaskablePolicy: the same actions, values, log-probabilities,
    entropies and random stream as MaskableActorCriticPolicy, so a short learn() ends with
    bit-identical weights."""
    import torch
    from sb3_contrib import MaskablePPO

    from cardarena.agents.training.masked_policy import FastMaskablePolicy

    def run(policy):
        env = SelfPlayEnv("ratatat", {"num_players": 3}, seed=4)
        model = MaskablePPO(
            policy,
            env,
            n_steps=64,
            batch_size=32,
            n_epochs=2,
            device="cpu",
            seed=3,
            policy_kwargs={"net_arch": [32]},
        )
        obs = torch.as_tensor(np.stack([env.reset(seed=s)[0] for s in range(5)]))
        masks = np.stack([env.reset(seed=s) and env.action_masks() for s in range(5)])
        torch.manual_seed(9)
        sampled = model.policy(obs, action_masks=masks)
        greedy = model.policy(obs, deterministic=True, action_masks=masks)
        evaluated = model.policy.evaluate_actions(obs, sampled[0], torch.as_tensor(masks))
        model.learn(total_timesteps=128)
        return sampled, greedy, evaluated, [p.detach().clone() for p in model.policy.parameters()]

    plain, fast = run("MlpPolicy"), run(FastMaskablePolicy)
    for a, b in zip(plain[:3], fast[:3], strict=True):
        for x, y in zip(a, b, strict=True):
            assert torch.equal(x, y)
    for x, y in zip(plain[3], fast[3], strict=True):
        assert torch.equal(x, y)


def _split_test_env(i):
    return SelfPlayEnv("suicidium", {"num_players": 4}, seed=100 + i)


class _Boom(SelfPlayEnv):
    def step(self, action):
        raise ValueError("boom in a worker game")


def test_masked_logsumexp_is_torch_logsumexp_bit_for_bit():
    """masked_log_probs skips exp of the masked entries (torch's slow path below -87): its values
    and gradients equal those of torch's logsumexp on the -1e8-filled logits, bit for bit, over
    random shapes, scales and mask densities."""
    import torch

    from cardarena.agents.training.masked_policy import _HUGE_NEG, masked_log_probs

    def reference(raw, mask):
        logits = raw - raw.logsumexp(dim=-1, keepdim=True)
        logits = torch.where(mask, logits, torch.tensor(_HUGE_NEG))
        return logits - logits.logsumexp(dim=-1, keepdim=True)

    g = torch.Generator().manual_seed(0)
    for _ in range(60):
        n, a = (
            int(torch.randint(1, 200, (1,), generator=g)),
            int(torch.randint(2, 450, (1,), generator=g)),
        )
        raw = torch.randn(n, a, generator=g) * float(torch.rand(1, generator=g) * 20)
        mask = torch.rand(n, a, generator=g) < float(torch.rand(1, generator=g))
        mask[torch.arange(n), torch.randint(0, a, (n,), generator=g)] = True  # never empty
        weights = torch.randn(n, a, generator=g)
        grads = []
        for fn in (reference, lambda r, m: masked_log_probs(r, m)[0]):
            r = raw.clone().requires_grad_()
            out = fn(r, mask)
            entropy = torch.where(mask, out * torch.softmax(out, -1), torch.tensor(0.0)).sum()
            (entropy + torch.where(mask, out * weights, torch.tensor(0.0)).sum()).backward()
            grads.append((out.detach(), r.grad))
        assert torch.equal(grads[0][0], grads[1][0])
        assert torch.equal(grads[0][1], grads[1][1])


def test_fresh_info_dummy_vec_env_steps_as_dummy_vec_env():
    """FreshInfoDummyVecEnv (no deep copy of the infos) returns what DummyVecEnv returns at every
    step, terminal observations included, and an info handed out is not changed by later steps."""
    import copy

    from stable_baselines3.common.vec_env import DummyVecEnv

    from cardarena.agents.training.split_vec_env import FreshInfoDummyVecEnv

    fns = [lambda i=i: SelfPlayEnv("flip6", {"num_players": 3}, seed=40 + i) for i in range(3)]
    plain, fresh = DummyVecEnv(fns), FreshInfoDummyVecEnv(fns)
    plain.seed(5)
    fresh.seed(5)
    np.testing.assert_array_equal(plain.reset(), fresh.reset())
    rng = np.random.default_rng(0)
    kept, finished = [], 0
    for _ in range(300):
        masks = np.stack(plain.env_method("action_masks"))
        np.testing.assert_array_equal(masks, np.stack(fresh.env_method("action_masks")))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        a, b = plain.step(actions), fresh.step(actions)
        for x, y in zip(a[:3], b[:3], strict=True):
            np.testing.assert_array_equal(x, y)
        for x, y in zip(a[3], b[3], strict=True):
            assert x.keys() == y.keys()
            for key in x:
                np.testing.assert_array_equal(x[key], y[key])
            finished += "terminal_observation" in y
        kept.append((b[3], copy.deepcopy(b[3])))
    assert finished > 0  # the terminal observations were compared
    for handed, snapshot in kept:
        for x, y in zip(handed, snapshot, strict=True):
            assert x.keys() == y.keys()
            for key in x:
                np.testing.assert_array_equal(x[key], y[key])


def test_split_vec_env_plays_the_games_of_dummy_vec_env():
    """vec_env: split steps the same games as DummyVecEnv (same functions, seeds, order):
    observations, rewards, dones, infos and the action masks it ships with each step agree."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    from cardarena.agents.training.split_vec_env import SplitVecEnv

    fns = [lambda i=i: _split_test_env(i) for i in range(5)]
    dummy, split = DummyVecEnv(fns), SplitVecEnv(fns)
    try:
        assert split.num_local == 2 and split.num_envs == 5
        dummy.seed(7)
        split.seed(7)
        np.testing.assert_array_equal(dummy.reset(), split.reset())
        rng = np.random.default_rng(0)
        episodes = 0
        for _ in range(400):
            masks = get_action_masks(dummy)
            np.testing.assert_array_equal(masks, get_action_masks(split))
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            d, s = dummy.step(actions), split.step(actions)
            for a, b in zip(d[:3], s[:3], strict=True):
                np.testing.assert_array_equal(a, b)
            assert [i.get("seat") for i in d[3]] == [i.get("seat") for i in s[3]]
            episodes += int(d[2].sum())
        assert episodes >= 5  # games ended and restarted on both sides of the split
        assert dummy.get_attr("seat") == split.get_attr("seat")
        assert split.get_attr("seat", indices=[4]) == [dummy.get_attr("seat")[4]]
        assert split.env_method("action_masks", indices=[3])[0].shape == (434,)
        split.set_attr("shaping", 0.5, indices=[0, 4])
        assert split.get_attr("shaping") == [0.5, 0.0, 0.0, 0.0, 0.5]
        from gymnasium.wrappers import TimeLimit

        assert split.env_is_wrapped(TimeLimit) == [False] * 5
    finally:
        split.close()
        dummy.close()


def test_split_vec_env_reports_worker_errors_and_bad_configs(tmp_path):
    from cardarena.agents.training.split_vec_env import SplitVecEnv

    fns = [lambda: SelfPlayEnv("flip6", {"num_players": 3}, seed=0), lambda: _Boom("flip6")]
    split = SplitVecEnv(fns, local_share=0.5)
    try:
        split.reset()
        with pytest.raises(RuntimeError, match="boom in a worker game"):
            split.step(np.zeros(2, dtype=np.int64))
    finally:
        split.close()
    with pytest.raises(ValueError, match="at least 2"):
        SplitVecEnv(fns[:1])
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: flip6\nvec_env: threads\n")
    with pytest.raises(ConfigError, match="vec_env must be one of"):
        load_config(cfg)
    cfg.write_text("game: flip6\nvec_env: split\nn_envs: 1\n")
    with pytest.raises(ConfigError, match="n_envs >= 2"):
        load_config(cfg)


def test_selfplay_speed_bench_runs_a_split_config(tmp_path):
    """bench/selfplay_speed.py builds train.py's setup from a config, split worker included (its
    network opponents travel to the worker with the games)."""
    import importlib.util

    import yaml

    spec = importlib.util.spec_from_file_location("selfplay_speed", "bench/selfplay_speed.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    cfg = yaml.safe_load(open("configs/ratatat.yaml"))
    cfg.update(n_envs=4, vec_env="split")
    cfg["ppo"].update(n_steps=64, batch_size=128, n_epochs=1)
    cfg["policy"]["net_arch"] = [16, 16]
    path = tmp_path / "speed.yaml"
    path.write_text(yaml.safe_dump(cfg))
    out = bench.cardarena_steps_per_second("ratatat", str(path), 256)
    assert out["vec_env"] == "split" and out["n_envs"] == 4
    assert out["steps_per_s"] > 0 and out["all_decisions_per_s"] > 2 * out["steps_per_s"]
