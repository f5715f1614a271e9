"""Language-model agents: ``llm:module:function[?retries=N&fallback=SPEC&on_error=raise|fallback]``.

The user's function plays: it takes the conversation so far, a list of chat messages
(``{"role": "system" | "user" | "assistant", "content": str}``, the form every chat API takes),
and returns the model's reply as a str. Any model or provider fits behind it, and tests use a
scripted one (no network). Each decision:

1. the conversation is the system message (``prompt.SYSTEM``) and the prompt of
   ``prompt.build_prompt`` (rules, the seat's view as JSON, the legal action texts);
2. the reply is read by ``prompt.read_reply`` (the last ``ACTION: <text>`` line, else the last
   line, through the engine's ``parse_action``). A reply with no legal action in it is answered
   with the refusal (what was wrong, the legal texts) and the model asked again, at most
   ``retries`` times (default 2);
3. still no legal action: the ``fallback`` agent plays (any agent spec but ``llm:``; default
   ``random``, so a model that cannot answer is not carried by a strong player).

A decision with one legal action is played without asking (``act_forced``). An exception in the
user's function stops the game with an :class:`LLMError` naming the agent, game, seat and
decision (``on_error=fallback``: the fallback plays that decision instead, and the note says
why). After each ``act`` the agent's ``note`` is the decision's transcript (every message, the
replies, the refusals, how many were asked, whether the fallback played), which
``evaluate.py --record`` and human play write into the replay's action line
(``python -m cardarena.agents.tools.replay FILE --transcript`` shows it).

Manual: docs/llm_agents.md.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.agents.base import Agent
from cardarena.agents.outside.prompt import SYSTEM, Refused, build_prompt, read_reply
from cardarena.envs.core.engine import CardArenaError, ConfigError
from cardarena.envs.core.registry import get_spec

KIND = "llm"
MAX_RETRIES = 10
DEFAULT_RETRIES = 2
DEFAULT_FALLBACK = "random"
ON_ERROR = ("raise", "fallback")
#: the longest message text a transcript keeps (the model is sent the whole of it): a reply of
#: a model that thinks aloud for pages is cut in the note, so the replay stays readable
MAX_NOTE_TEXT = 20_000
Messages = list[dict[str, str]]


class LLMError(CardArenaError):
    """The user's model function raised (or returned something that is not a reply)."""


def parse_spec(spec: str) -> tuple[str, str, dict[str, Any]]:
    """``llm:module:function?key=value&...`` -> (module, function, options)."""
    body, _, query = spec[len(KIND) + 1 :].partition("?")
    module, _, function = body.rpartition(":")
    usage = f"write it llm:module:function[?retries=N&fallback=SPEC&on_error={'|'.join(ON_ERROR)}]"
    if not module or not function or not function.isidentifier():
        raise ConfigError(f"agent spec {spec!r} names no model function: {usage}")
    options: dict[str, Any] = {
        "retries": DEFAULT_RETRIES,
        "fallback": DEFAULT_FALLBACK,
        "on_error": "raise",
    }
    for item in query.split("&") if query else []:
        key, eq, value = item.partition("=")
        if not eq or key not in options:
            raise ConfigError(
                f"agent spec {spec!r}: {item!r} is not an option; the options are "
                f"{sorted(options)} ({usage})"
            )
        options[key] = value
    try:
        retries = int(options["retries"])
    except ValueError:
        retries = -1
    if not 0 <= retries <= MAX_RETRIES:
        raise ConfigError(
            f"agent spec {spec!r}: retries={options['retries']!r}; give a whole number in "
            f"0..{MAX_RETRIES}"
        )
    options["retries"] = retries
    if options["on_error"] not in ON_ERROR:
        raise ConfigError(
            f"agent spec {spec!r}: on_error={options['on_error']!r}; give one of {list(ON_ERROR)}"
        )
    if options["fallback"].startswith(f"{KIND}:") or not options["fallback"]:
        raise ConfigError(
            f"agent spec {spec!r}: fallback={options['fallback']!r}; the fallback must be an "
            f"agent that always answers ('random', a baseline, 'zoo:NAME', ...), not a model"
        )
    return module, function, options


def load_function(spec: str, module: str, function: str) -> Callable[[Messages], str]:
    """The model function the spec names (its module is imported: the user named it)."""
    try:
        fn = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError) as err:
        raise ConfigError(
            f"cannot load the model function of {spec!r}: {err}; the module must be importable "
            f"(PYTHONPATH) and define {function}(messages) -> str"
        ) from None
    if not callable(fn):
        raise ConfigError(f"{spec!r} names {fn!r}, not a function of the messages")
    return fn


class LLMAgent(Agent):
    """A seat played by a model function (see the module docstring)."""

    def __init__(
        self,
        game: str,
        ask: Callable[[Messages], str],
        fallback: Agent,
        retries: int = DEFAULT_RETRIES,
        on_error: str = "raise",
        name: str = "llm",
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.game = game
        self.ask = ask
        self.retries = int(retries)
        self.on_error = on_error
        self.name = name
        self.engine = get_spec(game).make_engine()  # action texts only (the same for every table)
        self._fallback = fallback
        self.fallback = fallback
        #: the transcript of the last decision (None: no model was asked), read by the recorders
        self.note: dict[str, Any] | None = None
        #: counts over the games since reset: decisions asked, retries, fallbacks played
        self.stats = {"asked": 0, "retries": 0, "fallbacks": 0}

    # the loop builds what the fallback reads too
    @property
    def uses_observation(self) -> bool:  # type: ignore[override]
        return bool(getattr(self.fallback, "uses_observation", True))

    @property
    def uses_worlds(self) -> bool:  # type: ignore[override]
        return bool(getattr(self.fallback, "uses_worlds", False))

    def set_worlds(self, worlds: Any) -> None:
        if self.uses_worlds:
            self.fallback.set_worlds(worlds)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # a copy per seat and game (tournaments copy agents shallowly), seeded with this seat
        self.fallback = copy.copy(self._fallback)
        self.fallback.reset(seed)
        self.note = None
        self.stats = {"asked": 0, "retries": 0, "fallbacks": 0}

    def act_forced(self, action: int) -> bool:
        self.note = None  # one legal action: nothing to ask
        return True

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if len(action_mask) != self.engine.num_actions:
            raise CardArenaError(
                f"agent {self.name!r}: a mask of {len(action_mask)} actions; {self.game} has "
                f"{self.engine.num_actions} (is this agent seated at another game?)"
            )
        seat = view.get("seat") if isinstance(view, dict) else None
        texts = [self.engine.describe_action(a) for a in legal]
        messages: Messages = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": build_prompt(self.game, view, texts)},
        ]
        note: dict[str, Any] = {"kind": KIND, "asked": 0, "fallback": False}
        self.note = note
        self.stats["asked"] += 1
        for attempt in range(self.retries + 1):
            note["asked"] = attempt + 1
            try:
                reply = self.ask([dict(m) for m in messages])  # a copy: the model cannot edit ours
            except Exception as err:  # noqa: BLE001 - any failure of the user's function
                where = (
                    f"agent {self.name!r} playing {self.game} at seat {seat} (decision "
                    f"{view.get('decision') if isinstance(view, dict) else '?'}, try {attempt + 1})"
                )
                why = f"the model function raised {type(err).__name__}: {err}"
                if self.on_error != "fallback":
                    raise LLMError(
                        f"{where}: {why}; fix the function, or add on_error=fallback to the spec "
                        f"to let the fallback play such decisions"
                    ) from err
                note["error"] = why
                break
            if not isinstance(reply, str):
                why = f"the model function returned {type(reply).__name__}, not a str"
                if self.on_error != "fallback":
                    raise LLMError(
                        f"agent {self.name!r} playing {self.game} at seat {seat}: {why}; it must "
                        f"return the reply's text"
                    )
                note["error"] = why
                break
            messages.append({"role": "assistant", "content": reply})
            try:
                action = read_reply(self.engine, reply, legal)
            except Refused as refusal:
                messages.append({"role": "user", "content": f"Refused: {refusal}"})
                if attempt < self.retries:
                    self.stats["retries"] += 1
                continue
            note["messages"] = _kept(messages)
            note["action"] = self.engine.describe_action(action)
            return action
        note["messages"] = _kept(messages)
        note["fallback"] = True
        self.stats["fallbacks"] += 1
        action = int(self.fallback.act(observation, action_mask, view))
        note["action"] = self.engine.describe_action(action)
        return action


def _kept(messages: Messages) -> Messages:
    """The messages as a transcript keeps them: each text cut at :data:`MAX_NOTE_TEXT`."""
    out = []
    for m in messages:
        text = m["content"]
        if len(text) > MAX_NOTE_TEXT:
            text = f"{text[:MAX_NOTE_TEXT]}... [{len(text) - MAX_NOTE_TEXT} more characters cut]"
        out.append({"role": m["role"], "content": text})
    return out


def build_llm_agent(
    game: str,
    spec: str,
    seed: int | None,
    build: Callable[[str, str, int | None], Agent],
) -> LLMAgent:
    """The agent of an ``llm:`` spec; ``build(game, spec, seed)`` builds its fallback."""
    module, function, options = parse_spec(spec)
    ask = load_function(spec, module, function)
    fallback = build(game, options["fallback"], seed)
    return LLMAgent(
        game,
        ask,
        fallback,
        retries=options["retries"],
        on_error=options["on_error"],
        name=spec,
        seed=seed,
    )
