"""Every game as a single-agent gymnasium env, for plain stable-baselines3 without self-play.

    env = gymnasium.make("cardarena/flip6-v0", opponents="ev", num_players=4)

The learner takes one seat (random each episode, or ``learner_seat``); the other seats are
played inside ``step()`` by agents of :func:`agents.make_agent` (scripted names, ``random``,
``zoo:NAME``, checkpoint paths, ``module:factory``):

==================  ============================================================================
``opponents``       one spec for every other seat (default: the game's best scripted baseline);
                    a list with one spec per other seat, in seat order skipping the learner's;
                    or a dict ``{spec: weight}``, from which every other seat draws each episode
``learner_seat``    None (random each episode) or a seat
``illegal_action``  "forfeit" (default): an illegal action ends the episode with reward
                    ``illegal_reward`` (-1) and ``info["illegal_action"]`` naming it, for algorithms
                    without action masks (and gymnasium's ``check_env``, which steps an action
                    sampled before ``reset``); "raise": the engine's IllegalActionError
``render_mode``     None, "ansi" (``render()`` returns the learner's view as text) or
                    "rgb_array" (a uint8 (H, W, 3) picture of it, envs/core/pictures.py)
others              the game's options (``num_players``, ``mode``, ``signals``, ...), ``shaping``,
                    ``shared_policy`` (cooperative games: the learner plays every seat), ``seed``
==================  ============================================================================

Observations are the learner's ``float32`` vector, actions the game's ``Discrete`` space, and
``env.unwrapped.action_masks()`` gives the legal actions (MaskablePPO finds it); ``reset`` and
``step`` also return them as ``info["action_mask"]`` (int8), which gymnasium's vector envs stack
(docs/vector_envs.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.errors import check_number
from cardarena.envs.core.pictures import picture
from cardarena.envs.core.registry import id_game
from cardarena.envs.core.seats import SeatAgent
from cardarena.envs.core.single_agent import SelfPlayEnv

ILLEGAL_MODES = ("forfeit", "raise")


class OpponentTable:
    """Opponent sampler of :class:`SelfPlayEnv` built from agent specs.

    One agent object per (opponent slot, spec) is built on first use and kept, so checkpoints load
    once; each is reset with a fresh seed every episode by the env.
    """

    def __init__(
        self, game: str, opponents: str | Sequence[str] | Mapping[str, float], num_others: int
    ) -> None:
        self.game = game
        self.num_others = num_others
        self.fixed: list[str] | None = None
        self.pool: list[str] = []
        self.weights: np.ndarray | None = None
        if isinstance(opponents, str):
            self.fixed = [opponents] * num_others
        elif not isinstance(opponents, Mapping | Sequence):
            raise ConfigError(
                f"opponents must be an agent spec (such as 'random' or 'zoo:NAME'), a list of "
                f"specs (one per other seat) or a dict {{spec: weight}}; got {opponents!r}"
            )
        elif isinstance(opponents, Mapping):
            if not opponents:
                raise ConfigError("opponents: the pool {spec: weight} is empty")
            self.pool = list(opponents)
            w = np.array([float(v) for v in opponents.values()])
            if (w < 0).any() or w.sum() <= 0:
                raise ConfigError(f"opponents: weights must be >= 0 with a positive sum: {w}")
            self.weights = w / w.sum()
        else:
            specs = list(opponents)
            if len(specs) != num_others:
                raise ConfigError(
                    f"opponents: a list gives one agent per other seat ({num_others} here), got "
                    f"{len(specs)}: {specs}. Pass one spec for every seat, or a dict "
                    f"{{spec: weight}} to draw each seat from a pool."
                )
            self.fixed = specs
        self._built: dict[tuple[int, str], SeatAgent] = {}
        for spec in self.fixed or self.pool:  # fail at construction on a bad spec
            self._agent(0, spec)

    def _agent(self, slot: int, spec: str) -> SeatAgent:
        key = (slot, spec)
        if key not in self._built:
            from cardarena.agents import make_agent

            self._built[key] = make_agent(self.game, spec)
        return self._built[key]

    def close(self) -> None:
        """Close every kept agent that has a ``close()`` (``SelfPlayEnv.close`` calls this: an
        ``exec:`` opponent's process ends) and forget them: a later episode builds new ones."""
        from cardarena.agents.base import close_agents

        built, self._built = self._built, {}
        close_agents(built.values())

    def __call__(self, rng: np.random.Generator, k: int) -> list[SeatAgent]:
        if self.fixed is not None:
            specs = self.fixed[:k]
        else:
            specs = [self.pool[i] for i in rng.choice(len(self.pool), size=k, p=self.weights)]
        return [self._agent(slot, spec) for slot, spec in enumerate(specs)]


class CardArenaGymEnv(SelfPlayEnv):
    """:class:`SelfPlayEnv` with gymnasium's render protocol and an illegal-action policy."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str,
        opponents: str | Sequence[str] | Mapping[str, float] | None = None,
        learner_seat: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "forfeit",
        illegal_reward: float = -1.0,
        shaping: float = 0.0,
        shared_policy: bool = False,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        if render_mode not in self.metadata["render_modes"] + [None]:
            raise ConfigError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        illegal_reward = check_number("illegal_reward", illegal_reward)
        if illegal_action not in ILLEGAL_MODES:
            raise ConfigError(
                f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}"
            )
        if opponents is None:
            from cardarena.agents import best_baseline

            opponents = best_baseline(game)
        super().__init__(
            game,
            env_options=options,
            learner_seat=learner_seat,
            shared_policy=shared_policy,
            seed=seed,
            shaping=shaping,
        )
        self.opponents = OpponentTable(game, opponents, self.num_players - 1)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self._forfeited = False  # the episode ended on an illegal action (its game goes on)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._forfeited = False
        return super().reset(seed=seed, options=options)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's pending decision; all False once the episode is over
        (game over, or forfeited on an illegal action)."""
        mask = super().action_masks()
        if self._forfeited:
            mask[:] = False
        return mask

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if (
            self.illegal_action == "forfeit"
            and self.state is not None
            and not self.engine.is_over(self.state)  # after the end: the engine's GameOverError
        ):
            # what is not an integer (None, a float, a text) is the AEC env's error, as in
            # "raise"; an integer that is not legal (out of range included) forfeits
            index = action if type(action) is int else self.table.integer(action, self.seat)
            legal = self.engine.legal_actions(self.state)
            if index not in legal:
                described = (
                    self.engine.describe_action(index)
                    if 0 <= index < self.engine.num_actions
                    else "out of range"
                )
                info = {
                    "seat": self.seat,
                    "action_mask": np.zeros(self.engine.num_actions, dtype=np.int8),
                    "illegal_action": f"{index} ({described}) is not legal in decision "
                    f"{self.engine.decision_name(self.state)!r}; legal: {legal}",
                }
                self._forfeited = True
                return self._observe(), self.illegal_reward, True, False, info
        return super().step(action)

    def render(self) -> str | np.ndarray | None:  # type: ignore[override]
        self.table.require("render()")
        if self.render_mode is None:
            gym.logger.warn("render() called with render_mode=None; pass render_mode='ansi'.")
            return None
        if self.render_mode == "rgb_array":  # the learner's view
            return picture(self.spec_game, self.state, self.seat, self.num_players)
        return super().render()


def make_env(game: str, **kwargs: Any) -> CardArenaGymEnv:
    """The env of ``game`` (what ``gymnasium.make("cardarena/<game>-v0", ...)`` builds)."""
    return CardArenaGymEnv(game, **kwargs)


def make_registered(**kwargs: Any) -> CardArenaGymEnv:
    """The entry point of every ``cardarena/<game>-v<k>`` gymnasium id: the id's game (a
    ``game=`` naming another one is refused, envs/core/registry.py)."""
    return CardArenaGymEnv(id_game(kwargs, "game"), **kwargs)
