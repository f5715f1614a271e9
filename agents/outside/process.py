"""A player that is a program: ``exec:COMMAND`` runs COMMAND and plays through its stdin/stdout.

The protocol (``docs/protocol.md``, version :data:`PROTOCOL_VERSION`) is JSON lines: before a
seat's first decision of a game the process gets a ``hello`` (game, options, seat, seed, time
limits), then one ``decide`` message per decision (the seat's text render, its ``view``, the
observation vector with ``exec+obs:``, the legal actions with their ids and texts, the time
left), to which it answers one line: an action id, an action text or ``{"action": ...}``; a
``result`` ends each game. One process plays the games of one agent object one after another;
copies of the agent (a tournament copies it per seat and game) take an idle process from the
original's stable or start one.

Faults are :class:`~envs.core.errors.AgentFault` errors naming the agent, game, seat and what
happened: no answer in time (``decision_time`` per decision, ``game_time`` per game), the process
ended (its exit code and last stderr lines), a line that is no action (shown cut short), an
illegal action (with the legal ones), output nobody asked for. After a fault the process is
killed. Processes never outlive this one: killed when their agent is garbage collected or closed,
at interpreter exit, and (Linux) by the kernel when this process dies (``PR_SET_PDEATHSIG``).
Reads and writes wait on ``select`` with deadlines; a line is at most :data:`MAX_LINE` bytes and
only the last :data:`STDERR_KEEP` bytes of stderr are kept.

Nothing runs but the command the spec names, which the user asked for.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import math
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
import weakref
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.envs.core.errors import AgentFault, CardArenaError, ConfigError

#: the protocol's version, sent in every ``hello``; it changes when a message changes meaning
PROTOCOL_VERSION = 1
#: default seconds for one answer, and for all of one game's answers of one seat
DECISION_TIME = 10.0
GAME_TIME = 300.0
#: seconds a new process has to start, on top of its first answer's time (Python with its
#: imports, a JVM, a model loading: not thinking time, so no game's budget counts it)
START_TIME = 5.0
#: the longest answer line read (bytes, newline excluded)
MAX_LINE = 1 << 16
#: bytes of stderr kept for the verdicts, and the lines of it shown
STDERR_KEEP = 4096
STDERR_LINES = 6
#: characters of a bad answer shown in a verdict
SHOWN = 120
#: the spec kinds: ``exec:`` sends no observation vector, ``exec+obs:`` sends it
KINDS = ("exec:", "exec+obs:")
#: the last message
BYE = b'{"type":"bye"}\n'
#: legal actions listed in an illegal-answer verdict
LISTED = 12


def _short(text: str, n: int = SHOWN) -> str:
    return text if len(text) <= n else f"{text[:n]}... ({len(text)} characters)"


def split_command(spec: str, command: str) -> list[str]:
    """The command's words (shell quoting), its program checked to exist: a ConfigError names
    the spec and the fix."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise ConfigError(
            f"agent {spec!r}: cannot split the command ({err}); check its quotes"
        ) from None
    if not argv:
        raise ConfigError(
            f"agent {spec!r} names no command; write exec:COMMAND, e.g. "
            "'exec:python examples/clients/random_bot.py'"
        )
    program = argv[0]
    found = shutil.which(program) if os.sep not in program else program
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        where = "on PATH" if os.sep not in program else f"in {os.getcwd()}"
        raise ConfigError(
            f"agent {spec!r}: no program {program!r} {where} that may be run; give a path to an "
            "executable file (chmod +x) or a program on PATH (e.g. 'exec:python my_bot.py')"
        )
    return argv


def engine_options(engine: Any, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's options for the hello: each constructor parameter of the engine at the value
    ``given`` (the options the table was made with: a tournament's), else as the engine holds
    it; one the engine holds in another form than the option's (suicidium's ``mode``, kept as
    a number) is left out unless given."""
    out: dict[str, Any] = {}
    for name, param in inspect.signature(type(engine).__init__).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        default = None if param.default is param.empty else param.default
        value = getattr(engine, name, None)
        if isinstance(value, np.generic):
            value = value.item()
        if default is not None and type(value) is not type(default):
            continue
        if isinstance(value, bool | int | float | str):
            out[name] = value
    for name, value in (given or {}).items():
        out[name] = value.item() if isinstance(value, np.generic) else value
    return out


def _plain(x: Any) -> Any:
    """JSON for what a view holds besides plain data (numpy numbers and arrays, sets, tuples)."""
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, set | frozenset):
        return sorted(x)
    raise TypeError(f"{type(x).__name__} is not JSON")


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    if _LIBC is not None:
        _LIBC.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_LIBC: Any = None
if sys.platform.startswith("linux"):
    try:
        import ctypes

        _LIBC = ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover
        _LIBC = None


def _kill(proc: subprocess.Popen, grace: float = 0.2) -> None:
    """End the process: a ``bye`` (if its input takes it at once) and its input closed (a bot
    that reads to the end exits by itself within ``grace`` seconds), then its whole group
    killed; reaped, its pipes closed."""
    with contextlib.suppress(OSError, ValueError):
        if proc.stdin is not None and not proc.stdin.closed:
            if proc.poll() is None:
                os.write(proc.stdin.fileno(), BYE)  # non-blocking: a full pipe just refuses
            proc.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        if grace > 0 and proc.poll() is None:
            proc.wait(timeout=grace)
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(Exception):
        proc.wait(timeout=5)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        with contextlib.suppress(OSError):
            if pipe is not None:
                pipe.close()


class _Failed(Exception):
    """What went wrong with the process (becomes an AgentFault with the agent's name)."""


class Bot:
    """One running process: bounded, non-blocking line I/O with deadlines."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=cwd,
                start_new_session=True,  # its own group: killed with its children
                preexec_fn=_die_with_parent if _LIBC is not None else None,  # noqa: PLW1509
            )
        except OSError as err:
            raise _Failed(f"could not be started ({err})") from None
        self._finalizer = weakref.finalize(self, _kill, self.proc)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.w, self.r, self.e = (
            self.proc.stdin.fileno(),
            self.proc.stdout.fileno(),
            self.proc.stderr.fileno(),
        )
        for fd in (self.w, self.r, self.e):
            os.set_blocking(fd, False)
        self.buf = bytearray()
        self.err = bytearray()
        self.open = {self.r, self.e}

    # ---- reading ---------------------------------------------------------------------------
    def _drain(self, fd: int) -> None:
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.open.discard(fd)
        elif fd == self.r:
            self.buf += data
        else:
            self.err += data
            del self.err[: max(0, len(self.err) - STDERR_KEEP)]

    def _wait(self, deadline: float, write: bool = False) -> bool:
        """Drain what is readable until ``deadline``; True when stdin can be written (``write``)
        or when something was read."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        readable, writable, _ = select.select(list(self.open), [self.w] if write else [], [], left)
        for fd in readable:
            self._drain(fd)
        return bool(writable) if write else bool(readable)

    def pending(self) -> bool:
        """Whether the process wrote something nobody asked for."""
        if self.r in self.open:
            readable, _, _ = select.select([self.r], [], [], 0)
            if readable:
                self._drain(self.r)
        return bool(self.buf)

    def readline(self, deadline: float, why_late: str) -> str:
        while True:
            end = self.buf.find(b"\n")
            if 0 <= end <= MAX_LINE:
                line = bytes(self.buf[:end])
                del self.buf[: end + 1]
                return line.decode("utf-8", errors="replace")
            if len(self.buf) > MAX_LINE:
                shown = _short(bytes(self.buf[:SHOWN]).decode("utf-8", errors="replace"))
                raise _Failed(f"wrote a line longer than {MAX_LINE} bytes (it began {shown!r})")
            if self.r not in self.open:
                raise _Failed(self.ended("closed its output"))
            if time.monotonic() >= deadline:
                raise _Failed(why_late + (self.stderr_tail() if self.err else ""))
            self._wait(deadline)

    # ---- writing ---------------------------------------------------------------------------
    def send(self, message: dict[str, Any], deadline: float, why_late: str) -> None:
        data = memoryview(json.dumps(message, default=_plain, separators=(",", ":")).encode())
        data = memoryview(bytes(data) + b"\n")
        while data:
            try:
                n = os.write(self.w, data)
                data = data[n:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise _Failed(self.ended("stopped reading its input")) from None
            if time.monotonic() >= deadline:
                raise _Failed(f"{why_late} (it does not read its input)")
            self._wait(deadline, write=True)

    # ---- the end ---------------------------------------------------------------------------
    def ended(self, what: str) -> str:
        """``what`` with how the process ended (exit code or signal) and its last stderr lines."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        while self.e in self.open and self._wait(time.monotonic() + 0.05):
            pass
        if code is None:
            how = f"{what} but is still running"
        elif code < 0:
            how = f"{what}: it was killed by signal {-code}"
        else:
            how = f"{what}: it exited with code {code}"
        return how + self.stderr_tail()

    def stderr_tail(self) -> str:
        lines = bytes(self.err).decode("utf-8", errors="replace").splitlines()[-STDERR_LINES:]
        if not lines:
            return " (nothing on stderr)"
        return "; its last stderr lines: " + " | ".join(_short(x) for x in lines)

    def close(self, grace: float = 0.5) -> None:
        """Say goodbye, give it ``grace`` seconds to exit, then kill it."""
        if self.proc.poll() is None:
            with contextlib.suppress(_Failed, OSError):
                self.send(json.loads(BYE), time.monotonic() + grace, "")
            with contextlib.suppress(OSError):
                self.proc.stdin.close()  # type: ignore[union-attr]
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=grace)
        self._finalizer()


class ExecAgent(Agent):
    """An agent played by a program (see the module docstring); built by ``exec:COMMAND``."""

    uses_text = True
    uses_view = True
    #: a tournament plays every game of such an agent as its own chunk (one process per seat)
    one_game_at_a_time = True

    def __init__(
        self,
        game: str,
        command: str,
        seed: int | None = None,
        observation: bool = False,
        name: str | None = None,
        decision_time: float = DECISION_TIME,
        game_time: float = GAME_TIME,
        cwd: str | None = None,
    ) -> None:
        super().__init__(seed)
        self.name = name or f"exec:{command}"
        self.game = game
        self.argv = split_command(self.name, command)
        self.uses_observation = bool(observation)
        self.cwd = cwd
        #: the options the tables are made with (the tournament sets them), for the hello
        self.table_options: dict[str, Any] | None = None
        self.decision_time: float = DECISION_TIME
        self.game_time: float = GAME_TIME
        self.set_limits(decision_time, game_time)
        self._stable: list[Bot] = []  # idle processes, shared with this agent's copies
        self._bot: Bot | None = None
        self._new_game(seed)

    def set_limits(
        self, decision_time: float | None = None, game_time: float | None = None
    ) -> None:
        """Seconds for one answer and for one game's answers (None: keep the current one)."""
        for what, value in (("decision_time", decision_time), ("game_time", game_time)):
            if value is None:
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not (math.isfinite(value) and value > 0)
            ):
                raise ConfigError(
                    f"{what} of agent {self.name!r} must be a positive number of seconds, got "
                    f"{value!r}"
                )
            setattr(self, what, float(value))

    def _new_game(self, seed: int | None) -> None:
        self._seed = seed
        self._hello = False
        self._used = 0.0
        self._text: str | None = None
        self._engine: Any = None
        self._seat: int | None = None

    # ---- copies and pickles: a copy gets its own process ----------------------------------
    def __copy__(self) -> ExecAgent:
        twin = object.__new__(ExecAgent)
        twin.__dict__.update(self.__dict__)
        twin._bot = None
        return twin

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_bot"], state["_stable"] = None, []
        return state

    # ---- the agent protocol ----------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._new_game(seed)

    def set_text(self, text: str, engine: Any, seat: int) -> None:
        self._text, self._engine, self._seat = text, engine, seat

    def act_forced(self, action: int) -> bool:
        return True  # one legal action: played without asking (the next question has the text)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: Any) -> int:
        engine = self._engine
        if engine is None:
            raise CardArenaError(
                f"agent {self.name!r} plays through the game loop (envs.core.loop.decide), "
                "which hands it the seat's text and the engine; call act() through it"
            )
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        budget = self.game_time - self._used
        limit = min(self.decision_time, budget)
        late = (
            f"gave no answer within its {self.decision_time:g} s per decision"
            if limit == self.decision_time
            else f"used up its {self.game_time:g} s for the game"
        )
        # a process about to start gets START_TIME more for its first answer, counted nowhere
        grace = START_TIME if self._bot is None and not self._stable else 0.0
        if grace:
            late += f" (and {grace:g} s to start)"
        start = time.monotonic()
        deadline = start + max(limit, 0.0) + grace
        try:
            bot = self._engage(deadline, late)
            if bot.pending():
                raise _Failed(
                    "wrote output nobody asked for (one line per decide message, nothing else): "
                    f"{_short(bytes(bot.buf[:SHOWN]).decode('utf-8', errors='replace'))!r}"
                )
            message: dict[str, Any] = {  # the order is kept: legal first (for line tools)
                "type": "decide",
                "legal": [{"id": a, "text": engine.describe_action(a)} for a in legal],
                "time_left": round(limit, 3),
                "game_time_left": round(budget, 3),
                "text": self._text,
                "view": view,
            }
            if self.uses_observation and observation is not None:
                message["observation"] = np.asarray(observation).tolist()
            bot.send(message, deadline, late)
            line = bot.readline(deadline, late)
            action = self._parse(line, legal, action_mask, engine)
        except _Failed as err:
            self._drop()
            raise AgentFault(str(err), self.name, self.game, self._seat) from None
        finally:
            self._used += max(0.0, time.monotonic() - start - grace)
        return action

    def _engage(self, deadline: float, late: str) -> Bot:
        """This game's process, told of the game (``hello``) before its first question."""
        if self._bot is None:
            self._bot = self._stable.pop() if self._stable else Bot(self.argv, self.cwd)
        if not self._hello:
            engine = self._engine
            self._bot.send(
                {
                    "type": "hello",
                    "protocol": PROTOCOL_VERSION,
                    "game": self.game,
                    "options": engine_options(engine, self.table_options),
                    "num_players": int(engine.num_players),
                    "num_actions": int(engine.num_actions),
                    "seat": self._seat,
                    "seed": self._seed,
                    "decision_time": self.decision_time,
                    "game_time": self.game_time,
                    "observation": self.uses_observation,
                    "agent": self.name,
                },
                deadline,
                late,
            )
            self._hello = True
        return self._bot

    def _parse(self, line: str, legal: list[int], mask: np.ndarray, engine: Any) -> int:
        text = line.strip()
        if not text:
            raise _Failed("answered an empty line (an action id or text was expected)")
        value: Any = text
        if text.startswith("{"):
            try:
                value = json.loads(text)["action"]
            except (ValueError, KeyError, TypeError, RecursionError):
                raise _Failed(
                    f'answered {_short(text)!r}: a JSON answer is {{"action": ID or TEXT}}'
                ) from None
        elif re.fullmatch(r"[+-]?\d{1,18}", text):
            value = int(text)
        if isinstance(value, str):
            try:
                value = int(engine.parse_action(value))
            except CardArenaError as err:
                raise _Failed(f"answered {_short(text)!r}, which is no action: {err}") from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Failed(f"answered {_short(text)!r}, not an action id or text")
        if not 0 <= value < len(mask) or not mask[value]:
            shown = ", ".join(f"{a} {engine.describe_action(a)!r}" for a in legal[:LISTED])
            more = f" and {len(legal) - LISTED} more" if len(legal) > LISTED else ""
            named = engine.describe_action(value) if 0 <= value < len(mask) else "no action"
            raise _Failed(
                f"answered {_short(text)!r} (action {value}, {named}), which is not legal now; "
                f"the legal actions are {shown}{more}"
            )
        return value

    def end_game(self, result: dict[str, Any]) -> None:
        """Send the game's result (if the process was told of the game) and put the process
        back in the stable for the next game."""
        bot, self._bot = self._bot, None
        if bot is None:
            return
        if not self._hello:
            self._stable.append(bot)
            return
        seat = result.get("seat", self._seat)
        message = {"type": "result", **result}
        if seat is not None:
            message["return"] = result["returns"][seat]
        try:
            if bot.pending():  # output after its last answer: that process is not reused
                raise _Failed("spoke out of turn")
            bot.send(message, time.monotonic() + self.decision_time, "")
        except _Failed:
            bot.close(grace=0)
            return
        self._stable.append(bot)

    def _drop(self) -> None:
        """Kill this game's process (after a fault)."""
        bot, self._bot = self._bot, None
        if bot is not None:
            bot.close(grace=0)

    def close(self) -> None:
        """Say goodbye to every process of this agent and end them."""
        self._drop_all()

    def _drop_all(self) -> None:
        if self._bot is not None:
            self._bot.close()
            self._bot = None
        while self._stable:
            self._stable.pop().close()


def exec_agent(game: str, spec: str, seed: int | None = None) -> ExecAgent:
    """``exec:COMMAND`` / ``exec+obs:COMMAND`` (the command split as a shell would)."""
    kind = next(k for k in KINDS if spec.startswith(k))
    return ExecAgent(game, spec[len(kind) :], seed, observation=kind == "exec+obs:", name=spec)
