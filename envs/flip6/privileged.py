"""Flip 6's privileged encoding: the hidden state, for a critic that only trains (never acts).

Everything on the table is public in Flip 6 (F3); the one hidden thing is the order of the draw
pile. :func:`encode_privileged` gives the next :data:`TOP_CARDS` cards of the pile (top first,
each a card-kind one-hot; zeros past the end of the pile). A training run with
``policy.privileged_critic: true`` appends it to the learner's observation for the value network
only (:mod:`agents.training.privileged`); no player ever reads it.
"""

from __future__ import annotations

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.flip6.rules import NUM_CARD_KINDS, Flip6State

#: cards of the draw pile shown to the critic, from the top
TOP_CARDS = 8
SIZE = TOP_CARDS * NUM_CARD_KINDS

#: length of :func:`encode_privileged`'s vector (the same for every table size)
privileged_size = parts.fixed_size(SIZE)


def encode_privileged(state: Flip6State, seat: int) -> np.ndarray:
    """The top of the draw pile as one-hots (float32, :data:`SIZE`); ``seat`` is unused (the
    hidden state is the same for every seat)."""
    out = np.zeros(SIZE, dtype=np.float32)
    parts.pile_top(out, 0, state.draw_pile, TOP_CARDS, NUM_CARD_KINDS)
    return out
