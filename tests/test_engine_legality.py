"""The engines' fast legality tests in ``apply`` refuse exactly what ``legal_actions`` leaves out.

For speed, ``apply`` tests the common actions one at a time (suicidium: playing a card, PASS,
"draw k") instead of building the whole legal list; this checks, on random mid-game states of
every player count and option that changes the rules, that every action of the action space is
accepted by ``apply`` exactly when ``legal_actions`` lists it (an illegal one raises
``IllegalActionError`` and leaves the state as it was).
"""

from __future__ import annotations

import copy
from itertools import product
from typing import Any

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core.engine import IllegalActionError


def _configs() -> list[Any]:
    """Every game at its least, a middle and its largest player count, in every combination of
    the options that change its rules (``rule_options`` of its manifest)."""
    out = []
    for name in envs.names():
        spec = envs.get_spec(name)
        cls = spec.engine_cls
        counts = sorted(
            {cls.min_players, (cls.min_players + cls.max_players) // 2, cls.max_players}
        )
        keys = list(spec.rule_options)
        for n in counts:
            for values in product(*(spec.rule_options[k] for k in keys)):
                options = dict(zip(keys, values, strict=True))
                tag = "-".join(str(v) for v in values)
                out.append(
                    pytest.param(name, n, options, id=f"{name}-{n}p" + (f"-{tag}" if tag else ""))
                )
    return out


CONFIGS = _configs()


@pytest.mark.parametrize(("name", "n", "options"), CONFIGS)
def test_apply_accepts_exactly_the_legal_actions(
    name: str, n: int, options: dict[str, Any]
) -> None:
    engine = envs.get_spec(name).make_engine(num_players=n, **options)
    checked = 0
    game = 0
    while checked < 60:
        state = engine.new_game(np.random.default_rng(game))
        rng = np.random.default_rng(10**6 + game)
        while not engine.is_over(state):
            legal = engine.legal_actions(state)
            if rng.random() < 0.3:
                checked += 1
                seat = engine.current_player(state)
                before = engine.to_dict(state)
                for action in range(engine.num_actions):
                    if action in legal:
                        engine.apply(copy.deepcopy(state), action, seat)  # must not raise
                    else:
                        with pytest.raises(IllegalActionError):
                            engine.apply(state, action, seat)
                assert engine.to_dict(state) == before, f"{name} game {game}: state changed"
            engine.apply(state, legal[int(rng.integers(len(legal)))])
        game += 1
