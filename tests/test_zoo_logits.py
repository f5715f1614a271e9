"""Every zoo network gives its recorded logits on its recorded observations (milliseconds).

``tests/golden/zoo_logits.py`` recorded them; a broken checkpoint file, a changed loader or
forward pass moves the logits, a changed encoder moves the observations. The logits are compared
with a tolerance (floating point may round differently on another machine), the greedy choices
exactly wherever the best two logits are not within that tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest
from golden.zoo_logits import OUT, logits, record_observations, zoo_agents

from cardarena.agents import ZOO_DIR, checkpoint


@pytest.mark.parametrize("name", zoo_agents())
def test_zoo_network_gives_its_golden_logits(name):
    golden = np.load(OUT / f"{name}.npz", allow_pickle=False)
    game = checkpoint.read(ZOO_DIR / f"{name}.zip")[0]["game"]
    obs, masks = record_observations(game)
    assert np.array_equal(obs, golden["observations"]), f"{game}'s encoder changed"
    assert np.array_equal(masks, golden["masks"])
    got, want = logits(name, obs, masks), golden["logits"]
    legal = masks.astype(bool)
    np.testing.assert_allclose(got[legal], want[legal], rtol=1e-6, atol=1e-6)
    assert np.isneginf(got[~legal]).all()
    top2 = np.sort(np.where(legal, want, -np.inf), axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-5
    assert np.array_equal(got.argmax(1)[clear], want.argmax(1)[clear])


def test_every_zoo_agent_has_golden_logits():
    assert zoo_agents() and all((OUT / f"{n}.npz").exists() for n in zoo_agents())
