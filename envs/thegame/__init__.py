"""The Game as a PettingZoo AEC environment (rules: ``docs/rules/thegame.md``, G1-G11).

Cooperative: every seat shares one reward, and one policy is meant to play every seat.

=================  ===========================================================================
agents             ``player_0`` .. ``player_{n-1}``, n = ``num_players`` in 1..5 (default 2)
action space       ``Discrete(405)``: ``(C-2)*4+P`` ``play C P`` (card C in 2..99 on pile P,
                   piles 0-1 ascending, 2-3 descending), 392 ``end``, ``393+3P+V``
                   ``signal P none|wait|help`` (only legal with ``signals`` on)
observation        ``{"observation": float32[410], "action_mask": int8[405]}`` (encoding.py)
options            ``num_players`` (2), ``first_player`` (0, G3), ``min_cards_when_empty``
                   (1, G4; 2 is the source's strict reading), ``signals`` (False, G11),
                   ``render_mode`` (None, "ansi", "human", "rgb_array"), ``render_seat``
reset options      ``deck`` (card codes "2".."99", top first: hands in seat order from seat 0,
                   a full hand each, then the draw pile), ``first_player``, ``piles`` (four
                   lists of codes already placed, for scenarios)
reward             shared: +1/98 to every agent for each card placed (a won game returns 1.0)
=================  ===========================================================================
"""

from cardarena.envs.core.registry import factories
from cardarena.envs.core.spec import load_manifest

SPEC = load_manifest(__name__)  # the game's facts: game.toml beside this file
env, raw_env = factories(SPEC)
