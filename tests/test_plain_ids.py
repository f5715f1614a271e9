"""The ids ``cardarena/<game>-v0`` work after a plain ``import cardarena`` (gymnasium and
PettingZoo, whichever is imported first) and through gymnasium's ``module:id`` with no import;
``tests/wheel_smoke.py`` checks the same from an installed wheel."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = {
    "gymnasium after import cardarena": (
        "import cardarena, gymnasium; print(gymnasium.make('cardarena/flip6-v0').reset(seed=0)[0].shape)"
    ),
    "gymnasium first, then cardarena": (
        "import gymnasium, cardarena; print(gymnasium.make('cardarena/ratatat-v0').reset(seed=0)[0].shape)"
    ),
    "gymnasium's module:id, no import": (
        "import gymnasium; print(gymnasium.make('cardarena:cardarena/sevn-v0').reset(seed=0)[0].shape)"
    ),
    "pettingzoo after import cardarena": (
        "import cardarena, pettingzoo; print(sorted(k for k in pettingzoo.aec_registry if 'cardarena' in k))"
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_plain_ids_work(case, tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", CASES[case]], capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip(), out.stderr[-2000:]


def test_importing_cardarena_imports_no_game_and_no_framework(tmp_path):
    code = (
        "import sys, cardarena; print([m for m in ('gymnasium', 'pettingzoo', 'torch', "
        "'cardarena.envs.flip6') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip() == "[]", out.stderr[-2000:]
