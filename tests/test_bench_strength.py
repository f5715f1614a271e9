"""bench/strength.py runs end to end on a tiny budget (the claims themselves are measured by
``make strength``, not by the unit suite: their verdicts need thousands of games)."""

from __future__ import annotations

import json

import pytest

from cardarena.agents.evaluation.seeds import EVALUATION, EVALUATION_FIRST_SEED


def test_strength_bench_writes_every_kind_of_row(tmp_path):
    from bench.strength import main

    out = tmp_path / "strength.json"
    args = ["--deals", "2", "--scale", "0.02", "--workers", "1", "--out", str(out)]
    assert main([*args, "--zoo", "flip6", "thegame"]) == 0  # without --check: always 0
    rows = json.loads(out.read_text())
    assert {r["kind"] for r in rows} == {"zoo", "ladder", "settings"}
    assert {r["agent"] for r in rows if r["kind"] == "zoo"} == {"zoo:flip6", "zoo:thegame"}
    assert all(isinstance(r["holds"], bool) for r in rows)
    # every row on the evaluation range, from its first seed (never the deals that chose)
    for r in rows:
        assert r["seeds"][0] == EVALUATION_FIRST_SEED and r["seeds"][1] in EVALUATION, r
    # a team row has no seat rotations: it plays 4x the deals, as many games as a 4-player row
    assert {r["agent"]: r["games"] for r in rows if r["kind"] == "zoo"} == {
        "zoo:flip6": 8,
        "zoo:thegame": 8,
    }
    # a claim that cannot be shown on 8 games fails --check
    assert main([*args, "--zoo", "flip6", "--only", "zoo", "--check"]) == 1


def _measured(win_rate, ci, seen):
    """A stand-in for ``agent_row``: a measured row without playing (the verdict from ``ci``)."""
    from bench.strength import par_verdict

    def row(kind, agent, game, opts, deals, workers, first_seed, results_path=None):
        seen.append(first_seed)
        return {
            "kind": kind,
            "agent": agent,
            "game": game,
            "options": opts,
            "seeds": [first_seed, first_seed + deals - 1],
            "against": "best",
            "games": 4 * deals,
            "value": win_rate,
            "ci": list(ci),
            "reference": "par 0.25",
            "verdict": par_verdict(ci, 0.25),
        }

    return row


@pytest.mark.parametrize(
    ("kind", "name", "claims"),
    [("zoo", "ratatat", "CLAIMS"), ("search", "flip6", "SEARCH_CLAIMS")],
)
def test_a_claim_that_does_not_hold_makes_check_exit_1(tmp_path, monkeypatch, kind, name, claims):
    """A fake measured row at par (0.251 [0.241, 0.261]) against a "beats" claim: --check
    exits 1 and names it; the same row against an "at par" claim passes."""
    import bench.strength as strength

    seen: list[int] = []
    monkeypatch.setattr(strength, "agent_row", _measured(0.251, (0.241, 0.261), seen))
    out = tmp_path / "strength.json"
    args = ["--only", kind, f"--{kind}", name, "--deals", "3", "--check", "--out", str(out)]
    monkeypatch.setitem(getattr(strength, claims), name, "beats")
    assert strength.main(args) == 1
    row = json.loads(out.read_text())[0]
    assert (row["claimed"], row["verdict"], row["holds"]) == ("beats", "at par", False)
    assert strength.main([a for a in args if a != "--check"]) == 0  # without --check: 0
    monkeypatch.setitem(getattr(strength, claims), name, "at par")
    assert strength.main(args) == 0
    assert seen and set(seen) == {EVALUATION_FIRST_SEED}  # measured on the evaluation range


def test_a_team_verdict_reads_both_intervals_not_the_means():
    """thegame's zoo team: 0.392 next to the planner team's 0.387 is at par (the intervals
    overlap); beats / below par only with separate intervals."""
    from bench.strength import team_verdict

    assert team_verdict((0.376, 0.407), (0.371, 0.402)) == "at par"
    assert team_verdict((0.420, 0.450), (0.371, 0.402)) == "beats"
    assert team_verdict((0.300, 0.350), (0.371, 0.402)) == "below par"
