"""Every pretrained agent has a model card that matches its file (``agents/model_cards.py``)."""

from __future__ import annotations

import json
import subprocess
import zipfile

import pytest

from cardarena import envs
from cardarena.agents.model_cards import card, describe, file_hash, zoo_names
from cardarena.agents.specs import ZOO_DIR
from cardarena.envs.core.errors import ConfigError


@pytest.mark.parametrize("name", zoo_names())
def test_each_zoo_agent_has_a_card_that_matches_its_file(name):
    c = card(f"zoo:{name}")
    assert c["agent"] == f"zoo:{name}"
    assert c["file_sha256"] == file_hash(name), "the checkpoint changed: write its new card"
    meta = json.loads(zipfile.ZipFile(ZOO_DIR / f"{name}.zip").read("cardarena.json"))
    assert c["network"] == meta["policy"]
    spec = envs.get_spec(c["game"])
    assert c["observation"] == {"size": spec.obs_size, "encoder": spec.encoder}
    s = c["strength"]
    assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1] and s["games"] > 0 and s["command"]
    t = c["trained"]

    def git(*args):
        return subprocess.run(["git", *args], capture_output=True).returncode == 0

    if git("cat-file", "-e", f"{t['commit']}^{{commit}}"):  # history here (not a shallow copy)
        assert git("cat-file", "-e", f"{t['commit']}:{t['config']}"), (t["commit"], t["config"])
    assert f"zoo:{name}" in describe(f"zoo:{name}")


def test_an_unknown_agent_has_no_card_and_the_error_lists_the_agents():
    with pytest.raises(ConfigError, match="the pretrained agents are .*zoo:flip6"):
        card("zoo:nope")


def test_evaluate_describe_prints_the_card(capsys):
    from cardarena import evaluate

    assert evaluate.main(["--describe", "zoo:flip6"]) == 0
    out = capsys.readouterr().out
    assert "zoo:flip6" in out and "strength" in out and "measured by:" in out
