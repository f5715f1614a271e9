"""Information sets: ``env.unwrapped.sample_world(seat, rng)`` for every game.

Three properties, each against every game and its smallest and largest table:

(a) no leak: two true states that differ only in what the seat cannot see give the same sampled
    world for the same seed (so the sample is a function of the seat's information);
(b) consistency: the sampled world is a complete state the engine and ``from_dict`` accept, and
    it shows the seat exactly its observation, view and legal actions;
(c) the distribution is the right one on stacked scenarios whose posterior is known (the identity
    of an unseen card; ratatat cards the seat saw that have since moved; suicidium cards shown by
    a peek), by a chi-square test over 5,000 samples against a fixed critical value.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core import CardGameEnv, ConfigError

SAMPLES = 5_000
#: chi-square quantiles at p = 0.001 for 1..20 degrees of freedom (standard tables); above, the
#: Wilson-Hilferty approximation (within 1% there)
CHI2_999 = [
    10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588,
    31.264, 32.909, 34.528, 36.123, 37.697, 39.252, 40.790, 42.312, 43.820, 45.315,
]  # fmt: skip


def chi2_critical(df: int) -> float:
    if df <= len(CHI2_999):
        return CHI2_999[df - 1]
    z = 3.0902  # the standard normal quantile at 0.999
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_distribution(seen: Counter[Any], weights: Counter[Any]) -> None:
    """``seen`` (counts of SAMPLES draws) fits the distribution proportional to ``weights``."""
    total = sum(weights.values())
    outside = set(seen) - {k for k, w in weights.items() if w > 0}
    assert not outside, f"sampled values the posterior excludes: {sorted(map(str, outside))}"
    n = sum(seen.values())
    cells = [k for k, w in weights.items() if w > 0]
    stat = sum((seen[k] - n * weights[k] / total) ** 2 / (n * weights[k] / total) for k in cells)
    df = len(cells) - 1
    assert df >= 1
    assert stat < chi2_critical(df), (
        f"chi-square {stat:.1f} >= {chi2_critical(df):.1f} (df {df}): observed "
        f"{dict(seen)} for weights {dict(weights)}"
    )


def player_counts(name: str) -> list[int]:
    cls = envs.get_spec(name).engine_cls
    return sorted({cls.min_players, cls.max_players})


GAME_COUNTS = [
    pytest.param(name, n, id=f"{name}-{n}p") for name in envs.names() for n in player_counts(name)
]


def canon(engine: Any, state: Any) -> str:
    return json.dumps(engine.to_dict(state), sort_keys=True, default=str)


def random_points(name: str, n: int, games: int = 6, prob: float = 0.08):
    """(env, seat) at random points of random games: the env holds the game there."""
    env = envs.make(name, num_players=n)
    for g in range(games):
        env.reset(seed=100 + g)
        rng = np.random.default_rng(7_000 + g)
        step = 0
        while not env.game.is_over(env.state_obj) and step < 5_000:
            if step == 0 or rng.random() < prob:
                yield env, int(rng.integers(n))
            legal = env.game.legal_actions(env.state_obj)
            env.step(legal[int(rng.integers(len(legal)))])
            step += 1
        yield env, int(rng.integers(n))  # the end of the game too


# ---- (a) no leak ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "n"), GAME_COUNTS)
def test_sample_depends_only_on_what_the_seat_saw(name: str, n: int) -> None:
    twin = envs.make(name, num_players=n)
    game = twin.game
    checked = differed = 0
    for env, seat in random_points(name, n):
        # a second true state: the same for `seat`, every hidden card elsewhere
        other = game.resample_hidden(env.state_obj, seat, np.random.default_rng(checked + 1))
        twin.from_dict(game.to_dict(other))
        differed += canon(game, other) != canon(game, env.state_obj)
        for seed in (0, 99):
            a = env.unwrapped.sample_world(seat, np.random.default_rng(seed))
            b = twin.unwrapped.sample_world(seat, np.random.default_rng(seed))
            assert canon(game, a) == canon(game, b), f"seat {seat}: the sample saw hidden cards"
        checked += 1
    assert checked >= 10 and differed >= checked // 3, (checked, differed)


# ---- (b) consistency -----------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "n"), GAME_COUNTS)
def test_sampled_world_shows_the_seat_what_it_sees(name: str, n: int) -> None:
    spec = envs.get_spec(name)
    moved = checked = 0
    rng = np.random.default_rng(5)
    for env, seat in random_points(name, n, games=4):
        game, state = env.game, env.state_obj
        before = canon(game, state)
        world = env.unwrapped.sample_world(seat, rng)
        assert canon(game, state) == before, "sample_world changed the env's game"
        assert game.conservation_error(world) is None
        assert canon(game, game.from_dict(game.to_dict(world))) == canon(game, world)
        assert np.array_equal(spec.encode(world, seat), spec.encode(state, seat))
        assert json.dumps(spec.view(world, seat), default=str) == json.dumps(
            spec.view(state, seat), default=str
        )
        assert game.current_player(world) == game.current_player(state)
        if game.current_player(state) == seat:
            assert game.legal_actions(world) == game.legal_actions(state)
        moved += game.card_zones(world) != game.card_zones(state)
        checked += 1
        if checked % 7 == 0 and not game.is_over(world):  # the world plays on to the end
            for _ in range(20_000):
                if game.is_over(world):
                    break
                legal = game.legal_actions(world)
                game.apply(world, legal[int(rng.integers(len(legal)))])
            assert game.is_over(world) and game.conservation_error(world) is None
    assert moved >= checked // 3, f"hidden cards moved in only {moved} of {checked} samples"


def test_sample_world_errors() -> None:
    env = envs.make("flip6", num_players=3)
    with pytest.raises(Exception, match="reset"):
        env.unwrapped.sample_world(0, np.random.default_rng(0))
    env.reset(seed=1)
    for bad in (3, -1, True, "0"):
        with pytest.raises(ConfigError, match="seat"):
            env.unwrapped.sample_world(bad, np.random.default_rng(0))


# ---- (c) the posterior ---------------------------------------------------------------------------
def samples(env: CardGameEnv, seat: int, what: Any, seed: int = 12) -> Counter[Any]:
    rng = np.random.default_rng(seed)
    return Counter(what(env.unwrapped.sample_world(seat, rng)) for _ in range(SAMPLES))


def unseen_weights(env: CardGameEnv, visible_zones: list[str]) -> Counter[str]:
    """The deck minus the cards of the zones every seat sees."""
    zones = env.game.card_zones(env.state_obj)
    left = Counter(env.game.deck_codes())
    for z in visible_zones:
        left.subtract(zones[z])
    return left


def test_flip6_unseen_top_card_follows_the_deck_left() -> None:
    env = envs.make("flip6", num_players=4)
    env.reset(seed=3, options={"deck": ["6", "6", "5", "6"]})  # the deal: one card a seat
    zones = [z for z in env.game.card_zones(env.state_obj) if z != "draw_pile"]
    weights = unseen_weights(env, zones)
    assert weights["6"] == 3 and weights["5"] == 4  # 6 sixes, 5 fives in the deck
    from cardarena.envs.flip6.rules import CARD_CODES

    seen = samples(env, 1, lambda w: CARD_CODES[w.draw_pile[-1]])
    assert_distribution(seen, weights)


def test_sevn_unseen_top_card_follows_the_deck_left() -> None:
    env = envs.make("sevn", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(12):  # some draws, so that the table holds more than the deal
        legal = env.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])
    zones = [z for z in env.game.card_zones(env.state_obj) if z != "draw_pile"]
    weights = unseen_weights(env, zones)
    from cardarena.envs.sevn.rules import CARD_CODES

    seen = samples(env, 2, lambda w: CARD_CODES[w.draw_pile[-1]])
    assert_distribution(seen, weights)


def test_thegame_other_hands_and_pile_are_one_pool() -> None:
    env = envs.make("thegame", num_players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(10):
        legal = env.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])
    zones = env.game.card_zones(env.state_obj)
    weights = unseen_weights(env, [z for z in zones if z.startswith("pile_") or z == "hand_0"])
    hand1 = len(zones["hand_1"])
    seen = samples(env, 0, lambda w: str(w.draw_pile[-1]))
    assert_distribution(seen, weights)
    sizes = {len(env.unwrapped.sample_world(0, np.random.default_rng(s)).hands[1]) for s in (1, 2)}
    assert sizes == {hand1}


def test_ratatat_cards_seen_and_moved_stay_where_the_seat_knows_them() -> None:
    # 2 players, dealer 0: seat 1 is dealt first (slots 0..3), then seat 0, the first discard,
    # then the draw pile; seat 1 acts first. It knows its outer slots (both "0"), draws a SWAP
    # and swaps its slot 0 with seat 0's slot 2: it still knows that "0", now in seat 0's row.
    deck = ["0", "5", "5", "0", "1", "2", "3", "4", "0", "SWAP"]
    env = envs.make("ratatat", num_players=2)
    env.reset(seed=6, options={"deck": deck})
    for text in ("draw", "use", "swap 0 0 2"):
        assert env.agent_selection == "player_1"
        env.step(env.unwrapped.parse_action(text))
    from cardarena.envs.ratatat.rules import CARD_CODES

    world_cards = samples(env, 1, lambda w: (CARD_CODES[w.slots[2]], CARD_CODES[w.slots[7]]))
    assert {moved for moved, _ in world_cards} == {"0"}  # seat 0's slot 2: the card it moved
    assert {kept for _, kept in world_cards} == {"0"}  # its own slot 3, seen at the deal
    # its own slot 0 now holds a card it never saw: any unseen card of the deal's generation
    seen = samples(env, 1, lambda w: CARD_CODES[w.slots[4]])
    weights = Counter(env.game.deck_codes())
    weights.subtract(["0", "0", "0", "SWAP"])  # its two outer cards, the discard, the SWAP used
    assert weights["0"] == 1
    assert_distribution(seen, weights)


def test_suicidium_peeked_hand_stays_and_the_rest_is_one_pool() -> None:
    env = envs.make("suicidium", num_players=3)
    hands = [["OCCHIATA_INDISCRETA", "PISOLINO"], ["VETO", "SFRATTO"], ["BLACKOUT", "SPOILER"]]
    env.reset(seed=7, options={"hands": hands, "first_player": 0})
    for move in ("draw 0", "play OCCHIATA_INDISCRETA", "target 1", "pass", "pass", "pass"):
        env.step(env.unwrapped.parse_action(move))
    from cardarena.envs.suicidium.rules import CARD_IDS

    zones = env.game.card_zones(env.state_obj)
    assert sorted(zones["hand_1"]) == ["SFRATTO", "VETO"]
    hand1 = samples(env, 0, lambda w: tuple(sorted(CARD_IDS[c] for c in w.hands[1])))
    assert set(hand1) == {("SFRATTO", "VETO")}  # the peeked hand is known
    weights = Counter(zones["draw_pile"]) + Counter(zones["hand_2"])
    seen = samples(env, 0, lambda w: CARD_IDS[w.draw_pile[-1]])
    assert_distribution(seen, weights)
    # seat 2 saw nothing: seat 1's hand is part of its pool
    other = samples(env, 2, lambda w: tuple(sorted(CARD_IDS[c] for c in w.hands[1])), seed=3)
    assert len(other) > 100
