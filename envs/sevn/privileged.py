"""SEVN's privileged encoding, for a critic that only trains (never acts): the order of the draw
pile, the one thing hidden in SEVN (S7, S16, S26 deal every card face up).

:func:`encode_privileged` is Flip 6's (``envs/flip6/privileged.py``) over SEVN's 31 card kinds:
the next :data:`TOP_CARDS` cards, top first, as one-hots. ``policy.privileged_critic: true``
gives it to the value network only (:mod:`agents.training.privileged`).
"""

from __future__ import annotations

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.sevn.rules import NUM_CARD_KINDS, SevnState

TOP_CARDS = 8  #: cards of the draw pile shown to the critic, from the top
SIZE = TOP_CARDS * NUM_CARD_KINDS
privileged_size = parts.fixed_size(SIZE)  #: the same for every table size


def encode_privileged(state: SevnState, seat: int) -> np.ndarray:
    """The top of the draw pile as one-hots (float32, :data:`SIZE`); ``seat`` is unused."""
    out = np.zeros(SIZE, dtype=np.float32)
    parts.pile_top(out, 0, state.draw_pile, TOP_CARDS, NUM_CARD_KINDS)
    return out
