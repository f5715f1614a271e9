"""Today's encoders give exactly what the pre-optimisation ones did (issue 9).

Trained checkpoints depend on the exact observation vectors, so every speed change of an
``encoding.py`` must keep ``encode`` bit-identical (same dtype float32, same shape, same values) for
every seat of every state, and ``view`` / ``render`` equal. The reference is a verbatim copy of the
old modules (``tests/reference_encoders.py``). States are random mid-game points (and the first and
last state) of random games, for every player count and the options that change the encoding:
ratatat ``memory``, thegame ``signals`` / ``min_cards_when_empty``, suicidium ``mode`` /
``expansion``, and short games (flip6 / sevn ``target_score``, ratatat ``max_turns`` /
``num_rounds``). The encoders memoise per-row parts across calls: the states come one after the
other from running games, as in training, so cached and fresh parts are both compared.
A part appended to a game's observation later (sevn's "my next card", :data:`APPENDED`) is checked
against its own slow computation; the reference part before it must still be bit-identical.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import numpy as np
import pytest
from reference_encoders import REFERENCE

import envs

#: random mid-game states compared per configuration (every seat of each); raise it for a deep
#: one-off check: CARDARENA_EQUIVALENCE_STATES=5000 pytest tests/test_encoder_equivalence.py
STATES_PER_CONFIG = int(os.environ.get("CARDARENA_EQUIVALENCE_STATES", "300"))
#: chance that a decision point is compared (spreads the states over many games)
CHECK_PROB = 0.2

OPTIONS: dict[str, list[dict[str, Any]]] = {
    # short games as well: more game ends, banks that win, last rounds
    "flip6": [{}, {"target_score": 20}],
    "sevn": [{}, {"target_score": 60}],
    "ratatat": [{"memory": m} for m in ("perfect_recall", "none", "seer")]
    + [{"max_turns": 6, "num_rounds": 2}],
    "thegame": [{"signals": s, "min_cards_when_empty": k} for s in (False, True) for k in (1, 2)],
    "suicidium": [
        {"mode": m, "expansion": x} for m in ("SURVIVE", "DEPRESSION") for x in (False, True)
    ],
}


def _configs() -> list[Any]:
    out = []
    for name in sorted(REFERENCE):  # a game added later has no old encoder to match
        cls = envs.get_spec(name).engine_cls
        for n in range(cls.min_players, cls.max_players + 1):
            for opts in OPTIONS.get(name, [{}]):
                tag = ",".join(f"{k}={v}" for k, v in opts.items())
                out.append(
                    pytest.param(name, n, opts, id=f"{name}-{n}p" + (f"-{tag}" if tag else ""))
                )
    return out


def _sevn_next_card(state: Any, seat: int) -> np.ndarray:
    """sevn's appended parts (after the reference was frozen), computed the slow way: each seat's
    row with each card kind added, scored by the rules (S9-S11, S21-S25)."""
    from envs.sevn.encoding import next_card_counts
    from envs.sevn.rules import IN_HAND, NUM_CARD_KINDS

    if state.over:
        return np.zeros(NUM_CARD_KINDS + 1 + 8 + 2, np.float32)
    counts = next_card_counts(state)
    each = [
        _sevn_deltas(state, s, counts)[-1] if state.status[s] == IN_HAND else 0.0
        for s in range(state.num_players)
    ] + [0.0] * (8 - state.num_players)
    if state.status[seat] != IN_HAND:
        return np.array([0.0] * (NUM_CARD_KINDS + 1) + each + [0.0, 0.0], np.float32)
    mine = _sevn_deltas(state, seat, counts)
    held = [mine[c] for c in state.set_aside[:2]]
    return np.array(mine + each + held + [0.0] * (2 - len(held)), np.float32)


def _sevn_deltas(state: Any, seat: int, counts: list[int]) -> list[float]:
    from envs.sevn.rules import CARD_KIND, SEVN_VALUES, hand_score

    row, now = list(state.table[seat]), hand_score(state.table[seat])
    held = {c for c in row if CARD_KIND[c] in ("number", "ballast")}
    deltas = []
    for card, kind in enumerate(CARD_KIND):
        if kind == "number" and card in held:
            deltas.append(0.0 if state.has_second_chance[seat] else -float(now))  # S9 / S12
        elif kind == "ballast" and card in held:
            deltas.append(0.0)  # S11: only discard
        elif kind in ("number", "ballast"):
            gain = hand_score([*row, card], len(held) + 1 == SEVN_VALUES) - now
            deltas.append(max(0.0, gain) if kind == "ballast" else float(gain))
        elif kind in ("modifier", "bonus"):
            deltas.append(float(hand_score([*row, card]) - now))
        else:
            deltas.append(0.0)
    expected = sum(d * c for d, c in zip(deltas, counts, strict=True)) / max(sum(counts), 1)
    return [min(max(x / 30.0, -1.0), 2.0) for x in [*deltas, expected]]


#: parts appended to a game's observation after its reference encoder was frozen: the new vector
#: is the reference's followed by this part (checked against its own slow computation)
APPENDED = {"sevn": _sevn_next_card}


def _compare(name: str, state: Any, n: int, where: str, text: bool) -> None:
    spec, ref = envs.get_spec(name), REFERENCE[name]
    for seat in range(n):
        new, old = spec.encode(state, seat), ref.encode(state, seat)
        assert new.dtype == np.float32 and old.dtype == np.float32, where
        if name in APPENDED:
            assert new.shape == (spec.obs_size,), where
            np.testing.assert_allclose(
                new[old.shape[0] :], APPENDED[name](state, seat), atol=1e-6, err_msg=where
            )
            new = new[: old.shape[0]].copy()
        assert new.shape == old.shape, where
        if not np.array_equal(new, old):
            bad = np.flatnonzero(new != old)[:8].tolist()
            raise AssertionError(
                f"{where} seat {seat}: encode differs at {bad}: new {new[bad].tolist()} "
                f"old {old[bad].tolist()}"
            )
        # bit-identical, not just equal (0.0 vs -0.0, NaN)
        assert new.tobytes() == old.tobytes(), f"{where} seat {seat}: encode bytes differ"
        assert new.flags.writeable and new.flags.c_contiguous, where
        if text:
            assert spec.view(state, seat) == ref.view(state, seat), f"{where} seat {seat}: view"
            assert spec.render(state, seat) == ref.render(state, seat), f"{where} seat {seat}"
    if text:
        assert spec.render(state, None) == ref.render(state, None), f"{where}: render(None)"


@pytest.mark.parametrize(("name", "n", "options"), _configs())
def test_encode_view_render_match_the_reference(name: str, n: int, options: dict[str, Any]) -> None:
    engine = envs.get_spec(name).make_engine(num_players=n, **options)
    checked = 0
    game = 0
    while checked < STATES_PER_CONFIG:
        state = engine.new_game(np.random.default_rng(game))
        rng = np.random.default_rng(10**6 + game)
        step = 0
        while True:
            over = engine.is_over(state)
            if step == 0 or over or rng.random() < CHECK_PROB:
                # view/render are slower and change less: compare them on a third of the states
                _compare(
                    name,
                    state,
                    n,
                    f"{name} {n}p {options} game {game} step {step}",
                    checked % 3 == 0,
                )
                checked += 1
            if over:
                break
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(rng.integers(len(legal)))])
            step += 1
        game += 1


def test_thegame_inconsistent_state_takes_the_old_arithmetic() -> None:
    """thegame builds its card vectors from bitmasks; a state no game reaches (a card both in a
    hand and on a pile) goes through the old per-element arithmetic and still matches."""
    spec = envs.get_spec("thegame")
    engine = spec.make_engine(num_players=2)
    state = engine.new_game(np.random.default_rng(3))
    odd = copy.deepcopy(state)
    odd.piles[0].append(odd.hands[0][0])
    for s in (state, odd):
        for seat in range(2):
            new, old = spec.encode(s, seat), REFERENCE["thegame"].encode(s, seat)
            assert new.dtype == old.dtype and new.tobytes() == old.tobytes()
