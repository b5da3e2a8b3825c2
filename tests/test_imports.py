"""The package's import graph: no cycle, and nothing imports upward.

Every module of ``obcd_lite`` is parsed with ``ast`` (not imported), so an import inside a function (a
"lazy" import) counts like one at the top of the file: a lazy import hides a cycle from Python, not from
the layering.

The layer order (docs/package.md, "The package"; CONTRIBUTING.md points to docs/contributing.md, which
refers to it), lowest first; a module may import modules of its own layer or of a lower one:

0. core, itself in this order (a core module imports only core modules before it):
   ``install_check`` (imports nothing of the package: it must run on a broken install), ``validation``,
   ``rounding``, ``threads``, ``block_arithmetic``, ``stiefel``, ``penalties``, ``specialise``, ``protocol``,
   ``problems`` (its QuadraticProblem subclasses the protocol), ``smooth_oracles``, ``smooth``, ``smooth_pymanopt``, ``results``;
1. ``subproblem/``;
2. ``solvers/``;
3. ``optimality/``, ``data/``, ``experiments/`` and the package's own ``__init__`` (the public names:
   method, problems, solvers, certificates; nothing of the package imports it);
4. ``teaching/``;
5. ``viz/``;
6. ``widgets/``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "obcd_lite"

CORE_ORDER = ("install_check", "validation", "rounding", "threads", "block_arithmetic", "stiefel", "penalties",
              "specialise", "protocol", "problems", "smooth_oracles", "smooth", "smooth_pymanopt", "results")
LAYERS = (CORE_ORDER, ("subproblem",), ("solvers",), ("optimality", "data", "experiments", ""), ("teaching",),
          ("viz",), ("widgets",))


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, from its ``__init__``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in its file (function bodies included).

    ``from .pkg import name`` counts as importing ``pkg.name`` when that is a module, else ``pkg``.
    """
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    found.add(f"{source}.{alias.name}")
                elif source in modules:
                    found.add(source)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in modules}
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {module: imports_of(module, path, modules) for module, path in modules.items()}


def rank(module: str) -> tuple[int, int]:
    """(layer, place in the core order); the place is 0 outside the core."""
    parts = module.split(".")[1:]
    top = parts[0] if parts else ""
    for layer, names in enumerate(LAYERS):
        if top in names:
            return layer, (CORE_ORDER.index(top) if layer == 0 else 0)
    raise AssertionError(f"module {module} is in no layer: add it to LAYERS in tests/test_imports.py "
                         f"(and to docs/package.md)")


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state = {}  # 1: on the current path, 2: done

    def visit(node, path):
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state:
                cycle = visit(dep, path)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node, [])
            if cycle:
                return cycle
    return None


def test_the_graph_is_read():
    graph = import_graph()
    # A check on the parser itself: known edges, one of them a lazy import inside a function.
    assert "obcd_lite.rounding" in graph["obcd_lite.stiefel"]
    assert "obcd_lite.solvers.cayley" in graph["obcd_lite.teaching.exercises"]  # inside a function
    assert len(graph) > 80


def test_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_nothing_imports_upward():
    upward = []
    for module, deps in import_graph().items():
        here = rank(module)
        for dep in deps:
            there = rank(dep)
            if there > here:
                upward.append(f"{module} imports {dep}")
    assert not upward, "upward imports (see the layer order in tests/test_imports.py):\n" + "\n".join(upward)


def test_the_package_init_is_imported_by_none_of_its_modules():
    offenders = [module for module, deps in import_graph().items() if "obcd_lite" in deps]
    assert not offenders, f"{offenders} import the package's __init__ (the facade): import the module instead"


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
])
def test_find_cycle_finds_a_planted_cycle(graph, expected):
    assert find_cycle(graph) == expected


def test_a_lazy_import_counts(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text("def f():\n    from .penalties import Penalty\n    return Penalty\n")
    modules = {"obcd_lite.validation": path, "obcd_lite.penalties": path}
    assert imports_of("obcd_lite.validation", path, modules) == {"obcd_lite.penalties"}


def test_the_reference_search_stands_alone():
    """subproblem/reference.py judges the compiled search: it shares no production code with it, only its own
    scalar helpers (subproblem/reference_quartic.py), which restate the package's zero and tie rules by value."""
    graph = import_graph()
    assert graph["obcd_lite.subproblem.reference"] == {"obcd_lite.subproblem.reference_quartic"}
    assert graph["obcd_lite.subproblem.reference_quartic"] == set()
    from obcd_lite import rounding
    from obcd_lite.subproblem import reference_quartic
    assert (reference_quartic.ZERO_ULPS, reference_quartic.TIE_TOL) == (rounding.ZERO_ULPS, rounding.TIE_TOL)
