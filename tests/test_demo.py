"""The README's first command, ``make demo``: its set-up installs the base dependencies only (the
dev extra is ``make test``'s, on top of the same .venv), its config has a time limit, it runs
without the heavy extras, and its evaluation ends with a verdict line in words for the trained
agent; the leaderboard says so when its rating and win-rate orders disagree."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from cardarena.agents.evaluation.records import GameRecord, TournamentResult
from cardarena.agents.evaluation.report import leaderboard_text, order_note, verdict_line
from cardarena.agents.training.config import load_config

ROOT = Path(__file__).resolve().parents[1]
#: what the demo must run without: the dev extra's heavy packages and the test tools
HEAVY = ("ray", "rlcard", "pygame", "pytest", "hypothesis", "xdist")


# ---- the set-up levels -------------------------------------------------------------------------


def _make_n(target: str, venv: Path) -> str:
    """The commands ``make TARGET`` would run for a .venv at ``venv`` (``make -n``: none run)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    out = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"VENV={venv}"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_make_demo_sets_up_the_base_install_and_make_test_adds_the_dev_extra(tmp_path):
    venv = tmp_path / ".venv"
    demo = _make_n("demo", venv)
    assert "pip install -q torch==2.13.0" in demo
    assert re.search(r"pip install -q -e \.$", demo, re.M), demo
    assert "[dev]" not in demo and "train.py --config configs/flip6_demo.yaml" in demo
    # a fresh venv for make test: both levels
    fresh = _make_n("test", venv)
    assert "torch==2.13.0" in fresh and "-e '.[dev]'" in fresh
    # a venv set up for the demo (its marker newer than pyproject.toml): make test adds only
    # the dev extra, and make demo installs nothing more
    venv.mkdir()
    (venv / ".installed-base").touch()
    upgrade = _make_n("test", venv)
    assert "-e '.[dev]'" in upgrade and "torch==2.13.0" not in upgrade
    assert "venv" not in upgrade.split("pytest")[0].replace(str(venv), "")
    assert "pip install" not in _make_n("demo", venv)
    (venv / ".installed-dev").touch()
    assert "pip install" not in _make_n("test", venv)


def test_the_base_dependencies_hold_none_of_the_heavy_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = [re.split(r"[<>=\[ ;]", d)[0].lower() for d in project["dependencies"]]
    assert not {"ray", "rlcard", "pygame-ce", "pygame", "pytest", "hypothesis"} & set(base)
    assert {"ray[rllib]>=2.9,<3", "rlcard>=1.2,<2", "pytest>=8,<10"} <= set(
        project["optional-dependencies"]["dev"]
    )


# ---- the config --------------------------------------------------------------------------------


def test_the_demo_config_has_a_time_limit_that_fits_the_ten_minutes():
    cfg = load_config(ROOT / "configs" / "flip6_demo.yaml")
    assert cfg.time_limit_minutes is not None and 0 < cfg.time_limit_minutes <= 5
    assert "time_limit_minutes:" in (ROOT / "configs" / "flip6_demo.yaml").read_text()


def _demo_evaluate_args() -> list[str]:
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    line = next(ln for ln in text.splitlines() if "evaluate.py" in ln and "demo" in ln)
    return line.split("evaluate.py", 1)[1].split()


def test_the_demo_ranks_by_win_rate_and_gives_the_new_agents_verdict():
    args = _demo_evaluate_args()
    assert args[args.index("--rank-by") + 1] == "win-rate"
    assert args[args.index("--agents") + 1] == "runs/flip6_demo/final.zip"  # the verdict's


# ---- the demo, tiny, without the heavy extras ----------------------------------------------------

RUN_WITHOUT_HEAVY = textwrap.dedent(
    """
    import sys

    HEAVY = {heavy!r}

    # None in sys.modules: an import raises ImportError, find_spec says "not installed"
    for name in [m for m in sys.modules if m.split(".")[0] in HEAVY]:
        del sys.modules[name]
    sys.modules.update(dict.fromkeys(HEAVY))

    from cardarena import evaluate, train

    code = train.main({train_args!r})
    assert code == 0, code
    code = evaluate.main({evaluate_args!r})
    assert code == 0, code
    loaded = sorted(m for m in HEAVY if sys.modules.get(m) is not None)
    assert not loaded, loaded
    """
)


def test_the_demo_runs_tiny_without_the_heavy_extras_and_ends_with_the_verdict(tmp_path):
    """The Makefile's two commands, shrunk (a 2-game warm start, a 0.05 min time limit that stops
    a 10M-step run, 2 deals), in a process where ray, rlcard, pygame and pytest cannot be
    imported."""
    train_args = [
        "--config",
        str(ROOT / "configs" / "flip6_demo.yaml"),
        "--no-progress",
        "--time-limit",
        "0.05",
        "--timesteps",
        "10000000",
        "--set",
        "n_envs=2",
        "--set",
        "ppo.n_steps=128",
        "--set",
        "ppo.batch_size=128",
        "--set",
        "ppo.n_epochs=1",
        "--set",
        "warm_start.games=2",
        "--set",
        "warm_start.epochs=1",
        "--set",
        "eval.every=10000000",
        "--set",
        "eval.deals=2",
        "--set",
        "eval.final_deals=2",
    ]
    evaluate_args = _demo_evaluate_args()
    evaluate_args[evaluate_args.index("--deals") + 1] = "2"
    evaluate_args += ["--no-progress", "--workers", "1"]
    script = RUN_WITHOUT_HEAVY.format(
        heavy=HEAVY, train_args=train_args, evaluate_args=evaluate_args
    )
    for link in ("agents", "envs"):  # zoo:flip6 and the packages resolve from the checkout
        os.symlink(ROOT / link, tmp_path / link)
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "the time limit of 0.05 min stopped the run: " in out.stdout
    assert (
        "-player tables: " in out.stdout and "(par 0.250: an equal share of the wins)" in out.stdout
    )
    assert (tmp_path / "runs" / "flip6_demo" / "final.zip").exists()
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("verdict: runs/flip6_demo/final.zip wins "), last
    assert "of its games at a 4-seat table (par 25.0%: an equal share of the wins)" in last


# ---- the verdict line ----------------------------------------------------------------------------


def _result(games: list[tuple[list[str], list[int], list[int]]], rank_by="rating"):
    """A result from (lineup, winners, finishing ranks) per game, one deck seed per game."""
    records = [
        GameRecord.from_dict(
            {
                "deal_seed": seed,
                "lineup": lineup,
                "returns": [0.0] * len(lineup),
                "scores": [float(-r) for r in ranks],
                "winners": winners,
                "decisions": 1,
                "ranks": ranks,
            }
        )
        for seed, (lineup, winners, ranks) in enumerate(games)
    ]
    agents = list(dict.fromkeys(a for lineup, _, _ in games for a in lineup))
    return TournamentResult(
        "flip6",
        {"num_players": len(games[0][0])},
        agents,
        num_deals=len(games),
        records=records,
        tables_per_deal=1,
        rank_by=rank_by,
    )


def _firsts(winner_of_seed: list[int]) -> TournamentResult:
    """4 seats, agents a b c d; the seat listed wins that seed, the others in seat order."""
    games = []
    for w in winner_of_seed:
        order = [w] + [s for s in range(4) if s != w]
        ranks = [order.index(s) for s in range(4)]
        games.append((["a", "b", "c", "d"], [w], ranks))
    return _result(games)


def test_a_verdict_above_par_and_above_every_other_agent():
    result = _firsts([0, 0, 0, 1, 2] * 12)  # a wins 60%, b and c 20%, d never
    line = verdict_line(result, "a")
    assert line.startswith("verdict: a wins 60.0% of its games at a 4-seat table (par 25.0%")
    assert ": above par; above b (20.0%), c (20.0%), d (0.0%) (paired 95% intervals over 60 " in (
        line
    )
    low, high = (float(x) for x in re.search(r"interval ([\d.]+)%-([\d.]+)%", line).groups())
    assert 40 < low < 60 < high < 80
    below = verdict_line(result, "d")
    assert "wins 0.0% " in below and ": below par; below a (60.0%), b (20.0%), c (20.0%)" in below
    level = verdict_line(result, "b")
    assert "above d (0.0%); level with c (20.0%); below a (60.0%)" in level


def test_a_verdict_at_par_and_level_and_with_shared_wins():
    result = _firsts([0, 1, 2, 3] * 15)
    line = verdict_line(result, "c")
    assert "wins 25.0% " in line and ": at par; level with a (25.0%), b (25.0%), d (25.0%)" in line
    # a tie shares the win: two winners get half each
    shared = _result([(["a", "b", "c"], [0, 1], [0, 0, 2])] * 20)
    assert "verdict: a wins 50.0% of its games at a 3-seat table (par 33.3%" in (
        verdict_line(shared, "a")
    )
    assert "above par; above c (0.0%); level with b (50.0%) (" in verdict_line(shared, "a")


def test_a_cooperative_game_gets_no_verdict():
    result = _firsts([0, 1] * 5)
    result.cooperative = True
    assert verdict_line(result, "a").startswith("verdict: none for a: flip6 is cooperative")


def test_evaluate_py_verdict_flag_names_the_agent_and_refuses_another(tmp_path, capsys):
    from cardarena import evaluate

    out = str(tmp_path / "r.json")
    base = "--game flip6 --num-players 3 --deals 2 --no-progress --no-report --workers 1".split()
    agents = ["--agents", "ev", "threshold", "random"]
    assert evaluate.main([*base, *agents, "--out", out]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("verdict: ev wins ")
    assert evaluate.main([*base, *agents, "--out", out, "--verdict", "random"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("verdict: random wins ")
    assert evaluate.main([*base, *agents, "--out", out, "--verdict", "zoo:flip6"]) == 2
    err = capsys.readouterr().err
    assert "--verdict zoo:flip6 is not one of --agents (ev threshold random)" in err


# ---- rating and win rate in opposite orders -------------------------------------------------------


def _steady_second() -> list[tuple[list[str], list[int], list[int]]]:
    """x wins 40% but is last otherwise; y is first 30% and second otherwise."""
    lineup = ["x", "y", "z"]
    return (
        [(lineup, [0], [0, 1, 2])] * 8  # x > y > z
        + [(lineup, [1], [2, 0, 1])] * 6  # y > z > x
        + [(lineup, [2], [2, 1, 0])] * 6  # z > y > x
    )


def test_the_leaderboard_says_when_rating_and_win_rate_disagree():
    result = _result(_steady_second())
    board = result.summaries()
    assert [s.name for s in board][0] == "y"  # by rating
    assert max(board, key=lambda s: s.win_rate).name == "x"
    note = order_note(result)
    assert note.startswith("The two orders differ here: y is above x by rating, x wins more (0.400")
    assert "a second place beats two" in " ".join(leaderboard_text(result).split())
    by_wins = _result(_steady_second(), rank_by="win-rate")
    assert [s.name for s in by_wins.summaries()][0] == "x" and order_note(by_wins) == note
    assert order_note(_firsts([0, 0, 0, 1, 2] * 4)) == ""  # a b c d in one order by both
