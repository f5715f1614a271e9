"""examples/rllib_train.py: RLlib's PPO trains a game on a real local Ray instance, with the
action mask obeyed (the env raises on any illegal action) and opponents given as agent specs.

RLlib comes with the ``dev`` extra (``ray[rllib]``), so this runs in CI; it is skipped only where
RLlib is not installed.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip(
    "ray.rllib", reason="RLlib is not installed (pip install -e '.[rllib]' or '.[dev]')"
)

import ray  # noqa: E402
import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

pytestmark = pytest.mark.ray

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rllib_train.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("rllib_train_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would (cloudpickle looks it up there)
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_masked_module_never_samples_an_illegal_action(example):
    """Without Ray: the module built on the wrapped env's spaces, sampled on real observations."""
    env = example.MaskedObs({"game": "ratatat", "opponents": "random"})
    module = RLModuleSpec(
        module_class=example.MaskedPPOModule,
        observation_space=env.observation_space,
        action_space=env.action_space,
    ).build()
    obs = np.stack([env.reset(seed=s)[0] for s in range(16)])
    masks = obs[:, -env.action_space.n :]
    assert (masks.sum(axis=1) >= 1).all() and (masks.sum(axis=1) < env.action_space.n).all()
    with torch.no_grad():
        logits = module.forward_exploration({Columns.OBS: torch.from_numpy(obs)})[
            Columns.ACTION_DIST_INPUTS
        ]
    dist = torch.distributions.Categorical(logits=logits)
    for _ in range(20):
        actions = dist.sample().numpy()
        assert masks[np.arange(len(actions)), actions].all()


def test_env_builds_where_only_ray_ships_the_class(example):
    """On a cluster, Ray ships the script's classes by value to the env runners, which never ran
    the script's ``from cardarena import envs``: the env must still find its gymnasium id there. A fresh
    interpreter that has not imported the suite unpickles the class and builds the env."""
    ray.cloudpickle.register_pickle_by_value(example)
    try:
        shipped = ray.cloudpickle.dumps(example.MaskedObs)
    finally:
        ray.cloudpickle.unregister_pickle_by_value(example)
    code = (
        "import pickle, sys\n"
        "assert 'cardarena.envs' not in sys.modules\n"
        "env = pickle.loads(sys.stdin.buffer.read())({'game': 'flip6', 'opponents': 'random'})\n"
        "obs, _ = env.reset(seed=0)\n"
        "print(obs.shape[0] - env.action_space.n)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=shipped, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert int(done.stdout) == example.envs.get_spec("flip6").obs_size


def test_rllib_trains_two_iterations_against_an_opponent_pool(example, capsys):
    assert not ray.is_initialized()
    result = example.main(
        ["--game", "ratatat", "--opponents", "tracker", "random", "--iterations", "2",
         "--batch", "200", "--eval-games", "2"]
    )  # fmt: skip
    assert not ray.is_initialized()  # main shuts down the local instance it started
    assert result["num_env_steps_sampled_lifetime"] >= 400
    out = capsys.readouterr().out
    assert "iteration 2:" in out and "greedy return over 2 games" in out
