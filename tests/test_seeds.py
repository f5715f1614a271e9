"""The two ranges of deck seeds (``agents/evaluation/seeds.py``): choosing and evaluation are
disjoint, every default seed of a choosing path lies in the choosing range, and every row of
``bench/strength.py`` is measured on the evaluation range."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from cardarena.agents.evaluation import seeds

ROOT = Path(__file__).resolve().parent.parent
#: a literal first deck seed in the code: ``first_seed=N``, ``FIRST_SEED = N``, ``--first-seed``
#: with ``default=N``
_LITERAL = re.compile(
    r"(?:first_seed\s*=\s*|FIRST_SEED\s*=\s*|\"--first-seed\",\s*type=int,\s*default=)"
    r"(\d[\d_]*)"
)


def test_the_ranges_are_disjoint_and_valid_config_seeds():
    assert seeds.CHOOSE.stop <= seeds.EVALUATION.start  # disjoint, choosing first
    assert seeds.CHOOSE.start == 0 and seeds.EVALUATION.stop <= 2**32
    assert seeds.EVALUATION_FIRST_SEED == seeds.EVALUATION.start
    assert seeds.in_range(seeds.EVALUATION, seeds.EVALUATION_FIRST_SEED, 4_000)
    assert not seeds.in_range(seeds.EVALUATION, seeds.CHOOSE.stop - 1, 2)  # one seed outside
    assert not seeds.in_range(seeds.CHOOSE, seeds.CHOOSE.stop - 1, 2)  # runs over its end
    assert not seeds.in_range(seeds.EVALUATION, seeds.EVALUATION.stop - 1, 2)


def _literal_seeds() -> list[tuple[str, int]]:
    found = []
    for folder in ("agents", "bench", "cardarena"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "strength.py" or path.name == "seeds.py":
                continue
            for match in _LITERAL.finditer(path.read_text()):
                found.append((str(path.relative_to(ROOT)), int(match.group(1).replace("_", ""))))
    return found


def test_every_default_seed_of_a_choosing_path_is_in_the_choosing_range():
    """Training's evaluations (final from 20,000,000), the settings, ceiling and search benches,
    the best-response trainer and ``cardarena-evaluate``'s default: none plays an evaluation
    deal."""
    found = _literal_seeds()
    where = {path for path, _ in found}
    # the audit's paths are still found by the scan (a renamed default would hide from it)
    for path in (
        "agents/training/trainer.py",
        "bench/baseline_settings.py",
        "bench/improve_ceiling.py",
        "bench/search_time.py",
        "bench/best_response.py",
    ):
        assert path in where, path
    outside = [(p, s) for p, s in found if s not in seeds.CHOOSE]
    assert not outside, f"default deck seeds outside the choosing range: {outside}"


def test_trainings_periodic_evaluations_stay_in_the_choosing_range():
    """``callbacks.py`` evaluates at ``10,000,000 + timestep`` with ``eval.deals`` deals: the
    longest default run must end inside the choosing range."""
    text = (ROOT / "agents" / "training" / "callbacks.py").read_text()
    base = int(re.search(r"first_seed=(\d[\d_]*) \+ t", text).group(1).replace("_", ""))
    for config in sorted((ROOT / "configs").glob("*.yaml")):
        cfg = yaml.safe_load(config.read_text())
        last = base + int(cfg.get("total_timesteps", 0)) + int(cfg.get("eval", {}).get("deals", 0))
        assert seeds.in_range(seeds.CHOOSE, base, last - base), config.name


def test_evaluates_default_first_seed_is_a_choosing_seed():
    text = (ROOT / "cardarena" / "evaluate.py").read_text()
    default = re.search(r'"--first-seed", type=int, default=(\d+)', text)
    assert default is not None and int(default.group(1)) in seeds.CHOOSE


def test_strength_refuses_a_first_seed_outside_the_evaluation_range(capsys):
    from bench.strength import main

    with pytest.raises(SystemExit) as stopped:
        main(["--first-seed", "9100000", "--only", "zoo"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "--first-seed 9100000" in err and "1,000,000,000" in err  # the value and the fix
    with pytest.raises(SystemExit):  # the last deals would run past the range's end
        main(["--first-seed", str(seeds.EVALUATION.stop - 10), "--deals", "5", "--only", "zoo"])


def test_every_strength_row_defaults_to_the_evaluation_range():
    import inspect

    from bench import strength

    rows = (strength.agent_row, strength.zoo_rows, strength.ladder_rows)
    for row in (*rows, strength.settings_rows, strength.search_rows):
        assert inspect.signature(row).parameters["first_seed"].default == seeds.EVALUATION.start
