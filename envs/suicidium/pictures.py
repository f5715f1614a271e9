"""The picture of a Suicidium table (``render_mode="rgb_array"``).

Per seat: its objects and lasting cards (public), then its hand: face up for the seat the picture
is for, the cards of other hands that seat has seen (``view["known"]``) face up, the rest backs;
the observer sees every hand. The middle shows the cards on the table and the piles.
"""

from __future__ import annotations

from typing import Any

from cardarena.envs.core.pictures import BACK, OBSERVER, Card, Table, seat_row
from cardarena.envs.suicidium.encoding import view
from cardarena.envs.suicidium.rules import CATALOGUE, ID_TO_CARD

#: a card's effect in a few words, at its foot (the full text: ``catalogue.card_text``)
_NOTES = {
    "points_one": "{a:+d} WP: one",
    "points_self_and_opponent": "{a:+d} WP: you+1",
    "points_opponents": "{a:+d} WP: others",
    "points_all": "{a:+d} WP: all",
    "points_gain_loss": "+{a} you, -{a} one",
    "skip_draw": "skips draw",
    "skip_main": "skips main",
    "shield": "shield",
    "discard_random": "discards {a}",
    "draw_discard": "draws {a}, discards",
    "steal_random": "steal a card",
    "peek": "see a hand",
    "exchange_hands": "swap hands",
    "draw": "draw {a} free",
    "recover": "take a discard",
    "cancel_points": "cancel POINTS",
    "cancel_event": "cancel EVENT",
    "cancel_any": "cancel any",
    "double": "double POINTS",
    "redirect": "redirect",
    "steal_played": "steal a play",
}


def card(code: str, tone: str | None = None, note: str | None = None) -> Card:
    """An action card face up: its full name, its effect in a few words, coloured by kind
    (POINTS that cost WP red, that give WP green, EVENT yellow, RESPONSE white)."""
    c = CATALOGUE[ID_TO_CARD[code]]
    if tone is None:
        kind_tone = {"EVENT": "special", "RESPONSE": "plain"}
        tone = kind_tone.get(c.kind) or ("bad" if c.amount < 0 else "good")
    return Card(
        c.name, tone=tone, note=_NOTES[c.effect].format(a=c.amount) if note is None else note
    )


def aimed(entry: dict[str, Any]) -> str:
    """A card on the table: its effect and where it goes (seats, or the card it answers)."""
    c = CATALOGUE[ID_TO_CARD[entry["card"]]]
    short = _NOTES[c.effect].format(a=c.amount).split(":")[0]
    if entry["target"] is not None:
        return f"{short} on {entry['target_index']}"
    if entry["seats"]:
        return f"{short} > {','.join(map(str, entry['seats']))}"
    return short


def layout(state: Any, seat: Any) -> Table:
    n = state.num_players
    v = view(state, seat if isinstance(seat, int) else 0)
    over = v["decision"] == "game_over"
    seats = []
    for s in range(n):
        public = [Card(o, tone="bad") for o in v["objects"][s]]
        public += [card(x["card"], "dim") for x in v["lasting"][s]]
        if s == seat:
            hand = [card(c) for c in v["hand"]]
        elif seat == OBSERVER:
            hand = [card(c) for c in view(state, s)["hand"]]
        else:
            known = v["known"][s] if isinstance(seat, int) else []
            hand = [card(c) for c in known] + [BACK] * (v["hand_sizes"][s] - len(known))
        info = f"WP {v['wp'][s]}  {'in' if v['in_game'][s] else 'OUT'}  hand {v['hand_sizes'][s]}"
        seats.append(
            seat_row(
                s, seat, info, public + hand, not over and v["decider"] == s, not v["in_game"][s]
            )
        )
    played = [card(e["card"], None if e["works"] else "dim", aimed(e)) for e in v["table"]]
    discard = v["discard_pile"]
    if over:
        status = f"game over: winners {', '.join(map(str, v['winners']))}"
    else:
        status = f"seat {v['decider']} to act: {v['decision'].replace('_', ' ')}"
    return Table(
        title=f"suicidium {v['mode'].lower()}  turn {v['turn']}  active seat {v['active']}"
        f"  {v['phase']}",
        seats=seats,
        piles=[
            ("on the table", played),
            (f"draw {v['draw_pile_size']}", [BACK] if v["draw_pile_size"] else []),
            (f"discard {len(discard)}", [card(discard[-1])] if discard else []),
        ],
        status=status,
    )
