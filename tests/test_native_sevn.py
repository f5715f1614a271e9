"""sevn's native core (``envs/sevn/_native.pyx``) encodes and plays as the Python engine does.

* The compiled encoder against the reference (``encoding.encode_python``): every seat of every
  step of random games on the Python engine, per player count and option set of the manifest.
* The lock-step (``bench/native_sevn.py``, ``bench/native_lockstep.py``): 500 games per player
  count, both cores stepped side by side with random legal actions (legal actions and mask, every
  seat's observation bit for bit from both encoders, returns, termination, ``to_dict`` at every
  step; the generators' states at the end), over the manifest's target scores and shorter ones,
  some from stacked decks, game totals and dealers.
* Errors, conversion, pickling, clones, states the struct cannot hold, rollouts in one call.
* The C ports of the ``threshold`` and ``ev`` baselines (rollout policies) pick the Python
  agents' actions: every seat's decision of random and baseline games, 2-8 players, both target
  scores of the manifest, default and other options; whole games played by the C policies are the
  Python agents' games (``play_out`` against the Python ``Rollout``).

Skipped when the extension is not built (``setup.py build_ext --inplace`` or ``pip install -e .``
with Cython and a C compiler).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bench.native_sevn import PLAYER_COUNTS, encoder_games, lockstep
from cardarena.envs.core.engine import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
)
from cardarena.envs.sevn import encoding, rules
from cardarena.envs.sevn.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the sevn native core is not built (setup.py build_ext --inplace needs Cython and a "
    "C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.sevn import _native
    from cardarena.envs.sevn.native import NativeSevnGame, NativeState


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_native_core_plays_500_games_in_lock_step_with_the_python_engine(num_players):
    result = lockstep(num_players, 500, seed=31)
    assert result["games"] == 500 and result["steps"] > 500 * 10
    assert result["observations"] >= result["steps"] * num_players


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("target_score", [250, 60])  # the manifest's option_sets
def test_the_compiled_encoder_is_byte_identical_to_the_reference(num_players, target_score):
    """100 games per option set here; the lock-step compares the compiled encoder on the Python
    state too, in 500 more games per player count (a fifth at target 250, two at 60)."""
    result = encoder_games(num_players, 100, target_score, seed=13)
    assert result["games"] == 100 and result["observations"] > 100 * num_players * 10


def test_the_extension_has_the_rules_constants():
    from cardarena.envs.sevn.encoding_tables import KEPT_BIT

    assert _native.CARD_VALUE_C == rules.CARD_VALUE
    assert _native.DECK_COUNTS_C == rules.DECK_COUNTS
    assert _native.FULL_DECK_C == rules.FULL_DECK
    assert _native.KEPT_BIT_C == KEPT_BIT
    assert _native.NUM_CARD_KINDS_C == rules.NUM_CARD_KINDS
    assert _native.NUM_ACTIONS_C == rules.NUM_ACTIONS
    assert _native.OBS_SIZE_C == encoding.OBS_SIZE
    assert (rules.X2, rules.LAST_MODIFIER, rules.FREEZE, rules.SECOND_CHANCE) == (17, 22, 23, 24)
    assert (rules.FLIP_THREE, rules.FORK, rules.STORM) == (25, 26, 27)
    assert (rules.FEATHERWEIGHT, rules.HEAVYWEIGHT, rules.STRAIGHT) == (28, 29, 30)
    assert (rules.TARGET0, rules.FORK0, rules.KEEP, rules.DISCARD) == (2, 10, 12, 13)
    assert rules.DECISION_NAMES[rules.KEEP_BALLAST] == "ballast" and rules.NUM_DECISIONS == 7
    assert (encoding.SEAT_BLOCK, encoding.QUEUE_SHOWN) == (44, 4)


def test_encode_is_the_compiled_encoder_unless_the_python_core_is_asked_for():
    assert NATIVE_AVAILABLE == (os.environ.get("CARDARENA_CORE", "native") != "python")
    assert (encoding.encode is _native.encode) == NATIVE_AVAILABLE
    code = "from cardarena.envs.sevn import encoding as e; print(e.encode is e.encode_python)"
    for core, python in (("python", "True"), ("native", "False")):
        env = {**os.environ, "CARDARENA_CORE": core}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == python, out.stderr[-2000:]


def test_a_row_scoring_zero_loses_minus_zero_points_in_both_encoders():
    """The -0.0 of a held number when the hand scores 0 (``encoding_rows``) survives compiling."""
    state = rules.SevnGame(2).new_game(np.random.default_rng(0), {"deck": ["1", "0"]})
    assert state.table == [[0], [1]] and state.status == [rules.IN_HAND] * 2
    want = encoding.encode_python(state, 0)
    got = _native.encode(state, 0)
    assert got.tobytes() == want.tobytes()
    at = 8 * encoding.SEAT_BLOCK + 7 + 62 + 32 + 3 + 31 + 31 + 15 + 1  # "my next card", card 0
    assert got[at] == 0.0 and np.signbit(got[at]) and not np.signbit(got[at + 1])


def test_the_compiled_encoder_refuses_a_seat_outside_the_game_and_a_bad_state():
    state = rules.SevnGame(3).new_game(np.random.default_rng(0))
    for seat in (-1, 3, 8):
        with pytest.raises(IndexError, match=f"seat {seat}"):
            _native.encode(state, seat)
    bad = rules.SevnGame(3).new_game(np.random.default_rng(0))
    bad.discard_pile = list(range(31)) * 4
    with pytest.raises(ConfigError, match="discard_pile holds 124 cards"):
        _native.encode(bad, 0)
    bad = rules.SevnGame(3).new_game(np.random.default_rng(0))
    bad.table[1] = [31]
    with pytest.raises(ConfigError, match=r"table\[1\] holds card 31; allowed: 0..30"):
        _native.encode(bad, 0)


def test_the_native_engine_raises_the_python_engines_errors():
    py, nat = rules.SevnGame(4), NativeSevnGame(4)
    a, b = py.new_game(np.random.default_rng(5)), nat.new_game(np.random.default_rng(5))
    seat = py.current_player(a)
    other = (seat + 1) % 4
    for action in (rules.KEEP, 99, -1, rules.TARGET0 + 7):
        with pytest.raises(IllegalActionError) as want:
            py.apply(a, action)
        with pytest.raises(IllegalActionError) as got:
            nat.apply(b, action)
        assert str(got.value) == str(want.value)
    with pytest.raises(OutOfTurnError) as want_turn:
        py.apply(a, rules.PASS, seat=other)
    with pytest.raises(OutOfTurnError) as got_turn:
        nat.apply(b, rules.PASS, seat=other)
    assert str(got_turn.value) == str(want_turn.value)
    assert nat.to_dict(b) == py.to_dict(a)  # nothing changed
    while not py.is_over(a):
        action = py.legal_actions(a)[-1]
        py.apply(a, action)
        nat.apply(b, action)
    with pytest.raises(GameOverError) as want_over:
        py.apply(a, rules.PASS)
    with pytest.raises(GameOverError) as got_over:
        nat.apply(b, rules.PASS)
    assert str(got_over.value) == str(want_over.value)
    assert nat.legal_actions(b) == [] and nat.current_player(b) is None
    assert nat.to_dict(b) == py.to_dict(a)


def test_a_native_state_reads_like_a_python_state():
    py, nat = rules.SevnGame(5), NativeSevnGame(5)
    a, b = py.new_game(np.random.default_rng(2)), nat.new_game(np.random.default_rng(2))
    plan = np.random.default_rng(3)
    seen = set()
    for _ in range(60):
        if py.is_over(a):
            break
        seen.add(a.decision)
        legal = py.legal_actions(a)
        action = legal[int(plan.integers(len(legal)))]
        py.apply(a, action)
        nat.apply(b, action)
        for name in (*rules.SevnState.__slots__, *rules.RaceState.__slots__):
            if name != "rng":
                assert getattr(b, name) == getattr(a, name), name
    assert len(seen) >= 2
    assert nat.card_zones(b) == py.card_zones(a)
    assert nat.conservation_error(b) is None
    assert [nat.standing(b, s) for s in range(5)] == [py.standing(a, s) for s in range(5)]
    assert b.standing() == [py.standing(a, s) for s in range(5)]
    assert nat.round_index(b) == py.round_index(a)
    assert encoding.render(b, 1) == encoding.render(a, 1)
    assert encoding.view(b, 1) == encoding.view(a, 1)
    back = b.to_python()
    assert py.to_dict(back) == py.to_dict(a) and back.rng is not b.rng
    world_a = py.resample_hidden(a, 1, np.random.default_rng(9))
    world_b = nat.resample_hidden(b, 1, np.random.default_rng(9))
    assert nat.to_dict(world_b) == py.to_dict(world_a)


def test_new_game_options_and_a_bad_saved_state_go_through_the_python_engine():
    py, nat = rules.SevnGame(3), NativeSevnGame(3)
    options = {"deck": ["FORK", "7", "STORM"], "scores": [10, 20, 30], "dealer": 2}
    a = py.new_game(np.random.default_rng(1), options)
    b = nat.new_game(np.random.default_rng(1), options)
    assert isinstance(b, NativeState) and nat.to_dict(b) == py.to_dict(a)
    data = py.to_dict(a)
    data["scores"] = [10, 20]
    with pytest.raises(ConfigError, match="scores"):
        nat.from_dict(data)
    with pytest.raises(ConfigError, match="more copies of 'FORK'"):
        nat.new_game(np.random.default_rng(1), {"deck": ["FORK"] * 3})
    with pytest.raises(ConfigError, match="unknown sevn game options"):
        nat.new_game(np.random.default_rng(1), {"shuffle": True})


def test_the_native_engine_checks_its_options_as_the_python_one():
    for kwargs in (
        {"num_players": 9},
        {"num_players": 1},
        {"first_dealer": 4},
        {"target_score": 0},
    ):
        with pytest.raises(ConfigError) as want:
            rules.SevnGame(**kwargs)
        with pytest.raises(ConfigError) as got:
            NativeSevnGame(**kwargs)
        assert str(got.value) == str(want.value)
    assert NativeSevnGame().target_score == rules.SevnGame().target_score == 250


@pytest.mark.parametrize("num_players", [2, 5, 8])
def test_rollouts_in_one_call_are_seeded_zero_sum_and_leave_the_state_alone(num_players):
    nat = NativeSevnGame(num_players, target_score=60)
    state = nat.new_game(np.random.default_rng(num_players))
    before = nat.to_dict(state)
    generator = state.rng.bit_generator.state
    values, decisions = nat.rollouts(state, 300, seed=7)
    again, decisions_again = nat.rollouts(state, 300, seed=7)
    other, _ = nat.rollouts(state, 300, seed=8)
    assert nat.to_dict(state) == before and state.rng.bit_generator.state == generator
    assert values.shape == (300, num_players) and decisions == decisions_again > 300 * 5
    assert np.array_equal(values, again) and not np.array_equal(values, other)
    assert np.allclose(values.sum(axis=1), 0.0)
    assert set(np.round(values.max(axis=1), 6)) == {1.0}  # one winner (S27: ties play on)
    assert np.all(np.isin(np.round(values, 6), [1.0, round(-1 / (num_players - 1), 6)]))
    hands, hand_decisions = nat.rollouts(state, 300, seed=7, horizon="round")
    assert 0 < hand_decisions < decisions
    lead = hands.max(axis=1)  # a standing: the lead over the best other / target score
    assert np.all(lead >= 0) and np.all(np.abs(hands) <= 1 + 300 / 60)
    assert nat.to_dict(state) == before
    assert nat.rollouts(state, 0, seed=1)[0].shape == (0, num_players)
    with pytest.raises(ConfigError, match="horizon 'turn'"):
        nat.rollouts(state, 10, seed=1, horizon="turn")
    with pytest.raises(ConfigError, match="count -1"):
        nat.rollouts(state, -1, seed=1)


def test_a_hand_rollout_values_whole_point_leads_at_the_hands_end():
    """A rollout to the hand's end (far from the 250 target: the game cannot end in it) values
    each seat by its lead in whole points over the best other seat, / 250."""
    nat = NativeSevnGame(3, target_score=250)
    state = nat.new_game(np.random.default_rng(11))
    values, decisions = nat.rollouts(state, 50, seed=4, horizon="round")
    assert values.shape == (50, 3) and decisions > 50
    standings = {tuple(np.round(row, 9)) for row in values}
    assert len(standings) > 5  # different hands, different banked scores
    for row in values:  # a standing is a lead, not a share: the leader's is >= 0
        assert row.max() >= 0 and np.allclose(row * 250, np.round(row * 250))
        assert np.all(np.abs(row) < 1.0)  # one hand banks under 250 (S21-S25: at most ~230)
    assert state.hand_index == 0 and nat.to_dict(state) == nat.to_dict(nat.clone(state))


def test_a_rollout_of_an_ended_game_returns_its_result():
    nat = NativeSevnGame(3, target_score=1)
    state = nat.new_game(np.random.default_rng(0))
    while not nat.is_over(state):
        nat.apply(state, nat.legal_actions(state)[0])
    values, decisions = nat.rollouts(state, 4, seed=0)
    assert decisions == 0 and np.array_equal(values, np.tile(nat.returns(state), (4, 1)))
    assert nat.returns(state) == rules.SevnGame(3, target_score=1).returns(state.to_python())


def test_clone_copies_the_generator_or_takes_the_one_given():
    nat = NativeSevnGame(4)
    state = nat.new_game(np.random.default_rng(3))
    copy = nat.clone(state)
    assert copy.rng is not state.rng
    assert copy.rng.bit_generator.state == state.rng.bit_generator.state
    rng = np.random.default_rng(4)
    assert nat.clone(state, rng).rng is rng
    nat.apply(copy, nat.legal_actions(copy)[-1])
    assert copy.decisions == state.decisions + 1 and state.decisions == 0
    assert isinstance(NativeState.from_python(nat.to_python(state)), NativeState)
    python_state = nat.to_python(state)
    assert type(nat.clone(python_state)) is rules.SevnState


@pytest.mark.parametrize("num_players", [2, 8])
def test_the_aec_env_on_the_native_engine_plays_the_python_envs_games(num_players):
    """What ``envs.make(..., core="native")`` builds: the same spec, the native engine."""
    from cardarena import envs

    for make in (envs.make, envs.make_raw):
        ours = make("sevn", core="native", num_players=num_players)
        ref = make("sevn", core="python", num_players=num_players)
        assert type(ours.game) is NativeSevnGame
        assert type(ref.game) is rules.SevnGame
        for game in range(4):
            ours.reset(seed=game, options={"scores": [200] * num_players})
            ref.reset(seed=game, options={"scores": [200] * num_players})
            rng = np.random.default_rng(game)
            for agent, want_agent in zip(ours.agent_iter(), ref.agent_iter(), strict=True):
                assert agent == want_agent
                obs, reward, term, trunc, _ = ours.last()
                want, want_reward, want_term, want_trunc, _ = ref.last()
                assert obs["observation"].tobytes() == want["observation"].tobytes()
                assert obs["action_mask"].tobytes() == want["action_mask"].tobytes()
                assert (reward, term, trunc) == (want_reward, want_term, want_trunc)
                action = None
                if not (term or trunc):
                    action = int(rng.choice(np.flatnonzero(want["action_mask"])))
                ours.step(action)
                ref.step(action)


def test_a_native_state_pickles_and_copies_as_itself():
    import copy
    import pickle

    nat = NativeSevnGame(4)
    state = nat.new_game(np.random.default_rng(1))
    nat.apply(state, nat.legal_actions(state)[-1])
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert isinstance(other, NativeState) and other.rng is not state.rng
        assert nat.to_dict(other) == nat.to_dict(state)
        assert other.rng.bit_generator.state == state.rng.bit_generator.state


def test_a_state_the_c_struct_cannot_hold_is_refused():
    py = rules.SevnGame(4)
    state = py.new_game(np.random.default_rng(0))
    bad = py.clone(state)
    bad.status = [7, 0, 0, 0]
    for call in (lambda: NativeState.from_python(bad), lambda: _native.encode(bad, 0)):
        with pytest.raises(ConfigError, match="status is 7; allowed: 0..3"):
            call()
    extra = py.clone(state)
    extra.discard_pile = [rules.CODE_TO_CARD["0"]]
    with pytest.raises(ConfigError, match="the zones hold 121 cards"):
        NativeState.from_python(extra)
    assert _native.encode(extra, 0).shape == (encoding.OBS_SIZE,)  # encoding reads, never grows
    deep = py.clone(state)
    deep.queue = [0] * 65
    with pytest.raises(ConfigError, match="65 pending draws"):
        NativeState.from_python(deep)
    short = py.clone(state)
    short.banked = [-1]
    with pytest.raises(ConfigError, match="need 4 entries; one has 1"):
        NativeState.from_python(short)
    far = py.clone(state)
    far.queue = [4]
    with pytest.raises(ConfigError, match="a pending draw's seat is 4; allowed: 0..3"):
        NativeState.from_python(far)


# ---- the C rollout policies (ports of agents/baselines/sevn.py) ---------------------------------
#: (policy, options: the agent's and the C port's) checked for alignment
PORTS = [
    ("threshold", {}),
    ("threshold", {"threshold": 15}),
    ("ev", {}),
    ("ev", {"margin": -3.0, "lead_aversion": 25.0}),
    ("ev", {"chase_in_hand": False, "lead_aversion": 0.0}),
]


def _baseline(policy: str, options: dict):
    from cardarena.agents.baselines.sevn import BASELINES

    return BASELINES[policy](**options)


def _positions(num_players: int, target_score: int, games: int, seed: int):
    """Every decision of ``games`` Python games, played by random, threshold and ev in turn."""
    from cardarena import envs
    from cardarena.envs.core.loop import decide

    spec = envs.get_spec("sevn")
    engine = rules.SevnGame(num_players=num_players, target_score=target_score)
    players = [None, _baseline("threshold", {}), _baseline("ev", {})]
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    plan = np.random.default_rng(seed)
    for g in range(games):
        state = engine.new_game(np.random.default_rng(int(plan.integers(2**31))))
        player = players[g % 3]
        while not state.over:
            yield spec, engine, state
            seat = engine.current_player(state)
            if player is None:
                legal = engine.legal_actions(state)
                action = legal[int(plan.integers(len(legal)))]
            else:
                action = decide(spec, engine, state, seat, player, mask)
            engine.apply(state, action)


#: decisions of each kind met over all player counts (TARGET_SECOND_CHANCE is rare: a second
#: SECOND_CHANCE drawn while someone else can take it)
_KINDS: dict[int, int] = {}


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("target_score", [250, 60])
def test_the_c_policies_pick_the_python_baselines_actions(num_players, target_score):
    from cardarena.envs.core.loop import decide

    agents = [(policy, _baseline(policy, o), o) for policy, o in PORTS]
    mask = np.zeros(rules.NUM_ACTIONS, dtype=np.int8)
    seats: set[int] = set()
    checked = 0
    games = 5 if target_score == 250 else 12
    for spec, engine, state in _positions(num_players, target_score, games, seed=num_players):
        seat = engine.current_player(state)
        seats.add(seat)
        _KINDS[state.decision] = _KINDS.get(state.decision, 0) + 1
        native = NativeState.from_python(state, np.random.default_rng(0))
        for policy, agent, options in agents:
            want = decide(spec, engine, state, seat, agent, mask)
            assert _native.policy_action(native, policy, **options) == want, (
                policy,
                options,
                engine.to_dict(state),
            )
            assert _native.policy_action(state, policy, **options) == want
            checked += 1
    assert checked > len(PORTS) * 150
    assert seats == set(range(num_players))


def test_the_alignment_met_every_kind_of_decision():
    """Run after the alignment test (same module, in order): every decision kind was checked."""
    if sum(_KINDS.values()) < 5000:
        pytest.skip("run with test_the_c_policies_pick_the_python_baselines_actions")
    assert _KINDS[rules.TURN] > 5000, _KINDS
    for kind in (rules.TARGET_FREEZE, rules.TARGET_FLIP_THREE, rules.FORK_CHOICE):
        assert _KINDS[kind] > 150, (kind, _KINDS)
    assert _KINDS[rules.KEEP_BALLAST] > 300, _KINDS
    assert _KINDS[rules.TARGET_SECOND_CHANCE] >= 1, _KINDS


@pytest.mark.parametrize("num_players", [2, 4, 6, 8])
def test_whole_games_of_the_c_policies_are_the_python_agents_games(num_players):
    """From the deal to the end: ``play_out`` (every seat the C port) ends each game where the
    Python ``Rollout`` (every seat the Python agent) does: same state, generator and returns."""
    import random

    from cardarena import envs
    from cardarena.agents.search.rollout import Rollout

    spec = envs.get_spec("sevn")
    python = rules.SevnGame(num_players=num_players, target_score=100)
    native = NativeSevnGame(num_players=num_players, target_score=100)
    games = 0
    for policy, options in (("threshold", {"threshold": 20}), ("ev", {}), ("ev", {"margin": 2.0})):
        agents = [_baseline(policy, options) for _ in range(num_players)]
        theirs = Rollout("sevn", spec, python, policy, "game", agents=agents)
        starts = [python.new_game(np.random.default_rng([num_players, g])) for g in range(25)]
        worlds = [NativeState.from_python(python.clone(s)) for s in starts]
        got = native.play_out(worlds, policy, **options)
        want = [theirs.run(s, random.Random(0)) for s in starts]
        assert got.tolist() == want
        for w, s in zip(worlds, starts, strict=True):
            assert w.over and native.to_dict(w) == python.to_dict(s)
            assert w.rng.bit_generator.state == s.rng.bit_generator.state
        games += len(starts)
    assert games == 75


def test_policy_action_refuses_what_it_cannot_decide():
    engine = NativeSevnGame(num_players=3)
    state = engine.new_game(np.random.default_rng(0))
    with pytest.raises(ConfigError, match="allowed: 'threshold' or 'ev'"):
        engine.policy_action(state, "random")
    with pytest.raises(ConfigError, match="policy 'tracker'; allowed"):
        engine.policy_action(state, "tracker")
    while not state.over:
        engine.apply(state, engine.legal_actions(state)[0])
    assert engine.policy_action(state, "ev") is None
    assert set(engine.rollout_policies) == {"random", "threshold", "ev"}
    for policy, names in engine.rollout_policies.items():
        if policy != "random":  # the options are attributes of the baseline it ports
            agent = _baseline(policy, {})
            assert all(hasattr(agent, name) for name in names)
