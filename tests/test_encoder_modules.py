"""The sevn and suicidium encoders are split into modules of one job each; every public name stays
importable from ``envs.<game>.encoding``, and no module of the split grows past 400 lines."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PUBLIC = {
    "sevn": [
        "OBS_SIZE",
        "QUEUE_SHOWN",
        "SEAT_BLOCK",
        "bust_chance",
        "card_deltas",
        "encode",
        "next_card_counts",
        "render",
        "view",
    ],
    "suicidium": [
        "CARD_PLANES",
        "GLOBAL_SIZE",
        "OBS_SIZE",
        "P_AIMS_AT_ME",
        "P_DISCARD",
        "P_HAND",
        "P_KNOWN",
        "P_MINE",
        "P_PENDING",
        "P_PENDING_TARGET",
        "P_RECIPIENT",
        "P_RESPONSES_ON",
        "P_TABLE",
        "P_WORKS",
        "SEAT_BLOCK",
        "encode",
        "match_chance",
        "object_pile_counts",
        "projected_changes",
        "render",
        "view",
    ],
}


@pytest.mark.parametrize("game", sorted(PUBLIC))
def test_public_names_importable_from_encoding(game):
    module = importlib.import_module(f"cardarena.envs.{game}.encoding")
    missing = [name for name in PUBLIC[game] if not hasattr(module, name)]
    assert not missing, f"cardarena.envs.{game}.encoding lost {missing}"
    assert set(PUBLIC[game]) <= set(module.__all__)


@pytest.mark.parametrize("game", sorted(PUBLIC))
def test_encoder_modules_stay_short(game):
    files = sorted((ROOT / "envs" / game).glob("encoding*.py"))
    assert len(files) > 1
    long = {f.name: n for f in files if (n := len(f.read_text().splitlines())) > 400}
    assert not long, f"{game} encoder modules over 400 lines: {long}"
