"""Golden observation digests: what every encoder gives, pinned, so a speed change cannot move a bit.

Trained checkpoints depend on the exact observation vectors, so every ``encoding.py`` change must
keep ``encode`` bit-identical (dtype float32, shape, values, and 0.0 vs -0.0), and ``view`` /
``render`` equal. For every game, player count and the options that change the encoding (``option_sets`` of the game's
manifest), random
games are played from fixed seeds; at their first and last state and at random decision points
every seat's observation is hashed (and, on every third such state, its ``view`` and ``render``
text, and the public render). The states come one after the other from running games, as in
training, so the encoders' per-row caches are exercised too.

    python tests/golden/observations.py            # check against tests/golden/observations.json
    python tests/golden/observations.py --write    # record anew (only for an intended change)

``tests/test_observation_digests.py`` runs the check for every configuration.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardarena import envs  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "observations.json"
#: decision points hashed per configuration, and the chance that a decision point is one
STATES_PER_CONFIG = 120
CHECK_PROB = 0.2


def configs() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for name in envs.names():
        cls = envs.get_spec(name).engine_cls
        for n in range(cls.min_players, cls.max_players + 1):
            for opts in envs.get_spec(name).option_sets:  # the options that change the encoding
                out.append((name, n, opts))
    return out


def key(name: str, n: int, options: dict[str, Any]) -> str:
    tag = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{name}-{n}p" + (f"-{tag}" if tag else "")


def _plain(x: Any) -> Any:
    if isinstance(x, np.ndarray | np.generic):
        return x.tolist()
    if isinstance(x, set | frozenset):
        return sorted(x, key=repr)
    raise TypeError(f"cannot hash a {type(x).__name__} in a view")


def _text(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=_plain).encode()


def state_digests(name: str, n: int, options: dict[str, Any]) -> list[list[Any]]:
    """``[game, step, encode digest, text digest or ""]`` for each hashed state, in order."""
    spec = envs.get_spec(name)
    engine = spec.make_engine(num_players=n, **options)
    rows: list[list[Any]] = []
    game = 0
    while len(rows) < STATES_PER_CONFIG:
        state = engine.new_game(np.random.default_rng(game))
        rng = np.random.default_rng(10**6 + game)
        step = 0
        while True:
            over = engine.is_over(state)
            if step == 0 or over or rng.random() < CHECK_PROB:
                obs = hashlib.sha256()
                text = hashlib.sha256() if len(rows) % 3 == 0 else None
                for seat in range(n):
                    x = spec.encode(state, seat)
                    obs.update(f"{x.dtype.str}{x.shape}".encode())
                    obs.update(x.tobytes())
                    if text is not None:
                        text.update(_text(spec.view(state, seat)))
                        text.update(spec.render(state, seat).encode())
                if text is not None:
                    text.update(spec.render(state, None).encode())
                rows.append(
                    [game, step, obs.hexdigest()[:16], text.hexdigest()[:16] if text else ""]
                )
            if over:
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
            step += 1
        game += 1
    return rows


def first_difference(expected: list[list[Any]], got: list[list[Any]]) -> str | None:
    for want, have in zip(expected, got, strict=False):
        if want != have:
            part = "encode" if want[2] != have[2] else "view/render"
            return f"game {want[0]} step {want[1]}: {part} differs"
    if len(expected) != len(got):
        return f"{len(got)} states hashed, {len(expected)} recorded"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the digests anew")
    args = parser.parse_args(argv)
    got = {key(*c): state_digests(*c) for c in configs()}
    if args.write:
        GOLDEN.write_text(json.dumps(got, separators=(",", ":")) + "\n")
        print(f"wrote {GOLDEN} ({len(got)} configurations)")
        return 0
    golden = json.loads(GOLDEN.read_text())
    bad = [f"{k}: {d}" for k in got if (d := first_difference(golden.get(k, []), got[k]))]
    print("\n".join(bad) or f"all {len(got)} configurations match")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
