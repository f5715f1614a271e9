"""The import names cardarena installs cannot shadow, or be shadowed by, a user's own ``envs`` and
``agents`` packages: everything lives under ``cardarena`` (setup.py maps the checkout's folders
there). The built wheel in a fresh virtual environment is checked by ``make wheel-smoke`` (CI).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

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
