"""Action texts from outside (a person's line, a replay file) are read or refused cleanly: every
engine's ``parse_action``, the environments' and human play's refuse any text they do not read
with an IllegalActionError naming it and the texts they read, never another exception."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardarena.agents.tools.play import parse_entry, play_human
from cardarena.envs.core.engine import MAX_ACTION_TEXT, CardArenaError, IllegalActionError
from cardarena.envs.core.registry import get_spec, make, names

GAMES = names()

# what a probe typed: digits that are no ASCII digits, huge numbers, nothing, control characters
NASTY = [
    "²", "٣", "target ²", "target ٣", "draw ٣", "play ٣ 0", "play 2 ²", "slot ²", "peek ٣",
    "1" * 5000, "target " + "9" * 5000, "play " + "9" * 5000 + " 0", "draw " + "7" * 4301,
    "swap 1 " + "9" * 5000 + " 1", "target 99999999999999999999999", "draw -1", "target -0",
    "", " ", "\t\n", "\x00", "hit\x00", "\x1b[2J", "stay\r\nhit", "\u200bhit", "ｈｉｔ",
    "x" * 10_000, "play", "play 2", "play 2 0 0", "signal 9 help", "swap", "take", "on ",
    "𝟙", "⁴", "Ⅻ", "🂡", "\ud800", "None", "[]", "{}", "0x1", "1e9", "1_000",
]  # fmt: skip

TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="ascii"), max_size=30),
    st.from_regex(r"\A(play|target|draw|swap|peek|slot|signal|fork|on|take) ?[0-9 ]{0,12}\Z"),
    st.integers(min_value=-(10**30), max_value=10**40).map(str),
    st.text(alphabet="0123456789", min_size=4000, max_size=6000),  # past int()'s 4300 digits
    st.text(alphabet="0123456789²³٣۴०𝟙", min_size=1, max_size=8),  # digits that are no ASCII
    st.sampled_from(NASTY),
)


def _engines():
    return [get_spec(g).make_engine() for g in GAMES]


ENGINES = _engines()


def _check_refusal(err: Exception, text: str) -> None:
    assert isinstance(err, IllegalActionError), repr(err)
    message = str(err)
    assert repr(text)[:40] in message, (text, message)  # names the text (cut when long)
    assert "known:" in message or "expected" in message, message  # and what it reads


def _parse_or_refusal(engine, text):
    try:
        action = engine.parse_action(text)
    except Exception as err:  # noqa: BLE001 - the kind of error is what is checked
        _check_refusal(err, text)
        return None
    assert type(action) is int and 0 <= action < engine.num_actions
    assert engine.parse_action(engine.describe_action(action)) == action
    return action


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
def test_engines_refuse_nasty_texts_with_the_texts_they_read(game, text):
    engine = get_spec(game).make_engine()
    with pytest.raises(IllegalActionError) as info:
        engine.parse_action(text)
    _check_refusal(info.value, text)
    assert len(str(info.value)) < 2000  # a 5,000-digit number is not echoed in full


@pytest.mark.parametrize("game", GAMES)
def test_every_action_text_still_reads_and_non_strings_are_refused(game):
    engine = get_spec(game).make_engine()
    for action in range(engine.num_actions):
        text = engine.describe_action(action)
        assert len(text) <= MAX_ACTION_TEXT and text.isascii()
        assert engine.parse_action(text) == action
        assert engine.parse_action(f"  {text.upper()}\n") == engine.parse_action(text.upper())
    for bad in (None, 3, 3.5, b"hit", ["hit"]):
        with pytest.raises(IllegalActionError, match="not str"):
            engine.parse_action(bad)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT)
def test_any_text_is_read_or_refused_by_every_engine(text):
    for engine in ENGINES:
        _parse_or_refusal(engine, text)


@settings(max_examples=60, deadline=None)
@given(text=TEXT, game=st.sampled_from(GAMES))
def test_the_environment_refuses_with_the_legal_actions_now(text, game):
    env = make(game)
    env.reset(seed=1)
    raw = env.unwrapped
    try:
        action = raw.parse_action(text)
    except Exception as err:  # noqa: BLE001
        assert isinstance(err, IllegalActionError), repr(err)
        assert "legal now: [" in str(err) and repr(text)[:40] in str(err)
    else:
        assert 0 <= action < raw.game.num_actions


@settings(max_examples=200, deadline=None)
@given(text=TEXT, game=st.sampled_from(GAMES), seed=st.integers(0, 3))
def test_human_entries_are_a_legal_action_or_none(text, game, seed):
    engine = get_spec(game).make_engine()
    state = engine.new_game(np.random.default_rng(seed))
    legal = engine.legal_actions(state)
    got = parse_entry(engine, state, text)
    assert got is None or got in legal
    if text.strip().isascii() and text.strip().isdigit() and len(text.strip()) < 5:
        i = int(text.strip())
        assert got == (legal[i - 1] if 1 <= i <= len(legal) else None)


class Person(io.StringIO):
    """Types ``junk`` lines first, then the first legal action forever."""

    def __init__(self, junk):
        super().__init__()
        self.lines = list(junk)

    def readline(self, *args):
        return (self.lines.pop(0) if self.lines else "1") + "\n"


@settings(max_examples=25, deadline=None)
@given(junk=st.lists(TEXT.filter(lambda t: "\n" not in t and "\r" not in t), max_size=8))
def test_human_play_refuses_junk_with_the_legal_list_and_plays_on(junk):
    junk = [j for j in junk if j.strip().lower() not in ("quit", "exit", ":q", "?", "help")]
    out = io.StringIO()
    rc = play_human("flip6", 0, ["random"] * 2, {"num_players": 3}, 5, None, Person(junk), out)
    text = out.getvalue()
    assert rc == 0 and "game over" in text
    assert text.count("is not a legal action here. Legal actions:") >= sum(
        parse_entry_never_legal(j) for j in junk
    )


def parse_entry_never_legal(text: str) -> bool:
    """A line that is no action in any flip6 decision (so it must have been refused)."""
    engine = get_spec("flip6").make_engine(num_players=3)
    try:
        engine.parse_action(" ".join(text.split()))
    except CardArenaError:
        stripped = text.strip()
        return not (stripped.isascii() and stripped.isdigit() and 0 < len(stripped) < 7)
    return False


@pytest.mark.parametrize("line", ["²", "٣", "1" * 5000, "\x00", "", "   ", "x" * 10_000])
def test_one_bad_line_does_not_end_the_game(line):
    out = io.StringIO()
    person = Person([line])
    assert play_human("flip6", 0, ["random"] * 2, {"num_players": 3}, 5, None, person, out) == 0
    text = out.getvalue()
    assert "game over" in text and "Traceback" not in text
    if line.strip():
        assert "is not a legal action here. Legal actions:" in text
        assert "[1] " in text.split("is not a legal action here")[1]
