"""The outside seat's game (agents/tools/session.py): what the terminal table, the browser table
and the MCP server share."""

from __future__ import annotations

import json

import pytest

from cardarena.agents.tools.session import SeatSession
from cardarena.envs.core.errors import ConfigError, IllegalActionError
from cardarena.envs.core.registry import get_spec, names


@pytest.mark.parametrize("game", names())
def test_a_whole_game_by_ids_and_texts(game, tmp_path):
    n = get_spec(game).make_engine().num_players
    s = SeatSession(game, 1, ["random"] * (n - 1), {}, seed=3, record_dir=tmp_path)
    decisions = 0
    while s.to_move:
        menu = s.legal()
        assert menu and s.render() and s.decision_name()
        json.dumps(s.view())  # the seat's view is plain data
        action, text = menu[decisions % len(menu)]
        s.play(text if decisions % 2 else action)  # by text and by id in turn
        decisions += 1
    assert s.over and s.legal() == []
    result = s.result()
    assert set(result["winners"]) <= set(range(len(s.lineup)))
    assert s.replay_path is not None and s.replay_path.exists()


def test_illegal_entries_are_refused_and_change_nothing():
    s = SeatSession("flip6", 0, ["random"] * 2, {"num_players": 3}, seed=5)
    assert s.to_move
    before = s.engine.to_dict(s.state)
    for entry in (999, -1, True, None, "fly away", "²", 2.5, "x" * 500):
        with pytest.raises(IllegalActionError, match="not a legal action here; legal now"):
            s.play(entry)
    assert s.engine.to_dict(s.state) == before
    with pytest.raises(ConfigError, match="not over yet"):
        s.result()


def test_events_tell_the_agents_moves_then_empty():
    s = SeatSession("flip6", 3, ["random"] * 3, {"num_players": 4}, seed=1)
    first = s.take_events()  # seat 1 opens (the dealer is seat 0); seats 1 and 2 play first
    assert first and first[0].startswith("seat 1 (random): ")
    assert s.take_events() == []


def test_line_up_rule_and_seed_checked():
    with pytest.raises(ConfigError, match="one agent per other seat"):
        SeatSession("sevn", 0, ["ev"], {"num_players": 4})
    with pytest.raises(ConfigError, match="deal seed"):
        SeatSession("flip6", 0, ["ev"] * 3, seed=-1)
    with pytest.raises(ConfigError, match="human seat"):
        SeatSession("flip6", 9, ["ev"] * 3)
