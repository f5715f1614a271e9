"""bench/baseline_speed.py: scripted-baseline games/s (a smoke test; the figures are in bench/)."""

from __future__ import annotations

import pytest


def test_baseline_speed_bench_runs(tmp_path, capsys) -> None:
    """bench/baseline_speed.py times every scripted baseline of a game and writes its JSON;
    bad arguments are refused before any work."""
    import json

    from bench.baseline_speed import main

    out = tmp_path / "speed.json"
    assert main(["--games", "sevn", "--num-games", "2", "--repeats", "1", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [r["baseline"] for r in rows] == ["threshold", "ev"]
    assert all(r["games_per_s"] > 0 and r["decisions_per_s"] > r["games_per_s"] for r in rows)
    assert "ev" in capsys.readouterr().out
    for bad in (["--games", "poker"], ["--num-games", "0"]):
        with pytest.raises(SystemExit):
            main(bad)
