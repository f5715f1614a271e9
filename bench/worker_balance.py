"""Does ``evaluate.py --workers N`` keep every worker busy? CPU seconds per worker process.

    python bench/worker_balance.py --game flip6 --deals 40 --workers 2 \
        --agents "pimc:worlds=8,rollout=ev,horizon=round" ev ev ev

Runs one tournament (:func:`agents.evaluation.tournament.run_tournament`, as
``evaluate.py`` does) and, every 50 ms, reads the CPU time (user + system) of each worker process
from ``/proc`` (Linux; ``--backend ray``: the ``ray::`` worker processes of the local Ray
instance it starts). Prints the number of chunks, the wall time and each worker's CPU seconds:
with balanced work they are about equal; a worker near 0 sat idle (its start-up and imports cost
about a second of CPU). With one chunk, the games are played in this process (no workers).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _workers(root: int) -> dict[int, float]:
    """CPU seconds of the live worker processes under ``root``: pool workers (its children) and
    Ray workers (``ray::`` processes under the Ray instance it started)."""
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    cmds: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmds[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        parent[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / TICK

    def under(pid: int) -> bool:
        while pid > 1:
            pid = parent.get(pid, 0)
            if pid == root:
                return True
        return False

    out = {}
    for pid, cmd in cmds.items():
        pool = b"spawn_main" in cmd and parent.get(pid) == root
        ray = cmd.startswith((b"ray::IDLE", b"ray::_ray_chunk")) and under(pid)
        if pool or ray:
            out[pid] = cpu[pid]
    return out


def measure(
    game: str,
    agents: list[str],
    deals: int,
    workers: int,
    num_players: int | None,
    backend: str = "local",
) -> dict[str, Any]:
    from cardarena.agents.evaluation import schedule
    from cardarena.agents.evaluation.tournament import run_tournament

    seen: dict[int, float] = {}
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            for pid, cpu in _workers(os.getpid()).items():
                seen[pid] = max(cpu, seen.get(pid, 0.0))
            time.sleep(0.05)

    chunks: list[int] = []
    make_chunks = schedule.make_chunks

    def counted(*args: Any, **kwargs: Any) -> Any:
        made = make_chunks(*args, **kwargs)
        chunks.append(len(made))
        return made

    import cardarena.agents.evaluation.tournament as tournament

    tournament.make_chunks = counted
    watcher = threading.Thread(target=poll, daemon=True)
    watcher.start()
    options = {} if num_players is None else {"num_players": num_players}
    start = time.perf_counter()
    cpu0 = time.process_time()
    try:
        res = run_tournament(
            game, agents, deals, options, workers=workers, progress=False, backend=backend
        )
    finally:
        stop.set()
        watcher.join()
        tournament.make_chunks = make_chunks
    wall = time.perf_counter() - start
    per_worker = sorted((round(v, 1) for v in seen.values()), reverse=True)
    return {
        "game": game,
        "agents": agents,
        "deals": deals,
        "games": len(res.records),
        "workers": workers,
        "backend": backend,
        "chunks": chunks[0] if chunks else 0,
        "wall_seconds": round(wall, 1),
        "main_process_cpu_seconds": round(time.process_time() - cpu0, 1),
        "worker_cpu_seconds": per_worker,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="flip6")
    p.add_argument("--agents", nargs="+", required=True)
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--workers", type=int, nargs="+", default=[2])
    p.add_argument("--num-players", type=int, default=None)
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--out", help="JSON lines of the rows")
    args = p.parse_args(argv)
    rows = [
        measure(args.game, args.agents, args.deals, w, args.num_players, args.backend)
        for w in args.workers
    ]
    print("| backend | workers | games | chunks | wall s | main CPU s | CPU s per worker |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for r in rows:
        per = ", ".join(f"{c:.1f}" for c in r["worker_cpu_seconds"]) or "(no workers)"
        print(
            f"| {r['backend']} | {r['workers']} | {r['games']} | {r['chunks']} | {r['wall_seconds']} "
            f"| {r['main_process_cpu_seconds']} | {per} |"
        )
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
