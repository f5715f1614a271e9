"""PolicyAgent: the one-decision fast path agrees with the batched path, forced moves skip the net."""

from __future__ import annotations

import numpy as np
import pytest

from cardarena.agents.policy import PolicyAgent
from cardarena.envs.core.single_agent import SelfPlayEnv
from tests.tiny_policy import actor_for


@pytest.mark.parametrize("deterministic", [True, False])
def test_single_decision_path_matches_the_batched_path(deterministic):
    actor = actor_for("suicidium")
    rng = np.random.default_rng(0)
    one = PolicyAgent(actor, deterministic=deterministic, seed=7)
    batch = PolicyAgent(actor, deterministic=deterministic, seed=7)
    for _ in range(2000):
        obs = rng.normal(size=actor.obs_size).astype(np.float32)
        mask = np.zeros(actor.num_actions, np.int8)
        mask[rng.choice(actor.num_actions, size=int(rng.integers(1, 12)), replace=False)] = 1
        a = one.act(obs, mask, {})
        b = int(batch.act_batch(obs[None], mask[None], [{}])[0])
        assert a == b and mask[a] == 1


def test_forced_decision_keeps_the_generator_stream():
    actor = actor_for("flip6")
    agent, ref = (PolicyAgent(actor, deterministic=False, seed=3) for _ in range(2))
    mask = np.zeros(actor.num_actions, np.int8)
    mask[5] = 1
    assert agent.act_forced(5) is True
    assert ref.act(np.zeros(actor.obs_size, np.float32), mask, {}) == 5
    assert agent.rng.random() == ref.rng.random()


class _Recorder(PolicyAgent):
    calls = 0

    def act(self, observation, action_mask, view):
        assert action_mask.sum() > 1  # forced decisions never reach act
        type(self).calls += 1
        return super().act(observation, action_mask, view)


def test_self_play_env_skips_forced_opponent_decisions():
    actor = actor_for("suicidium")

    def opponents(rng, k):
        return [_Recorder(actor, deterministic=False) for _ in range(k)]

    env = SelfPlayEnv("suicidium", {"num_players": 4}, opponents=opponents, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        env.reset()
        done = False
        while not done:
            mask = env.action_masks()
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert 0 < _Recorder.calls < env.opponent_decisions  # some were forced, some were not


@pytest.mark.parametrize("game", ["suicidium", "sevn", "ratatat"])
def test_legal_logits_equal_the_full_forward_pass(game):
    """The one-decision forward (no BLAS, sparse first layer, legal head columns) matches the
    dense BLAS one on real observations (mostly zeros) and on dense ones, up to float32 rounding."""
    from cardarena.envs.core.registry import get_spec

    spec = get_spec(game)
    engine = spec.make_engine(num_players=4)
    actor = actor_for(game)
    rng = np.random.default_rng(1)
    state = engine.new_game(np.random.default_rng(2))
    checked = 0
    while not engine.is_over(state) and checked < 300:
        seat = engine.current_player(state)
        legal = np.asarray(engine.legal_actions(state))
        obs = spec.encode(state, seat)
        for x in (obs, rng.normal(size=obs.shape).astype(np.float32)):
            full = actor.logits(x[None])[0, legal]
            np.testing.assert_allclose(actor.legal_logits(x, legal), full, rtol=1e-5, atol=1e-5)
        checked += 1
        engine.apply(state, int(rng.choice(legal)), seat)
    assert checked > 50


def test_training_opponents_decide_through_the_quick_path_everything_else_exactly(tiny_actor):
    """Self-play opponents (FrozenOpponents, snapshots) use float32 BLAS products
    (quick_legal_logits: close to the exact logits, several times faster); every agent that
    make_agent builds decides with the exact, BLAS-free legal_logits."""
    from cardarena.agents.policy import FrozenOpponents, PolicyAgent

    actor = tiny_actor("flip6")
    rng = np.random.default_rng(3)
    for _ in range(20):
        obs = (rng.random(actor.obs_size) < 0.3).astype(np.float32)
        legal = np.flatnonzero(rng.random(actor.num_actions) < 0.7)
        if legal.size == 0:
            continue
        quick, exact = actor.quick_legal_logits(obs, legal), actor.legal_logits(obs, legal)
        np.testing.assert_allclose(quick, exact, rtol=1e-4, atol=1e-5)
    frozen = FrozenOpponents(actor)(np.random.default_rng(0), 2)
    assert [a.exact for a in frozen] == [False, False]
    assert PolicyAgent(actor).exact


def test_quick_logits_read_only_the_nonzero_inputs_at_any_depth():
    """quick_legal_logits multiplies the first layer by the nonzero inputs only: the same
    logits as the exact path for a network with no hidden layer, one, or two."""
    from cardarena.agents.policy import NumpyActor

    rng = np.random.default_rng(5)
    for hidden in ([], [16], [16, 8]):
        sizes = [40, *hidden, 7]
        layers = [
            (rng.standard_normal((a, b)), rng.standard_normal(b), "tanh")
            for a, b in zip(sizes[:-1], sizes[1:], strict=True)
        ]
        layers[-1] = (*layers[-1][:2], "identity")
        actor = NumpyActor(layers)
        for _ in range(10):
            obs = ((rng.random(40) < 0.1) * rng.random(40)).astype(np.float32)
            legal = np.flatnonzero(rng.random(7) < 0.6)
            if legal.size:
                np.testing.assert_allclose(
                    actor.quick_legal_logits(obs, legal),
                    actor.legal_logits(obs, legal),
                    rtol=1e-4,
                    atol=1e-5,
                )


def test_quick_logits_gather_the_same_rows_from_a_transposed_layer():
    """quick_legal_logits gathers the first layer's rows from a row-order copy of the weights
    (a torch layer's come transposed, in column order): the numbers multiplied, and so the logits,
    are bit for bit those of the weights as given."""
    from cardarena.agents.policy import NumpyActor

    rng = np.random.default_rng(6)
    first = np.asfortranarray(rng.standard_normal((50, 12)).astype(np.float32))
    head = np.asfortranarray(rng.standard_normal((12, 9)).astype(np.float32))
    actor = NumpyActor([(first, rng.standard_normal(12), "tanh"), (head, np.zeros(9), "identity")])
    w0, b0, _ = actor.layers[0]
    w1, b1, _ = actor.layers[1]
    assert not w0.flags["C_CONTIGUOUS"]
    for _ in range(20):
        obs = ((rng.random(50) < 0.15) * rng.random(50)).astype(np.float32)
        legal = np.flatnonzero(rng.random(9) < 0.5)
        nonzero = np.flatnonzero(obs)
        expected = np.tanh(obs[nonzero] @ w0[nonzero] + b0) @ w1[:, legal] + b1[legal]
        assert np.array_equal(actor.quick_legal_logits(obs, legal), expected)
