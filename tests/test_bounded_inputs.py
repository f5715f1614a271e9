"""Every size a user gives is bounded before any work (issue: nothing lost, bounded inputs)."""

from __future__ import annotations

import time

import pytest

from cardarena.agents.files import YAML_MAX_DEPTH, YAML_MAX_NODES, load_yaml
from cardarena.agents.training.config import load_config
from cardarena.envs.core.errors import ConfigError

#: 9 levels of 9 aliases each: a few hundred bytes that expand to 9**9 values
LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)


def test_nested_aliases_are_refused_quickly_with_a_short_error(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text("game: flip6\n" + LAUGHS)
    assert len(path.read_bytes()) < 400
    start = time.perf_counter()
    with pytest.raises(ConfigError, match=f"more than {YAML_MAX_NODES} YAML values") as err:
        load_config(path)
    assert time.perf_counter() - start < 5 and len(str(err.value)) < 400


def test_deep_nesting_is_refused():
    with pytest.raises(ConfigError, match=f"deeper than {YAML_MAX_DEPTH} levels"):
        load_yaml("[" * 40 + "]" * 40, "x")


def test_ordinary_yaml_with_an_alias_still_loads():
    assert load_yaml("a: &v 3\nb: *v\n", "x") == {"a": 3, "b": 3}
    assert load_yaml("", "x") is None


def test_a_set_value_with_nested_aliases_is_refused_at_the_command_line(capsys):
    from cardarena.train import main

    value = "{" + LAUGHS.strip().replace("\n", ", ") + "}"
    start = time.perf_counter()
    with pytest.raises(SystemExit) as exit_:
        main(["--config", "configs/flip6.yaml", "--set", f"ppo.n_epochs={value}"])
    assert exit_.value.code == 2 and time.perf_counter() - start < 5
    err = capsys.readouterr().err
    assert "--set ppo.n_epochs" in err and len(err) < 2000


def test_a_replay_of_endless_bytes_is_refused_without_reading_it_all(tmp_path):
    from cardarena.envs.core.replay import ReplayFormatError, reader

    start = time.perf_counter()
    with pytest.raises(ReplayFormatError, match="larger than .* bytes, the limit of a replay"):
        reader.Replay.load("/dev/zero")
    assert time.perf_counter() - start < 10
    long_line = tmp_path / "long.jsonl"
    long_line.write_text('{"x": "' + "a" * (reader.MAX_LINE_CHARS + 10) + '"}\n')
    with pytest.raises(ReplayFormatError, match="a line of .* characters .the limit is"):
        reader.Replay.load(long_line)


def test_a_checkpoint_whose_arrays_outgrow_its_declared_network_is_refused_before_loading(tmp_path):
    import numpy as np

    from cardarena.agents import checkpoint

    meta = {"game": "flip6", "env": {}, "policy": {"net_arch": [64, 64], "activation": "tanh"}}
    small = tmp_path / "small.zip"
    checkpoint.write(small, meta, {"w": np.zeros((225, 64), np.float32)})
    assert checkpoint.read(small)[1]["w"].shape == (225, 64)
    big = tmp_path / "big.zip"
    checkpoint.write(big, meta, {"w": np.zeros((6000, 1000), np.float64)})  # 48 MB of zeros
    assert big.stat().st_size < 2 * 2**20  # it compresses to almost nothing
    with pytest.raises(ConfigError, match="more than the network it declares"):
        checkpoint.read(big)


def test_a_ray_address_that_does_not_answer_is_refused_within_the_timeout():
    import socket

    from cardarena.agents.evaluation.backends import check_ray_address

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.perf_counter()
    with pytest.raises(ConfigError, match=f"127.0.0.1:{port} does not answer"):
        check_ray_address(f"127.0.0.1:{port}", timeout=2)
    assert time.perf_counter() - start < 5
    with pytest.raises(ConfigError, match="is not host:port"):
        check_ray_address("nowhere")
    with socket.socket() as s:  # a listening port answers
        s.bind(("127.0.0.1", 0))
        s.listen()
        check_ray_address(f"ray://127.0.0.1:{s.getsockname()[1]}", timeout=2)


def test_a_tournament_too_large_for_one_run_is_refused_before_any_work(tmp_path):
    from cardarena.agents.evaluation.tournament import MAX_GAMES, run_tournament

    start = time.perf_counter()
    with pytest.raises(ConfigError, match=f"more than {MAX_GAMES} in one run"):
        run_tournament(
            "flip6", ["ev", "random", "random"], 10_000_000, {"num_players": 3}, progress=False
        )
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--human", "0", "--seed", "-1"], "the deal seed must be an integer >= 0, got -1"),
        (["--human", "0", "--record", "FILE/sub"], "is a file, not a directory"),
        (["--deals", "1", "--no-report"], "cannot be called as getcwd(game=..., seed=...)"),
    ],
)
def test_the_command_line_answers_bad_arguments_with_one_line(
    tmp_path, monkeypatch, capsys, args, said
):
    import io

    from cardarena import evaluate

    (tmp_path / "FILE").write_text("not a directory")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    agents = ["ev", "ev", "ev"] if "--human" in args else ["os:getcwd", "ev", "ev", "ev"]
    code = evaluate.main(["--game", "flip6", *args, "--agents", *agents, "--out", "r.json"])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "Traceback" not in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "spec", ["pimc:worlds=999999999", "pimc:rollouts=5000", "ismcts:iterations=100000000"]
)
def test_a_search_budget_that_would_never_finish_is_refused(spec):
    from cardarena.agents.search import parse_spec

    with pytest.raises(ConfigError, match="the most a decision may take"):
        parse_spec(spec)
    kind, options = parse_spec(spec.split(":")[0] + ":worlds=64" if "pimc" in spec else "ismcts")
    assert options  # ordinary budgets still parse
