"""sevn's card deltas (``envs.sevn.encoding.card_deltas``, the "my next card" part of the
observation) are computed from a row's sums instead of scoring the row with each card; this checks
them against the plain definition, ``hand_score([*row, card]) - hand_score(row)`` with the rules
of S9-S11, on every table row of random games (busted rows, ballast, SECOND_CHANCE, bonuses and
SEVN included)."""

from __future__ import annotations

import numpy as np

from cardarena import envs
from cardarena.envs.sevn import encoding
from cardarena.envs.sevn.rules import (
    BALLAST_M2,
    FEATHERWEIGHT,
    LAST_MODIFIER,
    LAST_VALUE_CARD,
    NUM_CARD_KINDS,
    SEVN_VALUES,
    hand_score,
)


def _slow_deltas(values: int, row: list[int], second: bool) -> list[float]:
    now = hand_score(row)
    out = [0.0] * NUM_CARD_KINDS
    for card in range(NUM_CARD_KINDS):
        if card <= LAST_VALUE_CARD:
            if values >> card & 1:
                out[card] = 0.0 if second or card >= BALLAST_M2 else -float(now)
            else:
                after = hand_score([*row, card], values.bit_count() + 1 == SEVN_VALUES) - now
                out[card] = max(0.0, after) if card >= BALLAST_M2 else float(after)
        elif card <= LAST_MODIFIER or card >= FEATHERWEIGHT:
            out[card] = float(hand_score([*row, card]) - now)
    return out


def test_card_deltas_match_scoring_each_card() -> None:
    checked = 0
    for n in (2, 5, 8):
        engine = envs.get_spec("sevn").make_engine(num_players=n)
        for game in range(12):
            state = engine.new_game(np.random.default_rng(game))
            rng = np.random.default_rng(1000 + game)
            while not engine.is_over(state):
                for s in range(n):
                    args = (state.values[s], list(state.table[s]), state.has_second_chance[s])
                    fast = encoding.card_deltas(*args)
                    slow = _slow_deltas(*args)
                    assert fast == slow, f"{args}: {fast} != {slow}"
                    assert [type(x) for x in fast] == [type(x) for x in slow], args
                    checked += 1
                legal = engine.legal_actions(state)
                engine.apply(state, legal[int(rng.integers(len(legal)))])
    assert checked > 10_000
