"""bench/strength.py runs end to end on a tiny budget (the claims themselves are measured by
``make strength``, not by the unit suite: their verdicts need thousands of games)."""

from __future__ import annotations

import json


def test_strength_bench_writes_every_kind_of_row(tmp_path):
    from bench.strength import main

    out = tmp_path / "strength.json"
    args = ["--deals", "2", "--scale", "0.02", "--workers", "1", "--out", str(out)]
    assert main([*args, "--zoo", "flip6", "thegame"]) == 0  # without --check: always 0
    rows = json.loads(out.read_text())
    assert {r["kind"] for r in rows} == {"zoo", "ladder", "settings"}
    assert {r["agent"] for r in rows if r["kind"] == "zoo"} == {"zoo:flip6", "zoo:thegame"}
    assert all(isinstance(r["holds"], bool) for r in rows)
    # a team row has no seat rotations: it plays 4x the deals, as many games as a 4-player row
    assert {r["agent"]: r["games"] for r in rows if r["kind"] == "zoo"} == {
        "zoo:flip6": 8,
        "zoo:thegame": 8,
    }
    # a claim that cannot be shown on 8 games fails --check
    assert main([*args, "--zoo", "flip6", "--only", "zoo", "--check"]) == 1
