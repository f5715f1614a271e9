"""What a seat is told an action did (envs/core/narration.py and envs/<game>/narration.py): told
for every action of many random games without an error, read from the seat's views only (so it
never names a card those views do not show), and saying what happened (draws, busts, banks,
rounds, effects)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from cardarena.envs.core.narration import INDENT, gained, narrate
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.suicidium.narration import card_name
from cardarena.envs.suicidium.rules import CARD_IDS, OBJECT_CODES

GAMES = names()


def played(game, num_players, seed, seats=None):
    """Every action of one random game: (actor, text, {seat: (before, after, lines)})."""
    spec = get_spec(game)
    engine = spec.make_engine(num_players=num_players)
    state = engine.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    seats = range(num_players) if seats is None else seats
    while not engine.is_over(state):
        actor = engine.current_player(state)
        action = int(rng.choice(list(engine.legal_actions(state))))
        before = {s: spec.view(state, s) for s in seats}
        engine.apply(state, action, actor)
        text = engine.describe_action(action)
        told = {}
        for s in seats:
            after = spec.view(state, s)
            told[s] = (before[s], after, narrate(spec, before[s], after, actor, text, s))
        yield actor, text, told


def counts(game):
    engine_cls = get_spec(game).engine_cls
    return range(engine_cls.min_players, min(engine_cls.max_players, 5) + 1)


@pytest.mark.parametrize("game", GAMES)
def test_every_action_of_random_games_is_told(game):
    """A hundred random games per game (thirty of the slow SEVN and Suicidium), every player
    count up to 5, every action told to one seat (to every seat in the first three): the first line is the action, the rest indented, and something more than the
    action is told in every game."""
    more = 0
    games = 0
    for n in counts(game):
        for seed in range(10 if game in ("sevn", "suicidium") else 34):
            games += 1
            seats = None if seed < 3 else [seed % n]
            for actor, text, told in played(game, n, seed, seats):
                for lines in (t[2] for t in told.values()):
                    assert lines[0] == f"seat {actor}: {text}"
                    assert all(line.startswith(INDENT) and line.strip() for line in lines[1:])
                    more += len(lines) > 1
    assert games >= (30 if game in ("sevn", "suicidium") else 100) and more > games


def visible(game, view):
    """The card codes a seat's view shows (unseen counts excluded)."""
    if game in ("flip6", "sevn"):
        cards = [c for row in view["table"] for c in row] + list(view["discard_pile"])
        held = view["holding"]
        return set(cards) | ({held} if isinstance(held, str) else set(held or []))
    if game == "ratatat":
        cards = [c for row in view["rows"] for c in row if c is not None]
        cards += list(view["discard_pile"]) + [view["held"], view["top_discard"]]
        return {c for c in cards if c is not None}
    if game == "suicidium":
        cards = list(view["hand"]) + list(view["discard_pile"]) + list(view["takeable"])
        cards += [e["card"] for e in view["table"]] + [e["target"] for e in view["table"]]
        cards += [x["card"] for row in view["lasting"] for x in row]
        cards += [c for row in view["known"] for c in row]
        cards += [o for row in view["objects"] for o in row]
        return {c for c in cards if c}
    return set(view["hand"]) | {c for pile in view["piles"] for c in pile}


PRETTY = {card_name(c): c for c in CARD_IDS}
SUICIDIUM_CARD = re.compile("|".join(map(re.escape, sorted(PRETTY, key=len, reverse=True))))


def named(game, lines):
    """The card codes the narration names (the words around cards are the game's own)."""
    text = "\n".join(lines[1:])  # the first line is the action's own text, which the seat chose
    if game == "suicidium":
        found = {PRETTY[m] for m in SUICIDIUM_CARD.findall(text)}
        found |= set(re.findall(r"\b[A-Z][A-Z0-9_]{2,}\b", text)) & set(CARD_IDS)
        return found | {o for o in OBJECT_CODES if re.search(rf"\b{o}\b", text)}
    if game == "thegame":
        cards = set()
        for m in re.finditer(r"-> (\d+)|you draw ([\d, ]+)", text):
            cards |= {int(x) for x in re.findall(r"\d+", next(g for g in m.groups() if g))}
        return cards
    # strip seat and slot numbers, counts and scores: what is left of the codes is a card
    text = re.sub(
        r"seat \d+|slot \d+|[+-]?\d+ \(total \d+\)|totals [\d /]+|"
        r"round scores [\d /]+|\d+ cards? still|FLIP3: \d+|F\d+",
        " ",
        text,
    )
    spec = get_spec(game)
    codes = set(spec.view(spec.make_engine().new_game(np.random.default_rng(0)), 0)["unseen"])
    return {t for t in re.findall(r"[A-Za-z_0-9+\-]+", text) if t in codes}


@pytest.mark.parametrize("game", GAMES)
def test_narration_never_names_a_card_the_views_do_not_show(game):
    """A property over random games: every card a seat is told of is one its view before or
    after the action shows (in a game that hides cards, the others' hands and the deck never
    appear)."""
    checked = 0
    for n in counts(game):
        for seed in range(6 if game not in ("sevn", "suicidium") else 3):
            for _actor, _text, told in played(game, n, 100 + seed):
                for before, after, lines in told.values():
                    shown = visible(game, before) | visible(game, after)
                    leaked = named(game, lines) - shown
                    assert not leaked, (lines, leaked)
                    checked += len(lines) > 1
    assert checked > 100


def test_the_leak_check_can_fail():
    """The check above finds a card the views do not show (the check is not empty)."""
    view = get_spec("ratatat").view
    engine = get_spec("ratatat").make_engine(num_players=3)
    state = engine.new_game(np.random.default_rng(1))
    mine = view(state, 0)
    hidden = [c for c, k in mine["unseen"].items() if k and c not in visible("ratatat", mine)]
    lines = ["seat 1: draw", f"  seat 1 holds {hidden[0]}"]
    assert named("ratatat", lines) - visible("ratatat", mine) == {hidden[0]}


def test_a_seat_is_told_only_its_own_draws_in_ratatat():
    """The seat that draws is told the card; the others are told a card was drawn."""
    seen = {True: 0, False: 0}
    for actor, text, told in played("ratatat", 3, 7):
        if text != "draw":
            continue
        for s, (_b, after, lines) in told.items():
            if s == actor:
                assert f"seat {actor} holds {after['held']}" in lines[1:][0]
                seen[True] += 1
            elif after["held"] is None:
                assert any("draws a card you cannot see" in line for line in lines)
                seen[False] += 1
    assert seen[True] and seen[False]


def test_flip6_tells_draws_busts_banks_and_rounds():
    told = [line for _a, _t, t in played("flip6", 3, 5, [0]) for line in t[0][2]]
    text = "\n".join(told)
    assert re.search(r"seat \d gets \d", text)
    assert re.search(r"seat \d stays", text) and re.search(r"banks \+\d+ \(total \d+\)", text)
    assert "round over: totals" in text and re.search(r"new round, seat \d deals", text)
    assert "game over" in text
    busts = [
        line
        for _a, _t, t in (x for seed in range(10) for x in played("flip6", 4, seed, [1]))
        for line in t[1][2]
        if "busts" in line
    ]
    assert busts and all(re.search(r"gets .*\b(\w+): busts \(second \1\)", b) for b in busts), busts


def test_a_bank_is_told_with_the_new_total():
    """A stay in Flip 6, told from two hand-made views: the seat stays and banks its round."""
    spec = get_spec("flip6")
    state = spec.make_engine(num_players=3).new_game(np.random.default_rng(3))
    before = spec.view(state, 0)
    after = {
        **before,
        "status": ["stayed", *before["status"][1:]],
        "scores": [before["scores"][0] + 9, *before["scores"][1:]],
    }
    lines = narrate(spec, before, after, 0, "stay", 0)
    assert lines == [
        "seat 0: stay",
        "  seat 0 stays",
        f"  seat 0 banks +9 (total {after['scores'][0]})",
    ]


def test_suicidium_tells_the_table_and_the_effects():
    text = "\n".join(
        line
        for seed in range(3)
        for _a, _t, t in played("suicidium", 3, seed, [0])
        for line in t[0][2]
    )
    assert re.search(
        r"puts [A-Z][a-z].* \[[A-Z_0-9]+\] on the table \((points|event|response): ", text
    )
    assert re.search(r"willpower \d+ -> \d+ \([+-]\d+\)", text)
    assert "turn over: " in text and "game over: " in text


def test_thegame_tells_piles_and_turn_ends():
    text = "\n".join(line for _a, _t, t in played("thegame", 3, 5, [0]) for line in t[0][2])
    assert re.search(r"pile \d \((up|down)\): \d+ -> \d+", text)
    assert re.search(r"you draw \d+", text) and re.search(r"seat [12] draws \d+ cards?", text)
    assert "game over: the team" in text


def test_a_game_without_a_narration_module_is_told_by_its_action_text():
    spec = get_spec("flip6")
    import dataclasses

    plain = dataclasses.replace(spec, narration=None)
    assert narrate(plain, {}, {}, 2, "hit", 0) == ["seat 2: hit"]


def test_gained_is_a_multiset_difference():
    assert gained(["6", "3"], ["6", "3", "6"]) == ["6"]
    assert gained(["6", "6"], ["6"]) == []


def test_the_replay_viewer_tells_each_step_from_the_chosen_seat(tmp_path):
    """A recorded game, viewed from seat 1: every step after the start is followed by what it
    did as seat 1 saw it (the same lines SeatSession told at the table), and the full view tells
    it from the seat that acted."""
    import io

    from cardarena.agents.tools.replay import told, view
    from cardarena.agents.tools.session import SeatSession
    from cardarena.envs.core.replay import Replay

    table = SeatSession(
        "ratatat", 1, ["random", "random"], {"num_players": 3}, seed=2, record_dir=tmp_path
    )
    told_at_table = table.take_events()
    while table.to_move:
        table.play(table.legal()[0][0])
        told_at_table += table.take_events()
    replay = Replay.load(table.replay_path)
    spec = get_spec("ratatat")
    engine = replay.engine()
    told_in_replay, previous = [], None
    for step, state in replay.states(engine):
        if previous is not None:
            told_in_replay += told(replay, spec, previous, state, step, 1)
        previous = engine.clone(state)
    assert told_in_replay == [line for line in told_at_table if line.startswith(INDENT)]
    assert any(line.startswith("  you hold ") for line in told_in_replay)
    out = io.StringIO()
    assert view(replay, seat=1, out=out) == 0
    shown = out.getvalue().splitlines()
    assert all(line in shown for line in told_in_replay)
    out = io.StringIO()
    view(replay, seat=None, out=out)
    assert "(as seat 0 (random) saw it)" in out.getvalue()
