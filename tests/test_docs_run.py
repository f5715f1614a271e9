r"""Docs that run: every command and code block of the docs is executed, with tiny budgets, in a
temporary directory, and fails here when it breaks.

What is read: the fenced ``bash`` / ``python`` blocks (and untagged blocks of command lines) of
``README.md``, ``docs/*.md``, ``docs/results/*.md``, ``docs/rules/*.md`` (those with code) and
``examples/README.md``; the inline ``python ...`` / ``cardarena-...`` commands in their prose;
the command lines of the examples' docstrings; the commands in a Python block's comments
(``# then: python evaluate.py ...``); and every console command's ``--help`` with the example
commands it shows.

How it runs: each block gets a folder of its own holding copies of the checkout's docs, configs,
examples and bench (and tests, for a block that names it), so that a command writing into
them (``python -m tests.test_docs --write``, a picture into ``docs/images/``) writes the copy,
and links to the packages; runs/, results/ and replays/ start empty. The lines of a block run
in order in that folder (a replay recorded by one line is read by the next). Commands run in a
child forked from one warm process per test worker (torch, stable-baselines3 and the suite
imported once), each under a timeout; ``python``, ``.venv/bin/python`` and the console scripts
of ``pyproject.toml`` are what the child runs; ``VAR=value``, ``$VAR``, ``for .. in ..; do ..;
done`` (its first and last values), ``nice -n N``, ``\`` continuations and globs are read as a
shell would; ``make demo`` runs its Makefile recipe.

Budgets shrink by one table (:data:`TINY`: ``--deals 1000`` -> ``--deals 1``, ``--workers 2``
-> 1, ``total_timesteps=200_000`` -> 64, search agents' ``worlds=`` / ``iterations=``, ...).
What each kind of command gets:

* ``evaluate.py`` / ``cardarena-evaluate``, the examples, Python blocks, the replay tool: run;
* ``train.py``: run tiny (:func:`tiny_training`) in the README and the Makefile's demo and
  where a block reads the run it makes (privileged_critic.md); elsewhere (the measured runs of
  docs/results/, the help's examples) checked as train.py checks a command before any work
  (the config, every override), not trained;
* ``bench/`` scripts: parsed by the script's own parser, not measured (:data:`PARSED_ONLY`);
* :data:`NOT_RUN` (``make test`` is this suite, ``pip install`` needs the network, ...) and
  :data:`SCRIPTS_ELSEWHERE`: reported with the reason;
* an inline span that is a syntax (``FILE``, ``X``, ``...``, ``[--seat N]``, ``<game>``): skipped.

A block that cannot run here is marked in the doc itself by ``<!-- not run: REASON -->`` on the
line above it (or just before an inline span); the marks are few, listed with their reasons,
and a mark that marks nothing fails. Placeholders of the measured runs' commands (``SEED``,
``RUN_DIR``, ``<file>``) have one value each (:data:`PLACEHOLDERS`); files a doc tells the
reader to write are written as it describes them (:data:`WRITTEN_BY_THE_READER`).
"""

from __future__ import annotations

import ast
import functools
import glob
import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: copied into every block's folder (commands may write into them); the rest is linked
COPIED = ("docs", "configs", "examples", "bench", "tests")
LINKED = ("agents", "envs", "cardarena", "evaluate.py", "train.py", "pyproject.toml", "setup.py")
COPIED_FILES = ("README.md", "Makefile")

PYTHONS = {"python", "python3", ".venv/bin/python", ".venv/bin/python3"}
#: the console scripts, as pyproject.toml installs them
CONSOLE = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]

#: command (its first words) -> why it is not run here
NOT_RUN = {
    "make test": "it is this test suite (CI runs it: .ci/run)",
    "make lint": "ruff over the repository; CI runs it (.ci/run)",
    "make bench": "a measurement of minutes (bench/throughput.py)",
    "make strength": "a measurement of minutes (bench/strength.py); tests/test_bench_strength.py",
    "make setup": "creates .venv with pip from the network",
    ".venv/bin/pip install": "installs packages from the network",
    "pip install": "installs packages from the network",
    ".venv/bin/tensorboard": "a server that runs until stopped",
    "ray job submit": "needs a Ray cluster",
}
#: make targets whose recipe (in the Makefile) is run instead, line by line, shrunk
MAKE_RECIPES = {"make demo"}
#: scripts not run here, and where they are
SCRIPTS_ELSEWHERE = {
    "examples/rllib_train.py": "needs RLlib and a local Ray instance: tests/test_rllib.py runs it",
}

#: flag -> its tiny value (numeric values only: ``--games flip6 sevn`` names games)
TINY = {
    "--deals": "1",
    "--games": "2",
    "--workers": "1",
    "--timesteps": "64",
    "--eval-games": "4",
    "--warm-start": "2",
    "--seconds": "0.05",
    "--steps": "200",
    "--pairs": "1",
    "--repeats": "1",
    "--rollouts": "2",
    "--iterations": "1",
    "--batch": "64",
    "--env-runners": "0",
}
#: appended to every tournament and training command (a flag already there is kept)
QUIET = {"evaluate": ["--no-progress", "--deals", "1"], "train": ["--no-progress"]}
#: an agent spec's budget -> its tiny value (search agents)
SPEC_TINY = [(r"\bworlds=\d+", "worlds=8"), (r"\biterations=\d+", "iterations=16")]
#: the benchmarks' commands are parsed by the script's own parser, not measured: a benchmark
#: takes its time even shrunk (bench/selfplay_speed.py: a minute at --steps 200); several are
#: run small by their own tests (tests/test_throughput.py, test_bench_strength.py,
#: test_best_response.py)
PARSED_ONLY = ("bench/",)
#: where the training commands are run (a tiny run); elsewhere (the measured runs' commands of
#: docs/results/) each is checked as train.py checks it before any work (the config, every
#: override), not trained: training takes seconds even tiny, and these blocks run the pipeline
TRAINED = ("README.md:", "Makefile", "docs/results/privileged_critic.md:")
#: documented refusals: (words of the command) -> (exit status, what it says)
REFUSALS = {
    ("train.py", "--resume"): (2, "holds a finished run"),  # README: changes nothing
}
#: Python blocks: pattern -> tiny replacement
PYTHON_TINY = [
    (r"total_timesteps=[\d_]+", "total_timesteps=64"),
    (r"\.learn\([\d_]+\)", ".learn(64)"),
    (r'MaskablePPO\("MlpPolicy", (\w+)', r'MaskablePPO("MlpPolicy", \1, n_steps=64, batch_size=32'),
    (r"\b(n_envs|num_envs)=4\b", r"\1=2"),
]
#: the placeholders of the docs' commands, and the value each takes here
PLACEHOLDERS = {
    "SEED": "0",
    "RUN_DIR": "runs/doc_run",
    "PLAIN_RUN": "runs/doc_run",
    "PRIVILEGED_RUN": "runs/doc_run",
}
#: files a doc tells the reader to write, as it describes them: name -> text
WRITTEN_BY_THE_READER = {
    # README, "Evaluation": your own policy ranked by evaluate.py
    "my_policy.py": (
        "import numpy as np\n"
        "from cardarena.agents.base import Agent\n\n\n"
        "class MyAgent(Agent):\n"
        "    def act(self, observation, action_mask, view):\n"
        "        return int(self.rng.choice(np.flatnonzero(action_mask)))\n\n\n"
        "def make(game, seed=None):\n"
        "    return MyAgent(seed)\n"
    ),
}
#: seconds one command may take (a tiny training is a few)
TIMEOUT = 120

MARK = re.compile(r"<!--\s*not run:\s*(.*?)\s*-->", re.S)
COMMAND_START = re.compile(
    r"^(?:[A-Z_]+=\S+ )*(?:nice -n \d+ )?"
    r"(?:(?:\.venv/bin/)?python3? (?:-m \w|-c |\S+\.py)|cardarena-\w+ |make \w|\$\w|\w+=|for \w)"
)
INLINE_COMMAND = re.compile(
    r"^(?:[A-Z_]+=\S+ )?(?:\.venv/bin/)?(?:python3? (?:-m (?:cardarena|tests|bench)\S*|\S+\.py)"
    r"|cardarena-(?:train|evaluate|play|replay)) "
)


# ---- reading the docs ------------------------------------------------------------------------------


@dataclass
class Block:
    where: str  # file:line
    kind: str  # "bash" or "python"
    text: str
    not_run: str | None = None  # the reason of a mark, or of NOT_RUN
    then: list[str] = field(default_factory=list)  # commands in a Python block's comments

    @property
    def id(self) -> str:
        return self.where


def doc_files() -> list[Path]:
    rules = [p for p in sorted((DOCS / "rules").glob("*.md")) if "```" in p.read_text()]
    return [
        ROOT / "README.md",
        *sorted(DOCS.glob("*.md")),
        *sorted((DOCS / "results").glob("*.md")),
        *rules,
        ROOT / "examples" / "README.md",
    ]


def mark_above(lines: list[str], i: int) -> str | None:
    """The reason of a ``<!-- not run: ... -->`` on the nearest non-blank line above line i."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    if j >= 0:
        found = MARK.fullmatch(lines[j].strip())
        if found:
            return found.group(1)
    return None


def is_commands(text: str) -> bool:
    first = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return (
        bool(first)
        and all(COMMAND_START.match(ln) or ln.startswith(" ") for ln in first)
        and bool(COMMAND_START.match(first[0]))
    )


def fenced_blocks(path: Path) -> list[Block]:
    rel = path.relative_to(ROOT)
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        opened = re.match(r"^```(\w*)\s*$", lines[i])
        if not opened:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        lang, text = opened.group(1), "\n".join(lines[i + 1 : end])
        kind = {"bash": "bash", "sh": "bash", "shell": "bash", "python": "python"}.get(lang)
        if kind is None and lang == "" and is_commands(text):
            kind = "bash"
        if kind:
            block = Block(f"{rel}:{i + 1}", kind, text, mark_above(lines, i))
            if kind == "python":
                block.then = re.findall(
                    r"#\s*(?:then:\s*)?((?:\.venv/bin/)?python \S+\.py .*)$", text, re.M
                )
            out.append(block)
        i = end + 1
    return out


def is_syntax(command: str) -> bool:
    """A command's form, not a command: ``FILE``, ``X``, ``...``, ``[--seat N]``, ``<clone>``."""
    if "..." in command or "[" in command or "<" in command:
        return True
    return any(re.fullmatch(r"[A-Z][A-Z_/]*", w) for w in command.split())


def inline_commands(path: Path) -> list[Block]:
    rel = path.relative_to(ROOT)
    text = path.read_text(encoding="utf-8")
    out = []
    # fenced blocks blanked out (newlines kept, so line numbers hold): a fence's closing
    # backticks must not pair with the next inline span's opening one
    text = re.sub(
        r"^```.*?^```",
        lambda m: re.sub(r"[^\n]", " ", m.group(0)),
        text,
        flags=re.M | re.S,
    )
    for found in re.finditer(r"(<!--\s*not run:[^>]*-->\s*)?`([^`]+)`", text):
        command = re.sub(r"\s+", " ", found.group(2)).strip()
        if not INLINE_COMMAND.match(command) or is_syntax(command):
            continue
        line = text[: found.start(2)].count("\n") + 1
        mark = MARK.search(found.group(1) or "")
        out.append(Block(f"{rel}:{line}", "bash", command, mark.group(1) if mark else None))
    return out


def docstring_commands(path: Path) -> list[Block]:
    """The indented command lines of an example's docstring."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    doc = re.sub(r"\\\n\s*", " ", doc)  # continued lines
    out = []
    for line in doc.splitlines():
        command = re.sub(r"\s+#.*$", "", line.strip())
        if line.startswith("    ") and INLINE_COMMAND.match(command) and not is_syntax(command):
            out.append(Block(f"{path.relative_to(ROOT)}:docstring-{len(out) + 1}", "bash", command))
    return out


def all_blocks() -> list[Block]:
    blocks = []
    for path in doc_files():
        blocks += fenced_blocks(path) + inline_commands(path)
    for path in sorted((ROOT / "examples").glob("*.py")):
        blocks += docstring_commands(path)
    return blocks


BLOCKS = all_blocks()


# ---- reading a block as a shell would ---------------------------------------------------------------


def shrink(argv: list[str]) -> list[str]:
    """The tiny budget of :data:`TINY` for every flag it names."""
    out, i = [], 0
    while i < len(argv):
        arg = argv[i]
        flag, eq, value = arg.partition("=")
        if flag in TINY and eq and re.fullmatch(r"[\d.]+", value):
            out.append(f"{flag}={TINY[flag]}")
        elif arg in TINY and i + 1 < len(argv) and re.fullmatch(r"[\d_.]+", argv[i + 1]):
            out += [arg, TINY[arg]]
            i += 1
            while i + 1 < len(argv) and re.fullmatch(r"[\d_.]+", argv[i + 1]):
                i += 1  # --workers 2 4: one value
        else:
            out.append(arg)
        i += 1
    return out


def script_of(argv: list[str]) -> str | None:
    if argv[0] in PYTHONS and len(argv) > 1:
        return argv[1] if argv[1].endswith(".py") else None
    return None


def kind_of(argv: list[str]) -> str:
    """``evaluate``, ``train`` or ``other``: which budget flags the command gets."""
    script = script_of(argv) or ""
    name = argv[0]
    if script.endswith("evaluate.py") or name == "cardarena-evaluate":
        return "evaluate"
    if (
        script.endswith("train.py")
        and not script.startswith("examples")
        or name == "cardarena-train"
    ):
        return "train"
    return "other"


def tiny_training(argv: list[str], folder: Path) -> list[str]:
    """``--set`` overrides that shrink a run to seconds, for the keys its config has."""
    if "--config" not in argv:
        return []  # --resume: the run's own (tiny) config
    name = argv[argv.index("--config") + 1]
    path = folder / name if (folder / name).exists() else folder / "configs" / f"{name}.yaml"
    cfg = yaml.safe_load(path.read_text())
    sets = {
        "n_envs": 1,
        "vec_env": "dummy",
        "ppo.n_steps": 64,
        "ppo.batch_size": 32,
        "ppo.n_epochs": 1,
        "eval.every": 64,
        "eval.deals": 1,
        "eval.final_deals": 1,
        "checkpoint_every": 64,
        "opponents.snapshot_every": 64,
    }
    if cfg.get("warm_start") and cfg["warm_start"].get("imitate"):
        sets.update({"warm_start.games": 1, "warm_start.epochs": 1, "warm_start.improve": "null"})
    if cfg.get("expert_iteration"):
        sets.update(
            {
                "expert_iteration.rounds": 1,
                "expert_iteration.games_per_round": 1,
                "expert_iteration.epochs": 1,
            }
        )
    out = ["--timesteps", "64"] if "--timesteps" not in argv else []
    for key, value in sets.items():
        out += ["--set", f"{key}={value}"]
    return out


def stand_in_run(run: Path, folder: Path) -> None:
    """For a checked ``--resume RUN_DIR``: the directory of an interrupted run (its config)."""
    config = folder / "configs" / f"{run.name}.yaml"
    if not (run / "config.yaml").exists() and config.exists():
        run.mkdir(parents=True, exist_ok=True)
        shutil.copy(config, run / "config.yaml")


@dataclass
class Command:
    argv: list[str]
    env: dict[str, str]
    text: str


class Unreadable(Exception):
    pass


def expand(word: str, variables: dict[str, str]) -> str:
    def value(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        if name not in variables:
            raise Unreadable(f"${name} is not set in the block")
        return variables[name]

    return re.sub(r"\$\{(\w+)\}|\$(\w+)", value, word)


def logical_lines(text: str) -> list[str]:
    text = re.sub(r"\\\n\s*", " ", text)
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def read_shell(text: str) -> list[Command | str]:
    """The block's commands in order; a ``str`` item is a command of :data:`NOT_RUN` (its
    reason). A loop runs its body for every value."""
    variables: dict[str, str] = {}
    out: list[Command | str] = []

    def one(line: str, extra: dict[str, str]) -> None:
        loop = re.fullmatch(r"for (\w+) in ([^;]+); do (.+?);? done", line)
        if loop:
            values = loop.group(2).split()
            for v in dict.fromkeys([values[0], values[-1]]):  # a loop's budget: first and last
                one(loop.group(3), {**extra, loop.group(1): v})
            return
        for part in re.split(r"\s*(?:;|&&)\s*(?=(?:[^\"']|\"[^\"]*\"|'[^']*')*$)", line):
            if not part:
                continue
            text = expand(part, {**variables, **extra})  # unquoted $P splits into words
            for key, value in PLACEHOLDERS.items():
                text = re.sub(rf"\b{key}\b", value, text)
            words = shlex.split(text, comments=True)
            env = {}
            while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):
                k, _, v = words.pop(0).partition("=")
                env[k] = v
            if not words:
                variables.update(env)
                continue
            if words[:1] == ["nice"]:
                words = words[3:] if words[1:2] == ["-n"] else words[1:]
            reason = next(
                (r for c, r in NOT_RUN.items() if words[: len(c.split())] == c.split()), None
            )
            if reason is not None:
                out.append(f"{' '.join(words[:3])}: not run: {reason}")
                continue
            out.append(Command(words, env, " ".join(words)))

    for line in logical_lines(text):
        line = re.sub(r"(?<=\s)#.*$", "", line).strip()
        one(line, {})
    return out


def make_recipe(target: str) -> str:
    """The recipe lines of a Makefile target, ``$(BIN)/`` read as ``.venv/bin/``."""
    text = (ROOT / "Makefile").read_text()
    body = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", text, re.M)
    assert body, f"the Makefile has no target {target}"
    lines = re.sub(r"\\\n\t*", " ", body.group(1)).splitlines()
    return "\n".join(ln.strip().replace("$(BIN)/", ".venv/bin/") for ln in lines)


# ---- the warm process that runs them -------------------------------------------------------------


def serve() -> None:
    """Read JSON requests on stdin, run each in a forked child, answer on stdout."""
    import matplotlib

    matplotlib.use("Agg")
    import gymnasium  # noqa: F401
    import matplotlib.pyplot  # noqa: F401
    import sb3_contrib  # noqa: F401
    import torch  # noqa: F401

    import cardarena.agents.evaluation.tournament  # noqa: F401
    import cardarena.evaluate  # noqa: F401
    import cardarena.train  # noqa: F401

    out = sys.stdout
    print(json.dumps({"ready": True}), file=out, flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        log = Path(req["cwd"]) / ".command-output.txt"
        start = time.perf_counter()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(req, log)
        deadline = start + req["timeout"]
        timed_out = False
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                _kill(pid)
                os.waitpid(pid, 0)
                timed_out, status = True, 9
                break
            time.sleep(0.02)
        rc = os.waitstatus_to_exitcode(status) if not timed_out else -9
        text = log.read_text(errors="replace") if log.exists() else ""
        reply = {"rc": rc, "timed_out": timed_out, "seconds": time.perf_counter() - start}
        print(json.dumps({**reply, "output": text[-20000:]}), file=out, flush=True)


def _kill(pid: int) -> None:
    """The child and its own workers (it leads a process group of its own)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        os.kill(pid, signal.SIGKILL)


def _child(req: dict, log: Path) -> None:
    rc = 1
    try:
        os.setpgid(0, 0)  # its own worker processes go with it on a timeout
        os.chdir(req["cwd"])
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        stdin = Path(req["cwd"]) / ".command-input.txt"
        stdin.write_text(req.get("stdin", ""))
        os.dup2(os.open(stdin, os.O_RDONLY), 0)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115
        os.environ.update(req["env"])
        import torch

        torch.set_num_threads(1)  # the test workers share the cores
        if req.get("check_only"):
            _stop_before_training()
        if req.get("parse_only"):
            _stop_after_parsing()
        if "PYTHONPATH" in req["env"]:
            sys.path[:0] = [os.path.abspath(p) for p in req["env"]["PYTHONPATH"].split(":")]
        rc = _run(req["argv"])
    except SystemExit as done:
        code = done.code
        rc = code if isinstance(code, int) else (0 if code is None else 1)
        if isinstance(code, str):
            print(code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
        rc = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(rc if isinstance(rc, int) else 1)


def _stop_before_training() -> None:
    """train.py checks its config and every override, then stops before the first step."""
    import cardarena.train as command

    def stop(cfg, *args, **kwargs):
        print(f"checked: {cfg.game} config with every override; not trained here")
        raise SystemExit(0)

    command.train = stop
    command._expert_iteration = stop


def _stop_after_parsing() -> None:
    """The script's first ``parse_args`` decides: its arguments are accepted, or exit 2."""
    import argparse

    parse = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        parsed = parse(self, args, namespace)
        print(f"parsed: {parsed}")
        raise SystemExit(0)

    argparse.ArgumentParser.parse_args = parse_then_stop


def _run(argv: list[str]) -> int:
    import runpy

    name, args = argv[0], argv[1:]
    if name in CONSOLE:
        module, _, func = CONSOLE[name].partition(":")
        import importlib

        sys.argv = [name, *args]
        return getattr(importlib.import_module(module), func)() or 0
    if name not in PYTHONS:
        raise SystemExit(f"not a Python command: {name}")
    if args[:1] == ["-m"]:
        sys.argv = [args[1], *args[2:]]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    elif args[:1] == ["-c"]:
        sys.argv = ["-c", *args[2:]]
        sys.path.insert(0, os.getcwd())
        exec(compile(args[1], "<string>", "exec"), {"__name__": "__main__"})
    else:
        script = os.path.abspath(args[0])
        sys.argv = args
        sys.path.insert(0, os.path.dirname(script))
        runpy.run_path(script, run_name="__main__")
    return 0


class Runner:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__)), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert json.loads(self.proc.stdout.readline())["ready"]

    def run(
        self,
        argv: list[str],
        cwd: Path,
        env=None,
        stdin="",
        timeout=TIMEOUT,
        check_only=False,
        parse_only=False,
    ) -> dict:
        req = {
            "argv": argv,
            "cwd": str(cwd),
            "env": env or {},
            "stdin": stdin,
            "timeout": timeout,
            "check_only": check_only,
            "parse_only": parse_only,
        }
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout + 30)
        assert ready, f"the runner did not answer within {timeout + 30} s"
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def runner():
    r = Runner()
    yield r
    r.close()


def sandbox(tmp_path: Path, tests: bool = True) -> Path:
    """A folder that looks like the checkout: copies of what commands may write, links to
    the packages; runs/, results/ and replays/ start empty. ``tests`` (2.6 MB, mostly golden
    files) only for a block that names it."""
    folder = tmp_path / "checkout"
    folder.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
    for name in COPIED:
        if name == "tests" and not tests:
            continue
        shutil.copytree(ROOT / name, folder / name, ignore=ignore)
    for name in COPIED_FILES:
        shutil.copy2(ROOT / name, folder / name)
    for name in LINKED:
        (folder / name).symlink_to(ROOT / name)
    for name, text in WRITTEN_BY_THE_READER.items():
        (folder / name).write_text(text)
    return folder


def globbed(words: list[str], folder: Path) -> list[str]:
    out = []
    for w in words:
        if "*" in w or "<file>" in w:
            found = sorted(glob.glob(w.replace("<file>", "*"), root_dir=folder))
            if "<file>" in w:
                found = found[:1]
            out += found or [w]
        else:
            out.append(w)
    return out


#: commands that read the keyboard: what is typed
KEYBOARD = {"--human": "quit\n", "cardarena-play": "quit\n"}


def budget_only(argv: list[str]) -> bool:
    """An example run with budget flags only: what tests/test_examples.py runs, shrunk."""
    flags = [a for a in argv[2:] if a.startswith("--")]
    return all(f in TINY or f == "--out" for f in flags)


def run_command(
    runner: Runner, cmd: Command, folder: Path, trained: bool = False
) -> tuple[dict, list[str]]:
    argv = globbed(cmd.argv, folder)
    script = script_of(argv)
    if script in SCRIPTS_ELSEWHERE:
        return {"rc": 0, "skipped": SCRIPTS_ELSEWHERE[script]}, argv
    if script and script.startswith("examples/") and budget_only(argv):
        return {"rc": 0, "skipped": "its tiny default run is tests/test_examples.py's"}, argv
    argv = shrink(argv)
    kind = kind_of(argv)
    extra = QUIET.get(kind, [])
    if kind == "evaluate" and ({"--human", "--describe", "--help"} & set(argv)):
        extra = []
    for i, flag in enumerate(extra):
        if flag.startswith("--") and flag not in argv:
            value = (
                extra[i + 1] if i + 1 < len(extra) and not extra[i + 1].startswith("--") else None
            )
            argv += [flag] + ([value] if value else [])
    argv = [functools.reduce(lambda w, r: re.sub(r[0], r[1], w), SPEC_TINY, a) for a in argv]
    module = argv[2] if argv[0] in PYTHONS and argv[1:2] == ["-m"] else ""
    parse_only = (script or module.replace(".", "/")).startswith(PARSED_ONLY)
    check_only = False
    if kind == "train" and "--help" not in argv:
        argv += tiny_training(argv, folder)
        check_only = not trained
        if check_only and "--resume" in argv:
            stand_in_run(folder / argv[argv.index("--resume") + 1], folder)
    stdin = next((typed for flag, typed in KEYBOARD.items() if flag in argv), "")
    reply = runner.run(argv, folder, cmd.env, stdin, check_only=check_only, parse_only=parse_only)
    refusal = next(
        (r for words, r in REFUSALS.items() if all(w in " ".join(argv) for w in words)), None
    )
    if refusal and reply["rc"] == refusal[0] and refusal[1] in reply["output"]:
        reply = {**reply, "rc": 0, "refused": refusal[1]}
    if check_only and reply["rc"] == 0:
        reply["checked"] = "checked, not trained"
    if parse_only and reply["rc"] == 0:
        reply["checked"] = "parsed by its script, not measured"
    return reply, argv


def expand_make(items: list[Command | str]) -> list[Command | str]:
    out: list[Command | str] = []
    for item in items:
        if isinstance(item, Command) and " ".join(item.argv[:2]) in MAKE_RECIPES:
            out += read_shell(make_recipe(item.argv[1]))
        else:
            out.append(item)
    return out


def run_block(runner: Runner, block: Block, folder: Path) -> list[str]:
    """Run every command of the block in order; the report lines; fail on the first error."""
    report = []
    if block.kind == "python":
        code = block.text
        for pattern, tiny in PYTHON_TINY:
            code = re.sub(pattern, tiny, code)
        (folder / "block.py").write_text(code)
        items: list[Command | str] = [Command(["python", "block.py"], {}, "the block")]
        for then in block.then:
            items += read_shell(then)
    else:
        try:
            items = expand_make(read_shell(block.text))
        except Unreadable as err:
            pytest.fail(f"{block.where}: cannot read the block as shell: {err}")
    assert items, f"{block.where}: no command in the block"
    trained = block.where.startswith(TRAINED)
    for item in items:
        if isinstance(item, str):
            report.append(item)
            continue
        reply, argv = run_command(runner, item, folder, trained)
        if "skipped" in reply:
            report.append(f"{item.text}: not run: {reply['skipped']}")
            continue
        shown = " ".join(argv)
        assert not reply["timed_out"], f"{block.where}: timed out after {TIMEOUT} s: {shown}"
        assert reply["rc"] == 0, (
            f"{block.where}: exit status {reply['rc']} from\n  {shown}\n{reply['output']}"
        )
        how = reply.get("checked", "ok")
        if reply.get("refused"):
            how = f"refused as documented ({reply['refused']})"
        report.append(f"{shown}: {how} in {reply['seconds']:.1f} s")
    return report


# ---- the tests ---------------------------------------------------------------------------------


RUN = [b for b in BLOCKS if b.not_run is None]
MARKED = [b for b in BLOCKS if b.not_run is not None]


def test_the_docs_have_blocks_and_few_are_marked_not_run() -> None:
    kinds = {b.kind for b in BLOCKS}
    assert kinds == {"bash", "python"}, kinds
    assert len(RUN) >= 40, f"only {len(RUN)} runnable blocks found: is the reader broken?"
    assert len(MARKED) <= 12, "keep the not-run marks few: shrink the command instead"
    for b in MARKED:
        assert len(b.not_run) >= 10, f"{b.where}: a not-run mark needs a reason"
    print("\n".join(f"not run: {b.where}: {b.not_run}" for b in MARKED))


def test_every_mark_marks_a_block() -> None:
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        marks = len(MARK.findall(text))
        marked = [
            b for b in BLOCKS if b.where.startswith(f"{path.relative_to(ROOT)}:") and b.not_run
        ]
        assert marks == len(marked), (
            f"{path.relative_to(ROOT)}: {marks} not-run marks but {len(marked)} marked blocks: "
            "a mark goes on the line right above a block, or just before an inline `command`"
        )


@pytest.mark.parametrize("block", RUN, ids=lambda b: b.id)
def test_doc_block_runs(block: Block, runner: Runner, tmp_path: Path) -> None:
    report = run_block(runner, block, sandbox(tmp_path, tests="tests" in block.text))
    print("\n".join(report))


HELPS = [
    ["cardarena-train", "--help"],
    ["cardarena-evaluate", "--help"],
    ["cardarena-play", "--help"],
    ["cardarena-replay", "--help"],
    ["cardarena-serve", "--help"],
    ["cardarena-mcp", "--help"],
    ["python", "evaluate.py", "--help"],
    ["python", "train.py", "--help"],
]
#: a help example's placeholder -> what it stands for here
HELP_PLACEHOLDERS = {
    "FILE...": "tests/golden/flip6/*.jsonl",
    "FILE": "<first>tests/golden/flip6/*.jsonl",
}


#: help examples that start a server, which runs until Ctrl-C: such an example passes when the
#: server announces itself (this text in its output) and then stops on Ctrl-C
SERVERS = {"cardarena-serve": "at http://127.0.0.1:"}


def run_server_example(words: list[str], folder: Path, announce: str) -> str:
    """Start a server example in ``folder``, wait for ``announce``, stop it with Ctrl-C; its
    output, or a failure."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env["BROWSER"] = "true"  # --open: webbrowser runs `true URL` instead of a browser
    proc = subprocess.Popen(
        words, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    seen, deadline = "", time.monotonic() + 120
    try:
        while announce not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:
                line = proc.stdout.readline()
                if not line:
                    break
                seen += line
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert announce in seen, f"{' '.join(words)} did not start:\n{seen[-3000:]}"
    return seen


def help_examples(text: str) -> list[str]:
    """The example command lines of a help text (indented, before the options)."""
    head = text.split("\noptions:", 1)[0]
    out = []
    for line in head.splitlines():
        command = re.sub(r"\s+#.*$", "", line.strip())
        if line.startswith("    ") and re.match(r"(python3? |cardarena-)\S", command):
            out.append(command)
    return out


@pytest.mark.parametrize("command", HELPS, ids=" ".join)
def test_help_and_its_examples_run(command: list[str], runner: Runner, tmp_path: Path) -> None:
    folder = sandbox(tmp_path)
    reply = runner.run(command, folder)
    assert reply["rc"] == 0 and reply["output"].startswith("usage: "), reply["output"][-2000:]
    examples = help_examples(reply["output"])
    name = command[0] if command[0] != "python" else command[1]
    assert examples, f"{' '.join(command)} shows no example command"
    for example in examples:
        words = []
        for w in shlex.split(example):
            target = HELP_PLACEHOLDERS.get(w, w)
            if target.startswith("<first>"):
                target = sorted(glob.glob(target[7:], root_dir=folder))[0]
            words.append(target)
        if words[0] in SERVERS:
            run_server_example(words, folder, SERVERS[words[0]])
            continue
        reply, argv = run_command(runner, Command(globbed(words, folder), {}, example), folder)
        assert reply["rc"] == 0, (
            f"the example of {name} --help fails:\n  {' '.join(argv)}\n{reply['output'][-3000:]}"
        )


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    serve()
