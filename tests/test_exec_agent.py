"""Outside agents (``exec:COMMAND``, docs/protocol.md): the messages a program gets, the
reference clients ranked like any agent (leaderboard, replays, resume, worker processes), and
the faults of bots that crash, hang, spam, answer slowly, illegally or with garbage
(tests/bots/), each a verdict naming agent, game, seat and deck seed, forfeited or stopping the
run with the games played kept. Tight time limits keep every test to about a second."""

from __future__ import annotations

import gc
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardarena.evaluate as evaluate
from cardarena.agents import make_agent
from cardarena.agents.evaluation.backends import TournamentError
from cardarena.agents.evaluation.tournament import play_game, run_tournament
from cardarena.agents.outside.process import MAX_LINE, PROTOCOL_VERSION, Bot
from cardarena.envs.core import seeding
from cardarena.envs.core.errors import AgentFault, ConfigError
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.replay import verify

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
PY = shlex.quote(sys.executable)
RANDOM_BOT = f"exec:{PY} {shlex.quote(str(ROOT / 'examples/clients/random_bot.py'))}"
SH_BOT = f"exec:sh {shlex.quote(str(ROOT / 'examples/clients/first_legal.sh'))}"
OPTIONS = {"num_players": 3}


def bot(name: str, *args: str, obs: bool = False) -> str:
    kind = "exec+obs" if obs else "exec"
    return f"{kind}:{PY} {shlex.quote(str(BOTS / f'{name}.py'))} {' '.join(args)}".rstrip()


def tournament(agents, deals=1, **kw):
    kw.setdefault("decision_time", 2.0)
    return run_tournament("flip6", agents, deals, dict(OPTIONS), progress=False, bootstrap=50, **kw)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie nobody has reaped yet counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone_within(pid: int, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def bots_running(marker: str) -> list[int]:
    """Pids of this process's children whose command line names ``marker`` (other test
    processes, e.g. pytest-xdist's other worker, run the same bot scripts at the same time)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmd = f.read().decode(errors="replace")
                with open(f"/proc/{entry}/stat", "rb") as f:
                    parent = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if marker in cmd and parent == os.getpid() and alive(int(entry)):
                found.append(int(entry))
    return found


# ---- the messages ---------------------------------------------------------------------------
def test_a_bot_gets_hello_decisions_and_the_result(tmp_path, monkeypatch):
    log = tmp_path / "log.jsonl"
    (tmp_path / "none").write_text("")
    monkeypatch.setenv("BOTS_LOG", str(log))
    monkeypatch.setenv("BOTS_BAD_SEEDS", str(tmp_path / "none"))  # it misbehaves nowhere
    agents = [make_agent("flip6", s, seed=1) for s in (bot("crash", obs=True), "ev", "random")]
    record = play_game("flip6", OPTIONS, agents, deal_seed=4, agent_seed=4)
    agents[0].close()  # bye: the bot reads to the end (and has logged the result) and exits
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    hello, *decides, result, bye = messages
    assert bye == {"type": "bye"}
    assert hello["type"] == "hello" and hello["protocol"] == PROTOCOL_VERSION
    assert (hello["game"], hello["seat"], hello["num_players"]) == ("flip6", 0, 3)
    assert hello["seed"] == seeding.agent_seed(4, 0)  # reproducible, not the deck seed
    assert hello["options"]["num_players"] == 3 and hello["observation"] is True
    spec = get_spec("flip6")
    assert decides and all(d["type"] == "decide" for d in decides)
    for d in decides:
        assert len(d["legal"]) >= 2  # a forced move is played without asking
        assert all(isinstance(a["id"], int) and a["text"] for a in d["legal"])
        assert d["text"].strip() and isinstance(d["view"], dict)
        assert len(d["observation"]) == spec.obs_size
        assert 0 < d["time_left"] <= hello["decision_time"] <= d["game_time_left"]
    assert result["type"] == "result" and result["seat"] == 0
    assert result["winners"] == record.winners and result["scores"] == record.scores
    assert result["return"] == record.returns[0] and result["forfeit"] is None


def test_the_text_and_view_are_the_seats_own(tmp_path, monkeypatch):
    """What the bot reads is the seat's render and view: the same as the game gives that seat."""
    log = tmp_path / "log.jsonl"
    monkeypatch.setenv("BOTS_LOG", str(log))
    (tmp_path / "none").write_text("")
    monkeypatch.setenv("BOTS_BAD_SEEDS", str(tmp_path / "none"))
    import numpy as np

    from cardarena.envs.core.loop import decide

    spec = get_spec("flip6")
    engine = spec.make_engine(**OPTIONS)
    state = engine.new_game(np.random.default_rng(3))
    agent = make_agent("flip6", bot("crash"), seed=0)
    agent.reset(7)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    while len(engine.legal_actions(state)) < 2:
        engine.apply(state, int(engine.legal_actions(state)[0]), engine.current_player(state))
    seat = engine.current_player(state)
    action = decide(spec, engine, state, seat, agent, mask)
    hello, asked = (json.loads(x) for x in log.read_text().splitlines())
    assert asked["text"] == spec.render(state, seat)
    assert asked["view"] == json.loads(json.dumps(spec.view(state, seat), default=list))
    assert [a["id"] for a in asked["legal"]] == [int(a) for a in engine.legal_actions(state)]
    assert action == asked["legal"][0]["id"] and hello["seat"] == seat and hello["seed"] == 7
    assert "observation" not in asked  # exec: (not exec+obs:) sends no vector
    agent.close()


# ---- ranked like any agent ------------------------------------------------------------------
def test_reference_clients_are_ranked_replayed_and_resumed(tmp_path):
    out = tmp_path / "r.jsonl"
    agents = [RANDOM_BOT, SH_BOT, "ev"]
    first = tournament(agents, 2, results_path=out, record_dir=tmp_path / "replays")
    assert len(first.records) == 6 and first.played == 6
    board = {s.name: s for s in first.summaries()}
    assert board[RANDOM_BOT].games == board[SH_BOT].games == 6
    assert board[SH_BOT].rating is not None and board[SH_BOT].rating_ci is not None
    replays = sorted((tmp_path / "replays").glob("*.jsonl"))
    assert len(replays) == 6 and all(verify(p).ok for p in replays)
    more = tournament(agents, 3, results_path=out)  # resume: one more deal only
    assert (more.played, more.reused) == (3, 6)
    assert [r.scores for r in more.records[:6]] == [r.scores for r in first.records]
    again = tournament(agents, 3)  # the bots are seeded by the hello: the same games
    assert [r.scores for r in again.records] == [r.scores for r in more.records]


def test_worker_processes_rebuild_the_agent_from_its_spec():
    one = tournament([RANDOM_BOT, "threshold", "random"], 2)
    two = tournament([RANDOM_BOT, "threshold", "random"], 2, workers=2)
    assert [r.scores for r in two.records] == [r.scores for r in one.records]


def test_one_process_per_seat_and_none_left(tmp_path):
    """The same bot at two seats of a table: two processes; all gone when the run is done."""
    result = tournament([RANDOM_BOT, RANDOM_BOT, "ev"], 2)
    assert all(r.lineup.count(RANDOM_BOT) == 2 for r in result.records)
    gc.collect()
    assert bots_running(str(ROOT / "examples/clients/random_bot.py")) == []


# ---- faults -------------------------------------------------------------------------------
def _bad_deal(tmp_path, monkeypatch, deal: int) -> None:
    """The bots misbehave in the games of deck seed ``deal`` only."""
    seeds = tmp_path / "bad_seeds"
    seeds.write_text("".join(f"{seeding.agent_seed(deal, s)}\n" for s in range(3)))
    monkeypatch.setenv("BOTS_BAD_SEEDS", str(seeds))


FAULTS = [
    ("crash", (), "exited with code 3; its last stderr lines: crash bot: something broke"),
    ("hang", (), "gave no answer within its 0.4 s per decision; its last stderr lines: hang bot"),
    ("slow", ("1.0",), "gave no answer within its 0.4 s per decision"),
    ("spam", ("line",), f"wrote a line longer than {MAX_LINE} bytes (it began '777"),
    ("spam", ("lines",), "wrote output nobody asked for"),
    ("illegal", ("id",), "which is not legal now; the legal actions are 0 "),
    ("illegal", ("json",), "(action 99999, no action), which is not legal now"),
    ("garbage", ("text",), "answered 'I think I will take the banana', which is no action"),
    ("garbage", ("json",), 'a JSON answer is {"action": ID or TEXT}'),
    ("garbage", ("bytes",), "which is no action"),
]


@pytest.mark.parametrize(("name", "args", "what"), FAULTS, ids=[f"{n}-{a}" for n, a, _ in FAULTS])
def test_a_fault_stops_the_run_with_a_verdict(name, args, what, tmp_path, monkeypatch):
    """The bot plays deal 0 well (its process started, then reused), and fails in deal 1."""
    _bad_deal(tmp_path, monkeypatch, 1)
    spec = bot(name, *args)
    limit = 0.4 if name in ("hang", "slow") else 5.0  # only the late bots wait on the limit
    start = time.monotonic()
    with pytest.raises(TournamentError) as caught:
        tournament([spec, "ev", "random"], 2, decision_time=limit)
    message = str(caught.value)
    assert f"agent {spec!r} playing flip6 at seat 0 (deck seed 1): " in message
    assert what in message
    assert time.monotonic() - start < 8
    gc.collect()
    assert bots_running(str(BOTS / f"{name}.py")) == []


def test_a_new_process_has_time_to_start(tmp_path):
    """A slow start (here 0.6 s before it reads anything) is not a late first answer, and the
    game's budget does not count it."""
    script = tmp_path / "sleepy.py"
    script.write_text(
        "import time\ntime.sleep(0.6)\n" + (ROOT / "examples/clients/random_bot.py").read_text()
    )
    spec = f"exec:{PY} {shlex.quote(str(script))}"
    result = tournament([spec, "ev", "random"], decision_time=0.3, game_time=0.5)
    assert len(result.records) == 3


def test_a_slow_bot_runs_out_of_its_game_time():
    with pytest.raises(TournamentError, match=r"used up its 0.3 s for the game"):
        tournament([bot("slow", "0.08"), "ev", "random"], decision_time=1.0, game_time=0.3)


def test_forfeit_records_the_game_as_a_loss_of_the_faulty_seat(tmp_path, monkeypatch):
    _bad_deal(tmp_path, monkeypatch, 1)
    spec = bot("crash")
    out = tmp_path / "r.jsonl"
    result = tournament([spec, "ev", "random"], 3, results_path=out, on_agent_fault="forfeit")
    lost = [r for r in result.records if r.forfeit is not None]
    assert len(result.records) == 9 and len(lost) == 3  # every table of deal 1
    for r in lost:
        seat = r.lineup.index(spec)
        assert r.deal_seed == 1 and r.forfeit == seat
        assert f"at seat {seat} (deck seed 1): " in r.fault and "exited with code 3" in r.fault
        assert r.ranks[seat] == 2 and sorted(r.winners) == sorted({0, 1, 2} - {seat})
        assert r.returns[seat] == -1.0
    # read back (resume): the forfeits are in the results file as played
    again = tournament([spec, "ev", "random"], 3, results_path=out, on_agent_fault="forfeit")
    assert again.reused == 9 and [r.fault for r in again.records] == [
        r.fault for r in result.records
    ]
    data = result.to_json()
    assert data["forfeits"] == 3 and sum("forfeit" in g for g in data["games"]) == 3


def test_stop_keeps_the_games_played_and_the_same_run_resumes(tmp_path, monkeypatch):
    _bad_deal(tmp_path, monkeypatch, 1)
    spec = bot("hang")
    out = tmp_path / "r.jsonl"
    with pytest.raises(TournamentError) as caught:
        tournament([spec, "ev", "random"], 3, results_path=out, decision_time=0.3)
    assert "deck seed 1" in str(caught.value) and "run the same command again" in str(caught.value)
    kept = [json.loads(x) for x in out.read_text().splitlines()]
    assert {g["deal_seed"] for g in kept if g["type"] == "game"} == {0}
    (tmp_path / "bad_seeds").write_text("")  # the bot behaves now
    result = tournament([spec, "ev", "random"], 3, results_path=out, decision_time=0.3)
    assert (result.played, result.reused) == (6, 3)


def test_the_evaluate_command_forfeits_or_stops(tmp_path, monkeypatch, capsys):
    _bad_deal(tmp_path, monkeypatch, 0)
    common = ["--game", "flip6", "--num-players", "3", "--deals", "2", "--no-progress",
              "--no-report", "--workers", "1", "--bootstrap", "50", "--decision-time", "0.5",
              "--agents", bot("illegal"), "ev", "random"]  # fmt: skip
    out = tmp_path / "f.json"
    assert evaluate.main([*common, "--on-agent-fault", "forfeit", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "3 games forfeited" in said and "which is not legal now" in said
    assert json.loads(out.read_text())["forfeits"] == 3
    assert evaluate.main([*common, "--out", str(tmp_path / "s.json")]) == 2
    err = capsys.readouterr().err
    assert "deck seed 0" in err and "run the same command again to resume" in err
    for bad in (["--decision-time", "0"], ["--game-time", "-1"]):
        assert evaluate.main([*common, *bad, "--out", str(tmp_path / "x.json")]) == 2
        assert "must be a positive number of seconds" in capsys.readouterr().err


def test_bad_exec_specs_are_refused_before_any_game(tmp_path):
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\n")
    for spec, says in (
        ("exec:", "names no command"),
        ("exec:  ", "names no command"),
        ('exec:"./unclosed', "cannot split the command"),
        ("exec:no-such-program-anywhere --fast", "no program 'no-such-program-anywhere' on PATH"),
        (f"exec:{script}", "that may be run"),  # not executable
    ):
        with pytest.raises(ConfigError, match=says):
            make_agent("flip6", spec)
    with pytest.raises(ConfigError, match="positive number"):
        tournament([RANDOM_BOT, "ev", "random"], decision_time=float("nan"))
    with pytest.raises(ConfigError, match="on_agent_fault must be one of stop, forfeit"):
        tournament([RANDOM_BOT, "ev", "random"], on_agent_fault="ignore")


# ---- process hygiene ------------------------------------------------------------------------
def test_a_dropped_agent_takes_its_process_with_it():
    agents = [make_agent("flip6", s, seed=1) for s in (RANDOM_BOT, "ev", "random")]
    play_game("flip6", OPTIONS, agents, deal_seed=0, agent_seed=0)
    (idle,) = agents[0]._stable
    pid = idle.proc.pid
    assert alive(pid)
    del agents, idle
    gc.collect()
    assert gone_within(pid)


@pytest.mark.parametrize("end", ["os.kill(os.getpid(), signal.SIGKILL)", "sys.exit(0)"])
def test_a_bot_does_not_outlive_its_parent(end):
    """Killed with its parent (the kernel's parent-death signal), or ended at a normal exit."""
    code = (
        "import os, signal, sys\n"
        "from cardarena.agents.outside.process import Bot\n"
        f"b = Bot([sys.executable, {str(BOTS / 'hang.py')!r}])\n"
        "print(b.proc.pid, flush=True)\n"
        f"{end}\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    pid = int(run.stdout.split()[0])
    assert gone_within(pid), f"bot {pid} outlived its parent ({end})"


def test_an_agent_fault_pickles_whole():
    import pickle

    fault = AgentFault("timed out", "exec:x", "flip6", 2).at(deal_seed=9)
    back = pickle.loads(pickle.dumps(fault))
    assert (
        str(back) == str(fault) == "agent 'exec:x' playing flip6 at seat 2 (deck seed 9): timed out"
    )
    assert isinstance(back, RuntimeError)


def test_act_outside_the_game_loop_is_refused():
    import numpy as np

    agent = make_agent("flip6", RANDOM_BOT)
    with pytest.raises(Exception, match="plays through the game loop"):
        agent.act(None, np.ones(3, dtype=np.int8), {})
    assert isinstance(Bot, type)


@pytest.mark.parametrize("game", names())
def test_every_game_is_played_by_a_bot_and_the_hello_has_the_tables_options(
    game, tmp_path, monkeypatch
):
    """Every game's view goes out as JSON and its action texts come back; the hello has the
    options the tournament's tables are made with."""
    log = tmp_path / "log.jsonl"
    (tmp_path / "none").write_text("")
    monkeypatch.setenv("BOTS_LOG", str(log))
    monkeypatch.setenv("BOTS_BAD_SEEDS", str(tmp_path / "none"))
    options = {"mode": "depression"} if game == "suicidium" else {}
    num_players = get_spec(game).make_engine(**options).num_players
    agents = [bot("crash")] + ["random"] * (num_players - 1)
    result = run_tournament(
        game, agents, 1, options, progress=False, bootstrap=10, permutations=False
    )
    assert len(result.records) >= 1 and all(r.forfeit is None for r in result.records)
    gc.collect()  # the agents are dropped: bye, and the bot has logged everything
    deadline = time.monotonic() + 5
    while bots_running(str(BOTS / "crash.py")) and time.monotonic() < deadline:
        time.sleep(0.02)
    hellos = [json.loads(x) for x in log.read_text().splitlines() if '"hello"' in x[:20]]
    assert hellos and all(h["game"] == game for h in hellos)
    if game == "suicidium":
        assert all(h["options"]["mode"] == "depression" for h in hellos)


def test_one_game_names_its_deck_seed_in_the_verdict():
    agents = [make_agent("flip6", s, seed=1) for s in (bot("crash"), "ev", "random")]
    with pytest.raises(AgentFault, match=r"at seat 0 \(deck seed 4\): closed its output"):
        play_game("flip6", OPTIONS, agents, deal_seed=4, agent_seed=4)


def test_a_workers_agents_find_a_relative_command_from_the_drivers_folder(tmp_path, monkeypatch):
    """Ray workers run elsewhere: a relative program is looked up, and run, from base_dir."""
    from cardarena.agents.evaluation.backends import build_agents

    spec = "exec:./examples/clients/first_legal.sh"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="no program './examples/clients/first_legal.sh'"):
        build_agents("flip6", [spec])
    built = build_agents("flip6", [spec, "ev", "random"], str(ROOT))
    assert os.getcwd() == str(tmp_path) and built[spec].cwd == str(ROOT)
    agents = [built[spec], built["ev"], built["random"]]
    assert play_game("flip6", OPTIONS, agents, deal_seed=0, agent_seed=0).decisions > 0
