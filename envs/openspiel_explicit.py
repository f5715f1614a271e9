"""Small variants of the games as OpenSpiel games with EXPLICIT chance, for exact solvers.

    from cardarena.envs import openspiel_explicit as ox
    game = ox.load_preset("ratatat_tiny")            # a pyspiel.Game, chance spelt out
    from open_spiel.python.algorithms import cfr, exploitability
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    exploitability.nash_conv(game, solver.average_policy())

The sampled games of :mod:`envs.openspiel` deal inside ``apply_action``, so OpenSpiel's tools that
walk the tree with the chance outcomes spelt out (CFR, exact best responses and NashConv,
sequence-form LP) cannot run on them. Here a *variant* is a game, its engine options and a small
deck (a multiset of card codes). The game starts at one chance node whose outcomes are the
distinct orderings of that deck, each equally likely (a uniform shuffle of the small deck gives
every distinct ordering the same probability); the ordering is handed to the engine as its
``deck`` reset option (the top of the draw pile), and from there the engine plays on unchanged,
deterministically. That is the game with explicit chance exactly when nothing else draws
randomness: the engine stacks the small deck on top of the rest of its full deck (shuffled by
its own generator), so the variant must end before it draws a card below the small deck, and
must never reshuffle or deal again. Building the game walks the whole tree and raises a
:class:`ConfigError` naming the variant when a history breaks that (or when the tree is larger
than the limits below): no history of a built game reaches a card outside its deck.

The tree is built once (the engine's renders and returns at every history, interned) and a state
is an index into it, so CFR's many passes cost no engine calls. What a seat knows is the same as
in :mod:`envs.openspiel`: the information-state string of a seat is everything it has been
shown, in order (its render after the deal and after every action that changed it, and the text
of every action: all actions are public in the suite), so it has perfect recall; building checks
that the legal actions are the same at every history of an information state.

ratatat's variants use its ``num_rounds=1`` and ``max_turns`` options, which end the game
after a fixed number of turns with no new deal (R12, R16); with number cards only (no
DRAW_TWO, no R14 replacement) each turn draws at most one card, so a deck of 2 * 4 + 1 + max_turns
cards is never exhausted.

flip6 has no option that caps the rounds: a round where nobody reaches the target leads to the
next deal, from below the small deck. Its variants therefore end by a rule of their own
(:attr:`Preset.one_round`): the game ends when the first round does, and the seats with the
highest total banked win (the game's +1 / -1 split, shared by a tie, all 0 when every seat
busts); a bank that reaches the (low) target still ends it at once and wins (F17). The engine
has by then dealt the next round's first cards from below the deck: the variant's terminal
history is that state, whose returns depend on the first round only (nothing banks during a
deal), and no decision is taken there. With two or three number values in the deck a seat
busts by its third or fourth card (F8), so every history of the presets stays inside a deck of
9 or 10 cards (building checks it).

sevn's variants end the same way, at the first hand's end (S27 checks the target only there,
and would play another hand after a tie at the top or when nobody reached it): the highest
total banked wins, a tie shares the win. With two or three number values (and one ballast, S11:
keep or discard, a distinct value when kept) two seats bust by their fourth or fifth card (S9),
inside a deck of 8 or 9 cards.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardarena.envs.core.errors import ConfigError
from cardarena.envs.core.registry import get_spec

SHORT_NAME = "cardarena_explicit"
#: the most deals (distinct orderings of the small deck) a variant may have
MAX_DEALS = 5_000
#: the most histories (chance, decision and terminal nodes) a variant's tree may have
MAX_HISTORIES = 400_000
#: the engine's generator for the cards below the small deck (never drawn: checked)
_BELOW_SEED = 0

try:
    import pyspiel
except ImportError:  # the optional extra is not installed: load_preset says how to install it
    pyspiel = None

_Game: Any = pyspiel.Game if pyspiel is not None else object
_State: Any = pyspiel.State if pyspiel is not None else object


@dataclass(frozen=True)
class Preset:
    """A small variant: ``game`` with engine ``options`` and the small ``deck`` (card codes)."""

    game: str
    options: dict[str, Any]
    deck: tuple[str, ...]
    about: str = ""
    #: the variant's own end: after the first round (the engine would deal again), the seats
    #: with the highest total banked win (the game's +1 / -1 split, a tie shares it)
    one_round: bool = False


_RATATAT_SHORT = {"num_players": 2, "num_rounds": 1, "max_turns": 2}

#: flip6 with the fewest seats it allows (3) and a target one round can reach (5 + 6); the
#: variant ends at the first round's end (``one_round``: the engine would deal again, from
#: below the small deck)
_FLIP6_SHORT = {"num_players": 3, "target_score": 11}

#: sevn with 2 players and a target one hand can reach (12 + 13); the variant ends at the first
#: hand's end (S27 would play another hand after a tie at the top, or below the target)
_SEVN_SHORT = {"num_players": 2, "target_score": 25}

#: the variants; their sizes are in docs/openspiel.md and checked by the tests
PRESETS: dict[str, Preset] = {
    "ratatat_tiny": Preset(
        "ratatat",
        _RATATAT_SHORT,
        ("9",) * 9 + ("0",) * 2,
        "2 players, one round of 2 turns (one each), a deck of nine 9s and two 0s: 55 deals",
    ),
    "ratatat_small": Preset(
        "ratatat",
        _RATATAT_SHORT,
        ("9",) * 7 + ("0",) * 4,
        "2 players, one round of 2 turns (one each), a deck of seven 9s and four 0s: 330 deals",
    ),
    "ratatat_mid": Preset(
        "ratatat",
        _RATATAT_SHORT,
        ("9",) * 8 + ("0",) * 2 + ("5",),
        "2 players, one round of 2 turns (one each), a deck of eight 9s, two 0s and one 5: "
        "495 deals",
    ),
    "flip6_tiny": Preset(
        "flip6",
        _FLIP6_SHORT,
        ("5",) * 4 + ("6",) * 5,
        "3 players, one round, target 11, a deck of four 5s and five 6s: 126 deals",
        one_round=True,
    ),
    "flip6_small": Preset(
        "flip6",
        _FLIP6_SHORT,
        ("4",) + ("5",) * 4 + ("6",) * 5,
        "3 players, one round, target 11, a deck of one 4, four 5s and five 6s: 1,260 deals",
        one_round=True,
    ),
    "flip6_mid": Preset(
        "flip6",
        _FLIP6_SHORT,
        ("5",) * 4 + ("6",) * 5 + ("FREEZE",),
        "3 players, one round, target 11, a deck of four 5s, five 6s and a FREEZE: 1,260 deals",
        one_round=True,
    ),
    "sevn_tiny": Preset(
        "sevn",
        _SEVN_SHORT,
        ("12",) * 4 + ("13",) * 5,
        "2 players, one hand, target 25, a deck of four 12s and five 13s: 126 deals",
        one_round=True,
    ),
    "sevn_small": Preset(
        "sevn",
        _SEVN_SHORT,
        ("11",) * 2 + ("12",) * 3 + ("13",) * 3,
        "2 players, one hand, target 25, a deck of two 11s, three 12s and three 13s: 560 deals",
        one_round=True,
    ),
    "sevn_mid": Preset(
        "sevn",
        _SEVN_SHORT,
        ("11",) + ("12",) * 3 + ("13",) * 4 + ("-2",),
        "2 players, one hand, target 25, a deck of one 11, three 12s, four 13s and a -2 ballast: "
        "2,520 deals",
        one_round=True,
    ),
}


def _pyspiel() -> Any:
    if pyspiel is None:
        raise ConfigError(
            "OpenSpiel is not installed: pip install 'cardarena[openspiel]' (the open_spiel "
            "package)"
        )
    return pyspiel


def distinct_orderings(deck: tuple[str, ...] | list[str]) -> int:
    """How many distinct orderings a multiset of cards has (the multinomial coefficient)."""
    out = math.factorial(len(deck))
    for n in Counter(deck).values():
        out //= math.factorial(n)
    return out


def orderings(deck: tuple[str, ...] | list[str]) -> list[tuple[str, ...]]:
    """Every distinct ordering of the multiset ``deck``, in lexicographic order."""
    counts = Counter(deck)
    kinds = sorted(counts)
    out: list[tuple[str, ...]] = []
    prefix: list[str] = []

    def extend(left: int) -> None:
        if left == 0:
            out.append(tuple(prefix))
            return
        for kind in kinds:
            if counts[kind]:
                counts[kind] -= 1
                prefix.append(kind)
                extend(left - 1)
                prefix.pop()
                counts[kind] += 1

    extend(len(deck))
    return out


def _ratatat_inside(engine: Any, state: Any, deck_size: int, ended: bool) -> bool:
    """Whether a ratatat history drew only from the small deck: one deal (pile generation 1, no
    R11 reshuffle, no R16 deal) and the cards below the small deck all still in the draw pile."""
    from cardarena.envs.ratatat.rules import FULL_DECK

    return bool(state.pile_gen == 1 and len(state.draw_pile) >= len(FULL_DECK) - deck_size)


def _flip6_inside(engine: Any, state: Any, deck_size: int, ended: bool) -> bool:
    """Whether a flip6 history drew only from the small deck. In the first round: the cards below
    it all still in the draw pile (so no F16 reshuffle either). After it, only where the variant
    ends there (``ended``: a one-round variant; the engine has already dealt the next round
    from below, cards the variant never plays) and the first round's cards, all in the discard
    pile since its end (F16: its table, and any EXTRA_LIFE pair), number at most the deck's."""
    from cardarena.envs.flip6.rules import FULL_DECK

    if state.round_index == 0:
        return bool(len(state.draw_pile) >= len(FULL_DECK) - deck_size)
    return bool(ended and state.round_index == 1 and len(state.discard_pile) <= deck_size)


def _sevn_inside(engine: Any, state: Any, deck_size: int, ended: bool) -> bool:
    """Whether a sevn history drew only from the small deck, as flip6's check: in the first hand
    the cards below it all still in the draw pile (no S26 reshuffle); after it, only where the
    variant ends there, the first hand's cards (all in the discard pile since its end, S26)
    numbering at most the deck's."""
    from cardarena.envs.sevn.rules import FULL_DECK

    if state.hand_index == 0:
        return bool(len(state.draw_pile) >= len(FULL_DECK) - deck_size)
    return bool(ended and state.hand_index == 1 and len(state.discard_pile) <= deck_size)


#: per game, the check that a history stayed inside the small deck (``ended``: the variant
#: ends at this history)
_INSIDE = {"ratatat": _ratatat_inside, "flip6": _flip6_inside, "sevn": _sevn_inside}


def _round_end_winners(scores: list[Any]) -> list[int]:
    """A one-round variant's winners at its end: the seats with the highest total banked."""
    best = max(scores)
    return [s for s, total in enumerate(scores) if total == best]


def _round_end_returns(state: Any) -> list[float]:
    """A one-round variant's returns at its end: +1 split among its winners, -1 split among the
    others; all 0 when every seat ties."""
    from cardarena.envs.core.engine_parts import split_returns

    return split_returns(_round_end_winners(list(state.scores)), len(state.scores))


class OneRoundEngine:
    """An engine (either core) whose game ends where a one-round variant's does: at the first
    round's end, the seats with the highest total banked winning, or earlier where the engine's
    own game ends (a bank at the target). Everything else is the engine's. For what plays the
    variant by sampling: the approximate best response's training (``bench/exploitability.py``)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def round_over(self, state: Any) -> bool:
        """Whether the variant has ended at the first round's end (not at the target)."""
        return not self.engine.is_over(state) and self.engine.round_index(state) >= 1

    def is_over(self, state: Any) -> bool:
        return bool(self.engine.is_over(state) or self.round_over(state))

    def current_player(self, state: Any) -> int | None:
        return None if self.round_over(state) else self.engine.current_player(state)

    def legal_actions(self, state: Any) -> list[int]:
        return [] if self.round_over(state) else list(self.engine.legal_actions(state))

    def winners(self, state: Any) -> list[int]:
        if self.round_over(state):
            return _round_end_winners(self.engine.scores(state))
        return list(self.engine.winners(state))

    def returns(self, state: Any) -> list[float]:
        if self.round_over(state):
            from cardarena.envs.core.engine_parts import split_returns

            return split_returns(self.winners(state), self.engine.num_players)
        return list(self.engine.returns(state))


class _Tree:
    """The whole tree of a variant: per history its player, legal actions, children, returns,
    and per seat its information state and observation (ids into interned strings). Shared by
    every state of the game (copying a state copies its index, never the tree)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.player: list[int] = []
        self.actions: list[list[int]] = []
        self.children: list[list[int]] = []
        self.returns: list[list[float]] = []
        self.info: list[tuple[int, ...]] = []  # per seat: id into info_strings
        self.obs: list[tuple[int, ...]] = []  # per seat: id into obs_strings
        self.info_strings: list[str] = [""]
        self._info_ids: dict[tuple[int, str], int] = {}
        self.obs_strings: list[str] = [""]
        self._obs_ids: dict[str, int] = {"": 0}
        self.info_actions: dict[int, list[int]] = {}  # acting information state -> its actions
        #: acting information state -> one engine state of it (for agents asked to play there)
        self.examples: dict[int, Any] = {}
        self.depth = 0
        self.deals: list[tuple[str, ...]] = []  # the root's outcomes: orderings, top first
        self.engine: Any = None

    def __deepcopy__(self, memo: Any) -> _Tree:
        return self

    def info_id(self, parent: int, addition: str) -> int:
        key = (parent, addition)
        got = self._info_ids.get(key)
        if got is None:
            got = len(self.info_strings)
            before = self.info_strings[parent]
            self.info_strings.append(f"{before}\n{addition}" if before else addition)
            self._info_ids[key] = got
        return got

    def obs_id(self, text: str) -> int:
        got = self._obs_ids.get(text)
        if got is None:
            got = len(self.obs_strings)
            self.obs_strings.append(text)
            self._obs_ids[text] = got
        return got

    def add(self, player: int, info: tuple[int, ...], obs: tuple[int, ...]) -> int:
        self.player.append(player)
        self.actions.append([])
        self.children.append([])
        self.returns.append([])
        self.info.append(info)
        self.obs.append(obs)
        return len(self.player) - 1


@dataclass
class _Builder:
    """Walks the engine from every deal and fills a :class:`_Tree`."""

    name: str
    spec: Any
    engine: Any
    deck_size: int
    tree: _Tree
    inside: Any
    max_histories: int
    one_round: bool = False
    _depth: int = field(default=0)

    def too_big(self) -> ConfigError:
        return ConfigError(
            f"explicit variant {self.name}: its tree has more than {self.max_histories:,} "
            f"histories; choose a smaller deck or fewer turns (max_histories is the limit)"
        )

    def node(self, state: Any, info: tuple[int, ...], last: list[str], depth: int) -> int:
        if len(self.tree.player) >= self.max_histories:
            raise self.too_big()
        tree, engine = self.tree, self.engine
        over = bool(engine.is_over(state))
        round_end = self.one_round and not over and engine.round_index(state) >= 1
        if not self.inside(engine, state, self.deck_size, over or round_end):
            raise ConfigError(
                f"explicit variant {self.name}: a history draws a card outside its small deck "
                f"of {self.deck_size} (or deals or reshuffles again); use more cards, fewer "
                f"turns or one round"
            )
        over = over or round_end
        player = int(pyspiel.PlayerId.TERMINAL) if over else int(engine.current_player(state))
        obs = tuple(tree.obs_id(text) for text in last)
        me = tree.add(player, info, obs)
        tree.depth = max(tree.depth, depth)
        if over:
            got = _round_end_returns(state) if round_end else engine.returns(state)
            tree.returns[me] = [float(r) for r in got]
            return me
        legal = sorted(int(a) for a in engine.legal_actions(state))
        known = tree.info_actions.setdefault(info[player], legal)
        if known != legal:
            raise RuntimeError(
                f"{self.name}: two histories of one information state of seat {player} have "
                f"different legal actions ({known} and {legal}): the renders hide a difference"
            )
        tree.examples.setdefault(info[player], engine.clone(state))
        tree.actions[me] = legal
        for action in legal:
            child = engine.clone(state)
            engine.apply(child, action, player)
            tree.children[me].append(self.step(child, info, last, player, action, depth + 1))
        return me

    def step(
        self, state: Any, info: tuple[int, ...], last: list[str], seat: int, action: int, d: int
    ) -> int:
        """The child after ``seat`` played ``action``: every seat is shown the action's text,
        then its render where it changed."""
        text = f"seat {seat}: {self.engine.describe_action(action)}"
        now = [str(self.spec.render(state, s)) for s in range(self.tree.n)]
        ids = []
        for s in range(self.tree.n):
            got = self.tree.info_id(info[s], text)
            if now[s] != last[s]:
                got = self.tree.info_id(got, now[s])
            ids.append(got)
        return self.node(state, tuple(ids), now, d)

    def deal(self, order: tuple[str, ...]) -> int:
        state = self.engine.new_game(np.random.default_rng(_BELOW_SEED), {"deck": list(order)})
        now = [str(self.spec.render(state, s)) for s in range(self.tree.n)]
        info = tuple(self.tree.info_id(0, text) for text in now)
        return self.node(state, info, now, 1)


def build_tree(
    name: str,
    preset: Preset,
    max_deals: int = MAX_DEALS,
    max_histories: int = MAX_HISTORIES,
) -> tuple[_Tree, list[tuple[str, ...]]]:
    """The tree of a variant and its deals (ConfigError when it is too big or leaves its deck)."""
    if preset.game not in _INSIDE:
        raise ConfigError(
            f"explicit variant {name}: no explicit-chance variant of {preset.game!r}; the games "
            f"with one are {sorted(_INSIDE)}"
        )
    deals = distinct_orderings(preset.deck)
    if deals > max_deals:
        raise ConfigError(
            f"explicit variant {name}: its deck {list(preset.deck)} has {deals:,} distinct "
            f"orderings, more than max_deals={max_deals:,}; use fewer cards or fewer kinds"
        )
    spec = get_spec(preset.game)
    engine = spec.make_engine(core="python", **preset.options)
    tree = _Tree(engine.num_players)
    tree.engine = engine
    builder = _Builder(
        name,
        spec,
        engine,
        len(preset.deck),
        tree,
        _INSIDE[preset.game],
        max_histories,
        preset.one_round,
    )
    root = tree.add(int(pyspiel.PlayerId.CHANCE), (0,) * tree.n, (0,) * tree.n)
    every = orderings(preset.deck)
    tree.deals = every
    tree.actions[root] = list(range(len(every)))
    tree.children[root] = [builder.deal(order) for order in every]
    return tree, every


def register() -> str:
    """Register ``cardarena_explicit`` with pyspiel (parameter ``preset``); again is a no-op."""
    spiel = _pyspiel()
    if SHORT_NAME not in spiel.registered_names():
        spiel.register_game(_game_type(spiel), ExplicitGame)
    return SHORT_NAME


def load_preset(preset: str) -> Any:
    """The OpenSpiel game of the variant ``preset`` (a key of :data:`PRESETS`)."""
    if preset not in PRESETS:
        raise ConfigError(f"no explicit variant {preset!r}; the presets are {sorted(PRESETS)}")
    register()
    return _pyspiel().load_game(SHORT_NAME, {"preset": preset})


def _game_type(spiel: Any) -> Any:
    kind = spiel.GameType
    return kind(
        short_name=SHORT_NAME,
        long_name="cardarena small variants, explicit chance",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kind.Information.IMPERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"preset": "ratatat_tiny"},
    )


class ExplicitGame(_Game):  # type: ignore[misc]
    """A variant as a ``pyspiel.Game`` with explicit chance (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        name = str(params.get("preset", "ratatat_tiny"))
        if name not in PRESETS:
            raise ConfigError(f"no explicit variant {name!r}; the presets are {sorted(PRESETS)}")
        self.preset_name = name
        self.preset = PRESETS[name]
        self.tree, self.deals = build_tree(name, self.preset)
        self.spec = get_spec(self.preset.game)
        self.engine = self.spec.make_engine(core="python", **self.preset.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=len(self.deals),
            num_players=self.tree.n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.tree.depth,
        )
        super().__init__(_game_type(pyspiel), info, {"preset": name})

    def new_initial_state(self) -> Any:
        return ExplicitState(self)

    def sizes(self) -> dict[str, Any]:
        """The tree's size: deals, histories (chance, decision, terminal), information states."""
        tree = self.tree
        terminal = sum(1 for p in tree.player if p == int(pyspiel.PlayerId.TERMINAL))
        per_seat = [0] * tree.n
        for info in tree.info_actions:
            per_seat[self._owners[info]] += 1
        return {
            "deals": len(self.deals),
            "histories": len(tree.player),
            "decision_histories": len(tree.player) - terminal - 1,
            "terminal_histories": terminal,
            "info_states": per_seat,
            "max_depth": tree.depth,
        }

    @property
    def _owners(self) -> dict[int, int]:
        got = getattr(self, "_owner_map", None)
        if got is None:
            got = {}
            tree = self.tree
            for node, player in enumerate(tree.player):
                if player >= 0:
                    got[tree.info[node][player]] = player
            self._owner_map = got
        return got

    def example_state(self, info_state: str) -> Any:
        """One engine state (the python core's) of an acting seat's information state: what an
        agent is asked at to play it as a tabular policy."""
        index = self._info_index.get(info_state)
        if index is None:
            raise ConfigError(f"{self.preset_name}: no acting information state {info_state!r}")
        return self.tree.examples[index]

    @property
    def _info_index(self) -> dict[str, int]:
        got = getattr(self, "_index_map", None)
        if got is None:
            got = {self.tree.info_strings[i]: i for i in self.tree.info_actions}
            self._index_map = got
        return got

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ConfigError(f"{SHORT_NAME}: observation parameters are not supported")
        return _Observer(iig_obs_type is None or iig_obs_type.perfect_recall)


class ExplicitState(_State):  # type: ignore[misc]
    """A history of the variant: an index into the game's tree."""

    def __init__(self, game: ExplicitGame) -> None:
        super().__init__(game)
        self.tree = game.tree  # shared, never copied (its __deepcopy__ is itself)
        self.node = 0

    def current_player(self) -> int:
        return int(self.tree.player[self.node])

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return list(self.tree.actions[self.node])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.node != 0:
            return []
        p = 1.0 / len(self.tree.actions[0])
        return [(a, p) for a in self.tree.actions[0]]

    def _apply_action(self, action: int) -> None:
        actions = self.tree.actions[self.node]
        try:
            i = actions.index(int(action))
        except ValueError:
            raise ConfigError(
                f"action {action} is not legal here; the legal actions are {actions}"
            ) from None
        self.node = self.tree.children[self.node][i]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return "deal " + " ".join(self.tree.deals[action])
        return str(self.tree.engine.describe_action(int(action)))

    def is_terminal(self) -> bool:
        return self.tree.player[self.node] == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.tree.n
        return list(self.tree.returns[self.node])

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        return self.tree.info_strings[self.tree.info[self.node][player]]

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        return self.tree.obs_strings[self.tree.obs[self.node][player]]

    def __str__(self) -> str:
        return f"history {self.node} of {len(self.tree.player)}"


class _Observer:
    """OpenSpiel's Python observer: the information-state string (perfect recall) or the
    seat's render; no tensor."""

    def __init__(self, recall: bool) -> None:
        self.recall = recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: ExplicitState, player: int) -> None:
        """Nothing to fill: this observer has no tensor (OpenSpiel reads the strings)."""

    def string_from(self, state: ExplicitState, player: int) -> str:
        if self.recall:
            return str(state.information_state_string(player))
        return str(state.observation_string(player))
