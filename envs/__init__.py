"""cardarena environments. ``envs.make("flip6", num_players=4)`` gives a PettingZoo AEC env.

Each game registers itself on import; adding a game is one line in ``GAMES``.
"""

import importlib

from cardarena.envs.core.registry import get_spec, make, make_raw, names

GAMES = ["flip6", "ratatat", "sevn", "suicidium", "thegame"]

for _game in GAMES:
    importlib.import_module(f"cardarena.envs.{_game}")

__all__ = ["GAMES", "get_spec", "make", "make_raw", "names"]
