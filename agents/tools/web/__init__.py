"""The browser table: play any game against agents, or step through replays, in a local page.

    cardarena-serve --game flip6 --seat 0 --agents ev threshold --seed 7
    cardarena-serve --game ratatat --agents tracker --port 8765 --open
    cardarena-serve --replay FILE

The server (the standard library's ``http.server``) binds 127.0.0.1 and prints its address;
``--port 0`` (the default) takes a free port, ``--open`` opens it in the default browser. The
page shows only what your seat may see: its picture and text, what happened since your last
decision, the legal actions as buttons and the scores; the game is saved as a replay
(``replays/`` unless ``--record DIR``). With ``--replay FILE...`` the same page steps through
saved games (one seat's view or the full view). ``python evaluate.py --human SEAT --web`` starts
the same table. Ctrl-C stops the server. The manual: docs/web.md.
"""

from __future__ import annotations

import argparse
import sys
import webbrowser
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardarena.agents.tools.commands import UserHelp, prog
from cardarena.agents.tools.web.server import App, Shelf, Table, make_server
from cardarena.envs.core.errors import CardArenaError, ConfigError
from cardarena.envs.core.options import parse_options
from cardarena.envs.core.registry import names


def serve(
    game: str = "flip6",
    seat: int = 0,
    agents: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    record_dir: str | Path | None = "replays",
    replays: Sequence[str | Path] = (),
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = False,
) -> int:
    """Serve the table (or, with ``replays``, those files) until Ctrl-C; 0 then."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"--port must be in [0, 65535] (0: a free one), got {port!r}")
    shelf = Shelf(replays)  # a missing or malformed file fails here, naming it
    table = None if replays else Table(game, seat, agents, options, seed, record_dir)
    app = App(table, shelf)
    try:
        server = make_server(app, host, port)
    except OSError as err:
        raise ConfigError(
            f"cannot listen on {host}:{port}: {err.strerror or err}; "
            "give another --port (0 takes a free one)"
        ) from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{server.server_address[1]}/"
    what = f"{len(shelf.files)} replay(s)" if table is None else f"{game}, you at seat {seat}"
    print(f"cardarena table ({what}) at {url}  (Ctrl-C stops)", flush=True)
    if open_browser:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if table is not None:
            table.close()
            if table.session.replay_path is not None:
                print(f"replay saved: {table.session.replay_path}", flush=True)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog("serve"), description=__doc__, formatter_class=UserHelp)
    p.add_argument("--game", default="flip6", help=f"one of {names()}")
    p.add_argument("--seat", type=int, default=0, help="your seat (0-based)")
    p.add_argument("--agents", nargs="*", default=[], help="agents for the other seats, in order")
    p.add_argument("--num-players", type=int, default=None)
    p.add_argument(
        "--seed", type=int, default=None, help="deal seed of the first game (random if omitted)"
    )
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--record", default="replays", metavar="DIR", help="replay directory")
    p.add_argument("--no-record", action="store_true", help="do not save replays")
    p.add_argument(
        "--replay", nargs="+", default=[], metavar="FILE", help="step through these replay files"
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: this machine only)"
    )
    p.add_argument("--port", type=int, default=0, help="port (0: a free one, printed)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        options = parse_options(args.option)
        if args.num_players is not None:
            options["num_players"] = args.num_players
        return serve(
            args.game,
            args.seat,
            args.agents,
            options,
            args.seed,
            None if args.no_record else args.record,
            args.replay,
            args.host,
            args.port,
            args.open,
        )
    except CardArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
