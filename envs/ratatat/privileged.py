"""Ratatat's privileged encoding: the hidden state, for a critic that only trains (never acts).

:func:`encode_privileged` gives every card that some seat cannot see: each slot's card (seats in
absolute order like the observation, ``MAX_PLAYERS`` x 4 card-kind one-hots, zeros for absent
seats), each row's number sum /36 (specials count 0), the card in the deciding player's hand and
the next :data:`TOP_CARDS` cards of the draw pile (top first). A training run with
``policy.privileged_critic: true`` appends it to the learner's observation for the value network
only (:mod:`agents.training.privileged`); no player ever reads it.
"""

from __future__ import annotations

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.ratatat.rules import MAX_PLAYERS, NUM_CARD_KINDS, SLOTS_PER_SEAT, RatatatState

#: cards of the draw pile shown to the critic, from the top
TOP_CARDS = 4
_SLOTS = MAX_PLAYERS * SLOTS_PER_SEAT
_ROWS = _SLOTS * NUM_CARD_KINDS
SIZE = _ROWS + MAX_PLAYERS + NUM_CARD_KINDS + TOP_CARDS * NUM_CARD_KINDS

#: length of :func:`encode_privileged`'s vector (the same for every table size)
privileged_size = parts.fixed_size(SIZE)


def encode_privileged(state: RatatatState, seat: int) -> np.ndarray:
    """Every slot, the row sums, the card in hand and the top of the draw pile (float32,
    :data:`SIZE`); seats in absolute order, so ``seat`` is unused (the observation says which
    seat is the observer's)."""
    out = np.zeros(SIZE, dtype=np.float32)
    for i, card in enumerate(state.slots):
        if card >= 0:
            out[i * NUM_CARD_KINDS + card] = 1.0
            if card < 10:
                out[_ROWS + i // SLOTS_PER_SEAT] += card / 36.0
    if state.held >= 0:
        out[_ROWS + MAX_PLAYERS + state.held] = 1.0
    parts.pile_top(
        out, _ROWS + MAX_PLAYERS + NUM_CARD_KINDS, state.draw_pile, TOP_CARDS, NUM_CARD_KINDS
    )
    return out
