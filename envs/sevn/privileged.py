"""SEVN's privileged encoding: the hidden state, for a critic that only trains (never acts).

As in Flip 6, every dealt card is public (S7, S16, S26); the one hidden thing is the order of the
draw pile. :func:`encode_privileged` gives its next :data:`TOP_CARDS` cards (top first, each a
card-kind one-hot; zeros past the end of the pile). A training run with
``policy.privileged_critic: true`` appends it to the learner's observation for the value network
only (:mod:`agents.training.privileged`); no player ever reads it.
"""

from __future__ import annotations

import numpy as np

from cardarena.envs.sevn.rules import NUM_CARD_KINDS, SevnState

#: cards of the draw pile shown to the critic, from the top
TOP_CARDS = 8
SIZE = TOP_CARDS * NUM_CARD_KINDS


def privileged_size(engine: object) -> int:
    """Length of :func:`encode_privileged`'s vector (the same for every table size)."""
    return SIZE


def encode_privileged(state: SevnState, seat: int) -> np.ndarray:
    """The top of the draw pile as one-hots (float32, :data:`SIZE`); ``seat`` is unused."""
    out = np.zeros(SIZE, dtype=np.float32)
    for i, card in enumerate(reversed(state.draw_pile[-TOP_CARDS:])):
        out[i * NUM_CARD_KINDS + card] = 1.0
    return out
