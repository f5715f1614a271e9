"""A/B of one game's encoder: this tree's against another commit's, on the plain loop.

    python bench/encoder_ab.py sevn 4 [--base HEAD] [--steps 40000] [--pairs 10] [--check 3000]

The base encoder is ``envs/<game>/encoding*.py`` of ``--base`` (``git show``), imported as a
package of its own beside this tree's (the rules engine is this tree's for both). First both
encoders are called on the same ``--check`` plain-loop observations and must give the same bytes;
then ``--pairs`` pairs of fresh processes (A B, B A, A B, ...) each play ``--steps`` steps of the
plain AEC loop (``bench/aec_timing.py``: ``reset(seed=0)`` once, ``reset()`` between games, the
random choices from ``default_rng(0)``, so both play the same steps) with one of the two encoders
and report the thread CPU time of the loop. Printed: each pair's ratio tree / base and their
median (below 1: this tree is faster). The whole loop is timed, not ``encode`` alone: a change
that moves work out of the encoder into the engine or the env is seen at its true worth.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardarena import envs  # noqa: E402

PACKAGE = "_encoder_ab_base"


def extract_base(game: str, ref: str, folder: Path) -> None:
    """Write ``ref``'s encoder modules of ``game`` under ``folder/PACKAGE/game``."""
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", ref, f"envs/{game}/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    target = folder / PACKAGE / game
    target.mkdir(parents=True)
    (folder / PACKAGE / "__init__.py").write_text("")
    (target / "__init__.py").write_text("")
    for name in names:
        if not Path(name).name.startswith("encoding") or not name.endswith(".py"):
            continue
        text = subprocess.run(
            ["git", "show", f"{ref}:{name}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        text = text.replace(f"cardarena.envs.{game}.encoding", f"{PACKAGE}.{game}.encoding")
        (target / Path(name).name).write_text(text)


def make_env(game: str, n: int, encode: Any = None) -> Any:
    env = envs.make(game, num_players=n)
    if encode is not None:
        env.spec = dataclasses.replace(env.spec, encode=encode)
    return env


def plain_loop(env: Any, steps: int) -> float:
    """Thread CPU seconds of ``steps`` steps of the plain loop (the same steps for any encoder)."""
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    start = time.thread_time()
    for _ in range(steps):
        if not env.agents:
            env.reset()
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
    return time.thread_time() - start


def check(game: str, n: int, base_encode: Any, steps: int) -> None:
    """Both encoders on the same observations: the same bytes, dtype and shape, or exit."""
    tree_encode = envs.get_spec(game).encode
    seen = [0]

    def both(state: Any, seat: int) -> np.ndarray:
        a, b = tree_encode(state, seat), base_encode(state, seat)
        seen[0] += 1
        if a.dtype != b.dtype or a.shape != b.shape or a.tobytes() != b.tobytes():
            raise SystemExit(f"{game} {n}p: the encoders differ at observation {seen[0]}")
        return a

    plain_loop(make_env(game, n, both), steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("num_players", type=int)
    parser.add_argument("--base", default="HEAD", help="commit of the base encoder (HEAD)")
    parser.add_argument("--steps", type=int, default=40_000)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--check", type=int, default=3_000, help="steps compared first (0: none)")
    parser.add_argument("--child", choices=("tree", "base"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one timed run
        encode = None
        if args.child == "base":
            sys.path.insert(0, args.folder)
            encode = importlib.import_module(f"{PACKAGE}.{args.game}.encoding").encode
        print(plain_loop(make_env(args.game, args.num_players, encode), args.steps))
        return
    with tempfile.TemporaryDirectory() as folder:
        extract_base(args.game, args.base, Path(folder))
        sys.path.insert(0, folder)
        if args.check:
            base_encode = importlib.import_module(f"{PACKAGE}.{args.game}.encoding").encode
            check(args.game, args.num_players, base_encode, args.check)

        def run(which: str) -> float:
            command = [sys.executable, __file__, args.game, str(args.num_players)]
            command += ["--steps", str(args.steps), "--child", which, "--folder", folder]
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            return float(out.split()[-1])

        ratios, tree, base = [], [], []
        for i in range(args.pairs):
            if i % 2:
                b, t = run("base"), run("tree")
            else:
                t, b = run("tree"), run("base")
            tree.append(t)
            base.append(b)
            ratios.append(t / b)
    print(
        f"{args.game} {args.num_players}p, {args.steps} plain-loop steps, {args.pairs} pairs: "
        f"tree {statistics.median(tree):.3f} s, base ({args.base}) {statistics.median(base):.3f} s "
        f"(thread CPU, medians); tree / base {statistics.median(ratios):.3f} "
        f"(pairs {min(ratios):.3f}-{max(ratios):.3f})"
    )


if __name__ == "__main__":
    main()
