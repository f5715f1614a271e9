"""suicidium: the saved-state fields where any value ``from_dict`` accepts is a state the game can reach.

Each key is a regular expression over a field's dotted path (``scores.1``, ``rng.state.inc``),
each value why every value ``from_dict`` accepts there is reachable. ``tests/test_from_dict.py``
fails a corruption that ``from_dict`` accepts in any other field.
"""

REACHABLE: dict[str, str] = {
    r"rng(\..+)?": "the generator only decides the cards not yet dealt: every state numpy accepts "
    "(checked to be exactly what to_dict writes) is a possible future of the deal",
    r"turn": "the count of turns played, passes included (U9): the cards and seats do not record "
    "how many turns led to them (a turn may only draw, U7); check_state holds it to what they do "
    "record: >= 1, the arrival turns of lasting events (U27), at most the decisions turns can ask, "
    "no table resolved before turn 2",
    r"res_idx": "outside a resolution the size of the last table resolved (0 before the first, "
    "U11 leaves it), which nothing else records: any size a turn can lay (0..3n+3, U8, U10) after "
    "turn 1; during a resolution check_state pins it to the working card that asks the decision "
    "or ended the game",
    r"discard_mark": "the discard pile's size when the turn started (U28 reads it): check_state "
    "pins it before the resolution (only the draw's discard-one-draw-one lies above it, U7); in "
    "a resolution or an ended game it may lie below the pile's size by what the resolved discard "
    "effects (U26) and the hands of seats that left the game (U5) added, and the pile does not "
    "record which of its cards came this turn",
    r"played\.\d+\.seats\.\d+": "a recipient is its player's choice (U8, U23) among the seats the "
    "card allows, which check_state enforces: in the game when played (before the resolution: "
    "in the game now; during it: in the game or hit by a card resolved so far), an opponent where "
    "the card says so, its player first for 'you and an opponent' (U30); WP before a resolved "
    "card is not recorded, so another recipient is another history",
    r"drew": "the cards drawn this turn: check_state holds it to the hand after the draw (the hand "
    "with the cards played since: at most 7 after drawing 2 or more, an opener for draw 0, U4, "
    "U7, U9) and to the WP paid (U7); WP before the draw is not recorded",
    r"hands\.\d+|draw_pile": "how many cards and which lie in a hand or in the draw pile is "
    "another deal or history while the deck is conserved (checked): the reset option hands "
    "deals any hand up to 7 before the first decision (U4), and later a hand grows or shrinks by "
    "the draws a player chooses (0 up to 7 minus its hand, U7) and by effects past 7 (U4); "
    "from_dict holds a hand to at most 7 at the first decision, to the cards drawn and WP paid "
    "this turn (drew), and known cards to hands",
}
