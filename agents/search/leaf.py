"""The learned value of a round boundary: what a rollout cut at the end of a round is worth.

A search that rolls out to the end of the game values each action by a few win/loss outcomes,
which is mostly noise; one that stops at the end of the round needs the worth of the position
there. ``engine.standing`` (the lead in game totals) is a fixed guess; a :class:`LeafValue` is a
small tanh MLP from ``engine.round_features(state, seat)`` (totals, seat order) to the seat's
expected final return, fitted by least squares to games of a scripted policy
(:func:`fit_leaf_value` on :func:`round_value_rows`). Used by ``pimc``/``ismcts`` with
``value=leaf`` and by the rollout improver of ``agents/training/improve.py``.

The same fit values a rollout cut after a number of decisions (``depth=N``) in a game without
rounds: a :class:`LeafValue` on ``engine.state_features(state, seat)`` (:func:`state_value`,
suicidium and thegame), fitted to rows taken at random decision points of games of the policy
(:func:`state_value_rows`; the games are played by the search's own ``Rollout``, so in C where
the engine ports the policy).

Shipped fits (``agents/zoo/leaf/<game>_<policy>_<n>p[<options>][_state].npz``, plain arrays
read with ``allow_pickle=False``: loading one runs no code) save a search agent the fit; any
other table is fitted on first use in the process (a few seconds to two minutes) and kept in
memory. Build or refresh a shipped fit with::

    python -m cardarena.agents.search.leaf --game sevn --num-players 4 [--games 10000]
    python -m cardarena.agents.search.leaf --game suicidium --policy heuristic --state \
        --option mode=DEPRESSION
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardarena.envs.core.engine import ConfigError, GameEngine
from cardarena.envs.core.loop import play

#: where shipped fits live (package data of cardarena.agents)
SHIPPED = Path(__file__).resolve().parent.parent / "zoo" / "leaf"
#: games and seed of the default fit (what the shipped files hold)
DEFAULT_GAMES = 10_000
DEFAULT_SEED = 0
_FORMAT = 1


@dataclass
class LeafValue:
    """A tanh MLP (numpy) from ``round_features`` to the expected final return of the seat."""

    weights: list[np.ndarray]
    #: the engine method giving the input: ``round_features`` or ``state_features``
    features: str = "round_features"

    def __call__(self, features: np.ndarray) -> np.ndarray:
        h = np.asarray(features, dtype=np.float64)
        for i in range(0, len(self.weights) - 2, 2):
            h = np.tanh(h @ self.weights[i].T + self.weights[i + 1])
        return (h @ self.weights[-2].T + self.weights[-1])[:, 0]


def round_value_rows(job: tuple[str, dict, str, list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Games of ``policy`` in every seat; a row (features, final return) per seat at each round
    start. ``job`` = (game, engine options, policy spec, deck seeds) (a worker's unit)."""
    from cardarena.agents.specs import build_agent
    from cardarena.envs.core.registry import get_spec

    game, env_options, policy, seeds = job
    spec = get_spec(game)
    engine = spec.make_engine(**env_options)
    n = engine.num_players
    agents = [build_agent(game, policy, seed=i) for i in range(n)]
    xs: list[np.ndarray] = []
    ys: list[float] = []
    for seed in seeds:
        state = engine.new_game(np.random.default_rng(seed))
        rows: list[tuple[np.ndarray, int]] = []
        while not engine.is_over(state):  # a row per seat at each round's start
            rows.extend((engine.round_features(state, s), s) for s in range(n))
            r = engine.round_index(state)
            play(spec, engine, state, agents, until=lambda st, r=r: engine.round_index(st) != r)  # type: ignore[misc]
        final = engine.returns(state)
        xs.extend(f for f, _ in rows)
        ys.extend(final[s] for _, s in rows)
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32)


#: decisions between two rows of a game in :func:`state_value_rows` (drawn uniformly)
STATE_GAP = (1, 30)


def state_value_rows(
    game: str, engine: GameEngine, policy: str, seeds: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Games of ``policy`` in every seat from the deck seeds ``seeds``; a row (state_features,
    final return) per seat every few decisions (``STATE_GAP``, drawn from the game's seed).
    Played by the search's ``Rollout`` cut after that many decisions, so natively where the
    engine ports the policy (the C ports start every stretch with fresh plans)."""
    import random

    from cardarena.agents.search.rollout import Rollout
    from cardarena.envs.core.registry import get_spec

    rollout = Rollout(game, get_spec(game), engine, policy, "game", depth=1)
    n = engine.num_players
    xs: list[np.ndarray] = []
    ys: list[float] = []
    for seed in seeds:
        gaps = np.random.default_rng(seed + 1)
        py = random.Random(seed)
        rollout.reseed(py)
        state = engine.new_game(np.random.default_rng(seed))
        rows: list[tuple[np.ndarray, int]] = []
        while not engine.is_over(state):
            rows.extend((engine.state_features(state, s), s) for s in range(n))
            rollout.depth = int(gaps.integers(STATE_GAP[0], STATE_GAP[1] + 1))
            rollout.run_many([state], [py.getrandbits(63)])
        final = engine.returns(state)
        xs.extend(f for f, _ in rows)
        ys.extend(final[s] for _, s in rows)
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32)


def fit_leaf_value(
    x: np.ndarray, y: np.ndarray, epochs: int = 15, hidden: int = 64, seed: int = 0
) -> tuple[LeafValue, float]:
    """Least-squares fit of the leaf value; returns it and its R^2 on a held-out tenth."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    net = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], hidden),
        torch.nn.Tanh(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.Tanh(),
        torch.nn.Linear(hidden, 1),
    )
    with torch.no_grad():
        for p in net.parameters():  # seeded init, independent of the global torch RNG
            p.copy_(torch.empty_like(p).uniform_(-0.1, 0.1, generator=gen))
    order = np.random.default_rng(seed).permutation(len(x))
    cut = max(1, len(x) // 10)
    val, tr = order[:cut], order[cut:]
    xt, yt = torch.as_tensor(x), torch.as_tensor(y)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    rng = np.random.default_rng(seed + 1)
    for _ in range(epochs):
        perm = rng.permutation(tr)
        for start in range(0, len(perm), 1024):
            b = perm[start : start + 1024]
            loss = ((net(xt[b]).squeeze(1) - yt[b]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        mse = float(((net(xt[val]).squeeze(1) - yt[val]) ** 2).mean())
    r2 = 1.0 - mse / max(float(yt[val].var()), 1e-12)
    return LeafValue([p.detach().numpy().astype(np.float64) for p in net.parameters()]), r2


def engine_options(engine: GameEngine) -> dict[str, Any]:
    """The constructor options of ``engine`` (the attributes named like its parameters)."""
    params = inspect.signature(type(engine).__init__).parameters
    return {k: getattr(engine, k) for k in params if k != "self" and hasattr(engine, k)}


def shipped_path(game: str, policy: str, num_players: int, tag: str = "") -> Path:
    return SHIPPED / f"{game}_{policy}_{num_players}p{tag}.npz"


def manifest_fits(game: str) -> list[Path]:
    """The shipped fits ``game``'s manifest names: its ``round_values`` and ``state_values``."""
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(game)
    paths = [shipped_path(game, policy, n) for policy, n in spec.round_values]
    paths += [shipped_path(game, p, n, tag + "_state") for p, n, tag in spec.state_values]
    return paths


def options_tag(engine: GameEngine) -> str:
    """The engine options that differ from the defaults of its player count, as a file-name
    part (``""``, ``"_mode1"``, ...): a shipped state value is one table's."""
    defaults = engine_options(type(engine)(num_players=engine.num_players))  # type: ignore[call-arg]
    options = engine_options(engine)
    return "".join(f"_{k}{v}" for k, v in sorted(options.items()) if defaults.get(k) != v)


def save_leaf(path: Path, leaf: LeafValue, meta: dict[str, Any]) -> None:
    """Plain arrays and a few numbers: nothing that runs code when loaded."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"w{i}": w for i, w in enumerate(leaf.weights)}
    numbers = {k: np.asarray(v) for k, v in meta.items()}
    np.savez(path, format=np.asarray(_FORMAT), **numbers, **arrays)  # type: ignore[arg-type]


def load_leaf(path: Path, features: str = "round_features") -> tuple[LeafValue, dict[str, Any]]:
    with np.load(path, allow_pickle=False) as data:
        if int(data["format"]) != _FORMAT:
            raise ConfigError(f"{path}: leaf value format {int(data['format'])}, want {_FORMAT}")
        count = sum(1 for k in data.files if k[0] == "w" and k[1:].isdigit())
        weights = [np.asarray(data[f"w{i}"], dtype=np.float64) for i in range(count)]
        meta = {k: data[k].item() for k in data.files if k not in {"format"} and k[0] != "w"}
    return LeafValue(weights, features), meta


_CACHE: dict[tuple, LeafValue] = {}


def leaf_value(
    game: str,
    engine: GameEngine,
    policy: str,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    progress: bool = True,
) -> LeafValue:
    """The leaf value of ``engine``'s table under ``policy`` (a scripted baseline spec): the
    shipped fit when it matches (same games, seed and default engine options but the player
    count), otherwise fitted here once per process. Raises ConfigError for games without rounds."""
    try:
        engine.round_features(engine.new_game(np.random.default_rng(0)), 0)
    except ConfigError as err:
        raise ConfigError(
            f"value=leaf needs a game played over rounds; {game} has none "
            f"(use value=standing, or horizon=game)"
        ) from err
    options = engine_options(engine)
    key = (game, tuple(sorted(options.items())), policy, games, seed)
    if key in _CACHE:
        return _CACHE[key]
    defaults = engine_options(type(engine)(num_players=engine.num_players))  # type: ignore[call-arg]
    path = shipped_path(game, policy, engine.num_players)
    leaf = None
    if options == defaults and path.exists():
        shipped, meta = load_leaf(path)
        if meta.get("games") == games and meta.get("seed") == seed:
            leaf = shipped
    if leaf is None:
        if progress:
            print(
                f"[leaf] fitting the round value of {game} {engine.num_players}p under {policy} "
                f"from {games} games (once per process)",
                file=sys.stderr,
            )
        leaf, _ = fit(game, options, policy, games, seed)
    _CACHE[key] = leaf
    return leaf


def fit(
    game: str, options: dict[str, Any], policy: str, games: int, seed: int
) -> tuple[LeafValue, float]:
    """Play ``games`` games of ``policy`` (deck seeds from ``seed``) and fit the leaf value."""
    rng = np.random.default_rng(seed)
    seeds = [int(s) for s in rng.integers(2**62, size=games)]
    x, y = round_value_rows((game, options, policy, seeds))
    return fit_leaf_value(x, y, seed=seed)


def state_value(
    game: str,
    engine: GameEngine,
    policy: str,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    progress: bool = True,
) -> LeafValue:
    """The learned value of a rollout cut after some decisions (``state_features``) at
    ``engine``'s table under ``policy``: the shipped fit of the table when its games and seed
    match, otherwise fitted here once per process. Raises ConfigError for games without
    ``state_features``."""
    try:
        engine.state_features(engine.new_game(np.random.default_rng(0)), 0)
    except ConfigError as err:
        raise ConfigError(
            f"value=leaf with depth needs a learned state value; {game} has none "
            f"(no state_features: use value=standing)"
        ) from err
    key = ("state", game, tuple(sorted(engine_options(engine).items())), policy, games, seed)
    if key in _CACHE:
        return _CACHE[key]
    path = shipped_path(game, policy, engine.num_players, options_tag(engine) + "_state")
    leaf = None
    if path.exists():
        shipped, meta = load_leaf(path, "state_features")
        if meta.get("games") == games and meta.get("seed") == seed:
            leaf = shipped
    if leaf is None:
        if progress:
            print(
                f"[leaf] fitting the state value of {game} {engine.num_players}p under {policy} "
                f"from {games} games (once per process)",
                file=sys.stderr,
            )
        leaf, _ = fit_state(game, engine, policy, games, seed)
    _CACHE[key] = leaf
    return leaf


def fit_state(
    game: str, engine: GameEngine, policy: str, games: int, seed: int
) -> tuple[LeafValue, float]:
    """Play ``games`` games of ``policy`` on ``engine`` (deck seeds from ``seed``) and fit the
    state value (``fit_leaf_value`` on :func:`state_value_rows`)."""
    rng = np.random.default_rng(seed)
    seeds = [int(s) for s in rng.integers(2**62, size=games)]
    x, y = state_value_rows(game, engine, policy, seeds)
    leaf, r2 = fit_leaf_value(x, y, seed=seed)
    return LeafValue(leaf.weights, "state_features"), r2


def main(argv: list[str] | None = None) -> int:
    from cardarena.envs.core.registry import get_spec

    parser = argparse.ArgumentParser(description="Fit and ship a round-boundary leaf value.")
    parser.add_argument("--game", required=True)
    parser.add_argument("--num-players", type=int, default=4)
    parser.add_argument("--policy", default="ev", help="scripted baseline playing the games")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--state", action="store_true", help="the state value of depth cuts (state_features)"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="an engine option"
    )
    args = parser.parse_args(argv)
    options = dict(item.split("=", 1) for item in args.option)
    engine = get_spec(args.game).make_engine(num_players=args.num_players, **options)
    start = time.perf_counter()
    if args.state:
        leaf, r2 = fit_state(args.game, engine, args.policy, args.games, args.seed)
        path = shipped_path(
            args.game, args.policy, args.num_players, options_tag(engine) + "_state"
        )
    else:
        leaf, r2 = fit(args.game, engine_options(engine), args.policy, args.games, args.seed)
        path = shipped_path(args.game, args.policy, args.num_players)
    save_leaf(path, leaf, {"games": args.games, "seed": args.seed, "r2": r2})
    print(f"{path}: R^2 {r2:.3f} on held-out rows, {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
