"""The browser table's server: the standard library's ``ThreadingHTTPServer``, a few JSON
endpoints and one static page (``static/``: HTML, JS, CSS; no build step, nothing fetched from
elsewhere).

Two modes, one page:

* play (:class:`Table`): one :class:`~cardarena.agents.tools.session.SeatSession` at a time, the
  person at ``seat``, the agent specs of the command line at the other seats. Everything the page
  receives about the game is built by :func:`seat_payload` from the session's seat-only methods
  (``view``, ``render``, ``legal``, the narration) and the seat's picture; the deal seed and the
  replay's file name (which holds the seed) only once the game is over.
* replay (:class:`Shelf`): the replay files named on the command line (and the games this
  server recorded), step by step, from one seat's view or the full view.

What a page can send is small and checked (:func:`read_body`): an action id and the version of
the table it was drawn from, a replay's index, a step, a seat. No spec, module, path or code is
ever read from a request; bodies are bounded, unknown paths are 404, nothing lists a directory,
and a request whose ``Host`` is not this server's (DNS rebinding) is refused.
"""

from __future__ import annotations

import io
import json
import threading
import traceback
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import numpy as np

from cardarena.agents.tools.session import SeatSession, check_seed
from cardarena.envs.core.errors import CardArenaError, ConfigError, IllegalActionError
from cardarena.envs.core.pictures import OBSERVER, picture
from cardarena.envs.core.registry import get_spec

#: the largest request body read (an action is ~40 bytes)
MAX_BODY = 1024
#: the static files: URL path -> (file in static/, content type)
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
#: sent with every response: the page runs only its own script and is framed by nobody
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class RequestError(CardArenaError, ValueError):
    """A request the server refuses: ``status`` and the message the page shows."""

    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra or {}


def png(image: np.ndarray) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(image).save(out, format="PNG")
    return out.getvalue()


def jsonable(x: Any) -> Any:
    """``x`` with numpy scalars and arrays as plain Python (views are plain already)."""
    return json.loads(
        json.dumps(x, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o))
    )


# ---- play ------------------------------------------------------------------------------------


def seat_payload(session: SeatSession, log: Sequence[str], version: int) -> dict[str, Any]:
    """Everything the page shows of ``session``'s game, from the seat's own methods only."""
    over = session.over
    view = jsonable(session.view())
    payload: dict[str, Any] = {
        "mode": "play",
        "game": session.game,
        "seat": session.seat,
        "players": ["you" if s == session.seat else n for s, n in enumerate(session.lineup)],
        "version": version,
        "render": session.render(),
        "view": view,
        "narration": list(log),
        "to_move": session.to_move,
        "decision": session.decision_name(),
        "legal": [{"id": a, "text": t} for a, t in session.legal()],
        # what the players table shows per seat: the game's scores (suicidium: willpower)
        "score_name": "score" if "scores" in view else "WP" if "wp" in view else "",
        "scores": view.get("scores", view.get("wp")),
        "over": over,
        "picture": f"/api/picture.png?v={version}",
    }
    if over:
        result = session.result()
        payload["result"] = jsonable(result)
        payload["scores"], payload["score_name"] = payload["result"]["scores"], "score"
        payload["seed"] = session.seed
        path = session.replay_path
        payload["replay"] = None if path is None else str(path)
    return payload


class Table:
    """Play mode: the current game, its narration and a version that changes with every move
    (a click drawn from an older version is refused as stale)."""

    def __init__(
        self,
        game: str,
        seat: int,
        agents: Sequence[str],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        record_dir: str | Path | None = None,
    ) -> None:
        check_seed(seed)
        self.game, self.seat, self.agents = game, seat, list(agents)
        self.options = dict(options or {})
        self.first_seed, self.record_dir = seed, record_dir
        self.lock = threading.Lock()
        self.games = 0
        self.version = 0
        self.recorded: list[Path] = []
        self.new_game()  # a bad game, seat, agent or option fails here, before serving

    def new_game(self) -> None:
        seed = None if self.first_seed is None else self.first_seed + self.games
        session = SeatSession(
            self.game, self.seat, self.agents, self.options, seed, self.record_dir, "web play"
        )
        self.session, self.log = session, session.take_events()
        self.games += 1
        self.version += 1
        self._keep_replay()

    def _keep_replay(self) -> None:
        if self.session.over and self.session.replay_path is not None:
            if self.session.replay_path not in self.recorded:
                self.recorded.append(self.session.replay_path)

    def payload(self) -> dict[str, Any]:
        self.log += self.session.take_events()
        return seat_payload(self.session, self.log, self.version)

    def play(self, action: int, version: int) -> dict[str, Any]:
        if version != self.version:
            raise RequestError(
                HTTPStatus.CONFLICT,
                "that button was drawn for an earlier position: the table is shown again",
                {"state": self.payload()},
            )
        try:
            self.session.play(action)
        except IllegalActionError as err:
            raise RequestError(HTTPStatus.CONFLICT, str(err), {"state": self.payload()}) from None
        self.version += 1
        self._keep_replay()
        return self.payload()

    def picture_png(self) -> bytes:
        return png(picture(self.session.spec, self.session.state, self.seat))

    def close(self) -> None:
        self.session.close()


# ---- replays ---------------------------------------------------------------------------------


class Shelf:
    """Replay mode: the files given on the command line (and this server's own recordings),
    each replayed once through the engine and kept as one state per step."""

    def __init__(self, paths: Sequence[str | Path] = ()) -> None:
        self.lock = threading.Lock()
        self.files: list[dict[str, Any]] = []
        for path in paths:
            self.add(Path(path))

    def add(self, path: Path) -> None:
        from cardarena.envs.core.replay import Replay

        if any(f["path"] == path for f in self.files):
            return
        replay = Replay.load(path)  # a ReplayFormatError (a ConfigError's sibling) names the line
        engine = replay.engine()
        states, stopped = [], ""
        try:
            for _, state in replay.states(engine):
                states.append(engine.to_dict(state))
        except CardArenaError as err:
            stopped = f"the engine refuses action {len(states)}: {err}"
        self.files.append(
            {"path": path, "replay": replay, "engine": engine, "states": states, "stopped": stopped}
        )

    def listing(self) -> list[dict[str, Any]]:
        return [
            {
                "index": i,
                "name": f["path"].name,
                "game": f["replay"].game,
                "players": list(f["replay"].players),
                "steps": len(f["states"]) - 1,
                "num_players": f["engine"].num_players,
            }
            for i, f in enumerate(self.files)
        ]

    def _pick(self, query: dict[str, str]) -> tuple[dict[str, Any], int, int | None]:
        if not self.files:
            raise RequestError(HTTPStatus.NOT_FOUND, "no replay files: start with --replay FILE")
        i = query_int(query, "file", 0, len(self.files) - 1)
        f = self.files[i]
        step = query_int(query, "step", 0, len(f["states"]) - 1)
        seat_text = query.get("seat", "full")
        seat = (
            None
            if seat_text == "full"
            else query_int(query, "seat", 0, f["engine"].num_players - 1)
        )
        return f, step, seat

    def frame(self, query: dict[str, str]) -> dict[str, Any]:
        from cardarena.agents.tools.replay import full_view
        from cardarena.envs.core.replay import _seat_label

        f, step, seat = self._pick(query)
        replay, engine = f["replay"], f["engine"]
        spec = get_spec(replay.game)
        state = engine.from_dict(f["states"][step])
        total = len(f["states"]) - 1
        if step == 0:
            head = f"start: {replay.game}, seed {replay.header.get('seed')}, {total} actions"
        else:
            line = replay.actions[step - 1]
            head = f"{step}/{total}  {_seat_label(replay, int(line['seat']))}: {line['action']}"
        body = full_view(engine, spec, state) if seat is None else spec.render(state, seat)
        shown = "full" if seat is None else str(seat)
        index = self.files.index(f)
        result = replay.result if step == total else None
        return {
            "mode": "replay",
            "file": index,
            "name": f["path"].name,
            "game": replay.game,
            "players": list(replay.players),
            "step": step,
            "steps": total,
            "seat": shown,
            "head": head,
            "render": body,
            "result": jsonable(result),
            "stopped": f["stopped"] if step == total else "",
            "picture": f"/api/replay/picture.png?file={index}&step={step}&seat={shown}",
        }

    def picture_png(self, query: dict[str, str]) -> bytes:
        f, step, seat = self._pick(query)
        spec = get_spec(f["replay"].game)
        state = f["engine"].from_dict(f["states"][step])
        return png(picture(spec, state, OBSERVER if seat is None else seat))


# ---- requests --------------------------------------------------------------------------------


def query_int(query: dict[str, str], key: str, low: int, high: int) -> int:
    text = query.get(key, "0" if key in ("file", "step") else "")
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and low <= int(text) <= high):
        raise RequestError(
            HTTPStatus.BAD_REQUEST,
            f"{key} must be an integer in [{low}, {high}], got {text[:20]!r}",
        )
    return int(text)


def read_query(raw: str) -> dict[str, str]:
    if len(raw) > 200:
        raise RequestError(HTTPStatus.BAD_REQUEST, "the query is too long")
    parsed = parse_qs(raw, keep_blank_values=True, strict_parsing=False)
    if any(len(v) != 1 for v in parsed.values()):
        raise RequestError(HTTPStatus.BAD_REQUEST, "each query key at most once")
    return {k: v[0] for k, v in parsed.items()}


def read_body(handler: BaseHTTPRequestHandler, fields: dict[str, type]) -> dict[str, Any]:
    """The request's JSON object, whose keys are among ``fields`` with those types (ints: not
    bools, at most 9 digits); anything else is a 4xx naming what is wrong."""
    kind = handler.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(
            HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
            f"send JSON (Content-Type application/json), got {kind!r}",
        )
    length_text = handler.headers.get("Content-Length", "")
    if not length_text.isdigit():
        raise RequestError(HTTPStatus.LENGTH_REQUIRED, "a Content-Length header is needed")
    length = int(length_text)
    if length > MAX_BODY:
        raise RequestError(
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body is {length} bytes; at most {MAX_BODY}"
        )
    raw = handler.rfile.read(length)
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise RequestError(HTTPStatus.BAD_REQUEST, "the body is not JSON") from None
    if not isinstance(body, dict):
        raise RequestError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise RequestError(
            HTTPStatus.BAD_REQUEST, f"unknown keys {unknown[:5]}; allowed: {sorted(fields)}"
        )
    for key, value in body.items():
        if fields[key] is int and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**9
        ):
            raise RequestError(
                HTTPStatus.BAD_REQUEST, f"{key} must be an integer >= 0, got {str(value)[:20]!r}"
            )
    return body


class App:
    """What the server answers: :meth:`get` and :meth:`post` give (status, content type, body)."""

    def __init__(self, table: Table | None = None, shelf: Shelf | None = None) -> None:
        if table is None and shelf is None:
            raise ConfigError("the server needs a game to play or replay files (--replay FILE)")
        self.table = table
        self.shelf = shelf if shelf is not None else Shelf()
        self.lock = threading.Lock()  # one request at a time touches the game

    def _table(self) -> Table:
        if self.table is None:
            raise RequestError(HTTPStatus.NOT_FOUND, "this server only replays files")
        return self.table

    def config(self) -> dict[str, Any]:
        return {
            "mode": "play" if self.table is not None else "replay",
            "replays": self.shelf.listing(),
        }

    def get(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes]:
        with self.lock:
            if path in STATIC:
                name, kind = STATIC[path]
                return 200, kind, resources.files(__package__).joinpath("static", name).read_bytes()
            if path == "/api/config":
                return json_reply(self.config())
            if path == "/api/state":
                return json_reply(self._table().payload())
            if path == "/api/picture.png":
                return 200, "image/png", self._table().picture_png()
            if path == "/api/replay":
                return json_reply(self.shelf.frame(query))
            if path == "/api/replay/picture.png":
                return 200, "image/png", self.shelf.picture_png(query)
        raise RequestError(HTTPStatus.NOT_FOUND, f"no page {path[:80]!r} here")

    def post(self, path: str, handler: BaseHTTPRequestHandler) -> tuple[int, str, bytes]:
        if path not in ("/api/play", "/api/new", "/api/watch"):
            raise RequestError(HTTPStatus.NOT_FOUND, f"no page {path[:80]!r} here")
        # the body is read before the game is locked: a slow client holds up nobody else
        fields = {"action": int, "version": int} if path == "/api/play" else {}
        body = read_body(handler, fields)
        if set(body) != set(fields):
            raise RequestError(HTTPStatus.BAD_REQUEST, 'send {"action": id, "version": v}')
        with self.lock:
            if path == "/api/play":
                return json_reply(self._table().play(body["action"], body["version"]))
            if path == "/api/new":
                table = self._table()
                table.close()
                table.new_game()
                return json_reply(table.payload())
            if path == "/api/watch":  # the game just played, in replay mode
                table = self._table()
                if not table.session.over or table.session.replay_path is None:
                    raise RequestError(HTTPStatus.CONFLICT, "no finished, recorded game to watch")
                with self.shelf.lock:
                    self.shelf.add(table.session.replay_path)
                return json_reply(self.config())
        raise RequestError(HTTPStatus.NOT_FOUND, f"no page {path[:80]!r} here")


def json_reply(data: Any, status: int = 200) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(data).encode("utf-8")


class Handler(BaseHTTPRequestHandler):
    app: App
    hosts: frozenset[str] | None  # the Host headers accepted (None: any)
    quiet = True
    disable_nagle_algorithm = True  # headers and body leave at once, not 40 ms apart
    timeout = 10  # seconds a client may take to send its request
    server_version = "cardarena"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        if not self.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for key, value in HEADERS.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _answer(self, work: Any) -> None:
        try:
            if self.hosts is not None and self.headers.get("Host", "") not in self.hosts:
                raise RequestError(
                    HTTPStatus.MISDIRECTED_REQUEST, "this server answers its own address only"
                )
            status, kind, body = work()
        except RequestError as err:
            status, kind, body = json_reply({"error": str(err), **err.extra}, err.status)
        except CardArenaError as err:  # a replay the engine refuses, a game option...
            status, kind, body = json_reply({"error": str(err)}, HTTPStatus.BAD_REQUEST)
        except Exception as err:  # noqa: BLE001 - an agent or a bug: say so, keep serving
            traceback.print_exc()
            message = f"internal error: {type(err).__name__}: {err}"[:300]
            status, kind, body = json_reply({"error": message}, HTTPStatus.INTERNAL_SERVER_ERROR)
        self._send(status, kind, body)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        self._answer(lambda: self.app.get(url.path, read_query(url.query)))

    def do_POST(self) -> None:  # noqa: N802
        url = urlsplit(self.path)
        self._answer(lambda: self.app.post(url.path, self))


def make_server(app: App, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server for ``app`` on ``host:port`` (port 0: a free one; ``server.server_address``
    says which). Loopback addresses accept only their own Host header."""
    handler = type("BoundHandler", (Handler,), {"app": app, "hosts": None})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    bound = server.server_address[1]
    if host in ("127.0.0.1", "localhost", "::1"):
        handler.hosts = frozenset(f"{name}:{bound}" for name in ("127.0.0.1", "localhost", "[::1]"))
    return server
