"""suicidium's native core (``envs/suicidium/_native.pyx``) plays the same games as the Python
engine, and its compiled encoder is the Python one, byte for byte.

The lock-step (``bench/native_suicidium.py``): 500 games per player count over the four option
sets, both cores stepped side by side with random legal actions (legal actions and mask, every
seat's observation bit for bit, returns, termination, ``to_dict`` at every step; the generators'
states at the end). The encoder alignment: random plain deals of every player count and option
set, both encoders on every seat of every step. Skipped when the extension is not built
(``setup.py build_ext --inplace`` or ``pip install -e .`` with Cython and a C compiler); the
build without it is checked by ``test_native_build.py``.

The heuristic in C (the search's rollout policy) against ``HeuristicAgent``: full games of the
agent in every seat with the C policy asked each decision first (the same action, plan and
generator state), and every decision of random and heuristic games asked of a fresh agent (no
plan: its random choice at a target decision it did not plan), in both modes, with and without
the expansion, 2-5 players, three settings of the agent. Run larger on 2026-12-02 (per player
count and mode, for both expansion settings: ``heuristic_games(n, mode, x, 200, seed=100 + n)``
and ``heuristic_positions(n, mode, x, 20, seed=200 + n)``): 3,200 games, 727,266 decisions, and
66,309 positions, every one the same; the agent drew at random 0 times in its own games and 554
times in the positions.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bench.native_suicidium import OPTION_SETS, PLAYER_COUNTS, encoder_alignment, lockstep
from cardarena.envs.core.engine import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
)
from cardarena.envs.suicidium import encoding, encoding_layout, rules
from cardarena.envs.suicidium.native import NATIVE_AVAILABLE, NATIVE_BUILT

pytestmark = pytest.mark.skipif(
    not NATIVE_BUILT,
    reason="the suicidium native core is not built (setup.py build_ext --inplace needs Cython "
    "and a C compiler)",
)

if NATIVE_BUILT:
    from cardarena.envs.suicidium import _native
    from cardarena.envs.suicidium.native import NativeState, NativeSuicidiumGame

#: random plain deals per player count and option set for the encoder alone (the bench runs 300;
#: the lock-step compares the encoders too, on 500 games per player count)
GAMES = 10


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_native_core_plays_500_games_in_lock_step_with_the_python_engine(num_players):
    result = lockstep(num_players, 500, seed=31)
    assert result["games"] == 500 and result["steps"] > 500 * 15
    assert result["observations"] >= result["steps"] * num_players


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o['mode']}-{o['expansion']}")
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_compiled_encoder_is_the_reference_encoder_byte_for_byte(num_players, options):
    result = encoder_alignment(num_players, options, GAMES, seed=31)
    assert result["games"] == GAMES and result["steps"] > GAMES * 20
    assert result["observations"] == result["steps"] * num_players


def test_the_extension_has_the_rules_constants():
    assert _native.NUM_CARDS_C == rules.NUM_CARDS
    assert _native.OBS_SIZE_C == encoding.OBS_SIZE
    assert _native.EFFECTS_C == len(rules.EFFECT_NAMES)
    assert _native.KIND_C == rules.KIND and _native.EFFECT_C == rules.EFFECT
    assert _native.AMOUNT_C == rules.AMOUNT and _native.TARGETING_C == rules.TARGETING
    assert _native.LAYOUT_C == (
        encoding_layout.SEAT_BLOCK,
        encoding_layout.GLOBAL_SIZE,
        rules.MAX_PLAYERS,
        rules.NUM_OBJECT_TYPES,
        rules.BOOTH,
    )
    assert (rules.POINTS, rules.EVENT, rules.RESPONSE) == (0, 1, 2)
    assert (rules.E_POINTS_ONE, rules.E_POINTS_GAIN_LOSS, rules.E_SKIP_DRAW) == (0, 4, 5)
    assert (rules.E_SHIELD, rules.E_DISCARD_RANDOM, rules.E_RECOVER) == (7, 8, 14)
    assert (rules.E_CANCEL_POINTS, rules.E_DOUBLE, rules.E_STEAL_PLAYED) == (15, 18, 20)
    assert (rules.T_NONE, rules.T_ANY, rules.T_OPPONENT, rules.T_CARD) == (0, 1, 2, 3)
    assert (rules.D_NONE, rules.D_TARGET_PLAYER, rules.D_TAKE) == (0, 3, 7)
    assert (rules.PH_DRAW, rules.PH_RESOLUTION, rules.ST_WAIT, rules.ST_END_TURN) == (0, 3, 0, 8)
    assert (rules.SURVIVE, rules.DEPRESSION) == (0, 1)
    assert _native.ACTIONS_C == (
        rules.PASS,
        rules.DRAW0,
        rules.TARGET0,
        rules.PLAY0,
        rules.ON0,
        rules.DISCARD0,
        rules.TAKE0,
        rules.NUM_ACTIONS,
    )
    assert _native.CLASSES_C == (
        rules._HAS_POINTS,
        rules._HAS_EVENT,
        rules._HAS_ANY,
        rules._ALWAYS,
        rules.HAND_SIZE,
        rules.MAX_PLAYS,
        rules.START_WP,
        rules.MAX_WP,
    )
    assert _native.CARD_CLASS_C == rules._CARD_CLASS
    assert _native.RESPONSE_FITS_C == rules._RESPONSE_FITS
    assert (rules.ST_START_TURN, rules.ST_MAIN, rules.ST_RESOLVE) == (1, 2, 7)
    assert rules.LASTING_EFFECTS == (rules.E_SKIP_DRAW, rules.E_SKIP_MAIN, rules.E_SHIELD)


def test_the_c_code_draws_integers_as_numpy_does():
    for high in (1, 2, 3, 7, 13, 105, 1000, 2**20 + 7):
        ours, theirs = np.random.default_rng(high), np.random.default_rng(high)
        got = _native.random_integers(ours, high, 300)
        assert got == [int(theirs.integers(high)) for _ in range(300)]
        assert ours.bit_generator.state == theirs.bit_generator.state


def test_encode_is_the_compiled_encoder_unless_the_python_core_is_asked_for():
    assert NATIVE_AVAILABLE == (os.environ.get("CARDARENA_CORE", "native") != "python")
    assert (encoding.encode is _native.encode) == NATIVE_AVAILABLE
    code = "from cardarena.envs.suicidium import encoding as e; print(e.encode is e.encode_python)"
    for core, python in (("python", "True"), ("native", "False")):
        env = {**os.environ, "CARDARENA_CORE": core}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == python, out.stderr[-2000:]


def test_the_compiled_encoder_refuses_a_seat_outside_the_game():
    state = rules.SuicidiumGame(3).new_game(np.random.default_rng(0))
    for seat in (-1, 3, 5):
        with pytest.raises(IndexError, match=f"seat {seat}"):
            _native.encode(state, seat)


def test_the_compiled_encoder_refuses_a_state_its_struct_cannot_hold():
    game = rules.SuicidiumGame(4, expansion=True)
    state = game.new_game(np.random.default_rng(0))
    cases = [
        ("wp", [10, 10, 10, 2000], "wp is 2000"),
        ("phase", 9, "phase is 9; allowed: 0..3"),
        ("decider", 4, "decider is 4; allowed: -1..3"),
        ("hands", [[0], [1], [2], [rules.NUM_CARDS]], f"holds card {rules.NUM_CARDS}"),
        ("objects", [[0], [], [7], []], "holds object 7"),
        ("table", [[0, 0, 3, [], 0]], "target is 3; allowed: -1..-1"),
        ("table", [[0, 0, -1, [0] * 9, 0]], "at most 8"),
        ("known_by", [0] * 3, f"known_by needs {rules.NUM_CARDS} entries"),
        ("turn", "7", "turn is '7'"),
    ]
    for name, value, message in cases:
        bad = game.clone(state)
        setattr(bad, name, value)
        with pytest.raises(ConfigError, match=message):
            _native.encode(bad, 0)
    assert _native.encode(state, 0).tobytes() == encoding.encode_python(state, 0).tobytes()


def _pair(num_players=4, seed=5, **options):
    py, nat = (
        rules.SuicidiumGame(num_players, **options),
        NativeSuicidiumGame(num_players, **options),
    )
    return (
        py,
        nat,
        py.new_game(np.random.default_rng(seed)),
        nat.new_game(np.random.default_rng(seed)),
    )


def test_the_native_engine_raises_the_python_engines_errors():
    py, nat, a, b = _pair(4, expansion=True)
    for _ in range(40):  # through several decisions, each action tried against both engines
        if py.is_over(a):
            break
        seat = py.current_player(a)
        for action in (rules.NUM_ACTIONS - 1, 99, -1, rules.NUM_ACTIONS, rules.PASS, 2**40):
            if action in py.legal_actions(a):
                continue
            with pytest.raises(IllegalActionError) as want:
                py.apply(a, action)
            with pytest.raises(IllegalActionError) as got:
                nat.apply(b, action)
            assert str(got.value) == str(want.value)
        with pytest.raises(OutOfTurnError) as want:
            py.apply(a, py.legal_actions(a)[0], seat=(seat + 1) % 4)
        with pytest.raises(OutOfTurnError) as got:
            nat.apply(b, py.legal_actions(a)[0], seat=(seat + 1) % 4)
        assert str(got.value) == str(want.value)
        assert nat.to_dict(b) == py.to_dict(a)  # nothing changed
        action = py.legal_actions(a)[-1]
        py.apply(a, np.int64(action), seat)
        nat.apply(b, np.int64(action), seat)
    while not py.is_over(a):
        action = py.legal_actions(a)[0]
        py.apply(a, action)
        nat.apply(b, action)
    with pytest.raises(GameOverError) as want:
        py.apply(a, rules.PASS)
    with pytest.raises(GameOverError) as got:
        nat.apply(b, rules.PASS)
    assert str(got.value) == str(want.value)
    assert nat.legal_actions(b) == [] and nat.current_player(b) is None
    assert nat.returns(b) == py.returns(a) and nat.winners(b) == py.winners(a)


def test_a_native_state_reads_like_a_python_state():
    py, nat, a, b = _pair(5, seed=2, mode="DEPRESSION", expansion=True)
    rng = np.random.default_rng(0)
    for _ in range(60):
        if py.is_over(a):
            break
        legal = py.legal_actions(a)
        action = legal[int(rng.integers(len(legal)))]
        py.apply(a, action)
        nat.apply(b, action)
    for name in rules.SuicidiumState.__slots__:
        if name != "rng":
            assert getattr(b, name) == getattr(a, name), name
    assert b.hands is not b.hands and b.table is not b.table  # fresh lists
    assert nat.card_zones(b) == py.card_zones(a)
    assert nat.conservation_error(b) is None
    assert nat.scores(b) == py.scores(a) and nat.decision_name(b) == py.decision_name(a)
    assert encoding.render(b, 1) == encoding.render(a, 1)
    assert encoding.view(b, 1) == encoding.view(a, 1)
    back = b.to_python()
    assert py.to_dict(back) == py.to_dict(a) and back.rng is not b.rng
    world_a = py.resample_hidden(a, 1, np.random.default_rng(9))
    world_b = nat.resample_hidden(b, 1, np.random.default_rng(9))
    assert isinstance(world_b, NativeState)
    assert nat.to_dict(world_b) == py.to_dict(world_a)


def test_new_game_options_and_a_bad_saved_state_go_through_the_python_engine():
    py, nat = rules.SuicidiumGame(3), NativeSuicidiumGame(3)
    options = {"deck": ["SPOILER", "BOOTH"], "wp": [3, 4, 5], "held": [["RAZOR"], [], []]}
    options["first_player"] = 2
    a = py.new_game(np.random.default_rng(1), options)
    b = nat.new_game(np.random.default_rng(1), options)
    assert isinstance(b, NativeState) and nat.to_dict(b) == py.to_dict(a)
    data = py.to_dict(a)
    data["wp"] = [10, 10]
    with pytest.raises(ConfigError, match="wp"):
        nat.from_dict(data)
    with pytest.raises(ConfigError, match="Suicidium Party expansion"):
        nat.new_game(np.random.default_rng(1), {"deck": ["MACCHINA_DEL_TEMPO"]})
    with pytest.raises(ConfigError, match="unknown suicidium reset options"):
        nat.new_game(np.random.default_rng(1), {"decks": []})


def test_clone_copies_the_generator_or_takes_the_one_given():
    py, nat, a, b = _pair(4, seed=3)
    copy = nat.clone(b)
    assert copy.rng is not b.rng
    assert copy.rng.bit_generator.state == b.rng.bit_generator.state
    rng = np.random.default_rng(4)
    assert nat.clone(b, rng).rng is rng
    nat.apply(copy, nat.legal_actions(copy)[0])
    assert copy.decisions == b.decisions + 1 and nat.to_dict(b) == py.to_dict(a)
    assert isinstance(nat.clone(a), rules.SuicidiumState)  # a Python state stays one
    assert isinstance(nat.from_python(nat.to_python(b)), NativeState)


@pytest.mark.parametrize("num_players", [2, 5])
def test_the_aec_env_on_the_native_engine_plays_the_python_envs_games(num_players):
    """What ``envs.make(..., core="native")`` builds: the same spec, the native engine."""
    import dataclasses

    from cardarena.envs.core.aec import CardGameEnv
    from cardarena.envs.suicidium import SPEC

    python_spec = dataclasses.replace(SPEC, engine_cls=rules.SuicidiumGame)
    native_spec = dataclasses.replace(SPEC, engine_cls=NativeSuicidiumGame)
    for checks in (True, False):
        ours = CardGameEnv(native_spec, checks=checks, num_players=num_players, expansion=True)
        ref = CardGameEnv(python_spec, checks=checks, num_players=num_players, expansion=True)
        for game in range(4):
            ours.reset(seed=game)
            ref.reset(seed=game)
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

    _, nat, _, state = _pair(4, seed=1)
    nat.apply(state, nat.legal_actions(state)[-1])
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert isinstance(other, NativeState) and other.rng is not state.rng
        assert nat.to_dict(other) == nat.to_dict(state)


def test_a_state_the_c_struct_cannot_play_on_is_refused():
    py = rules.SuicidiumGame(4)
    state = py.new_game(np.random.default_rng(0))
    twice = py.clone(state)
    twice.discard_pile = [twice.hands[0][0]]
    with pytest.raises(ConfigError, match="is in two places"):
        NativeState.from_python(twice)
    assert _native.encode(twice, 0).shape == (encoding.OBS_SIZE,)  # encoding reads, never grows
    lasting = py.clone(state)
    card = lasting.draw_pile.pop()
    lasting.lasting[1] = [[card, 0]]
    if rules.EFFECT[card] not in rules.LASTING_EFFECTS:
        with pytest.raises(ConfigError, match="allowed: a skip draw, skip main or shield card"):
            NativeState.from_python(lasting)
    nobody = py.clone(state)
    nobody.decider = -1
    with pytest.raises(ConfigError, match="deciding seat of a running game is -1"):
        NativeState.from_python(nobody)
    empty = py.clone(state)
    empty.decision = rules.D_TARGET_CARD
    with pytest.raises(ConfigError, match="a target decision with an empty table"):
        NativeState.from_python(empty)
    big = py.clone(state)
    big.object_pile = big.object_pile * 3
    with pytest.raises(ConfigError, match="objects"):
        NativeState.from_python(big)
    with pytest.raises(ConfigError, match="phase is 7"):
        bad = py.clone(state)
        bad.phase = 7
        NativeState.from_python(bad)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_rollouts_in_one_call_are_seeded_zero_sum_and_leave_the_state_alone(num_players):
    nat = NativeSuicidiumGame(num_players, expansion=True)
    state = nat.new_game(np.random.default_rng(num_players))
    before = nat.to_dict(state)
    values, decisions = nat.rollouts(state, 200, seed=7)
    again, decisions_again = nat.rollouts(state, 200, seed=7)
    other, _ = nat.rollouts(state, 200, seed=8)
    assert nat.to_dict(state) == before
    assert values.shape == (200, num_players) and decisions == decisions_again > 200 * 20
    assert np.array_equal(values, again) and not np.array_equal(values, other)
    assert np.allclose(values.sum(axis=1), 0.0)
    assert np.all(values.max(axis=1) == 1.0)  # one winner per game (U6)
    losers = np.sort(values, axis=1)[:, :-1]
    assert np.allclose(losers, -1.0 / (num_players - 1))
    # every seat wins some random games from the opening deal
    assert set(np.argmax(values, axis=1).tolist()) == set(range(num_players))
    assert nat.rollouts(state, 0, seed=1)[0].shape == (0, num_players)
    with pytest.raises(ConfigError, match="horizon 'round'"):
        nat.rollouts(state, 10, seed=1, horizon="round")
    with pytest.raises(ConfigError, match="count -1"):
        nat.rollouts(state, -1, seed=1)


def test_a_rollout_plays_the_python_engines_random_game_and_an_ended_game_returns_its_result():
    nat = NativeSuicidiumGame(3, mode="DEPRESSION")
    state = nat.new_game(np.random.default_rng(0))
    values, decisions = nat.rollouts(state, 1, seed=11)
    # the same playout stepped from Python: the legal action random_interval picks, the shuffles
    # and random cards from the same generator
    rng = np.random.default_rng(11)
    py = rules.SuicidiumGame(3, mode="DEPRESSION")
    world = py.clone(nat.to_python(state), rng=rng)
    steps = 0
    while not py.is_over(world):
        legal = py.legal_actions(world)
        py.apply(world, legal[int(_native.random_interval_for_test(rng, len(legal) - 1))])
        steps += 1
    assert steps == decisions and values[0].tolist() == py.returns(world)
    while not nat.is_over(state):
        nat.apply(state, nat.legal_actions(state)[0])
    values, decisions = nat.rollouts(state, 4, seed=0)
    assert decisions == 0 and np.array_equal(values, np.tile(nat.returns(state), (4, 1)))


NOT_BUILT = """
import sys
sys.modules["cardarena.envs.suicidium._native"] = None  # as if the extension were not built
import numpy as np
from cardarena import envs
from cardarena.envs.core.engine import ConfigError
from cardarena.envs.suicidium import encoding, native, rules
assert not native.NATIVE_BUILT and not native.NATIVE_AVAILABLE
assert native.native_encoder() is None and encoding.encode is encoding.encode_python
try:
    native.NativeSuicidiumGame(4)
except ConfigError as err:
    assert "native core is not built" in str(err), err
else:
    raise AssertionError("NativeSuicidiumGame without the extension")
env = envs.make("suicidium", num_players=3)
assert type(env.game) is rules.SuicidiumGame
env.reset(seed=0)
for agent in env.agent_iter():
    obs, _, term, trunc, _ = env.last()
    env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
print("ok")
"""


def test_without_the_extension_suicidium_runs_on_the_python_core():
    out = subprocess.run(
        [sys.executable, "-c", NOT_BUILT], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_envs_make_builds_the_native_engine_by_default_and_the_python_one_when_asked():
    from cardarena import envs

    assert type(envs.make("suicidium", core="python").game) is rules.SuicidiumGame
    assert type(envs.make("suicidium", core="native").game) is NativeSuicidiumGame
    default = envs.make("suicidium").game
    assert isinstance(default, NativeSuicidiumGame) == NATIVE_AVAILABLE


# ---- the heuristic baseline in C (the rollout policy of the search) ---------------------------
#: (mode, expansion) of every option set the heuristic reads differently
HEURISTIC_OPTIONS = [(m, x) for m in ("SURVIVE", "DEPRESSION") for x in (False, True)]
#: other settings of the agent (its attributes, the C port's options)
HEURISTIC_SETTINGS = [
    {},
    {"play_threshold": -0.5, "draw_margin": 6, "lift_weight": 0.0},
    {"play_threshold": 1.7, "draw_margin": 8, "lift_weight": 1.0},
]


def heuristic_games(num_players: int, mode: str, expansion: bool, games: int, seed: int):
    """``games`` full games of one Python ``HeuristicAgent`` per seat, with the C policy
    (``RolloutPolicy``: one plan per seat) asked the same decision before each agent: the same
    action, the same plan left, the same generator state (their random choices drawn from
    generators of the same seeds) at every decision. Returns (decisions, random draws seen)."""
    from cardarena import envs
    from cardarena.agents.baselines.suicidium import HeuristicAgent
    from cardarena.envs.core.loop import decide

    spec = envs.get_spec("suicidium")
    engine = rules.SuicidiumGame(num_players, mode, expansion)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    decisions = draws = 0
    for g in range(games):
        settings = HEURISTIC_SETTINGS[g % len(HEURISTIC_SETTINGS)]
        seeds = [seed * 10_000 + g * 10 + k for k in range(num_players)]
        agents = [HeuristicAgent(seed=s, **settings) for s in seeds]
        rngs = [np.random.default_rng(s) for s in seeds]
        policy = _native.RolloutPolicy("heuristic", num_players, rngs=rngs, **settings)
        state = engine.new_game(np.random.default_rng(seed * 10_000 + g))
        while not engine.is_over(state):
            seat = engine.current_player(state)
            before = agents[seat].rng.bit_generator.state
            got = policy.act(state)
            want = decide(spec, engine, state, seat, agents[seat], mask)
            assert got == want, (settings, engine.to_dict(state))
            assert policy.plans()[seat] == agents[seat].plan
            assert rngs[seat].bit_generator.state == agents[seat].rng.bit_generator.state
            draws += agents[seat].rng.bit_generator.state != before
            engine.apply(state, want)
            decisions += 1
    return decisions, draws


def heuristic_positions(num_players: int, mode: str, expansion: bool, games: int, seed: int):
    """Every decision of ``games`` games played by random actions and by the heuristic in turn:
    a fresh agent (no plan, so target decisions of a card played by another policy, the random
    choice among them) and ``policy_action`` (on the Python state and on its native copy) pick
    the same action and draw the same numbers. Returns (positions, kinds of decision, draws)."""
    from cardarena import envs
    from cardarena.agents.baselines.suicidium import HeuristicAgent
    from cardarena.envs.core.loop import decide

    spec = envs.get_spec("suicidium")
    engine = rules.SuicidiumGame(num_players, mode, expansion)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    plan = np.random.default_rng(seed)
    kinds: dict[int, int] = {}
    checked = draws = 0
    for g in range(games):
        state = engine.new_game(np.random.default_rng(int(plan.integers(2**31))))
        while not engine.is_over(state):
            agent = HeuristicAgent(seed=checked)
            before = agent.rng.bit_generator.state
            want = decide(spec, engine, state, engine.current_player(state), agent, mask)
            rng = np.random.default_rng(checked)
            assert _native.policy_action(state, "heuristic", rng=rng) == want, engine.to_dict(state)
            assert rng.bit_generator.state == agent.rng.bit_generator.state
            native = NativeState.from_python(state, np.random.default_rng(0))
            again = _native.policy_action(native, "heuristic", rng=np.random.default_rng(checked))
            assert again == want
            draws += agent.rng.bit_generator.state != before
            kinds[state.decision] = kinds.get(state.decision, 0) + 1
            checked += 1
            legal = engine.legal_actions(state)
            engine.apply(state, legal[int(plan.integers(len(legal)))] if g % 2 else want)
    return checked, kinds, draws


@pytest.mark.parametrize("mode", ["SURVIVE", "DEPRESSION"])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_c_heuristic_plays_the_python_agents_games(num_players, mode):
    """40 full games per mode and player count (20 with the expansion), every decision (400
    of them: the module's docstring)."""
    decisions = 0
    for expansion in (False, True):
        made, _ = heuristic_games(num_players, mode, expansion, 20, seed=num_players)
        decisions += made
    assert decisions > 40 * 60 * (num_players if mode == "SURVIVE" else num_players / 2)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_c_heuristic_decides_as_the_python_agent_on_thousands_of_positions(num_players):
    """Every decision kind, out of turn (responses) included, in every mode and option set;
    the random choice (no plan at a target decision) among them."""
    positions = draws = 0
    kinds: dict[int, int] = {}
    for mode, expansion in HEURISTIC_OPTIONS:
        checked, seen, drew = heuristic_positions(num_players, mode, expansion, 4, seed=7)
        positions += checked
        draws += drew
        for k, v in seen.items():
            kinds[k] = kinds.get(k, 0) + v
    assert positions > 1500
    assert draws > 0
    for decision in (rules.D_DRAW, rules.D_MAIN, rules.D_RESPOND, rules.D_TARGET_PLAYER):
        assert kinds[decision] > 100
    assert kinds[rules.D_TARGET_CARD] > 30 and kinds[rules.D_DISCARD] > 0


def test_the_c_heuristic_entry_points_refuse_bad_input():
    engine = NativeSuicidiumGame(3)
    state = engine.new_game(np.random.default_rng(0))
    with pytest.raises(ConfigError, match="policy 'greedy'; allowed"):
        _native.policy_action(state, "greedy")
    with pytest.raises(ConfigError, match="play_threshold nan; allowed: a finite number"):
        _native.policy_action(state, "heuristic", play_threshold=float("nan"))
    with pytest.raises(ConfigError, match="2 generators for 3 seats"):
        _native.RolloutPolicy("heuristic", 3, rngs=[np.random.default_rng(0)] * 2)
    with pytest.raises(ConfigError, match="generator 0 is int; allowed: a numpy Generator"):
        _native.RolloutPolicy("heuristic", 3, rngs=[0, 1, 2])
    with pytest.raises(ConfigError, match="a 4-player state; allowed: 3 players"):
        _native.RolloutPolicy("heuristic", 3).act(
            NativeSuicidiumGame(4).new_game(np.random.default_rng(0))
        )
    with pytest.raises(ConfigError, match="the heuristic needs rngs"):
        engine.play_out([state.clone()], "heuristic")
    with pytest.raises(ConfigError, match="needs seeds .* or py"):
        engine.play_out([state.clone()], "random")
    with pytest.raises(ConfigError, match="start 2; allowed: None"):
        engine.rollout_batch([state], "heuristic", start=2)
    with pytest.raises(ConfigError, match="horizon 0; allowed"):
        engine.rollout_batch([state], "random", 0)
    with pytest.raises(ConfigError, match="rollouts 0; allowed: 1 or more"):
        engine.rollout_batch([state], "random", rollouts=0)
    with pytest.raises(ConfigError, match="SuicidiumState among the states"):
        engine.rollout_batch([state.to_python()], "random")
    assert engine.rollout_batch([], "heuristic")[0].shape == (0, 3)
    assert engine.play_out([], "heuristic").shape == (0, 3)


def test_a_heuristic_without_a_generator_says_so_when_it_would_draw():
    """A fresh agent at a redirect's target decision has no plan: it draws at random."""
    engine = rules.SuicidiumGame(3, expansion=True)
    for g in range(200):
        state = engine.new_game(np.random.default_rng(g))
        while not engine.is_over(state):
            if state.decision == rules.D_TARGET_PLAYER and (
                rules.KIND[state.table[-1][rules.E_CARD]] == rules.RESPONSE
            ):
                with pytest.raises(ConfigError, match="has no generator for the seat"):
                    _native.policy_action(state, "heuristic")
                return
            legal = engine.legal_actions(state)
            engine.apply(state, legal[g % len(legal)])
    raise AssertionError("no redirect target decision in 200 games")


def test_heuristic_rollout_batches_are_seeded_and_leave_their_states_alone():
    engine = NativeSuicidiumGame(4, "DEPRESSION", expansion=True)
    states = [engine.new_game(np.random.default_rng(s)) for s in range(3)]
    saved = [engine.to_dict(s) for s in states]
    values, decisions = engine.rollout_batch(states, "heuristic", "game", 5, rollouts=4)
    again, decisions2 = engine.rollout_batch(states, "heuristic", "game", 5, rollouts=4)
    assert values.shape == (12, 4) and decisions == decisions2 > 12 * 20
    assert np.array_equal(values, again)
    assert np.allclose(values.sum(axis=1), 0.0) and (values.max(axis=1) > 0).all()
    assert [engine.to_dict(s) for s in states] == saved
    cut, made = engine.rollout_batch(states, "random", 3, 1, rollouts=2)
    assert made == 18 and not cut.any()  # 3 decisions: no game ends, worth 0 to everyone
