"""Every cardarena game as an OpenSpiel game (the optional extra ``openspiel``).

    from cardarena.envs import openspiel
    game = openspiel.load_game("flip6", num_players=4)     # a pyspiel.Game
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

:func:`register` registers each game with ``pyspiel`` under ``cardarena_<game>`` (``load_game``
does it first), so ``pyspiel.load_game("cardarena_sevn", {"num_players": 3})`` and OpenSpiel's
algorithms that take a game (random simulation tests, MCTS, IS-MCTS, the RL environment and its
agents) run on it unchanged. What OpenSpiel sees:

* the players, the legal actions (ids and texts: ``describe_action``), the returns
  (``engine.returns``; thegame pays its shared return as it goes, the others at the end) and the
  utility (zero-sum, or identical for the cooperative thegame);
* the observation tensor of a player: the suite's encoder (``spec.encode(state, seat)``, the
  same vector as the PettingZoo env's), and its observation string: the seat's text render;
* the information-state string of a player: everything the seat has been shown, in order (its
  render after the deal and after every action that changed it, and the text of every action,
  all public in the suite), so it holds all the seat has seen (perfect recall) and two
  histories the seat cannot tell apart give the same string;
* the game parameters: the engine's options with their defaults (``num_players``,
  ``target_score``, ...), and ``seed``: deals are drawn from a generator the game owns.

Chance is **sampled** (``ChanceMode.SAMPLED_STOCHASTIC``): a deal and every later draw happen
inside ``apply_action`` from the state's own generator, as in the suite's engines, and a cloned
state draws the same cards as its original. OpenSpiel's tools that need the chance outcomes
spelt out (CFR, exact exploitability, sequence-form LP) do not apply to these full games.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from cardarena.envs.core.errors import ConfigError
from cardarena.envs.core.registry import get_spec, names

PREFIX = "cardarena_"
#: the longest game OpenSpiel is told of (decisions); every game of the suite ends well before
MAX_GAME_LENGTH = 100_000

try:
    import pyspiel
except ImportError:  # the optional extra is not installed: load_game says how to install it
    pyspiel = None

_Game: Any = pyspiel.Game if pyspiel is not None else object
_State: Any = pyspiel.State if pyspiel is not None else object


def _pyspiel() -> Any:
    if pyspiel is None:
        raise ConfigError(
            "OpenSpiel is not installed: pip install 'cardarena[openspiel]' (the open_spiel "
            "package)"
        )
    return pyspiel


def engine_defaults(game: str) -> dict[str, Any]:
    """The engine's options and their defaults, as OpenSpiel game parameters."""
    params = inspect.signature(get_spec(game).engine_cls.__init__).parameters
    out: dict[str, Any] = {}
    for name, p in params.items():
        if name == "self" or p.default is inspect.Parameter.empty:
            continue
        if isinstance(p.default, (bool, int, float, str)):
            out[name] = p.default
    return out


def register() -> list[str]:
    """Register every game with pyspiel (again is a no-op); the short names registered."""
    spiel = _pyspiel()
    done = set(spiel.registered_names())
    out = []
    for game in names():
        short = PREFIX + game
        if short not in done:
            game_type = _game_type(spiel, game, short)
            cls = type(
                f"CardArena_{game}", (CardArenaGame,), {"game": game, "game_type": game_type}
            )
            spiel.register_game(game_type, cls)
        out.append(short)
    return out


def load_game(game: str, **options: Any) -> Any:
    """The OpenSpiel game of ``game`` with ``options`` (engine options and ``seed``)."""
    if game not in names():
        raise ConfigError(f"no game {game!r}; the games are {names()}")
    register()
    return _pyspiel().load_game(PREFIX + game, options)


def _game_type(spiel: Any, game: str, short: str) -> Any:
    cls = get_spec(game).engine_cls
    shared = cls.reward_kind == "shared"
    kind = spiel.GameType
    return kind(
        short_name=short,
        long_name=f"cardarena {game}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.SAMPLED_STOCHASTIC,
        information=kind.Information.IMPERFECT_INFORMATION,
        utility=kind.Utility.IDENTICAL if shared else kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.REWARDS if shared else kind.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**engine_defaults(game), "seed": 0},
    )


class CardArenaGame(_Game):  # type: ignore[misc]
    """One game of the suite as a ``pyspiel.Game`` (a subclass per game sets ``game`` and
    ``game_type``, see :func:`register`)."""

    game: str = ""
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        defaults = engine_defaults(self.game)
        options = {k: params.get(k, v) for k, v in defaults.items()}
        self.spec = get_spec(self.game)
        self.engine = self.spec.make_engine(**options)
        self.shared = self.engine.reward_kind == "shared"
        seed = int(params.get("seed", 0))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=0,
            num_players=self.engine.num_players,
            min_utility=0.0 if self.shared else -1.0,
            max_utility=1.0,
            utility_sum=None if self.shared else 0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(self.game_type, info, {**options, "seed": seed})
        self.deals = np.random.default_rng(seed)

    def new_initial_state(self) -> Any:
        deal = np.random.default_rng(self.deals.integers(2**63))
        return CardArenaState(self, self.engine.new_game(deal))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ConfigError(f"{PREFIX}{self.game}: observation parameters are not supported")
        return Observer(self.spec, iig_obs_type is not None and iig_obs_type.perfect_recall)


class CardArenaState(_State):  # type: ignore[misc]
    """A game in play: the engine's state, and what each seat has been shown."""

    def __init__(self, game: CardArenaGame, inner: Any) -> None:
        super().__init__(game)
        self.engine, self.spec, self.shared = game.engine, game.spec, game.shared
        self.inner = inner
        n = self.engine.num_players
        #: per seat, what it has been shown in order (information-state strings)
        self.shown: list[list[str]] = [[] for _ in range(n)]
        #: per seat, its render as last shown (a new one is noted when it changes)
        self._last = [""] * n
        self._paid = [0.0] * n
        self._rewards = [0.0] * n
        self._note()

    def _note(self) -> None:
        """Add each seat's render to what it has been shown, where it changed."""
        for seat, seen in enumerate(self.shown):
            now = self.spec.render(self.inner, seat)
            if now != self._last[seat]:
                seen.append(now)
                self._last[seat] = now

    def current_player(self) -> int:
        if self.engine.is_over(self.inner):
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.engine.current_player(self.inner))

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine.is_over(self.inner) or player != self.current_player():
            return []
        return sorted(int(a) for a in self.engine.legal_actions(self.inner))

    def _apply_action(self, action: int) -> None:
        seat = self.engine.current_player(self.inner)
        self.engine.apply(self.inner, int(action), seat)
        text = f"seat {seat}: {self.engine.describe_action(int(action))}"
        for seen in self.shown:
            seen.append(text)
        now = [float(r) for r in self.engine.returns(self.inner)]
        self._rewards = [a - b for a, b in zip(now, self._paid, strict=True)]
        self._paid = now
        self._note()

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.engine.describe_action(int(action)))

    def is_terminal(self) -> bool:
        return bool(self.engine.is_over(self.inner))

    def returns(self) -> list[float]:
        if not self.shared and not self.engine.is_over(self.inner):
            return [0.0] * self.engine.num_players
        return [float(r) for r in self.engine.returns(self.inner)]

    def rewards(self) -> list[float]:
        if not self.shared:
            return self.returns() if self.is_terminal() else [0.0] * self.engine.num_players
        return list(self._rewards)

    def __str__(self) -> str:
        return str(self.spec.render(self.inner, None))

    def __deepcopy__(self, memo: Any) -> Any:
        twin = CardArenaState.__new__(CardArenaState)
        pyspiel.State.__init__(twin, self.get_game())
        twin.engine, twin.spec, twin.shared = self.engine, self.spec, self.shared
        twin.inner = self.engine.clone(self.inner)
        twin.shown = [list(s) for s in self.shown]
        twin._last = list(self._last)
        twin._paid, twin._rewards = list(self._paid), list(self._rewards)
        return twin


class Observer:
    """OpenSpiel's Python observer: the encoder's vector and the seat's render, or (perfect
    recall) everything the seat has been shown."""

    def __init__(self, spec: Any, recall: bool) -> None:
        self.spec = spec
        self.recall = recall
        self.tensor = np.zeros(0 if recall else spec.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardArenaState, player: int) -> None:
        if not self.recall:
            self.tensor[:] = self.spec.encode(state.inner, player)

    def string_from(self, state: CardArenaState, player: int) -> str:
        if self.recall:
            return "\n".join(state.shown[player])
        return str(self.spec.render(state.inner, player))
