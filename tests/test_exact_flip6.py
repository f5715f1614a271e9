"""flip6's round solved exactly (agents/exact/flip6_round.py): known figures, hand-checked small
positions, an independent brute force, and the agent at the table."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from cardarena import envs
from cardarena.agents import make_agent
from cardarena.agents.exact.flip6_round import (
    DECK,
    EMPTY,
    KINDS,
    OptimalRoundAgent,
    RoundSolver,
    composition,
    score,
    seat_position,
)
from cardarena.envs.core.loop import play
from cardarena.envs.flip6.rules import HIT, STAY, TARGET0

NUMBERS = composition({str(v): v for v in range(1, 7)})  # the 21 number cards alone (F1)


def bits(*values: int) -> int:
    out = 0
    for v in values:
        out |= 1 << v
    return out


def brute_threshold(t: int) -> float:
    """Expected points of "stay at t or more" with the 21 number cards, by enumeration written
    apart from the solver (no specials: a duplicate busts)."""

    @cache
    def value(held: frozenset[int], counts: tuple[int, ...]) -> float:
        points = sum(held)
        if points >= t:
            return float(points)
        total = sum(counts)
        out = 0.0
        for v in range(1, 7):
            n = counts[v - 1]
            if not n:
                continue
            if v in held:
                continue  # bust: 0 points
            rest = counts[: v - 1] + (n - 1,) + counts[v:]
            now = held | {v}
            out += n * (sum(now) + 6 if len(now) == 6 else value(now, rest))
        return out / total

    return value(frozenset(), (1, 2, 3, 4, 5, 6))


def test_number_cards_alone_reproduce_the_known_figures():
    """The round with the 21 number cards: 7.69 expected points for the best play, 7.68 for
    "stay at 9" (the best threshold), the figures known for this push-your-luck round."""
    best = RoundSolver(alone=True).value(0, False, False, NUMBERS, EMPTY)
    assert round(best, 2) == 7.69
    thresholds = {t: brute_threshold(t) for t in range(5, 16)}
    assert max(thresholds, key=thresholds.get) == 9
    assert round(thresholds[9], 2) == 7.68
    assert best > thresholds[9]  # the best play beats the best threshold, by a little


def test_the_full_deck_values():
    """With the specials (F2): more than the numbers alone, and choosing the targets of FREEZE
    and FLIP3 is worth more than always aiming them at oneself."""
    alone = RoundSolver(alone=True).value(0, False, False, DECK, EMPTY)
    chooser = RoundSolver().value(0, False, False, DECK, EMPTY)
    assert 7.69 < alone < chooser
    assert (round(alone, 2), round(chooser, 2)) == (8.31, 9.3)


@pytest.mark.parametrize(
    "held, life, double, draw, discard, expected",
    [
        # one duplicate left: HIT busts, STAY banks 1 (F8)
        (bits(1), False, False, {"1": 1}, {}, 1.0),
        # the sixth distinct value: Flip 6, 1+2+3+4+5+6 = 21 + 6 bonus (F9)
        (bits(2, 3, 4, 5, 6), False, False, {"1": 3}, {}, 27.0),
        # the same under DOUBLE: 2 x 21 + 6, the bonus not doubled (F13)
        (bits(2, 3, 4, 5, 6), False, True, {"1": 1}, {}, 48.0),
        # ZERO is a value of its own: 0+2+3+4+5+6 gives Flip 6 with 20 + 6 (F2, F9)
        (bits(2, 3, 4, 5, 6), False, False, {"ZERO": 1}, {}, 26.0),
        # half a chance of a 6 (1+6 = 7, then only the duplicate 1 left: stay), half of a bust:
        # HIT is worth 3.5, more than the 1 banked
        (bits(1), False, False, {"1": 1, "6": 1}, {}, 3.5),
        # with the EXTRA_LIFE the duplicate costs nothing: the 6 always comes (F10): 7
        (bits(1), True, False, {"1": 1, "6": 1}, {}, 7.0),
        # a FREEZE we draw may go to another seat: it changes nothing here (F11); then the 6
        (bits(1), False, False, {"FREEZE": 1, "6": 1}, {}, 7.0),
        # an empty pile reshuffles the discard pile (F16): the 6 is there
        (bits(1), False, False, {}, {"6": 1}, 7.0),
        # nothing left anywhere: STAY (F16)
        (bits(4), False, False, {}, {}, 4.0),
        # DOUBLE drawn: 5 doubled is 10, then nothing left: stay (F13, F16)
        (bits(5), False, False, {"DOUBLE": 1}, {}, 10.0),
        # DOUBLE or the duplicate, even odds: 1/2 x 10 + 1/2 x 0 = 5, the same as staying
        (bits(5), False, False, {"DOUBLE": 1, "5": 1}, {}, 5.0),
    ],
)
def test_hand_checked_positions(held, life, double, draw, discard, expected):
    got = RoundSolver().value(held, life, double, composition(draw), composition(discard))
    assert got == pytest.approx(expected)


def test_flip3_at_oneself_is_three_forced_cards():
    """FLIP3 (F12) at oneself: three cards one after another, stopping at a bust; with {1} held
    and 2, 3, 1 left, drawing all three busts unless the 1 comes last (then 0 anyway); the
    forced cards are valued as drawn, not chosen."""
    solver = RoundSolver()
    held, pile_ = bits(1), composition({"2": 1, "3": 1, "1": 1})
    # every order of the three cards reaches the 1 within three cards: a bust
    assert solver.flip3_self(held, False, False, pile_, EMPTY) == pytest.approx(0.0)
    # the seat's own choice would be to stay (1) or hit (2/3 of a safe card first)
    assert solver.value(held, False, False, pile_, EMPTY) > 1.0


def test_a_cycle_of_lives_and_duplicates_ends():
    """Only an EXTRA_LIFE and a duplicate left, reshuffled again and again (F10, F16): the
    solver ends and values the position at what staying banks."""
    solver = RoundSolver()
    value = solver.value(bits(3), False, False, composition({"EXTRA_LIFE": 1, "3": 1}), EMPTY)
    assert value == pytest.approx(3.0)


def test_composition_reads_views():
    assert composition({"1": 1, "FLIP3": 1}) == tuple(
        1 if k in ("1", "FLIP3") else 0 for k in KINDS
    )
    assert composition(["6", "6", "DOUBLE"])[6] == 2
    assert score(bits(0, 2, 5), True) == 14


def test_the_agent_decides_by_the_solver():
    env = envs.make("flip6", num_players=4)
    env.reset(seed=11)
    agent = OptimalRoundAgent(seed=0)
    rng = np.random.default_rng(0)
    checked = 0
    solver = RoundSolver()
    for _ in range(400):
        seat = env.unwrapped.seat_of(env.agent_selection)
        view = env.unwrapped.view(seat)
        if view["decision"] == "game_over":
            break
        obs = env.observe(env.agent_selection)
        mask = obs["action_mask"]
        if view["decision"] == "turn" and mask[HIT]:
            held, life, dbl, draw, discard = seat_position(view, seat)
            wins_now = view["scores"][seat] + view["round_scores"][seat] >= view["target_score"]
            threat = any(
                view["status"][s] == "in_round"
                and view["scores"][s] + view["round_scores"][s] >= view["target_score"]
                for s in range(4)
                if s != seat
            )
            if not wins_now and not threat:
                hit = solver.hit(held, life, dbl, draw, discard)
                want = HIT if hit is not None and hit > score(held, dbl) else STAY
                assert agent.act(None, mask, view) == want
                checked += 1
        action = agent.act(None, mask, view)
        assert mask[action] and (view["decision"] == "turn" or action >= TARGET0)
        env.step(int(action) if rng.random() < 0.7 else int(rng.choice(np.flatnonzero(mask))))
    assert checked > 20


def test_make_agent_and_whole_games():
    spec = envs.get_spec("flip6")
    engine = spec.make_engine(num_players=3)
    agents = [make_agent("flip6", "optimal_round", seed=s) for s in range(3)]
    for seed in range(2):
        state = engine.new_game(np.random.default_rng(seed))
        play(spec, engine, state, agents)
        assert engine.is_over(state)
