"""Imports point down only, and no module imports itself in a circle.

The floors, lowest first (a module may import its own floor and those below it):

====  =======================================================================================
0     ``envs.core``: engine protocol, AEC env, registry, the game loop, seeding, replay format
1     ``envs.<game>``: rules engines, encoders, specs
2     ``agents`` (the players: protocol, random, policy, checkpoint, baselines, gym env)
3     ``agents.evaluation``
4     ``agents.training`` (uses evaluation's public functions for its periodic evaluation)
5     ``agents.tools``: human play, replay viewer
6     the commands ``cardarena.train`` and ``cardarena.evaluate`` (``train.py``/``evaluate.py``)
====  =======================================================================================

Module names are the installed ones: the folders ``envs/`` and ``agents/`` are ``cardarena.envs``
and ``cardarena.agents`` (setup.py); nothing may import the bare names ``envs`` or ``agents``.

The imports are read from the source (``ast``), function-level ones included, so a lazy import
cannot hide an upward dependency. ``TYPE_CHECKING`` blocks count for the floors too; a cycle is
a cycle of imports that run (a type-only back reference, ``if TYPE_CHECKING:``, is not one).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: folder -> the package it installs as
PACKAGES = {"envs": "cardarena.envs", "agents": "cardarena.agents", "cardarena": "cardarena"}


def floor(module: str) -> int:
    parts = module.removeprefix("cardarena.").split(".")
    if parts[0] == "envs":
        return 0 if len(parts) > 1 and parts[1] == "core" else 1
    if parts[0] == "agents":
        return {"evaluation": 3, "training": 4, "tools": 5}.get(
            parts[1] if len(parts) > 1 else "", 2
        )
    return 6  # train, evaluate


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGES[parts[0]], *parts[1:]])


def project_modules() -> dict[str, Path]:
    out = {}
    for folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            out[module_name(path)] = path
    return out


def _type_only(tree: ast.AST) -> set[int]:
    """ids of the import nodes inside ``if TYPE_CHECKING:`` blocks."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return out


def imports_of(path: Path, module: str, known: set[str], typing: bool = True) -> set[str]:
    """Project modules that ``path`` imports (``from a import b`` counts ``a.b`` if it is one);
    without ``typing``, imports made only for type checkers are left out."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skip = set() if typing else _type_only(tree)
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def graph(typing: bool = True) -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    return {m: imports_of(p, m, known, typing) for m, p in modules.items()}


def test_imports_point_down_only():
    upward = [
        f"{m} (floor {floor(m)}) imports {t} (floor {floor(t)})"
        for m, targets in graph().items()
        for t in sorted(targets)
        if floor(t) > floor(m) and not t.startswith(m + ".")
    ]
    assert not upward, "imports that point up:\n" + "\n".join(upward)


def test_envs_never_import_agents():
    offenders = [
        f"{m} imports {t}"
        for m, targets in graph().items()
        if m.startswith("cardarena.envs")
        for t in targets
        if t.startswith("cardarena.agents")
    ]
    assert not offenders, offenders


def cycles_of(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``edges`` (module -> the modules it imports), each closed."""
    state: dict[str, int] = defaultdict(int)  # 0 new, 1 on the stack, 2 done
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges.get(m, ())):
            if state[t] == 1:
                cycles.append([*stack[stack.index(t) :], t])
            elif state[t] == 0:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if state[m] == 0:
            visit(m)
    return cycles


def test_no_import_cycles():
    # every edge counts, a package's edges to its own children included: ``cardarena.agents``
    # (make_agent) -> ``agents.search`` -> back to ``cardarena.agents`` was such a cycle
    cycles = cycles_of(graph(typing=False))
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_a_package_and_its_child_importing_each_other_is_a_cycle(tmp_path):
    """The cycle the suite once had: the package's function imports its child, and the child
    imports the package back (both lazily, inside functions)."""
    (tmp_path / "pkg").mkdir()
    init, child = tmp_path / "pkg" / "__init__.py", tmp_path / "pkg" / "search.py"
    init.write_text("def make():\n    from cardarena.agents.search import build\n")
    child.write_text("def build():\n    from cardarena.agents import make\n")
    known = {"cardarena.agents", "cardarena.agents.search"}
    edges = {
        "cardarena.agents": imports_of(init, "cardarena.agents", known, typing=False),
        "cardarena.agents.search": imports_of(child, "cardarena.agents.search", known, False),
    }
    assert cycles_of(edges) == [["cardarena.agents", "cardarena.agents.search", "cardarena.agents"]]
    # and the real package no longer has it: the search package never imports its parent
    real = graph(typing=False)
    assert "cardarena.agents.search" in real["cardarena.agents"]
    assert not {
        t for m, ts in real.items() if m.startswith("cardarena.agents.search") for t in ts
    } & {"cardarena.agents"}


def test_the_checker_sees_an_upward_import(tmp_path):
    """The reader finds function-level and relative imports (so the tests above can fail)."""
    src = tmp_path / "probe.py"
    src.write_text(
        "def f():\n    from cardarena.agents import make_agent\n    from .rules import X\n"
    )
    known = {"cardarena.agents", "cardarena.envs.flip6.rules"}
    found = imports_of(src, "cardarena.envs.flip6.probe", known)
    assert found == {"cardarena.agents", "cardarena.envs.flip6.rules"}
    assert floor("cardarena.envs.core.engine") < floor("cardarena.envs.flip6")
    assert floor("cardarena.envs.flip6") < floor("cardarena.agents.policy")
    assert floor("cardarena.agents.policy") < floor("cardarena.agents.evaluation.ratings")
    assert floor("cardarena.agents.evaluation.ratings") < floor("cardarena.agents.training")
    assert floor("cardarena.agents.tools") < floor("cardarena.train")
    typed = tmp_path / "typed.py"
    typed.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import cardarena.agents\n"
    )
    assert imports_of(typed, "cardarena.envs.core.typed", known) == {"cardarena.agents"}
    assert imports_of(typed, "cardarena.envs.core.typed", known, typing=False) == set()


def bare_imports(path: Path) -> list[str]:
    """Imports of the bare names ``envs``/``agents`` (in a checkout they would load a second
    copy of every module; installed, they do not exist or are the user's own)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        out += [n for n in names if n.split(".")[0] in ("envs", "agents")]
    return out


def test_nothing_imports_the_bare_folder_names(tmp_path):
    files = [
        p
        for d in ("envs", "agents", "cardarena", "tests", "bench", "examples")
        for p in (ROOT / d).rglob("*.py")
    ] + [ROOT / "train.py", ROOT / "evaluate.py"]
    offenders = [f"{p.relative_to(ROOT)}: {n}" for p in files for n in bare_imports(p)]
    assert not offenders, "import cardarena.envs / cardarena.agents instead:\n" + "\n".join(
        offenders
    )
    probe = tmp_path / "probe.py"
    probe.write_text("import envs.core\nfrom agents import make_agent\n")
    assert bare_imports(probe) == ["envs.core", "agents"]
