"""Ratatat on the native core: the compiled encoder (and engine state) of ``_native.pyx``.

The extension is optional (``setup.py`` builds it when Cython, numpy and a C compiler are there).
This module always imports: ``NATIVE_BUILT`` says whether the extension is there,
``NATIVE_AVAILABLE`` whether it is used (built, and not switched off by ``CARDARENA_CORE=python``
in the environment). The Python engine (``rules.py``) and encoder (``encoding.encode_python``)
stay the reference and the fallback; ``tests/test_native_ratatat.py`` compares both.

=========================  ===================================================================
``native_encoder()``       the compiled ``encode(state, seat)`` (a ``RatatatState`` or a native
                           state), or None; ``encoding.encode`` is it when it is available
=========================  ===================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cardarena.envs.core.native import core_choice

try:
    from cardarena.envs.ratatat import _native
except ImportError:  # not built: the Python core only
    _native = None  # type: ignore[assignment]

NATIVE_BUILT = _native is not None
NATIVE_AVAILABLE = NATIVE_BUILT and core_choice() == "native"
NativeState: Any = _native.NativeState if _native is not None else None
#: the compiled encoder whether or not CARDARENA_CORE switches it off (tests, benches)
compiled_encode: Any = _native.encode if _native is not None else None


def native_encoder() -> Callable[[Any, int], np.ndarray] | None:
    """The compiled encoder when the native core is available, else None."""
    return _native.encode if NATIVE_AVAILABLE else None
