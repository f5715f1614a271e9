"""Package layout for setuptools (the metadata is in pyproject.toml).

The checkout keeps ``envs/``, ``agents/`` and ``configs/`` at the top level; installed, they are
``cardarena.envs``, ``cardarena.agents`` and ``cardarena.configs``, so that no import name we
install is a common word a user's own project may also use. Every folder with an
``__init__.py`` under them is a package (tests/test_packaging.py checks the built wheel).

The native cores (``envs/<game>/_native.pyx``, Cython) are built when it can be: Cython and numpy
are build requirements (pyproject.toml), and a C compiler is needed. Without one of them, or with
``CARDARENA_NO_NATIVE=1`` in the environment, the install still succeeds with a one-line warning
and the games run on the Python core (``envs/core/native.py``).
"""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
FOLDERS = {
    "cardarena": "cardarena",
    "cardarena.envs": "envs",
    "cardarena.agents": "agents",
    "cardarena.configs": "configs",
}


def packages() -> list[str]:
    out = []
    for name, folder in FOLDERS.items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            rel = init.parent.relative_to(ROOT / folder)
            out.append(".".join([name, *rel.parts]) if rel.parts else name)
    return out


#: (module, source) of every native extension: each game's ``envs/<game>/_native.pyx``
NATIVE = [
    (f"cardarena.envs.{pyx.parent.name}._native", pyx.relative_to(ROOT).as_posix())
    for pyx in sorted((ROOT / "envs").glob("*/_native.pyx"))
]
#: floating point bit-identical across compilers: no fused multiply-add contraction
GCC_FLAGS = ["-O2", "-ffp-contract=off"]
MSVC_FLAGS = ["/O2", "/fp:precise"]


def warn(reason: str) -> None:
    print(f"cardarena: native core not built ({reason}); using the Python core", file=sys.stderr)


def native_extensions() -> list[Extension]:
    """The Cython extensions, or none (with a warning) when they cannot or must not be built."""
    if os.environ.get("CARDARENA_NO_NATIVE", "") not in ("", "0"):
        warn("CARDARENA_NO_NATIVE is set")
        return []
    try:
        import numpy
        from Cython.Build import cythonize
    except ImportError as err:
        warn(f"{err.name or err} is not installed")
        return []
    extensions = [
        Extension(
            name,
            [source],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        )
        for name, source in NATIVE
    ]
    try:
        return cythonize(extensions, quiet=True, compiler_directives={"language_level": 3})
    except Exception as err:  # a Cython error must not fail the install
        warn(f"cythonize failed: {err}")
        return []


class OptionalBuildExt(build_ext):
    """build_ext whose failure (no compiler, a compile error) leaves a pure-Python install, with
    one warning line however many games' extensions failed."""

    failed: list[tuple[str, str]]

    def build_extension(self, ext: Extension) -> None:
        msvc = getattr(self.compiler, "compiler_type", "") == "msvc"
        ext.extra_compile_args = list(MSVC_FLAGS if msvc else GCC_FLAGS)
        if sys.platform.startswith("linux"):
            ext.extra_link_args = ["-s"]  # no debug symbols in the wheel (1.4 MB -> 0.3 MB)
        try:
            super().build_extension(ext)
        except Exception as err:
            reason = str(err).splitlines()[0] if str(err) else repr(err)
            self.__dict__.setdefault("failed", []).append((ext.name, reason))

    def run(self) -> None:
        self.failed = []
        try:
            super().run()
        except Exception as err:
            warn(f"build_ext failed: {err}")
            return
        if self.failed:
            names = ", ".join(name for name, _ in self.failed)
            warn(f"building {names} failed: {self.failed[0][1]}")


setup(
    ext_modules=native_extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
    packages=packages(),
    package_dir=FOLDERS,
    package_data={
        "": ["game.toml"],  # every game's manifest (envs/<game>/game.toml)
        "cardarena.agents": ["zoo/*.zip", "zoo/*.json", "zoo/leaf/*.npz", "outside/rules/*.md"],
        "cardarena.envs.suicidium": ["*.yaml"],
        "cardarena.configs": ["*.yaml"],
        "cardarena.agents.tools.web": ["static/*.html", "static/*.js", "static/*.css"],
    },
    # the wheel holds the compiled module, not its sources (the .pyx, the generated .c and
    # Cython's annotated .html; the browser table's page is the one .html the wheel keeps)
    exclude_package_data={
        "": ["*.c", "*.pyx"],
        **{module.rpartition(".")[0]: ["*.html"] for module, _ in NATIVE},
    },
)
