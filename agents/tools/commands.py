"""How the user started a command, so that help texts and hints show that same command.

Installed, the commands are console scripts (``cardarena-train``, ...); in a checkout they are
also ``python train.py`` and friends. The texts are written with the checkout's forms, and
:func:`for_user` rewrites them into the installed ones when this process is a console script
(and packaged configs by name: ``--config flip6`` instead of ``--config configs/flip6.yaml``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys

#: command -> (the checkout's form, the console script)
COMMANDS = {
    "train": ("python train.py", "cardarena-train"),
    "evaluate": ("python evaluate.py", "cardarena-evaluate"),
    "play": ("python -m cardarena.agents.tools.play", "cardarena-play"),
    "replay": ("python -m cardarena.agents.tools.replay", "cardarena-replay"),
    "serve": ("python -m cardarena.agents.tools.web", "cardarena-serve"),
    "mcp": ("python -m cardarena.agents.tools.mcp_server", "cardarena-mcp"),
}


def installed_command() -> str | None:
    """The console script this process runs as (``cardarena-train``, ...), or None."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    name = name.removesuffix(".exe")
    return name if name in {script for _, script in COMMANDS.values()} else None


def for_user(text: str) -> str:
    """``text`` with the checkout's command forms as the user runs them (see the module)."""
    if installed_command() is None:
        return text
    for checkout, script in COMMANDS.values():
        text = text.replace(checkout, script)
    return re.sub(r"configs/(\w+)\.yaml", r"\1", text)


def prog(command: str) -> str:
    """argparse's ``prog`` for ``command``: the console script or the checkout's form."""
    checkout, script = COMMANDS[command]
    return script if installed_command() == script else checkout


class UserHelp(argparse.RawDescriptionHelpFormatter):
    """argparse's raw-description formatter whose whole help goes through :func:`for_user`."""

    def format_help(self) -> str:
        return for_user(super().format_help())
