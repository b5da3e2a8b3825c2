"""Answers as plain data: what the grader reads from a student's notebook (tools/grading, docs/course.md).

A graded notebook is executed in a sandbox; its last cell, appended by the grader, calls
:func:`export_answers`, which writes each answer variable as **plain JSON** (numbers, strings, lists,
nested lists for arrays, a tree of whitelisted node names for a sympy expression, the values at fixed
points for a function) — never a pickle, never an object. The hidden tests then run in the grader's own
process on :func:`decode` of that data: an object that compares equal to everything arrives as
``{"t": "unsupported"}`` and is no number. In the instructor notebook (nbval) :func:`answer` reads the
variable from the notebook and sends it through the same encode → JSON → decode path.

Every decoded answer is type-strict: :func:`answer` names the kind (``"int"``, ``"real"``, ``"bool"``,
``"str"``, ``"str_set"``, ``"int_tuple"``, ``"matrix"``, ``"sympy"``, ``"sympy_matrix"``, ``"function"``)
and raises :class:`WrongForm` for anything else.
"""
from __future__ import annotations

import json
import math
import sys
from contextlib import contextmanager

import numpy as np

#: The limits of an exported answer: nesting depth, nodes of a tree, magnitude of an integer.
MAX_DEPTH, MAX_NODES, MAX_INT = 64, 20000, 10**30
#: sympy node names the decoder rebuilds (anything else is WrongForm): no name can run code.
SYMPY_NODES = ("Add", "Mul", "Pow", "sin", "cos", "tan", "exp", "log", "Abs", "sign", "sqrt")
SYMPY_CONSTANTS = ("pi", "E")
_ASSUMPTIONS = ("real", "positive", "negative", "nonnegative", "nonpositive", "integer", "nonzero")
_grader_answers: dict | None = None
_references: dict = {}


class WrongForm(AssertionError):
    """An answer that is not of the kind a question asks for (a matrix that is not 2 x 2, an object)."""


def probe_inputs() -> list[np.ndarray]:
    """The points at which a function answer is evaluated when it is exported (fixed: seed 20240601).

    Returns
    -------
    list of numpy.ndarray
        Matrices of shapes (5, 2), (7, 3) and (4, 4).
    """
    rng = np.random.default_rng(20240601)
    return [rng.standard_normal(shape) for shape in ((5, 2), (7, 3), (4, 4))]


# --- encoding (runs in the student's kernel: it may be tampered with, which changes only that student's data) ---

def _encode_sympy(expr, budget: list) -> object:
    import sympy as sp

    budget[0] += 1
    if budget[0] > MAX_NODES:
        raise ValueError("expression too large")
    if isinstance(expr, sp.MatrixBase):
        return {"matrix": [[_encode_sympy(expr[i, j], budget) for j in range(expr.cols)] for i in range(expr.rows)]}
    if isinstance(expr, sp.Symbol):
        return {"symbol": str(expr.name), "assume": sorted(k for k in _ASSUMPTIONS if expr.assumptions0.get(k))}
    if isinstance(expr, sp.Integer):
        return {"int": int(expr)}
    if isinstance(expr, sp.Rational):
        return {"rational": [int(expr.p), int(expr.q)]}
    if isinstance(expr, sp.Float):
        return {"float": float(expr)}
    if expr in (sp.pi, sp.E):
        return {"const": "pi" if expr == sp.pi else "E"}
    name = type(expr).__name__
    return {"node": name, "args": [_encode_sympy(arg, budget) for arg in expr.args]}


def encode(value, depth: int = 0) -> dict:
    """One answer as tagged plain data (``{"t": kind, "v": ...}``); unknown objects as ``unsupported``.

    Parameters
    ----------
    value : object
        The answer.
    depth : int
        The nesting depth so far.

    Returns
    -------
    dict
        JSON-serializable data.
    """
    if depth > MAX_DEPTH:
        return {"t": "unsupported", "type": "too deep"}
    kind = type(value)
    if value is Ellipsis:
        return {"t": "ellipsis"}
    if kind is bool or kind is np.bool_:
        return {"t": "bool", "v": bool(value)}
    if kind is int or (isinstance(value, np.integer) and kind.__module__ == "numpy"):
        return {"t": "int", "v": int(value)}
    if kind is float or (isinstance(value, np.floating) and kind.__module__ == "numpy"):
        value = float(value)
        return {"t": "float", "v": value if math.isfinite(value) else repr(value)}
    if kind is str:
        return {"t": "str", "v": value}
    if kind in (list, tuple, set, frozenset):
        items = sorted(value, key=repr) if kind in (set, frozenset) else value
        return {"t": {list: "list", tuple: "tuple"}.get(kind, "set"), "v": [encode(x, depth + 1) for x in items]}
    if kind is np.ndarray and value.dtype.kind in "biuf":
        return {"t": "array", "shape": list(value.shape), "v": [encode(x, depth + 1) for x in value.ravel().tolist()]}
    if "sympy" in sys.modules and isinstance(value, (sys.modules["sympy"].Basic, sys.modules["sympy"].MatrixBase)):
        try:
            return {"t": "sympy", "v": _encode_sympy(value, [0])}
        except (ValueError, RecursionError):
            return {"t": "unsupported", "type": "sympy expression too large"}
    if callable(value) and kind.__name__ in ("function", "builtin_function_or_method", "partial"):
        values = []
        for X in probe_inputs():
            try:
                values.append(encode(np.asarray(value(X.copy()), dtype=float), depth + 1))
            except Exception as error:  # noqa: BLE001 (the student's function may raise anything)
                values.append({"t": "error", "type": type(error).__name__})
        return {"t": "function", "v": values}
    return {"t": "unsupported", "type": kind.__name__}


def export_answers(namespace: dict, names: list[str], path: str) -> None:
    """Write ``{name: encode(namespace[name])}`` as JSON to ``path`` (the grader's last cell calls this).

    Parameters
    ----------
    namespace : dict
        The notebook's globals.
    names : list of str
        The answer variables.
    path : str
        The file to write.
    """
    data = {name: encode(namespace[name]) if name in namespace else {"t": "missing"} for name in names}
    with open(path, "w") as handle:
        json.dump(data, handle)


# --- decoding (runs in the grader's process, on JSON only) ---------------------------------------------------

def _number(data: dict, what: str = ""):
    prefix = f"{what}: " if what else ""
    if not isinstance(data, dict):
        raise WrongForm(f"{prefix}not an answer")
    if data.get("t") == "int" and type(data.get("v")) is int and abs(data["v"]) < MAX_INT:
        return data["v"]
    if data.get("t") == "float":
        v = data.get("v")
        if type(v) is float:
            return v
        if v in ("inf", "-inf", "nan"):
            return float(v)
    raise WrongForm(f"{prefix}expected a number, got {describe(data)}")


def describe(data) -> str:
    """A short name of what an exported answer is (``a list``, ``...``, ``an object of type Foo``).

    Parameters
    ----------
    data : dict
        One exported answer (the JSON form of :func:`encode`).

    Returns
    -------
    str
        Its description, for a student's feedback.
    """
    if not isinstance(data, dict):
        return "something else"
    t = data.get("t")
    return {"ellipsis": "... (no answer yet)", "missing": "nothing (the variable is not defined)",
            "unsupported": f"an object of type {str(data.get('type'))[:40]}", "sympy": "a sympy expression",
            "function": "a function", "array": "an array", "bool": "True/False", "str": "a string",
            "int": "an integer", "float": "a float"}.get(t, f"a {t}")


def _sympy(tree, budget: list):
    import sympy as sp

    budget[0] += 1
    if budget[0] > MAX_NODES or not isinstance(tree, dict):
        raise WrongForm("a sympy expression that is too large or not an expression")
    if "symbol" in tree:
        name, assume = tree["symbol"], tree.get("assume", [])
        if type(name) is not str or not isinstance(assume, list) or not set(assume) <= set(_ASSUMPTIONS):
            raise WrongForm("a sympy symbol with unknown assumptions")
        return sp.Symbol(name, **{k: True for k in assume})
    if "int" in tree and type(tree["int"]) is int and abs(tree["int"]) < MAX_INT:
        return sp.Integer(tree["int"])
    if "rational" in tree and [type(x) for x in tree["rational"]] == [int, int] and tree["rational"][1] != 0:
        return sp.Rational(*tree["rational"])
    if "float" in tree and type(tree["float"]) is float:
        return sp.Float(tree["float"])
    if tree.get("const") in SYMPY_CONSTANTS:
        return getattr(sp, tree["const"])
    if tree.get("node") in SYMPY_NODES and isinstance(tree.get("args"), list):
        return getattr(sp, tree["node"])(*(_sympy(arg, budget) for arg in tree["args"]))
    raise WrongForm(f"a sympy expression with a node outside {SYMPY_NODES}")


def decode(data: dict, kind: str, shape: tuple[int, ...] | None = None):
    """The answer of the given kind from exported data, or :class:`WrongForm`.

    Parameters
    ----------
    data : dict
        One entry of the exported JSON.
    kind : str
        ``"int"`` (an integer, or a float with an integer value), ``"real"`` (int or float, not bool),
        ``"bool"``, ``"str"``, ``"str_set"`` (set, list or tuple of strings), ``"int_tuple"`` (list or
        tuple of integers), ``"matrix"`` (array or nested lists of numbers, ``shape`` if given),
        ``"sympy"`` (a number or expression), ``"sympy_matrix"``, ``"function"`` (its values at
        :func:`probe_inputs`, a list of arrays or None where it failed).
    shape : tuple of int, optional
        The required shape of a matrix, or the length of an int_tuple.

    Returns
    -------
    object
        The decoded answer.

    Raises
    ------
    WrongForm
        If the data is not an answer of that kind.
    ValueError
        If ``kind`` is unknown.
    """
    if not isinstance(data, dict):
        raise WrongForm("not an answer")
    t, v = data.get("t"), data.get("v")
    if kind == "bool":
        if t == "bool" and type(v) is bool:
            return v
        raise WrongForm(f"expected True or False, got {describe(data)}")
    if kind in ("int", "real"):
        value = _number(data)
        if kind == "int":
            if isinstance(value, float) and not (math.isfinite(value) and value == int(value)):
                raise WrongForm("expected an integer")
            return int(value)
        return value
    if kind == "str":
        if t == "str" and type(v) is str:
            return v
        raise WrongForm(f"expected a string, got {describe(data)}")
    if kind == "str_set":
        if t in ("set", "list", "tuple") and isinstance(v, list) and all(
                isinstance(x, dict) and x.get("t") == "str" and type(x.get("v")) is str for x in v):
            return frozenset(x["v"] for x in v)
        raise WrongForm(f"expected a set of strings, got {describe(data)}")
    if kind == "int_tuple":
        if t in ("list", "tuple", "array") and isinstance(v, list):
            values = tuple(decode(x, "int") for x in v)
            if shape is None or len(values) == shape[0]:
                return values
        raise WrongForm(f"expected a tuple of {shape[0] if shape else 'some'} integers, got {describe(data)}")
    if kind == "matrix":
        matrix = _matrix(data)
        if shape is not None and matrix.shape != tuple(shape):
            raise WrongForm(f"expected a {' x '.join(map(str, shape))} matrix, got shape {matrix.shape}")
        return matrix
    if kind in ("sympy", "sympy_matrix"):
        import sympy as sp

        if kind == "sympy" and t in ("int", "float"):
            return sp.sympify(_number(data))
        if t != "sympy":
            what = "Matrix" if kind == "sympy_matrix" else "expression"
            raise WrongForm(f"expected a sympy {what}, got {describe(data)}")
        if kind == "sympy_matrix":
            rows = v.get("matrix") if isinstance(v, dict) else None
            if not (isinstance(rows, list) and rows
                    and all(isinstance(r, list) and len(r) == len(rows[0]) for r in rows)):
                raise WrongForm("expected a sympy Matrix")
            budget = [0]
            matrix = sp.Matrix([[_sympy(x, budget) for x in row] for row in rows])
            if shape is not None and matrix.shape != tuple(shape):
                raise WrongForm(f"expected a {' x '.join(map(str, shape))} sympy Matrix")
            return matrix
        return _sympy(v, [0])
    if kind == "function":
        if t != "function" or not isinstance(v, list) or len(v) != len(probe_inputs()):
            raise WrongForm(f"expected a function, got {describe(data)}")
        return [None if x.get("t") == "error" else _matrix(x) for x in v]
    raise ValueError(f"kind must be one of int, real, bool, str, str_set, int_tuple, matrix, sympy, "
                     f"sympy_matrix, function; got {kind!r}")


def _matrix(data: dict) -> np.ndarray:
    t, v = data.get("t"), data.get("v")
    if t == "array" and isinstance(v, list) and isinstance(data.get("shape"), list):
        shape = tuple(data["shape"])
        if not all(type(s) is int and s >= 0 for s in shape) or math.prod(shape) != len(v):
            raise WrongForm("an array whose shape does not fit its entries")
        return np.array([_number(x, "an entry") for x in v], dtype=float).reshape(shape)
    if t in ("list", "tuple") and isinstance(v, list) and v:
        rows = [x.get("v") if isinstance(x, dict) and x.get("t") in ("list", "tuple", "array") else None for x in v]
        if all(isinstance(r, list) for r in rows) and len({len(r) for r in rows}) == 1:
            return np.array([[_number(x, "an entry") for x in row] for row in rows], dtype=float)
    raise WrongForm(f"expected a matrix (an array or nested lists of numbers), got {describe(data)}")


# --- the hidden tests' view of an answer -------------------------------------------------------------------------

@contextmanager
def grading(answers: dict):
    """While active, :func:`answer` reads from ``answers`` (exported JSON), not from a notebook.

    Parameters
    ----------
    answers : dict
        Question variable -> exported answer, as the sandbox wrote them.

    Yields
    ------
    None
        The block runs inside.
    """
    global _grader_answers
    previous, _grader_answers = _grader_answers, answers
    try:
        yield
    finally:
        _grader_answers = previous


def answer(name: str, kind: str, shape: tuple[int, ...] | None = None):
    """The answer variable ``name`` as plain data of ``kind`` (see :func:`decode`), for a hidden test.

    Under the grader (:func:`grading`) it is read from the exported data; in a notebook it is read from
    the calling cell's globals and sent through the same encode → JSON → decode path.

    Parameters
    ----------
    name : str
        The answer variable.
    kind : str
        The kind of answer (:func:`decode`).
    shape : tuple of int, optional
        The required shape.

    Returns
    -------
    object
        The decoded answer.
    """
    if _grader_answers is not None:
        data = _grader_answers.get(name, {"t": "missing"})
    else:
        namespace = sys._getframe(1).f_globals
        data = json.loads(json.dumps(encode(namespace[name]) if name in namespace else {"t": "missing"}))
    return decode(data, kind, shape)


def reference(key: str, compute):
    """``compute()``, once per process (a hidden test's expensive reference, shared by all students).

    Parameters
    ----------
    key : str
        The reference's name.
    compute : callable
        () -> the reference value.

    Returns
    -------
    object
        The cached value.
    """
    if key not in _references:
        _references[key] = compute()
    return _references[key]
