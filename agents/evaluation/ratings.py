"""Tournament statistics: finishing orders, OpenSkill ratings, head-to-head, paired bootstrap.

* **Finishing order** of a game: the winners share first place; the other seats follow by score,
  in the direction the game's own result shows (the winners scored higher, or lower, than every
  other seat); when a game's scores do not tell, the non-winners share second place.
* **Rating**: OpenSkill's Plackett-Luce model (default parameters) over the full finishing orders,
  one update per game in a fixed order (deck seed, then table), shifted so that ``random`` is 0.
  Every seat is a one-player team; an agent sitting twice at a table gets the mean of its seats'
  updates. With the same model parameters and the same anchor, figures from different runs are on
  one scale.
* **Intervals**: paired bootstrap over deck seeds. A deck seed (all its tables) is one sample; the
  same resampled seeds serve every agent and every figure, so differences stay paired. The rating
  interval re-rates each resample with :func:`pl_ratings`, a vectorised copy of OpenSkill's update
  (checked against the library by the tests), anchored per resample.
* **Head-to-head**: share of games in which the row agent finished ahead of the column agent, over
  the games where both sat at the table (ties count half, so ``h2h[a, b] + h2h[b, a] = 1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

# OpenSkill's defaults, spelled out so that a change of library default cannot move the scale.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0
ANCHOR = "random"
BOOTSTRAP_SEED = 20240817


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
def bootstrap_indices(num_seeds: int, replicates: int, seed: int = BOOTSTRAP_SEED) -> np.ndarray:
    """(replicates, num_seeds) resampled seed positions, sorted within each replicate."""
    rng = np.random.default_rng(seed)
    if num_seeds == 0 or replicates <= 0:
        return np.zeros((0, num_seeds), dtype=np.int64)
    return np.sort(rng.integers(0, num_seeds, size=(replicates, num_seeds)), axis=1)


def bootstrap_mean(values: np.ndarray, idx: np.ndarray) -> tuple[float, tuple[float, float]]:
    """Mean over seeds of ``values`` (NaN where the agent did not play that seed) and its
    percentile 95% interval over the resamples ``idx``."""
    present = ~np.isnan(values)
    if not present.any():
        return float("nan"), (float("nan"), float("nan"))
    mean = float(values[present].mean())
    if len(idx) == 0 or present.sum() < 2:
        return mean, (mean, mean)
    v = np.where(present, values, 0.0)
    counts = present[idx].sum(axis=1)
    sums = v[idx].sum(axis=1)
    reps = sums[counts > 0] / counts[counts > 0]
    low, high = np.percentile(reps, [2.5, 97.5])
    return mean, (float(low), float(high))


# ---- ratings ----------------------------------------------------------------------------------
def openskill_ratings(
    seats: np.ndarray, ranks: np.ndarray, num_agents: int
) -> tuple[np.ndarray, np.ndarray]:
    """(mu, sigma) per agent after rating the games in order with the OpenSkill library.

    ``seats[g, i]`` is the agent index at seat i of game g, ``ranks[g, i]`` its finishing place.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU)
    mu = np.full(num_agents, MU)
    sigma = np.full(num_agents, SIGMA)
    for game_seats, game_ranks in zip(seats, ranks, strict=True):
        teams = [[model.rating(mu=float(mu[a]), sigma=float(sigma[a]))] for a in game_seats]
        out = model.rate(teams, ranks=[int(r) for r in game_ranks])
        new_mu: dict[int, list[float]] = {}
        new_sigma: dict[int, list[float]] = {}
        for a, (player,) in zip(game_seats, out, strict=True):
            new_mu.setdefault(int(a), []).append(player.mu)
            new_sigma.setdefault(int(a), []).append(player.sigma)
        for a in new_mu:
            mu[a] = sum(new_mu[a]) / len(new_mu[a])
            sigma[a] = sum(new_sigma[a]) / len(new_sigma[a])
    return mu, sigma


def pl_ratings(
    seats: np.ndarray, ranks: np.ndarray, orders: np.ndarray, num_agents: int
) -> tuple[np.ndarray, np.ndarray]:
    """OpenSkill's Plackett-Luce update, vectorised over replicates.

    ``orders[b]`` lists the games (indices into ``seats``/``ranks``; -1 = no game) replicate b
    rates, in order. Returns (mu, sigma), each (replicates, num_agents).
    """
    reps = orders.shape[0]
    games, n = seats.shape
    # replicates on the last axis, so that every reduction runs over contiguous rows
    mu = np.full((num_agents, reps), MU)
    sigma = np.full((num_agents, reps), SIGMA)
    if games == 0 or reps == 0:
        return mu.T.copy(), sigma.T.copy()
    r = ranks.T  # (n, G)
    # [q, i, g]: seat i is in seat q's choice set (not better placed) / number tied with q
    behind = (r[None, :, :] >= r[:, None, :]).astype(float)
    weight = behind / (r[None, :, :] == r[:, None, :]).sum(axis=1, keepdims=True)
    own = np.einsum("iig->ig", weight)
    # [i, j, g]: an agent in several seats of a game gets the mean of their updates
    same = (seats.T[:, None, :] == seats.T[None, :, :]).astype(float)
    share = same / same.sum(axis=1, keepdims=True)
    has_dups = bool((same.sum(axis=1) > 1).any())
    seats_t = seats.T
    cols = np.arange(reps)[None, :]
    for t in range(orders.shape[1]):
        g = orders[:, t]
        valid = g >= 0
        if not valid.any():
            continue
        g = np.where(valid, g, 0)
        who = seats_t[:, g]  # (n, R)
        m = mu[who, cols]
        old_sigma = sigma[who, cols]
        s2 = old_sigma**2 + TAU * TAU
        c = np.sqrt(s2.sum(axis=0) + n * BETA * BETA)  # (R,)
        e = np.exp(m / c)
        sum_q = (behind[:, :, g] * e[None, :, :]).sum(axis=1)  # (q, R)
        p = e[None, :, :] / sum_q[:, None, :]  # [q, i, R] = e_i / sum_q
        wp = weight[:, :, g] * p
        wp_sum = wp.sum(axis=0)
        omega = (own[:, g] - wp_sum) * s2 / c
        delta = (wp_sum - (wp * p).sum(axis=0)) * s2 / c**2 * np.sqrt(s2) / c
        new_mu = m + omega
        new_sigma = np.sqrt(s2) * np.sqrt(np.maximum(1.0 - delta, KAPPA))
        if has_dups:
            mix = share[:, :, g]
            new_mu = (mix * new_mu[None, :, :]).sum(axis=1)
            new_sigma = (mix * new_sigma[None, :, :]).sum(axis=1)
        mu[who, cols] = np.where(valid, new_mu, m)
        sigma[who, cols] = np.where(valid, new_sigma, old_sigma)
    return mu.T.copy(), sigma.T.copy()


def rate(
    seats: np.ndarray,
    ranks: np.ndarray,
    seed_of_game: np.ndarray,
    agents: Sequence[str],
    idx: np.ndarray,
) -> dict[str, Any]:
    """Anchored OpenSkill ratings of ``agents`` with paired-bootstrap 95% intervals.

    Games must be given in rating order (deck seed, then table); ``seed_of_game[g]`` is the
    position of game g's deck seed (0..S-1) and ``idx`` the bootstrap resamples of positions.
    """
    k = len(agents)
    mu, sigma = openskill_ratings(seats, ranks, k)
    if ANCHOR in agents:
        anchor, shift = ANCHOR, float(mu[list(agents).index(ANCHOR)])
    else:
        anchor, shift = "mean", float(mu.mean())
    intervals = [(float("nan"), float("nan"))] * k
    if len(idx) and len(seats):
        games_of_seed: list[list[int]] = [[] for _ in range(int(seed_of_game.max()) + 1)]
        for g, s in enumerate(seed_of_game):
            games_of_seed[int(s)].append(g)
        rows = [[g for s in rep for g in games_of_seed[s]] for rep in idx]
        width = max(len(rw) for rw in rows)
        orders = np.full((len(rows), width), -1, dtype=np.int64)
        for b, rw in enumerate(rows):
            orders[b, : len(rw)] = rw
        bmu, _ = pl_ratings(seats, ranks, orders, k)
        if anchor == ANCHOR:
            bmu = bmu - bmu[:, [list(agents).index(ANCHOR)]]
        else:
            bmu = bmu - bmu.mean(axis=1, keepdims=True)
        low, high = np.percentile(bmu, [2.5, 97.5], axis=0)
        intervals = [(float(lo), float(hi)) for lo, hi in zip(low, high, strict=True)]
    return {
        "model": "openskill.PlackettLuce",
        "params": {"mu": MU, "sigma": SIGMA, "beta": BETA, "kappa": KAPPA, "tau": TAU},
        "anchor": anchor,
        "shift": shift,
        "agents": {
            name: {
                "rating": float(mu[i] - shift),
                "ci": intervals[i],
                "mu": float(mu[i]),
                "sigma": float(sigma[i]),
                "ordinal": float(mu[i] - shift - 3.0 * sigma[i]),
            }
            for i, name in enumerate(agents)
        },
    }


def head_to_head(
    seats: np.ndarray, ranks: np.ndarray, num_agents: int
) -> tuple[np.ndarray, np.ndarray]:
    """(share, games): ``share[a, b]`` is the share of the games with both a and b at the table
    in which a finished ahead of b (ties half; NaN where they never met or a == b)."""
    total = np.zeros((num_agents, num_agents))
    games = np.zeros((num_agents, num_agents), dtype=np.int64)
    n = seats.shape[1] if len(seats) else 0
    for game_seats, game_ranks in zip(seats, ranks, strict=True):
        acc: dict[tuple[int, int], list[float]] = {}
        for i in range(n):
            for j in range(n):
                a, b = int(game_seats[i]), int(game_seats[j])
                if a == b:
                    continue
                ri, rj = game_ranks[i], game_ranks[j]
                acc.setdefault((a, b), []).append(1.0 if ri < rj else 0.5 if ri == rj else 0.0)
        for (a, b), vals in acc.items():
            total[a, b] += sum(vals) / len(vals)
            games[a, b] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(games > 0, total / np.maximum(games, 1), np.nan)
    return share, games
