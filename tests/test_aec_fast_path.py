"""The AEC env's lean step path (envs/core/aec.py, envs/core/table.py) gives what the plain path
gives: ``last()`` is PettingZoo's ``last()`` over ``observe()``, and the table's kept masks are
fresh arrays equal to masks built from ``legal_actions``, on every game and core."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo import AECEnv

from cardarena import envs
from cardarena.envs.core import table as table_module
from cardarena.envs.core.aec import CardGameEnv

GAMES = envs.names()


def _built_mask(env: CardGameEnv, seat: int, dtype: object = np.int8) -> np.ndarray:
    """The mask as the table built it before it kept any: zeros, ones at the legal actions."""
    out = np.zeros(env.game.num_actions, dtype=dtype)
    if env.game.current_player(env.state_obj) == seat:
        out[env.game.legal_actions(env.state_obj)] = 1
    return out


@pytest.mark.parametrize("name", GAMES)
def test_last_and_masks_agree_with_the_plain_path(name: str) -> None:
    env = envs.make(name)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if not env.agents:
            env.reset()
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        plain = AECEnv.last(env)  # PettingZoo's own last(): observe() then the dicts
        assert np.array_equal(obs["observation"], plain[0]["observation"])
        assert obs["observation"].dtype == plain[0]["observation"].dtype
        assert np.array_equal(obs["action_mask"], plain[0]["action_mask"])
        assert (reward, term, trunc, info) == plain[1:]
        seat = env._seat_of[agent]
        for s in range(env.game.num_players):  # every seat, the deciding one and the others
            mask = env.observe(f"player_{s}")["action_mask"]
            assert mask.dtype == np.int8 and np.array_equal(mask, _built_mask(env, s))
        boolean = env._table.mask(dtype=bool)
        assert boolean.dtype == bool and np.array_equal(boolean, _built_mask(env, seat, bool))
        # a kept mask is handed out as a copy: writing into one changes no later one
        obs["action_mask"][:] = 1
        boolean[:] = True
        assert np.array_equal(env.observe(agent)["action_mask"], _built_mask(env, seat))
        assert np.array_equal(env._table.mask(dtype=bool), _built_mask(env, seat, bool))
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(plain[0]["action_mask"]))))
    assert env.last(observe=False)[0] is None


def test_the_kept_masks_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "MASK_CACHE", 3)
    env = envs.make("thegame")  # many distinct legal-action sets
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(200):
        if not env.agents:
            env.reset()
        obs, _r, term, trunc, _i = env.last()
        seat = env._seat_of[env.agent_selection]
        assert np.array_equal(obs["action_mask"], _built_mask(env, seat))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert 0 < len(env._table._masks[np.int8]) <= 3


def test_a_subclass_observe_is_what_last_returns() -> None:
    class Tagged(CardGameEnv):
        def observe(self, agent: str) -> dict[str, np.ndarray]:
            out = super().observe(agent)
            out["tag"] = np.array(agent)
            return out

    env = Tagged(envs.get_spec("flip6"))
    env.reset(seed=0)
    assert str(env.last()[0]["tag"]) == env.agent_selection


@pytest.mark.parametrize("checks", [True, False])
def test_step_before_reset_and_bad_actions_still_refused(checks: bool) -> None:
    from cardarena.envs.core.errors import CardArenaError

    env = CardGameEnv(envs.get_spec("flip6"), checks=checks)
    with pytest.raises(CardArenaError, match="reset"):
        env.step(0)
    with pytest.raises(CardArenaError, match="reset"):
        env.last()
    env.reset(seed=0)
    legal = env.legal_actions()
    env.step(np.int64(legal[0]))  # a numpy integer in range is an action
    if checks:
        with pytest.raises(CardArenaError, match="outside the action space"):
            env.step(env.game.num_actions)
        with pytest.raises(CardArenaError, match="must act"):
            env.step(None)
    illegal = next(a for a in range(env.game.num_actions) if a not in env.legal_actions())
    with pytest.raises(CardArenaError):
        env.step(illegal)
