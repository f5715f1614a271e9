"""Smoke test of an installed cardarena (a built wheel in a fresh virtual environment).

Run by ``make wheel-smoke`` (part of CI) from an empty directory that holds a user's own
``agents`` and ``envs`` packages, with the venv's python, so nothing of the checkout is
importable: every game makes, steps and plays through gymnasium; every zoo agent loads and is
ranked by the installed ``cardarena-evaluate``; the default configs and the commands are there.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import sysconfig
from pathlib import Path

import gymnasium
import numpy as np

import cardarena
from cardarena import envs
from cardarena.agents import best_baseline, make_agent
from cardarena.agents.training.config import load_config, packaged_configs

site = Path(sysconfig.get_paths()["purelib"]).resolve()
assert Path(cardarena.__file__).resolve().is_relative_to(site), cardarena.__file__
users_agents = importlib.import_module("agents")  # the user's own package, next to ours
assert users_agents.OWNER == "user", users_agents.__file__

BIN = Path(sys.executable).parent  # the venv's console scripts (the venv need not be activated)

# the licence ships in the wheel
from importlib.metadata import files  # noqa: E402

assert any(f.name == "LICENSE" for f in files("cardarena") or []), "no LICENSE in the wheel"

# the plain ids: after a bare `import cardarena`, and through gymnasium's module:id with no import
for code in (
    "import cardarena, gymnasium; gymnasium.make('cardarena/flip6-v0').reset(seed=0)",
    "import gymnasium; gymnasium.make('cardarena:cardarena/thegame-v0').reset(seed=0)",
    "import cardarena, pettingzoo; assert 'cardarena/sevn-v0' in pettingzoo.aec_registry",
):
    subprocess.run([sys.executable, "-c", code], check=True)
print("plain ids: gymnasium.make after `import cardarena` and with cardarena:<id>: ok")


def random_game(game: str, seed: int) -> int:
    env = envs.make(game)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _seat in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


for game in envs.names():
    print(f"{game}: {random_game(game, 0)} random moves;", end=" ")
    gym_env = gymnasium.make(f"cardarena/{game}-v0")
    obs, info = gym_env.reset(seed=1)
    obs, reward, term, trunc, info = gym_env.step(int(np.flatnonzero(info["action_mask"])[0]))
    print(f"gymnasium step ok, observation {obs.shape}")

assert {"flip6", "sevn", "thegame"} <= set(packaged_configs()), packaged_configs()
assert load_config("flip6").game == "flip6"

# the browser table's page ships in the wheel; the MCP server needs its extra and says so
from importlib import resources  # noqa: E402

page = resources.files("cardarena.agents.tools.web").joinpath("static/index.html")
assert page.is_file(), "the browser table's page is not in the wheel"
helped = subprocess.run([BIN / "cardarena-mcp", "--help"], capture_output=True, text=True)
assert helped.returncode == 0 and helped.stdout.startswith("usage: cardarena-mcp"), helped
try:
    import mcp as _mcp  # noqa: F401
except ImportError:  # the plain wheel: the server refuses to start, naming the extra
    out = subprocess.run(
        [BIN / "cardarena-mcp"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert out.returncode == 2 and "cardarena[mcp]" in out.stderr, (out.returncode, out.stderr)
print("browser page in the wheel; cardarena-mcp without its extra names the extra: ok")

zoo = sorted(p.stem for p in (Path(cardarena.agents.__file__).parent / "zoo").glob("*.zip"))
assert zoo, "no zoo agents in the installed package"
for name in zoo:
    game = name.split("_")[0]
    agent = make_agent(game, f"zoo:{name}")
    trained = {k: v for k, v in agent.actor.meta.get("env", {}).items() if k != "num_players"}
    field = best_baseline(game)
    players = max(2, envs.get_spec(game).engine_cls.min_players)
    out = subprocess.run(
        [
            BIN / "cardarena-evaluate",
            "--game",
            game,
            "--num-players",
            str(players),
            "--deals",
            "2",
            *[f"--option={k}={v}" for k, v in trained.items()],
            "--agents",
            f"zoo:{name}",
            *[field] * (players - 1),
            "--no-progress",
            "--out",
            f"results/{name}.json",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    print(f"zoo:{name} ranked against {field} ({trained or 'default options'}): ok")

# the search's shipped round values come with the package: a gated pimc decides without a fit
from cardarena.agents.search import leaf  # noqa: E402

shipped = sorted(p.name for p in leaf.SHIPPED.glob("*.npz"))
named = [p.name for g in envs.names() for p in leaf.manifest_fits(g)]
assert shipped == sorted(named), shipped  # the round_values and state_values of the manifests
engine = envs.get_spec("sevn").make_engine(num_players=4)
leaf.fit = None  # a fit would fail here (None is not callable): the shipped file must be used
assert leaf.leaf_value("sevn", engine, "ev", progress=False) is not None
print(f"shipped round values: {', '.join(shipped)}: ok")

# every game's native core is in the wheel when it was built with a C compiler, is the default,
# and plays the Python core's games (the same seed, the same states and observations)
import shutil  # noqa: E402

compiler = bool(shutil.which("cc") or shutil.which("gcc"))
for game in envs.names():
    spec = envs.get_spec(game)
    encoding = importlib.import_module(spec.encoder)
    if not spec.native_engine:
        print(f"{game}: no native core: the Python core")
        continue
    if compiler:
        assert spec.native_built(), f"the wheel was built without {game}'s native core"
        assert encoding.encode is not encoding.encode_python, game
    if not spec.native_built():
        print(f"{game} native core: not built (no C compiler): the Python core")
        continue
    py, nat = spec.make_engine(core="python"), spec.make_engine()
    assert type(nat) is spec.engine_class("native"), game
    for seed in range(10):
        a, b = py.new_game(np.random.default_rng(seed)), nat.new_game(np.random.default_rng(seed))
        while not py.is_over(a):
            assert py.to_dict(a) == nat.to_dict(b), (game, seed)
            seat = py.current_player(a)
            want = encoding.encode_python(a, seat)
            assert b.encode(seat).tobytes() == want.tobytes(), (game, seed)
            legal = py.legal_actions(a)
            action = legal[seed % len(legal)]
            py.apply(a, action, seat)
            nat.apply(b, action, seat)
        assert py.returns(a) == nat.returns(b) and nat.is_over(b), (game, seed)
    print(f"{game} native core: the default, 10 games as on the Python core: ok")
