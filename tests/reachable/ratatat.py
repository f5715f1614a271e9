"""ratatat: the saved-state fields where any value ``from_dict`` accepts is a state the game can reach.

Each key is a regular expression over a field's dotted path (``scores.1``, ``rng.state.inc``),
each value why every value ``from_dict`` accepts there is reachable. ``tests/test_from_dict.py``
fails a corruption that ``from_dict`` accepts in any other field.

The knowledge fields (``seen_at``, ``knowers``, ``changed_at``, ``gens``) are pinned by
``check_state`` wherever the round's log (its last 12-24 moves) says what happened to a slot, and
bounded by the round otherwise; what is left free is the history before the log, which the saved
state does not keep, or entries no rule or observation reads.
"""

REACHABLE: dict[str, str] = {
    r"rng(\..+)?": "the generator only decides the cards not yet dealt: every state numpy accepts "
    "(checked to be exactly what to_dict writes) is a possible future of the deal",
    r"scores\.\d+": "R15: a total is the starting total of the reset option scores (checked in "
    "0..36 x num_rounds) plus the round_scores since, so every accepted total is a game started "
    "with that option; the totals decide nothing else until the end (winners are checked)",
    r"round_scores\.\d+\.\d+": "R15: an earlier round's row sums (the last round's are pinned by "
    "last_rows), checked to fit one deck (each 0..36, the k highest rows at most the 4k highest "
    "number cards, the k lowest at least the 4k lowest); the scores' starting total absorbs them",
    r"round_index": "R16: the reset option round_index starts a game in any round (0 to "
    "num_rounds - 1); it is checked at least the number of round_scores since and under "
    "num_rounds while the game runs (num_rounds once over), and no rule reads it before the end",
    r"last_knocker": "R10/R12: any seat can knock, or play the capped last turn, of a finished "
    "round; once the deck is reshuffled (R16) the order of R14's replacements leaves no trace",
    r"max_turns|num_rounds|memory": "the game's options (R12, R16, what a seat sees), saved with "
    "the state: accepted only where the turns, knock choices, rounds and totals fit them, so "
    "the same moves reach this state in a game made with that option",
    r"seen_at\.\d+": "R17: when a seat saw a slot's card. An entry of a seat that does not know "
    "the slot is never read (a look, placement or swap rewrites it first); a known one is pinned "
    "by the logged moves that touched the slot, else lies after the round's deal at the earliest "
    "and before the log's first move, history the state does not keep",
    r"knowers\.\d+\.\d+(\.\d+)?": "R17/R18: who knows a slot is pinned by the logged move that "
    "last touched it (a taken discard: all; a drawn card: its owner; a logged peek: its owner) "
    "and by the deal when the log holds the whole round; a slot last swapped or moved before "
    "the log carries knowledge from moves the state does not keep (peeks and swaps reach any set)",
    r"changed_at\.\d+": "the decision a slot's card last moved: pinned by the logged moves (and "
    "the deal when the log holds the whole round), else between the round's earliest possible "
    "deal and the log's first move, from moves the state does not keep",
    r"gens\.\d+": "R11: the draw pile a hidden card came from: -1 exactly for public cards, "
    "pinned for the deal's when the log holds the whole round, else a pile from the earliest "
    "this round's deal can have made (one a round before) to pile_gen, drawn by moves the "
    "state does not keep",
}
