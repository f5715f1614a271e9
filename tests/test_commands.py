"""Help texts name the command as the user runs it: the console scripts when installed
(``cardarena-train --config flip6``), the checkout's forms from a checkout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


@pytest.mark.parametrize("command", ["train", "evaluate", "play", "replay", "serve", "mcp"])
def test_a_console_scripts_help_names_the_console_script(command):
    script = BIN / f"cardarena-{command}"
    if not script.exists():
        pytest.skip(f"{script.name} is not installed in this environment")
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith(f"usage: cardarena-{command}")
    assert "python train.py" not in out.stdout and "python evaluate.py" not in out.stdout
    assert "python -m cardarena" not in out.stdout and "configs/flip6.yaml" not in out.stdout


def test_the_checkouts_commands_keep_their_own_forms():
    out = subprocess.run(
        [sys.executable, "train.py", "--help"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("usage: python train.py")
    assert "python train.py --config configs/flip6.yaml" in out.stdout
    installed = subprocess.run(
        [str(BIN / "cardarena-train"), "--help"], capture_output=True, text=True
    )
    if installed.returncode == 0:
        assert "cardarena-train --config flip6 " in installed.stdout
