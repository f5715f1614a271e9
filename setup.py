"""Package layout for setuptools (the metadata is in pyproject.toml).

The checkout keeps ``envs/``, ``agents/`` and ``configs/`` at the top level; installed, they are
``cardarena.envs``, ``cardarena.agents`` and ``cardarena.configs``, so that no import name we
install is a common word a user's own project may also use. Every folder with an
``__init__.py`` under them is a package (tests/test_packaging.py checks the built wheel).
"""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
FOLDERS = {
    "cardarena": "cardarena",
    "cardarena.envs": "envs",
    "cardarena.agents": "agents",
    "cardarena.configs": "configs",
}


def packages() -> list[str]:
    out = []
    for name, folder in FOLDERS.items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            rel = init.parent.relative_to(ROOT / folder)
            out.append(".".join([name, *rel.parts]) if rel.parts else name)
    return out


setup(
    packages=packages(),
    package_dir=FOLDERS,
    package_data={
        "": ["game.toml"],  # every game's manifest (envs/<game>/game.toml)
        "cardarena.agents": ["zoo/*.zip", "zoo/*.json", "zoo/leaf/*.npz"],
        "cardarena.envs.suicidium": ["*.yaml"],
        "cardarena.configs": ["*.yaml"],
    },
)
