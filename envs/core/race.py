"""The half that Flip 6 and SEVN share: a points race over rounds, each seat drawing face-up cards
into a row of its own until it stays, busts or is frozen, the dealer passing left each round.

:class:`RaceState` holds the fields both states start with, :func:`race_fields` declares how they
are saved, and :class:`RaceGame` gives the options, the deal of a fresh state, the round features,
the check of the rows in ``from_dict`` and ``resample_hidden`` (only the draw pile's order and the
generator are hidden: every card is dealt face up). Nothing here knows a card's meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

import numpy as np

from cardarena.envs.core import engine_parts as parts
from cardarena.envs.core import state_fields as sf
from cardarena.envs.core.engine import GameEngine
from cardarena.envs.core.errors import check_int
from cardarena.envs.core.state_io import StateReader


@dataclass(slots=True)
class RaceState:
    """The fields every race state starts with (a game's state class extends it)."""

    num_players: int
    target_score: int
    rng: np.random.Generator
    scores: list[int]  # game totals
    dealer: int
    draw_pile: list[int]  # top of the pile is the END of the list (pop())
    discard_pile: list[int]  # in the order cards were discarded
    table: list[list[int]]  # per seat, face-up cards in arrival order
    status: list[int]  # per seat, an index into the game's status names (0: still in)
    values: list[int]  # per seat, bitmask of the values held (a cache of ``table``)


class RaceView(TypedDict):
    """The part of a points race's ``view`` that Flip 6 and SEVN share (each game's own view type
    adds its cards, bonuses and banked scores)."""

    seat: int
    num_players: int
    target_score: int
    dealer: int
    #: the game's decision name, or ``game_over``
    decision: str
    #: -1 when the game is over
    decider: int
    scores: list[int]
    #: per seat the game's status name (in the round, stayed, busted, ...)
    status: list[str]
    #: per seat the card codes in front of it
    table: list[list[str]]
    #: per seat the values it holds
    values: list[list[int]]


R = TypeVar("R", bound=RaceState)


def race_fields(
    cards: Any, target_max: int, score_max: Any, names: tuple[list[str], list[str]]
) -> dict[str, sf.Field]:
    """The saved fields both games write first: ``target_score`` .. ``status`` (``cards(zone,
    **bounds)`` makes a card list; ``names``: the decision and status names)."""
    decisions, statuses = names
    return sf.declare(
        target_score=sf.Int(1, target_max),
        scores=sf.Ints(0, score_max, length=sf.N),
        winners=sf.Seats(),
        current_player=sf.Derived(lambda game, s: game.current_player(s)),
        decision=sf.Choice(decisions),
        decider=sf.Seat(none=-1),
        dealer=sf.Seat(),
        draw_pile=cards("draw_pile", reverse=True),
        discard_pile=cards("discard_pile"),
        table=sf.List(cards(""), length=sf.N, zone="table_{}"),
        status=sf.List(sf.Choice(statuses), length=sf.N),
    )


class RaceGame(GameEngine[R]):
    """The shared part of the two engines (``first_dealer``, ``target_score`` options)."""

    first_dealer: int
    target_score: int

    def seat_options(
        self, num_players: int, first_dealer: int, target_score: int, target_max: int
    ) -> None:
        """Check and keep the constructor's options."""
        self.num_players = check_int("num_players", num_players, self.min_players, self.max_players)
        self.first_dealer = check_int("first_dealer", first_dealer, 0, self.num_players - 1)
        self.target_score = check_int("target_score", target_score, 1, target_max)

    def deal(
        self,
        rng: np.random.Generator,
        options: dict[str, Any] | None,
        flags: tuple[str, ...],
        **rows: Any,
    ) -> tuple[R, dict[str, Any]]:
        """A fresh state of the state class (options ``deck``, ``scores``, ``dealer``; ``flags``:
        the game's per-seat flags, all false; ``rows``: its other fields) and the options it did
        not read."""
        parse = type(self).__dict__.get("_parse_card")
        if parse is None:  # the module's parse_card, built once per game from its codes
            parse = parts.card_parser(self.name, self.card_codes)
            type(self)._parse_card = parse  # type: ignore[attr-defined]
        left, pile_top_first, scores, dealer = parts.dealer_options(
            self, options, rng, parse, self.full_deck, self.card_codes
        )
        n = self.num_players
        state = self.state_class(
            num_players=n,
            target_score=self.target_score,
            rng=rng,
            scores=[int(s) for s in scores],
            dealer=dealer,
            draw_pile=pile_top_first[::-1],
            discard_pile=[],
            table=[[] for _ in range(n)],
            status=[0] * n,
            values=[0] * n,
            **{name: [False] * n for name in flags},
            **rows,
        )
        return state, left

    def take_decision(self, state: R, action: Any, seat: int | None) -> tuple[int, int, int]:
        """The start of ``apply``: the deciding seat, the legal ``action`` as an int and the
        decision it answers (the state then holds none); a turn (decision 1) passes the next turn
        to the left, with no extra turn for the draws it causes."""
        seat = self.check_turn(state, seat)  # checked_action, inlined: apply is the hot path
        action = int(action)
        if action not in self.legal_actions(state):
            raise self.illegal(state, action)
        state.decisions += 1  # type: ignore[attr-defined]
        decision = state.decision  # type: ignore[attr-defined]
        state.decision = 0  # type: ignore[attr-defined]
        if decision == 1:
            state.next_turn = (seat + 1) % state.num_players  # type: ignore[attr-defined]
        return seat, action, decision

    def clear_rows(self, state: R, *flags: str) -> None:
        """A new round: every seat back in (status 0), no values held, the per-seat ``flags``
        (caches of ``table``) false, the first turn left of the dealer."""
        n = state.num_players
        state.status = [0] * n
        state.values = [0] * n
        for name in flags:
            setattr(state, name, [False] * n)
        state.next_turn = (state.dealer + 1) % n  # type: ignore[attr-defined]

    def round_features(self, state: R, seat: int) -> np.ndarray:
        return parts.standing_features(state.scores, seat, state.dealer, state.target_score)

    def check_rows(self, state: R, r: StateReader, last_value: int, busted: int) -> None:
        """``from_dict``: each value at most once in a row unless its seat busted; rebuilds
        ``values`` (bit v: value card v held) and runs the game's ``_check_over`` or
        ``_check_running``."""
        state.values = [0] * state.num_players
        for s, cards in enumerate(state.table):
            held = [c for c in cards if c <= last_value]
            if state.status[s] != busted and len(set(held)) != len(held):
                raise r.error(
                    f"table[{s}]", r.data["table"][s], "each value at most once unless busted"
                )
            for c in held:  # a busted row's duplicate sets a bit already set
                state.values[s] |= 1 << c
        if state.over:  # type: ignore[attr-defined]
            self._check_over(state, r)
        else:
            self._check_running(state, r)

    def _check_over(self, state: R, r: StateReader) -> None:
        raise NotImplementedError

    def _check_running(self, state: R, r: StateReader) -> None:
        raise NotImplementedError

    def resample_hidden(self, state: R, seat: int, rng: np.random.Generator) -> R:
        """Only the draw-pile order and the generator are hidden (every card is dealt face up)."""
        clone = self.clone(state, rng=np.random.default_rng(int(rng.integers(2**63))))
        pile = sorted(
            clone.draw_pile
        )  # canonical order first: the copy owes nothing to the true one
        clone.draw_pile = [pile[i] for i in rng.permutation(len(pile))]
        return clone
