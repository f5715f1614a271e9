"""Lock-step alignment of a game's native core with its Python engine, for any game that has one.

The two engines (``spec.engine_class("python")`` and ``spec.engine_class("native")``) play the
same games side by side from generators in the same state, with random legal actions from a
seeded plan. At every step: the legal actions and the native state's mask (``legal_mask()``),
the deciding seat, termination, the returns, winners and scores, ``to_dict``, and every seat's
observation bit for bit (the game's reference encoder ``encode_python`` on the Python state
against the native state's ``encode(seat)`` and the compiled encoder on the Python state); at
the end the generators' states. Now and then both cores continue on their clones, or the native
core continues from the Python state's ``to_dict`` (``from_dict``).

A game's bench or test supplies what varies per game: ``engine_options(plan, n, g)`` (the engine's
keyword options of game ``g``) and ``new_game_options(plan, n)`` (``new_game`` options: stacked
decks, scores, ...; None for a plain deal). ``tests/test_native_<game>.py`` runs at least 500
games per player count; ``bench/native_<game>.py`` runs 50,000 per game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.envs import get_spec

Options = Callable[[np.random.Generator, int], "dict[str, Any] | None"]
EngineOptions = Callable[[np.random.Generator, int, int], "dict[str, Any]"]


def _no_options(plan: np.random.Generator, n: int) -> None:
    return None


def _plain_engine(plan: np.random.Generator, n: int, g: int) -> dict[str, Any]:
    return {}


class Cores:
    """One game's two engines' classes, its reference and compiled encoders."""

    def __init__(self, game: str) -> None:
        spec = get_spec(game)
        self.spec = spec
        self.python_cls = spec.engine_class("python")
        self.native_cls = spec.engine_class("native")
        encoding = importlib.import_module(spec.encoder)
        self.reference = encoding.encode_python
        native = importlib.import_module(spec.native_engine.partition(":")[0])
        self.compiled = native.compiled_encode


def check_step(cores: Cores, py: Any, nat: Any, a: Any, b: Any, where: str) -> int:
    """Every compared quantity of the two states; the number of observations compared."""
    legal = py.legal_actions(a)
    assert nat.legal_actions(b) == legal, (where, legal, nat.legal_actions(b))
    if hasattr(b, "legal_mask"):
        mask = np.zeros(py.num_actions, dtype=np.int8)
        mask[legal] = 1
        assert np.asarray(b.legal_mask(), dtype=np.int8).tobytes() == mask.tobytes(), where
    assert nat.current_player(b) == py.current_player(a), where
    assert nat.is_over(b) == py.is_over(a), where
    assert nat.returns(b) == py.returns(a), where
    assert nat.winners(b) == py.winners(a), where
    assert nat.scores(b) == py.scores(a), where
    assert nat.to_dict(b) == py.to_dict(a), where
    for seat in range(py.num_players):
        want = cores.reference(a, seat).tobytes()
        got = b.encode(seat).tobytes()
        also = cores.compiled(a, seat).tobytes()
        if got != want or also != want:
            x = np.frombuffer(want, np.float32)
            y = np.frombuffer(got if got != want else also, np.float32)
            which = "native state" if got != want else "compiled encoder on the Python state"
            raise AssertionError(
                f"{where} seat {seat}: observation ({which}) differs at {np.flatnonzero(x != y)}"
            )
    return py.num_players


def lockstep(
    game: str,
    num_players: int,
    games: int,
    seed: int = 0,
    engine_options: EngineOptions = _plain_engine,
    new_game_options: Options = _no_options,
) -> dict[str, int]:
    """``games`` games of ``num_players`` in lock-step (AssertionError naming the game, step and
    quantity at the first difference); the games, steps and observations compared."""
    cores = Cores(game)
    steps = observations = 0
    for g in range(games):
        plan = np.random.default_rng([seed, num_players, g])
        kwargs = {"num_players": num_players, **engine_options(plan, num_players, g)}
        py, nat = cores.python_cls(**kwargs), cores.native_cls(**kwargs)
        options = new_game_options(plan, num_players)
        game_seed = [seed, num_players, g, 1]
        a = py.new_game(np.random.default_rng(game_seed), options)
        b = nat.new_game(np.random.default_rng(game_seed), options)
        step = 0
        while True:
            where = f"{game}, {num_players} players, game {g}, step {step}"
            observations += check_step(cores, py, nat, a, b, where)
            if py.is_over(a):
                break
            swap = plan.integers(40)
            if swap == 0:  # both cores continue on their clones
                a, b = py.clone(a), nat.clone(b)
            elif swap == 1:  # the native core continues from the Python state's JSON
                b = nat.from_dict(py.to_dict(a))
            legal = py.legal_actions(a)
            action = legal[int(plan.integers(len(legal)))]
            seat = py.current_player(a)
            py.apply(a, action, seat)
            nat.apply(b, action, seat)
            steps += 1
            step += 1
        assert a.rng.bit_generator.state == b.rng.bit_generator.state, where
    return {"games": games, "steps": steps, "observations": observations}
