"""Self-checks of the notebooks' exercises that know no answer.

A check cell reads ``check("07.2", my_names, expect=("3b0c5e1d9a6f2b47",), hint="...")``: one entry of
``expect`` per answer, either

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
import math
import numbers
from collections import Counter
from typing import Callable

import numpy as np

#: Significant digits a float answer is compared to (the digest rounds to them).
FLOAT_DIGITS = 4
_attempts: Counter = Counter()


class NotSolvedYet(AssertionError):
    """An exercise check that failed; the message is the hint. IPython shows only the message."""

    def _render_traceback_(self) -> list[str]:  # IPython: a short message instead of a traceback
        return [f"NotSolvedYet: {self}"]


def canonical(answer, digits: int = FLOAT_DIGITS) -> str:
    """The text an answer is digested as: the same for ``True`` and ``np.True_``, for ``36`` and
    ``36.0``, for ``{"a", "b"}`` and ``{"b", "a"}``; a float at ``digits`` significant digits."""
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
    """The digest a check compares ``answer`` with (16 hex digits, salted with the question's name)."""
    return hashlib.sha256(f"obcd-lite {question}: {canonical(answer, digits)}".encode()).hexdigest()[:16]


def _matches(question: str, answer, expected) -> bool:
    if callable(expected):
        with contextlib.redirect_stdout(io.StringIO()):  # a verifier that reports would show values
            return bool(expected(answer))
    if isinstance(answer, numbers.Real) and not isinstance(answer, (bool, np.bool_)) and math.isfinite(answer):
        # a right float near a rounding boundary still passes: try it a hair above and below
        return any(answer_digest(question, float(answer) * (1 + s * 1e-9)) == expected for s in (0, 1, -1))
    return answer_digest(question, answer) == expected


def check(question: str, *answers, expect: tuple[str | Callable[..., bool], ...],
          hint: str | tuple[str, ...]) -> None:
    """Print ``correct`` when every answer matches its ``expect`` entry; otherwise raise NotSolvedYet.

    A placeholder ``...`` asks for an answer (no hint yet); the n-th wrong attempt at ``question``
    shows the n-th hint (the last one again after that).
    """
    if len(expect) != len(answers):
        raise ValueError(f"check {question!r}: {len(answers)} answers but {len(expect)} expected entries")
    if any(answer is Ellipsis or (isinstance(answer, tuple) and Ellipsis in answer) for answer in answers):
        raise NotSolvedYet("replace each ... with your answer, then run this check again")
    if all(_matches(question, a, e) for a, e in zip(answers, expect)):
        print("correct")
        return
    hints = (hint,) if isinstance(hint, str) else tuple(hint)
    _attempts[question] += 1
    raise NotSolvedYet(f"not yet. Hint: {hints[min(_attempts[question], len(hints)) - 1]}")


# --- verifiers of open answers (they test a property of the student's answer, and print nothing) -----------

def is_capped_shift(o1, x1, y1) -> Callable[[tuple], bool]:
    """Exercise 02.2: a verifier of ``(a_shift, b_shift)``: on an interval where entry 1 of u is uncapped
    with sign o1 and entry 2 capped, p(t) + h(u(t)) equals the smooth p with (a, b) shifted, plus lam tau."""
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
    """Exercise 02.4: a verifier of ``Z`` (2 x r): no rotation V on a fine grid gives V Z >= 0."""
    from ..stiefel import branch_matrix

    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[0] != 2:
        return False
    thetas = np.linspace(0.0, 2 * np.pi, grid)
    return not bool(np.any(np.all(branch_matrix("rot", thetas) @ Z >= -1e-12, axis=(1, 2))))

