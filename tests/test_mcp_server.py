"""cardarena-mcp (agents/tools/mcp_server.py): the games as MCP tools, played through the MCP
SDK's own client, in process (``mcp.Client`` on the server object, over the SDK's in-memory
JSON-RPC transport) and once over stdio with the console command as a subprocess.

The SDK is the optional extra ``cardarena[mcp]`` (in ``dev``): without it the tests that need
it skip; the message of a missing extra and the table's own checks are tested either way.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardarena.agents.tools import mcp_server
from cardarena.agents.tools.mcp_server import GameTable
from cardarena.envs.core.errors import ConfigError
from cardarena.envs.core.registry import get_spec, names

TOOLS = {"list_games", "new_game", "observe", "legal_actions", "play", "result", "end_game"}
#: the most decisions of the outside seat in one game here (a random flip6 game takes ~30)
MOST_DECISIONS = 3000
#: the games :func:`canary` was built for (read it through :func:`built`)
BUILT: list[str] = []
CANARY = "tests.test_mcp_server:canary"


def canary(game: str, seed: int | None = None) -> Any:
    """An agent factory (``tests.test_mcp_server:canary``) that says when it was called."""
    from cardarena.agents.base import RandomAgent

    BUILT.append(game)
    return RandomAgent(seed)


def built() -> list[str]:
    """:data:`BUILT` of the module the spec loads (pytest may have imported this file under
    another name, which is another module with its own list)."""
    return importlib.import_module(CANARY.partition(":")[0]).BUILT


@pytest.fixture
def sdk() -> Any:
    return pytest.importorskip("mcp", reason="the MCP SDK is the optional extra cardarena[mcp]")


def run_client(table: GameTable, script: Any) -> Any:
    """Run ``await script(call)`` against the table's server through the SDK's client;
    ``call(tool, **arguments)`` returns the SDK's ``CallToolResult``."""
    import anyio
    from mcp import Client

    server = mcp_server.build_server(table)

    async def main() -> Any:
        # legacy: the initialize handshake and JSON-RPC messages, as stdio clients speak today
        async with Client(server, mode="legacy", raise_exceptions=True) as client:

            async def call(tool: str, **arguments: Any) -> Any:
                return await client.call_tool(tool, arguments)

            call.client = client  # type: ignore[attr-defined]
            return await script(call)

    return anyio.run(main)


def ok(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data == json.loads(result.content[0].text)  # the text a model reads is the same
    return data


def refused(result: Any) -> str:
    assert result.is_error, f"accepted: {result.structured_content}"
    return result.content[0].text


def default_players(game: str) -> int:
    return get_spec(game).make_engine().num_players


# ---- the tools, in process -------------------------------------------------------------------


def test_the_tools_are_listed_and_list_games_describes_every_game(sdk):
    async def script(call):
        listed = await call.client.list_tools()
        return {t.name: t for t in listed.tools}, ok(await call("list_games"))

    tools, listing = run_client(GameTable(allowed_agents=[CANARY]), script)
    assert set(tools) == TOOLS
    assert set(tools["play"].input_schema["required"]) == {"game_id", "action"}
    assert all(tools[t].description for t in TOOLS)
    games = {g["name"]: g for g in listing["games"]}
    assert sorted(games) == names()
    for name, g in games.items():
        cls = get_spec(name).engine_cls
        assert g["players"] == {
            "min": cls.min_players,
            "max": cls.max_players,
            "default": default_players(name),
        }
        assert g["options"]["num_players"] == default_players(name)
        assert g["description"] == get_spec(name).summary and g["description"]
        assert "random" in g["opponents"] and CANARY in g["opponents"]
    assert games["flip6"]["options"]["target_score"] == 60


@pytest.mark.parametrize("game", names())
def test_a_whole_game_of_every_game_through_play_and_observe(sdk, game):
    n = default_players(game)

    async def script(call):
        first = ok(
            await call("new_game", game=game, seat=1, opponents=["random"] * (n - 1), seed=4)
        )
        gid, obs, decisions = first["game_id"], first, 0
        assert first["lineup"][1] == "you" and first["seat"] == 1
        while not obs["over"]:
            assert obs["your_turn"] and obs["to_move"] == 1 and obs["decision"] and obs["render"]
            menu = ok(await call("legal_actions", game_id=gid))["legal_actions"]
            assert menu == obs["legal_actions"] and menu
            pick = menu[(decisions * 7) % len(menu)]
            obs = ok(
                await call(
                    "play", game_id=gid, action=pick["text"] if decisions % 2 else pick["id"]
                )
            )
            assert all(isinstance(e, str) for e in obs["events"])
            decisions += 1
            assert decisions < MOST_DECISIONS, f"{game}: no end after {decisions} decisions"
        assert not obs["your_turn"] and obs["to_move"] is None and obs["legal_actions"] == []
        again = ok(await call("observe", game_id=gid))
        assert again["events"] == []  # told once: the narration since the last observation
        return (
            decisions,
            obs,
            ok(await call("result", game_id=gid)),
            await call("play", game_id=gid, action=0),
        )

    decisions, last, result, late = run_client(GameTable(), script)
    assert decisions > 0
    assert result["verdict"] and set(result["winners"]) <= set(range(n))
    assert len(result["scores"]) == n and last["result"] == {k: result[k] for k in last["result"]}
    assert "game is over" in refused(late)


def test_an_illegal_action_is_refused_with_the_legal_list_and_changes_nothing(sdk):
    table = GameTable()

    async def script(call):
        obs = ok(await call("new_game", game="flip6", seat=0, opponents=["ev", "random"], seed=5))
        session = table.games[obs["game_id"]].session
        before = session.engine.to_dict(session.state)
        texts = [
            refused(await call("play", game_id=obs["game_id"], action=a))
            for a in (999, -1, "fly away", "x" * 300)
        ]
        after = session.engine.to_dict(session.state)
        return obs, texts, before, after, ok(await call("observe", game_id=obs["game_id"]))

    obs, texts, before, after, again = run_client(table, script)
    legal = ", ".join(f"{a['id']} ({a['text']})" for a in obs["legal_actions"])
    for text in texts:
        assert "is not a legal action here" in text and legal in text, text
    assert after == before
    assert again["render"] == obs["render"] and again["legal_actions"] == obs["legal_actions"]


def test_an_action_id_written_as_text_is_the_id(sdk):
    async def script(call):
        obs = ok(await call("new_game", game="flip6", opponents=["random"] * 2, seed=2))
        stay = next(a for a in obs["legal_actions"] if a["text"] == "stay")
        return stay, ok(await call("play", game_id=obs["game_id"], action=str(stay["id"])))

    stay, obs = run_client(GameTable(), script)
    assert obs["events"][0].startswith("you: stay"), obs["events"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"game": "poker"}, "unknown game 'poker'; registered games"),
        ({"game": "flip6", "seat": 7}, "seat must be in [0, 3] at this table of 4"),
        ({"game": "flip6", "options": {"num_players": 10**9}}, "3 to 6 players; num_players=1000"),
        ({"game": "flip6", "seat": "x"}, "seat"),  # the SDK's argument check
        ({"game": "flip6", "opponents": ["ev"]}, "one agent per other seat"),
        ({"game": "flip6", "opponents": ["os:system"] * 3}, "--allow-agent 'os:system'"),
        ({"game": "flip6", "opponents": [CANARY] * 3}, "not one an MCP client may seat"),
        (
            {"game": "flip6", "opponents": ["agents/zoo/flip6.zip"] * 3},
            "not one an MCP client may seat",
        ),
        ({"game": "flip6", "opponents": ["sb3:model.zip"] * 3}, "not one an MCP client may seat"),
        ({"game": "flip6", "opponents": ["zoo:../../x"] * 3}, "no pretrained agent"),
        ({"game": "flip6", "opponents": ["pimc:worlds=5000"] * 3}, "worlds=5000 is more than 64"),
        ({"game": "flip6", "opponents": ["banana"] * 3}, "not one an MCP client may seat"),
        ({"game": "flip6", "options": {"target_scor": 40}}, "no option 'target_scor'"),
        ({"game": "flip6", "options": {"target_score": "many"}}, "target_score"),
        ({"game": "flip6", "options": {"target_score": [1]}}, "target_score"),
        ({"game": "flip6", "seed": -3}, "seed"),
        ({"game": "flip6", "record": True}, "records no replays: the user starts it with --record"),
    ],
    ids=lambda v: json.dumps(v)[:40] if isinstance(v, dict) else None,
)
def test_bad_arguments_are_refused_naming_the_value(sdk, arguments, message):
    built().clear()

    async def script(call):
        return refused(await call("new_game", **arguments)), ok(await call("list_games"))

    text, _ = run_client(GameTable(), script)
    assert message in text, text
    assert built() == []  # a refused spec was never built


def test_an_allowed_spec_is_seated_and_only_that_one(sdk):
    """--allow-agent names one spec exactly; every opponent is checked before any is built."""
    built().clear()
    other = "tests.test_mcp_server:built"

    async def script(call):
        obs = ok(await call("new_game", game="flip6", opponents=[CANARY, "random"], seed=1))
        refusal = refused(await call("new_game", game="flip6", opponents=[CANARY, other]))
        return obs, refusal

    obs, refusal = run_client(GameTable(allowed_agents=[CANARY]), script)
    assert obs["lineup"] == ["you", CANARY, "random"]
    assert f"opponent {other!r} is not one an MCP client may seat" in refusal
    assert built() == ["flip6"]  # built for the first game only, not before the refusal


def test_unknown_game_ids_and_early_results_are_refused(sdk):
    async def script(call):
        gid = ok(await call("new_game", game="thegame", seed=1))["game_id"]
        return [
            refused(await call("observe", game_id="flip6-99")),
            refused(await call("result", game_id=gid)),
            refused(await call("play", game_id="", action=0)),
        ]

    unknown, early, empty = run_client(GameTable(), script)
    assert "no open game 'flip6-99'" in unknown and "thegame-1" in unknown
    assert "not over yet" in early
    assert "game_id must be a non-empty text" in empty


# ---- what the seat sees --------------------------------------------------------------------------


def seen(obs: dict[str, Any]) -> str:
    return json.dumps(
        {k: obs[k] for k in ("render", "view", "legal_actions", "decision")}, sort_keys=True
    )


def leaks_in_play(table: GameTable, game: str, decisions: int = 12) -> list[str]:
    """Play ``game`` through the tools; at each decision redraw what the seat cannot see
    (``resample_hidden``, as tests/test_harness.py's leak check does) and observe again:
    anything the observation shows that changed is a leak."""
    rng = np.random.default_rng(11)
    n = default_players(game)

    async def script(call):
        obs = ok(await call("new_game", game=game, seat=0, opponents=["random"] * (n - 1), seed=8))
        gid, found, moved = obs["game_id"], [], 0
        session = table.games[gid].session
        for step in range(decisions):
            if obs["over"]:
                break
            true = session.state
            session.state = session.engine.resample_hidden(true, 0, rng)
            moved += session.engine.card_zones(true) != session.engine.card_zones(session.state)
            other = ok(await call("observe", game_id=gid))
            session.state = true
            if seen(other) != seen(obs):
                found.append(f"{game} step {step}: the observation changed with the hidden cards")
            obs = ok(await call("play", game_id=gid, action=obs["legal_actions"][0]["id"]))
        assert moved, f"{game}: resample_hidden moved no card, the check checked nothing"
        return found

    return run_client(table, script)


@pytest.mark.parametrize("game", [g for g in names() if get_spec(g).hides_information])
def test_the_observation_never_holds_another_seats_hidden_cards(sdk, game):
    leaks = leaks_in_play(GameTable(), game)
    assert not leaks, leaks


def test_the_leak_check_catches_a_leaky_observation(sdk):
    class Leaky(GameTable):
        def _observation(self, entry):
            out = super()._observation(entry)
            out["view"]["peek"] = json.dumps(entry.session.engine.card_zones(entry.session.state))
            return out

    assert leaks_in_play(Leaky(), "ratatat")


# ---- room and replays -------------------------------------------------------------------------------


def test_games_are_bounded_and_the_oldest_finished_is_dropped(sdk):
    async def script(call):
        a = ok(await call("new_game", game="thegame", opponents=["random"], seed=1))["game_id"]
        b = ok(await call("new_game", game="thegame", opponents=["random"], seed=2))["game_id"]
        full = refused(await call("new_game", game="thegame"))
        obs = ok(await call("observe", game_id=b))
        while not obs["over"]:
            obs = ok(await call("play", game_id=b, action=obs["legal_actions"][0]["id"]))
        c = ok(await call("new_game", game="thegame", seed=3))["game_id"]
        gone = refused(await call("observe", game_id=b))
        ended = ok(await call("end_game", game_id=a))
        return a, c, full, gone, ended

    table = GameTable(max_games=2)
    a, c, full, gone, ended = run_client(table, script)
    assert "2 games are open and none is over" in full and "end_game" in full
    assert "no open game 'thegame-2'" in gone
    assert ended["open_games"] == [c] and list(table.games) == [c]


def test_games_played_at_once_through_one_client_each_end(sdk):
    """Calls that overlap (the SDK runs each tool call in a worker thread) keep each game its
    own: four games of thegame played at once all reach their end."""
    import anyio

    async def script(call):
        results = {}

        async def one(seed):
            obs = ok(await call("new_game", game="thegame", opponents=["greedy"], seed=seed))
            while not obs["over"]:
                pick = obs["legal_actions"][seed % len(obs["legal_actions"])]["id"]
                obs = ok(await call("play", game_id=obs["game_id"], action=pick))
            results[obs["game_id"]] = ok(await call("result", game_id=obs["game_id"]))

        async with anyio.create_task_group() as group:
            for seed in range(4):
                group.start_soon(one, seed)
        return results

    results = run_client(GameTable(max_games=4), script)
    assert sorted(results) == [f"thegame-{i}" for i in range(1, 5)]
    assert all(r["verdict"] in ("the team won", "the team lost") for r in results.values())


def test_replays_are_written_only_under_the_record_directory(sdk, tmp_path):
    async def script(call):
        obs = ok(
            await call("new_game", game="flip6", opponents=["random"] * 2, seed=6, record=True)
        )
        during = []
        while not obs["over"]:
            during.append(obs)
            obs = ok(
                await call("play", game_id=obs["game_id"], action=obs["legal_actions"][-1]["id"])
            )
        return obs, during

    obs, during = run_client(GameTable(record_dir=tmp_path), script)
    path = Path(obs["replay"])
    assert path.parent == tmp_path and path.exists() and path.stat().st_size > 0
    assert during and not any("replay" in o for o in during)  # it holds every card


def test_a_seed_the_server_drew_is_shown_only_once_the_game_is_over(sdk):
    """The seed is the deal: a client that knew it could redraw every hidden card."""

    async def script(call):
        drawn = ok(await call("new_game", game="thegame", opponents=["random"]))
        chosen = ok(await call("new_game", game="thegame", opponents=["random"], seed=12))
        obs, shown = drawn, []
        while not obs["over"]:
            shown.append("seed" in obs)
            obs = ok(
                await call("play", game_id=obs["game_id"], action=obs["legal_actions"][0]["id"])
            )
        return shown, obs, chosen

    shown, last, chosen = run_client(GameTable(), script)
    assert shown and not any(shown)
    assert isinstance(last["seed"], int) and chosen["seed"] == 12


# ---- without the SDK, and the command ----------------------------------------------------------------


def test_the_table_refuses_bad_settings():
    with pytest.raises(ConfigError, match="--max-games must be an integer >= 1, got 0"):
        GameTable(max_games=0)
    with pytest.raises(ConfigError, match="is a file, not a directory"):
        GameTable(record_dir=Path(__file__))


def test_a_missing_extra_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp then raises ImportError
    assert mcp_server.main([]) == 2
    assert "pip install 'cardarena[mcp]'" in capsys.readouterr().err


def test_the_command_over_stdio_plays_a_few_moves(sdk, tmp_path):
    import anyio
    from mcp import Client, StdioServerParameters

    script = Path(sys.executable).parent / "cardarena-mcp"
    command, args = (
        (str(script), []) if script.exists() else (sys.executable, ["-m", mcp_server.__name__])
    )
    root = Path(__file__).resolve().parents[1]
    params = StdioServerParameters(
        command=command,
        args=[*args, "--record", str(tmp_path), "--max-games", "3"],
        env={**os.environ, "PYTHONPATH": str(root)},
        cwd=str(tmp_path),
    )

    async def main():
        async with Client(params, read_timeout_seconds=120) as client:
            names_ = {t.name for t in (await client.list_tools()).tools}
            obs = ok(
                await client.call_tool(
                    "new_game", {"game": "sevn", "opponents": ["ev"], "seed": 9, "record": True}
                )
            )
            moves = 0
            while not obs["over"] and moves < 3:
                obs = ok(
                    await client.call_tool(
                        "play",
                        {"game_id": obs["game_id"], "action": obs["legal_actions"][0]["text"]},
                    )
                )
                moves += 1
            bad = refused(
                await client.call_tool("play", {"game_id": obs["game_id"], "action": "¿?"})
            )
            return names_, obs, moves, bad

    tools, obs, moves, bad = anyio.run(main)
    assert tools == TOOLS and moves == 3 and obs["lineup"] == ["you", "ev"]
    assert "not a legal action here" in bad
    assert "replay" not in obs and list(tmp_path.iterdir()), "no replay begun in --record DIR"
