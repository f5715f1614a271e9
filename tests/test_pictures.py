"""render_mode="rgb_array" of every game (envs/core/pictures.py): shape, determinism, and that a
picture shows a seat nothing its observation hides."""

from __future__ import annotations

import dataclasses
import importlib.util

import gymnasium as gym
import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core.engine import ConfigError, ResetNeededError
from cardarena.envs.core.pictures import OBSERVER, picture

GAMES = envs.names()
#: games with cards some seat cannot see (``hides_information`` of their manifests)
HIDDEN = [g for g in GAMES if envs.get_spec(g).hides_information]


def _is_picture(image: object) -> bool:
    return (
        isinstance(image, np.ndarray)
        and image.dtype == np.uint8
        and image.ndim == 3
        and image.shape[2] == 3
        and image.shape[0] > 100
        and image.shape[1] > 100
    )


def _states(game: str, n: int, points=(0, 6, 20, 60)):
    """A few states of one random game: its start, some mid-game points, its end (or the last
    point when it runs longer)."""
    engine = envs.get_spec(game).make_engine(num_players=n)
    rng = np.random.default_rng(n)
    state = engine.new_game(np.random.default_rng(100 + n))
    for step in range(max(points) + 1):
        if step in points or engine.is_over(state):
            yield engine, state
        if engine.is_over(state):
            return
        legal = engine.legal_actions(state)
        engine.apply(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.every_game
def test_gym_env_renders_the_learners_view(game, n):
    env = gym.make(
        f"cardarena/{game}-v0", num_players=n, render_mode="rgb_array", opponents="random"
    )
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    with pytest.raises(ResetNeededError, match=r"reset\(\)"):  # before reset: nothing to show
        env.unwrapped.render()
    env.reset(seed=1)
    first = env.render()
    assert _is_picture(first)
    assert np.array_equal(first, env.render()), "same state, different pictures"
    rng = np.random.default_rng(0)
    for _ in range(20):  # every frame of an episode has one size (videos need it)
        legal = np.flatnonzero(env.unwrapped.action_masks())
        _, _, terminated, _, _ = env.step(int(rng.choice(legal)))
        frame = env.render()
        assert _is_picture(frame) and frame.shape == first.shape
        if terminated:
            break
    again = gym.make(
        f"cardarena/{game}-v0", num_players=n, render_mode="rgb_array", opponents="random"
    )
    again.reset(seed=1)
    assert np.array_equal(first, again.render()), "same seed, different pictures"


@pytest.mark.every_game
def test_aec_env_renders_a_seat_the_public_table_or_the_observer(game, n):
    env = envs.make(game, num_players=n, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    with pytest.raises(ResetNeededError, match=r"reset\(\)"):  # before reset: nothing to show
        env.render()
    env.reset(seed=0)
    public = env.render()
    assert _is_picture(public) and env.render_seat is None  # the default shows no private card
    assert np.array_equal(public, env.render_picture(None))
    for seat in (0, n - 1, OBSERVER):
        seen = envs.make(game, num_players=n, render_mode="rgb_array", render_seat=seat)
        seen.reset(seed=0)
        assert np.array_equal(seen.render(), env.render_picture(seat))
        assert seen.render().shape == public.shape
    text = envs.make(game, num_players=n, render_mode="ansi", render_seat=n - 1)
    text.reset(seed=0)
    assert text.render() == env.render_text(n - 1)
    for bad in (n, -1, "everyone", True):
        with pytest.raises(ConfigError, match="render_seat"):
            envs.make(game, num_players=n, render_mode="rgb_array", render_seat=bad)


@pytest.mark.every_game
def test_a_picture_hides_what_its_seat_cannot_see(game, n):
    """Redraw everything a seat cannot see (the harness's resample_hidden): its picture and the
    public one stay pixel for pixel the same; the observer's changes (hidden-card games)."""
    spec = envs.get_spec(game)
    rng = np.random.default_rng(7)
    observer_changed = 0
    for engine, state in _states(game, n):
        for seat in sorted({0, n - 1}):
            other = engine.resample_hidden(state, seat, rng)
            assert np.array_equal(picture(spec, state, seat), picture(spec, other, seat)), (
                f"seat {seat}'s picture shows a card it cannot see"
            )
            assert np.array_equal(picture(spec, state, None), picture(spec, other, None)), (
                "the public picture shows a hidden card"
            )
            if not np.array_equal(picture(spec, state, OBSERVER), picture(spec, other, OBSERVER)):
                observer_changed += 1
    if game in HIDDEN and n > 1:
        assert observer_changed, "the observer never saw a hidden card (the test would be vacuous)"


@pytest.mark.parametrize("game", HIDDEN)
def test_own_cards_face_up_others_hidden(game):
    """Seats of one state see different pictures (their own hands), the observer a third."""
    spec = envs.get_spec(game)
    engine = spec.make_engine(num_players=2)
    state = engine.new_game(np.random.default_rng(3))
    pictures = [picture(spec, state, s).tobytes() for s in (0, 1, None, OBSERVER)]
    assert len(set(pictures)) == 4


def test_a_game_without_a_layout_is_drawn_as_its_text():
    spec = dataclasses.replace(envs.get_spec("flip6"), picture=None)
    engine = spec.make_engine()
    state = engine.new_game(np.random.default_rng(0))
    image = picture(spec, state, 0)
    assert _is_picture(image) and (image == 240).all(axis=2).any()  # white text on the felt


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is None, reason="moviepy not installed")
def test_record_video(tmp_path):
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gym.make("cardarena/flip6-v0", render_mode="rgb_array"),
        str(tmp_path),
        episode_trigger=lambda e: True,
        disable_logger=True,
    )
    env.reset(seed=0)
    done = False
    while not done:
        legal = np.flatnonzero(env.unwrapped.action_masks())
        _, _, terminated, truncated, _ = env.step(int(legal[0]))
        done = terminated or truncated
    env.close()
    assert list(tmp_path.glob("*.mp4"))


def test_every_suicidium_card_shows_its_full_name_and_effect():
    """No card name is cut (the old font cut "REGALO DI COMPLE"): each fits in three lines at
    the card type size, and every card carries a note of its effect."""
    from cardarena.envs.core.pictures import NAME_PX, card_text
    from cardarena.envs.suicidium.pictures import card
    from cardarena.envs.suicidium.rules import CATALOGUE

    for c in CATALOGUE:
        drawn = card(c.id)
        px, lines = card_text(drawn.label, drawn.note)
        assert px == NAME_PX and " ".join(lines) == c.name.replace("_", " "), c.name
        assert drawn.note and "\u2026" not in drawn.note


def test_the_end_of_a_long_name_is_drawn():
    """Two names that differ only in their last letters give different pictures."""
    from cardarena.envs.core.pictures import Card, Seat, Table, draw

    def one(label):
        return draw(Table("t", [Seat("seat 0", "", [Card(label, note="draw 1 free")])]))

    assert not np.array_equal(one("Regalo di compleanno"), one("Regalo di compleanzo"))
    assert np.array_equal(one("Regalo di compleanno"), one("Regalo di compleanno"))


def test_a_suicidium_seat_sees_its_hand_by_name():
    from cardarena.envs.suicidium.pictures import layout
    from cardarena.envs.suicidium.rules import CATALOGUE, ID_TO_CARD

    spec = envs.get_spec("suicidium")
    state = spec.make_engine(num_players=3).new_game(np.random.default_rng(2))
    hand = spec.view(state, 0)["hand"]
    mine = [c for c in layout(state, 0).seats[0].cards if c.face_up]
    assert [c.label for c in mine][-len(hand) :] == [CATALOGUE[ID_TO_CARD[h]].name for h in hand]
