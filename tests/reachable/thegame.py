"""thegame: the saved-state fields where any value ``from_dict`` accepts is a state the game can reach.

Each key is a regular expression over a field's dotted path (``scores.1``, ``rng.state.inc``),
each value why every value ``from_dict`` accepts there is reachable. ``tests/test_from_dict.py``
fails a corruption that ``from_dict`` accepts in any other field.
"""

REACHABLE: dict[str, str] = {
    r"rng(\..+)?": "the generator only decides the cards not yet dealt: every state numpy accepts "
    "(checked to be exactly what to_dict writes) is a possible future of the deal",
    r"signals_on": "the option (G11) only adds actions nobody has to take: a game without signals "
    "is one with signals where nobody signalled, and with it off from_dict refuses any signal "
    "set or changed (and decisions must count the changes the signals shown need)",
    r"min_cards_when_empty": "the option (G4) only sets the minimum once the draw pile is empty: "
    "while the pile lasts both values play alike, and with it empty from_dict requires `minimum` "
    "to be the option and, under 2, every ended turn to have placed 2 cards",
    r"decisions|turn_index": "decisions = cards played + ended turns + signal changes, and "
    "the cards on the piles below those played are a scenario's (reset option `piles`): from_dict "
    "keeps the plays between what the ended turns placed at least (2 a turn while the draw pile "
    "lasts, G4; after it, at most the cards each hand lacks, turns going round, G3/G7) and at most "
    "(a hand a turn, G2; the cards on the piles), and the signal changes between what the signals "
    "shown need and one per pile a turn of their owner (G11); any such count is a deal with that "
    "many cards placed beforehand",
}
