"""Flip 6 as a PettingZoo AEC environment (rules: ``docs/rules/flip6.md``, F1-F18).

=================  ===========================================================================
agents             ``player_0`` .. ``player_{n-1}``, n = ``num_players`` in 3..6 (default 4)
action space       ``Discrete(8)``: 0 ``stay``, 1 ``hit``, 2+N ``target N`` (absolute seat N)
observation        ``{"observation": float32[225], "action_mask": int8[8]}`` (see encoding.py)
options            ``num_players`` (4), ``first_dealer`` (0, F4), ``target_score`` (60, F17),
                   ``render_mode`` (None, "ansi", "human", "rgb_array"), ``render_seat``
reset options      ``deck`` (card codes, top first), ``scores`` (game totals), ``dealer``
reward             0 until the end; winners share +1, the others share -1 (sum 0)
=================  ===========================================================================
"""

from typing import Any

from cardarena.envs.core.aec import CardGameEnv, GameSpec
from cardarena.envs.core.registry import register_game
from cardarena.envs.flip6.encoding import OBS_SIZE, encode, render, view
from cardarena.envs.flip6.pictures import layout
from cardarena.envs.flip6.rules import Flip6Game

SPEC = GameSpec(
    name="flip6",
    engine_cls=Flip6Game,
    obs_size=OBS_SIZE,
    encode=encode,
    render=render,
    view=view,
    reset_options=("deck", "scores", "dealer"),
    extra={"picture": layout},
)


def env(**options: Any) -> CardGameEnv:
    """Flip 6 with the safety checks on (what users and tests should take)."""
    return CardGameEnv(SPEC, checks=True, **options)


def raw_env(**options: Any) -> CardGameEnv:
    """Flip 6 without the safety checks (the engine still refuses illegal actions)."""
    return CardGameEnv(SPEC, checks=False, **options)


register_game(SPEC, __name__)
