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
(``pip install -e .`` maps them here; see ``setup.py``).
"""

__version__ = "0.1.0"
