"""Seers (``agents/seer.py``): the rollout search on the true state, a reference and no legal
player. They see what no seat may (the deck order, every hidden slot and hand), so: they win far
more than their rollout baseline at its own table; no tournament seats one with legal players
unless told (``allow_seers`` / ``--allow-seers``), and then it is labelled; the state reaches
them alone, as a copy, and every other agent still gets only its own observation and view."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cardarena import envs
from cardarena.agents import make_agent
from cardarena.agents.base import Agent
from cardarena.agents.evaluation.report import leaderboard_text, verdict_line, write_report
from cardarena.agents.evaluation.tournament import run_tournament
from cardarena.agents.seer import SeerAgent, is_legal_player, parse_seer
from cardarena.agents.specs import build_agent
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.loop import decide, play
from cardarena.evaluate import main as evaluate_main

#: deck seeds of these tests (none of them chose any setting of the seer)
SEEDS = 9_410_000


# ---- strength -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game,options,baseline",
    [
        ("flip6", {"num_players": 4}, "ev"),
        ("ratatat", {"num_players": 4}, "tracker"),
        ("suicidium", {"num_players": 4, "mode": "SURVIVE"}, "heuristic"),
    ],
)
def test_the_seer_wins_far_more_than_its_rollout_baseline(game, options, baseline) -> None:
    """At a table of its rollout policy (one seer, three copies, every rotation), knowing every
    hidden card is worth a lot: the seer's lower 95% bound is above par and it wins more than
    half its games (par: a quarter). A seer that searched a sampled world, or the wrong action's
    value, would sit near par."""
    result = run_tournament(
        game,
        ["seer", baseline, baseline, baseline],
        8,
        options,
        first_seed=SEEDS,
        progress=False,
        allow_seers=True,
    )
    board = {s.name: s for s in result.summaries()}
    seer = board["seer"]
    assert seer.games == 32
    assert seer.win_ci[0] > 0.25, (seer.win_rate, seer.win_ci)
    assert seer.win_rate > 0.5, seer.win_rate
    assert board[baseline].win_rate < 0.25


def test_flip6_the_seer_stays_when_the_next_card_busts_it() -> None:
    """F3 keeps the deck order hidden from every seat; F8 (C): a hit dealing a number already held
    busts the seat, which leaves the round with nothing. The deck is stacked for 3 seats (F5:
    seats 1, 2, 0 are dealt 3, 5, 5; then each hits: seat 1 draws a 1, seats 2 and 0 a second 5
    and bust), so seat 1 is alone in the round with 3 and 1 and the card on top is the 7th.
    ``ev`` prices the hit from the public odds and hits whatever that card is; the seer, looking
    to the end of the round (F15: it ends when nobody is left in it), stays when the card is
    another 3 and hits when it is a 6 (F8 (A)), from the very same view.

    (With ``horizon=game`` the seer values each action by who wins the whole game when every
    seat then plays ``ev``; the cards every later round deals shift with each card drawn now,
    so a sure bust can still lead to a won game, and it may take it.)"""
    spec = envs.get_spec("flip6")
    engine = spec.make_engine(num_players=3)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    stay, hit = engine.parse_action("stay"), engine.parse_action("hit")

    def alone_in_the_round(seventh: str):
        deck = ["3", "5", "5", "1", "5", "5", seventh]
        state = engine.new_game(np.random.default_rng(0), {"deck": deck})
        for seat in (1, 2, 0):
            assert engine.current_player(state) == seat
            engine.apply(state, hit, seat)
        assert engine.to_dict(state)["status"] == ["busted", "in_round", "busted"]
        return state

    bust, safe = alone_in_the_round("3"), alone_in_the_round("6")
    assert spec.view(bust, 1) == spec.view(safe, 1)  # seat 1 cannot tell them apart
    for state in (bust, safe):
        assert decide(spec, engine, state, 1, make_agent("flip6", "ev", seed=0), mask) == hit
    seer = make_agent("flip6", "seer:horizon=round", seed=0)
    assert decide(spec, engine, bust, 1, seer, mask) == stay
    legal, values = seer.last_scores
    assert values[legal.index(stay)] > values[legal.index(hit)]
    assert decide(spec, engine, safe, 1, seer, mask) == hit


# ---- never through the ordinary path ----------------------------------------------------------
def test_a_tournament_refuses_a_seer_among_legal_players_unless_told(tmp_path, capsys) -> None:
    with pytest.raises(ConfigError, match=r"'seer' is not a legal player.*--allow-seers"):
        run_tournament("flip6", ["seer", "ev", "ev", "ev"], 1, progress=False)
    out = tmp_path / "r.json"
    argv = ["--game", "flip6", "--num-players", "4", "--agents", "seer", "ev", "ev", "ev"]
    argv += ["--deals", "1", "--workers", "1", "--no-progress", "--out", str(out)]
    assert evaluate_main(argv) == 2
    assert "--allow-seers" in capsys.readouterr().err
    assert not out.exists() and not out.with_suffix(".jsonl").exists()  # refused before playing
    # with the flag: played, and labelled wherever it is shown
    assert evaluate_main([*argv, "--allow-seers"]) == 0
    printed = capsys.readouterr().out
    assert "seer (not a legal player)" in printed
    assert "verdict: seer (not a legal player) wins" in printed
    saved = json.loads(out.read_text())
    assert saved["not_legal_players"] == ["seer"]
    assert "`seer` (not a legal player)" in out.with_suffix(".md").read_text()


def test_a_table_of_seers_alone_needs_no_flag_and_legal_tables_carry_no_label() -> None:
    seers = ["seer", "seer:horizon=round", "seer"]
    result = run_tournament("flip6", seers, 1, {"num_players": 3}, progress=False)
    assert result.not_legal == ["seer", "seer:horizon=round"]
    legal = run_tournament(
        "flip6", ["ev", "threshold", "ev"], 1, {"num_players": 3}, progress=False
    )
    assert legal.not_legal == [] and "not a legal player" not in leaderboard_text(legal)
    assert "not a legal player" not in verdict_line(legal, "ev")


class _Peeker(Agent):
    """An agent that claims to read the state but says it is a legal player."""

    name = "peeker"
    sees_state = True
    uses_observation = False
    uses_view = False

    def set_state(self, spec, engine, state, seat) -> None:
        self.state = state

    def act(self, observation, action_mask, view) -> int:
        return int(np.flatnonzero(action_mask)[0])


def test_an_agent_handed_the_state_is_no_legal_player_whatever_it_says() -> None:
    assert not is_legal_player(_Peeker())
    assert not is_legal_player(make_agent("flip6", "seer"))
    assert is_legal_player(make_agent("flip6", "ev")) and is_legal_player(Agent())
    assert SeerAgent.legal_player is False and Agent.legal_player is True


def test_a_seer_never_plays_inside_a_search() -> None:
    with pytest.raises(ConfigError, match="rollout must be one of"):
        make_agent("flip6", "pimc:rollout=seer")
    with pytest.raises(ConfigError, match="unknown agent 'seer'"):
        build_agent("flip6", "seer")  # a search's own players: no seer there either


@pytest.mark.parametrize(
    "spec,message",
    [
        ("seer:", "nothing after"),
        ("seer:rollouts=0", "rollouts must be an integer from 1"),
        ("seer:rollouts=2000", "rollouts must be an integer from 1"),
        ("seer:worlds=3", "unknown option 'worlds'"),
        ("seer:horizon=forever", "horizon must be one of"),
        ("seer:rollout=planner", "rollout must be one of"),
        ("seer:rollouts=1,rollouts=2", "given twice"),
        ("seer:rollouts", "is not key=value"),
    ],
)
def test_seer_spec_errors_name_the_value_and_the_fix(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_agent("flip6", spec)


def test_seer_defaults_roll_out_the_games_best_baseline() -> None:
    assert parse_seer("seer") == {"rollouts": 1, "rollout": None, "horizon": "game"}
    for game, best in (("flip6", "ev"), ("sevn", "ev"), ("ratatat", "tracker")):
        assert make_agent(game, "seer").rollout_policy == best
    assert make_agent("suicidium", "seer:rollouts=3").rollouts == 3


# ---- what reaches whom ------------------------------------------------------------------------
class _Spy(Agent):
    """A legal agent that records what it is handed (and would record a state, were one sent)."""

    name = "spy"

    def __init__(self, inner: Agent) -> None:
        super().__init__(0)
        self.inner = inner
        self.seen: list[tuple[np.ndarray, dict]] = []
        self.states: list[object] = []

    def set_state(self, spec, engine, state, seat) -> None:  # must never be called
        self.states.append(state)

    def act(self, observation, action_mask, view) -> int:
        self.seen.append((np.array(observation), view))
        return self.inner.act(observation, action_mask, view)


@pytest.mark.parametrize(
    "game,options,baseline",
    [
        ("flip6", {"num_players": 3}, "ev"),
        ("sevn", {"num_players": 3}, "ev"),
        ("ratatat", {"num_players": 3}, "tracker"),
        ("suicidium", {"num_players": 3}, "heuristic"),
    ],
)
def test_other_seats_get_only_their_view_and_the_seer_a_copy_of_the_truth(
    game, options, baseline
) -> None:
    spec = envs.get_spec(game)
    engine = spec.make_engine(**options)
    state = engine.new_game(np.random.default_rng(SEEDS))
    seer = make_agent(game, "seer", seed=1)
    spy = _Spy(make_agent(game, baseline, seed=2))
    agents = [seer, spy, make_agent(game, baseline, seed=3)]
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    handed: list[object] = []
    original = seer.set_state

    def record(spec_, engine_, copy, seat) -> None:
        handed.append(copy)
        assert copy is not state
        assert engine.to_dict(copy) == engine.to_dict(state)  # the truth, hidden cards and all
        original(spec_, engine_, copy, seat)

    seer.set_state = record  # type: ignore[method-assign]
    expected: list[tuple[np.ndarray, dict]] = []
    seer_turns = 0
    while not engine.is_over(state) and len(expected) < 60:
        seat = engine.current_player(state)
        if seat == 1:
            expected.append((spec.encode(state, 1), spec.view(state, 1)))
        before = engine.to_dict(state)
        made = len(spy.seen)
        action = decide(spec, engine, state, seat, agents[seat], mask)
        if seat == 1 and len(spy.seen) == made:  # a forced move the spy was not asked
            expected.pop()
        seer_turns += seat == 0 and len(engine.legal_actions(state)) > 1
        assert engine.to_dict(state) == before  # deciding changed nothing of the real game
        engine.apply(state, action, seat)
    assert spy.states == [] and spy.seen, "the spy was handed a state, or never asked"
    assert len(spy.seen) == len(expected)
    for (obs, view), (want_obs, want_view) in zip(spy.seen, expected, strict=True):
        assert np.array_equal(obs, want_obs) and view == want_view
    assert seer_turns and len(handed) >= seer_turns  # every decision of the seer got the truth


def test_the_seer_says_what_it_needs_outside_the_loop() -> None:
    seer = make_agent("flip6", "seer")
    with pytest.raises(Exception, match="no worlds to search"):
        seer.act(None, np.array([1, 1, 0, 0, 0, 0, 0, 0], dtype=np.int8), None)
    with pytest.raises(ConfigError, match="true state"):
        seer.set_worlds(object())


def test_a_seer_plays_whole_games_legally_and_reproducibly() -> None:
    spec = envs.get_spec("sevn")
    engine = spec.make_engine(num_players=3)
    runs = []
    for _ in range(2):
        state = engine.new_game(np.random.default_rng(SEEDS + 1))
        agents = [make_agent("sevn", s, seed=i) for i, s in enumerate(["seer", "ev", "random"])]
        actions: list[int] = []
        play(spec, engine, state, agents, on_action=lambda seat, a, out=actions: out.append(a))
        assert engine.is_over(state) and engine.conservation_error(state) is None
        runs.append((actions, engine.returns(state)))
    assert runs[0] == runs[1]


def test_write_report_labels_the_seer(tmp_path) -> None:
    result = run_tournament(
        "flip6", ["seer", "ev", "ev", "ev"], 1, {"num_players": 4}, progress=False, allow_seers=True
    )
    (md, *_) = write_report(result, str(tmp_path / "r.md"))
    assert "`seer` (not a legal player)" in open(md).read()
