"""Pieces every engine may share (no state, no engine class): the points-race helpers, the card
parser, the deck stacking of the ``deck`` reset option and the size of a fixed privileged
encoding. ``envs/core/engine.py`` re-exports them, as engines always imported them from there."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from cardarena.envs.core.errors import ConfigError, IllegalActionError, check_int, check_scores


def standing_features(scores: list[int], seat: int, dealer: int, target: float) -> np.ndarray:
    """``round_features`` of a points race: ``seat``'s total, the others' totals highest first,
    its lead over the best other (all / ``target``), and its place in the turn order after
    ``dealer`` (one-hot, 0 = first to act)."""
    n = len(scores)
    me = scores[seat]
    others = sorted((scores[(seat + k) % n] for k in range(1, n)), reverse=True)
    place = np.zeros(n)
    place[(seat - dealer - 1) % n] = 1.0
    return np.concatenate(
        [[me / target], np.asarray(others) / target, [(me - others[0]) / target], place]
    )


def dealer_options(
    engine: Any,
    options: dict[str, Any] | None,
    rng: np.random.Generator,
    parse: Any,
    deck: list[int],
    codes: list[str],
) -> tuple[dict[str, Any], list[int], list[int], int]:
    """The reset options of a game of rounds with a dealer (flip6, sevn, ratatat): ``deck``
    (codes, top first; the rest of ``deck`` shuffled by ``rng``), ``scores`` (per seat) and
    ``dealer`` (default ``engine.first_dealer``). Returns the options left, the draw pile top
    first, the scores and the dealer; ConfigError for a bad one."""
    options = dict(options or {})
    n = engine.num_players
    top = [parse(code) for code in options.pop("deck", None) or []]
    pile_top_first = stack_deck(deck, top, rng, codes)
    scores = check_scores(options.pop("scores", None), n)
    dealer = check_int("dealer", options.pop("dealer", engine.first_dealer), 0, n - 1)
    return options, pile_top_first, scores, dealer


def split_returns(winners: list[int], n: int) -> list[float]:
    """+1 split among ``winners``, -1 split among the other seats (sums to 0); all zeros when
    nobody or everybody wins."""
    if not winners or len(winners) == n:
        return [0.0] * n
    win, lose = 1.0 / len(winners), -1.0 / (n - len(winners))
    return [win if s in winners else lose for s in range(n)]


def lead(scores: list[int], seat: int, scale: float, lower_wins: bool = False) -> float:
    """``seat``'s lead over the best other seat's total, as a fraction of ``scale`` (totals where
    ``lower_wins`` count the other way): the usual ``potential`` of a points race."""
    others = [s for i, s in enumerate(scores) if i != seat]
    if lower_wins:
        return (min(others) - scores[seat]) / scale
    return (scores[seat] - max(others)) / scale


def card_parser(game: str, codes: list[str], what: str = "card code") -> Any:
    """``parse_card(code)`` for a game whose cards are indices into ``codes``: the exact code,
    else its upper- or lower-case form; ConfigError naming the code and the known ones."""
    lookup = {code: i for i, code in enumerate(codes)}

    def parse_card(code: Any) -> int:
        text = str(code).strip()
        card = lookup.get(text)
        if card is None and text.isascii():  # no case folding into a code ("ſTORM".upper())
            card = lookup.get(text.upper(), lookup.get(text.lower()))
        if card is None:
            raise ConfigError(f"unknown {game} {what} {code!r}; known codes: {codes}")
        return card

    return parse_card


def settled_end(state: Any, pending: list[Any], best: int) -> bool:
    """Whether an ended game is settled: no decision (0) and no decider (-1), nothing set aside
    (``state.set_aside``) or ``pending``, and ``state.winners`` the seats whose total is ``best``
    (a check of ``from_dict``)."""
    return (
        state.decision == 0
        and state.decider == -1
        and not state.set_aside
        and not pending
        and state.winners == [s for s, v in enumerate(state.scores) if v == best]
    )


def text_table(game: str, texts: list[str]) -> Any:
    """``describe_action(action)`` of a game whose action texts are the list ``texts`` (action
    ``a`` is ``texts[a]``); IllegalActionError for an action out of range."""

    def describe_action(action: int) -> str:
        """The rules file's text of ``action``."""
        action = int(action)
        if 0 <= action < len(texts):
            return texts[action]
        raise IllegalActionError(f"{game} has actions 0..{len(texts) - 1}; got {action}")

    return describe_action


def pile_top(out: Any, at: int, pile: list[int], count: int, kinds: int) -> None:
    """Write the top ``count`` cards of ``pile`` (top = the end of the list) into ``out`` from
    ``at``, top first, each a one-hot of ``kinds`` (zeros past the end of the pile): the draw pile
    part of a privileged encoding."""
    for i, card in enumerate(reversed(pile[-count:])):
        out[at + i * kinds + card] = 1.0


def fixed_size(size: int) -> Any:
    """``privileged_size(engine)`` of a privileged encoding whose length is the same for every
    table size (``envs/<game>/privileged.py``)."""

    def privileged_size(engine: object) -> int:
        """Length of ``encode_privileged``'s vector (the same for every table size)."""
        return size

    return privileged_size


def stack_deck(
    full_deck: list[int],
    top: list[int],
    rng: np.random.Generator,
    code_of: list[str],
) -> list[int]:
    """The draw pile, top first: the ``top`` cards in that order, the rest shuffled by ``rng``.

    Raises ConfigError if ``top`` asks for more copies of a card than the deck holds.
    """
    if not top:  # the same draw as below, without counting the deck (every new game's case)
        order = rng.permutation(len(full_deck))
        return [full_deck[i] for i in order.tolist()]
    rest = Counter(full_deck)
    for card in top:
        if rest[card] <= 0:
            raise ConfigError(
                f"deck option asks for more copies of {code_of[card]!r} than the deck holds "
                f"({Counter(full_deck)[card]})"
            )
        rest[card] -= 1
    remaining: list[int] = []
    for card in full_deck:
        if rest[card] > 0:
            remaining.append(card)
            rest[card] -= 1
    order = rng.permutation(len(remaining))
    return list(top) + [remaining[i] for i in order]
