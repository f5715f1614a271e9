"""The one --option parser (envs/core/options.py)."""

from __future__ import annotations

import pytest

from cardarena.envs.core.engine import ConfigError
from cardarena.envs.core.options import parse_options


def test_values_are_read_as_int_bool_or_text():
    got = parse_options(["target_score=40", "dealer=-1", "signals=True", "mode=DEPRESSION"])
    assert got == {"target_score": 40, "dealer": -1, "signals": True, "mode": "DEPRESSION"}
    assert parse_options(["x=" + "9" * 30]) == {"x": "9" * 30}  # no giant int from a typo


@pytest.mark.parametrize("bad", ["target_score", "=3", "a b=1", "1x=2", ""])
def test_malformed_items_name_the_item_and_the_form(bad):
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        parse_options([bad])


def test_a_key_given_twice_is_refused():
    with pytest.raises(ConfigError, match="twice"):
        parse_options(["mode=SURVIVE", "mode=DEPRESSION"])
