"""cardarena: card-game environments for reinforcement-learning research.

The installed import names all live under this one package, so a project's own ``envs`` or
``agents`` modules can neither shadow nor be shadowed by ours:

- ``cardarena.envs``: the games (PettingZoo AEC envs, gymnasium ids ``cardarena/<game>-v0``);
- ``cardarena.agents``: the players, training (``agents.training``), evaluation
  (``agents.evaluation``) and tools (human play, replays);
- ``cardarena.configs``: the default training configs;
- ``cardarena.train`` / ``cardarena.evaluate``: the commands ``cardarena-train`` and
  ``cardarena-evaluate``.

In a checkout these are the folders ``envs/``, ``agents/`` and ``configs/`` at the top level
(``pip install -e .`` maps them here; see ``setup.py``). Without the install, a checkout on the
path still imports: this package then also looks in the checkout's root, so ``cardarena.envs``
is the folder ``envs/`` (``docs/ARCHITECTURE.md``, "One import name", has the whole map).
"""

import os as _os

__version__ = "0.1.0"

_ROOT = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if _os.path.isfile(_os.path.join(_ROOT, "setup.py")) and _os.path.isfile(
    _os.path.join(_ROOT, "envs", "core", "spec.py")
):  # a checkout: cardarena.envs, .agents, .configs are the folders envs/, agents/, configs/
    __path__.append(_ROOT)

# the ids cardarena/<game>-v0 with gymnasium and PettingZoo, now or when they are first imported
# (the registry imports no game, no gymnasium, no PettingZoo): gymnasium.make works after a plain
# `import cardarena`, and gymnasium.make("cardarena:cardarena/flip6-v0") with no import at all
from cardarena import envs as _envs  # noqa: E402,F401

# the one error family: every refusal of a bad input by an engine, an env or a command is one of
# these (each also a ValueError, TypeError, KeyError or RuntimeError as fits), so that
# `except cardarena.CardArenaError` catches them all
from cardarena.envs.core.errors import (  # noqa: E402,F401
    ActionTypeError,
    AgentFault,
    CardArenaError,
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
    ResetNeededError,
    UnknownAgentError,
)
