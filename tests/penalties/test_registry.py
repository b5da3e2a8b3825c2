"""The one registry of penalties, the abstract base class, and a scan of the package and the tests for
what the registry replaced: isinstance chains over penalties and name -> penalty tables."""
import ast
from pathlib import Path

import numpy as np
import pytest

from obcd_lite.penalties import (PENALTY_NAMES, CappedL1, L1, Penalty, penalty_by_name, penalty_class,
                                 registered_name, registered_names)
from obcd_lite.penalties import base

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = {penalty_class(name).__name__ for name in PENALTY_NAMES}


def test_the_builtins_are_registered_in_the_notebooks_order():
    assert PENALTY_NAMES == ("zero", "l0", "l1", "capped_l1", "nonneg")
    assert registered_names()[:5] == PENALTY_NAMES
    for name in PENALTY_NAMES:
        h = penalty_by_name(name, 0.3, 0.4)
        assert registered_name(h) == name and type(h) is penalty_class(name)
    assert repr(penalty_by_name("capped_l1", 0.3, 0.4)) == "CappedL1(lam=0.3, tau=0.4)"


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"penalty must be one of \('zero', 'l0', 'l1'.*got 'l2'"):
        penalty_by_name("l2")


def test_a_subclass_without_a_name_is_not_its_parent():
    class Mine(L1):
        pass

    assert registered_name(Mine(1.0)) is None and registered_name(L1(1.0)) == "l1"


def test_a_taken_name_is_refused():
    with pytest.raises(ValueError, match="the penalty name 'l1' is taken by L1"):
        class Other(L1):
            name = "l1"
    assert penalty_class("l1") is L1


def test_a_new_name_registers_and_builds_from_its_constructor():
    class Square(Penalty):
        name = "test_registry_square"

        def __init__(self, lam: float = 1.0):
            self.lam = lam

        def elementwise(self, U):
            return self.lam * U * U

    try:
        h = penalty_by_name("test_registry_square", lam=2.5, tau=9.0)   # tau: not a parameter, ignored
        assert type(h) is Square and h.lam == 2.5 and h(np.ones((2, 2))) == 10.0
    finally:
        del base._REGISTRY["test_registry_square"]


def test_penalty_is_abstract():
    with pytest.raises(TypeError, match="abstract"):
        Penalty()

    class NoValue(Penalty):
        pass

    with pytest.raises(TypeError, match="elementwise"):
        NoValue()


def test_a_discontinuous_penalty_with_pieces_needs_break_values():
    with pytest.raises(TypeError, match="Jumpy sets continuous = False, so it must implement break_values"):
        class Jumpy(CappedL1):
            continuous = False

            def pieces(self, x, y):
                return super().pieces(x, y)


def _python_files():
    for folder in ("obcd_lite", "tests", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "penalties" not in path.relative_to(ROOT).parts[:2]:   # the penalty classes themselves
                yield path


def _class_names(node) -> set[str]:
    """The built-in penalty classes a type test names: X, (X, Y), penalties.X."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    names = {item.id if isinstance(item, ast.Name) else item.attr if isinstance(item, ast.Attribute) else None
             for item in items}
    return names & BUILTIN


def _walk_scope(scope):
    """The nodes of one scope, not descending into the functions and classes defined in it."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    todo = [node for node in scope.body if not isinstance(node, nested)]
    while todo:
        node = todo.pop()
        yield node
        todo += [child for child in ast.iter_child_nodes(node) if not isinstance(child, nested)]


def type_tests(tree) -> dict[ast.AST, set[str]]:
    """Per function (or module body), the built-in penalty classes its isinstance / type(...) tests name."""
    found = {}
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        named = set()
        for node in _walk_scope(scope):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                    and len(node.args) == 2:
                named |= _class_names(node.args[1])
            elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) \
                    and getattr(node.left.func, "id", None) == "type":
                for comparator in node.comparators:
                    named |= _class_names(comparator)
        found[scope] = named
    return found


def name_tables(tree) -> list[int]:
    """Lines of dict literals mapping string keys to built-in penalties (instances, classes or lambdas)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                            for k in node.keys):
            hits = 0
            for value in node.values:
                inner = value.body if isinstance(value, ast.Lambda) else value
                inner = inner.func if isinstance(inner, ast.Call) else inner
                hits += bool(_class_names(inner))
            if hits >= 2:
                lines.append(node.lineno)
    return lines


def test_no_isinstance_chain_over_penalties_outside_the_penalty_classes():
    chains = []
    for path in _python_files():
        for scope, named in type_tests(ast.parse(path.read_text(encoding="utf-8"))).items():
            if len(named) >= 2:
                where = getattr(scope, "name", "<module>")
                chains.append(f"{path.relative_to(ROOT)}:{where} tests {sorted(named)}")
    assert not chains, ("dispatch on penalties by a method or a table keyed by registered_name(h), not by "
                        "isinstance chains:\n" + "\n".join(chains))


def test_no_name_to_penalty_tables_outside_the_registry():
    tables = [f"{path.relative_to(ROOT)}:{line}" for path in _python_files()
              for line in name_tables(ast.parse(path.read_text(encoding="utf-8")))]
    assert not tables, "use penalties.penalty_by_name (the one registry) instead of a table of your own:\n" + \
        "\n".join(tables)


def test_the_scans_find_what_they_look_for():
    chain = ast.parse("def f(h):\n    if isinstance(h, L1):\n        pass\n    elif type(h) is NonNeg:\n        pass\n")
    assert [named for named in type_tests(chain).values() if named] == [{"L1", "NonNeg"}]
    apart = ast.parse("def f(h):\n    return isinstance(h, L1)\ndef g(h):\n    return isinstance(h, NonNeg)\n")
    assert all(len(named) <= 1 for named in type_tests(apart).values())
    table = ast.parse('T = {"l1": L1(0.1), "l0": lambda lam: L0(lam)}\nU = {"a": 1, "b": L1}\n')
    assert name_tables(table) == [1]
