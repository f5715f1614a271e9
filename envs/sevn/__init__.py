"""SEVN as a PettingZoo AEC environment (rules: ``docs/rules/sevn.md``, S1-S27).

=================  ===========================================================================
agents             ``player_0`` .. ``player_{n-1}``, n = ``num_players`` in 2..8 (default 4)
action space       ``Discrete(14)``: 0 ``pass``, 1 ``draw``, 2+N ``target N`` (absolute seat N),
                   10 ``fork 0``, 11 ``fork 1``, 12 ``keep``, 13 ``discard``
observation        ``{"observation": float32[576], "action_mask": int8[14]}`` (see encoding.py)
options            ``num_players`` (4), ``first_dealer`` (0, S7), ``target_score`` (250, S27),
                   ``render_mode`` (None, "ansi", "human", "rgb_array"), ``render_seat``
reset options      ``deck`` (card codes, top first), ``scores`` (game totals), ``dealer``
reward             0 until the end; the winner gets +1, the others share -1 (sum 0)
=================  ===========================================================================

Typical game length, 4 players, target 250 (``python bench/sevn_game_lengths.py --players 4 --games 400 300``,
deck seeds 0..N-1, every seat the same agent):

==========  =====  ==========================  ===================  ==============
play        games  decisions/game (5%-95%)     hands/game (5%-95%)  decisions/hand
==========  =====  ==========================  ===================  ==============
random      400    138 (111-165)               18.0 (14-22)         7.7
``ev``      300    150 (112-193)               9.0 (7-12)           16.7
==========  =====  ==========================  ===================  ==============
"""

from cardarena.envs.core.registry import factories
from cardarena.envs.core.spec import load_manifest

SPEC = load_manifest(__name__)  # the game's facts: game.toml beside this file
env, raw_env = factories(SPEC)
