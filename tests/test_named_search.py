"""``search:LABEL`` names a search setting of a game's manifest (its ``[[search]]`` rows, the
best measured): the same agent as the row's spec, named as written; an unknown label is a
ConfigError listing that game's labels; refused inside a search like any search agent."""

from __future__ import annotations

import pytest

import cardarena.agents as agents
import cardarena.evaluate as evaluate
from cardarena.agents import make_agent, search_settings
from cardarena.agents.specs import build_agent
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.registry import get_spec, names

ROWS = [(game, row.label, row.agent) for game in names() for row in get_spec(game).search]


def test_every_game_names_its_search_settings():
    assert {game for game, _, _ in ROWS} == set(names())
    for game in names():
        assert search_settings(game) == {r.label: r.agent for r in get_spec(game).search}


@pytest.mark.parametrize(("game", "label", "spec"), ROWS, ids=[r[1] for r in ROWS])
def test_a_label_builds_the_agent_of_its_row(game, label, spec):
    named = make_agent(game, f"search:{label}", seed=7)
    plain = make_agent(game, spec, seed=7)
    assert type(named) is type(plain) and named.name == f"search:{label}"
    settings = {k: v for k, v in vars(named).items() if k not in ("name", "rng")}
    assert settings == {k: v for k, v in vars(plain).items() if k not in ("name", "rng")}
    assert named.rng.bit_generator.state == plain.rng.bit_generator.state
    # the module docstring's table lists every label
    assert f"``{label}``" in (agents.__doc__ or "")


@pytest.mark.parametrize(
    ("game", "spec", "listed", "unlisted"),
    [
        ("flip6", "search:nope", ["'search:flip6'"], ["sevn"]),
        (
            "suicidium",
            "search:",
            ["'search:suicidium_survive'", "'search:suicidium_depression'"],
            [],
        ),
        (
            "thegame",
            "search:flip6",
            ["'search:thegame_2p'", "'search:thegame_4p'"],
            ["'search:flip6'"],
        ),
    ],
)
def test_an_unknown_label_lists_the_games_labels(game, spec, listed, unlisted):
    with pytest.raises(ConfigError, match="unknown search setting") as err:
        make_agent(game, spec)
    message = str(err.value)
    assert repr(spec) in message and game in message
    assert all(s in message for s in listed)
    assert not any(s in message.split("names", 1)[1] for s in unlisted)


def test_a_named_setting_cannot_play_inside_a_search():
    with pytest.raises(ConfigError, match="cannot play inside a search"):
        build_agent("flip6", "search:flip6")  # no search builder: a rollout or leaf player


def test_unknown_agents_mention_the_labels():
    with pytest.raises(ConfigError, match=r"'search:LABEL' \['flip6'\]"):
        make_agent("flip6", "bogus")


def test_evaluate_refuses_an_unknown_label(tmp_path, capsys):
    out = str(tmp_path / "x.json")
    rc = evaluate.main(
        ["--game", "sevn", "--deals", "1", "--out", out, "--no-progress"]
        + ["--agents", "search:fast", "ev", "random", "random"]
    )
    assert rc == 2
    assert "'search:sevn'" in capsys.readouterr().err
