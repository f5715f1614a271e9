"""evaluate.py checks every argument before the first game, with an error that names the value and
the fix; and the leaderboard does not depend on the order of the games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardarena.evaluate as evaluate
from cardarena.agents.evaluation.records import GameRecord, TournamentResult
from cardarena.agents.evaluation.report import leaderboard_text

BASE = ["--game", "flip6", "--deals", "2", "--no-progress", "--no-report", "--workers", "1"]
AGENTS = ["--agents", "ev", "random", "threshold", "random"]  # 4 seats


@pytest.mark.parametrize(
    "args, says",
    [
        (["--out", "{tmp}/x.jsonl"], ["must end in .json", "x.json"]),
        (["--out", "{tmp}/x.md"], ["must end in .json", "x.json"]),
        (["--out", "{tmp}/dir/"], ["is a directory", "flip6.json"]),
        (["--out", "{tmp}"], ["is a directory"]),
        (["--out", "{tmp}/f.txt/x.json"], ["is not a writable folder"]),
        (["--report", "{tmp}/o.json"], ["must be a .md file"]),
        (["--game", "flip7"], ["unknown game 'flip7'", "flip6"]),
        (["--deals", "0"], ["--deals must be at least 1, got 0"]),
        (["--workers", "0"], ["--workers must be at least 1, got 0"]),
        (["--bootstrap", "0"], ["--bootstrap must be at least 1, got 0"]),
        (["--batch-games", "0"], ["--batch-games must be at least 1"]),
        (["--first-seed", "-1"], ["--first-seed must be at least 0, got -1"]),
        (["--option", "target_score"], ["KEY=VALUE", "'target_score'"]),
        (["--option", "targetscore=40"], ["'targetscore'", "target_score"]),
        (["--option", "target_score=abc"], ["target_score", "'abc'"]),
        (["--option", "num_players=3", "--num-players", "4"], ["already set", "once"]),
        (["--num-players", "5", "--permutations"], ["up to 4 seats"]),
        (["--address", "auto"], ["--backend ray"]),
    ],
)
def test_bad_arguments_are_refused_before_any_game(tmp_path, capsys, args, says):
    (tmp_path / "f.txt").write_text("a file where a folder is wanted")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    out = [] if "--out" in args else ["--out", str(tmp_path / "o.json")]
    base = [a for a in BASE if a != "--no-report"] if "--report" in args else BASE
    rc = evaluate.main([*base, *AGENTS, *out, *args])
    err = capsys.readouterr().err
    assert rc == 2, err
    for text in says:
        assert text in err, err
    assert not list(tmp_path.rglob("*.jsonl")), "nothing may be played or written"


def test_too_few_agents_for_the_seats_is_refused_but_repeats_on_purpose_are_fine(tmp_path, capsys):
    out = ["--out", str(tmp_path / "o.json")]
    assert evaluate.main([*BASE, *out, "--agents", "ev", "random", "threshold"]) == 2
    err = capsys.readouterr().err
    assert "4 seats needs 4 agents, got 3" in err and "--num-players 3" in err
    assert not (tmp_path / "o.jsonl").exists()
    assert evaluate.main([*BASE, *out, "--agents", "ev", "random", "threshold", "ev"]) == 0


def test_the_api_has_the_commands_rule_for_fewer_agents_than_seats(tmp_path):
    """run_tournament refuses what evaluate.py refuses, with the same message, before any game;
    a cooperative game seats each agent as a whole team, so one agent is a whole table."""
    from cardarena.agents.evaluation.schedule import check_enough_agents
    from cardarena.agents.evaluation.tournament import run_tournament
    from cardarena.envs.core.errors import ConfigError

    lineup = ["ev", "random", "threshold"]
    with pytest.raises(ConfigError) as refused:
        run_tournament(
            "sevn", lineup, 2, {}, progress=False, results_path=tmp_path / "r.jsonl"
        )  # sevn's default table has 4 seats
    with pytest.raises(ConfigError) as cli:
        check_enough_agents("sevn", lineup, 4)
    assert str(refused.value) == str(cli.value)
    assert "4 seats needs 4 agents, got 3" in str(refused.value)
    assert "ev random threshold threshold" in str(refused.value)  # how to fix it
    assert not (tmp_path / "r.jsonl").exists()
    full = run_tournament("sevn", [*lineup, "threshold"], 1, {}, progress=False, bootstrap=10)
    assert all(len(r.lineup) == 4 for r in full.records)
    team = run_tournament("thegame", ["greedy"], 1, {"num_players": 2}, progress=False)
    assert [r.lineup for r in team.records] == [["greedy", "greedy"]]


def test_unknown_agent_and_checkpoint_of_another_game_fail_before_games(tmp_path, capsys):
    out = ["--out", str(tmp_path / "o.json")]
    assert evaluate.main([*BASE, *out, "--agents", "ev", "random", "threshold", "nope"]) == 2
    assert "nope" in capsys.readouterr().err
    zoo = Path(evaluate.__file__).parent / "agents" / "zoo" / "ratatat.zip"
    if zoo.exists():
        assert evaluate.main([*BASE, *out, "--agents", "ev", "random", "threshold", str(zoo)]) == 2
        assert "ratatat" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


# ---- ranks that do not depend on the order of the games ----------------------------------------
def _synthetic(num_seeds: int, agents: list[str], seed: int = 0) -> list[GameRecord]:
    """Rotations of ``agents`` per deck seed with made-up scores (agent i is a bit stronger)."""
    rng = random.Random(seed)
    out = []
    n = len(agents)
    for s in range(num_seeds):
        for j in range(n):
            lineup = [agents[(j + i) % n] for i in range(n)]
            scores = [rng.random() + 0.15 * agents.index(a) for a in lineup]
            best = max(range(n), key=lambda i: scores[i])
            ranks = [sorted(scores, reverse=True).index(x) for x in scores]
            out.append(GameRecord(s, lineup, scores, scores, [best], 10, ranks))
    return out


def _table(
    records: list[GameRecord], agents: list[str], rank_by: str = "rating", bootstrap: int = 200
) -> str:
    result = TournamentResult(
        game="flip6",
        options={"num_players": len(agents)},
        agents=agents,
        num_deals=len({r.deal_seed for r in records}),
        records=records,
        tables_per_deal=len(agents),
        bootstrap=bootstrap,
        rank_by=rank_by,
    )
    return leaderboard_text(result)


def test_leaderboard_does_not_depend_on_the_order_of_the_games():
    agents = ["random", "a", "b", "c"]
    records = _synthetic(60, agents)
    table = _table(records, agents)
    assert "ranked by rating" in table
    for shuffle_seed in range(3):
        shuffled = list(records)
        random.Random(shuffle_seed).shuffle(shuffled)
        assert _table(shuffled, agents) == table
        assert _table(shuffled, agents, "win-rate") == _table(records, agents, "win-rate")
    assert "ranked by win rate" in _table(records, agents, "win-rate")
    lines = [line for line in table.splitlines() if line.strip()[:1] in "│┃|" and " c " in line]
    assert lines and "1" in lines[0].split()[1]  # the strongest agent first


def test_cli_rank_by_win_rate_says_so(tmp_path, capsys):
    out = ["--out", str(tmp_path / "o.json")]
    args = [*BASE, *out, "--agents", "ev", "random", "threshold", "ev", "--rank-by", "win-rate"]
    assert evaluate.main(args) == 0
    assert "ranked by win rate" in capsys.readouterr().out


def test_end_of_run_statistics_memory_does_not_grow_with_replicates_times_games():
    """Peak memory of the leaderboard's statistics stays a few numbers per deck seed (bench:
    bench/eval_memory.py, 200,000 games). The old bootstrap index matrices took replicates x
    deck seeds (and replicates x games for the rating): ~1 GiB here."""
    import tracemalloc

    agents = ["random", "a", "b", "c"]
    records = _synthetic(10_000, agents)  # 40,000 games
    tracemalloc.start()
    try:
        text = _table(records, agents, bootstrap=1000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "random" in text
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MiB"


def test_a_network_trained_for_another_mode_is_refused_before_any_game(tmp_path, capsys):
    """zoo:suicidium_depression at a SURVIVE table (the default mode) is an error naming the
    option and the fix; with --option mode=DEPRESSION it plays."""
    out = tmp_path / "r.json"
    base = ["--game", "suicidium", "--num-players", "2", "--deals", "1", "--no-progress"]
    agents = ["--agents", "zoo:suicidium_depression", "heuristic"]
    assert evaluate.main([*base, *agents, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "mode='DEPRESSION'" in err and "--option mode=DEPRESSION" in err
    assert not out.exists()
    assert evaluate.main([*base, *agents, "--option", "mode=depression", "--out", str(out)]) == 0
