"""Rollout policy improvement (agents/improve.py): config checks, the leaf value, the choice."""

from __future__ import annotations

import numpy as np
import pytest

from cardarena.agents.base import Agent
from cardarena.agents.training.improve import (
    Improver,
    LeafValue,
    fit_leaf_value,
    improve_config,
    improved_dataset,
)
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.registry import get_spec
from cardarena.envs.flip6.rules import HIT, STAY, TARGET0


class AlwaysHit(Agent):
    """A poor flip6 teacher: hits whenever it may (targets the first legal seat)."""

    name = "always_hit"

    def act(self, observation, action_mask, view) -> int:
        return HIT if action_mask[HIT] else int(np.flatnonzero(action_mask)[0])


def always_hit(game: str, seed: int | None = None) -> Agent:
    return AlwaysHit(seed)


TEACHER = "tests.test_improve:always_hit"


def _zero_leaf(width: int) -> LeafValue:
    return LeafValue([np.zeros((4, width)), np.zeros(4), np.zeros((1, 4)), np.zeros(1)])


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"rollout": 8}, "unknown config key"),
        ({"rollouts": 0}, "positive integer"),
        ({"rollouts": 8, "min_rollouts": 16}, "min_rollouts must be <= rollouts"),
        ({"gate": -1}, "gate must be a number >= 0"),
        ("yes", "null or a mapping"),
    ],
)
def test_bad_improve_settings_fail_with_the_reason(raw, message):
    with pytest.raises(ConfigError, match=message):
        improve_config(raw)


def test_improve_settings_fill_defaults_and_null_is_off():
    assert improve_config(None) is None
    cfg = improve_config({"rollouts": 32})
    assert cfg["rollouts"] == 32 and cfg["min_rollouts"] == 16 and cfg["workers"] == 2


def test_leaf_value_fits_a_smooth_function():
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=(6000, 3)).astype(np.float32)
    y = np.tanh(2 * x[:, 0] - x[:, 1]).astype(np.float32)
    leaf, r2 = fit_leaf_value(x, y, epochs=20)
    assert r2 > 0.9  # from 0 for the mean; it keeps improving with more epochs
    assert np.abs(leaf(x[:100]) - y[:100]).mean() < 0.25


def _banking_wins_state():
    """F17: seat 0 holds 4+3+2 = 9 with 55 banked; the others stayed; staying wins now."""
    engine = get_spec("flip6").make_engine(num_players=4)
    deck = ["4", "6", "6", "6", "3", "2", "1", "5", "5", "5"]
    state = engine.new_game(
        np.random.default_rng(0), {"deck": deck, "scores": [55, 0, 0, 0], "dealer": 3}
    )
    engine.apply(state, HIT, 0)  # 3
    for seat in (1, 2, 3):
        engine.apply(state, STAY, seat)
    engine.apply(state, HIT, 0)  # 2
    assert engine.current_player(state) == 0 and engine.legal_actions(state) == [STAY, HIT]
    return engine, state


def test_rollouts_overrule_a_teacher_that_throws_a_won_game_away():
    engine, state = _banking_wins_state()
    cfg = improve_config({"rollouts": 32, "min_rollouts": 8, "gate": 1.5})
    improver = Improver("flip6", {"num_players": 4}, TEACHER, _zero_leaf(9), cfg, seed=1)
    assert improver.choose(state, 0, HIT) == STAY
    # and it keeps the teacher's choice when that choice is the better one
    assert improver.choose(state, 0, STAY) == STAY


def test_a_single_legal_action_is_never_rolled_out():
    engine = get_spec("flip6").make_engine(num_players=4)
    deck = ["4", "6", "6", "6", "3", "FREEZE", "1", "5", "5", "5"]
    state = engine.new_game(np.random.default_rng(0), {"deck": deck, "dealer": 3})
    engine.apply(state, HIT, 0)  # 3
    for seat in (1, 2, 3):
        engine.apply(state, STAY, seat)
    engine.apply(state, HIT, 0)  # FREEZE: seat 0 is the only target left (F11)
    assert engine.legal_actions(state) == [TARGET0]
    cfg = improve_config({"rollouts": 4, "min_rollouts": 4})
    improver = Improver("flip6", {"num_players": 4}, TEACHER, _zero_leaf(9), cfg, seed=1)
    improver._samples = None  # any rollout would fail
    assert improver.choose(state, 0, TARGET0) == TARGET0


def test_improved_dataset_is_consistent_and_reproducible():
    cfg = improve_config(
        {"rollouts": 8, "min_rollouts": 4, "value_games": 60, "value_epochs": 2, "workers": 1}
    )
    a = improved_dataset("flip6", {"num_players": 3}, TEACHER, 4, cfg, seed=5, progress=False)
    b = improved_dataset("flip6", {"num_players": 3}, TEACHER, 4, cfg, seed=5, progress=False)
    n = len(a["teacher"])
    assert n > 0 and a["obs"].shape[0] == n and a["mask"].shape[0] == n
    assert a["game"].max() == 3 and a["finals"].shape == (4, 3)
    for i in range(n):  # labels are legal, and the teacher's are its own
        assert a["mask"][i, a["improved"][i]] and a["mask"][i, a["teacher"][i]]
        assert a["teacher"][i] == HIT or not a["mask"][i, HIT]
    assert 0.0 < a["changed"] <= 1.0  # always hitting is not what rollouts keep
    np.testing.assert_array_equal(a["improved"], b["improved"])
    np.testing.assert_array_equal(a["obs"], b["obs"])


def test_ratatat_rounds_are_valued_by_totals_lower_is_better():
    """ratatat's round hooks (R15, R16): the index steps at each round end and the features are
    the negated totals (lower wins), the lead over the best other seat and the rounds left."""
    from cardarena.agents import make_agent

    spec = get_spec("ratatat")
    engine = spec.make_engine(num_players=4)
    state = engine.new_game(np.random.default_rng(3))
    agents = [make_agent("ratatat", "tracker", seed=i) for i in range(4)]
    seen = [engine.round_index(state)]
    while not engine.is_over(state):
        seat = engine.current_player(state)
        mask = np.zeros(engine.num_actions, dtype=np.int8)
        mask[engine.legal_actions(state)] = 1
        engine.apply(state, int(agents[seat].act(None, mask, spec.view(state, seat))), seat)
        if engine.round_index(state) != seen[-1]:
            seen.append(engine.round_index(state))
            if not engine.is_over(state):
                f = engine.round_features(state, 1)
                scale = 36.0 * 4
                others = sorted((-state.scores[s] / scale for s in (2, 3, 0)), reverse=True)
                assert f[0] == pytest.approx(-state.scores[1] / scale)
                np.testing.assert_allclose(f[1:4], others)
                assert f[4] == pytest.approx(f[0] - others[0])  # > 0: seat 1 has the lowest total
                assert f[5:9].sum() == 1.0 and f[9] == pytest.approx((4 - seen[-1]) / 4)
    assert seen[:4] == [0, 1, 2, 3]  # 4 players, 4 rounds (R16)


def test_games_without_rounds_refuse_improvement():
    cfg = improve_config({"value_games": 10, "workers": 1})
    with pytest.raises(ConfigError, match="no rounds"):
        improved_dataset("thegame", {"num_players": 2}, "greedy", 1, cfg, seed=0, progress=False)


@pytest.mark.parametrize(
    "warm, message",
    [
        ("lr_decay: 0", "warm_start.lr_decay must be a number in"),
        ("improve: {changed_weight: 0}", "changed_weight must be a number > 0"),
        ("improve: {pretrain_games: -1}", "pretrain_games must be an integer >= 0"),
        ("improve: {rollout: 4}", "unknown config key"),
    ],
)
def test_config_files_with_bad_warm_start_settings_fail_on_load(tmp_path, warm, message):
    from cardarena.agents.training.config import load_config

    path = tmp_path / "bad.yaml"
    path.write_text(f"game: flip6\nwarm_start:\n  imitate: ev\n  {warm}\n")
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_the_default_flip6_config_uses_rollout_improvement():
    from cardarena.agents.training.config import load_config

    cfg = load_config("configs/flip6.yaml")
    assert improve_config(cfg.warm_start.improve) is not None
