"""sevn: the saved-state fields where any value ``from_dict`` accepts is a state the game can reach.

Each key is a regular expression over a field's dotted path (``scores.1``, ``rng.state.inc``),
each value why every value ``from_dict`` accepts there is reachable. ``tests/test_from_dict.py``
fails a corruption that ``from_dict`` accepts in any other field. The checks named here are
``SevnGame.check_state`` (``envs/sevn/rules.py``); rule ids are those of ``docs/rules/sevn.md``.
"""

REACHABLE: dict[str, str] = {
    r"rng(\..+)?": "the generator only decides the cards not yet dealt: every state numpy accepts "
    "(checked to be exactly what to_dict writes) is a possible future of the deal",
    r"scores\.\d+": "a game starts from any totals (reset option scores); from_dict keeps only "
    "totals that hold this hand's banks and the last hand's, and that no single seat had won "
    "at or above target_score before this hand (S27)",
    r"target_score": "any target in the option's range [1, 100000] is a game's option (S27); the "
    "totals are checked against it (not won before this hand, the winner's at or above it)",
    r"dealer": "the first dealer is an option (S7, reset option dealer), so any seat deals any "
    "hand; what the deal order fixes is checked (nobody passed and the first turn left of the "
    "dealer during the deal, the seats not dealt yet, who decides on a dealt card)",
    r"next_turn": "the seat left of whoever took the last turn (S8): any seat, the last turn "
    "taker having drawn, passed or frozen itself; checked: during the deal left of the dealer, at "
    "a turn no seat still in the hand between it and the decider, else the decision came from "
    "the last turn, the deal or the queue (S18)",
    r"hand_index": "from 1 on, any count of hands before this one fits (a hand where every seat "
    "busts changes no total, S20); the first hand (0) is checked: no last hand's record, the "
    "discard pile only what this hand discarded (no reshuffle can happen in it, S26), and the "
    "cards per seat its decisions allow",
    r"last_banked\.\d+": "per seat, -1 (busted, S20) or a value of the exact set of hand scores "
    "a row gives (S21-S25, with SEVN's 17 for last_sevn, S10), at most the seat's total before "
    "this hand; no rule reads it again",
    r"last_sevn": "-1 (the last hand ended with nobody left, S19) or a seat whose last bank is a "
    "SEVN hand score (S10); once the game is over, a seat still in the hand (checked)",
    r"decisions": "a counter no rule reads: from a hand's cards one reads only a least count "
    "(passes, targets, FORK picks, kept ballast, S8-S16); later hands add any number of earlier "
    "decisions (a drawn ballast discarded is two, S11), the first hand at most two per card drawn",
    r"table\.\d+": "which seat drew which card is the shuffled draw pile's order (S26): from_dict "
    "keeps rows that hold each value once (a busted row ending with its one duplicate, S9), at "
    "most 6 values (S10), a FREEZE exactly when frozen (S13), one SECOND_CHANCE at most (S14), "
    "the banks of the seats that left (S8), a not yet dealt seat's cards from queued draws (S7), "
    "and in the first hand no more cards than its decisions allow",
    r"draw_pile": "its order is a shuffle (S26) and its cards are the deck less the other zones; "
    "in the first hand the discard pile is checked to hold only what that hand discarded",
    r"discard_pile": "after the first hand it holds the cleared tables and discards since the "
    "last reshuffle, any cards in any order (S26); in the first hand only what the hand "
    "discarded (one card per FORK resolved, SECOND_CHANCEs with the numbers they saved, ballast)",
}
