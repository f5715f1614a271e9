"""Every script in examples/ runs from the repository root with its tiny default budget, as a user
would run it (a subprocess), and examples/README.md lists it.

examples/rllib_train.py is run by tests/test_rllib.py (it needs RLlib and a local Ray instance).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

#: script -> (extra arguments besides the tiny defaults, what its output must contain)
RUNS = {
    "custom_agent.py": ([], ["custom_agent:make", "head-to-head"]),
    "lookahead_search.py": ([], ["flip6: lookahead (4 rollouts/action) against random"]),
    "sb3_train.py": (["--out", "{tmp}/flip6_sb3.zip"], ["sb3:{tmp}/flip6_sb3.zip", "head-to-head"]),
    "replay_and_video.py": (["--out", "{tmp}"], [": OK (", ".gif: "]),
    "llm_fake.py": ([], ["llm:llm_fake:ask", "-- transcript: 1 repl(y/ies) asked", "ACTION: "]),
}
ELSEWHERE = {"rllib_train.py": "tests/test_rllib.py"}


def test_every_example_is_run_and_listed():
    scripts = sorted(p.name for p in EXAMPLES.glob("*.py"))
    assert scripts == sorted([*RUNS, *ELSEWHERE])
    listing = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for name in scripts:
        assert f"({name})" in listing, f"examples/README.md does not link {name}"
        lines = (EXAMPLES / name).read_text(encoding="utf-8").count("\n")
        assert lines <= 120, f"{name} has {lines} lines: an example should stay short"


@pytest.mark.parametrize("script", sorted(RUNS))
def test_example_runs_with_its_tiny_budget(script, tmp_path):
    extra, expected = RUNS[script]
    args = [a.format(tmp=tmp_path) for a in extra]
    done = subprocess.run(
        [sys.executable, str(Path("examples") / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for text in expected:
        assert text.format(tmp=tmp_path) in done.stdout, done.stdout[-3000:]
