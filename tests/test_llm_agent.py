"""Language-model agents (``llm:module:function``, agents/outside/) with scripted fake models, no
network: the prompt (rules, the seat's view, the legal texts; deterministic, nothing hidden),
the reading of replies (marked, chatty, the last line), refusals and retries, the fallback, a
model that raises, the spec's options and errors, a tournament with ``--record`` whose replays
hold the transcripts, the viewer's ``--transcript``, and human play's replay.

The fake models are the functions of this module (the specs name ``test_llm_agent:NAME``)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from cardarena.agents import make_agent
from cardarena.agents.outside import prompt as prompt_mod
from cardarena.agents.outside.llm import LLMAgent, LLMError, parse_spec
from cardarena.agents.outside.prompt import Refused, build_prompt, extract_summary, read_reply
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.loop import decide, play
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.replay import Replay, ReplayLineError, verify

ROOT = Path(__file__).resolve().parents[1]
ME = "test_llm_agent"


# ---- the fake models ----------------------------------------------------------------------------
def _legal(messages):
    """The legal texts of the conversation's first prompt."""
    listed = messages[1]["content"].partition("## Legal actions")[2].partition("\n## ")[0]
    return [line[2:] for line in listed.splitlines() if line.startswith("- ")]


def good(messages):
    return f"ACTION: {_legal(messages)[0]}"


def last_of(messages):
    """Chatter, then the last legal action on the reply's last line, unmarked."""
    return f"Hmm. I could play {_legal(messages)[0]}.\nBut no.\n{_legal(messages)[-1]}"


def chatty(messages):
    """A marked answer in the middle of chatter, decorated."""
    return f"Thinking...\n**Action:** `{_legal(messages)[-1]}`.\nThat should do it, I hope"


def wrong_once(messages):
    """Nonsense first, a legal action once refused."""
    if messages[-1]["role"] == "user" and messages[-1]["content"].startswith("Refused"):
        return f"Sorry. ACTION: {_legal(messages)[0]}"
    return "ACTION: fly to the moon"


def always_wrong(messages):
    return "I would rather not play."


def raising(messages):
    raise TimeoutError("the provider timed out")


def not_text(messages):
    return 42


# ---- the prompt ---------------------------------------------------------------------------------
def _states(game, n, count, seed=0):
    engine = get_spec(game).make_engine(num_players=n)
    rng = np.random.default_rng(seed)
    state = engine.new_game(rng)
    for _ in range(count):
        if engine.is_over(state):
            state = engine.new_game(rng)
        yield engine, state
        engine.apply(state, int(rng.choice(engine.legal_actions(state))))


@pytest.mark.parametrize("game", names())
def test_the_prompt_is_the_rules_the_view_and_the_legal_texts(game):
    spec = get_spec(game)
    engine, state = next(_states(game, 3, 1))
    seat = engine.current_player(state)
    view = spec.view(state, seat)
    texts = [engine.describe_action(int(a)) for a in engine.legal_actions(state)]
    text = build_prompt(game, view, texts)
    assert text == build_prompt(game, json.loads(json.dumps(view)), list(texts))  # deterministic
    rules = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    assert extract_summary(rules).strip() in text
    assert "## Rules" in text and "## Actions" in text  # both sections of the rules file
    assert json.dumps(view, sort_keys=True, separators=(",", ":")) in text
    listed = text.partition("## Legal actions")[2].partition("\n## ")[0]
    assert [ln[2:] for ln in listed.splitlines() if ln.startswith("- ")] == texts
    assert text.rstrip().endswith("written exactly as listed.")
    assert f"You are seat {seat} of 3" in text


@pytest.mark.parametrize("game", [g for g in names() if get_spec(g).hides_information])
def test_the_prompt_holds_nothing_hidden(game):
    """Two states the seat cannot tell apart (its hidden cards redrawn) give the same prompt."""
    spec = get_spec(game)
    asked = []
    agent = LLMAgent(
        game, lambda m: asked.append(m[1]["content"]) or good(m), make_agent(game, "random")
    )
    agent.reset(0)
    rng = np.random.default_rng(1)
    for engine, state in _states(game, 4, 60, seed=3):
        if engine.is_over(state) or len(engine.legal_actions(state)) < 2:
            continue
        seat = engine.current_player(state)
        other = engine.resample_hidden(state, seat, rng)
        mask = np.zeros(engine.num_actions, dtype=np.int8)
        decide(spec, engine, state, seat, agent, mask)
        decide(spec, engine, other, seat, agent, mask)
        assert asked[-1] == asked[-2]


def test_the_shipped_rules_summaries_are_the_rules_files():
    for game in names():
        source = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
        assert prompt_mod.rules_summary(game) == extract_summary(source), (
            f"agents/outside/rules/{game}.md differs from docs/rules/{game}.md: run "
            "python -m cardarena.agents.outside.prompt --write-rules"
        )
    assert prompt_mod.rules_summary("../docs") is None
    assert "no rules summary ships" in build_prompt("nogame", {"seat": 0}, ["pass"])
    setup = (ROOT / "setup.py").read_text()
    assert '"outside/rules/*.md"' in setup  # in the wheel


# ---- reading replies ----------------------------------------------------------------------------
def test_replies_are_read_from_the_marked_line_or_the_last_line():
    engine = get_spec("flip6").make_engine()
    legal = [0, 1]  # stay, hit
    assert read_reply(engine, "ACTION: hit", legal) == 1
    assert read_reply(engine, "I think...\n  action:  **stay**.\nGood luck!", legal) == 0
    assert read_reply(engine, "ACTION: stay\nno wait\nACTION: hit", legal) == 1  # the last one
    assert read_reply(engine, "Let me think.\n\n`hit`\n", legal) == 1
    with pytest.raises(Refused, match="is not legal now.*one of: stay, hit"):
        read_reply(engine, "ACTION: target 2", legal)
    with pytest.raises(Refused, match="not an action of flip6.*one of: stay, hit"):
        read_reply(engine, "ACTION: fold", legal)
    with pytest.raises(Refused, match="holds no action"):
        read_reply(engine, "  \n", legal)
    with pytest.raises(Refused, match="not text"):
        read_reply(engine, None, legal)  # type: ignore[arg-type]


# ---- the agent ----------------------------------------------------------------------------------
def _decide(agent, game="flip6", n=4, skip=0):
    """The agent's decision at the first state (after ``skip``) with two or more legal actions."""
    spec = get_spec(game)
    for engine, state in _states(game, n, 500):
        if len(engine.legal_actions(state)) > 1:
            if skip == 0:
                mask = np.zeros(engine.num_actions, dtype=np.int8)
                seat = engine.current_player(state)
                action = decide(spec, engine, state, seat, agent, mask)
                return engine, state, action
            skip -= 1
    raise AssertionError("no decision")


@pytest.mark.parametrize(
    "model,pick", [("good", 0), ("last_of", -1), ("chatty", -1), ("wrong_once", 0)]
)
def test_a_model_that_answers_plays_its_answer(model, pick):
    agent = make_agent("flip6", f"llm:{ME}:{model}")
    agent.reset(0)
    engine, state, action = _decide(agent)
    legal = [int(a) for a in engine.legal_actions(state)]
    assert action == legal[pick]
    note = agent.note
    assert note["fallback"] is False and note["action"] == engine.describe_action(action)
    assert note["asked"] == (2 if model == "wrong_once" else 1)
    roles = [m["role"] for m in note["messages"]]
    expected = ["system", "user", "assistant"] + (
        ["user", "assistant"] if model == "wrong_once" else []
    )
    assert roles == expected
    if model == "wrong_once":
        assert note["messages"][3]["content"].startswith(
            "Refused: 'fly to the moon' is not an action"
        )
        assert agent.stats == {"asked": 1, "retries": 1, "fallbacks": 0}


def test_a_model_that_never_answers_is_asked_retries_times_then_the_fallback_plays():
    agent = make_agent("flip6", f"llm:{ME}:always_wrong?retries=3")
    agent.reset(0)
    engine, state, action = _decide(agent)
    assert action in engine.legal_actions(state)
    note = agent.note
    assert note["asked"] == 4 and note["fallback"] is True
    assert [m["role"] for m in note["messages"]] == ["system", "user"] + ["assistant", "user"] * 4
    assert all("has no 'ACTION:' line" in m["content"] for m in note["messages"][3::2])
    assert agent.stats == {"asked": 1, "retries": 3, "fallbacks": 1}
    # the default fallback is random; another is any spec: ev plays as ev would
    with_ev = make_agent("flip6", f"llm:{ME}:always_wrong?retries=0&fallback=ev")
    ev = make_agent("flip6", "ev")
    for skip in range(6):
        with_ev.reset(skip)
        ev.reset(skip)
        assert _decide(with_ev, skip=skip)[2] == _decide(ev, skip=skip)[2]
        assert with_ev.note["asked"] == 1


def test_a_model_that_raises_is_an_error_naming_agent_game_and_seat():
    agent = make_agent("flip6", f"llm:{ME}:raising")
    agent.reset(0)
    with pytest.raises(LLMError, match=r"agent 'llm:test_llm_agent:raising' playing flip6 at seat \d .*"
                       r"TimeoutError: the provider timed out.*on_error=fallback"):  # fmt: skip
        _decide(agent)
    with pytest.raises(LLMError, match="returned int, not a str"):
        _decide(make_agent("flip6", f"llm:{ME}:not_text"))
    caught = make_agent("flip6", f"llm:{ME}:raising?on_error=fallback")
    caught.reset(0)
    engine, state, action = _decide(caught)
    assert action in engine.legal_actions(state)
    assert caught.note["fallback"] is True and "TimeoutError" in caught.note["error"]


def test_one_legal_action_is_played_without_asking():
    agent = make_agent("thegame", f"llm:{ME}:raising")  # raising: asking would fail
    agent.reset(0)
    agent.note = {"stale": True}
    assert agent.act_forced(3) is True and agent.note is None


def test_the_spec_options_and_their_errors():
    assert parse_spec(f"llm:{ME}:good") == (
        ME,
        "good",
        {"retries": 2, "fallback": "random", "on_error": "raise"},
    )
    got = parse_spec(
        "llm:pkg.mod:ask?retries=0&fallback=pimc:worlds=4,rollout=ev&on_error=fallback"
    )
    assert got == (
        "pkg.mod",
        "ask",
        {"retries": 0, "fallback": "pimc:worlds=4,rollout=ev", "on_error": "fallback"},
    )
    for spec, match in [
        ("llm:nofunction", "names no model function"),
        (
            f"llm:{ME}:good?retry=2",
            r"'retry=2' is not an option.*\['fallback', 'on_error', 'retries'\]",
        ),
        (f"llm:{ME}:good?retries=11", "retries='11'; give a whole number in 0..10"),
        (f"llm:{ME}:good?retries=x", "retries='x'"),
        (f"llm:{ME}:good?on_error=ignore", "on_error='ignore'; give one of"),
        (f"llm:{ME}:good?fallback=llm:{ME}:good", "not a model"),
    ]:
        with pytest.raises(ConfigError, match=match):
            parse_spec(spec)
    with pytest.raises(ConfigError, match="cannot load the model function.*no_such_module"):
        make_agent("flip6", "llm:no_such_module:ask")
    with pytest.raises(ConfigError, match="has no attribute 'nope'"):
        make_agent("flip6", f"llm:{ME}:nope")
    with pytest.raises(ConfigError, match="unknown agent 'nonsense'"):
        make_agent("flip6", f"llm:{ME}:good?fallback=nonsense")
    assert isinstance(make_agent("sevn", f"llm:{ME}:good?fallback=ev"), LLMAgent)
    from cardarena.agents.specs import build_agent

    with pytest.raises(ConfigError, match="cannot play inside a search"):
        build_agent("flip6", f"llm:{ME}:good")  # no search builder: a search's own player
    with pytest.raises(ConfigError, match="rollout must be one of"):
        make_agent("flip6", f"pimc:worlds=2,rollout=llm:{ME}:good")


def test_the_agent_reads_the_observation_only_for_its_fallback():
    assert make_agent("flip6", f"llm:{ME}:good").uses_observation is False  # random reads none
    assert make_agent("flip6", f"llm:{ME}:good?fallback=zoo:flip6").uses_observation is True


# ---- tournaments, replays, the viewer, human play -----------------------------------------------
def test_a_tournament_records_the_transcripts_in_its_replays(tmp_path):
    from cardarena.agents.evaluation.tournament import run_tournament
    from cardarena.agents.tools.replay import main as replay_main

    spec = f"llm:{ME}:wrong_once"
    result = run_tournament(
        "flip6", [spec, "ev", "random"], 1, {"num_players": 3}, progress=False, record_dir=tmp_path
    )
    assert sum(r.decisions for r in result.records) > 0
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 3
    noted = 0
    for path in files:
        assert verify(path).ok
        replay = Replay.load(path)
        assert replay.header["format"] == 3
        llm_seat = replay.header["players"].index(spec)
        for line in replay.actions:
            if "note" in line:
                noted += 1
                assert line["seat"] == llm_seat and line["note"]["kind"] == "llm"
                assert line["note"]["action"] == line["action"] and line["note"]["asked"] == 2
                assert "## What you see (JSON)" in line["note"]["messages"][1]["content"]
            else:  # another seat, or one legal action (not asked)
                assert line["seat"] != llm_seat or len(_legal_at(replay, line)) == 1
    assert noted > 3
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert replay_main([str(files[0]), "--transcript", "--no-pause"]) == 0
    shown = out.getvalue()
    assert "-- transcript: 2 repl(y/ies) asked, fallback played: no" in shown
    assert "[assistant]" in shown and "Refused: 'fly to the moon'" in shown
    plain = io.StringIO()
    with contextlib.redirect_stdout(plain):
        assert replay_main([str(files[0]), "--no-pause"]) == 0
    assert "transcript" not in plain.getvalue() and "[assistant]" not in plain.getvalue()


def _legal_at(replay, line):
    """The legal actions before ``line`` (an action line of ``replay``)."""
    engine = replay.engine()
    index = replay.actions.index(line)
    for step, state in replay.states(engine):
        if step == index:
            return engine.legal_actions(state)
    raise AssertionError


def test_evaluate_command_plays_and_records_an_llm_agent(tmp_path, monkeypatch, capsys):
    from cardarena.evaluate import main as evaluate_main

    monkeypatch.chdir(tmp_path)
    code = evaluate_main(
        ["--game", "ratatat", "--agents", f"llm:{ME}:chatty?fallback=greedy", "tracker",
         "--num-players", "2",
         "--deals", "1", "--record", "replays", "--out", "out.json"]
    )  # fmt: skip
    assert code in (0, None)
    files = list(Path("replays").glob("*.jsonl"))
    assert files and all(verify(f).ok for f in files)
    assert any("note" in line for f in files for line in Replay.load(f).actions)


def test_human_play_records_the_model_seats_transcripts(tmp_path):
    from cardarena.agents.tools.play import play_human

    out = io.StringIO()
    play_human(
        "flip6",
        0,
        [f"llm:{ME}:good"] * 3,
        seed=4,
        record_dir=tmp_path,
        inp=io.StringIO("1\n" * 40),
        out=out,
    )
    (path,) = tmp_path.glob("*.jsonl")
    replay = Replay.load(path)
    assert verify(path).ok
    notes = [line for line in replay.actions if "note" in line]
    assert notes and all(line["seat"] != 0 for line in notes)


def test_a_note_needs_format_3_and_must_be_an_object(tmp_path):
    from cardarena.envs.core.replay import record_game

    path = tmp_path / "g.jsonl"
    record_game(path, "thegame", {"num_players": 1}, 0, ["x"], [], timestamp=False)
    engine = get_spec("thegame").make_engine(num_players=1)
    state = engine.new_game(np.random.default_rng(0))
    action = int(engine.legal_actions(state)[0])
    record_game(
        path,
        "thegame",
        {"num_players": 1},
        0,
        ["x"],
        [action],
        timestamp=False,
        notes=[{"kind": "x"}],
    )
    lines = path.read_text().splitlines()
    assert json.loads(lines[1])["note"] == {"kind": "x"}
    assert Replay.parse(lines).actions[0]["note"] == {"kind": "x"}
    header = json.loads(lines[0])
    old = [json.dumps({**header, "format": 2}), *lines[1:]]
    with pytest.raises(ReplayLineError, match=r"unknown key\(s\).*note"):
        Replay.parse(old)
    bad = lines[:1] + [re.sub(r'"note":\{[^}]*\}', '"note":[1]', lines[1])] + lines[2:]
    with pytest.raises(ReplayLineError, match="'note' is .*allowed: a JSON object"):
        Replay.parse(bad)
    # a game played through the loop: an agent with no note leaves none
    path2 = tmp_path / "h.jsonl"
    record_game(path2, "thegame", {"num_players": 1}, 0, ["x"], [action], timestamp=False)
    assert "note" not in Replay.load(path2).actions[0]
    assert play  # the loop the recorders read notes after


def long_winded(messages):
    return "x" * 50_000 + f"\nACTION: {_legal(messages)[0]}"


def test_a_long_reply_is_cut_in_the_transcript_and_a_huge_note_in_the_replay(tmp_path):
    from cardarena.agents.outside.llm import MAX_NOTE_TEXT
    from cardarena.envs.core.replay import MAX_NOTE_CHARS, record_game

    agent = make_agent("flip6", f"llm:{ME}:long_winded")
    agent.reset(0)
    _decide(agent)
    reply = agent.note["messages"][2]["content"]
    assert len(reply) < MAX_NOTE_TEXT + 100 and reply.endswith("more characters cut]")
    assert agent.note["fallback"] is False  # the model read the whole reply
    engine = get_spec("thegame").make_engine(num_players=1)
    action = int(engine.legal_actions(engine.new_game(np.random.default_rng(0)))[0])
    path = tmp_path / "g.jsonl"
    huge = {"kind": "x", "text": "y" * (MAX_NOTE_CHARS + 1)}
    record_game(path, "thegame", {"num_players": 1}, 0, ["x"], [action], notes=[huge])
    size = len(json.dumps(huge, separators=(",", ":")))
    assert size > MAX_NOTE_CHARS and Replay.load(path).actions[0]["note"] == {"cut": size}


def test_the_viewer_escapes_what_a_model_wrote():
    """A reply comes from a file when viewed: a terminal escape in it is shown, not obeyed."""
    from cardarena.agents.tools.replay import note_text

    note = {"kind": "llm", "asked": 1, "fallback": False, "action": "hit",
            "messages": [{"role": "assistant", "content": "\x1b[2Jgone\nACTION: hit"}]}  # fmt: skip
    shown = note_text(note)
    assert "\x1b" not in shown and "\\x1b[2Jgone" in shown and "-- played: hit" in shown
    assert "\x1b" not in note_text({"other": "\x1b[2J"})
