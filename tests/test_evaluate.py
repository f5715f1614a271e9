"""The evaluator (issue 8): seatings, statistics, lock-step batching, determinism, resuming, CLI."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

import cardarena.evaluate as evaluate
from cardarena.agents import make_agent
from cardarena.agents.evaluation.lockstep import play_lockstep
from cardarena.agents.evaluation.ratings import (
    ELO,
    Resamples,
    bootstrap_mean,
    bradley_terry,
    finishing_ranks,
)
from cardarena.agents.evaluation.results import ResultsStore
from cardarena.agents.evaluation.schedule import seatings
from cardarena.agents.evaluation.tournament import play_game, run_tournament, summarise
from cardarena.envs.core.engine import ConfigError

TINY = "tiny_policy:make"
SAMPLED = "tiny_policy:make_sampled"


def _games(result):
    return [(r.deal_seed, r.lineup, r.scores, r.winners, r.decisions) for r in result.records]


# ---- tables --------------------------------------------------------------------------------
def test_rotations_and_permutations_seat_every_agent_everywhere_equally():
    rot = seatings(["a", "b", "c"], 3)
    assert rot == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    perm = seatings(["a", "b", "c", "d"], 4, permutations=True)
    assert len(perm) == 24 and len({tuple(t) for t in perm}) == 24
    two = seatings(["a", "b"], 4, permutations=True)
    assert sorted("".join(t) for t in two) == ["aabb", "abab", "abba", "baab", "baba", "bbaa"]
    for tables in (rot, perm, two, seatings(["a", "b", "c", "d", "e"], 3)):
        n = len(tables[0])
        per_seat = [Counter(t[i] for t in tables) for i in range(n)]
        assert all(c == per_seat[0] for c in per_seat), tables
    # repeated agents give repeated rotations: each distinct table once
    assert len(seatings(["a", "b", "a", "b"], 4)) == 2
    with pytest.raises(ConfigError, match="up to 4 seats"):
        seatings(["a", "b", "c", "d", "e"], 5, permutations=True)


# ---- statistics ----------------------------------------------------------------------------
def test_finishing_ranks_follow_the_direction_the_winners_show():
    assert finishing_ranks([61, 40, 55, 40], [0]) == [0, 2, 1, 2]  # higher wins (flip6)
    assert finishing_ranks([3, 20, 9, 14], [0]) == [0, 3, 1, 2]  # lower wins (ratatat)
    assert finishing_ranks([60, 60, 10], [0, 1]) == [0, 0, 2]
    assert finishing_ranks([5, 5, 5], [0, 1, 2]) == [0, 0, 0]
    assert finishing_ranks([4, 0, 0, 0], [0]) == [0, 1, 1, 1]
    assert finishing_ranks([10, 30, 5], [0]) == [0, 1, 1]  # scores do not tell: tie behind


def test_bradley_terry_fit_recovers_known_strengths():
    # two agents, a beats b 3 times in 4: log-odds ln 3 (the prior pulls it in a hair)
    ahead = np.array([[0.0, 300.0], [100.0, 0.0]])
    theta = bradley_terry(ahead, ahead + ahead.T)
    assert theta[0] - theta[1] == pytest.approx(np.log(3), rel=1e-3)
    # three agents drawn from known strengths, many games: the fit finds them again
    rng = np.random.default_rng(0)
    true = np.array([0.0, 0.7, -0.5])
    met = np.full((3, 3), 4000.0) - np.diag([4000.0] * 3)
    p = 1 / (1 + np.exp(true[None, :] - true[:, None]))
    won = np.triu(rng.binomial(4000, p), 1).astype(float)
    ahead = won + np.triu(met - won, 1).T
    fit = bradley_terry(ahead, met)
    assert np.allclose(fit - fit[0], true - true[0], atol=0.08)
    # an agent that always wins stays finite; many tables at once give the same as one by one
    always = np.array([[0.0, 50.0], [0.0, 0.0]])
    both = bradley_terry(
        np.stack([always, ahead[:2, :2]]), np.stack([always + always.T, met[:2, :2]])
    )
    assert np.isfinite(both).all()
    assert np.allclose(both[0], bradley_terry(always, always + always.T))


def test_bootstrap_is_paired_deterministic_and_covers_the_mean():
    res = Resamples(50, 400)
    blocks = list(res.blocks())
    assert all(np.array_equal(a, b) for a, b in zip(blocks, res.blocks(), strict=True))
    assert sum(len(b) for b in blocks) == 400 and all((b.sum(axis=1) == 50).all() for b in blocks)
    values = np.random.default_rng(0).normal(2.0, 1.0, 50)
    mean, (low, high) = bootstrap_mean(values, res)
    assert mean == pytest.approx(values.mean()) and low < mean < high
    assert high - low == pytest.approx(2 * 1.96 / np.sqrt(50), rel=0.3)
    shifted = bootstrap_mean(values + 1.0, res)  # paired: same resamples, interval moves by 1
    assert shifted[1] == pytest.approx((low + 1.0, high + 1.0))
    gaps = values.copy()
    gaps[::2] = np.nan  # an agent absent from half the seeds
    m2, ci2 = bootstrap_mean(gaps, res)
    assert m2 == pytest.approx(np.nanmean(gaps)) and ci2[0] < m2 < ci2[1]
    # drawn in small blocks (as for many deck seeds): the same interval, up to resampling noise
    small = Resamples(50, 400)
    small.block = 7
    assert bootstrap_mean(values, small)[1] == pytest.approx((low, high), abs=0.1)


@pytest.fixture(scope="module")
def ladder():
    return run_tournament(
        "flip6",
        ["ev", "random", "threshold"],
        40,
        {"num_players": 3},
        progress=False,
        bootstrap=300,
    )


def test_rating_is_anchored_at_random_and_orders_the_ladder(ladder):
    board = {s.name: s for s in ladder.summaries()}
    assert board["random"].rating == 0.0
    assert board["ev"].rating_ci[0] > 0.0 and board["threshold"].rating > 0.0
    assert [s.name for s in ladder.summaries()][-1] == "random"
    rating = ladder.rating()
    assert rating["anchor"] == "random"
    strength = {a: v["strength"] for a, v in rating["agents"].items()}
    assert (strength["ev"] - strength["random"]) * ELO == pytest.approx(board["ev"].rating)
    for s in board.values():
        assert s.win_ci[0] <= s.win_rate <= s.win_ci[1]
        assert s.score_ci[0] <= s.mean_score <= s.score_ci[1]


def test_head_to_head_is_complementary_and_counts_finishing_order(ladder):
    share, games = ladder.head_to_head()
    names = ladder.agents
    ev, rnd = names.index("ev"), names.index("random")
    assert share[ev, rnd] > 0.7
    off = ~np.eye(len(names), dtype=bool)
    assert np.allclose((share + share.T)[off], 1.0)
    assert (games[off] == len(ladder.records)).all()  # every pair meets at every table
    # by hand for one pair
    want = np.mean(
        [
            1.0
            if r.ranks[r.lineup.index("ev")] < r.ranks[r.lineup.index("random")]
            else 0.5
            if r.ranks[r.lineup.index("ev")] == r.ranks[r.lineup.index("random")]
            else 0.0
            for r in ladder.records
        ]
    )
    assert share[ev, rnd] == pytest.approx(want)


def test_summarise_keeps_the_selfplay_interface():
    seats = [make_agent("flip6", "ev"), make_agent("flip6", "random"), make_agent("flip6", "ev")]
    records = [play_game("flip6", {"num_players": 3}, seats, d, agent_seed=d) for d in range(4)]
    for r in records:
        r.lineup = ["learner", "random", "learner"]
    learner = {s.name: s for s in summarise(records, ["learner", "random"])}["learner"]
    assert learner.games == 8 and 0.0 <= learner.win_ci[0] <= learner.win_rate <= learner.win_ci[1]


# ---- batching and determinism --------------------------------------------------------------
def test_lockstep_plays_the_same_games_as_play_game():
    specs = ["ev", "threshold", "random"]
    built = {s: make_agent("flip6", s) for s in specs}
    jobs = [(seed, t) for seed in range(5) for t in seatings(specs, 3)]
    batched = play_lockstep("flip6", {"num_players": 3}, built, jobs)
    for (seed, table), rec in zip(jobs, batched, strict=True):
        one = play_game(
            "flip6", {"num_players": 3}, [make_agent("flip6", s) for s in table], seed, seed
        )
        assert (rec.scores, rec.winners, rec.decisions) == (one.scores, one.winners, one.decisions)


def test_network_rows_do_not_depend_on_the_rest_of_the_batch(tiny_actor):
    actor = tiny_actor("flip6")
    rng = np.random.default_rng(1)
    obs = (rng.random((101, actor.obs_size)) < 0.3).astype(np.float32)
    masks = (rng.random((len(obs), actor.num_actions)) < 0.7).astype(np.int8)
    masks[:, 0] = 1
    full = actor.masked_logits(obs, masks)
    start = 0
    for size in (1, 2, 3, 7, 31, 33, 9, 1000):
        part = actor.masked_logits(obs[start : start + size], masks[start : start + size])
        assert np.array_equal(part, full[start : start + size])
        start = min(start + size, len(obs) - 1)
    # one row alone, copied to another place in memory, gives the same bits
    row = np.concatenate([np.zeros(3, np.float32), obs[5]])[3:]
    legal = np.flatnonzero(masks[5])
    assert np.array_equal(actor.legal_logits(row, legal), full[5, legal])


_KERNEL_PROBE = """
import hashlib, sys
import numpy as np
sys.path.insert(0, "tests")
from tiny_policy import actor_for
from threadpoolctl import threadpool_info
actor = actor_for("suicidium")
rng = np.random.default_rng(7)
obs = (rng.random((64, actor.obs_size)) < 0.1).astype(np.float32) * rng.random(actor.obs_size)
masks = (rng.random((64, actor.num_actions)) < 0.5).astype(np.int8)
kernels = [i.get("architecture") for i in threadpool_info() if i["internal_api"] == "openblas"]
print(kernels[0] if kernels else "none", hashlib.sha256(actor.masked_logits(obs, masks)).hexdigest())
"""


def test_decisions_are_the_same_bits_on_every_blas_kernel():
    """A decision must not depend on the BLAS kernel OpenBLAS picks for the CPU: the same logits
    under every kernel this machine can run (OPENBLAS_CORETYPE forces one)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    seen = {}
    for kernel in ("Prescott", "Sandybridge", "Haswell", "SkylakeX"):
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
        out = subprocess.run(
            [sys.executable, "-c", _KERNEL_PROBE],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        seen[out[0]] = out[1]
    assert len(seen) >= 2, f"could not run two BLAS kernels here: {seen}"
    assert len(set(seen.values())) == 1, f"logits differ between BLAS kernels: {seen}"


def test_results_are_identical_whatever_the_workers_and_batches():
    args = ("flip6", [TINY, SAMPLED, "ev"], 6, {"num_players": 3})
    one = run_tournament(*args, progress=False, workers=1)
    many = run_tournament(*args, progress=False, workers=2, batch_games=6)  # 6 chunks, 2 procs
    assert _games(one) == _games(many)
    assert len(one.records) == 18 and one.played == 18
    assert one.summaries()[0].rating == many.summaries()[0].rating


# ---- results file --------------------------------------------------------------------------
def test_rerun_extends_and_resumes_without_replaying(tmp_path):
    path = tmp_path / "r.jsonl"
    args = ("flip6", ["ev", "random", TINY], {"num_players": 3})
    first = run_tournament(args[0], args[1], 4, args[2], progress=False, results_path=path)
    assert (first.played, first.reused) == (12, 0)
    more = run_tournament(args[0], args[1], 6, args[2], progress=False, results_path=path)
    assert (more.played, more.reused) == (6, 12)
    fresh = run_tournament(args[0], args[1], 6, args[2], progress=False)
    assert _games(more) == _games(fresh)
    # a killed run: the last games never written, the last line cut in the middle
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-4]) + "\n" + lines[-4][:25])
    again = run_tournament(args[0], args[1], 6, args[2], progress=False, results_path=path)
    assert again.played == 4 and _games(again) == _games(fresh)
    kinds = Counter()
    for line in path.read_text().splitlines():
        try:
            kinds[json.loads(line)["type"]] += 1
        except json.JSONDecodeError:
            kinds["cut"] += 1
    assert kinds == {"run": 3, "game": 18, "cut": 1}
    four = [*args[1], "threshold"]
    with pytest.raises(ConfigError, match="--fresh"):
        run_tournament(args[0], four, 2, {"num_players": 4}, progress=False, results_path=path)
    redo = run_tournament(
        args[0], four, 2, {"num_players": 4}, progress=False, results_path=path, fresh=True
    )
    assert redo.played == 8 and (tmp_path / "r.jsonl.bak1").exists()
    first_backup = (tmp_path / "r.jsonl.bak1").read_bytes()
    run_tournament(
        args[0], four, 1, {"num_players": 4}, progress=False, results_path=path, fresh=True
    )
    assert (tmp_path / "r.jsonl.bak1").read_bytes() == first_backup  # never overwritten
    assert (tmp_path / "r.jsonl.bak2").exists()


def test_changed_checkpoint_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    store = ResultsStore(path, {"game": "flip6", "config": {}, "fingerprints": {"a.zip": "1"}})
    store.load()
    store.begin()
    other = ResultsStore(path, {"game": "flip6", "config": {}, "fingerprints": {"a.zip": "2"}})
    with pytest.raises(ConfigError, match="has changed"):
        other.load()


# ---- command line --------------------------------------------------------------------------
def test_cli_writes_leaderboard_json_jsonl_and_report(tmp_path, capsys):
    out = tmp_path / "flip6.json"
    rc = evaluate.main(
        [
            "--game", "flip6", "--agents", TINY, "ev", "random", "--num-players", "3",
            "--deals", "3", "--workers", "1", "--out", str(out), "--no-progress",
            "--option", "target_score=40", "--bootstrap", "200",
        ]
    )  # fmt: skip
    assert rc == 0
    text = capsys.readouterr().out
    assert "head-to-head" in text and "random = 0" in text
    data = json.loads(out.read_text())
    assert data["options"] == {"num_players": 3, "target_score": 40}
    assert len(data["games"]) == 9
    game = data["games"][0]
    assert {"deal_seed", "lineup", "scores", "winners", "returns", "ranks"} <= set(game)
    assert data["rating"]["agents"]["random"]["rating"] == 0.0
    assert len(data["head_to_head"]["share"]) == 3
    assert len(out.with_suffix(".jsonl").read_text().splitlines()) == 10
    report = out.with_suffix(".md").read_text()
    assert "![rating](flip6_rating.png)" in report and "## Head-to-head" in report
    for png in ("flip6_rating.png", "flip6_h2h.png"):
        assert (tmp_path / png).read_bytes()[:4] == b"\x89PNG"


def test_plot_labels_wrap_long_specs_after_commas():
    from cardarena.agents.evaluation.report import tick_label

    spec = "pimc:worlds=64,min_worlds=6,rollout=tracker,horizon=round,value=leaf,gate=1.5"
    lines = tick_label(spec).split("\n")
    assert "".join(lines) == spec and len(lines) == 3
    assert all(len(line) <= 30 for line in lines)
    assert tick_label("tracker") == "tracker"
    assert tick_label("x" * 40) == "x" * 40  # one piece too long on its own stays whole


def test_a_report_with_a_long_search_spec_lays_its_plots_out(tmp_path, recwarn):
    # a 78-character spec once left matplotlib no room ("Tight layout not applied")
    long = "pimc:worlds=2,min_worlds=2,rollout=threshold,horizon=round,value=standing,gate=1.5"
    rc = evaluate.main(
        [
            "--game", "flip6", "--agents", long, "ev", "random", "--num-players", "3",
            "--deals", "1", "--workers", "1", "--out", str(tmp_path / "f.json"), "--no-progress",
            "--option", "target_score=20", "--bootstrap", "50",
        ]
    )  # fmt: skip
    assert rc == 0
    assert not [w for w in recwarn if "layout" in str(w.message).lower()]


def test_cli_cooperative_game_reports_teams_and_cross_play(tmp_path, capsys):
    out = tmp_path / "tg.json"
    rc = evaluate.main(
        ["--game", "thegame", "--agents", "greedy", "random", "--deals", "2", "--out", str(out),
         "--no-progress", "--workers", "1", "--bootstrap", "100"]
    )  # fmt: skip
    assert rc == 0
    assert "cross-play" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["cooperative"] and "rating" not in data
    assert {s["team"] for s in data["leaderboard"]} == {"greedy", "random", "greedy+random"}
    assert data["cross_play"]["games"] == [[2, 4], [4, 2]]
    assert (tmp_path / "tg_crossplay.png").exists()


def test_cli_reports_bad_agents_and_options(tmp_path, capsys):
    base = ["--game", "flip6", "--deals", "1", "--out", str(tmp_path / "x.json"), "--no-progress"]
    assert evaluate.main([*base, "--agents", "nope", "random"]) == 2
    assert evaluate.main([*base, "--agents", "no_such_module:make"]) == 2
    bad = [*base, "--agents", "ev", "random", "--num-players", "5", "--permutations"]
    assert evaluate.main(bad) == 2
    assert "up to 4 seats" in capsys.readouterr().err
