"""Play one game, save it as a replay (checked back against the engine) and as an animated GIF.

    python examples/replay_and_video.py                       # flip6, ev vs threshold vs random
    python examples/replay_and_video.py --game ratatat --agents tracker greedy --seat 0 --out replays/x

The replay (JSON lines, envs/core/replay) steps through with
``python -m cardarena.agents.tools.replay FILE --seat 0``. Frames come from ``render_mode="rgb_array"``;
they are written with Pillow (already installed with matplotlib), so no video encoder is needed.
With moviepy installed, gymnasium's ``RecordVideo`` wrapper writes MP4s of the single-agent env
(``gymnasium.make("cardarena/flip6-v0", render_mode="rgb_array")``) instead.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from cardarena import envs
from cardarena.agents import make_agent
from cardarena.envs.core.replay import record_game, replay_name, verify


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="flip6")
    parser.add_argument("--agents", nargs="+", default=["ev", "threshold", "random"],
                        help="one agent spec per seat")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="the deal")
    parser.add_argument("--seat", default="observer", help="whose view to film (or 'observer')")
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--out", default="replays/examples", help="folder for both files")
    args = parser.parse_args(argv)

    seat = args.seat if args.seat == "observer" else int(args.seat)
    n = len(args.agents)
    env = envs.make(args.game, num_players=n, render_mode="rgb_array", render_seat=seat)
    env.reset(
        seed=args.seed
    )  # deals as engine.new_game(np.random.default_rng(seed)), as replays do
    players = [
        make_agent(args.game, spec, seed=args.seed * n + s) for s, spec in enumerate(args.agents)
    ]
    frames, actions = [env.render()], []
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        s = env.possible_agents.index(name)
        action = players[s].act(obs["observation"], obs["action_mask"], env.unwrapped.view(s))
        env.step(int(action))
        actions.append(int(action))
        frames.append(env.render())  # an (H, W, 3) uint8 array

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / replay_name(args.game, args.seed, args.agents)
    record_game(path, args.game, {"num_players": n}, args.seed, args.agents, actions)
    print(verify(path).line())  # plays the file again through today's engine
    gif = path.with_suffix(".gif")
    first, *rest = [Image.fromarray(f) for f in frames]
    first.save(gif, save_all=True, append_images=rest, duration=int(1000 / args.fps), loop=0)
    print(f"{gif}: {len(frames)} frames; step through the replay with: "
          f"python -m cardarena.agents.tools.replay {path} --seat 0")  # fmt: skip


if __name__ == "__main__":
    main()
