"""cardarena-mcp: the suite's games as MCP tools, so that an MCP client plays a seat.

    cardarena-mcp                                  # stdio: what an MCP client starts
    cardarena-mcp --record replays --max-games 4   # clients may save replays, in replays/
    cardarena-mcp --allow-agent my_bots:make       # clients may also seat this spec

An MCP client (a chat application, a language-model harness, your own program) starts this
command and talks to it over stdin and stdout. Its tools: list_games (the games, their options
and the opponents a client may seat), new_game (the client at one seat, the suite's agents at
the others), observe and legal_actions (the seat's screen and moves), play (an action id or its
text; an illegal one is refused with the legal list and changes nothing), result and end_game.
The client sees only what its seat may see, never the game's state.

A client may seat random, the game's scripted baselines, zoo:NAME and small search agents;
any other spec (module:factory, a checkpoint, a bigger search) only when --allow-agent names
it exactly. Replays are written only with --record, only in its directory. The manual, with a
client's configuration: docs/mcp.md.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import itertools
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardarena.agents.files import check_writable
from cardarena.agents.specs import SEARCH_KINDS, scripted, zoo_names, zoo_path
from cardarena.agents.tools.commands import UserHelp, prog
from cardarena.agents.tools.session import SeatSession, table_size
from cardarena.envs.core.errors import CardArenaError, ConfigError, IllegalActionError
from cardarena.envs.core.registry import get_spec, names

#: how many games may be open at once unless ``--max-games`` says otherwise
MAX_GAMES = 16
#: the largest search budgets a client may ask for: a decision at these took at most 1.8 s in
#: every game (docs/mcp.md, "Security", measured 2026-12-02); a bigger one only when the server
#: allows that exact spec (``--allow-agent``)
CLIENT_SEARCH_BUDGET = {"worlds": 64, "min_worlds": 64, "rollouts": 2, "iterations": 1000}
#: a game option's value: JSON scalars (no option of the suite takes a list or an object)
OPTION_TYPES = (str, int, bool, type(None))
INSTALL_HINT = "pip install 'cardarena[mcp]'"


def check_text(what: str, value: Any, longest: int = 200) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > longest:
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise ConfigError(
            f"{what} must be a non-empty text of at most {longest} characters, got {shown}"
        )
    return value.strip()


def game_options(game: str) -> dict[str, Any]:
    """The engine options of ``game`` with their defaults (``num_players`` included)."""
    params = inspect.signature(get_spec(game).engine_cls).parameters
    return {k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty}


def safe_opponents(game: str) -> list[str]:
    """The specs any client may seat in ``game`` (the search specs take options too)."""
    zoo = [f"zoo:{n}" for n in zoo_names() if n.split("_")[0] == game]
    return ["random", *scripted(game), *zoo, "pimc[:k=v,...]", "ismcts[:k=v,...]"]


def check_search_budget(spec: str) -> None:
    from cardarena.agents.search import parse_spec

    kind, options = parse_spec(spec)
    for key, most in CLIENT_SEARCH_BUDGET.items():
        if key in options and options[key] > most:
            raise ConfigError(
                f"opponent {spec!r}: {key}={options[key]} is more than {most}, the most an MCP "
                f"client may ask for (each of its decisions would take long); ask for "
                f"{key}={most} or less, or start the server with --allow-agent '{spec}'"
            )


def check_opponent(game: str, spec: Any, allowed: Sequence[str]) -> str:
    """``spec`` if a client may seat it in ``game``, else a :class:`ConfigError` that says what
    may be seated and how the user lets a client seat more."""
    spec = check_text("an opponent (an agent spec)", spec)
    if spec in allowed:
        return spec
    if spec == "random" or spec in scripted(game):
        return spec
    if spec.startswith("zoo:"):
        zoo_path(spec)  # a plain name of a file in the zoo folder, or an error listing them
        return spec
    if spec.partition(":")[0] in SEARCH_KINDS:
        check_search_budget(spec)
        return spec
    raise ConfigError(
        f"opponent {spec!r} is not one an MCP client may seat in {game} (it could load code or "
        f"files the user did not choose); use one of {safe_opponents(game)}, or start the "
        f"server with --allow-agent '{spec}' to allow it"
    )


def check_seat(game: str, seat: Any, specs: Sequence[str], options: dict[str, Any]) -> None:
    """``seat`` is a seat of the table the opponents (or ``num_players``) make."""
    n = options.get("num_players")
    if not isinstance(n, int) or isinstance(n, bool):
        n = table_size(game, specs, None)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ConfigError(
            f"seat must be in [0, {n - 1}] at this table of {n} ({len(specs)} opponents), got "
            f"{seat!r}; pick a seat in that range, or change the opponents or num_players"
        )


class OpenGame:
    """One game of the table: its session, a lock (tools may run at once), its number, and
    whether the client chose the deal seed (a seed the server drew is the deal: the client
    learns it only when the game is over)."""

    def __init__(self, game_id: str, session: SeatSession, number: int, seed_given: bool) -> None:
        self.game_id = game_id
        self.session = session
        self.number = number
        self.seed_given = seed_given
        self.lock = threading.Lock()


class GameTable:
    """The games an MCP client has open, and what each tool does with them (plain Python: the
    MCP SDK is needed only by :func:`build_server`). Each game is a
    :class:`~cardarena.agents.tools.session.SeatSession`.

    ``allowed_agents``: specs a client may seat beyond the safe ones (``--allow-agent``);
    ``record_dir``: where replays go when a client asks for one (None: no replays);
    ``max_games``: how many games may be open at once.
    """

    def __init__(
        self,
        allowed_agents: Sequence[str] = (),
        record_dir: str | Path | None = None,
        max_games: int = MAX_GAMES,
    ) -> None:
        if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 1:
            raise ConfigError(f"--max-games must be an integer >= 1, got {max_games!r}")
        if record_dir is not None:
            check_writable("the replay directory (--record)", Path(record_dir), directory=True)
        self.allowed_agents = tuple(allowed_agents)
        self.record_dir = None if record_dir is None else Path(record_dir)
        self.max_games = max_games
        self.games: dict[str, OpenGame] = {}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    # -- the tools ---------------------------------------------------------------------------

    def list_games(self) -> dict[str, Any]:
        out = []
        for name in names():
            spec = get_spec(name)
            cls = spec.engine_cls
            out.append(
                {
                    "name": name,
                    "description": spec.summary,
                    "players": {
                        "min": cls.min_players,
                        "max": cls.max_players,
                        "default": spec.make_engine().num_players,
                    },
                    "options": game_options(name),
                    "cooperative": spec.cooperative,
                    "hides_information": spec.hides_information,
                    "opponents": safe_opponents(name) + list(self.allowed_agents),
                    "rules": f"docs/rules/{name}.md",
                }
            )
        return {"games": out}

    def new_game(
        self,
        game: Any,
        seat: Any = 0,
        opponents: Any = None,
        options: Any = None,
        seed: Any = None,
        record: Any = False,
    ) -> dict[str, Any]:
        game = check_text("game", game, 40)
        get_spec(game)  # an unknown game: the registry's error lists the games
        options = self._check_options(game, options)
        if opponents is None:
            count = options.get("num_players") or get_spec(game).make_engine().num_players
            opponents = ["random"] * (count - 1)
        if not isinstance(opponents, list) or len(opponents) > 16:
            raise ConfigError(
                f"opponents must be a list of agent specs (one per other seat), got {opponents!r}"
            )
        specs = [check_opponent(game, spec, self.allowed_agents) for spec in opponents]
        check_seat(game, seat, specs, options)
        if not isinstance(record, bool):
            raise ConfigError(f"record must be true or false, got {record!r}")
        if record and self.record_dir is None:
            raise ConfigError(
                "this server records no replays: the user starts it with --record DIR to allow "
                "them (leave record out to play without one)"
            )
        with self._lock:
            self._make_room()
            number = next(self._numbers)
        session = SeatSession(
            game,
            seat,
            specs,
            options,
            seed,
            self.record_dir if record else None,
            source="mcp",
        )
        game_id = f"{game}-{number}"
        with self._lock:
            try:
                self._make_room()  # another call may have opened one meanwhile
            except ConfigError:
                session.close()  # its replay, if any, ends here
                raise
            self.games[game_id] = OpenGame(game_id, session, number, seed is not None)
        return self._observation(self.games[game_id])

    def observe(self, game_id: Any) -> dict[str, Any]:
        entry = self._get(game_id)
        with entry.lock:
            return self._observation(entry)

    def legal_actions(self, game_id: Any) -> dict[str, Any]:
        entry = self._get(game_id)
        with entry.lock:
            session = entry.session
            return {
                "game_id": entry.game_id,
                "your_turn": session.to_move,
                "decision": session.decision_name(),
                "legal_actions": [{"id": a, "text": t} for a, t in session.legal()],
            }

    def play(self, game_id: Any, action: Any) -> dict[str, Any]:
        entry = self._get(game_id)
        with entry.lock:
            session = entry.session
            session.play(self._action(session, action))
            return self._observation(entry)

    def result(self, game_id: Any) -> dict[str, Any]:
        entry = self._get(game_id)
        with entry.lock:
            session = entry.session
            if not session.over:
                raise ConfigError(
                    f"game {entry.game_id} is not over yet: play on (legal_actions lists the moves)"
                )
            return {"game_id": entry.game_id, "lineup": self._lineup(session), **session.result()}

    def end_game(self, game_id: Any) -> dict[str, Any]:
        entry = self._get(game_id)
        with entry.lock, self._lock:
            entry.session.close()
            self.games.pop(entry.game_id, None)
        return {"game_id": entry.game_id, "ended": True, "open_games": sorted(self.games)}

    # -- helpers -----------------------------------------------------------------------------

    def _check_options(self, game: str, options: Any) -> dict[str, Any]:
        if options is None:
            return {}
        known = game_options(game)
        if not isinstance(options, dict):
            raise ConfigError(f"options must be an object of option: value, got {options!r}")
        for key, value in options.items():
            if key not in known and key != "core":
                raise ConfigError(
                    f"{game} has no option {key!r}; its options (and defaults): {known}"
                )
            if not isinstance(value, OPTION_TYPES):
                raise ConfigError(
                    f"option {key} must be a number, a text, true/false or null, got {value!r}"
                )
        if "num_players" in options:
            cls, n = get_spec(game).engine_cls, options["num_players"]
            if isinstance(n, bool) or not isinstance(n, int):
                n = None
            if n is None or not cls.min_players <= n <= cls.max_players:
                raise ConfigError(
                    f"{game} is played by {cls.min_players} to {cls.max_players} players; "
                    f"num_players={options['num_players']!r} is not in that range"
                )
        return dict(options)

    def _make_room(self) -> None:
        """Drop the oldest finished games until one more fits, or say why none can open."""
        while len(self.games) >= self.max_games:
            finished = [g for g in self.games.values() if g.session.over]
            if not finished:
                raise ConfigError(
                    f"{len(self.games)} games are open and none is over (the most this server "
                    f"keeps: --max-games {self.max_games}); finish one or drop one with "
                    f"end_game (open: {sorted(self.games)})"
                )
            oldest = min(finished, key=lambda g: g.number)
            oldest.session.close()
            del self.games[oldest.game_id]

    def _get(self, game_id: Any) -> OpenGame:
        game_id = check_text("game_id", game_id, 60)
        with self._lock:
            entry = self.games.get(game_id)
        if entry is None:
            raise ConfigError(
                f"no open game {game_id!r} (finished games are dropped, oldest first, when a "
                f"new game needs the room); open games: {sorted(self.games)}; new_game opens one"
            )
        return entry

    @staticmethod
    def _action(session: SeatSession, action: Any) -> Any:
        """The entry as the session reads it; a text of digits that is no action's text is
        the action's id (``"3"`` for 3), as a client that writes numbers as text means."""
        if isinstance(action, str) and action.strip().isascii() and action.strip().isdigit():
            try:
                return session.action_of(action)
            except IllegalActionError:
                if len(action.strip()) <= 6:
                    return int(action.strip())
        return action

    @staticmethod
    def _lineup(session: SeatSession) -> list[str]:
        return ["you" if s == session.seat else name for s, name in enumerate(session.lineup)]

    def _observation(self, entry: OpenGame) -> dict[str, Any]:
        """What the seat sees now: only its render, view, narration and legal actions."""
        session = entry.session
        out: dict[str, Any] = {
            "game_id": entry.game_id,
            "game": session.game,
            "options": dict(session.options),
            "seat": session.seat,
            "lineup": self._lineup(session),
            "over": session.over,
            # whose decision it is: after the agents played on, yours (or nobody's: over)
            "to_move": None if session.over else int(session.engine.current_player(session.state)),
            "your_turn": session.to_move,
            "decision": session.decision_name(),
            "events": session.take_events(),
            "render": session.render(),
            "view": session.view(),
            "legal_actions": [{"id": a, "text": t} for a, t in session.legal()],
        }
        if entry.seed_given or session.over:
            out["seed"] = session.seed
        if session.over:
            out["result"] = session.result()
            if session.replay_path is not None:  # it holds every card: shown once it is over
                out["replay"] = str(session.replay_path)
        return out


# -- the MCP server ------------------------------------------------------------------------------


def build_server(table: GameTable) -> Any:
    """The ``MCPServer`` (the MCP SDK's, ``mcp.server.mcpserver``) with the table's tools. A
    refusal of the suite (``CardArenaError``: an illegal action, a bad argument) reaches the
    client as a tool error carrying its message."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer(
        name="cardarena",
        log_level="WARNING",  # refusals are the client's to read, not the log's
        instructions=(
            "Card games of the cardarena suite. list_games shows the games, their options and "
            "the opponents you may seat; new_game opens one with you at one seat; observe shows "
            "your seat's screen; play takes an action id or its text; result tells the outcome."
        ),
    )

    def refusing(fn: Any) -> Any:
        @functools.wraps(fn)  # the SDK reads the tool's name, doc and signature from fn
        def tool(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except CardArenaError as err:
                raise ToolError(str(err)) from None

        return tool

    @refusing
    def list_games() -> dict[str, Any]:
        """The games: name, a one-line description, player counts, options with their
        defaults, and the opponents you may seat."""
        return table.list_games()

    @refusing
    def new_game(
        game: str,
        seat: int = 0,
        opponents: list[str] | None = None,
        options: dict[str, str | int | bool | None] | None = None,
        seed: int | None = None,
        record: bool = False,
    ) -> dict[str, Any]:
        """Open a game with you at `seat` (0-based) and `opponents` (agent specs, one per other
        seat; default: `random` at each seat of the game's default table) at the others.
        `options` are the game's (list_games); `seed` fixes the deal; `record` saves a replay
        where the server keeps them. Returns the game id and your first observation."""
        return table.new_game(game, seat, opponents, options, seed, record)

    @refusing
    def observe(game_id: str) -> dict[str, Any]:
        """Your seat's screen: what happened since you last looked (events), the game as your
        seat sees it (render text and view data), whether it is your decision and its legal
        actions, and the result once the game is over."""
        return table.observe(game_id)

    @refusing
    def legal_actions(game_id: str) -> dict[str, Any]:
        """Your legal actions now (id and text); empty when it is not your decision."""
        return table.legal_actions(game_id)

    @refusing
    def play(game_id: str, action: int | str) -> dict[str, Any]:
        """Play an action: its id or its text (as legal_actions lists them). An illegal action
        is refused with the legal list and changes nothing. The other seats then play up to
        your next decision; returns your new observation."""
        return table.play(game_id, action)

    @refusing
    def result(game_id: str) -> dict[str, Any]:
        """The outcome of a finished game: scores, winners, returns and a verdict in words."""
        return table.result(game_id)

    @refusing
    def end_game(game_id: str) -> dict[str, Any]:
        """Drop a game (finished or not) to make room for another."""
        return table.end_game(game_id)

    for fn in (list_games, new_game, observe, legal_actions, play, result, end_game):
        server.add_tool(fn)
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("mcp"), description=__doc__, formatter_class=UserHelp
    )
    parser.add_argument(
        "--allow-agent",
        action="append",
        default=[],
        metavar="SPEC",
        help="also let clients seat this agent spec, exactly as written (module:factory, a "
        "checkpoint, a bigger search); repeat for more",
    )
    parser.add_argument(
        "--record", default=None, metavar="DIR", help="let clients save replays, only here"
    )
    parser.add_argument(
        "--max-games", type=int, default=MAX_GAMES, help="games open at once (default 16)"
    )
    args = parser.parse_args(argv)
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        print(
            f"error: cardarena-mcp needs the MCP SDK, an optional extra: {INSTALL_HINT}",
            file=sys.stderr,
        )
        return 2
    try:
        table = GameTable(args.allow_agent, args.record, args.max_games)
    except CardArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    build_server(table).run("stdio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
