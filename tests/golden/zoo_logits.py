"""Golden logits of every zoo network on recorded observations.

For each ``agents/zoo/NAME.zip``, seeded random games of its game give ``DECISIONS`` decision
points; their observations, legal masks and the network's logits over the legal actions are
stored in ``tests/golden/zoo/NAME.npz``. ``tests/test_zoo_logits.py`` recomputes both in
milliseconds: a broken checkpoint, a changed loader or forward pass moves the logits; a changed
encoder moves the observations.

    python tests/golden/zoo_logits.py --write    # record anew (a retrained zoo agent)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cardarena.agents import ZOO_DIR, checkpoint, make_agent  # noqa: E402
from cardarena.envs.core.registry import get_spec  # noqa: E402

OUT = Path(__file__).resolve().parent / "zoo"
DECISIONS = 48
#: table size per game for the recorded games (thegame: its zoo agent plays 2-player teams)
PLAYERS = {"thegame": 2}


def zoo_agents() -> list[str]:
    return sorted(p.stem for p in ZOO_DIR.glob("*.zip"))


def record_observations(game: str) -> tuple[np.ndarray, np.ndarray]:
    """(observations, legal masks) at every 3rd decision of seeded random games."""
    spec = get_spec(game)
    engine = spec.make_engine(num_players=PLAYERS.get(game, 4))
    obs, masks = [], []
    seed = 0
    while len(obs) < DECISIONS:
        state = engine.new_game(np.random.default_rng(seed))
        rng = np.random.default_rng(1000 + seed)
        step = 0
        while not engine.is_over(state) and len(obs) < DECISIONS:
            seat = engine.current_player(state)
            legal = engine.legal_actions(state)
            if step % 3 == 0 and len(legal) > 1:
                mask = np.zeros(engine.num_actions, np.int8)
                mask[legal] = 1
                obs.append(spec.encode(state, seat))
                masks.append(mask)
            engine.apply(state, legal[int(rng.integers(len(legal)))], seat)
            step += 1
        seed += 1
    return np.stack(obs), np.stack(masks)


def logits(name: str, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    meta, _ = checkpoint.read(ZOO_DIR / f"{name}.zip")
    agent = make_agent(meta["game"], f"zoo:{name}")
    return agent.actor.masked_logits(obs, masks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    if not args.write:
        parser.error("this script only records (--write); the check is tests/test_zoo_logits.py")
    OUT.mkdir(exist_ok=True)
    for name in zoo_agents():
        game = checkpoint.read(ZOO_DIR / f"{name}.zip")[0]["game"]
        obs, masks = record_observations(game)
        np.savez_compressed(
            OUT / f"{name}.npz", observations=obs, masks=masks, logits=logits(name, obs, masks)
        )
        print(f"wrote {OUT / name}.npz ({len(obs)} decisions of {game})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
