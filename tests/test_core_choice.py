"""Which core plays a game (``envs/core/native.py``): ``envs.make(..., core=...)``, the manifest's
``native_engine``, ``CARDARENA_CORE``; a game without a native core runs on Python."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardarena import envs
from cardarena.envs.core.errors import ConfigError
from cardarena.envs.flip6 import SPEC as FLIP6
from cardarena.envs.flip6.native import NATIVE_BUILT
from cardarena.envs.flip6.rules import Flip6Game

needs_native = pytest.mark.skipif(not NATIVE_BUILT, reason="the flip6 native core is not built")


def test_core_python_is_the_python_engine_everywhere():
    for name in envs.names():
        spec = envs.get_spec(name)
        assert spec.engine_class("python") is spec.engine_cls
        assert type(envs.make(name, core="python").game) is spec.engine_cls


@needs_native
def test_the_default_is_native_where_built_unless_the_environment_asks_for_python(monkeypatch):
    from cardarena.envs.flip6.native import NativeFlip6Game

    monkeypatch.delenv("CARDARENA_CORE", raising=False)
    assert type(envs.make("flip6").game) is NativeFlip6Game
    assert type(envs.make("flip6", core="native", num_players=3).game) is NativeFlip6Game
    assert type(FLIP6.make_engine(num_players=5)) is NativeFlip6Game
    monkeypatch.setenv("CARDARENA_CORE", "python")
    assert type(envs.make("flip6").game) is Flip6Game
    assert type(envs.make("flip6", core="native").game) is NativeFlip6Game  # asked for: given
    monkeypatch.setenv("CARDARENA_CORE", "fast")
    with pytest.raises(ConfigError, match="CARDARENA_CORE='fast'"):
        envs.make("flip6")


def test_a_bad_core_is_refused_with_the_choices():
    with pytest.raises(ConfigError, match=r"core='fast'; allowed: 'native' or 'python'"):
        envs.make("flip6", core="fast")
    with pytest.raises(ConfigError, match="core=3"):
        FLIP6.make_engine(core=3)


def test_a_game_without_a_native_core_runs_on_python_and_refuses_native_when_asked():
    bare = dataclasses.replace(FLIP6, name="bare", native_engine="")
    assert bare.engine_class() is bare.engine_cls and not bare.native_built()
    with pytest.raises(ConfigError, match="bare has no native core; use core='python'"):
        bare.make_engine(core="native")


def test_a_native_core_that_is_not_built_is_refused_when_asked_and_skipped_by_default(monkeypatch):
    from cardarena.envs.flip6 import native

    monkeypatch.delenv("CARDARENA_CORE", raising=False)
    monkeypatch.setattr(native, "NATIVE_BUILT", False)
    assert FLIP6.engine_class() is Flip6Game
    with pytest.raises(ConfigError, match="native core is not built"):
        FLIP6.make_engine(core="native")


def test_the_manifest_reads_native_engine_and_checks_its_type():
    from cardarena.envs.core.spec import manifest_from_dict

    spec = manifest_from_dict({"name": "x", "native_engine": "a.b:C"})
    assert spec.native_engine == "a.b:C"
    with pytest.raises(ConfigError, match="native_engine must be a string"):
        manifest_from_dict({"name": "x", "native_engine": 3})


@needs_native
def test_either_core_plays_the_same_seeded_game_through_the_env():
    def play(core: str) -> list[tuple[int, float]]:
        env = envs.make("flip6", core=core, num_players=4)
        env.reset(seed=11)
        rng = np.random.default_rng(0)
        out = []
        for _agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            action = None
            if not (term or trunc):
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                out.append((action, float(obs["observation"].sum())))
            env.step(action)
            out.append((-1, float(reward)))
        return out

    assert play("native") == play("python")
