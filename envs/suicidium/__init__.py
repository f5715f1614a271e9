"""Suicidium as a PettingZoo AEC environment (rules: ``docs/rules/suicidium.md``, U1-U36).

=================  ===========================================================================
agents             ``player_0`` .. ``player_{n-1}``, n = ``num_players`` in 2..5 (default 4);
                   with 5 players the expansion objects are in the object deck (U35)
action space       ``Discrete(434)``: 0 ``pass``; 1+K ``draw K`` (K 0..7); 9+N ``target N``
                   (absolute seat); 14+c ``play ID``; 119+c ``on ID`` (a card on the table);
                   224+c ``discard ID``; 329+c ``take ID``; c = catalogue index of card ID
                   (``envs/suicidium/catalogue.yaml``), so an action keeps its meaning
observation        ``{"observation": float32[1290], "action_mask": int8[434]}`` (encoding.py)
options            ``num_players`` (4), ``mode`` ("SURVIVE" or "DEPRESSION", any case; U6),
                   ``expansion`` (False; True adds the 8 "Suicidium Party" cards, U32),
                   ``render_mode`` (None, "ansi", "human", "rgb_array"), ``render_seat``
reset options      ``deck`` (action card ids, top first; object codes in it stack the object
                   deck), ``objects`` (object codes, top first), ``hands`` (7 cards at most
                   a seat, U4), ``wp`` (1..10), ``held`` (objects already held per seat, of
                   distinct types without BOOTH, U5), ``first_player``
reward             0 until the end; +1 to the winner, -1 split among the others (zero sum)
=================  ===========================================================================

Decisions (one AEC step each, even with one legal action): ``draw`` (U7), ``main`` (U8, U9),
``target_player`` / ``target_card`` (targets of the card just played), ``respond`` (U10: every
opponent still in the game, clockwise from the active player, then the active player if someone
responded), ``discard`` and ``take`` (choices asked by effects, U26/U28). The acting agent changes
within a turn.

Game length (U31), measured with ``python bench/suicidium_game_lengths.py --games 200`` (4 seats,
base deck, deal seeds 0..199, every seat the same kind of player; a "turn" is one active player's
turn, a "decision" one AEC step of any seat, responses included):

==========  =========  =====================  ==============  ===========================
mode        players    turns mean/median/max  decisions/game  decisions/s (this machine)
==========  =========  =====================  ==============  ===========================
SURVIVE     random     34.0 / 33 / 55         255             ~85k (bare engine)
SURVIVE     heuristic  54.3 / 54 / 97         314             ~30k (with view + agent)
DEPRESSION  random     11.3 / 11 / 29         100             ~54k (bare engine)
DEPRESSION  heuristic  30.6 / 31 / 60         200             ~30k (with view + agent)
==========  =========  =====================  ==============  ===========================

So a random 4-player SURVIVE game lasts tens of turns (about 8-9 turns per seat), as U31 asks;
``tests/test_suicidium_rules.py::test_U31_...`` keeps it there.
"""

from cardarena.envs.core.registry import factories
from cardarena.envs.core.spec import load_manifest

SPEC = load_manifest(__name__)  # the game's facts: game.toml beside this file
env, raw_env = factories(SPEC)
