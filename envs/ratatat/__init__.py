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
from cardarena.envs.core.spec import (
    GATED,
    GameSpec,
    GoldenCase,
    Ladder,
    SearchRow,
    ZooClaim,
    lineup,
)

MEMORY = ("perfect_recall", "none", "seer")


def _golden() -> tuple[GoldenCase, ...]:
    """2-6 players x memory perfect_recall / none / seer; num_rounds 1, max_turns cap, dealers."""
    cases = []
    for n in range(2, 7):
        for k, memory in enumerate(MEMORY):
            opts: dict = {"memory": memory}
            if n >= 4:
                opts["num_rounds"] = 2  # keeps the bigger tables' files short
            cases.append(
                GoldenCase(100 * n + k, lineup(("tracker", "greedy", "random"), n, k), opts)
            )
    return (
        *cases,
        GoldenCase(901, ("random", "random", "tracker"), {"max_turns": 6}),  # R12 cap
        GoldenCase(902, ("greedy", "tracker"), {"num_rounds": 1, "first_dealer": 1}),
        GoldenCase(903, ("tracker",) * 4, {"num_rounds": 1, "memory": "none"}),
        GoldenCase(904, ("random",) * 5, {"num_rounds": 1, "first_dealer": 3}),
        GoldenCase(905, ("tracker", "random"), {"memory": "seer", "max_turns": 10}),
    )


SPEC = GameSpec(
    name="ratatat",
    summary="memory game: four face-down cards, swap / peek / draw-two, lowest total wins",
    engine="cardarena.envs.ratatat.rules:RatatatGame",
    encoder="cardarena.envs.ratatat.encoding",
    obs_size=547,
    rule_letter="R",
    hides_information=True,
    reset_options=("deck", "scores", "dealer", "round_index"),
    picture="cardarena.envs.ratatat.pictures:layout",
    privileged="cardarena.envs.ratatat.privileged",
    baselines=("greedy", "tracker"),
    baselines_module="cardarena.agents.baselines.ratatat",
    option_sets=(*({"memory": m} for m in MEMORY), {"max_turns": 6, "num_rounds": 2}),
    rule_options={"memory": MEMORY},
    golden_grid=("memory",),
    play_tables=(
        {"num_players": 3, "num_rounds": 1},
        {"num_players": 2, "num_rounds": 1, "memory": "none"},
        {"num_players": 2, "num_rounds": 1, "memory": "seer"},
    ),
    golden=_golden(),
    zoo=(ZooClaim("ratatat", claim="beats"),),
    ladders=(Ladder("ratatat", {"num_players": 3}, 300),),
    search=(SearchRow("ratatat", GATED.format(worlds=6, least=4, policy="tracker")),),
    speed_floors={4: 2.0, 6: 2.0},
    round_values=(("tracker", 4),),
)

env, raw_env = factories(SPEC)
