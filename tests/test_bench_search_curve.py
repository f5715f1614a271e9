"""bench/search_curve.py: strength-against-time points from evaluate.py and search_time.py files."""

from __future__ import annotations

import json

import pytest

from bench.search_curve import main, points

SPECS = ["pimc:worlds=16,rollout=ev", "pimc:worlds=4,rollout=ev", "pimc:worlds=64,rollout=ev"]


def _result(tmp_path, spec, win_rate):
    path = tmp_path / f"{spec.split(',')[0].split('=')[1]}.json"
    board = [
        {
            "name": spec,
            "win_rate": win_rate,
            "win_ci": [win_rate - 0.03, win_rate + 0.03],
            "games": 400,
        },
        {"name": "ev", "win_rate": 0.25, "win_ci": [0.24, 0.26], "games": 1200},
    ]
    path.write_text(
        json.dumps({"game": "flip6", "options": {"num_players": 4}, "leaderboard": board})
    )
    return str(path)


def test_points_are_sorted_by_time_and_untimed_settings_are_reported(tmp_path):
    results = [_result(tmp_path, s, w) for s, w in zip(SPECS, (0.28, 0.26, 0.30), strict=True)]
    times = tmp_path / "times.json"
    times.write_text(json.dumps([{"agent": SPECS[0], "ms_per_decision": 5.0},
                                 {"agent": SPECS[1], "ms_per_decision": 1.5}]))  # fmt: skip
    pts, missing = points(results, [str(times)])
    assert [p["agent"] for p in pts] == [SPECS[1], SPECS[0]]  # 1.5 ms before 5 ms
    assert missing == [SPECS[2]]
    assert pts[0]["win_rate"] == 0.26 and pts[0]["players"] == 4


def test_the_plot_is_written_with_every_timed_point(tmp_path, capsys):
    results = [_result(tmp_path, s, w) for s, w in zip(SPECS, (0.28, 0.26, 0.30), strict=True)]
    times = tmp_path / "times.json"
    times.write_text(
        json.dumps(
            [{"agent": s, "ms_per_decision": m} for s, m in zip(SPECS, (5, 1.5, 20), strict=True)]
        )
    )
    out = tmp_path / "curve.png"
    assert main(["--results", *results, "--times", str(times), "--out", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    printed = capsys.readouterr().out
    assert printed.index("1.5 ms") < printed.index("5.0 ms") < printed.index("20.0 ms")


def test_a_results_file_without_exactly_one_search_agent_is_refused(tmp_path):
    path = tmp_path / "plain.json"
    path.write_text(json.dumps({"game": "flip6", "options": {}, "leaderboard": [
        {"name": "ev", "win_rate": 0.25, "win_ci": [0.2, 0.3], "games": 10}]}))  # fmt: skip
    with pytest.raises(SystemExit, match="exactly one search agent"):
        points([str(path)], [])
