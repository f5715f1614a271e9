"""Search agents for every game and player count: PIMC and single-observer ISMCTS.

Both decide by sampling worlds of their seat's information set and playing them on (rollouts),
so they need what the game loop hands agents that declare ``uses_worlds = True``: a
``envs.core.loop.Worlds`` handle (engine, spec, seat, ``sample(rng)``) built from a scrubbed copy
of the state. They never see a true hidden card.

Specs (``make_agent``, evaluate.py, ``gymnasium.make(..., opponents=...)``, human play)::

    pimc                                   16 worlds, 1 rollout per world and action, random
    pimc:worlds=16,rollouts=1,rollout=ev   options as key=value, comma-separated
    ismcts:iterations=200,rollout=random,c=0.7

Options (all optional):

============  ==========  ===================================================================
option        agents      meaning (default)
============  ==========  ===================================================================
worlds        pimc        worlds sampled per decision (16)
rollouts      pimc        rollouts per world and legal action (1)
iterations    ismcts      iterations per decision, one world sampled for each (200)
c             ismcts      UCB exploration constant (0.7)
rollout       both        ``random`` or a scripted baseline of the game (``random``)
horizon       both        ``game`` (roll out to the end, value = the return) or ``round``
                          (stop at the end of the round in progress, value = the lead in game
                          totals, ``engine.standing``; games without rounds go to the end)
                          (``game``)
depth         both        cut every rollout after this many decisions (also within a round with
                          ``horizon=round``); 0: no cut (0)
value         both        how a cut rollout is valued (a round boundary with ``horizon=round``,
                          or a ``depth`` cut): ``standing`` or ``leaf``, a small net fitted to
                          the final returns of games of the rollout policy
                          (``agents/search/leaf.py``): on ``round_features`` at round ends
                          (flip6, sevn, ratatat), on ``state_features`` with ``depth`` (suicidium,
                          thegame) (``standing``)
gate          pimc        0: play the best mean. > 0: play the rollout policy's own choice unless
                          another action beats it by ``gate`` standard errors of the paired
                          difference (one step of policy improvement; needs a scripted
                          ``rollout``) (0)
min_worlds    pimc        with ``gate``: after this many worlds, stop when no action is within
                          2 standard errors of beating the rollout policy's choice (0 = never)
============  ==========  ===================================================================

Rollouts run in C where the engine ports the rollout policy (``engine.rollout_policies``; the
native engines of flip6 and sevn: ``random``, ``threshold``, ``ev``; ratatat's: ``random``,
``tracker``; thegame's: ``random``, ``planner``; suicidium's: ``random``, ``heuristic``):
``agents/search/rollout.py`` hands them to ``engine.play_out`` with the same generators, so the
values and the decisions are those of the Python rollouts (``tests/test_native_rollouts.py``),
only faster.

The strongest settings measured are in docs/results/search.md and the games' manifests
(``search:<game>``): the gated ``pimc`` at 64 worlds beats ``ev`` in flip6 and sevn, ``tracker``
in ratatat and (at 64 and 256 worlds) ``heuristic`` in both suicidium modes.
"""

from __future__ import annotations

import math
import re
from typing import Any

from cardarena.envs.core.engine import ConfigError

#: option -> (kind, default) per agent kind; kinds: "int" (>= 1), "float" (> 0), "text"
OPTIONS: dict[str, dict[str, tuple[str, Any]]] = {
    "pimc": {
        "worlds": ("int", 16),
        "rollouts": ("int", 1),
        "rollout": ("text", "random"),
        "horizon": ("text", "game"),
        "value": ("text", "standing"),
        "depth": ("int0", 0),
        "gate": ("float0", 0.0),
        "min_worlds": ("int0", 0),
    },
    "ismcts": {
        "iterations": ("int", 200),
        "c": ("float", 0.7),
        "rollout": ("text", "random"),
        "horizon": ("text", "game"),
        "value": ("text", "standing"),
        "depth": ("int0", 0),
    },
}
_KEY = re.compile(r"[a-z_]+")
#: the largest budgets a spec may ask for (a decision at more would take minutes or hours):
#: 100,000 worlds take about a minute per decision with native rollouts, far longer without
MAX_BUDGET = {
    "worlds": 100_000,
    "min_worlds": 100_000,
    "rollouts": 1_000,
    "iterations": 1_000_000,
    "depth": 20_000,  # rollout.MAX_ROLLOUT: every rollout is cut there anyway
}

#: what an option means, added to its error
HINTS = {
    "depth": " (the decisions a rollout plays before it is cut and valued; 0: no cut; e.g. depth=20)"
}


def is_search_spec(spec: str) -> bool:
    return spec.partition(":")[0] in OPTIONS


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"pimc:worlds=8,rollout=ev"`` -> ``("pimc", {"worlds": 8, ..., defaults})``.

    Raises ConfigError naming the bad key or value and what is allowed."""
    kind, colon, rest = spec.partition(":")
    if kind not in OPTIONS:
        raise ConfigError(f"unknown search agent {kind!r}; known: {sorted(OPTIONS)}")
    schema = OPTIONS[kind]
    options = {key: default for key, (_, default) in schema.items()}
    if colon and not rest.strip():
        raise ConfigError(f"{kind}: nothing after ':'; write e.g. {kind}:{_example(kind)}")
    for key, text in key_values(kind, rest, list(schema), _example(kind)).items():
        options[key] = _convert(kind, key, schema[key][0], text)
    return kind, options


def key_values(kind: str, rest: str, known: list[str], example: str) -> dict[str, str]:
    """The ``key=value`` items of a spec's text after ``kind:``, each key one of ``known`` and
    given once (the values as written); a ConfigError names the item and what is allowed, with
    ``kind:example`` as the model. Shared by the search specs and the seer's."""
    names = ", ".join(known)
    out: dict[str, str] = {}
    for item in rest.split(",") if rest.strip() else []:
        key, eq, text = (part.strip() for part in item.partition("="))
        if not eq or not _KEY.fullmatch(key) or not text:
            raise ConfigError(
                f"{kind}: {item.strip()!r} is not key=value; options: {names} "
                f"(e.g. {kind}:{example})"
            )
        if key not in known:
            raise ConfigError(f"{kind}: unknown option {key!r}; options: {names}")
        if key in out:
            raise ConfigError(f"{kind}: option {key!r} is given twice")
        out[key] = text
    return out


def _example(kind: str) -> str:
    return ",".join(f"{k}={v}" for k, (_, v) in OPTIONS[kind].items())


def _convert(kind: str, key: str, type_: str, text: str) -> Any:
    if type_ in ("int", "int0"):
        low = 1 if type_ == "int" else 0
        if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < low:
            raise ConfigError(
                f"{kind}: {key} must be an integer >= {low}, got {text!r}{HINTS.get(key, '')}"
            )
        most = MAX_BUDGET.get(key)
        if key == "depth" and int(text) > MAX_BUDGET["depth"]:
            raise ConfigError(
                f"{kind}: depth={text} is more than {most:,}, the length at which every rollout "
                f"is cut anyway; use depth=0 for no cut{HINTS['depth']}"
            )
        if most is not None and int(text) > most:
            raise ConfigError(
                f"{kind}: {key}={text} is more than {most:,}, the most a decision may take "
                f"(MAX_BUDGET in agents/search/__init__.py): such a decision would not finish"
            )
        return int(text)
    if type_ in ("float", "float0"):
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < 0 or (value == 0 and type_ == "float"):
            bound = "> 0" if type_ == "float" else ">= 0"
            raise ConfigError(f"{kind}: {key} must be a number {bound}, got {text!r}")
        return value
    return text


def make_search_agent(game: str, spec: str, seed: int | None = None) -> Any:
    """The agent of a ``pimc[:...]`` / ``ismcts[:...]`` spec (checks rollout and horizon too)."""
    from cardarena.agents.search.ismcts import IsmctsAgent
    from cardarena.agents.search.pimc import PimcAgent
    from cardarena.agents.search.rollout import HORIZONS
    from cardarena.agents.specs import scripted

    kind, options = parse_spec(spec)
    policies = ["random", *scripted(game)]
    if options["rollout"] not in policies:
        raise ConfigError(
            f"{kind}: rollout must be one of {policies} for {game}, got {options['rollout']!r}"
        )
    if options["horizon"] not in HORIZONS:
        raise ConfigError(
            f"{kind}: horizon must be one of {list(HORIZONS)}, got {options['horizon']!r}"
        )
    if options.get("gate") and options["rollout"] == "random":
        raise ConfigError(
            f"{kind}: gate keeps the rollout policy's own choice unless another action is "
            f"clearly better, so it needs a scripted rollout (e.g. rollout=ev), got rollout=random"
        )
    if options.get("min_worlds", 0) > options.get("worlds", 0):
        raise ConfigError(
            f"{kind}: min_worlds ({options['min_worlds']}) must be <= worlds ({options['worlds']})"
        )
    cls = PimcAgent if kind == "pimc" else IsmctsAgent
    return cls(game, seed=seed, name=spec, **options)


__all__ = ["OPTIONS", "is_search_spec", "make_search_agent", "parse_spec"]
