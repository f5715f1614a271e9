"""Seers: a perfect-information reference per game, NOT a legal player.

A seer is the rollout search of ``agents/search`` (PIMC's one step of lookahead) with the true
game state as its only world: for each legal action it copies the true state, applies the
action and plays the copy on with the rollout policy (every seat), then plays the action of the
best mean value. It reads what no seat may see: flip6's and sevn's deck order, every slot of
ratatat, every hand and the draw pile of suicidium (and of thegame). Every game of the suite
keeps its future draws in the state (the draw pile, top last) and draws its reshuffles from the
state's own generator, which the copy keeps exactly (``engine.clone(state)``, no new
generator): so a rollout meets the cards the real game will deal, reshuffles included, and
with deterministic rollout players (flip6's and sevn's ``ev``, ratatat's ``tracker``) it is the
game that will be played if every seat then plays the rollout policy. Suicidium's
``heuristic`` draws some choices at random, so there ``rollouts`` > 1 averages over them.

The seer shows how much a seat could win if it knew every hidden card and played one step of
improvement over the rollout policy: a lower bound on the perfect-information ceiling, not the
ceiling itself (the best play with every card known could be better still).

How it gets the state: the agent declares ``sees_state = True``, and the game loop
(``envs.core.loop.decide``) then calls ``set_state(spec, engine, state, seat)`` with a copy of
the true state before each ``act``; no other agent gets it. It also declares
``legal_player = False``: tournaments refuse a table that mixes it with legal players unless
told (``evaluate.py --allow-seers``, ``run_tournament(..., allow_seers=True)``), and then label
it "(not a legal player)" on every leaderboard.

Spec (``make_agent``, evaluate.py)::

    seer                                   the game's best baseline rolls out, 1 rollout, game
    seer:rollouts=4,rollout=heuristic,horizon=round

Ties (the usual case with win/lose values: both actions win, or both lose) go to the rollout
policy's own choice, so the seer plays the rollout policy wherever looking ahead shows no
difference (with ``rollout=random``: a random one of the tied actions).
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from cardarena.agents.search import key_values
from cardarena.agents.search.base import SearchAgent
from cardarena.agents.search.rollout import HORIZONS, Rollout
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.loop import decide

#: the most rollouts per legal action a spec may ask for
MAX_ROLLOUTS = 1_000
#: option -> (default; None: the game's best baseline)
OPTIONS: dict[str, Any] = {"rollouts": 1, "rollout": None, "horizon": "game"}


class TrueWorld:
    """What :class:`SeerAgent` searches in place of a ``Worlds`` handle: the true state.

    ``sample(rng)`` returns an exact copy of it (its generator copied, not replaced: the
    reshuffles to come are the real ones); ``rng`` is not used."""

    __slots__ = ("engine", "seat", "spec", "state")

    def __init__(self, spec: Any, engine: Any, state: Any, seat: int) -> None:
        self.spec = spec
        self.engine = engine
        self.state = state
        self.seat = seat

    def sample(self, rng: np.random.Generator | None = None) -> Any:
        return self.engine.clone(self.state)


class SeerAgent(SearchAgent):
    """``seer:rollouts=1,rollout=<best baseline>,horizon=game``: see the module docstring."""

    sees_state = True
    legal_player = False
    uses_worlds = False  # it gets the true state instead (``set_state``)

    def __init__(
        self,
        game: str,
        seed: int | None = None,
        name: str = "seer",
        rollouts: int = 1,
        rollout: str = "random",
        horizon: str = "game",
    ) -> None:
        super().__init__(game, seed, name, rollout, horizon, "standing")
        self.rollouts = rollouts

    def set_state(self, spec: Any, engine: Any, state: Any, seat: int) -> None:
        """Called by the game loop before each ``act`` (``sees_state``) with a copy of the true
        state, which the seer may keep and advance."""
        self.worlds = TrueWorld(spec, engine, state, seat)

    def set_worlds(self, worlds: Any) -> None:  # never called: uses_worlds is False
        raise ConfigError(f"{self.name}: a seer searches the true state, not sampled worlds")

    def search(self, worlds: Any, legal: list[int], rollout: Rollout, py: random.Random) -> int:
        engine, seat = worlds.engine, worlds.seat
        truth = worlds.state
        start = rollout.start(truth)
        default = None
        if rollout.agents is not None:  # the rollout policy's own choice (it reads its view)
            mask = np.zeros(engine.num_actions, dtype=np.int8)
            agent = rollout.agents[seat]
            default = decide(worlds.spec, engine, worlds.sample(), seat, agent, mask)
        states, seeds = [], []
        for _ in range(self.rollouts):
            seed = py.getrandbits(63)
            for action in legal:
                state = worlds.sample()
                engine.apply(state, action, seat)
                states.append(state)
                seeds.append(seed)
        flat = rollout.run_many(states, seeds, start, seat)
        means = np.asarray(flat, dtype=np.float64).reshape(self.rollouts, len(legal)).mean(axis=0)
        self.last_scores = (list(legal), means.tolist())
        top = means.max()
        ties = [a for a, m in zip(legal, means, strict=True) if m >= top - 1e-12]
        if default in ties:
            return int(default)
        return ties[int(py.random() * len(ties))]


def parse_seer(spec: str) -> dict[str, Any]:
    """``"seer:rollouts=4"`` -> ``{"rollouts": 4, "rollout": None, "horizon": "game"}``; a
    ConfigError names a bad key or value and what is allowed."""
    kind, colon, rest = spec.partition(":")
    if kind != "seer":
        raise ConfigError(f"not a seer spec: {spec!r}; write e.g. seer:rollouts=1")
    if colon and not rest.strip():
        raise ConfigError("seer: nothing after ':'; write e.g. seer:rollouts=1,horizon=game")
    options = dict(OPTIONS)
    options.update(key_values("seer", rest, list(OPTIONS), "rollouts=1,horizon=game"))
    options["rollouts"] = _rollouts(options["rollouts"])
    return options


def _rollouts(text: Any) -> int:
    if isinstance(text, int):
        return text
    if not re.fullmatch(r"[0-9]{1,9}", text) or not 1 <= int(text) <= MAX_ROLLOUTS:
        raise ConfigError(
            f"seer: rollouts must be an integer from 1 to {MAX_ROLLOUTS:,}, got {text!r}"
        )
    return int(text)


def make_seer(game: str, spec: str, seed: int | None = None) -> SeerAgent:
    """The seer of a ``seer[:...]`` spec for ``game`` (rollout and horizon checked)."""
    from cardarena.agents.specs import best_baseline, scripted_names

    options = parse_seer(spec)
    policies = scripted_names(game)
    if options["rollout"] is None:
        options["rollout"] = best_baseline(game)
    if options["rollout"] not in policies:
        raise ConfigError(
            f"seer: rollout must be one of {policies} for {game}, got {options['rollout']!r}"
        )
    if options["horizon"] not in HORIZONS:
        raise ConfigError(
            f"seer: horizon must be one of {list(HORIZONS)}, got {options['horizon']!r}"
        )
    return SeerAgent(game, seed=seed, name=spec, **options)


def is_legal_player(agent: Any) -> bool:
    """False for an agent that declares ``legal_player = False`` or reads the true state
    (``sees_state``): whatever it says of itself, an agent handed the true state is no legal
    player."""
    return bool(getattr(agent, "legal_player", True)) and not getattr(agent, "sees_state", False)


__all__ = ["SeerAgent", "TrueWorld", "is_legal_player", "make_seer", "parse_seer"]
