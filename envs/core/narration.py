"""What a seat saw happen: one action of a game told in words, for the people watching a table.

:func:`narrate` is the one entry point of the terminal table, the replay viewer and the browser
table. It is given the views of the watching seat before and after the action (``spec.view``), so
it can tell nothing that seat may not see: whatever it says is read from two views of that seat,
never from the state.

The first line is the action itself (``"seat 2 (ev): hit"``); the lines after it, each indented
two spaces, tell what the action did: the cards drawn, busts, effects, the end of a round or of
the game. A game tells them in its own module, named by its manifest (``narration =
"cardarena.envs.flip6.narration"`` in ``game.toml``), whose ``narrate(before, after, actor, seat,
name)`` returns those lines; a game whose manifest names none is told by its action text alone.
The helpers below are what several games' modules share (multiset differences of card lists, the
points race of Flip 6 and SEVN).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardarena.envs.core.spec import resolve

#: the indent of every line after the first
INDENT = "  "


def seat_name(seat: int) -> str:
    return f"seat {seat}"


def narrate(
    spec: Any,
    before: dict[str, Any],
    after: dict[str, Any],
    actor: int,
    action_text: str,
    seat: int,
    name: Callable[[int], str] = seat_name,
) -> list[str]:
    """Lines telling ``seat`` what the action of ``actor`` (``action_text``) did, the first line
    the action itself (``"<name(actor)>: <action_text>"``), then what it did, indented (the
    game's narration module, if its manifest names one). ``before`` and ``after`` are
    ``spec.view(state, seat)`` just before and just after the action."""
    lines = [f"{name(actor)}: {action_text}"]
    module = getattr(spec, "narration", None)
    if module:
        told = resolve(module).narrate(before, after, actor, seat, name)
        lines += [INDENT + addressed(line) for line in told if line]
    return lines


#: the verbs the games' lines use, told to "you" (the terminal table names its seat so)
_YOU = {
    "gets": "get", "discards": "discard", "busts": "bust", "stays": "stay", "passes": "pass",
    "banks": "bank", "draws": "draw", "picks": "pick", "holds": "hold", "knocks": "knock",
    "looks": "look", "puts": "put", "takes": "take", "turns": "turn", "signals": "signal",
    "deals": "deal", "is": "are", "has": "have", "plays": "play", "will": "will", "must": "must",
}  # fmt: skip
_YOU_VERB = re.compile(r"\byou (" + "|".join(_YOU) + r")\b")


def addressed(line: str) -> str:
    """A line that names the seat "you" in the second person ("you gets 5" -> "you get 5")."""
    line = _YOU_VERB.sub(lambda m: f"you {_YOU[m.group(1)]}", line)
    if line.startswith("you get "):  # "you get 6: busts (second 6)"
        line = re.sub(r": (busts|stays|passes|is)\b", lambda m: f": {_YOU[m.group(1)]}", line)
    return line


# ---- helpers the games share ----------------------------------------------------------------


def gained(before: Iterable[Any], after: Iterable[Any]) -> list[Any]:
    """The items of ``after`` that ``before`` lacks, as a multiset, in ``after``'s order."""
    left = Counter(before)
    out = []
    for item in after:
        if left[item] > 0:
            left[item] -= 1
        else:
            out.append(item)
    return out


def counted_loss(before: Mapping[str, int], after: Mapping[str, int]) -> list[str]:
    """The codes whose count fell from ``before`` to ``after``, each as often as it fell (the
    cards that left an unseen pile, say), in ``before``'s order."""
    out: list[str] = []
    for code, n in before.items():
        out += [code] * max(0, int(n) - int(after.get(code, 0)))
    return out


def listed(items: Sequence[Any]) -> str:
    return ", ".join(str(i) for i in items)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: how a race seat's new status is told (Flip 6 and SEVN status names)
RACE_STATUS = {
    "stayed": "stays",
    "passed": "passes",
    "frozen": "is frozen",
    "busted": "busts",
}


def race_lines(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    name: Callable[[int], str],
    new_round: bool,
    round_word: str = "round",
) -> list[str]:
    """What a points race (Flip 6, SEVN) shows happened: the cards each seat got, the seats that
    stayed, busted or froze (a bust names the duplicate), what each banked, the cards drawn that
    went straight to the discard pile, the end of the round (``new_round``: the tables were
    cleared for the next one), the new deal and the end of the game."""
    lines: list[str] = []
    seats = range(len(after["scores"]))
    placed: list[str] = []
    for s in seats:
        old, new = before["table"][s], after["table"][s]
        if new_round and gained(new, old):
            placed += new  # cleared and dealt again: told as the new deal
            continue
        got = gained(old, new)
        placed += got
        status = after["status"][s]
        told = f"{name(s)} gets {listed(got)}" if got else ""
        if status != before["status"][s] and status in RACE_STATUS:
            what = RACE_STATUS[status]
            if status == "busted":
                twice = [c for i, c in enumerate(got) if c in old or c in got[:i]]
                what += f" (second {twice[0]})" if twice else ""
            told = f"{told}: {what}" if told else f"{name(s)} {what}"
        if told:
            lines.append(told)
        lost = gained(new, old)
        if lost:
            lines.append(f"{name(s)} discards {listed(lost)}")
    holding = after.get("holding")
    placed += [holding] if isinstance(holding, str) else list(holding or [])
    straight = gained(placed, counted_loss(before["unseen"], after["unseen"]))
    if straight:
        where = "the round's last card" if new_round else "straight to the discard pile"
        lines.append(f"drawn: {listed(straight)} ({where})")
    gains = [int(after["scores"][s]) - int(before["scores"][s]) for s in seats]
    for s in seats:
        if gains[s]:
            lines.append(f"{name(s)} banks {signed(gains[s])} (total {after['scores'][s]})")
    over = after["decision"] == "game_over"
    if new_round:
        totals = " / ".join(str(t) for t in after["scores"])
        lines.append(f"{round_word} over: totals {totals}")
    if new_round and not over:
        dealt = [f"{name(s)} {listed(after['table'][s])}" for s in seats if after["table"][s]]
        lines.append(
            f"new {round_word}, {name(int(after['dealer']))} deals"
            + (f": {'; '.join(dealt)}" if dealt else "")
        )
    if over and before["decision"] != "game_over":
        lines.append("game over")
    return lines
