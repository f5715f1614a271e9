"""Ratatat as a PettingZoo AEC environment (rules: ``docs/rules/ratatat.md``, R1-R18).

=================  ===========================================================================
agents             ``player_0`` .. ``player_{n-1}``, n = ``num_players`` in 2..6 (default 4)
action space       ``Discrete(111)``: 0 ``take_discard``, 1 ``draw``, 2+K ``slot K``,
                   6 ``discard``, 7 ``use``, 8 ``redraw``, 9+K ``peek K``, 13 ``knock``,
                   14 ``no_knock``, 15+24K+4N+J ``swap K N J`` (own slot K, seat N's slot J)
observation        ``{"observation": float32[547], "action_mask": int8[111]}`` (encoding.py)
options            ``num_players`` (4), ``first_dealer`` (0, R5), ``max_turns`` (turns per
                   round before the R12 cap; default 30 per player), ``num_rounds`` (R16;
                   default as many as players, 4 with 2), ``memory`` ("perfect_recall"
                   (default), "none": only what is seen since the seat's previous decision,
                   "seer": every slot and hand card visible), ``render_mode``, ``render_seat``
reset options      ``deck`` (card codes ``0``..``9``, ``SWAP``, ``PEEK``, ``DRAW_TWO``, top
                   first: the deal from left of the dealer, then the first discard, then the
                   draw pile), ``scores`` (game totals), ``dealer``, ``round_index`` (0-based)
reward             0 until the end; the lowest totals share +1, the others share -1 (sum 0)
=================  ===========================================================================
"""

from cardarena.envs.core.registry import factories
from cardarena.envs.core.spec import load_manifest

SPEC = load_manifest(__name__)  # the game's facts: game.toml beside this file
env, raw_env = factories(SPEC)
