"""Workers never outlive their parent (``agents/parent_watch.py``): ``SIGKILL`` the parent, and
every worker process it started is gone within a few seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped counts as ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.2)
    return [p for p in pids if _alive(p)]


def test_a_watched_worker_ends_when_its_parent_is_killed(tmp_path):
    parent = textwrap.dedent(
        """
        import multiprocessing as mp, time
        from cardarena.agents.parent_watch import watch_parent

        def child():
            watch_parent(interval=0.2)
            time.sleep(120)

        if __name__ == "__main__":
            p = mp.get_context("spawn").Process(target=child)
            p.start()
            print(p.pid, flush=True)
            time.sleep(120)
        """
    )
    script = tmp_path / "parent.py"
    script.write_text(parent)
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        child = int(proc.stdout.readline())
        time.sleep(1.0)  # the child has started its watch
        assert _alive(child)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _gone_within([child], 10) == []
    finally:
        proc.kill()


def test_killing_evaluate_with_workers_ends_every_worker(tmp_path):
    cmd = [
        sys.executable,
        "evaluate.py",
        "--game",
        "ratatat",
        "--agents",
        "tracker",
        "random",
        "random",
        "random",
        "--deals",
        "400",
        "--workers",
        "2",
        "--no-progress",
        "--no-report",
        "--out",
        str(tmp_path / "r.json"),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        workers: list[int] = []
        deadline = time.monotonic() + 60
        results = tmp_path / "r.jsonl"
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if results.exists() and results.stat().st_size > 2000:
                break  # games are being played: the pool is up
        workers = [p for p in _children(proc.pid) if _alive(p)]
        assert workers, "evaluate.py started no worker processes"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _gone_within(workers, 15) == [], "workers outlived the killed evaluate.py"
    finally:
        proc.kill()
