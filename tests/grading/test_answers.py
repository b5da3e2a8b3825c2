"""Answers as plain data (obcd_lite.teaching.answers): what the grader reads, type-strict and safe to decode."""
from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from obcd_lite.teaching.answers import WrongForm, answer, decode, encode, grading, probe_inputs


def roundtrip(value, kind, shape=None):
    return decode(json.loads(json.dumps(encode(value))), kind, shape)


@pytest.mark.parametrize("value, kind, expected", [
    (36, "int", 36), (np.int64(36), "int", 36), (36.0, "int", 36), (2.5, "real", 2.5), (np.float32(0.5), "real", 0.5),
    (float("inf"), "real", float("inf")), (True, "bool", True), (np.True_, "bool", True), ("cos0", "str", "cos0"),
    ({"obcd", "rcd"}, "str_set", frozenset({"obcd", "rcd"})), ([5, 6], "int_tuple", (5, 6)),
    ((5, 6), "int_tuple", (5, 6)),
])
def test_plain_answers_round_trip(value, kind, expected):
    assert roundtrip(value, kind) == expected


def test_matrices_round_trip_from_arrays_and_nested_lists():
    for value in (np.array([[1.0, -1.0], [0.0, 0.0]]), [[1.0, -1.0], [0, 0]]):
        assert np.array_equal(roundtrip(value, "matrix", (2, 2)), [[1.0, -1.0], [0.0, 0.0]])
    with pytest.raises(WrongForm, match=r"expected a 2 x 2 matrix, got shape \(3, 3\)"):
        roundtrip(np.eye(3), "matrix", (2, 2))
    with pytest.raises(WrongForm, match="expected a matrix"):
        roundtrip([[1.0], [1.0, 2.0]], "matrix")


def test_sympy_expressions_and_matrices_round_trip_with_their_assumptions():
    a, tau = sp.symbols("a tau", real=True)
    Q = sp.Matrix([[1, a * tau / 2], [sp.sqrt(tau), sp.Rational(1, 3) + sp.pi]])
    assert roundtrip(Q, "sympy_matrix", (2, 2)) == Q
    assert roundtrip(sp.sin(a) ** 2 + sp.Float(0.5), "sympy") == sp.sin(a) ** 2 + sp.Float(0.5)
    assert roundtrip(0, "sympy") == 0


@pytest.mark.parametrize("value, kind", [
    (True, "int"), (1, "bool"), ("36", "int"), (2.5, "int"), (None, "real"), ([1, 2], "real"), (..., "real"),
    (np.array(["a"]), "matrix"), (sp.Symbol("x"), "real"), (lambda x: x, "real"),
])
def test_each_kind_is_strict(value, kind):
    with pytest.raises(WrongForm):
        roundtrip(value, kind)


def test_an_object_that_equals_everything_or_subclasses_int_is_unsupported():
    class AlwaysEqual(int):
        def __eq__(self, other):
            return True

    assert encode(AlwaysEqual(4217)) == {"t": "unsupported", "type": "AlwaysEqual"}
    with pytest.raises(WrongForm, match="an object of type AlwaysEqual"):
        roundtrip(AlwaysEqual(4217), "int")


@pytest.mark.parametrize("data, kind", [
    ({"t": "int", "v": 10**40}, "real"), ({"t": "int", "v": True}, "int"), ({"t": "float", "v": "1e5"}, "real"),
    ({"t": "bool", "v": 1}, "bool"), ({"t": "sympy", "v": {"node": "Function", "args": [{"symbol": "x"}]}}, "sympy"),
    ({"t": "sympy", "v": {"node": "__import__", "args": [{"int": 1}]}}, "sympy"),
    ({"t": "sympy", "v": {"symbol": "x", "assume": ["evaluate"]}}, "sympy"),
    ({"t": "array", "shape": [2, 2], "v": [{"t": "int", "v": 1}]}, "matrix"), (["not", "a", "dict"], "real"),
    ({"t": "pickle", "v": "gASV"}, "real"),
])
def test_forged_data_is_refused_never_evaluated(data, kind):
    with pytest.raises(WrongForm):
        decode(data, kind)


def test_a_function_answer_is_its_values_at_the_probe_points():
    values = roundtrip(lambda X: 2 * X, "function")
    assert all(np.array_equal(v, 2 * X) for v, X in zip(values, probe_inputs()))
    values = roundtrip(lambda X: X[10, 10], "function")  # it raises at every point
    assert values == [None, None, None]


def test_answer_reads_the_exported_data_under_the_grader_and_the_notebook_otherwise():
    globals()["fx_count_global"] = 4217
    assert answer("fx_count_global", "int") == 4217
    with grading({"fx_count_global": {"t": "int", "v": 1}}):
        assert answer("fx_count_global", "int") == 1
        with pytest.raises(WrongForm, match="not defined"):
            answer("other", "int")
    with pytest.raises(ValueError, match="kind must be one of"):
        decode({"t": "int", "v": 1}, "integer")
