"""The k = 2 breakpoint search of Appendix B in plain loops: the version to read beside the paper.

Problem (3) with k = 2 is

    min_{V in O(2)}  1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z),        Qt 4 x 4, P 2 x 2, Z 2 x r.

:func:`reference_2x2` solves it exactly as Appendix B does, one step per paragraph of the paper, with
the paper's errors corrected (the errata table of notebook 02, :data:`obcd_lite.teaching.errata.ERRATA`):

1. **Two circles** (Lemma 2.5): V = rot(theta) = [[c, s], [-s, c]] or ref(theta) = [[-c, s], [s, c]],
   (c, s) = (cos theta, sin theta). On each the objective is eq. (1-D),
   a c + b s + cq c^2 + d c s + e s^2 + h(c x + s y), with the paper's closed forms for
   (a, b, cq, d, e, x, y) (:func:`circle_coefficients`; ``cq`` is the paper's c).
2. **Two half circles** (Lemma B.1): (c, s) = sigma (1, t) / sqrt(1 + t^2) with t = tan theta covers
   cos theta > 0 (sigma = +1, the paper's p(t)) and cos theta < 0 (sigma = -1, p~(t)); the two points
   cos theta = 0, (c, s) = (0, +-1), are candidates of their own.
3. **Breakpoints** (:func:`breakpoints`): where an entry u_i = sigma (x_i + t y_i) / rho of V Z reaches
   a kink of h (``h.kink_levels()``): 0 at t = -x_i / y_i (the paper writes +x_i / y_i: wrong), and for
   capped-l1 also +-tau. Entries with y_i = 0 are kept (the paper drops them: wrong for l1, capped-l1
   and X >= 0).
4. **Pieces** (:func:`piece`): between two breakpoints h(u(t)) = (a_h + b_h t) / rho + h_0, so the
   objective is (a_eff + b_eff t) / rho + (w + d t) / rho^2 + e + h_0 with a_eff = sigma a + a_h,
   b_eff = sigma b + b_h, w = cq - e (for X >= 0 the piece is feasible or not, as a whole). Each entry's
   share is the penalty's own ``entry_piece`` (``penalties/builtin.py``: a few lines per penalty).
5. **Stationary points** of a piece: the real roots of the quartic c4 t^4 + ... + c0 of Appendix B
   (:func:`~obcd_lite.subproblem.reference_quartic.quartic`; it may have no real root). Squaring
   mixes the stationary points of p and p~, so every root inside the piece is *scored*, not trusted.
6. **Score** every candidate — breakpoints, quartic roots, cos theta = 0, and V = I — with the
   objective of problem (3) computed from the matrix V (entries of V Z that are zero to rounding
   count as 0, the package's zero rule), and keep the lowest. Values equal to rounding are ties: the
   first in the candidates' order wins (V = I, then per circle the half circles' breakpoints and
   quartic roots, then cos theta = 0; the package's rule, :func:`obcd_lite.rounding.first_minimizer`),
   never the CPU.

Every penalty is lower semicontinuous, so the minimum over the circle is attained at one of these
candidates. This module is slow (Python loops, companion-matrix eigenvalues for the quartic)
and is not what OBCD runs: OBCD calls :func:`~obcd_lite.subproblem.breakpoint.solve_2x2`, whose compiled
sweep (:mod:`.sweep`) finds the same candidates in the angle theta with pruning and tie rules; the tests
(``tests/subproblem/test_reference.py``) hold the two equal on random, tied and zero instances.
Notebook 02's stepper steps through this search.

To judge the compiled search independently this module shares no code with it: it imports nothing from
the package but its own scalar helpers (:mod:`.reference_quartic`), and it asks the penalty only for
its value, its ``kink_levels`` and its ``entry_piece`` (so a penalty of your own that has them is
searched too; ``tests/test_imports.py`` checks the imports).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .reference_quartic import (as_float_matrix, level_crossings, lowest_first, problem3_value, quartic, real_roots,
                                rotation_or_reflection)

#: The two circles of O(2), in the search's order (Lemma 2.5).
BRANCHES = ("rot", "ref")


class Candidate(NamedTuple):
    """One candidate of the search: where it is and its value.

    Attributes
    ----------
    branch : str
        "rot" or "ref".
    sigma : int
        +1 (cos theta > 0), -1 (cos theta < 0) or 0 (the cos theta = 0 and V = I candidates).
    kind : str
        "break" (a breakpoint of h), "stationary" (a quartic root), "cos0" or "identity".
    t : float
        tan theta (NaN where cos theta = 0).
    c, s : float
        cos theta and sin theta.
    value : float
        The objective of problem (3) at V (``inf`` where V Z violates X >= 0).
    """

    branch: str
    sigma: int
    kind: str
    t: float
    c: float
    s: float
    value: float


class ReferenceSolution(NamedTuple):
    """The minimizer :func:`reference_2x2` returns, with every candidate it scored.

    Attributes
    ----------
    V : numpy.ndarray
        (2, 2), rot(theta) or ref(theta).
    theta : float
        The angle in [0, 2 pi).
    branch : str
        "rot" or "ref".
    value : float
        The objective of problem (3) at V.
    candidates : tuple of Candidate
        Every candidate, in the order scored (branch, half circle, piece).
    """

    V: np.ndarray
    theta: float
    branch: str
    value: float
    candidates: tuple


def circle_coefficients(Qt: np.ndarray, P: np.ndarray, Z: np.ndarray, branch: str) -> tuple:
    """The coefficients of eq. (1-D) on one circle, by the paper's closed forms below (1-D).

    Parameters
    ----------
    Qt : numpy.ndarray
        (4, 4) symmetric; ``Qt[i - 1, j - 1]`` is the paper's Q_ij.
    P : numpy.ndarray
        (2, 2).
    Z : numpy.ndarray
        (2, r).
    branch : str
        "rot" (upper signs) or "ref" (lower signs).

    Returns
    -------
    tuple
        ``(a, b, cq, d, e, x, y)``: five floats and two arrays of length 2r, with
        a = P22 +- P11, b = P12 -+ P21, cq = (Q11 + Q44)/2 +- Q14, d = -Q12 +- Q13 -+ Q24 + Q34,
        e = (Q22 + Q33)/2 -+ Q23, x = [+-Z(1,:), Z(2,:)], y = [Z(2,:), -+Z(1,:)].
    """
    sg = 1.0 if branch == "rot" else -1.0

    def Q(i, j):  # the paper's 1-based indices
        return float(Qt[i - 1, j - 1])

    a = float(P[1, 1]) + sg * float(P[0, 0])
    b = float(P[0, 1]) - sg * float(P[1, 0])
    cq = (Q(1, 1) + Q(4, 4)) / 2 + sg * Q(1, 4)
    d = -Q(1, 2) + sg * Q(1, 3) - sg * Q(2, 4) + Q(3, 4)
    e = (Q(2, 2) + Q(3, 3)) / 2 - sg * Q(2, 3)
    x = np.concatenate([sg * Z[0], Z[1]])
    y = np.concatenate([Z[1], -sg * Z[0]])
    return a, b, cq, d, e, x, y


def breakpoints(x: np.ndarray, y: np.ndarray, h) -> list[float]:
    """The sorted t where h(u(t)), u(t) = sigma (x + t y) / sqrt(1 + t^2), is not smooth.

    The same on both half circles (sigma only flips the sign of u).

    Parameters
    ----------
    x, y : numpy.ndarray
        The vectors of eq. (1-D) on one circle.
    h : Penalty
        The penalty; its ``kink_levels()`` are the values of an entry where it is not smooth.

    Returns
    -------
    list of float
        Where an entry crosses a kink level: t = -x_i / y_i (y_i != 0) for the level 0 (none for h = 0, whose
        levels are empty), and for a level c != 0 (capped-l1: +-tau) the t with |x_i + t y_i| = |c| sqrt(1 + t^2).
    """
    levels = set(h.kink_levels())
    ts = [-x[i] / y[i] for i in range(len(x)) if y[i] != 0] if 0.0 in levels else []
    for level in sorted({abs(c) for c in levels if c != 0}):   # |u| = level covers +level and -level
        ts += [t for xi, yi in zip(x, y) for t in level_crossings(float(xi), float(yi), level) if math.isfinite(t)]
    return sorted(float(t) for t in ts)


def piece(x: np.ndarray, y: np.ndarray, h, sigma: int, inside: float) -> tuple[float, float, float] | None:
    """h(u(t)) = (a_h + b_h t) / sqrt(1 + t^2) + h_0 on the piece of the line that holds ``inside``.

    Parameters
    ----------
    x, y : numpy.ndarray
        As for :func:`breakpoints`.
    h : Penalty
        As for :func:`breakpoints`.
    sigma : int
        The half circle, +1 or -1.
    inside : float
        A t strictly between two consecutive breakpoints.

    Returns
    -------
    tuple of float or None
        ``(a_h, b_h, h_0)``; None where h is infinite on the whole piece (X >= 0 fails).
    """
    a_h = b_h = h_0 = 0.0
    rho = math.hypot(1.0, inside)
    for xi, yi in zip(x, y):
        xs, ys = sigma * xi, sigma * yi       # entry i of V Z is u = (xs + t ys) / rho on this half circle
        u = (xs + inside * ys) / rho          # inside the piece: its sign (and side of each kink) is fixed there
        da, db, dh = h.entry_piece(float(u), float(xs), float(ys))
        if dh == math.inf:
            return None
        a_h, b_h, h_0 = a_h + da, b_h + db, h_0 + dh
    return a_h, b_h, h_0


def _inside(lo: float, hi: float) -> float:
    """A point strictly inside (lo, hi), either end possibly infinite."""
    if math.isinf(lo) and math.isinf(hi):
        return 0.0
    if math.isinf(lo):
        return hi - 1.0
    if math.isinf(hi):
        return lo + 1.0
    return 0.5 * (lo + hi)


def _candidate(Qt, P, Z, h, branch: int, sigma: int, kind: str, t: float, c: float, s: float) -> Candidate:
    value = problem3_value(Qt, P, Z, h, rotation_or_reflection(BRANCHES[branch], c, s))
    return Candidate(BRANCHES[branch], sigma, kind, t, c, s, value)


def half_circle_candidates(Qt, P, Z, h, branch: int, sigma: int) -> list[Candidate]:
    """The candidates on one half circle of one circle: breakpoints, then each piece's quartic roots.

    Parameters
    ----------
    Qt, P, Z : numpy.ndarray
        The data of problem (3).
    h : Penalty
        The penalty (with ``kink_levels`` and ``entry_piece``).
    branch : int
        The circle: 0 rot, 1 ref.
    sigma : int
        +1 (cos theta > 0) or -1 (cos theta < 0).

    Returns
    -------
    list of Candidate
        Each scored with the objective of problem (3).
    """
    a, b, cq, d, e, x, y = circle_coefficients(Qt, P, Z, BRANCHES[branch])
    w = cq - e
    found = []

    def add(kind, t):
        rho = math.hypot(1.0, t)
        found.append(_candidate(Qt, P, Z, h, branch, sigma, kind, t, sigma / rho, sigma * t / rho))

    cuts = breakpoints(x, y, h)
    for t in cuts:
        add("break", t)
    ends = [-math.inf] + cuts + [math.inf]
    for lo, hi in zip(ends[:-1], ends[1:]):
        if not lo < hi:
            continue                                 # two equal breakpoints: an empty piece
        shifts = piece(x, y, h, sigma, _inside(lo, hi))
        if shifts is None:
            continue                                 # X >= 0 fails on this piece
        a_h, b_h, _ = shifts
        a_eff, b_eff = sigma * a + a_h, sigma * b + b_h
        coeffs = quartic(a_eff, b_eff, w, d)
        if not any(coeffs):
            continue                                 # the piece is constant: its ends are candidates
        for t in real_roots(coeffs):
            if lo <= t <= hi:
                add("stationary", float(t))
    return found


def reference_2x2(Qt, P, Z, h=None) -> ReferenceSolution:
    """A global minimizer of problem (3) for k = 2 by Appendix B's search (corrected), in plain loops.

    Parameters
    ----------
    Qt : array_like
        (4, 4) symmetric, the quadratic term on vec(V) (vec stacks columns).
    P : array_like
        (2, 2), the linear term.
    Z : array_like
        (2, r), the rows X(B, :) that V multiplies.
    h : Penalty, optional
        Any penalty with ``entry_piece`` (the built-ins: Zero, L0, L1, CappedL1, NonNeg); None: h = 0.

    Returns
    -------
    ReferenceSolution
        ``V``, ``theta``, ``branch``, ``value`` of the lowest candidate (ties: the first), and ``candidates``.

    Raises
    ------
    TypeError
        If ``h`` has no ``entry_piece`` (a penalty of your own without it: use ``solve_2x2``).
    ValueError
        If Qt is not symmetric, or a shape is wrong.
    """
    Qt = as_float_matrix(Qt, "Qt", 4, 4)
    if not np.allclose(Qt, Qt.T, rtol=1e-10, atol=1e-10 * float(np.max(np.abs(Qt), initial=0.0))):
        raise ValueError(f"Qt must be symmetric, got ||Qt - Qt^T||_max = {float(np.max(np.abs(Qt - Qt.T))):.3e}")
    P = as_float_matrix(P, "P", 2, 2)
    Z = as_float_matrix(Z, "Z", 2, None)
    h = _NoPenalty() if h is None else h
    try:
        h.entry_piece(1.0, 1.0, 0.0)
    except (AttributeError, NotImplementedError) as err:
        raise TypeError(f"the reference search needs the penalty's entry_piece, which {type(h).__name__} "
                        f"does not implement (a penalty of your own without it: use solve_2x2)") from err
    candidates = [_candidate(Qt, P, Z, h, 0, 0, "identity", 0.0, 1.0, 0.0)]   # V = I
    for branch in range(2):
        for sigma in (1, -1):
            candidates += half_circle_candidates(Qt, P, Z, h, branch, sigma)
        for s in (1.0, -1.0):                                                   # cos theta = 0
            candidates.append(_candidate(Qt, P, Z, h, branch, 0, "cos0", math.nan, 0.0, s))
    best = candidates[lowest_first([cand.value for cand in candidates])]
    theta = math.atan2(best.s, best.c) % (2 * math.pi)
    return ReferenceSolution(rotation_or_reflection(best.branch, best.c, best.s), theta, best.branch, best.value,
                             tuple(candidates))


class _NoPenalty:
    """h = 0 without importing the package's Zero (this module stands alone)."""

    def __call__(self, M) -> float:
        return 0.0

    def kink_levels(self) -> tuple:
        return ()

    def entry_piece(self, u, x, y):
        return 0.0, 0.0, 0.0
