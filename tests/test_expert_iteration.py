"""Expert iteration (agents/training/expert_iteration.py, labels.py): a run end to end, the
labels' determinism across backends, and the config section's errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardarena.train as train
from cardarena.agents.training.config import from_dict, load_config
from cardarena.agents.training.expert_iteration import build_learner, network_layers
from cardarena.agents.training.labels import FIELDS, label_games
from cardarena.envs.core.engine import ConfigError

TEACHER = "pimc:worlds=2,rollout=ev"


def _config(tmp_path, **exit_options):
    return {
        "game": "flip6",
        "env": {"num_players": 3},
        "seed": 3,
        "output_dir": str(tmp_path / "run"),
        "policy": {"net_arch": [32, 32]},
        "eval": {"final_deals": 2, "baselines": ["ev"]},
        "expert_iteration": {
            "rounds": 1,
            "games_per_round": 4,
            "teacher": TEACHER,
            "epochs": 30,
            "chunk_games": 2,
            **exit_options,
        },
    }


def test_a_round_runs_end_to_end_and_agreement_with_the_labels_rises(tmp_path):
    import yaml

    path = tmp_path / "exit.yaml"
    path.write_text(yaml.safe_dump(_config(tmp_path)))
    assert train.main(["--config", str(path), "--no-progress"]) == 0
    run = tmp_path / "run"
    summary = json.loads((run / "summary.json").read_text())
    (round0,) = summary["rounds"]
    assert round0["decisions"] > 50 and not round0["network_rollout"]
    assert round0["agreement_after"] > round0["agreement_before"] + 0.1
    assert summary["final_eval"]["against"] == "ev"
    assert (run / "round_0.zip").is_file() and (run / "final.zip").is_file()
    from cardarena.agents import make_agent

    make_agent("flip6", str(run / "final.zip"))  # a checkpoint the zoo and evaluate.py read


def test_pimc_labels_hold_the_search_choice_and_its_scores():
    labels = label_games("flip6", {"num_players": 3}, TEACHER, None, 0, 0, 2)
    n = len(labels["action"])
    assert n > 20 and all(len(labels[k]) == n for k in FIELDS)
    assert labels["mask"].sum(axis=1).min() >= 2  # forced moves are not labels
    assert labels["mask"][np.arange(n), labels["action"]].all()
    legal_best = np.where(labels["mask"], labels["scores"], -np.inf).max(axis=1)
    chosen = labels["scores"][np.arange(n), labels["action"]]
    np.testing.assert_array_equal(chosen, legal_best)  # pimc plays its best mean
    np.testing.assert_array_equal(labels["search_value"], legal_best)
    assert set(np.unique(labels["result"])) <= {-1.0, -0.5, 0.0, 0.5, 1.0}


def _network():
    cfg = from_dict({"game": "flip6", "env": {"num_players": 3}, "policy": {"net_arch": [16]}})
    return network_layers(build_learner(cfg).policy)


def test_a_gated_teacher_labels_the_network_move_unless_another_is_clearly_better():
    # gate=1000: a label leaves the move of the network the search rolls out with (expert
    # iteration's improvement step over its own student) only where every world agrees that
    # another move is better (a zero-variance advantage), and then for a better mean; the
    # search value is the labelled move's mean, not the best mean
    from cardarena.agents.training.labels import _network_players

    net = _network()
    teacher = "pimc:worlds=2,rollout=ev,horizon=round,value=leaf,gate=1000"
    labels = label_games("flip6", {"num_players": 4}, teacher, net, 0, 1, 2)
    n = len(labels["action"])
    assert n > 20
    players = _network_players(net)(4)
    kept = 0
    for obs, mask, action, seat, scores in zip(
        labels["obs"],
        labels["mask"],
        labels["action"],
        labels["seat"],
        labels["scores"],
        strict=True,
    ):
        own = players[seat].act(obs, mask.astype(np.int8), None)
        kept += own == action
        assert own == action or scores[action] > scores[own]
    assert kept >= 0.8 * n, (kept, n)
    chosen = labels["scores"][np.arange(n), labels["action"]]
    np.testing.assert_array_equal(labels["search_value"], chosen)


def _same(a, b):
    assert list(a) == list(b)
    for key in FIELDS:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_labels_do_not_depend_on_the_workers_or_the_chunks():
    common = ("flip6", {"num_players": 3}, TEACHER, _network(), 11, 2, 4)
    one = label_games(*common, chunk_games=4, workers=1)
    pool = label_games(*common, chunk_games=1, workers=2)
    _same(one, pool)
    assert list(one["game"]) == sorted(one["game"])  # gathered in game order
    other_round = label_games("flip6", {"num_players": 3}, TEACHER, None, 11, 3, 1)
    assert not np.array_equal(other_round["obs"][:5], one["obs"][:5])


@pytest.mark.ray
def test_ray_labels_on_a_two_node_cluster_equal_the_local_ones():
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    common = ("flip6", {"num_players": 3}, TEACHER, _network(), 5, 1, 4)
    local = label_games(*common, chunk_games=1, workers=1)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        by_ray = label_games(*common, chunk_games=1, workers=2, backend="ray")
        assert ray.is_initialized()  # a running instance is used, not shut down
    finally:
        ray.shutdown()
        cluster.shutdown()
    _same(local, by_ray)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"round": 2}, "expert_iteration.round: unknown key; known: rounds, games_per_round"),
        ({"rounds": -1}, "expert_iteration.rounds must be an integer >= 0"),
        ({"rounds": 1, "teacher": "ev"}, "expert_iteration.teacher must be a search agent"),
        ({"rounds": 1, "teacher": "pimc:world=3"}, "unknown option 'world'"),
        ({"rounds": 1, "teacher": "search:nope"}, "unknown search setting 'search:nope'"),
        ({"policy_target": "visits"}, "expert_iteration.policy_target must be one of"),
    ],
)
def test_a_bad_expert_iteration_key_is_a_clear_error(tmp_path, section, message):
    import yaml

    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"game": "flip6", "expert_iteration": section}))
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_config(path)


def test_a_manifest_search_setting_can_teach(tmp_path):
    """expert_iteration.teacher accepts ``search:LABEL`` (the game's measured setting)."""
    import yaml

    path = tmp_path / "named.yaml"
    section = {"rounds": 1, "teacher": "search:flip6"}
    path.write_text(yaml.safe_dump({"game": "flip6", "expert_iteration": section}))
    assert load_config(path).expert_iteration.teacher == "search:flip6"


def test_train_py_refuses_a_bad_backend_before_any_work(tmp_path, capsys):
    import yaml

    path = tmp_path / "exit.yaml"
    path.write_text(yaml.safe_dump(_config(tmp_path)))
    with pytest.raises(SystemExit) as exc:
        train.main(["--config", str(path), "--backend", "spark"])
    assert exc.value.code == 2 and "invalid choice: 'spark'" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("job", "said"),
    [("dying_label_job", "worker process died"), ("failing_label_job", "ValueError: a bug")],
)
def test_a_labelling_worker_that_dies_or_fails_is_one_clear_error(job, said):
    import faulty_agents

    from cardarena.agents.training.labels import _run_pool
    from cardarena.envs.core.engine import CardArenaError

    jobs = [("flip6", {}, "pimc", None, 3, 1, [0, 1]), ("flip6", {}, "pimc", None, 3, 1, [2, 3])]
    with pytest.raises(CardArenaError, match=said) as err:
        _run_pool(jobs, 2, getattr(faulty_agents, job))
    assert "flip6 round 1 games 0..1" in str(err.value)


def test_a_killed_run_resumes_from_its_last_round_to_the_uninterrupted_result(tmp_path):
    """SIGKILL in the middle of round 1, ``--resume``: the same networks and rounds as a run
    never interrupted, for the same seed."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import yaml

    from cardarena.agents import checkpoint

    def config(name):
        cfg = _config(tmp_path / name, rounds=2, epochs=5, keep_rounds=1)
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(cfg))
        return path

    assert train.main(["--config", str(config("whole")), "--no-progress"]) == 0
    whole = tmp_path / "whole" / "run"
    cut = tmp_path / "cut" / "run"
    cmd = [sys.executable, "train.py", "--config", str(config("cut")), "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            progress = cut / "rounds.json"
            if progress.exists() and len(json.loads(progress.read_text())["rounds"]) == 1:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)  # in round 1
        proc.wait()
    finally:
        proc.kill()
    assert not (cut / "summary.json").exists() and not (cut / "round_1.zip").exists()
    assert train.main(["--resume", str(cut), "--no-progress"]) == 0
    a, b = (json.loads((d / "summary.json").read_text()) for d in (whole, cut))
    assert b["resumed"] and not a["resumed"]
    timing = ("label_seconds", "seconds")
    strip = [[{k: v for k, v in r.items() if k not in timing} for r in s["rounds"]] for s in (a, b)]
    assert strip[0] == strip[1] and len(strip[0]) == 2
    for name in ("round_1.zip", "final.zip"):
        (_, want), (_, got) = checkpoint.read(whole / name), checkpoint.read(cut / name)
        assert sorted(want) == sorted(got)
        assert all(np.array_equal(want[k], got[k]) for k in want), name
    assert not (cut / "labels_0.npz").exists()  # keep_rounds=1: round 0's labels are dropped
    assert b["final_eval"] == a["final_eval"]
    # a finished run does not resume again
    assert train.main(["--resume", str(cut), "--no-progress"]) == 2
