"""The Suicidium action-card catalogue: loads and checks ``catalogue.yaml`` (rules U30-U34).

The catalogue is data: the engine never names a card, it reads each card's ``kind``, ``effect`` and
``amount`` from here. ``EFFECTS`` is the closed list of effect primitives the engine implements
(U20-U28); loading fails with a clear message when a card names anything else, so a catalogue edit
cannot silently produce a card the engine ignores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from cardarena.envs.core.engine import ConfigError

CATALOGUE_PATH = Path(__file__).with_name("catalogue.yaml")

KINDS = ("POINTS", "EVENT", "RESPONSE")
SETS = ("base", "party")

#: who a card's player chooses when playing it (U8, U10)
TARGET_NONE = "none"  # no choice: recipients follow from the effect
TARGET_ANY = "any_player"  # one player still in the game, the card's player included
TARGET_OPPONENT = "opponent"  # one other player still in the game
TARGET_CARD = "card"  # one card on the table (responses)

#: effect -> (kind, targeting, takes an amount); the only effects the engine implements
EFFECTS: dict[str, tuple[str, str, bool]] = {
    # POINTS (U8, U11)
    "points_one": ("POINTS", TARGET_ANY, True),
    "points_self_and_opponent": ("POINTS", TARGET_OPPONENT, True),
    "points_opponents": ("POINTS", TARGET_NONE, True),
    "points_all": ("POINTS", TARGET_NONE, True),
    "points_gain_loss": ("POINTS", TARGET_OPPONENT, True),
    # EVENT: lasting (U25, U27)
    "skip_draw": ("EVENT", TARGET_OPPONENT, False),
    "skip_main": ("EVENT", TARGET_OPPONENT, False),
    "shield": ("EVENT", TARGET_ANY, False),
    # EVENT: hand effects (U26)
    "discard_random": ("EVENT", TARGET_OPPONENT, True),
    "draw_discard": ("EVENT", TARGET_OPPONENT, True),
    "steal_random": ("EVENT", TARGET_OPPONENT, False),
    "peek": ("EVENT", TARGET_OPPONENT, False),
    "exchange_hands": ("EVENT", TARGET_OPPONENT, False),
    # EVENT: self effects (U28)
    "draw": ("EVENT", TARGET_NONE, True),
    "recover": ("EVENT", TARGET_NONE, False),
    # RESPONSE (U20-U24)
    "cancel_points": ("RESPONSE", TARGET_CARD, False),
    "cancel_event": ("RESPONSE", TARGET_CARD, False),
    "cancel_any": ("RESPONSE", TARGET_CARD, False),
    "double": ("RESPONSE", TARGET_CARD, False),
    "redirect": ("RESPONSE", TARGET_CARD, False),
    "steal_played": ("RESPONSE", TARGET_CARD, False),
}

_ID_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Card:
    """One action card; ``index`` is its position in the catalogue (the action index base)."""

    index: int
    id: str
    name: str
    kind: str
    effect: str
    amount: int
    set: str

    @property
    def text(self) -> str:
        return card_text(self)


def card_text(card: Card) -> str:
    """The card's rule text in this suite's words (renders, docs)."""
    a = card.amount
    sign = f"{a:+d}"
    return {
        "points_one": f"one player {sign} WP",
        "points_self_and_opponent": f"you and an opponent {sign} WP",
        "points_opponents": f"all opponents {sign} WP",
        "points_all": f"all players {sign} WP",
        "points_gain_loss": f"you +{a} WP, an opponent -{a} WP",
        "skip_draw": "an opponent skips the draw phase of its next turn",
        "skip_main": "an opponent skips the main phase of its next turn",
        "shield": "a player ignores POINTS that lower its WP until the end of its next turn",
        "discard_random": f"an opponent discards {a} random card{'s' * (a != 1)}",
        "draw_discard": f"an opponent draws {a} then discards {a} of its choice",
        "steal_random": "take a random card from an opponent's hand",
        "peek": "look at an opponent's hand",
        "exchange_hands": "exchange hands with an opponent",
        "draw": f"draw {a} card{'s' * (a != 1)} (no WP cost)",
        "recover": "take a card of your choice from the discard pile (earlier turns)",
        "cancel_points": "cancel a POINTS card",
        "cancel_event": "cancel an EVENT card",
        "cancel_any": "cancel any card (responses included)",
        "double": "a POINTS card changes WP once more by its base value",
        "redirect": "choose new recipients for a POINTS or EVENT card",
        "steal_played": "at the end of the turn, take a card on the table into your hand",
    }[card.effect]


def _check_amount(where: str, effect: str, takes_amount: bool, amount: Any) -> None:
    if takes_amount:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise ConfigError(f"{where}: effect {effect!r} needs a non-zero integer amount")
        if effect in ("points_gain_loss", "discard_random", "draw_discard", "draw"):
            if amount < 0:
                raise ConfigError(f"{where}: amount of {effect!r} must be positive")
    elif amount:
        raise ConfigError(f"{where}: effect {effect!r} takes no amount")


def load_catalogue(path: str | Path = CATALOGUE_PATH) -> list[Card]:
    """Read and check the catalogue: unique ids and names, known kinds, sets and effects."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"cannot read the suicidium catalogue {path}: {err}") from None
    entries = raw.get("cards") if isinstance(raw, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path}: expected a top-level 'cards' list")
    cards: list[Card] = []
    ids: set[str] = set()
    names: set[str] = set()
    for i, entry in enumerate(entries):
        where = f"{path.name} card #{i} ({entry.get('id') if isinstance(entry, dict) else entry!r})"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: each card is a mapping")
        unknown = set(entry) - {"id", "name", "kind", "effect", "amount", "set"}
        if unknown:
            raise ConfigError(f"{where}: unknown fields {sorted(unknown)}")
        cid, name = str(entry.get("id", "")), str(entry.get("name", ""))
        kind, effect, card_set = entry.get("kind"), entry.get("effect"), entry.get("set", "base")
        if not _ID_PATTERN.match(cid):
            raise ConfigError(f"{where}: id must match {_ID_PATTERN.pattern}")
        if cid in ids or cid in ("RAZOR", "NOOSE", "POISON", "BOOTH", "HARAKIRI"):
            raise ConfigError(f"{where}: duplicate id {cid!r}")
        if not name or name in names:
            raise ConfigError(f"{where}: missing or duplicate name {name!r}")
        if kind not in KINDS:
            raise ConfigError(f"{where}: kind must be one of {KINDS}, got {kind!r}")
        if card_set not in SETS:
            raise ConfigError(f"{where}: set must be one of {SETS}, got {card_set!r}")
        if effect not in EFFECTS:
            raise ConfigError(
                f"{where}: effect {effect!r} is not implemented; known: {sorted(EFFECTS)}"
            )
        want_kind, _, takes_amount = EFFECTS[effect]
        if kind != want_kind:
            raise ConfigError(f"{where}: effect {effect!r} belongs to {want_kind} cards")
        amount = entry.get("amount", 0)
        _check_amount(where, effect, takes_amount, amount)
        ids.add(cid)
        names.add(name)
        cards.append(Card(len(cards), cid, name, kind, effect, int(amount), card_set))
    return cards
