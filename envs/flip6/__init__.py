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

from cardarena.envs.core.registry import factories
from cardarena.envs.core.spec import load_manifest

SPEC = load_manifest(__name__)  # the game's facts: game.toml beside this file
env, raw_env = factories(SPEC)
