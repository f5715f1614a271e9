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
from cardarena.envs.core.spec import GameSpec, GoldenCase, Ladder, SearchRow, ZooClaim, lineup


def _golden() -> tuple[GoldenCase, ...]:
    """1-5 players x signals off / on x 2 deals; min_cards_when_empty 2; first_player."""
    cases = []
    for n in range(1, 6):
        for signals in (False, True):
            for k in range(2):
                opts: dict = {"signals": signals}
                if k == 1 and n > 1:
                    opts["first_player"] = n - 1
                players = lineup(("planner", "greedy", "random"), n, k + int(signals))
                cases.append(GoldenCase(100 * n + 10 * signals + k, players, opts))
    return (
        *cases,
        GoldenCase(901, ("planner", "planner"), {"min_cards_when_empty": 2}),
        GoldenCase(
            902, ("greedy", "random", "planner"), {"min_cards_when_empty": 2, "signals": True}
        ),
    )


SPEC = GameSpec(
    name="thegame",
    summary="cooperative: 98 cards onto two ascending and two descending piles",
    engine="cardarena.envs.thegame.rules:TheGame",
    encoder="cardarena.envs.thegame.encoding",
    obs_size=410,
    rule_letter="G",
    hides_information=True,
    cooperative=True,
    reset_options=("deck", "first_player", "piles"),
    picture="cardarena.envs.thegame.pictures:layout",
    privileged="cardarena.envs.thegame.privileged",
    baselines=("greedy", "planner"),
    baselines_module="cardarena.agents.baselines.thegame",
    option_sets=tuple(
        {"signals": s, "min_cards_when_empty": k} for s in (False, True) for k in (1, 2)
    ),
    rule_options={"signals": (False, True), "min_cards_when_empty": (1, 2)},
    golden_grid=("signals",),
    play_tables=({"num_players": 3, "signals": True},),
    golden=_golden(),
    # the team claim is "does not beat the planner team": nothing is checked
    zoo=(ZooClaim("thegame", num_players=2),),
    ladders=(Ladder("thegame", {"num_players": 2}, 150),),
    search=(
        SearchRow("thegame_2p", "ismcts:iterations=200", num_players=2),
        SearchRow("thegame_4p", "ismcts:iterations=200", num_players=4),
    ),
    speed_floors={4: 2.0, 5: 2.0},
)

env, raw_env = factories(SPEC)
