"""The glossary's "one meaning per name" (docs/package.md, "Glossary of `subproblem/`"), held by a scan of
the code (not the prose) of ``obcd_lite/subproblem/`` and ``obcd_lite/penalties/``.

Reserved names and what they may not be used for:

* ``k`` is the block size: never a branch (compared with 0 or 1, or running over them; ``branch`` is
  the branch, 0 = rot, 1 = ref);
* ``K`` is the majorizer of eq. (11): never a variable (an arc's constant is ``h_0``, a number of
  breakpoints ``n_b``);
* ``alpha`` is the proximal parameter of eq. (11): never beside a piece's ``beta`` / ``gamma`` and never
  in the penalties (a piece's coefficients are ``a_h``, ``b_h``, ``h_0``);
* ``t`` is tan theta: never a loop index;
* ``B`` is the working set: never beside an ``A`` (a piece's linear part is ``a_eff``, ``b_eff``).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("obcd_lite/subproblem", "obcd_lite/penalties")


def _names(node) -> set[str]:
    """Every variable name a scope reads, writes or takes as a parameter."""
    found = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    found |= {a.arg for n in ast.walk(node) if isinstance(n, ast.arguments)
              for a in n.posonlyargs + n.args + n.kwonlyargs}
    return found


def _loop_targets(node):
    """(target name, iterated expression) of every for loop and comprehension."""
    for n in ast.walk(node):
        if isinstance(n, (ast.For, ast.comprehension)):
            for target in ast.walk(n.target):
                if isinstance(target, ast.Name):
                    yield target.id, n.iter


def misuses(source: str) -> list[str]:
    """What the code in ``source`` does with a reserved name that the glossary forbids, one line each."""
    tree = ast.parse(source)
    found = []
    for name, iterated in _loop_targets(tree):
        counted = isinstance(iterated, ast.Call) and getattr(iterated.func, "id", None) in ("range", "enumerate")
        if name == "t" and counted:
            found.append("t is a loop index")
        branches = (isinstance(iterated, ast.Call) and getattr(iterated.func, "id", None) == "range"
                    and [getattr(a, "value", None) for a in iterated.args] == [2]) or (
            isinstance(iterated, (ast.Tuple, ast.List)) and [getattr(e, "value", None) for e in iterated.elts] == [0, 1])
        if name == "k" and branches:
            found.append("k runs over the branches")
    for n in ast.walk(tree):
        if isinstance(n, ast.Compare) and isinstance(n.left, ast.Name) and n.left.id == "k" and any(
                isinstance(c, ast.Constant) and c.value in (0, 1) for c in n.comparators):
            found.append(f"k compared with a branch number (line {n.lineno})")
    if "K" in _names(tree):
        found.append("K is a variable")
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for scope in [tree] + functions:
        names = _names(scope)
        where = getattr(scope, "name", "<module>")
        if "alpha" in names and names & {"beta", "gamma"}:
            found.append(f"alpha beside beta/gamma in {where}")
        if "B" in names and "A" in names:
            found.append(f"B beside A in {where}")
    return sorted(set(found))


def _files():
    for folder in FOLDERS:
        yield from sorted((ROOT / folder).glob("*.py"))


@pytest.mark.parametrize("path", list(_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_reserved_name_has_one_meaning(path):
    text = path.read_text(encoding="utf-8")
    problems = misuses(text)
    if path.parent.name == "penalties" and "alpha" in _names(ast.parse(text)):
        problems.append("alpha in a penalty (a piece's coefficients are a_h, b_h, h_0)")
    assert not problems, f"{path.relative_to(ROOT)}: " + "; ".join(problems) + " (docs/package.md, glossary)"


@pytest.mark.parametrize("source, expected", [
    ("def f(Z, k):\n    return 1 if k == 0 else -1\n", "k compared with a branch number (line 2)"),
    ("for k in range(2):\n    pass\n", "k runs over the branches"),
    ("for k in (0, 1):\n    pass\n", "k runs over the branches"),
    ("def f(x):\n    return [x[t] for t in range(3)]\n", "t is a loop index"),
    ("def f():\n    A = B = K = 0.0\n    return A, B, K\n", "K is a variable"),
    ("def f(h):\n    br, alpha, beta, gamma = h.pieces(1, 2)\n", "alpha beside beta/gamma in f"),
    ("def f(a, b):\n    A, B = -a, -b\n    return A * B\n", "B beside A in f"),
])
def test_the_scan_finds_each_misuse(source, expected):
    assert expected in misuses(source)


def test_the_scan_accepts_the_glossary_meanings():
    ok = ("def step(problem, X, G, B, alpha, k=2):\n    Z = X[B]\n    return alpha * Z, k\n"
          "def circle(branch, t):\n    return branch == 0, t * t\n"
          "EYES = {k: k * k for k in range(2, 9)}\nROOTS = [t * t for t in (0.5, 2.0)]\n")
    assert misuses(ok) == []
