"""Self-checks of the notebooks' exercises that know no answer.

A **graded** exercise's check cell tests the answer's FORM only (its kind, shape, range), never its value:
``check("07.2", my_names, expect=(form("str_set"),))``; its hints are not in the cell but stored encoded
(:mod:`obcd_lite.teaching.hints`) and shown one per wrong attempt. The grader decides the points from the
hidden tests alone (tools/assign.py, docs/course.md). A **practice** check may compare values:
``check("p.1", x, expect=("3b0c5e1d9a6f2b47",), hint="...")``, with one entry of ``expect`` per answer,
either

* a **digest** (a string): the answer is right when :func:`answer_digest` of it, under the question's
  name, equals it. The digest is a salted SHA-256 prefix, so the check cell shows no value, set or
  verdict; the instructor makes it with ``python tools/assign.py digest 07.2 "{'obcd'}"``;
* a **verifier** (a callable ``answer -> bool``; what it prints is swallowed): for open answers, where many are
  right (a weight with 12 critical points, a matrix whose nearest orthogonal matrix is a reflection).

The check prints ``correct``, or raises :class:`NotSolvedYet`: with a placeholder ``...`` it only asks
for an answer; after a wrong answer it says "not yet" and gives the hint (a tuple of hints: the next
one after each further wrong attempt). Hints narrow the search; they never state the answer. The
expected values, and the tests that grade, are the hidden tests of the instructor notebooks
(``tools/assign.py``, docs/course.md); nothing here can tell a student what is right.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import numbers
from collections import Counter
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from ..stiefel import BRANCHES
from ..validation import as_matrix
from .answers import WrongForm, decode, encode
from .critical_points import critical_points_2x2
from .hints import hints as stored_hints

#: Significant digits a float answer is compared to (the digest rounds to them).
FLOAT_DIGITS = 4
_attempts: Counter = Counter()

from ..rounding import equals


class NotSolvedYet(AssertionError):
    """An exercise check that failed; the message is the hint. IPython shows only the message."""

    def _render_traceback_(self) -> list[str]:  # IPython: a short message instead of a traceback
        return [f"NotSolvedYet: {self}"]


def canonical(answer, digits: int = FLOAT_DIGITS) -> str:
    """The text an answer is digested as: the same for ``True`` and ``np.True_``, for ``36`` and
    ``36.0``, for ``{"a", "b"}`` and ``{"b", "a"}``; a float at ``digits`` significant digits.

    Parameters
    ----------
    answer : number, bool, str, set or list
        The answer.
    digits : int
        The significant digits of a float.

    Returns
    -------
    str
        The canonical text.

    Raises
    ------
    TypeError
        If ``answer`` is of a type that cannot be checked.
    """
    import sympy as sp

    if isinstance(answer, sp.Basic):
        answer = sp.simplify(answer)
        if not answer.is_number:
            return sp.srepr(answer)
        answer = float(answer)
    if isinstance(answer, (bool, np.bool_)):
        return str(bool(answer))
    if isinstance(answer, str):
        return repr(answer)
    if isinstance(answer, numbers.Real):
        value = float(answer)
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.{digits - 1}e}"
    if isinstance(answer, (set, frozenset)):
        return "{" + ",".join(sorted(canonical(a, digits) for a in answer)) + "}"
    if isinstance(answer, (list, tuple, np.ndarray)):
        return "[" + ",".join(canonical(a, digits) for a in answer) + "]"
    raise TypeError(f"an answer of type {type(answer).__name__} cannot be checked: give a number, "
                    "True/False, a string, a set or a list")


def answer_digest(question: str, answer, digits: int = FLOAT_DIGITS) -> str:
    """The digest a check compares ``answer`` with (16 hex digits, salted with the question's name).

    Parameters
    ----------
    question : str
        The question's name (the salt).
    answer : number, bool, str, set or list
        The answer (see :func:`canonical`).
    digits : int
        The significant digits of a float.

    Returns
    -------
    str
        The digest.
    """
    return hashlib.sha256(f"obcd-lite {question}: {canonical(answer, digits)}".encode()).hexdigest()[:16]


class Form:
    """A visible check of a graded answer's form (see :func:`form`): a verifier that never looks at the value.

    Parameters
    ----------
    kind : str
        As in :func:`form`.
    shape : tuple of int or None
        As in :func:`form`.
    nonnegative : bool
        As in :func:`form`.
    """

    def __init__(self, kind: str, shape: tuple[int, ...] | None = None, nonnegative: bool = False):
        self.kind, self.shape, self.nonnegative = kind, shape, nonnegative
        self.problem = ""

    def __call__(self, answer) -> bool:
        try:
            value = decode(json.loads(json.dumps(encode(answer))), self.kind, self.shape)
        except WrongForm as error:
            self.problem = str(error)
            return False
        if self.nonnegative and not value >= 0:
            self.problem = "expected a number >= 0"
            return False
        return True

    def __repr__(self) -> str:
        return f"form({self.kind!r}{'' if self.shape is None else f', {self.shape}'})"


def form(kind: str, shape: tuple[int, ...] | None = None, nonnegative: bool = False) -> Form:
    """The form check of a graded answer: ``kind`` as in :func:`obcd_lite.teaching.answers.decode`.

    Parameters
    ----------
    kind : str
        ``"int"``, ``"real"``, ``"bool"``, ``"str"``, ``"str_set"``, ``"int_tuple"``, ``"matrix"``,
        ``"sympy"``, ``"sympy_matrix"`` or ``"function"``.
    shape : tuple of int, optional
        The required shape (of a matrix) or length (of an int_tuple).
    nonnegative : bool
        Whether a number must be >= 0.

    Returns
    -------
    Form
        A verifier of the form.

    Raises
    ------
    ValueError
        If ``kind`` is unknown.
    """
    try:
        decode({"t": "missing"}, kind, shape)
    except WrongForm:
        pass
    return Form(kind, shape, nonnegative)


def _matches(question: str, answer, expected) -> bool:
    if callable(expected):
        with contextlib.redirect_stdout(io.StringIO()):  # a verifier that reports would show values
            return bool(expected(answer))
    if isinstance(answer, numbers.Real) and not isinstance(answer, (bool, np.bool_)) and math.isfinite(answer):
        # a right float near a rounding boundary still passes: try it a hair above and below
        return any(answer_digest(question, float(answer) * (1 + s * 1e-9)) == expected for s in (0, 1, -1))
    return answer_digest(question, answer) == expected


def check(question: str, *answers, expect: tuple[str | Callable[..., bool], ...],
          hint: str | tuple[str, ...] | None = None) -> None:
    """Print ``correct`` (or, for form checks, that the form is right) when every answer matches its
    ``expect`` entry; otherwise raise NotSolvedYet.

    A placeholder ``...`` asks for an answer (no hint yet); the n-th wrong attempt at ``question``
    shows the n-th hint (the last one again after that).

    Parameters
    ----------
    question : str
        The question's name.
    *answers
        The student's answers, one per entry of ``expect``.
    expect : tuple of str or callable
        Per answer: a :func:`form` (graded questions), its digest (:func:`answer_digest`) or a verifier
        that returns True for a right answer (practice questions).
    hint : str or tuple of str, optional
        The hints, shown one per wrong attempt; default: the question's stored hints
        (:mod:`obcd_lite.teaching.hints`), so that the check cell does not show them.

    Raises
    ------
    NotSolvedYet
        If an answer is a placeholder, of the wrong form or wrong.
    ValueError
        If the number of answers differs from that of ``expect``.
    KeyError
        If ``hint`` is None and the question has no stored hints.
    """
    if len(expect) != len(answers):
        raise ValueError(f"check {question!r}: {len(answers)} answers but {len(expect)} expected entries")
    if any(answer is Ellipsis or (isinstance(answer, tuple) and Ellipsis in answer) for answer in answers):
        raise NotSolvedYet("replace each ... with your answer, then run this check again")
    matched = [_matches(question, a, e) for a, e in zip(answers, expect)]
    if all(matched):
        if all(isinstance(e, Form) for e in expect):
            print("the form of your answer is right; it is graded when you hand the notebook in")
        else:
            print("correct")
        return
    hints = stored_hints(question) if hint is None else (hint,) if isinstance(hint, str) else tuple(hint)
    _attempts[question] += 1
    problems = "; ".join(f"answer {i + 1}: {e.problem}" for i, (ok, e) in enumerate(zip(matched, expect))
                         if not ok and isinstance(e, Form))
    raise NotSolvedYet(f"not yet{f' ({problems})' if problems else ''}. "
                       f"Hint: {hints[min(_attempts[question], len(hints)) - 1]}")


# --- verifiers of open answers (they test a property of the student's answer, and print nothing) -----------

def is_capped_shift(o1, x1, y1) -> Callable[[tuple], bool]:
    """Exercise 02.2: a verifier of ``(a_shift, b_shift)``: on an interval where entry 1 of u is uncapped
    with sign o1 and entry 2 capped, p(t) + h(u(t)) equals the smooth p with (a, b) shifted, plus lam tau.

    Parameters
    ----------
    o1 : int or sympy.Expr
        The sign of entry 1 of u on the interval.
    x1, y1 : sympy.Expr
        Entry 1 of u is (x1 + t y1) / sqrt(1 + t^2) on the rotation branch.

    Returns
    -------
    callable
        The verifier of ``(a_shift, b_shift)``.
    """
    import sympy as sp

    from .symbolic import a, b, d, lam, t, tau, w

    def verify(shifts) -> bool:
        a_shift, b_shift = shifts
        rho = sp.sqrt(1 + t**2)
        for sigma in (1, -1):
            smooth = sigma * (a + b * t) / rho + (w + d * t) / rho**2
            h = lam * o1 * sigma * (x1 + t * y1) / rho + lam * tau  # |u_1| = o1 u_1, entry 2 at the cap
            shifted = sigma * ((a + a_shift) + (b + b_shift) * t) / rho + (w + d * t) / rho**2 + lam * tau
            if sp.simplify(smooth + h - shifted) != 0:
                return False
        return True

    return verify


def rotations_cannot_make_nonnegative(Z, grid: int = 20001) -> bool:
    """Exercise 02.4: a verifier of ``Z`` (2 x r): no rotation V on a fine grid gives V Z >= 0.

    Parameters
    ----------
    Z : array_like
        The 2 x r matrix.
    grid : int
        The angles tried on [0, 2π].

    Returns
    -------
    bool
        True when no rotation on the grid gives V Z >= 0.
    """
    from ..stiefel import branch_matrix

    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[0] != 2:
        return False
    thetas = np.linspace(0.0, 2 * np.pi, grid)
    return not bool(np.any(np.all(branch_matrix("rot", thetas) @ Z >= -1e-12, axis=(1, 2))))


# --- verifiers of the graded questions' properties: silent, so that nothing depends on printed text -------------

def _best_by_branch(T: ArrayLike) -> dict[str, float]:
    T = as_matrix(T, "T", (2, 2))
    return {branch: min(pt.value for pt in critical_points_2x2(T) if pt.branch == branch) for branch in BRANCHES}


def reflection_is_nearest(T: ArrayLike) -> bool:
    """Exercise 01.1: is every minimizer of ||V - T||_F^2 over O(2) a reflection? (Any T with det T < 0.)

    Parameters
    ----------
    T : array_like
        The 2 x 2 target.

    Returns
    -------
    bool
        The verdict.
    """
    best = _best_by_branch(T)
    return bool(best["ref"] < best["rot"] - 1e-9)


def has_critical_count(T: ArrayLike, mu: float, expected: int) -> bool:
    """Exercise 01.3: does F = ||V - T||^2 + mu ||V||_1 have exactly ``expected`` critical points (no flat arc)?

    Parameters
    ----------
    T : array_like
        As in :func:`obcd_lite.teaching.critical_points.critical_points_2x2`.
    mu : float
        As in :func:`obcd_lite.teaching.critical_points.critical_points_2x2`.
    expected : int
        The count asked for.

    Returns
    -------
    bool
        The verdict.
    """
    points = critical_points_2x2(T, mu)
    return len(points) == int(expected) and not any(pt.kind == "flat" for pt in points)


def is_cayley_rotation(Q: "sympy.MatrixBase") -> bool:  # noqa: F821 (sympy is imported lazily)
    """Exercise 01.2: is ``Q`` the Cayley matrix of Lemma A.3 (real symbols ``a``, ``tau``) with det Q = 1?

    Parameters
    ----------
    Q : sympy.Matrix
        The 2 x 2 Cayley matrix.

    Returns
    -------
    bool
        The verdict (False for anything that is not a 2 x 2 sympy Matrix).
    """
    import sympy as sp

    from ..solvers.cayley import cayley_symbolic

    if not isinstance(Q, sp.MatrixBase) or Q.shape != (2, 2):
        return False
    _, _, reference = cayley_symbolic()
    return bool(sp.simplify(Q - reference) == sp.zeros(2, 2) and sp.simplify(Q.det()) == 1)


def density_gradient(gradient, rng=0, points=None) -> bool:
    """Exercise 08.1: is ``gradient(X)`` the Euclidean gradient of g(X) = 1/4 sum_i rho_i^2, rho = diag(X X^T)?
    Compared with central differences at random points (not only on St(n, r): the formula must hold in R^{n x r}).

    Parameters
    ----------
    gradient : callable or list
        The student's gradient, X -> n x r array; or (the grader) its values at ``points``, None where it failed.
    rng : int or numpy.random.Generator
        Draws the test points when ``points`` is None.
    points : list of numpy.ndarray, optional
        The test points (the grader's: :func:`obcd_lite.teaching.answers.probe_inputs`).

    Returns
    -------
    bool
        The verdict.
    """
    if points is None:
        rng = np.random.default_rng(rng)
        points = [rng.standard_normal(shape) for shape in ((5, 2), (7, 3))]

    def g(X):
        return 0.25 * float(np.sum(np.sum(X * X, axis=1) ** 2))

    values = gradient if isinstance(gradient, list) else [gradient(X) for X in points]
    if len(values) != len(points):
        return False
    for X, G in zip(points, values):
        if G is None:
            return False
        G = np.asarray(G, dtype=float)
        if G.shape != X.shape:
            return False
        numeric = np.zeros_like(X)
        for index in np.ndindex(*X.shape):
            E = np.zeros_like(X)
            E[index] = 1e-6
            numeric[index] = (g(X + E) - g(X - E)) / 2e-6
        if not np.allclose(G, numeric, rtol=1e-5, atol=1e-6):
            return False
    return True
