"""Model cards of the pretrained agents: ``agents/zoo/<name>.json`` beside ``<name>.zip``.

A card says what the network is (game, observation size and encoder, network), how it was
trained (the config and commit, the date, the seed, the recipe's results page) and how strong
it measured (table, opponents, games, win rate with its 95% interval, verdict, date and the
command that measured it), and holds the checkpoint's SHA-256, so a retrained file without a new
card fails a test (``tests/test_model_cards.py``). ``evaluate.py --describe zoo:NAME`` prints it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cardarena.agents.specs import ZOO_DIR
from cardarena.envs.core.errors import ConfigError


def zoo_names() -> list[str]:
    return sorted(p.stem for p in ZOO_DIR.glob("*.zip"))


def card(spec: str) -> dict[str, Any]:
    """The model card of ``zoo:NAME`` (a ConfigError naming the pretrained agents otherwise)."""
    name = spec[4:] if spec.startswith("zoo:") else spec
    path = ZOO_DIR / f"{name}.json"
    if name not in zoo_names() or not path.is_file():
        raise ConfigError(
            f"no model card for {spec!r}; the pretrained agents are "
            f"{['zoo:' + n for n in zoo_names()]}"
        )
    return json.loads(path.read_text())


def file_hash(name: str) -> str:
    return hashlib.sha256((ZOO_DIR / f"{name}.zip").read_bytes()).hexdigest()


def describe(spec: str) -> str:
    """The card as text for a terminal."""
    c = card(spec)
    s, t = c["strength"], c["trained"]
    table = ", ".join(f"{k}={v}" for k, v in s["table"].items())
    lines = [
        f"{c['agent']}: a {c['game']} network {c['network'].get('net_arch')} "
        f"({c['network'].get('activation')}), observation of {c['observation']['size']} numbers "
        f"({c['observation']['encoder']})",
        f"trained: {t['config']} at commit {t['commit']} ({t['date']}, seed {t['seed']}); "
        f"the recipe: {t['recipe']}",
        f"strength ({s['measured']}): win rate {s['win_rate']:.3f} [{s['ci95'][0]:.3f}, "
        f"{s['ci95'][1]:.3f}] over {s['games']:,} games at {table} against {s['against']}: "
        f"{s['verdict']}",
        f"measured by: {s['command']}",
        f"file: agents/zoo/{Path(c['agent'][4:]).name}.zip, sha256 {c['file_sha256'][:16]}...",
    ]
    return "\n".join(lines)
