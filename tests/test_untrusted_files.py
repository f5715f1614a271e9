"""No file the suite reads runs code: a payload planted in each kind of file stays inert.

Every payload, if it ran, would create ``MARKER`` in the test's directory (a pickle whose
``__reduce__`` calls ``os.system``, or YAML's ``!!python/object/apply``); each test loads the
file the way a user would and requires a clean refusal (or plain data) and no marker.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cardarena.agents import checkpoint, make_agent
from cardarena.envs.core.engine import CardArenaError, ConfigError


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _pickle_payload(marker: Path) -> bytes:
    return pickle.dumps(_Payload(marker))


def _sb3_archive(path: Path, marker: Path, in_weights: bool = False) -> Path:
    """A stable-baselines3-shaped archive whose pickled fields carry the payload: a pickled
    ``data`` field (as SB3 writes its policy class), and with ``in_weights`` policy.pth too."""
    import torch
    from tiny_policy import actor_for

    actor = actor_for("flip6")
    state = {}
    for i, (w, b, _) in enumerate(actor.layers[:-1]):
        state[f"mlp_extractor.policy_net.{2 * i}.weight"] = torch.from_numpy(w.T.copy())
        state[f"mlp_extractor.policy_net.{2 * i}.bias"] = torch.from_numpy(b.copy())
    state["action_net.weight"] = torch.from_numpy(actor.layers[-1][0].T.copy())
    state["action_net.bias"] = torch.from_numpy(actor.layers[-1][1].copy())
    weights = io.BytesIO()
    torch.save(state, weights)
    raw = _pickle_payload(marker) if in_weights else weights.getvalue()
    data = {
        "policy_class": {
            ":type:": "<class 'abc.ABCMeta'>",
            ":serialized:": base64.b64encode(_pickle_payload(marker)).decode(),
        },
        "policy_kwargs": {
            ":serialized:": base64.b64encode(_pickle_payload(marker)).decode(),
            "activation_fn": "<class 'torch.nn.modules.activation.Tanh'>",
        },
    }
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", json.dumps(data))
        zf.writestr("policy.pth", raw)
        zf.writestr("pytorch_variables.pth", _pickle_payload(marker))
    return path


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "MARKER"
    yield path
    assert not path.exists(), "a planted payload ran"


def test_a_pickled_checkpoint_is_refused_and_its_payload_never_runs(tmp_path, marker):
    evil = _sb3_archive(tmp_path / "evil.zip", marker)
    with pytest.raises(ConfigError, match="sb3:"):
        make_agent("flip6", str(evil))
    # the explicit opt-in reads the weights only: the pickled fields stay undecoded
    agent = make_agent("flip6", f"sb3:{evil}")
    assert agent.act(np.zeros(agent.actor.obs_size, np.float32), np.ones(8, np.int8), {}) < 8


def test_a_payload_in_the_weights_of_an_sb3_file_is_refused(tmp_path, marker):
    evil = _sb3_archive(tmp_path / "evil.zip", marker, in_weights=True)
    with pytest.raises(ConfigError, match="more than weights"):
        make_agent("flip6", f"sb3:{evil}")


def test_a_cardarena_checkpoint_with_pickled_arrays_is_refused(tmp_path, marker):
    path = tmp_path / "evil.zip"
    body = io.BytesIO()
    np.savez(body, **{"action_net.weight": np.array([_Payload(marker)], dtype=object)})
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(checkpoint.META, json.dumps({"format": checkpoint.FORMAT, "version": 1}))
        zf.writestr(checkpoint.ARRAYS, body.getvalue())
    with pytest.raises(ConfigError, match="without unpickling"):
        make_agent("flip6", str(path))


@pytest.mark.parametrize("name", ["../../evil", "..", "/tmp/evil", "flip6/../../x", "a b", ""])
def test_zoo_names_stay_in_the_zoo(tmp_path, marker, name):
    with pytest.raises(ConfigError, match="zoo holds"):
        make_agent("flip6", f"zoo:{name}")


def test_a_training_yaml_cannot_run_code(tmp_path, marker):
    from cardarena.agents.training.config import load_config

    path = tmp_path / "evil.yaml"
    path.write_text(f"game: flip6\nseed: !!python/object/apply:os.system ['touch {marker}']\n")
    with pytest.raises(ConfigError, match="YAML"):
        load_config(path)


def test_a_training_yaml_naming_a_pickled_opponent_is_refused(tmp_path, marker):
    from cardarena.agents.training.config import load_config
    from cardarena.agents.training.opponents import OpponentPool

    evil = _sb3_archive(tmp_path / "evil.zip", marker)
    path = tmp_path / "cfg.yaml"
    path.write_text(f"game: flip6\nopponents:\n  scripted: {{'{evil}': 1.0}}\n")
    with pytest.raises(ConfigError, match="opponents.scripted.*sb3:"):  # refused on load
        load_config(path)
    with pytest.raises(ConfigError, match="sb3:"):
        OpponentPool("flip6", tmp_path / "snaps", {str(evil): 1.0}, 0.0, 0.0)


def test_resume_from_a_planted_checkpoint_refuses_it(tmp_path, marker):
    from cardarena.agents.training.config import load_config
    from cardarena.agents.training.trainer import train

    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "snapshots").mkdir()
    cfg = load_config("configs/flip6.yaml", {"output_dir": str(run), "n_envs": 2})
    cfg.vec_env = "dummy"
    _sb3_archive(run / "checkpoints" / "step_000001024.zip", marker)
    (run / "trainer_state.json").write_text(
        json.dumps({"timesteps": 1024, "checkpoint": "step_000001024.zip"})
    )
    with pytest.raises(ConfigError, match="sb3:"):
        train(cfg, progress_bar=False, resume=True)


def test_a_snapshot_planted_in_a_run_is_refused(tmp_path, marker):
    from cardarena.agents.training.opponents import OpponentPool

    snaps = tmp_path / "snapshots"
    snaps.mkdir()
    _sb3_archive(snaps / "step_000001024.zip", marker)
    pool = OpponentPool("flip6", snaps, {"ev": 1.0}, 0.5, 0.5)
    with pytest.raises(ConfigError, match="sb3:"):
        pool.refresh()


def test_replays_and_results_files_are_plain_data(tmp_path, marker):
    from cardarena.agents.evaluation.results import ResultsStore
    from cardarena.envs.core.replay import verify

    blob = base64.b64encode(_pickle_payload(marker)).decode()
    lines = [
        {"type": "header", "format": 1, "game": "flip6", "payload": blob},
        {"!!python/object/apply:os.system": [f"touch {marker}"]},
    ]
    replay = tmp_path / "evil.jsonl"
    replay.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    with contextlib.suppress(Exception):  # what matters here: whatever it says, nothing runs
        assert not verify(replay).ok
    results = tmp_path / "results.jsonl"
    results.write_text(
        json.dumps({"type": "run", "game": "flip6", "config": {}, "payload": blob}) + "\n"
    )
    store = ResultsStore(results, {"game": "flip6", "config": {}, "fingerprints": {}})
    with contextlib.suppress(CardArenaError):
        store.load()


def test_the_zoo_holds_only_cardarena_checkpoints():
    from cardarena.agents import ZOO_DIR

    for path in sorted(ZOO_DIR.glob("*.zip")):
        with zipfile.ZipFile(path) as zf:
            assert sorted(zf.namelist()) == sorted([checkpoint.META, checkpoint.ARRAYS]), path
        meta, _ = checkpoint.read(path)
        assert meta["game"] == path.stem.split("_")[0]


def test_a_checkpoint_of_another_game_is_refused_when_built():
    with pytest.raises(ConfigError, match="trained for ratatat"):
        make_agent("flip6", "zoo:ratatat")
