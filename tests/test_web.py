"""The browser table (``agents/tools/web``): the JSON API over HTTP for every game, then the page
itself in headless Chromium (Debian's ``chromium`` and ``chromium-driver``, driven by Selenium).

Hidden cards: as the suite's other leak tests (test_play.py, test_pictures.py), everything the
page receives for its seat is built again from a state whose hidden parts are redrawn
(``resample_hidden``): every JSON answer and every picture must come out byte for byte the same,
while the full view (every card) changes, or the check would prove nothing. The browser test
also draws the redrawn answer in the page and compares the page, and looks for the names of
hidden cards in the page's text.

    python -m tests.test_web --screenshots DIR [--games ratatat ...]   # web_<game>.png each
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from cardarena.agents.tools.replay import full_view
from cardarena.agents.tools.web import main as serve_main
from cardarena.agents.tools.web.server import App, Shelf, Table, make_server, seat_payload
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.replay import verify

ROOT = Path(__file__).resolve().parents[1]
GAMES = names()
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def small(game: str) -> int:
    return max(2, get_spec(game).engine_cls.min_players)


class Checked(App):
    """The app, and for every answer about the seat the same answer built from a state whose
    hidden parts are redrawn: ``leaks`` lists any difference, ``moved`` counts the answers whose
    full view did change (hidden cards were really redrawn)."""

    SEAT_PATHS = ("/api/state", "/api/picture.png")

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.guard = threading.RLock()
        self.rng = np.random.default_rng(17)
        self.leaks: list[str] = []
        self.moved = 0
        self.answers = 0

    def twin_state(self):
        session = self.table.session
        return session.engine.resample_hidden(session.state, session.seat, self.rng)

    def _again(self, path: str, query: dict, twin) -> tuple[int, str, bytes]:
        session = self.table.session
        real = session.state
        session.state = twin
        try:
            return super().get(path, query)
        finally:
            session.state = real

    def _compare(self, path: str, query: dict, reply) -> None:
        session = self.table.session
        twin = self.twin_state()
        self.answers += 1
        self.moved += full_view(session.engine, session.spec, session.state) != full_view(
            session.engine, session.spec, twin
        )
        again = self._again(path, query, twin)
        if again != reply:
            self.leaks.append(f"{path} differs when hidden cards are redrawn")

    def get(self, path, query):
        with self.guard:
            reply = super().get(path, query)
            if path in self.SEAT_PATHS:
                self._compare(path, query, reply)
            return reply

    def post(self, path, handler):
        with self.guard:
            try:
                reply = super().post(path, handler)
            except Exception as err:
                state = getattr(err, "extra", {}).get("state")
                if state is not None:
                    self._compare("/api/state", {}, (200, "application/json", _dumps(state)))
                raise
            if path in ("/api/play", "/api/new"):
                self._compare("/api/state", {}, reply)
            return reply


def _dumps(data) -> bytes:
    return json.dumps(data).encode("utf-8")


class Served:
    """A server for ``app`` on a free port, in a thread."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.server = make_server(app)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        if self.app.table is not None:
            self.app.table.close()

    def request(self, path, body=None, raw=None, headers=None, method=None):
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        req = urllib.request.Request(self.url + path, data=data, headers=hdrs, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as err:
            return err.code, err.headers, err.read()

    def json(self, path, body=None, **kw):
        status, _, data = self.request(path, body, **kw)
        return status, json.loads(data)


@pytest.fixture
def served(tmp_path):
    made = []

    def start(game, seed=3, checked=True, **kw):
        n = small(game)
        table = Table(game, 0, ["random"] * (n - 1), {"num_players": n}, seed, tmp_path, **kw)
        s = Served(Checked(table) if checked else App(table))
        made.append(s)
        return s

    yield start
    for s in made:
        s.close()


# ---- the JSON API, every game ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_through_the_api_shows_the_seat_nothing_hidden(game, served):
    s = served(game)
    for page in ("/", "/app.js", "/style.css"):
        status, headers, _ = s.request(page)
        assert status == 200 and "script-src 'self'" in headers["Content-Security-Policy"]
    assert s.json("/api/config") == (200, {"mode": "play", "replays": []})
    rng = np.random.default_rng(5)
    status, state = s.json("/api/state")
    moves = 0
    while not state["over"]:
        assert status == 200 and state["to_move"] and state["legal"]
        assert "seed" not in state and "replay" not in state  # the seed is the deck: at the end
        if moves % 6 == 0:  # a picture costs 20-50 ms (the browser test fetches every one)
            status, headers, image = s.request(state["picture"])
            assert status == 200 and headers["Content-Type"] == "image/png"
            assert image[:4] == b"\x89PNG"
        pick = state["legal"][rng.integers(len(state["legal"]))]
        status, state = s.json("/api/play", {"action": pick["id"], "version": state["version"]})
        moves += 1
    assert status == 200 and moves > 3
    assert state["legal"] == [] and state["result"]["verdict"]
    assert state["narration"] and any(line.startswith("you") for line in state["narration"])
    assert verify(state["replay"]).ok, "the saved replay does not replay"
    assert s.app.leaks == [], s.app.leaks
    assert s.app.answers > moves and s.app.moved > 0, "nothing hidden was redrawn: a vacuous check"


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_or_stale_action_is_refused_and_changes_nothing(game, served):
    s = served(game)
    _, before = s.json("/api/state")
    legal = {a["id"] for a in before["legal"]}
    engine = s.app.table.session.engine
    illegal = next(a for a in range(engine.num_actions + 5) if a not in legal)
    status, answer = s.json("/api/play", {"action": illegal, "version": before["version"]})
    assert status == 409 and "not a legal action" in answer["error"]
    assert all(f"{a['id']} ({a['text']})" in answer["error"] for a in before["legal"])
    status, stale = s.json("/api/play", {"action": min(legal), "version": before["version"] - 1})
    assert status == 409 and "earlier position" in stale["error"]
    for shown in (answer["state"], stale["state"], s.json("/api/state")[1]):
        assert shown == before  # nothing changed, not even the narration
    assert s.app.leaks == []


def test_bad_requests_are_refused(served):
    s = served("flip6", checked=False)
    _, state = s.json("/api/state")
    v = state["version"]
    bad_bodies = [
        (b'{"action": 1, "version": 1', 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b'{"action": true, "version": 1}', 400, "integer"),
        (b'{"action": "hit", "version": 1}', 400, "integer"),
        (b'{"action": -1, "version": 1}', 400, "integer"),
        (b'{"action": 1e400, "version": 1}', 400, "integer"),
        (b'{"action": 1}', 400, "version"),
        (b'{"action": 1, "version": 1, "agents": ["mod:evil"]}', 400, "unknown keys"),
        (b"\xff\xfe", 400, "not JSON"),
        (b"{" * 1025, 413, "at most"),
    ]
    for raw, code, words in bad_bodies:
        status, _, data = s.request("/api/play", raw=raw)
        assert status == code and words in json.loads(data)["error"], (raw[:40], status, data)
    status, _, data = s.request(
        "/api/play", raw=b'{"action": 1}', headers={"Content-Type": "text/plain"}
    )
    assert status == 415
    status, _, _ = s.request("/api/new", raw=b'{"game": "sevn"}')
    assert status == 400  # a page never chooses a game or a spec
    for path in (
        "/nothing",
        "/static/",
        "/static/app.js",
        "/../pyproject.toml",
        "/api/",
        "/agents/",
    ):
        status, _, data = s.request(path)
        assert status == 404 and b"error" in data, path
        assert s.request(path, raw=b"{}")[0] == 404
    status, _, _ = s.request("/api/state", headers={"Host": "evil.example:80"})
    assert status == 421  # a page of another site reaching us by DNS rebinding
    assert s.request("/api/replay")[0] == 404  # no replay files
    assert s.request("/api/state?" + "x" * 300)[0] == 400
    assert s.json("/api/state")[1]["version"] == v  # none of it moved the game


def test_a_slow_client_or_a_failing_agent_does_not_stop_the_table(served, monkeypatch):
    s = served("sevn", checked=False)
    slow = socket.create_connection(("127.0.0.1", s.port))
    slow.sendall(b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")  # fmt: skip
    start = time.monotonic()
    assert s.json("/api/state")[0] == 200 and time.monotonic() - start < 5
    slow.close()

    def broken():
        raise RuntimeError("the agent fell over")

    monkeypatch.setattr(s.app.table, "payload", broken)
    status, answer = s.json("/api/state")
    assert status == 500 and "RuntimeError: the agent fell over" in answer["error"]
    monkeypatch.undo()
    assert s.json("/api/state")[0] == 200


def test_new_game_and_watching_the_game_just_played(served):
    s = served("thegame", seed=4, checked=False)
    assert s.request("/api/watch", raw=b"{}")[0] == 409  # not over yet
    _, state = s.json("/api/state")
    while not state["over"]:
        _, state = s.json(
            "/api/play", {"action": state["legal"][0]["id"], "version": state["version"]}
        )
    assert state["seed"] == 4
    status, config = s.json("/api/watch", raw=None, body={})
    assert status == 200 and [f["name"] for f in config["replays"]] == [Path(state["replay"]).name]
    status, frame = s.json(f"/api/replay?file=0&step={config['replays'][0]['steps']}&seat=0")
    assert status == 200 and frame["result"]["winners"] == state["result"]["winners"]
    status, fresh = s.json("/api/new", body={})
    assert status == 200 and not fresh["over"] and fresh["version"] > state["version"]
    assert "seed" not in fresh


def test_replay_mode_steps_through_a_file(tmp_path):
    golden = sorted((ROOT / "tests" / "golden" / "ratatat").glob("*.jsonl"))[0]
    s = Served(App(None, Shelf([golden])))
    try:
        _, config = s.json("/api/config")
        assert config["mode"] == "replay" and config["replays"][0]["name"] == golden.name
        steps, n = config["replays"][0]["steps"], config["replays"][0]["num_players"]
        status, start = s.json("/api/replay?file=0&step=0&seat=full")
        assert (
            status == 200 and start["head"].startswith("start") and "every card" in start["render"]
        )
        status, end = s.json(f"/api/replay?file=0&step={steps}&seat={n - 1}")
        assert status == 200 and end["result"] is not None and "every card" not in end["render"]
        assert s.request(end["picture"])[2][:4] == b"\x89PNG"
        assert s.request(start["picture"])[2] != s.request(end["picture"])[2]
        for query in (
            f"step={steps + 1}",
            f"seat={n}",
            "file=1",
            "seat=-1",
            "step=x",
            "file=0&file=0",
        ):
            status, answer = s.json(f"/api/replay?{query}")
            assert status == 400 and answer["error"], query
        assert s.request("/api/state")[0] == 404  # nothing to play
        assert s.request("/api/watch", raw=b"{}")[0] == 404
    finally:
        s.close()


def test_the_command_line_refuses_bad_starts(tmp_path, capsys):
    assert serve_main(["--game", "nope", "--agents", "random"]) == 2
    assert "nope" in capsys.readouterr().err
    assert serve_main(["--game", "flip6", "--agents", "random", "--seat", "9"]) == 2
    assert "seat" in capsys.readouterr().err
    assert serve_main(["--replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert serve_main(["--replay", str(bad)]) == 2
    assert serve_main(["--agents", "random", "random", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err
    scripts = (ROOT / "pyproject.toml").read_text()
    assert 'cardarena-serve = "cardarena.agents.tools.web:main"' in scripts


def test_serve_prints_the_address_and_opens_a_browser_only_when_asked(
    tmp_path, capsys, monkeypatch
):
    import webbrowser
    from http.server import ThreadingHTTPServer

    opened = []
    monkeypatch.setattr(webbrowser, "open", opened.append)

    def ctrl_c(self, poll_interval=0.5):
        raise KeyboardInterrupt

    monkeypatch.setattr(ThreadingHTTPServer, "serve_forever", ctrl_c)
    args = ["--game", "thegame", "--agents", "random", "--seed", "1", "--record", str(tmp_path)]
    assert serve_main(args) == 0
    out = capsys.readouterr().out
    url = re.search(r"http://127\.0\.0\.1:(\d+)/", out)
    assert url and int(url.group(1)) > 0 and opened == []
    assert f"replay saved: {tmp_path}" in out  # the unfinished game's replay, closed
    assert serve_main([*args, "--open", "--no-record"]) == 0
    assert opened == [re.search(r"http://\S+/", capsys.readouterr().out).group(0)]


def test_the_page_fetches_nothing_from_elsewhere():
    static = ROOT / "agents" / "tools" / "web" / "static"
    assert sorted(p.name for p in static.iterdir()) == ["app.js", "index.html", "style.css"]
    for path in static.iterdir():
        text = path.read_text()
        assert not re.search(r"https?:|//[a-z]|@import|url\(", text), path.name
        assert "innerHTML" not in text  # texts go in as text


def _started(proc: subprocess.Popen) -> str:
    line = proc.stdout.readline()
    assert " at http://127.0.0.1:" in line, line + proc.stderr.read()
    return re.search(r"http://\S+", line).group(0)


def test_evaluate_human_web_serves_the_table_until_interrupted(tmp_path):
    """``python evaluate.py --human 1 --web``: the URL is printed, the page answers, Ctrl-C
    stops it and says where the replay is."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "evaluate.py", "--game", "sevn", "--human", "1", "--web", "--agents",
         "random", "--seed", "2", "--record", str(tmp_path)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        url = _started(proc)
        with urllib.request.urlopen(url + "api/state", timeout=30) as r:
            state = json.loads(r.read())
        assert state["seat"] == 1 and state["players"] == ["random", "you"]
        proc.send_signal(2)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert f"replay saved: {tmp_path}" in out


# ---- the page in headless Chromium -------------------------------------------------------------


def chromium_driver():
    """Selenium's Chrome driver on Debian's chromium and chromedriver (never a download)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not fetch a browser or driver
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--disable-extensions"):  # fmt: skip
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (the dev extra)")
    if missing:
        why = f"the browser tests need {missing} (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(why + ": CI must run them")
        pytest.skip(why)
    driver = chromium_driver()
    driver.set_script_timeout(20)
    yield driver
    driver.quit()


def wait(driver, check, what, timeout=15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = driver.execute_script(check)
        if got:
            return got
        time.sleep(0.01)
    raise AssertionError(f"the page never showed {what}")


VERSION = "return document.body.dataset.version"
BUTTONS = (
    "return [...document.querySelectorAll('#actions button')]"
    ".map(b => [b.dataset.id, b.querySelector('.text').textContent])"
)
PAGE = "return document.getElementById('table').outerHTML"


def hidden_names(session, twin, seen: str) -> set[str]:
    """Names of cards in the zones that the redraw changed (hidden from the seat) that the seat
    has not seen anywhere (long names only: a digit would match any number on the page)."""
    engine = session.engine
    real, other = engine.card_zones(session.state), engine.card_zones(twin)
    hidden = {c for z in real if sorted(real[z]) != sorted(other[z]) for c in real[z]}
    return {c for c in hidden if len(c) >= 4 and c not in seen}


def _check_page(driver, app: Checked) -> int:
    """The page drawn from a redrawn state's answer is the same page; no hidden name in it."""
    session = app.table.session
    with app.guard:
        twin = copy.copy(session)
        twin.state = app.twin_state()
        answer = seat_payload(twin, app.table.log, app.table.version)
        seen = json.dumps(seat_payload(session, app.table.log, app.table.version))
    page, whole, shown = driver.execute_script(
        "const table = () => document.getElementById('table').outerHTML;"
        "const before = [table(), document.documentElement.outerHTML];"
        "cardarena.draw(arguments[0]); return [...before, table()]",
        answer,
    )
    assert shown == page, "the page changes when hidden cards are redrawn"
    names_ = hidden_names(session, twin.state, seen)
    assert not {c for c in names_ if c in whole}, "a hidden card's name is in the page"
    return len(names_)


def next_version(driver, old: str) -> str:
    """Wait in the page (no polling from here) for a version other than ``old``."""
    got = driver.execute_async_script(
        "const [old, done] = arguments, start = Date.now();"
        "(function poll() { const v = document.body.dataset.version;"
        " if (v !== old) done(v); else if (Date.now() - start > 15000) done(null);"
        " else setTimeout(poll, 5); })();",
        old,
    )
    assert got, "the page never showed the next position"
    return got


@pytest.mark.parametrize("game", GAMES)
def test_browser_full_game_by_clicks(game, browser, served):
    """A full game by clicks; a forged button refused with nothing changed; the page never
    holds what the seat may not see; the end shows the verdict and the replay."""
    s = served(game, seed=8)
    browser.get(s.url + "/")
    version = wait(browser, VERSION, "the table")
    rng = np.random.default_rng(3)
    render = browser.find_element("id", "render").text
    browser.execute_script(
        "const b = document.querySelector('#actions button'); b.dataset.id = '99999'; b.click()"
    )
    refusal = wait(browser, "const e = document.getElementById('error');"
                   " return !e.hidden && e.textContent", "the refusal")  # fmt: skip
    assert "refused" in refusal and "99999 is not a legal action" in refusal
    assert browser.execute_script(VERSION) == version
    assert browser.find_element("id", "render").text == render
    legal = [[str(a["id"]), a["text"]] for a in s.app.table.payload()["legal"]]
    assert browser.execute_script(BUTTONS) == legal  # the legal list again
    clicks = names_checked = 0
    while True:
        names_checked += _check_page(browser, s.app)
        buttons = browser.find_elements("css selector", "#actions button")
        if not buttons:
            break
        buttons[rng.integers(len(buttons))].click()
        clicks += 1
        version = next_version(browser, version)
    end = browser.find_element("id", "end")
    assert end.is_displayed() and browser.find_element("id", "verdict").text
    assert "replay saved: " in browser.find_element("id", "replay-path").text
    assert browser.find_element("id", "error").is_displayed() is False  # cleared by the next move
    assert clicks > 3 and s.app.table.session.over
    assert s.app.leaks == [], s.app.leaks
    assert s.app.moved > 0
    if game == "suicidium":
        assert names_checked > 0, "no hidden card name was looked for: a vacuous check"


def test_browser_new_game_watch_and_replay(browser, served):
    s = served("thegame", seed=1, checked=False)
    browser.get(s.url + "/")
    version = wait(browser, VERSION, "the table")
    while browser.find_elements("css selector", "#actions button"):
        browser.find_element("css selector", "#actions button").click()
        version = next_version(browser, version)
    browser.find_element("id", "watch").click()
    wait(browser, "return document.body.dataset.step === '0'", "the replay's start")
    head = browser.find_element("id", "replay-head").text
    assert head.startswith("start: thegame")
    browser.find_element("id", "next").click()
    wait(browser, "return document.body.dataset.step === '1'", "step 1")
    assert browser.find_element("id", "replay-head").text.startswith("1/")
    assert "every card" in browser.find_element("id", "replay-render").text
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "replay-seat")).select_by_value("1")
    wait(browser, "return !document.getElementById('replay-render').textContent.includes('every card')",
         "seat 1's view")  # fmt: skip
    browser.find_element("id", "last").click()
    wait(browser, "return document.getElementById('replay-result').textContent.includes('result')",
         "the result")  # fmt: skip
    browser.find_element("id", "to-table").click()
    browser.find_element("id", "new-game").click()
    wait(browser, f"return document.body.dataset.version !== '{version}'", "a new game")
    assert browser.find_elements("css selector", "#actions button")


def screenshots(folder: Path, games=GAMES) -> None:
    """A screenshot of each game five moves in, as ``web_<game>.png`` (docs/images/web_ratatat.png)."""
    folder.mkdir(parents=True, exist_ok=True)
    driver = chromium_driver()
    driver.set_window_size(1400, 780)
    try:
        for game in games:
            n = small(game)
            table = Table(game, 0, ["random"] * (n - 1), {"num_players": n}, 5, None)
            s = Served(App(table))
            driver.get(s.url + "/")
            version = wait(driver, VERSION, "the table")
            for _ in range(5):
                buttons = driver.find_elements("css selector", "#actions button")
                if not buttons:
                    break
                buttons[-1].click()
                version = wait(driver, f"return document.body.dataset.version !== '{version}' && document.body.dataset.version", "a move")  # fmt: skip
            driver.execute_script("document.activeElement.blur()")
            time.sleep(0.3)  # the picture
            driver.save_screenshot(str(folder / f"web_{game}.png"))
            print(folder / f"web_{game}.png")
            s.close()
    finally:
        driver.quit()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screenshots", metavar="DIR", required=True)
    parser.add_argument("--games", nargs="+", choices=GAMES, default=GAMES)
    args = parser.parse_args()
    screenshots(Path(args.screenshots), args.games)
