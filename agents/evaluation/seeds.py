"""The two ranges of deck seeds: one for choosing, one for the figures the docs quote.

A figure measured on the deals its setting was chosen on flatters the setting (the choice
fitted those deals' noise), so the suite keeps two disjoint ranges of deck seeds:

* :data:`CHOOSE` (``0`` to ``999,999,999``): every deal that helps pick something. Training's
  periodic evaluations (``10,000,000 + timestep``) and its final evaluation (from
  ``20,000,000``), the best-response trainer's evaluation (from ``40,000,000``), the settings
  and ceiling benches (``bench/baseline_settings.py`` from ``700,000``,
  ``bench/improve_ceiling.py`` from ``500,000``, ``bench/search_time.py`` from ``7,000,000``),
  the search-curve and search-setting runs (``9,100,000`` up to ``9,599,999``) and
  ``cardarena-evaluate``'s default ``--first-seed 0`` all lie here. A new chooser may use any
  seed of this range.
* :data:`EVALUATION` (``1,000,000,000`` to ``1,999,999,999``): the deals of every verdict the
  README and ``docs/results/`` quote, measured by ``bench/strength.py`` (each row from
  :data:`EVALUATION_FIRST_SEED`). Nothing that chooses a setting, a checkpoint or a claim's
  wording may play a deal of this range; a figure measured here was not fitted to it.

Training's own rollouts draw 63-bit deck seeds (``envs.core.seeding.derive``); the chance that
one of them lands in the evaluation range is about ``1e9 / 2**63`` a deal (~1e-10), too small
to matter, and a training rollout chooses nothing by its deal alone. Both ranges stay below
``2**32``, so a seed of either is also a valid ``seed:`` of a training config.
"""

from __future__ import annotations

#: deck seeds that may be used to choose settings, checkpoints or claims
CHOOSE = range(0, 1_000_000_000)
#: deck seeds of the quoted figures only: disjoint from :data:`CHOOSE`
EVALUATION = range(1_000_000_000, 2_000_000_000)
#: where ``bench/strength.py``'s rows start (every row; a row of ``d`` deals plays
#: ``EVALUATION_FIRST_SEED`` to ``EVALUATION_FIRST_SEED + d - 1``)
EVALUATION_FIRST_SEED = EVALUATION.start


def in_range(seeds: range, first_seed: int, deals: int) -> bool:
    """Whether the ``deals`` deck seeds from ``first_seed`` all lie in ``seeds``."""
    return deals >= 0 and first_seed in seeds and (deals == 0 or first_seed + deals - 1 in seeds)
