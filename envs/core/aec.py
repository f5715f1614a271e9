"""The generic PettingZoo AEC environment over any rules engine of the suite.

A game plugs in with a :class:`GameSpec` (engine class, encoder, renderer). This class owns the
AEC bookkeeping (agents, rewards, terminations); the game itself is a :class:`~envs.core.table.Table`,
which the single-agent self-play env drives too, so both share the reset options, the seeding, the
safety checks, the rewards (changes of ``engine.returns``) and the masks. It never knows a rule.
The checks PettingZoo's wrapper stack would add (order enforcing, out-of-bounds actions) are done
in a few comparisons, so ``env()`` keeps them at almost no cost and ``raw_env()`` skips them.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardarena.envs.core.engine import (
    CardArenaError,
    ConfigError,
    GameEngine,
    GameOverError,
    IllegalActionError,
    ResetNeededError,
    StateReader,
    unguarded,
)
from cardarena.envs.core.errors import (
    ActionTypeError,
    UnknownAgentError,
    check_int,
    check_number,
)
from cardarena.envs.core.pictures import check_seat, picture
from cardarena.envs.core.spec import GameSpec  # noqa: F401  (re-exported: it lived here)
from cardarena.envs.core.table import Table

#: the key of ``to_dict`` holding the AEC bookkeeping (rewards still owed)
AEC_KEY = "aec"
#: no reward of the suite comes near this; a saved one beyond it is refused
_REWARD_BOUND = 1e6
RENDER_MODES = (None, "ansi", "human", "rgb_array")
#: what an illegal action does: the engine's IllegalActionError, or PettingZoo classic's end of
#: the game with ``illegal_reward`` for the offender and 0 for everybody else
ILLEGAL_ACTIONS = ("raise", "terminate")


class CardGameEnv(AECEnv):
    """PettingZoo AEC env over a :class:`GameEngine`; agents ``player_0`` .. ``player_{n-1}``."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": 2,
        "name": "cardarena",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        spec: GameSpec,
        render_mode: str | None = None,
        checks: bool = True,
        render_seat: int | str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in RENDER_MODES:
            raise ConfigError(
                f"render_mode must be None, 'ansi', 'human' or 'rgb_array', got {render_mode!r}"
            )
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ConfigError(
                f"illegal_action must be 'raise' (the engine's IllegalActionError) or "
                f"'terminate' (the game ends, illegal_reward for the offender), got "
                f"{illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.illegal_reward = check_number("illegal_reward", illegal_reward)
        #: the seat whose illegal action ended the episode ("terminate"), else None
        self.forfeited_by: int | None = None
        self.spec = spec
        # this env's own metadata (wrappers such as CaptureStdoutWrapper add render modes to it)
        self.metadata = {
            **self.metadata,
            "render_modes": list(self.metadata["render_modes"]),  # type: ignore[call-overload]
            "name": f"{spec.name}_v{spec.version}",
        }
        self.game: GameEngine = spec.make_engine(**options)
        self.options = dict(options)
        self.render_mode = render_mode
        try:  # who render() shows the table to: a seat, None (public) or "observer" (everything)
            self.render_seat = check_seat(render_seat, self.game.num_players)
        except ValueError as err:
            raise ConfigError(str(err)) from None
        self._checks = checks
        self._table = Table(spec, self.game, checks)
        # the table's and the engine's methods of the hot loop, bound once
        self._mask, self._pay = self._table.mask, self._table.pay
        self._engine_apply = unguarded(self.game.apply)  # the env checks the state itself
        self._current = unguarded(self.game.current_player)
        # last() builds the observation itself unless a subclass has its own observe()
        self._own_observe = type(self).observe is CardGameEnv.observe
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._num_actions = self.game.num_actions
        self._rewards_zero = True
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    spec.obs_low, spec.obs_high, (spec.obs_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), dtype=np.int8),
            }
        )
        act_space: spaces.Space[Any] = spaces.Discrete(self._num_actions)
        privileged = spec.privileged_module() if spec.privileged else None
        self._privileged = privileged
        self._state_size = n * spec.obs_size + (
            int(privileged.privileged_size(self.game)) if privileged else 0
        )
        #: the space of :meth:`state`: every seat's observation, then the hidden state
        self.state_space = spaces.Box(
            spec.obs_low, spec.obs_high, (self._state_size,), dtype=np.float32
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.agents: list[str] = []
        # set so that last() before reset() reaches observe() and its CardArenaError
        self.agent_selection = self.possible_agents[0]

    # ---- checks of the arguments ------------------------------------------------------------------
    def _require(self, what: str) -> Any:
        """The state in play, or ResetNeededError: ``what`` needs a game (call reset() first)."""
        return self._table.require(what)

    def seat_of(self, agent: Any) -> int:
        """The seat of agent name ``agent`` (``"player_2"`` -> 2), or UnknownAgentError naming
        the agents of this table."""
        seat = self._seat_of.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise UnknownAgentError(
                f"{self.spec.name}: no agent {agent!r} at this table; agents: "
                f"{self.possible_agents}"
            )
        return seat

    def check_seat(self, seat: Any) -> int:
        """``seat`` as an int in ``range(num_players)`` (a Python or numpy integer), or the
        ConfigError saying what a seat is here."""
        return check_int(f"{self.spec.name}: seat", seat, 0, self.game.num_players - 1)

    # ---- PettingZoo API ----------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self.seat_of(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self.seat_of(agent)]]

    @property
    def state_obj(self) -> Any:
        """The engine state of the game in play (None before the first reset)."""
        return self._table.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` gives the deal ``engine.new_game(np.random.default_rng(seed))``,
        no seed the next deal of a generator started by the last seeded reset. An unknown option
        is a ConfigError naming the known ones (``spec.reset_options``): envs/core/table.py."""
        self._table.reset(seed, options)
        self._sync_after_load()

    def _sync_after_load(self) -> None:
        """Rebuild the AEC bookkeeping from the engine state (after reset or from_dict)."""
        self.forfeited_by = None
        agents = self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self._rewards_zero = True
        if self._table.is_over():
            self._finish()
            self.agent_selection = self.agents[0]
        else:
            seat = self.game.current_player(self.state_obj)
            self.agent_selection = self.possible_agents[seat]  # type: ignore[index]

    def _finish(self) -> None:
        for agent in self.agents:
            self.terminations[agent] = True

    def _forfeit(self, agent: str, why: str) -> None:
        """``illegal_action="terminate"``: ``agent``'s illegal action ends the episode, with
        ``illegal_reward`` for it and 0 for every other agent (PettingZoo classic's rule); the
        engine's game is left as it was."""
        self.forfeited_by = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
        self.rewards[agent] = self.illegal_reward
        self._rewards_zero = not self.illegal_reward
        self.infos[agent] = {**self.infos.get(agent, {}), "illegal_action": why}
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        table = self._table
        state = table.state
        if state is None:
            raise ResetNeededError(f"{self.spec.name}: call reset() before observe() or last().")
        seat = self._seat_of.get(agent) if type(agent) is str else None
        if seat is None:
            seat = self.seat_of(agent)  # the error naming the agents
        return {"observation": table.encode(state, seat), "action_mask": self._mask(seat)}

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()`` (observation, cumulative reward, termination, truncation and
        info of ``agent_selection``) with :meth:`observe` done in place: one call less a step."""
        agent = self.agent_selection
        assert agent is not None
        if not observe:
            observation = None
        elif self._own_observe:
            table = self._table
            state = table.state
            if state is None:
                raise ResetNeededError(
                    f"{self.spec.name}: call reset() before observe() or last()."
                )
            seat = self._seat_of[agent]
            observation = {
                "observation": table.encode(state, seat),
                "action_mask": self._mask(seat),
            }
        else:
            observation = self.observe(agent)
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        table = self._table
        state = table.state
        if state is None:
            raise ResetNeededError(f"{self.spec.name}: call reset() before step().")
        if not self.agents:
            raise GameOverError(
                f"{self.spec.name}: the game is over and every agent has been stepped out; "
                f"call reset() to start a new game."
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GameOverError(
                    f"{self.spec.name}: the game is over; {agent} is terminated and can only be "
                    f"stepped with None (got {action!r}). Call reset() for a new game."
                )
            self._was_dead_step(action)
            return
        # Table.apply done in place: the table checks the action (unless raw; the common case,
        # a plain int in range, passes with one type test and one comparison), the engine the
        # turn and its legality
        seat = self._seat_of[agent]
        try:
            if type(action) is not int or not 0 <= action < self._num_actions:
                # raw (checks off): the type is still checked, the range left to the engine
                action = table.action(action, seat) if self._checks else table.integer(action, seat)
            self._engine_apply(state, action, seat)
        except IllegalActionError as err:
            if self.illegal_action != "terminate" or isinstance(err, ActionTypeError):
                raise
            self._forfeit(agent, str(err))
            return
        self._cumulative_rewards[agent] = 0.0
        # Rewards are the changes of the returns, paid by the table (a live step: every agent is
        # still in). While the returns stay put and every reward is already 0.0 (most steps of a
        # terminal-reward game), setting them to 0.0 again and adding them to the cumulative
        # rewards would change nothing, so both are skipped.
        rewards = self.rewards
        changed = self._pay(rewards, self.possible_agents)
        if changed:
            self._rewards_zero = not any(rewards.values())
        elif not self._rewards_zero:  # last step paid something: this one pays 0.0
            for a in self.agents:
                rewards[a] = 0.0
            changed = self._rewards_zero = True
        current = self._current(state)  # None once the game is over
        if current is None:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[current]
        if changed:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def state(self) -> np.ndarray:
        """The global state, for centralised critics (PettingZoo's ``state()``): every seat's
        observation in seat order, then the game's hidden state (its privileged encoding,
        ``envs/<game>/privileged.py``, from seat 0), float32 in :attr:`state_space`. Never an
        input of a policy that plays: it shows every hidden card."""
        state = self._require("state()")
        table = self._table
        parts = [table.encode(state, seat) for seat in range(self.game.num_players)]
        if self._privileged is not None:
            parts.append(self._privileged.encode_privileged(state, 0))
        return np.concatenate(parts).astype(np.float32, copy=False)

    def render(self) -> str | np.ndarray | None:
        self._require("render()")
        if self.render_mode is None:
            warnings.warn(
                "render() called with render_mode=None; pass render_mode='ansi'.", stacklevel=2
            )
            return None
        if self.render_mode == "rgb_array":
            return self.render_picture(self.render_seat)
        text = self.render_text(self.render_seat if isinstance(self.render_seat, int) else None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_text(self, seat: int | None = None) -> str:
        """The public state as text; with ``seat``, also that seat's private cards."""
        state = self._require("render_text()")
        return self.spec.render(state, None if seat is None else self.check_seat(seat))

    def render_picture(self, seat: int | str | None = None) -> np.ndarray:
        """What ``seat`` may see as an RGB image (uint8, H x W x 3): a seat, None (the public
        table) or ``"observer"`` (every card, hidden ones included); see envs/core/pictures.py."""
        state = self._require("render_picture()")
        try:
            seat = check_seat(seat, self.game.num_players)
        except ValueError as err:
            raise ConfigError(str(err)) from None
        return picture(self.spec, state, seat, self.game.num_players)

    def close(self) -> None:
        pass

    # ---- the suite's contract ------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        """The text of ``action`` (an int of the action space; no game needed)."""
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise IllegalActionError(
                f"{self.spec.name}: an action is an int in [0, {self._num_actions - 1}], got "
                f"{action!r}"
            )
        return self.game.describe_action(int(action))

    def parse_action(self, text: str) -> int:
        """The action id of an action text; any text the game does not read raises
        :class:`IllegalActionError` naming it, the texts the game reads and the legal ones now."""
        try:
            return self.game.parse_action(text)
        except CardArenaError as err:
            state = self.state_obj
            if state is None or self.game.is_over(state):
                raise
            legal = [self.game.describe_action(a) for a in self.game.legal_actions(state)]
            raise IllegalActionError(f"{err}; legal now: {legal}") from None

    def legal_actions(self) -> list[int]:
        """The deciding seat's legal actions (empty once the game is over)."""
        return self.game.legal_actions(self._require("legal_actions()"))

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as plain data (what scripted agents read)."""
        state = self._require("view()")
        return self.spec.view(state, self.check_seat(seat))

    def sample_world(self, seat: int, rng: np.random.Generator) -> Any:
        """A complete engine state drawn from ``seat``'s information set: what ``seat`` has seen
        is kept, everything hidden from it (other hands, pile orders, the generator) is redrawn
        (``GameEngine.resample_hidden``). The result depends on ``seat``'s information and
        ``rng`` only; ``game.to_dict`` / ``from_dict`` and ``apply`` accept it, and the env's own
        game is left untouched."""
        state = self._require("sample_world()")
        seat = self.check_seat(seat)
        if not isinstance(rng, np.random.Generator):
            raise ConfigError(
                f"{self.spec.name}: sample_world needs a numpy Generator "
                f"(np.random.default_rng(seed)), got {rng!r}"
            )
        return self.game.resample_hidden(state, seat, rng)

    def to_dict(self) -> dict[str, Any]:
        """The engine's ``to_dict`` plus ``aec``: the rewards this env still owes its agents
        (``rewards`` of the last step and the ``cumulative_rewards`` not yet collected by
        ``last()``, per seat), so that a payoff is not lost across a save."""
        if self.state_obj is None:
            raise ResetNeededError(f"{self.spec.name}: nothing to save; call reset() first.")
        data = self.game.to_dict(self.state_obj)
        data[AEC_KEY] = {
            "rewards": [float(self.rewards.get(a, 0.0)) for a in self.possible_agents],
            "cumulative_rewards": [
                float(self._cumulative_rewards.get(a, 0.0)) for a in self.possible_agents
            ],
            # the seats still in the env: after the game's end, those not yet stepped out
            "agents": [self._seat_of[a] for a in self.agents],
        }
        if self.forfeited_by is not None:  # the episode ended on this seat's illegal action
            data[AEC_KEY]["forfeited_by"] = self.forfeited_by
        return data

    def from_dict(self, data: dict[str, Any]) -> None:
        """Restore a state saved by :meth:`to_dict`; play continues exactly as it would have.

        An engine state without ``aec`` (``game.to_dict()``) loads with nothing owed. Raises
        ConfigError, naming the field, for an impossible state; the env is unchanged then."""
        owed = None
        if isinstance(data, dict) and AEC_KEY in data:
            reader = StateReader(self.game, data)
            aec = reader.get(AEC_KEY)
            keys = {"rewards", "cumulative_rewards"}
            if not isinstance(aec, dict) or not keys <= set(aec) <= keys | {
                "agents",
                "forfeited_by",
            }:
                raise reader.error(
                    AEC_KEY, aec, "{'rewards': [...], 'cumulative_rewards': [...], 'agents': [...]}"
                )
            n = self.game.num_players
            owed = [
                reader.floats(f"{AEC_KEY}.{key}", _REWARD_BOUND, n, aec[key])
                for key in ("rewards", "cumulative_rewards")
            ]
            live = aec.get("agents", list(range(n)))
            if (
                not isinstance(live, list)
                or not all(type(s) is int and 0 <= s < n for s in live)
                or live != sorted(set(live))
            ):
                raise reader.error(
                    f"{AEC_KEY}.agents", live, f"distinct seats 0..{n - 1}, in order"
                )
            forfeit = aec.get("forfeited_by")
            if forfeit is not None and not (type(forfeit) is int and 0 <= forfeit < n):
                raise reader.error(f"{AEC_KEY}.forfeited_by", forfeit, f"a seat 0..{n - 1}")
            data = {k: v for k, v in data.items() if k != AEC_KEY}
        state = self.game.from_dict(data)
        ended = owed is not None and (self.game.is_over(state) or forfeit is not None)
        if owed is not None and live != list(range(n)) and not ended:
            raise reader.error(f"{AEC_KEY}.agents", live, "every seat while the game runs")
        self._table.load(state)
        self._sync_after_load()
        if owed is not None:
            agents = self.possible_agents
            self.rewards = dict(zip(agents, owed[0], strict=True))
            self._cumulative_rewards = dict(zip(agents, owed[1], strict=True))
            self._rewards_zero = not any(owed[0])
            gone = [agents[s] for s in range(n) if s not in live]  # stepped out before the save
            for agent in gone:
                self.agents.remove(agent)
                for book in (self.rewards, self._cumulative_rewards, self.terminations):
                    book.pop(agent, None)
                self.truncations.pop(agent, None)
                self.infos.pop(agent, None)
            if forfeit is not None:
                self.forfeited_by = forfeit
                self._finish()
            if gone and self.agents:
                self.agent_selection = self.agents[0]

    def __str__(self) -> str:
        return str(self.metadata["name"])
