"""Suicidium's privileged encoding: the hidden state, for a critic that only trains (never acts).

:func:`encode_privileged` gives every hand as card membership (``MAX_PLAYERS`` blocks of
``NUM_CARDS`` card ids, seats in absolute order like the observation; zeros for absent seats),
the next :data:`TOP_CARDS` cards of the draw pile (card-id one-hots, top first) and the top object
of the object pile (a one-hot over the object types). A training run with
``policy.privileged_critic: true`` appends it to the learner's observation for the value network
only (:mod:`agents.training.privileged`); no player ever reads it.
"""

from __future__ import annotations

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.suicidium.rules import MAX_PLAYERS, NUM_CARDS, NUM_OBJECT_TYPES, SuicidiumState

#: cards of the draw pile shown to the critic, from the top
TOP_CARDS = 3
_HANDS = MAX_PLAYERS * NUM_CARDS
SIZE = _HANDS + TOP_CARDS * NUM_CARDS + NUM_OBJECT_TYPES

#: length of :func:`encode_privileged`'s vector (the same for every table size)
privileged_size = parts.fixed_size(SIZE)


def encode_privileged(state: SuicidiumState, seat: int) -> np.ndarray:
    """Every hand, the top of the draw pile and of the object pile (float32, :data:`SIZE`);
    seats in absolute order, so ``seat`` is unused (the observation says which seat is the
    observer's)."""
    out = np.zeros(SIZE, dtype=np.float32)
    for s, hand in enumerate(state.hands):
        for card in hand:
            out[s * NUM_CARDS + card] = 1.0
    parts.pile_top(out, _HANDS, state.draw_pile, TOP_CARDS, NUM_CARDS)
    if state.object_pile:
        out[_HANDS + TOP_CARDS * NUM_CARDS + state.object_pile[-1]] = 1.0
    return out
