"""flip6: the saved-state fields where any value ``from_dict`` accepts is a state the game can reach.

Each key is a regular expression over a field's dotted path (``scores.1``, ``rng.state.inc``),
each value why every value ``from_dict`` accepts there is reachable. ``tests/test_from_dict.py``
fails a corruption that ``from_dict`` accepts in any other field.
"""

REACHABLE: dict[str, str] = {
    r"rng(\..+)?": "the generator only decides the cards not yet dealt: every state numpy accepts "
    "(checked to be exactly what to_dict writes) is a possible future of the deal",
    r"target_score": "any target of the option's range (1..10,000): from_dict holds every total "
    "under it while the game runs and every winner to have crossed it with its last bank (F17)",
    r"scores\.\d+": "a game total is any start the reset option scores gives (under the target) "
    "plus what the seat banked since; from_dict holds a seat that banked this round to at least "
    "that round score (F14), every total under the target while the game runs, and a winner "
    "to have been under it before its last bank (F17, F18)",
    r"flip6_seat": "any seat may have made the last Flip 6 of an earlier round, or none (-1); "
    "from_dict requires -1 before any round ended and the maker after a game-ending Flip 6 (F9)",
    r"decisions": "no bound above: a used EXTRA_LIFE goes to the discard pile with its duplicate "
    "(F10, F16), which a reshuffle deals again, so a seat can keep drawing it and cancelling "
    "duplicates for any number of HITs in one round; from_dict holds the count to at least the "
    "hits, stays and aims the table shows and one per seat in each finished round (F6-F12)",
    r"round_index": "any number of rounds: a round where every seat busts banks nothing (F8), so "
    "the totals never reach the target; from_dict holds decisions to one per seat in each "
    "finished round, flip6_seat to -1 before any ended, and the first round's piles to no "
    "reshuffle",
    r"dealer": "the reset option dealer starts any seat as dealer and the deal then moves one "
    "seat left a round (F4), so any dealer comes with any round_index; from_dict holds the deal "
    "and the turns on the table to run clockwise from left of it (F5, F6)",
}
