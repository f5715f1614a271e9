"""The Game's privileged encoding: the hidden state, for a critic that only trains (never acts).

:func:`encode_privileged` gives every hand as card membership (``MAX_PLAYERS`` blocks of
``NUM_CARDS``, seats RELATIVE to ``seat`` like the observation: block 0 is the seat's own hand,
block k the k-th seat after it; zeros for absent seats) and the next :data:`TOP_CARDS` cards of
the draw pile (value /``HIGHEST``, top first; 0 past its end). A training run with
``policy.privileged_critic: true`` appends it to the learner's observation for the value network
only (:mod:`agents.training.privileged`); no player ever reads it.
"""

from __future__ import annotations

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.thegame.rules import HIGHEST, LOWEST, MAX_PLAYERS, NUM_CARDS, TheGameState

#: cards of the draw pile shown to the critic, from the top
TOP_CARDS = 8
SIZE = MAX_PLAYERS * NUM_CARDS + TOP_CARDS

#: length of :func:`encode_privileged`'s vector (the same for every table size)
privileged_size = parts.fixed_size(SIZE)


def encode_privileged(state: TheGameState, seat: int) -> np.ndarray:
    """Every hand (seats relative to ``seat``) and the top of the draw pile (float32,
    :data:`SIZE`)."""
    out = np.zeros(SIZE, dtype=np.float32)
    n = state.num_players
    for k in range(n):
        base = k * NUM_CARDS - LOWEST
        for card in state.hands[(seat + k) % n]:
            out[base + card] = 1.0
    for i, card in enumerate(reversed(state.draw_pile[-TOP_CARDS:])):
        out[MAX_PLAYERS * NUM_CARDS + i] = card / HIGHEST
    return out
