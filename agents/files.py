"""Writing a user's files safely: atomically, one writer at a time, backups never overwritten.

* :func:`atomic_write_text` / :func:`atomic_writer`: the text goes to a temporary file with a
  unique name beside the target (``.tmp_<name>.<random>``), flushed to disk, then renamed over it:
  a reader sees the old file or the new one, never half of one, and two runs writing the same
  file at once each rename a complete file of their own.
* :class:`OutputLock`: one run per output. It holds an advisory lock on ``<path>.lock`` for as
  long as the run writes ``path``; a second run asking for the same output is refused at once
  with a :class:`ConfigError` naming the file and the process holding it. The lock is the
  operating system's (``fcntl.flock``; ``msvcrt.locking`` on Windows), so it goes when the process
  dies, however it dies: a killed run never leaves a stale lock behind.
* :func:`numbered_backup`: moves a file aside to the first free ``<name>.bak<k>`` (k = 1, 2, ...):
  a second backup never replaces the first.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from cardarena.envs.core.errors import ConfigError

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]


@contextlib.contextmanager
def atomic_writer(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """A file to write ``path``'s new content to; renamed over ``path`` when the block ends
    without an error (else removed, and ``path`` is left as it was)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".tmp_{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (:func:`atomic_writer`)."""
    with atomic_writer(path) as f:
        f.write(text)


def numbered_backup(path: str | Path) -> Path | None:
    """Move ``path`` aside to the first free ``<name>.bak<k>``; the backup's path (None if there
    was no file)."""
    path = Path(path)
    if not path.exists():
        return None
    k = 1
    while (backup := path.with_name(f"{path.name}.bak{k}")).exists():
        k += 1
    path.replace(backup)
    return backup


class OutputLock:
    """One writer per output: ``with OutputLock(path, "--out"):`` (see the module docstring).

    ``option`` names what the user gave (``--out``, ``--output-dir``), for the error's advice.
    """

    def __init__(self, path: str | Path, option: str = "the output") -> None:
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.option = option
        self._file: IO[str] | None = None

    def acquire(self) -> OutputLock:
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        f = self.lock_path.open("a+")
        try:
            _lock(f)
        except OSError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            raise ConfigError(
                f"{self.path} is being written by another run ({holder}); wait for it to finish "
                f"or choose another {self.option}"
            ) from None
        f.seek(0)
        f.truncate()
        f.write(f"pid {os.getpid()}\n")
        f.flush()
        self._file = f
        return self

    def release(self) -> None:
        if self._file is None:
            return
        with contextlib.suppress(OSError):
            self._file.seek(0)
            self._file.truncate()
        self._file.close()  # closing drops the lock
        self._file = None

    def __enter__(self) -> OutputLock:
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()


def _lock(f: IO[str]) -> None:
    """An exclusive, non-blocking lock on the open file ``f`` (OSError when it is held)."""
    if fcntl is not None:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    import msvcrt  # pragma: no cover (Windows)

    f.seek(0)
    msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]


def check_writable(what: str, path: Path, directory: bool) -> None:
    """``path`` can be written (a ConfigError naming ``what`` otherwise): a directory
    (``directory``) or a file, whose parents are (or can be made) directories."""
    if directory and path.exists() and not path.is_dir():
        raise ConfigError(f"{what} {path} is a file, not a directory; give a directory")
    if not directory and path.is_dir():
        raise ConfigError(f"{what} {path} is a directory; give a file name in it")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ConfigError(f"{what} {path}: {parent} is a file, not a directory")
            if not os.access(parent, os.W_OK):
                raise ConfigError(f"{what} {path}: {parent} is not writable")
            break


# ---- YAML a user gives (configs, --set values) -----------------------------------------------------

#: bounds on a user's YAML, checked on the parsed node graph before any value is built, so that
#: a few bytes of nested aliases (a "billion laughs") are refused instead of expanded
YAML_MAX_BYTES = 1 << 20
YAML_MAX_NODES = 5_000
YAML_MAX_DEPTH = 20


def load_yaml(text: str, where: str) -> Any:
    """``yaml.safe_load(text)`` within :data:`YAML_MAX_BYTES`, :data:`YAML_MAX_NODES` (counting
    each use of an alias) and :data:`YAML_MAX_DEPTH`; a ConfigError naming ``where`` and the
    limit otherwise (a YAML syntax error is ``yaml.YAMLError``, as from ``safe_load``)."""
    import yaml

    if len(text) > YAML_MAX_BYTES:
        raise ConfigError(
            f"{where}: {len(text)} characters of YAML; the limit is {YAML_MAX_BYTES} "
            "(agents/files.py YAML_MAX_BYTES): a config is a few hundred"
        )
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_yaml_size(node, where)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _check_yaml_size(root: Any, where: str) -> None:
    import yaml

    count = 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > YAML_MAX_NODES:
            raise ConfigError(
                f"{where}: more than {YAML_MAX_NODES} YAML values (aliases counted each time they "
                "are used); the limit is YAML_MAX_NODES in agents/files.py: write the values out"
            )
        if depth > YAML_MAX_DEPTH:
            raise ConfigError(
                f"{where}: YAML nested deeper than {YAML_MAX_DEPTH} levels (YAML_MAX_DEPTH in "
                "agents/files.py); a config is a few levels deep"
            )
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, depth + 1) for item in node.value)
