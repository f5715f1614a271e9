"""Workers never outlive their parent: a worker process calls :func:`watch_parent` first.

When a parent is killed (``SIGKILL`` included, which runs no clean-up), its worker processes are
handed to another parent; a worker that goes on would play games nobody reads, holding a core
and memory. :func:`watch_parent` starts a daemon thread that looks every ``interval`` seconds at
the process that started this worker (``multiprocessing.parent_process()``, else the parent)
and at this process's parent, and ends the worker at once (``os._exit``) when the first has
gone or the second has changed (the worker was handed to another process). A polling thread,
not the kernel's parent-death signal: that signal follows the thread that forked the worker,
which in a process pool is not always the main thread.
"""

from __future__ import annotations

import os
import threading
import time

#: seconds between two looks at the parent
INTERVAL = 0.5
_STARTED: list[int] = []


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but another user's (the pid was reused): gone for us
        return False
    return True


def watch_parent(interval: float = INTERVAL) -> None:
    """End this process when its starter dies (see the module docstring); once per process."""
    if _STARTED and _STARTED[0] == os.getpid():
        return
    _STARTED[:] = [os.getpid()]
    import multiprocessing

    # the process that started this one (not today's parent: that may be a fork server, or the
    # starter may have died while this worker was still importing)
    starter = multiprocessing.parent_process()
    starter_pid = starter.pid if starter is not None and starter.pid else os.getppid()
    parent = os.getppid()

    def gone() -> bool:
        return os.getppid() != parent or not _exists(starter_pid)

    if gone():
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(interval)
            if gone():
                os._exit(1)

    threading.Thread(target=watch, name="cardarena-parent-watch", daemon=True).start()
