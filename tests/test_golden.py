"""Golden playthroughs (issue 10): recorded games replayed through today's engines.

A failure names the first action where the engine disagrees with the recording (seat to act,
legality, state digest, check fields, result) with expected and got values. After an intended
rules change, re-record with ``python -m tests.golden.record --game GAME`` and review the diff.
"""

from __future__ import annotations

import json
from collections import defaultdict
from itertools import product

import pytest

from cardarena.agents.tools.replay import main
from cardarena.envs.core.registry import get_spec, names
from cardarena.envs.core.replay import Replay, verify
from tests.golden.record import CASES, GOLDEN_DIR

RERECORD = "if the change is intended: python -m tests.golden.record --game {game}"


@pytest.mark.parametrize("case", CASES, ids=[f"{c.game}/{c.name}" for c in CASES])
def test_golden_playthrough_replays_identically(case):
    assert case.path.exists(), f"{case.path} missing: {RERECORD.format(game=case.game)}"
    verdict = verify(case.path)
    if not verdict.ok:
        pytest.fail(verdict.text() + "\n" + RERECORD.format(game=case.game), pytrace=False)
    replay = Replay.load(case.path)
    assert replay.header["players"] == list(case.players)
    assert replay.result is not None and verdict.steps == len(replay.actions) > 0


def test_golden_set_covers_every_game_player_count_and_rules_option():
    """What each manifest says the golden set covers: every player count, every value of its
    ``rule_options``, and every combination of its ``golden_grid`` options at every count."""
    by_game = defaultdict(list)
    for case in CASES:
        by_game[case.game].append(case)
    assert set(by_game) == set(names()), "a game without golden cases: fill GameSpec.golden"
    for game, cases in by_game.items():
        spec = get_spec(game)
        assert len(cases) >= 20, game
        cls = spec.engine_cls
        counts = {len(c.players) for c in cases}
        assert counts == set(range(cls.min_players, cls.max_players + 1)), game

        def value(case, key, spec=spec):
            return case.options.get(key, spec.option_default(key))

        for key, wanted in spec.rule_options.items():
            missing = set(wanted) - {value(c, key) for c in cases}
            assert not missing, f"{game}: no golden case with {key} in {sorted(missing, key=repr)}"
        grid = spec.golden_grid
        combos = {(len(c.players), *(value(c, k) for k in grid)) for c in cases}
        wanted = {(n, *v) for n in counts for v in product(*(spec.rule_options[k] for k in grid))}
        assert wanted <= combos, (
            f"{game}: golden_grid combinations missing: {sorted(wanted - combos)}"
        )


def test_golden_files_are_all_cases_and_small():
    files = set(GOLDEN_DIR.glob("*/*.jsonl"))
    assert files == {c.path for c in CASES}, "stale files: python -m tests.golden.record --prune"
    assert sum(p.stat().st_size for p in files) < 4_000_000


def _tampered(tmp_path, case, change):
    lines = case.path.read_text().splitlines()
    items = [json.loads(line) for line in lines]
    change(items)
    path = tmp_path / case.path.name
    path.write_text("".join(json.dumps(i) + "\n" for i in items))
    return path


def test_verify_names_the_first_action_that_differs(tmp_path, capsys):
    case = next(c for c in CASES if c.game == "flip6")
    replay = Replay.load(case.path)
    engine = replay.engine()
    # swap the first "stay" for a "hit": still legal, but the game goes elsewhere
    states = replay.states(engine)
    index = None
    for step, state in states:
        line = replay.actions[step] if step < len(replay.actions) else None
        if (
            line
            and line["action"] == "stay"
            and engine.parse_action("hit") in engine.legal_actions(state)
        ):
            index = step
            break
    assert index is not None

    def change(items):
        actions = [x for x in items if "action" in x]
        actions[index]["action"] = "hit"

    verdict = verify(_tampered(tmp_path, case, change))
    assert not verdict.ok
    text = verdict.text()
    assert f"first difference after action {index + 1} " in text and "'hit'" in text
    assert "recorded" in text and "now" in text
    # the command line fails loudly with the same report
    assert main([str(tmp_path / case.path.name), "--verify"]) == 1
    assert "the engine disagrees with the recording" in capsys.readouterr().out


def test_verify_reports_a_rules_change_with_expected_and_got(monkeypatch):
    """Pretend a rule changed: flip6 loses the 'stay' option while a player holds no card."""
    from cardarena.envs.flip6 import rules

    original = rules.Flip6Game.legal_actions

    def changed(self, state):
        legal = original(self, state)
        return (
            [a for a in legal if a != rules.STAY]
            if len(legal) == 2 and state.decision == rules.TURN and not state.table[state.decider]
            else legal
        )

    monkeypatch.setattr(rules.Flip6Game, "legal_actions", changed)
    monkeypatch.setenv("CARDARENA_CORE", "python")  # the changed rule is the Python engine's
    failures = [verify(c.path) for c in CASES if c.game == "flip6"]
    bad = [v for v in failures if not v.ok]
    assert bad, "no golden flip6 game noticed the changed rule"
    text = bad[0].text()
    assert "first difference after action" in text or "not legal now" in text
    assert "legal actions of the next decision differ" in text or "legal now" in text


def test_a_changed_deal_is_reported_and_the_rules_still_checked(tmp_path):
    case = next(c for c in CASES if c.game == "sevn")

    def change(items):
        items[0]["seed"] += 1  # the engine now deals differently from the recorded initial state

    verdict = verify(_tampered(tmp_path, case, change))
    assert not verdict.ok
    text = verdict.text()
    assert "the deal from seed" in text and "initial.draw_pile" in text
    assert "every action and check agrees" in text


def test_verify_reports_a_different_result_and_a_truncated_file(tmp_path):
    case = next(c for c in CASES if c.game == "thegame")

    def wrong_result(items):
        items[-1]["scores"] = [s + 1 for s in items[-1]["scores"]]

    verdict = verify(_tampered(tmp_path, case, wrong_result))
    assert not verdict.ok and "final result differs" in verdict.text()
    assert "scores" in verdict.text() and "expected" in verdict.text()

    def cut(items):
        del items[-4:]  # the last actions, checks and result lost: the game goes on now

    cut_path = _tampered(tmp_path, case, cut)
    cut_path.rename(tmp_path / "cut.jsonl")
    verdict = verify(tmp_path / "cut.jsonl")  # a format 1 file: no result line means cut short
    assert not verdict.ok and "cut short" in verdict.line() and "\n" not in verdict.line()
