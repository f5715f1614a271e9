"""Fixtures and parametrizations shared by the test files.

- ``@pytest.mark.every_game``: runs a test whose arguments are ``name, n`` (or ``game, n``) for
  every registered game at its smallest and largest player count; ``every_game(middle=True)``
  adds a count in between. The ids read ``sevn-8p``.
- ``user_project``: an empty folder holding a user's own ``agents`` and ``envs`` packages (each
  ``OWNER = "user"``), to prove that ours live apart under ``cardarena``.
- ``tiny_actor``: a small random network (``tests/tiny_policy.py``) for a game, built on demand.

The helpers that play scripted moves (``tests/scenario.py``) and the tiny network agents
(``tests/tiny_policy.py``, also usable as the agent spec ``tiny_policy:make``) are plain modules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from scenario import player_counts
from tiny_policy import actor_for

from cardarena import envs
from cardarena.agents.policy import NumpyActor


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "every_game(middle=False): parametrize name, n over every game at its smallest and "
        "largest player count (and a middle one with middle=True)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("every_game")
    if marker is None:
        return
    middle = marker.kwargs.get("middle", False)
    first = "game" if "game" in metafunc.fixturenames else "name"
    metafunc.parametrize(
        (first, "n"),
        [
            pytest.param(game, n, id=f"{game}-{n}p")
            for game in envs.names()
            for n in player_counts(game, middle=middle)
        ],
    )


@pytest.fixture
def user_project(tmp_path: Path) -> Path:
    for name in ("agents", "envs"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text('OWNER = "user"\n')
    return tmp_path


@pytest.fixture
def tiny_actor() -> Callable[..., NumpyActor]:
    return actor_for
