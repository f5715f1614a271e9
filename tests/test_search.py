"""Search agents (``pimc``, ``ismcts``): legal, reproducible whole games in every game and player
count, no hidden information reaches them, clear spec errors, and they work wherever an agent
spec is taken (gymnasium opponents, human play). Budgets are tiny: this is about behaviour."""

from __future__ import annotations

import io
import json

import gymnasium as gym
import numpy as np
import pytest

from cardarena import envs
from cardarena.agents import make_agent
from cardarena.agents.search import parse_spec
from cardarena.agents.search.ismcts import IsmctsAgent
from cardarena.agents.search.pimc import PimcAgent
from cardarena.envs.core.engine import CardArenaError, ConfigError
from cardarena.envs.core.loop import Worlds, decide, play
from cardarena.envs.core.seeding import agent_seed

TINY = {"pimc": "pimc:worlds=1", "ismcts": "ismcts:iterations=6"}


def play_game(name: str, n: int, specs: list[str], deal: int) -> tuple[list[int], list[float]]:
    spec = envs.get_spec(name)
    engine = spec.make_engine(num_players=n)
    state = engine.new_game(np.random.default_rng(deal))
    agents = [make_agent(name, specs[s % len(specs)]) for s in range(n)]
    for seat, agent in enumerate(agents):
        agent.reset(agent_seed(deal, seat))
    actions: list[int] = []
    play(spec, engine, state, agents, on_action=lambda seat, a: actions.append(a))
    assert engine.is_over(state)
    assert engine.conservation_error(state) is None
    return actions, engine.returns(state)


@pytest.mark.every_game
def test_search_agents_play_whole_games_legally_and_reproducibly(name: str, n: int) -> None:
    # pimc and ismcts at the first two seats, random at the rest (apply refuses illegal actions)
    specs = [TINY["pimc"], TINY["ismcts"]] + ["random"] * max(0, n - 2)
    if n == 1:
        specs = [TINY["ismcts" if name == "thegame" else "pimc"]]
    first = play_game(name, n, specs, deal=3)
    second = play_game(name, n, specs, deal=3)
    assert first == second


def test_thegame_solo_pimc_and_ismcts_with_a_scripted_rollout() -> None:
    for spec in ("pimc:worlds=1,rollout=greedy", "ismcts:iterations=4,rollout=greedy"):
        actions, returns = play_game("thegame", 2, [spec], deal=1)
        assert actions and len(set(returns)) == 1  # the team's shared return


@pytest.mark.parametrize("name", envs.names())
@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_decisions_do_not_depend_on_hidden_cards(name: str, kind: str) -> None:
    """Swap the true hidden cards (a state the seat cannot tell apart): same decision, same seed."""
    spec = envs.get_spec(name)
    n = spec.engine_cls.max_players if name != "thegame" else 3
    engine = spec.make_engine(num_players=n)
    state = engine.new_game(np.random.default_rng(11))
    rng = np.random.default_rng(12)
    mask = np.zeros(engine.num_actions, dtype=np.int8)
    budget = "pimc:worlds=2" if kind == "pimc" else "ismcts:iterations=12"
    agent = make_agent(name, budget)
    checked = 0
    for _ in range(400):
        if engine.is_over(state) or checked >= 3:
            break
        seat = engine.current_player(state)
        if len(engine.legal_actions(state)) > 1 and rng.random() < 0.3:
            twin = engine.resample_hidden(state, seat, np.random.default_rng(checked))
            chosen = []
            for world in (state, twin):
                agent.reset(77)
                chosen.append(decide(spec, engine, world, seat, agent, mask))
            assert chosen[0] == chosen[1]
            checked += 1
        legal = engine.legal_actions(state)
        engine.apply(state, legal[int(rng.integers(len(legal)))])
    assert checked >= 1


def test_the_worlds_handle_keeps_no_true_hidden_card() -> None:
    spec = envs.get_spec("thegame")
    engine = spec.make_engine(num_players=3)
    state = engine.new_game(np.random.default_rng(2))
    twin = engine.resample_hidden(state, 0, np.random.default_rng(5))
    assert twin.hands[1] != state.hands[1]
    a, b = Worlds(spec, engine, state, 0), Worlds(spec, engine, twin, 0)
    assert json.dumps(engine.to_dict(a._scrubbed)) == json.dumps(engine.to_dict(b._scrubbed))
    for seed in (1, 2):
        worlds = [w.sample(np.random.default_rng(seed)) for w in (a, b)]
        assert worlds[0].hands == worlds[1].hands and worlds[0].hands[0] == state.hands[0]


def test_a_search_agent_outside_the_loop_says_what_it_needs() -> None:
    agent = make_agent("flip6", "pimc")
    with pytest.raises(CardArenaError, match="Worlds handle"):
        agent.act(None, np.array([1, 1, 0, 0, 0, 0, 0, 0], dtype=np.int8), None)


def test_specs_build_the_agents_with_their_options() -> None:
    agent = make_agent("flip6", "pimc:worlds=3,rollouts=2,rollout=ev,horizon=round", seed=1)
    assert isinstance(agent, PimcAgent)
    assert (agent.num_worlds, agent.rollouts, agent.rollout_policy, agent.horizon) == (
        3,
        2,
        "ev",
        "round",
    )
    agent = make_agent("sevn", "ismcts:iterations=50,c=1.5")
    assert isinstance(agent, IsmctsAgent) and (agent.iterations, agent.c) == (50, 1.5)
    assert parse_spec("pimc") == (
        "pimc",
        {
            "worlds": 16,
            "rollouts": 1,
            "rollout": "random",
            "horizon": "game",
            "value": "standing",
            "depth": 0,
            "gate": 0.0,
            "min_worlds": 0,
        },
    )
    agent = make_agent("sevn", "pimc:worlds=8,min_worlds=2,rollout=ev,gate=1.5")
    assert (agent.num_worlds, agent.min_worlds, agent.gate) == (8, 2, 1.5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc:wolds=3", "pimc: unknown option 'wolds'; options: worlds, rollouts"),
        ("pimc:worlds=0", "pimc: worlds must be an integer >= 1, got '0'"),
        ("pimc:worlds=many", "pimc: worlds must be an integer >= 1, got 'many'"),
        ("pimc:worlds", "pimc: 'worlds' is not key=value"),
        ("pimc:", "pimc: nothing after ':'"),
        ("pimc:worlds=2,worlds=3", "pimc: option 'worlds' is given twice"),
        ("ismcts:c=-1", "ismcts: c must be a number > 0, got '-1'"),
        ("ismcts:c=nan", "ismcts: c must be a number > 0"),
        ("ismcts:iterations=10,worlds=2", "ismcts: unknown option 'worlds'; options: iterations"),
        (
            "ismcts:rollout=planner",
            r"ismcts: rollout must be one of \['random', 'threshold', 'ev'\]",
        ),
        ("pimc:horizon=forever", r"pimc: horizon must be one of \['game', 'round'\]"),
        ("pimc:gate=1", "gate keeps the rollout policy's own choice .* rollout=random"),
        ("pimc:gate=-1,rollout=ev", "pimc: gate must be a number >= 0, got '-1'"),
        ("pimc:worlds=4,min_worlds=5", r"min_worlds \(5\) must be <= worlds \(4\)"),
        (
            "pimc:value=leaf",
            r"value=leaf values a rollout cut .* needs horizon=round .* or depth=N",
        ),
        ("ismcts:value=oracle", r"value must be one of \['standing', 'leaf'\]"),
    ],
)
def test_spec_errors_name_the_bad_key_or_value(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_agent("flip6", spec)


def test_gymnasium_opponents_can_be_search_agents() -> None:
    env = gym.make("cardarena/flip6-v0", opponents="pimc:worlds=2", num_players=3)
    rng = np.random.default_rng(0)
    for episode in range(2):
        env.reset(seed=episode)
        done = False
        while not done:
            legal = np.flatnonzero(env.unwrapped.action_masks())
            _, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        assert "illegal_action" not in info
    assert all(
        name.startswith("pimc") for s, name in enumerate(info["opponents"]) if s != info["seat"]
    )


def test_a_person_plays_against_search_agents(tmp_path) -> None:
    from cardarena.agents.tools.play import play_human

    class Person(io.StringIO):
        def readline(self, *args):
            return "1\n"

    out = io.StringIO()
    rc = play_human(
        "flip6",
        0,
        ["ismcts:iterations=8", "pimc:worlds=2"],
        {"num_players": 3},
        seed=4,
        record_dir=tmp_path,
        inp=Person(),
        out=out,
    )
    assert rc == 0 and "game over" in out.getvalue()
