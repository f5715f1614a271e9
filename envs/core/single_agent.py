"""Single-agent gymnasium view of any game, for stable-baselines3 (MaskablePPO) self-play.

One learner seat per episode (random by default); every other seat is played inside ``step()`` by
an opponent drawn from an ``opponents`` callable, so SB3 only ever sees the learner's decisions.
The learner's reward is 0 until the game ends, then its own terminal payoff (``returns[seat]``).
``action_masks()`` is a method of the env, so ``SubprocVecEnv``/``DummyVecEnv`` and sb3-contrib's
``get_action_masks`` find it; ``reset`` and ``step`` also return the mask as ``info["action_mask"]``
(int8; all zeros once the episode has ended), which gymnasium's vector envs stack into
``infos["action_mask"]``. Cooperative games may set ``shared_policy=True``: the learner then
acts for every seat (one shared policy), with the shared reward at the end.

Opponents are reset with a fresh seed every episode, so a sampler may hand the same agent objects
out again; at a game's end each hears the result (``end_game``, as in tournaments: an outside
program gets its ``result`` message), and ``close()`` calls the sampler's ``close()`` if it has
one (what it keeps open, such as an outside program's process, ends there).

The game is a :class:`~envs.core.table.Table`, as in the AEC env (``aec.py``): both envs check
reset options (an unknown one is a ConfigError naming the known ones), seeds and actions the same
way, and reward the same changes of ``engine.returns``. The default opponent is
:class:`~envs.core.seats.RandomSeat` (what ``agents.base.RandomAgent`` is).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from cardarena.envs.core.errors import ConfigError, check_int, check_number
from cardarena.envs.core.loop import finish, play, result
from cardarena.envs.core.registry import get_spec
from cardarena.envs.core.seats import RandomSeat, SeatAgent
from cardarena.envs.core.table import SEED_BOUND, Table, check_seed

#: given the env's generator and the number of opponent seats, the agents for those seats
OpponentSampler = Callable[[np.random.Generator, int], Sequence[SeatAgent]]


class LegalDiscrete(gym.spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws a legal action of the env.

    Code that explores with ``action_space.sample()`` (SB3's ``check_env``, quick scripts) then
    plays legal moves instead of tripping the engine's illegal-action error. The link to the env
    is dropped when the space is pickled (SubprocVecEnv sends spaces to the main process).
    """

    def __init__(self, n: int, env: SelfPlayEnv) -> None:
        super().__init__(n)
        self._env: SelfPlayEnv | None = env

    def sample(
        self, mask: np.ndarray | None = None, probability: np.ndarray | None = None
    ) -> np.int64:
        if (
            mask is None
            and probability is None
            and self._env is not None
            and self._env.state is not None
        ):
            legal = self._env.action_masks()
            if legal.any():
                mask = legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_env"] = None
        return state


def _random_opponents(rng: np.random.Generator, k: int) -> list[SeatAgent]:
    return [RandomSeat() for _ in range(k)]


class SelfPlayEnv(gym.Env):
    """The learner's view of a game whose other seats are played by sampled opponents."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        env_options: dict[str, Any] | None = None,
        opponents: OpponentSampler | None = None,
        learner_seat: int | None = None,
        shared_policy: bool = False,
        seed: int | None = None,
        shaping: float = 0.0,
    ) -> None:
        super().__init__()
        self.spec_game = get_spec(game)
        self.game_name = game
        if env_options is not None and not isinstance(env_options, dict):
            raise ConfigError(f"{game}: env_options must be a dict, got {env_options!r}")
        self.engine = self.spec_game.make_engine(**(env_options or {}))
        self.num_players = self.engine.num_players
        if learner_seat is not None:
            learner_seat = check_int("learner_seat", learner_seat, 0, self.num_players - 1)
        if not isinstance(shared_policy, bool | np.bool_):
            raise ConfigError(f"shared_policy must be True or False, got {shared_policy!r}")
        shaping = check_number("shaping", shaping)
        seed = check_seed(seed)
        self.opponents = opponents or _random_opponents
        self.fixed_seat = learner_seat
        self.shared_policy = shared_policy
        self.shaping = float(shaping)
        self.observation_space = gym.spaces.Box(
            self.spec_game.obs_low, self.spec_game.obs_high, (self.spec_game.obs_size,), np.float32
        )
        self.action_space = LegalDiscrete(self.engine.num_actions, self)
        self._rng = np.random.default_rng(seed)
        self._mask = np.zeros(self.engine.num_actions, dtype=np.int8)
        self.table = Table(self.spec_game, self.engine)
        self._paid = [0.0] * self.num_players  # the table's payout of the last step, by seat
        self.seat = 0
        self.seat_agents: list[SeatAgent | None] = []
        self.opponent_decisions = 0

    @property
    def state(self) -> Any:
        """The engine state of the game in play (None before the first reset)."""
        return self.table.state

    # ---- gymnasium API ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode. ``seed`` restarts the env's generator, which draws every deal seed,
        the learner's seat and the opponents' seeds; ``options`` are the game's reset options
        (``spec.reset_options``: an unknown one is a ConfigError, as in the AEC env)."""
        seed = check_seed(seed)
        game_options = self.table.game_options(options)
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        table = self.table
        while True:
            table.deal(int(self._rng.integers(SEED_BOUND)), game_options)
            self.seat = (
                self.fixed_seat
                if self.fixed_seat is not None
                else int(self._rng.integers(self.num_players))
            )
            self.seat_agents = [None] * self.num_players
            if not self.shared_policy:
                others = [s for s in range(self.num_players) if s != self.seat]
                for s, agent in zip(others, self.opponents(self._rng, len(others)), strict=True):
                    agent.reset(int(self._rng.integers(2**31)))
                    self.seat_agents[s] = agent
            self._play_opponents()
            if not table.is_over():
                break  # a game that ends before the learner decides teaches nothing
        table.mark()  # what the opponents did before the learner's first decision pays nothing
        self._last_potential = self.engine.potential(self.state, self.seat)
        return self._observe(), {"seat": self.seat, "action_mask": table.mask()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self.table
        seat = self.seat
        table.apply(action, seat)  # the AEC env's checks: a step before reset, the action, the turn
        self._play_opponents()
        over = table.is_over()
        # everything that changed the learner's return since its last decision, opponents' moves
        # included (the terminal payoff for competitive games)
        paid = self._paid
        reward = paid[seat] if table.pay(paid, range(self.num_players)) else 0.0
        if self.shaping:
            # potential-based shaping: telescopes over the game, optimal policy unchanged
            # (the potential of a finished game is 0, so the shaping adds up to -potential(start)
            # whatever happens: the objective is exactly the game's payoff)
            potential = 0.0 if over else self.engine.potential(self.state, seat)
            reward += self.shaping * (potential - self._last_potential)
            self._last_potential = 0.0 if over else self.engine.potential(self.state, self.seat)
        info: dict[str, Any] = {"seat": self.seat, "action_mask": table.mask()}
        if over:
            winners = self.engine.winners(self.state)
            info["win"] = (1.0 / len(winners)) if self.seat in winners else 0.0
            info["scores"] = self.engine.scores(self.state)
            info["opponents"] = [a.name if a else "learner" for a in self.seat_agents]
            if not self.shared_policy:  # kept opponents (an outside program) hear the result
                outcome = result(self.engine, self.state, cooperative=self.spec_game.cooperative)
                finish(self.seat_agents, outcome)
        return self._observe(), reward, over, False, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's pending decision (all False once the game is over)."""
        self.table.require("action_masks()")
        return self.table.mask(dtype=bool)

    def set_opponent_priorities(self, priorities: dict[str, float]) -> None:
        """Forward sampling weights to the opponent sampler (``VecEnv.env_method`` reaches this
        in every worker, so prioritised self-play also works with SubprocVecEnv)."""
        setter = getattr(self.opponents, "set_priorities", None)
        if setter is not None:
            setter(priorities)

    def close(self) -> None:
        """Close the opponent sampler when it has a ``close()`` (one that keeps its agents ends
        their outside programs' processes there)."""
        closer = getattr(self.opponents, "close", None)
        if closer is not None:
            closer()
        super().close()

    def render(self) -> str:  # type: ignore[override]
        return self.spec_game.render(self.table.require("render()"), self.seat)

    # ---- internals -------------------------------------------------------------------------------
    def _observe(self) -> np.ndarray:
        state = self.table.state
        seat = self.engine.current_player(state)
        return self.table.encode(state, self.seat if seat is None else seat)

    def _play_opponents(self) -> None:
        """Let every non-learner seat act until the learner must decide or the game ends."""
        self.opponent_decisions += play(
            self.spec_game, self.engine, self.table.state, self.seat_agents, mask=self._mask
        )
        if self.shared_policy and not self.table.is_over():
            self.seat = self.engine.current_player(self.table.state)
