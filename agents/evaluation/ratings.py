"""Tournament statistics: finishing orders, the Bradley-Terry rating, head-to-head, paired bootstrap.

* **Finishing order** of a game: the winners share first place; the other seats follow by score,
  in the direction the game's own result shows (the winners scored higher, or lower, than every
  other seat); when a game's scores do not tell, the non-winners share second place.
* **Pairwise results**: in every game, each pair of agents at the table is one comparison: the
  share of their seat pairs in which the first finished ahead of the second (ties count half), so
  an agent sitting twice counts once per game. They are summed per deck seed, which is all the
  rating, the head-to-head matrix and their intervals need (a few numbers per seed and pair).
* **Rating**: a Bradley-Terry maximum-likelihood fit over all pairwise results at once,
  ``P(a finishes ahead of b) = 1 / (1 + 10 ** ((r_b - r_a) / 400))`` (the Elo scale: 400 points
  are 10:1 odds), with a weak normal prior on the strengths (:data:`PRIOR`, so an agent that
  always wins stays finite), shifted so that ``random`` is 0 (or the mean of the agents, without
  ``random``). It depends on which games were played, never on their order.
* **Intervals**: paired bootstrap over deck seeds. A deck seed (all its tables) is one sample; the
  same resampled seeds serve every agent and every figure, so differences stay paired. Resamples
  are drawn as per-seed counts in blocks (:class:`Resamples`), so memory grows with the number of
  deck seeds, not with replicates x games.
* **Head-to-head**: share of games in which the row agent finished ahead of the column agent, over
  the games where both sat at the table (ties count half, so ``h2h[a, b] + h2h[b, a] = 1``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

ANCHOR = "random"
BOOTSTRAP_SEED = 20240817
ELO = 400.0 / math.log(10.0)  # rating points per unit of log-odds
PRIOR = 0.01  # L2 penalty on the log-odds strengths: a N(0, 10^2) prior
BLOCK_CELLS = 1 << 21  # resample counts held at once (replicates x deck seeds)


def finishing_ranks(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """0-based competition ranks (ties share the better place) from a game's result."""
    n = len(scores)
    win = set(int(w) for w in winners)
    if not win or len(win) == n:
        return [0] * n
    others = [i for i in range(n) if i not in win]
    ws = [scores[i] for i in win]
    ls = [scores[i] for i in others]
    sign = 0
    if all(w >= x for w in ws for x in ls) and any(w > x for w in ws for x in ls):
        sign = 1  # higher is better
    elif all(w <= x for w in ws for x in ls) and any(w < x for w in ws for x in ls):
        sign = -1
    ranks = [0] * n
    for i in others:
        ahead = sum(1 for j in others if sign * scores[j] > sign * scores[i]) if sign else 0
        ranks[i] = len(win) + ahead
    return ranks


# ---- paired bootstrap over deck seeds ---------------------------------------------------------
class Resamples:
    """``replicates`` bootstrap resamples of ``num_seeds`` deck seeds, as blocks of counts.

    :meth:`blocks` yields float arrays (replicates in the block, num_seeds): how many times each
    seed is drawn. Every call yields the same blocks, so every statistic is computed on the same
    resamples (paired), and at most :data:`BLOCK_CELLS` counts are held at once.
    """

    def __init__(self, num_seeds: int, replicates: int, seed: int = BOOTSTRAP_SEED) -> None:
        self.num_seeds = int(num_seeds)
        self.replicates = max(0, int(replicates)) if num_seeds else 0
        self.seed = seed
        self.block = max(1, min(self.replicates, BLOCK_CELLS // max(1, self.num_seeds)))

    def __len__(self) -> int:
        return self.replicates

    def blocks(self) -> Iterator[np.ndarray]:
        rng = np.random.default_rng(self.seed)
        s = self.num_seeds
        done = 0
        while done < self.replicates:
            b = min(self.block, self.replicates - done)
            draws = rng.integers(0, s, size=(b, s))
            draws += np.arange(b)[:, None] * s
            yield np.bincount(draws.ravel(), minlength=b * s).reshape(b, s).astype(np.float64)
            done += b


def bootstrap_means(
    values: np.ndarray, resamples: Resamples
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of ``values`` (deck seeds x figures, NaN where a figure has no sample for a
    seed): the mean over seeds and the percentile 95% interval over the resamples.

    Returns (mean, low, high), each one value per column.
    """
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 1:
        values = values[:, None]
    present = ~np.isnan(values)
    n = present.sum(axis=0)
    v = np.where(present, values, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, v.sum(axis=0) / n, np.nan)
    low, high = mean.copy(), mean.copy()
    if not len(resamples) or not (n >= 2).any():
        return mean, low, high
    reps = []
    weights = present.astype(np.float64)
    for counts in resamples.blocks():
        with np.errstate(invalid="ignore", divide="ignore"):
            reps.append((counts @ v) / (counts @ weights))
    rep = np.concatenate(reps)
    cols = n >= 2
    low[cols], high[cols] = np.nanpercentile(rep[:, cols], [2.5, 97.5], axis=0)
    return mean, low, high


def bootstrap_mean(values: np.ndarray, resamples: Resamples) -> tuple[float, tuple[float, float]]:
    """One figure's mean over seeds (NaN = no sample that seed) and its 95% interval."""
    mean, low, high = bootstrap_means(np.asarray(values, dtype=np.float64)[:, None], resamples)
    return float(mean[0]), (float(low[0]), float(high[0]))


# ---- pairwise results -------------------------------------------------------------------------
def pair_results(
    seats: np.ndarray, ranks: np.ndarray, seed_pos: np.ndarray, num_seeds: int, num_agents: int
) -> tuple[np.ndarray, np.ndarray]:
    """(ahead, met), each (num_seeds, k, k): per deck seed, ``met[s, a, b]`` counts the games where
    a and b sat at one table and ``ahead[s, a, b]`` those where a finished ahead of b (ties half;
    an agent in several seats contributes the mean over its seats).

    ``seats[g, i]`` is the agent index at seat i of game g (-1: an agent left out),
    ``ranks[g, i]`` its finishing place and ``seed_pos[g]`` the position of its deck seed.
    """
    k = num_agents
    size = num_seeds * k * k
    ahead = np.zeros(size)
    met = np.zeros(size)
    if len(seats):
        n = seats.shape[1]
        copies = (seats[:, :, None] == seats[:, None, :]).sum(axis=2)
        base = np.asarray(seed_pos, dtype=np.int64) * k
        for i in range(n):
            for j in range(n):
                a, b = seats[:, i], seats[:, j]
                keep = (a != b) & (a >= 0) & (b >= 0)
                if not keep.any():
                    continue
                w = 1.0 / (copies[keep, i] * copies[keep, j])
                ri, rj = ranks[keep, i], ranks[keep, j]
                v = np.where(ri < rj, 1.0, np.where(ri == rj, 0.5, 0.0))
                flat = (base[keep] + a[keep]) * k + b[keep]
                ahead += np.bincount(flat, weights=w * v, minlength=size)
                met += np.bincount(flat, weights=w, minlength=size)
    shape = (num_seeds, k, k)
    return ahead.reshape(shape), met.reshape(shape)


def head_to_head(
    seats: np.ndarray, ranks: np.ndarray, num_agents: int
) -> tuple[np.ndarray, np.ndarray]:
    """(share, games): ``share[a, b]`` is the share of the games with both a and b at the table
    in which a finished ahead of b (ties half; NaN where they never met or a == b)."""
    ahead, met = pair_results(seats, ranks, np.zeros(len(seats), np.int64), 1, num_agents)
    return share_of(ahead[0], met[0])


def share_of(ahead: np.ndarray, met: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(met > 0, ahead / np.maximum(met, 1e-300), np.nan)
    return share, np.rint(met).astype(np.int64)


# ---- the rating -------------------------------------------------------------------------------
def bradley_terry(
    ahead: np.ndarray, met: np.ndarray, prior: float = PRIOR, iterations: int = 100
) -> np.ndarray:
    """Maximum a-posteriori log-odds strengths, (..., k) for pairwise tables (..., k, k).

    Maximises ``sum_ab ahead[a, b] * log sigmoid(t_a - t_b) - prior / 2 * |t|^2`` by damped Newton
    steps (the objective is strictly concave), for every leading index at once.
    """
    ahead = np.asarray(ahead, dtype=np.float64)
    met = np.asarray(met, dtype=np.float64)
    k = ahead.shape[-1]
    theta = np.zeros(ahead.shape[:-1])
    eye = np.eye(k)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(theta[..., None, :] - theta[..., :, None]))  # P(a ahead of b)
        grad = (ahead - met * p).sum(axis=-1) - prior * theta
        curve = met * p * (1.0 - p)
        hess = curve.sum(axis=-1)[..., None] * eye - curve + prior * eye  # minus the Hessian
        step = np.linalg.solve(hess, grad[..., None])[..., 0]
        biggest = np.abs(step).max(axis=-1, keepdims=True) if k else step
        step = step * np.minimum(1.0, 2.0 / np.maximum(biggest, 1e-300))
        theta = theta + step
        if not k or np.abs(step).max() < 1e-12:
            break
    return theta


def _anchored(theta: np.ndarray, agents: Sequence[str]) -> np.ndarray:
    if ANCHOR in agents:
        ref = theta[..., [list(agents).index(ANCHOR)]]
    else:
        ref = theta.mean(axis=-1, keepdims=True)
    return (theta - ref) * ELO


def rate(
    ahead: np.ndarray, met: np.ndarray, agents: Sequence[str], resamples: Resamples
) -> dict[str, Any]:
    """Anchored Bradley-Terry ratings of ``agents`` with paired-bootstrap 95% intervals, from the
    per-seed pairwise results of :func:`pair_results`."""
    k = len(agents)
    theta = bradley_terry(ahead.sum(axis=0), met.sum(axis=0))
    rating = _anchored(theta, agents)
    intervals = [(float("nan"), float("nan"))] * k
    if len(resamples) and ahead.shape[0]:
        flat_a = ahead.reshape(ahead.shape[0], k * k)
        flat_m = met.reshape(met.shape[0], k * k)
        reps = []
        for counts in resamples.blocks():
            boot = bradley_terry(
                (counts @ flat_a).reshape(-1, k, k), (counts @ flat_m).reshape(-1, k, k)
            )
            reps.append(_anchored(boot, agents))
        low, high = np.percentile(np.concatenate(reps), [2.5, 97.5], axis=0)
        intervals = [(float(lo), float(hi)) for lo, hi in zip(low, high, strict=True)]
    return {
        "model": "bradley-terry",
        "meaning": (
            "maximum-likelihood fit of P(a finishes ahead of b) = 1 / (1 + 10^((r_b - r_a) / 400)) "
            "over every pair at every table"
        ),
        "prior": PRIOR,
        "anchor": ANCHOR if ANCHOR in agents else "mean",
        "agents": {
            name: {"rating": float(rating[i]), "ci": intervals[i], "strength": float(theta[i])}
            for i, name in enumerate(agents)
        },
    }
