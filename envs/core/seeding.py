"""The one seed derivation of the suite: numpy's ``SeedSequence``.

Every generator that is not the deck's own comes from a root seed and a path of small integers
(``derive(root, *path)``): an agent's seed from the deal seed and its seat, a training env's from
the run seed and its index, a worker's from the run seed and its rank. Distinct paths give
independent streams (unlike ``seed * 1000 + i``, where seed 1 seat 0 and seed 0 seat 1000 meet),
and the result never depends on what else ran before in the process.

A deal itself stays ``engine.new_game(np.random.default_rng(deal_seed))``: deck seeds are the
numbers users pass (``--first-seed``) and replays record.
"""

from __future__ import annotations

import numpy as np


def derive(root: int, *path: int) -> int:
    """A 63-bit seed for the stream at ``path`` under ``root`` (all non-negative integers)."""
    sequence = np.random.SeedSequence(int(root), spawn_key=tuple(int(k) for k in path))
    return int(sequence.generate_state(1, np.uint64)[0] >> np.uint64(1))


def generator(root: int, *path: int) -> np.random.Generator:
    """``np.random.default_rng`` of :func:`derive`'s seed."""
    return np.random.default_rng(derive(root, *path))


def agent_seed(deal_seed: int, seat: int) -> int:
    """The seed an agent is reset with before the game of ``deal_seed`` at ``seat``."""
    return derive(deal_seed, 1, seat)
