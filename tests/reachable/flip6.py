"""flip6: the saved-state fields where any value ``from_dict`` accepts is a state the game can reach.

Each key is a regular expression over a field's dotted path (``scores.1``, ``rng.state.inc``),
each value why every value ``from_dict`` accepts there is reachable. ``tests/test_from_dict.py``
fails a corruption that ``from_dict`` accepts in any other field.
"""

REACHABLE: dict[str, str] = {
    r"rng(\..+)?": "the generator only decides the cards not yet dealt: every state numpy accepts "
    "(checked to be exactly what to_dict writes) is a possible future of the deal",
}
