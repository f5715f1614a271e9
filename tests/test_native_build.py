"""The native core is optional: an install without it (no Cython, no C compiler, a failed build,
or ``CARDARENA_NO_NATIVE=1``) succeeds with a one-line warning and runs on the Python core."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WARNING = "cardarena: native core not built"
#: every game's native core (setup.py builds each one)
SOURCES = sorted(ROOT.glob("envs/*/_native.pyx"))


def build_ext(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``setup.py build_ext`` into ``tmp_path`` (the checkout's in-place build is left alone)."""
    return subprocess.run(
        [
            sys.executable,
            "setup.py",
            "-q",
            "build_ext",
            "--build-lib",
            str(tmp_path / "lib"),
            "--build-temp",
            str(tmp_path / "temp"),
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def built_modules(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "lib").rglob("_native*.so")) + sorted(
        (tmp_path / "lib").rglob("_native*.pyd")
    )


def test_cardarena_no_native_builds_nothing_and_says_so(tmp_path):
    out = build_ext(tmp_path, CARDARENA_NO_NATIVE="1")
    assert out.returncode == 0, out.stderr[-3000:]
    warnings = [line for line in out.stderr.splitlines() if line.startswith(WARNING)]
    assert warnings == [f"{WARNING} (CARDARENA_NO_NATIVE is set); using the Python core"]
    assert built_modules(tmp_path) == []


def test_a_failing_compiler_leaves_a_working_install_with_one_warning(tmp_path):
    out = build_ext(tmp_path, CC="false", LDSHARED="false")
    assert out.returncode == 0, out.stderr[-3000:]
    warnings = [line for line in out.stderr.splitlines() if line.startswith(WARNING)]
    games = sorted(pyx.parent.name for pyx in ROOT.glob("envs/*/_native.pyx"))
    assert len(warnings) == 1, out.stderr[-3000:]  # one line, however many extensions failed
    if importlib.util.find_spec("Cython") is None:  # nothing to compile with: it says so
        assert "Cython is not installed" in warnings[0], warnings[0]
    else:
        for game in games:
            assert f"cardarena.envs.{game}._native" in warnings[0], warnings[0]
    assert built_modules(tmp_path) == []


NOT_BUILT = """
import sys
sys.modules["cardarena.envs.flip6._native"] = None  # as if the extension were not built
sys.modules["cardarena.envs.sevn._native"] = None
import numpy as np
from cardarena import envs
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.flip6 import encoding, native
assert not native.NATIVE_BUILT and not native.NATIVE_AVAILABLE
assert native.native_encoder() is None and encoding.encode is encoding.encode_python
try:
    native.NativeFlip6Game(4)
except ConfigError as err:
    assert "native core is not built" in str(err), err
else:
    raise AssertionError("NativeFlip6Game without the extension")
from cardarena.envs.sevn import encoding as sevn_encoding, native as sevn_native
assert not sevn_native.NATIVE_BUILT and sevn_native.native_encoder() is None
assert sevn_encoding.encode is sevn_encoding.encode_python
try:
    sevn_native.NativeSevnGame(4)
except ConfigError as err:
    assert "native core is not built" in str(err), err
else:
    raise AssertionError("NativeSevnGame without the extension")
for game, options in (("flip6", None), ("sevn", {"scores": [240] * 4})):
    env = envs.make(game)
    env.reset(seed=0, options=options)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
print("ok")
"""


def test_without_the_extension_everything_runs_on_the_python_core():
    out = subprocess.run(
        [sys.executable, "-c", NOT_BUILT], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


@pytest.mark.skipif(
    shutil.which("gcc") is None or importlib.util.find_spec("Cython") is None,
    reason="needs gcc and Cython in this environment",
)
def test_the_extension_is_compiled_without_floating_point_contraction(tmp_path):
    log = tmp_path / "cc.log"
    wrapper = tmp_path / "cc"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec gcc "$@"\n')
    wrapper.chmod(0o755)
    out = build_ext(tmp_path, CC=str(wrapper))
    assert out.returncode == 0 and WARNING not in out.stderr, out.stderr[-3000:]
    assert len(built_modules(tmp_path)) == len(SOURCES)
    compile_lines = [line for line in log.read_text().splitlines() if " -c " in line]
    assert len(compile_lines) == len(SOURCES)
    for compile_line in compile_lines:
        flags = compile_line.split()
        assert "-ffp-contract=off" in flags
        assert [f for f in flags if f.startswith("-O")][-1] == "-O2"  # the last -O wins
