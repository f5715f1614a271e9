"""The privileged critic (``policy.privileged_critic``): in training the value network also reads
the hidden state, the actor only the observation, and a saved agent plays from the observation."""

from __future__ import annotations

import dataclasses
import importlib
import json
import zipfile

import numpy as np
import pytest
import torch

from cardarena.agents import make_agent
from cardarena.agents.policy import NumpyActor
from cardarena.agents.training.config import from_dict, load_config
from cardarena.agents.training.privileged import PrivilegedCriticPolicy, PrivilegedObservation
from cardarena.agents.training.trainer import build_model, make_env_fn, train
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.single_agent import SelfPlayEnv


def _random_states(game: str, seed: int, options: dict | None = None):
    """(state, deciding seat) at every decision of one random game."""
    spec = get_spec(game)
    engine = spec.make_engine(**(options or {}))
    state = engine.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    while not engine.is_over(state):
        seat = engine.current_player(state)
        yield engine, state, seat
        legal = engine.legal_actions(state)
        engine.apply(state, int(legal[rng.integers(len(legal))]), seat)


@pytest.mark.parametrize("game", names())
def test_every_game_has_a_privileged_encoding_of_fixed_width(game):
    module = importlib.import_module(f"cardarena.envs.{game}.privileged")
    widths, hidden_seen = set(), False
    for options in ({}, {"num_players": get_spec(game).make_engine().num_players + 1}):
        try:
            get_spec(game).make_engine(**options)
        except ConfigError:
            continue
        for engine, state, seat in _random_states(game, 3, options):
            vec = module.encode_privileged(state, seat)
            assert vec.dtype == np.float32 and np.isfinite(vec).all()
            widths.add((vec.shape, module.privileged_size(engine)))
            hidden_seen = hidden_seen or bool(vec.any())
    assert len(widths) == 1 and next(iter(widths))[0] == (next(iter(widths))[1],)
    assert hidden_seen


def test_the_learners_observation_is_the_observation_then_the_hidden_state():
    from cardarena.envs.ratatat.privileged import encode_privileged

    spec = get_spec("ratatat")
    env = PrivilegedObservation(SelfPlayEnv("ratatat", {"num_players": 3}, seed=4))
    obs, _ = env.reset()
    assert env.observation_space.shape == obs.shape and obs.dtype == np.float32
    for _ in range(20):
        inner = env.unwrapped
        seat = inner.engine.current_player(inner.state)
        np.testing.assert_array_equal(obs[: spec.obs_size], spec.encode(inner.state, seat))
        np.testing.assert_array_equal(obs[spec.obs_size :], encode_privileged(inner.state, seat))
        mask = env.action_masks()  # forwarded: the vector envs and sb3-contrib call it
        np.testing.assert_array_equal(mask, inner.action_masks())
        obs, _, done, _, _ = env.step(int(np.flatnonzero(mask)[0]))
        if done:
            obs, _ = env.reset()


def _model(game: str, tmp_path, privileged: bool = True):
    from stable_baselines3.common.vec_env import DummyVecEnv

    cfg = from_dict(
        {
            "game": game,
            "n_envs": 2,
            "output_dir": str(tmp_path / "run"),
            "ppo": {"n_steps": 64, "batch_size": 64},
            "policy": {"net_arch": [32, 32], "privileged_critic": privileged},
        }
    )
    vec = DummyVecEnv([make_env_fn(cfg, i, tmp_path) for i in range(2)])
    return cfg, vec, build_model(cfg, vec)


@pytest.mark.parametrize("game", ["ratatat", "thegame"])
def test_the_actor_never_reads_the_privileged_part(game, tmp_path):
    """(a) New hidden states leave every action logit bit-identical; the values change."""
    _, vec, model = _model(game, tmp_path)
    policy = model.policy
    assert isinstance(policy, PrivilegedCriticPolicy)
    n = get_spec(game).obs_size
    rows = [vec.reset()]
    for _ in range(30):
        masks = np.stack(vec.env_method("action_masks"))
        actions = [int(np.flatnonzero(m)[0]) for m in masks]
        rows.append(vec.step(np.array(actions))[0])
    obs = torch.as_tensor(np.concatenate(rows))
    assert obs.shape[1] > n
    other = obs.clone()
    other[:, n:] = torch.as_tensor(np.random.default_rng(0).random(other[:, n:].shape))
    with torch.no_grad():
        logits = policy.get_distribution(obs).distribution.logits
        assert torch.equal(logits, policy.get_distribution(other).distribution.logits)
        _, values, log_prob = policy(obs, deterministic=True)
        _, values2, log_prob2 = policy(other, deterministic=True)
        assert torch.equal(log_prob, log_prob2)
        assert not torch.allclose(values, values2)  # the critic does read it
        acts = torch.zeros(len(obs), dtype=torch.long)
        _, lp, ent = policy.evaluate_actions(obs, acts)
        _, lp2, ent2 = policy.evaluate_actions(other, acts)
        assert torch.equal(lp, lp2) and torch.equal(ent, ent2)
    # no gradient of the policy's output reaches the privileged inputs
    probe = obs.clone().requires_grad_(True)
    policy.get_distribution(probe).distribution.logits.sum().backward()
    assert probe.grad[:, :n].abs().sum() > 0 and probe.grad[:, n:].abs().sum() == 0
    # the numpy actor (snapshots, evaluation, checkpoints) is the observation-width actor
    actor = NumpyActor.from_policy(policy)
    assert actor.obs_size == n
    normalised = torch.log_softmax(torch.as_tensor(actor.logits(obs[:, :n].numpy())), dim=-1)
    np.testing.assert_allclose(normalised.numpy(), logits.numpy(), atol=1e-4)
    vec.close()


def test_off_builds_the_plain_policy_and_env(tmp_path):
    from cardarena.agents.training.masked_policy import FastMaskablePolicy

    _, vec, model = _model("flip6", tmp_path, privileged=False)
    assert type(model.policy) is FastMaskablePolicy
    assert type(vec.envs[0]) is SelfPlayEnv
    assert vec.observation_space.shape == (get_spec("flip6").obs_size,)
    vec.close()


def _strip_critic(src, dst) -> list[str]:
    """A copy of a checkpoint without any critic-only array; returns the names dropped."""
    with zipfile.ZipFile(src) as zf:
        meta = zf.read("cardarena.json")
        with np.load(zf.open("arrays.npz")) as npz:
            arrays = {k: npz[k] for k in npz.files}
    dropped = [k for k in arrays if "value_net" in k]
    import io

    body = io.BytesIO()
    np.savez(body, **{k: v for k, v in arrays.items() if k not in dropped})
    with zipfile.ZipFile(dst, "w") as zf:
        zf.writestr("cardarena.json", meta)
        zf.writestr("arrays.npz", body.getvalue())
    return dropped


def test_a_saved_agent_plays_from_the_observation_alone(tmp_path):
    """(b) Train briefly with the privileged critic (warm start included), then play the
    checkpoint through the normal PettingZoo env, which hands out observations only."""
    from cardarena import envs

    cfg = load_config(
        "configs/flip6_demo.yaml",
        {
            "total_timesteps": 1024,
            "n_envs": 2,
            "output_dir": str(tmp_path / "run"),
            "ppo": {"n_steps": 512, "batch_size": 256, "n_epochs": 1},
            "policy": {"net_arch": [32, 32], "privileged_critic": True},
            "opponents": {"snapshot_every": 512},
            "eval": {"every": 512, "deals": 2, "baselines": ["ev"], "final_deals": 2},
            "checkpoint_every": 512,
            "warm_start": {"imitate": "ev", "games": 4, "epochs": 1},
        },
    )
    run = train(cfg, progress_bar=False)
    assert json.loads((run / "warm_start.json").read_text())["decisions"] > 0
    with zipfile.ZipFile(run / "final.zip") as zf:
        meta = json.loads(zf.read("cardarena.json"))
        with np.load(zf.open("arrays.npz")) as npz:
            arrays = {k: npz[k] for k in npz.files}
    assert meta["policy"]["privileged_critic"] is True
    n = get_spec("flip6").obs_size
    assert arrays["mlp_extractor.policy_net.0.weight"].shape[1] == n  # the actor: observation
    assert arrays["mlp_extractor.value_net.0.weight"].shape[1] > n  # the critic: more
    # the critic's weights are not needed to act: the same moves without them
    dropped = _strip_critic(run / "final.zip", tmp_path / "actor_only.zip")
    assert dropped
    agents_ = [
        make_agent("flip6", str(run / "final.zip")),
        make_agent("flip6", str(tmp_path / "actor_only.zip")),
    ]
    for agent in agents_:
        assert agent.actor.obs_size == n
    moves: list[list[int]] = [[], []]
    for which, agent in enumerate(agents_):
        env = envs.make("flip6", num_players=4)
        env.reset(seed=7)
        for _name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert set(obs) == {"observation", "action_mask"}
            assert obs["observation"].shape == (n,)
            action = agent.act(obs["observation"], obs["action_mask"], {})
            assert obs["action_mask"][action]
            moves[which].append(action)
            env.step(action)
    assert moves[0] and moves[0] == moves[1]
    # the comparison picture and table of docs/results/privileged_critic.md
    from cardarena.agents.training.plots import main

    main(["--out", str(tmp_path / "runs.png"), f"privileged={run}"])
    assert (tmp_path / "runs.png").stat().st_size > 0


def test_a_resumed_privileged_run_restores_the_wider_critic(tmp_path):
    from cardarena.agents.training.checkpoints import load_model_state, save_model

    cfg, vec, model = _model("ratatat", tmp_path)
    save_model(model, tmp_path / "ckpt.zip", cfg, training=True)
    _, vec2, fresh = _model("ratatat", tmp_path / "b")
    load_model_state(fresh, tmp_path / "ckpt.zip")
    for name, tensor in model.policy.state_dict().items():
        assert torch.equal(tensor, fresh.policy.state_dict()[name]), name
    vec.close()
    vec2.close()


def test_a_game_without_a_privileged_encoding_is_a_config_error(monkeypatch, tmp_path):
    from cardarena.envs.core import registry

    spec = dataclasses.replace(get_spec("sevn"), privileged=None)  # a manifest naming none
    monkeypatch.setitem(registry._SPECS, "sevn", spec)
    with pytest.raises(ConfigError, match="policy.privileged_critic: sevn has no privileged"):
        from_dict({"game": "sevn", "policy": {"privileged_critic": True}})
    from_dict({"game": "sevn"})  # off: never looked for
