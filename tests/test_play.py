"""Human play in the terminal (issue 10): screens show only the seat's view, entries are parsed
or refused with the legal list, end of input stops cleanly, and every game is saved as a replay."""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cardarena.agents.tools.play import parse_entry, play_human, screen, seat_specs, table_size
from cardarena.agents.tools.replay import full_view
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.replay import Replay, verify

ROOT = Path(__file__).resolve().parents[1]


def _tables() -> list[tuple[str, dict, list[str]]]:
    """Every game's ``play_tables`` (its manifest: short tables with the options that change what
    a seat sees), the person next to the best baselines (or random); and a network agent."""
    tables = []
    for game in names():
        spec = get_spec(game)
        agents = [*reversed(spec.baselines), "random"]
        for options in spec.play_tables:
            n = options.get("num_players", spec.option_default("num_players"))
            # one agent per other seat (the two best, alternating round the table)
            tables.append((game, dict(options), [agents[k % 2] for k in range(n - 1)]))
    first = tables[0]
    return [*tables, (first[0], first[1], ["tiny_policy:make", *first[2][1:]])]


TABLES = _tables()


class Answers(io.StringIO):
    """A person who types the given answers in turn, forever (then stops after ``limit`` lines)."""

    def __init__(self, answers, limit=5000):
        super().__init__()
        self.answers = itertools.cycle(answers)
        self.left = limit
        self.lines = []

    def readline(self, *args):
        if self.left <= 0:
            return ""
        self.left -= 1
        line = next(self.answers)
        self.lines.append(line)
        return line + "\n"


@pytest.mark.parametrize(
    "game,options,agents", TABLES, ids=[f"{t[0]}-{i}" for i, t in enumerate(TABLES)]
)
def test_a_person_plays_a_whole_game_and_it_is_saved_as_a_replay(game, options, agents, tmp_path):
    # answers: a menu number that often does not exist, nonsense, help, then the first action
    person = Answers(["7", "not an action", "?", "1"])
    out = io.StringIO()
    rc = play_human(
        game, 1, agents, dict(options), seed=3, record_dir=tmp_path, inp=person, out=out
    )
    text = out.getvalue()
    assert rc == 0
    assert "game over" in text, text[-2000:]
    assert "'not an action' is not a legal action here. Legal actions:" in text
    assert "your decision (" in text and "[1] " in text
    files = list(tmp_path.glob("*.jsonl"))
    assert len(files) == 1
    replay = Replay.load(files[0])
    assert replay.header["players"][1] == "human" and replay.header["source"] == "human play"
    assert replay.result is not None
    verdict = verify(files[0])
    assert verdict.ok, verdict.text()


def test_end_of_input_and_quit_stop_cleanly_and_keep_the_game_so_far(tmp_path):
    out = io.StringIO()
    assert (
        play_human("flip6", 0, ["ev"] * 2, {"num_players": 3}, 5, tmp_path, io.StringIO(""), out)
        == 0
    )
    assert "game stopped (input ended)" in out.getvalue()
    out = io.StringIO()
    assert (
        play_human("thegame", 0, ["greedy"], {}, 5, tmp_path / "q", io.StringIO("1\nquit\n"), out)
        == 0
    )
    assert "game stopped (you quit)" in out.getvalue()
    (path,) = (tmp_path / "q").glob("*.jsonl")
    replay = Replay.load(path)
    assert replay.result is None and len(replay.actions) >= 1
    assert verify(path).ok  # an unfinished game still replays


def test_entries_are_numbers_or_texts_of_legal_actions():
    spec = get_spec("flip6")
    engine = spec.make_engine(num_players=3)
    state = engine.new_game(np.random.default_rng(0))
    legal = engine.legal_actions(state)
    assert [engine.describe_action(a) for a in legal] == ["stay", "hit"]
    assert parse_entry(engine, state, "2") == engine.parse_action("hit")
    assert parse_entry(engine, state, "  HIT ") == engine.parse_action("hit")
    assert parse_entry(engine, state, "stay") == engine.parse_action("stay")
    for bad in ("0", "3", "target 1", "", "hitt", "-1"):
        assert parse_entry(engine, state, bad) is None, bad
    tg = get_spec("thegame").make_engine()
    ts = tg.new_game(np.random.default_rng(0))
    text = tg.describe_action(tg.legal_actions(ts)[3])
    assert parse_entry(tg, ts, text.upper()) == tg.legal_actions(ts)[3]


def test_seats_and_table_size():
    assert seat_specs(4, 2, ["a", "b", "a"]) == ["a", "b", "human", "a"]
    with pytest.raises(ConfigError, match="one agent per other seat"):  # as tournaments
        seat_specs(4, 2, ["a", "b"])
    with pytest.raises(ConfigError, match="one agent per other seat"):
        seat_specs(3, 0, ["a", "b", "c"])
    assert seat_specs(4, 2, ["a", "b"], cooperative=True) == ["a", "b", "human", "a"]
    assert seat_specs(1, 0, []) == ["human"]
    with pytest.raises(ConfigError, match="human seat"):
        seat_specs(3, 3, ["a"])
    with pytest.raises(ConfigError, match="give agents"):
        seat_specs(3, 0, [])
    assert table_size("flip6", ["ev", "ev"], None) == 3  # one seat per agent plus the person
    assert table_size("flip6", ["ev"], None) == 4  # two seats are too few: the game's default
    assert table_size("flip6", ["ev"], 5) == 5


@pytest.mark.parametrize(
    "game,options,agents", TABLES, ids=[f"{t[0]}-{i}" for i, t in enumerate(TABLES)]
)
def test_the_screen_shows_nothing_the_seat_cannot_see(game, options, agents):
    """Redraw everything hidden from the deciding seat: its screen must not change (and the
    full view must, sometimes, or the check would prove nothing)."""
    spec = get_spec(game)
    engine = spec.make_engine(**options)
    rng = np.random.default_rng(11)
    hidden_changed = 0
    for seed in range(3):
        state = engine.new_game(np.random.default_rng(seed))
        while not engine.is_over(state):
            seat = engine.current_player(state)
            other = engine.resample_hidden(state, seat, rng)
            mine = screen(engine, spec, state, seat, ["seat 0 (ev): hit"])
            assert screen(engine, spec, other, seat, ["seat 0 (ev): hit"]) == mine
            hidden_changed += full_view(engine, spec, state) != full_view(engine, spec, other)
            legal = engine.legal_actions(state)
            engine.apply(state, legal[rng.integers(len(legal))], seat)
    if options.get("memory") != "seer" or game != "ratatat":
        assert hidden_changed > 0


def test_evaluate_human_through_stdin_end_to_end(tmp_path):
    """``python evaluate.py --human`` driven through a pipe: refusals, then the game to its end."""
    answers = "\n".join(["hello", "0", "?"] + ["1"] * 400) + "\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "evaluate.py", "--game", "flip6", "--human", "2", "--agents", "ev",
         "threshold", "--seed", "4", "--record", str(tmp_path)],
        input=answers, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "'hello' is not a legal action here" in proc.stdout
    assert "'0' is not a legal action here" in proc.stdout
    assert "seat 2: YOU" in proc.stdout and "game over" in proc.stdout
    assert "Traceback" not in proc.stderr
    (path,) = tmp_path.glob("*.jsonl")
    assert Replay.load(path).players == ["ev", "threshold", "human"]
    assert verify(path).ok


def test_evaluate_human_errors_are_reported_not_raised(capsys):
    import cardarena.evaluate as evaluate

    assert evaluate.main(["--game", "flip6", "--human", "7", "--agents", "ev"]) == 2
    assert "human seat must be in [0, 3]" in capsys.readouterr().err  # flip6 default: 4
    assert evaluate.main(["--game", "flip6", "--human", "0", "--agents", "nope", "ev"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        evaluate.main(["--game", "flip6"])  # a tournament still needs --agents
    assert "required: --agents" in capsys.readouterr().err
