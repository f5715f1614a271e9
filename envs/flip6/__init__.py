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
from cardarena.envs.core.spec import (
    GATED,
    GameSpec,
    GoldenCase,
    Ladder,
    SearchRow,
    ZooClaim,
    lineup,
)


def _golden() -> tuple[GoldenCase, ...]:
    """3-6 players x 5 deals; target_score 60 and 30; every dealer."""
    cases = []
    for n in range(3, 7):
        for k in range(5):
            opts: dict = {"first_dealer": k % n}
            if k == 4:
                opts["target_score"] = 30
            cases.append(GoldenCase(100 * n + k, lineup(("ev", "threshold", "random"), n, k), opts))
    return tuple(cases)


SPEC = GameSpec(
    name="flip6",
    summary="push-your-luck, 26 cards, first to 60",
    engine="cardarena.envs.flip6.rules:Flip6Game",
    encoder="cardarena.envs.flip6.encoding",
    obs_size=225,
    rule_letter="F",
    reset_options=("deck", "scores", "dealer"),
    picture="cardarena.envs.flip6.pictures:layout",
    privileged="cardarena.envs.flip6.privileged",
    baselines=("threshold", "ev"),
    baselines_module="cardarena.agents.baselines.flip6",
    option_sets=({}, {"target_score": 20}),  # short games too: more game ends, last rounds
    rule_options={"target_score": (60, 30)},
    golden_grid=("target_score",),
    play_tables=({"num_players": 3},),
    golden=_golden(),
    zoo=(ZooClaim("flip6", claim="beats"),),
    ladders=(Ladder("flip6", {"num_players": 3}, 300),),
    search=(SearchRow("flip6", GATED.format(worlds=64, least=6, policy="ev")),),
    speed_floors={4: 2.0, 6: 2.0},
    round_values=(("ev", 4),),
)

env, raw_env = factories(SPEC)
