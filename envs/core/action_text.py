"""Action texts from outside (a person's line, a replay file): every engine's ``parse_action`` is
guarded here, so any text is either an action or an :class:`IllegalActionError` naming it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from cardarena.envs.core.errors import CardArenaError, IllegalActionError
from cardarena.envs.core.state_io import _show

if TYPE_CHECKING:
    from cardarena.envs.core.engine import GameEngine


# ---- action texts from outside (a person's line, a replay file) ----------------------------------
#: the longest action text any engine reads (the longest one written is 32 characters)
MAX_ACTION_TEXT = 100
#: the characters action texts are made of: printable ASCII, plus the whitespace split() drops
_TEXT_CHARS = frozenset(map(chr, range(0x20, 0x7F))) | frozenset("\t\n\r")


def action_forms(engine: GameEngine[Any], limit: int = 12) -> str:
    """The action texts an engine reads, one example per first word with a count of the rest:
    ``'stay', 'hit', 'target 0' (+5 more 'target ...')``."""
    groups: dict[str, list[str]] = {}
    for a in range(engine.num_actions):
        text = engine.describe_action(a)
        groups.setdefault(text.split(" ", 1)[0], []).append(text)
    shown = []
    for word, texts in list(groups.items())[:limit]:
        more = f" (+{len(texts) - 1} more {word!r} ...)" if len(texts) > 1 else ""
        shown.append(f"{texts[0]!r}{more}")
    if len(groups) > limit:
        shown.append(f"... ({len(groups) - limit} more kinds)")
    return ", ".join(shown)


def refuse_text(engine: GameEngine[Any], text: Any, why: str, legal: Sequence[str] | None = None):
    """The :class:`IllegalActionError` for an action text ``engine`` does not read."""
    shown = _show(text, 60)
    known = f"legal now: {list(legal)}" if legal is not None else f"known: {action_forms(engine)}"
    return IllegalActionError(f"{engine.name}: cannot read action text {shown} ({why}); {known}")


def _guard_parse(parse: Callable[[Any, str], int]) -> Callable[[Any, str], int]:
    """``parse_action`` of an engine, made to raise :class:`IllegalActionError` (naming the text
    and the texts it reads) for any input: a non-string, an over-long text, a character no action
    text uses (``'²'`` or ``'٣'`` pass ``str.isdigit`` but are no digits of an action text), or
    whatever the game's own parser trips on (``int()`` of 5,000 digits, a table lookup)."""

    @functools.wraps(parse)
    def parse_action(self: GameEngine[Any], text: str) -> int:
        if not isinstance(text, str):
            raise refuse_text(self, text, f"type {type(text).__name__}, not str")
        if len(text) > MAX_ACTION_TEXT:
            raise refuse_text(self, text, f"{len(text)} characters; at most {MAX_ACTION_TEXT}")
        odd = next((c for c in text if c not in _TEXT_CHARS), None)
        if odd is not None:
            raise refuse_text(self, text, f"the character {odd!r} is in no action text")
        if not text.strip():
            raise refuse_text(self, text, "empty")
        try:
            action = parse(self, text)
        except IllegalActionError:
            raise  # the game's own refusal already names the text and the forms it reads
        except (CardArenaError, ValueError, OverflowError, IndexError, KeyError, TypeError) as err:
            raise refuse_text(self, text, f"{type(err).__name__}: {err}") from None
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise refuse_text(self, text, f"the parser gave {action!r}, not an action id")
        if not 0 <= int(action) < self.num_actions:
            raise refuse_text(self, text, f"the parser gave {action!r}, out of range")
        return int(action)

    parse_action._guarded = True  # type: ignore[attr-defined]
    return parse_action
