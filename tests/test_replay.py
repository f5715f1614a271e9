"""Replays (issue 10): evaluate.py --record writes one per game, the viewer shows any seat's view
or the full view, and --verify replays through the engine."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest

import cardarena.evaluate as evaluate
from cardarena.agents.evaluation.tournament import run_tournament
from cardarena.agents.tools.replay import main, view
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.replay import Replay, ReplayFormatError, record_game, verify


def _lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_evaluate_record_saves_every_game_played_and_they_verify(tmp_path, capsys):
    out = tmp_path / "res.json"
    rc = evaluate.main(
        ["--game", "ratatat", "--agents", "tracker", "tiny_policy:make", "random", "--deals", "2",
         "--num-players", "3", "--option", "num_rounds=1", "--out", str(out), "--workers", "1",
         "--no-progress", "--no-report", "--bootstrap", "50", "--record", str(tmp_path / "rp")]
    )  # fmt: skip
    assert rc == 0
    assert "replays of the 6 games played" in capsys.readouterr().out
    files = sorted((tmp_path / "rp").glob("*.jsonl"))
    assert len(files) == 6
    games = {(g["deal_seed"], tuple(g["lineup"])): g for g in json.loads(out.read_text())["games"]}
    for path in files:
        items = _lines(path)
        header, result, end = items[0], items[-2], items[-1]
        assert end == {"type": "end", "lines": len(items) - 1, "steps": result["steps"],
                       "finished": True}  # fmt: skip
        assert header["type"] == "header" and header["game"] == "ratatat"
        assert header["options"] == {"num_players": 3, "num_rounds": 1}
        assert header["initial"]["draw_pile"] and header["source"] == "evaluate.py"
        game = games[(header["seed"], tuple(header["players"]))]
        assert result["type"] == "result"
        assert (result["scores"], result["winners"]) == (game["scores"], game["winners"])
        assert result["steps"] == game["decisions"] == sum("action" in x for x in items)
        assert all(isinstance(x["action"], str) for x in items if "action" in x)
        assert verify(path).ok
    # the command line checks them all at once
    assert main([*map(str, files), "--verify"]) == 0
    assert capsys.readouterr().out.count(": OK (") == 6


def test_record_through_worker_processes(tmp_path):
    """The pool path writes the same replays as the single-process path."""
    args = ("flip6", ["ev", "threshold", "random"], 2, {"num_players": 3})
    run_tournament(*args, progress=False, workers=1, record_dir=tmp_path / "one")
    run_tournament(*args, progress=False, workers=2, batch_games=3, record_dir=tmp_path / "two")
    one = sorted((tmp_path / "one").glob("*.jsonl"))
    two = sorted((tmp_path / "two").glob("*.jsonl"))
    assert [p.name for p in one] == [p.name for p in two] and len(one) == 6

    def body(path):
        items = _lines(path)
        items[0].pop("created")
        return items

    assert all(body(a) == body(b) for a, b in zip(one, two, strict=True))


def _played(game, options, seed, steps=None):
    spec = get_spec(game)
    engine = spec.make_engine(**options)
    state = engine.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    actions = []
    while not engine.is_over(state) and (steps is None or len(actions) < steps):
        legal = engine.legal_actions(state)
        actions.append(legal[rng.integers(len(legal))])
        engine.apply(state, actions[-1])
    return actions


@pytest.fixture
def thegame_replay(tmp_path):
    path = tmp_path / "tg.jsonl"
    options = {"num_players": 2}
    record_game(path, "thegame", options, 7, ["random", "random"], _played("thegame", options, 7))
    return path


def test_viewer_shows_a_seats_view_or_everything(thegame_replay):
    replay = Replay.load(thegame_replay)
    hands = replay.header["initial"]["hands"]
    seat0, full = io.StringIO(), io.StringIO()
    assert view(replay, seat=0, out=seat0) == 0
    assert view(replay, seat=None, out=full) == 0
    first = seat0.getvalue().split("== 1/")[0]
    # seat 0 sees its own hand, never seat 1's; the full view shows both
    assert " ".join(hands[0]) in first and " ".join(hands[1]) not in first
    assert "seat 0 (you)" in first and "every card" not in seat0.getvalue()
    start = full.getvalue().split("== 1/")[0]
    assert "every card (hidden ones included)" in start
    assert " ".join(hands[1]) in start and " ".join(hands[0]) in start
    assert "result: scores" in full.getvalue()
    n = len(replay.actions)
    assert seat0.getvalue().count("\n== ") == n + 1  # the start, then a frame per action


def test_viewer_steps_forward_back_and_jumps(thegame_replay):
    replay = Replay.load(thegame_replay)
    out = io.StringIO()
    keys = io.StringIO("\n\nb\n5\nb\n9999\nq\n")
    assert view(replay, seat=1, interactive=True, out=out, inp=keys) == 0
    steps = [int(m) for m in re.findall(r"== (\d+)/", out.getvalue())]
    assert steps == [1, 2, 1, 5, 4, len(replay.actions)]  # the start frame has no "/"
    assert view(replay, seat=0, interactive=True, out=io.StringIO(), inp=io.StringIO("")) == 0


def test_cli_view_and_errors(thegame_replay, tmp_path, capsys):
    assert main([str(thegame_replay), "--seat", "1", "--no-pause"]) == 0
    assert "seat 1 (you)" in capsys.readouterr().out
    assert main([str(thegame_replay), "--seat", "5", "--no-pause"]) == 2
    assert "--seat must be in [0, 1]" in capsys.readouterr().err
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"type": "game"}\n')
    assert main([str(junk), "--verify"]) == 1  # a verdict line for the file, not an error
    out = capsys.readouterr()
    assert out.out == f"{junk}: FAIL: line 1: the first line must be the replay header " + (
        '{"type": "header", "game": ..., "seed": ...}\n'
    )
    assert "1 of 1 replays fail" in out.err
    assert main([str(junk), "--no-pause"]) == 2
    assert "first line must be the replay header" in capsys.readouterr().err
    with pytest.raises(ReplayFormatError, match="cannot read"):
        Replay.load(tmp_path / "missing.jsonl")


def test_a_file_cut_while_writing_still_loads_but_does_not_verify(thegame_replay):
    text = thegame_replay.read_text()
    lines = text.splitlines()
    assert json.loads(lines[-1]) == {
        "type": "end", "lines": len(lines) - 1, "steps": len(lines) - 4, "finished": True
    }  # fmt: skip
    for keep in (len(lines) - 1, len(lines) - 2, len(lines) - 5):
        for half in (0, 15):  # whole lines lost, or the next one half written
            cut = "\n".join(lines[:keep]) + "\n" + lines[keep][:half]
            replay = Replay.parse(cut.splitlines())  # still loads, for the viewer
            assert replay.actions and replay.end is None and bool(replay.cut) == bool(half)
            verdict = verify(replay)
            assert not verdict.ok and "cut short" in verdict.line(), verdict.line()


@pytest.mark.parametrize(
    "game,options", [(g, dict(get_spec(g).play_tables[-1])) for g in names()]
)  # every game's last play table (its manifest)
def test_every_game_round_trips_and_a_changed_action_is_caught(game, options, tmp_path):
    path = tmp_path / "g.jsonl"
    actions = _played(game, options, 3)
    seats = get_spec(game).make_engine(**options).num_players
    result = record_game(path, game, options, 3, ["random"] * seats, actions)
    assert verify(path).ok and result["steps"] == len(actions)
    engine = get_spec(game).make_engine(**options)
    state = engine.new_game(np.random.default_rng(3))
    for i, a in enumerate(actions):  # change the first decision that had another legal action
        legal = engine.legal_actions(state)
        if len(legal) > 1:
            other = next(x for x in legal if x != a)
            items = _lines(path)
            lines = [x for x in items if "action" in x]
            lines[i]["action"] = engine.describe_action(other)
            path.write_text("".join(json.dumps(x) + "\n" for x in items))
            verdict = verify(path)
            assert not verdict.ok and f"action {i + 1} " in verdict.text()
            break
        engine.apply(state, a)


def test_control_characters_in_a_replays_names_never_reach_the_terminal(tmp_path):
    """A player name is text from a file: an ANSI escape in it is shown escaped."""
    import io

    from cardarena.agents.tools.replay import view

    path = tmp_path / "ansi.jsonl"
    options = {"num_players": 2}
    evil = "\x1b[2J\x1b[31mbot\x07"
    record_game(path, "thegame", options, 7, [evil, "random"], _played("thegame", options, 7, 6))
    replay = Replay.load(path)
    assert replay.players[0] == "\\x1b[2J\\x1b[31mbot\\x07"
    out = io.StringIO()
    view(replay, out=out)
    text = out.getvalue() + verify(path).text()
    assert "\x1b" not in text and "\x07" not in text
