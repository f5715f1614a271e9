"""The import names cardarena installs cannot shadow, or be shadowed by, a user's own ``envs`` and
``agents`` packages: everything lives under ``cardarena`` (setup.py maps the checkout's folders
there). The built wheel in a fresh virtual environment is checked by ``make wheel-smoke`` (CI).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cardarena
from cardarena.agents.training.config import find_config, load_config, packaged_configs
from cardarena.envs.core.engine import ConfigError

USER_FIRST = """
import agents, envs                       # the user's own packages, imported first
import gymnasium
import cardarena.envs                     # registers cardarena/<game>-v0
env = gymnasium.make("cardarena/flip6-v0")
obs, info = env.reset(seed=0)
env.step(int(info["action_mask"].nonzero()[0][0]))
from cardarena.agents import make_agent
make_agent("flip6", "zoo:flip6")
import agents, envs
assert agents.OWNER == envs.OWNER == "user", (agents.__file__, envs.__file__)
print("ok")
"""

OURS_FIRST = """
import gymnasium
env = gymnasium.make("cardarena.envs:cardarena/sevn-v0")  # gymnasium imports the package itself
env.reset(seed=0)
import agents, envs
assert agents.OWNER == envs.OWNER == "user", (agents.__file__, envs.__file__)
print("ok")
"""


@pytest.mark.parametrize("script", [USER_FIRST, OURS_FIRST], ids=["user-first", "ours-first"])
def test_a_users_own_agents_and_envs_packages_do_not_collide(user_project, script):
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=user_project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_the_default_configs_are_found_by_name_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert {"flip6", "ratatat", "sevn", "thegame"} <= set(packaged_configs())
    assert load_config("flip6").game == "flip6"
    assert load_config("configs/sevn.yaml").game == "sevn"
    with pytest.raises(ConfigError, match="'nope.yaml' not found.*flip6"):
        find_config("nope.yaml")
    with pytest.raises(ConfigError, match="not found"):  # a path elsewhere is never redirected
        find_config(tmp_path / "elsewhere" / "flip6.yaml")


def test_the_package_says_what_it_holds():
    assert cardarena.__version__
    for name in ("cardarena.envs", "cardarena.agents", "cardarena.train", "cardarena.evaluate"):
        __import__(name)


def test_a_plain_checkout_imports_without_the_install(tmp_path):
    """From a checkout on ``PYTHONPATH`` with the editable install's finder taken out, every
    import name is the checkout's folder (``cardarena.envs`` is ``envs/``, ...) and a game plays."""
    root = Path(__file__).resolve().parents[1]
    code = (
        "import sys\n"
        "found = [f for f in sys.meta_path if 'editable' in getattr(f, '__module__', '')]\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if f not in found]\n"
        "import cardarena.envs, cardarena.agents, cardarena.configs\n"
        "from cardarena import envs\n"
        "env = envs.flip6.env(); env.reset(seed=0)\n"
        "from cardarena.agents import make_agent; make_agent('flip6', 'ev')\n"
        "print(len(found), cardarena.envs.__file__, cardarena.agents.__file__,"
        " cardarena.configs.__path__[0])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    _, envs_file, agents_file, configs_dir = out.stdout.split()  # (finders taken out: 1 here)
    assert envs_file == str(root / "envs" / "__init__.py")
    assert agents_file == str(root / "agents" / "__init__.py")
    assert configs_dir == str(root / "configs")
