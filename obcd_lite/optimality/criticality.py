"""Critical points of min f(X) + h(X) on St(n, r) (Definition 3.4), by a bounded least-squares distance.

X is critical when 0 lies in the Riemannian limiting subdifferential

    d_M F(X) = {G - X G^T X : G in grad f(X) + dh(X)}                       (Definition 3.4).

For a separable h the set dh(X) is a box: entry (i, j) is an interval [lo_ij, hi_ij] given by the
penalty (``Penalty.subdifferential``), a single number where h is smooth, [-lam, lam] at a zero of
l1, the whole line at a zero of l0, (-inf, 0] at a zero of X >= 0. The map G -> G - X G^T X is
linear, so d_M F(X) is the image of a box under an affine map and

    dist(0, d_M F(X)) = min_{lo <= t <= hi} || A(G_0) + sum_{free (i,j)} t_ij A(E_ij) ||_F,
    A(G) = G - X G^T X,  A(E_ij) = E_ij - X[:, j] X[i, :],

a bounded least-squares problem over the free entries only (``scipy.optimize.lsq_linear``, the
exact active-set method BVLS). Fixed entries go into G_0.

Capped-l1 at |u| = tau is a concave kink: its limiting subdifferential is the two-point set
{0, lam sign(u)}, not the interval between (``Penalty.two_point_entries``). The residual is then
the smallest over the 2^m choices of those m entries (m <= ``MAX_TWO_POINT`` enumerated; beyond,
the interval hull gives a lower bound and ``residual_details`` says so).

Tolerances are relative to the problem's scale (:func:`verdict_scale`), never absolute: multiplying F by
s > 0 (C, L, const and the penalty's lam) multiplies every residual, gap and scale by s, so every verdict
of the hierarchy is the same for s F as for F.
"""
from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np
from scipy.optimize import lsq_linear

from ..rounding import snap_point
from ..validation import as_matrix, check_nonnegative, check_stiefel

#: The largest number of two-point entries (capped-l1 at |u| = tau) enumerated exactly.
MAX_TWO_POINT = 10


class Residual(NamedTuple):
    """dist(0, d_M F(X)) with its minimizer.

    Attributes
    ----------
    value : float
        The distance (Frobenius norm).
    G : numpy.ndarray
        The element of grad f(X) + dh(X) that attains it.
    free : int
        How many entries of dh(X) were free intervals.
    exact : bool
        False only when more than ``MAX_TWO_POINT`` two-point entries forced the hull (then ``value`` is
        a lower bound).
    """

    value: float
    G: np.ndarray
    free: int
    exact: bool


def verdict_scale(problem, G: np.ndarray | None = None) -> float:
    """The scale the hierarchy's verdicts are relative to (not the solvers' step scale,
    :func:`obcd_lite.results.problem_scale` = L_f): the size of F's data, homogeneous of degree 1: s F (C, L, const and lam times s) has s times it.

    S = L_f + ||L||_F + lam, with L_f = ``problem.lipschitz()`` (||C||_2 ||D||_2 for a quadratic f; for
    another f its bound, or its current estimate: the same point then gets the same verdicts whether L is
    proven or estimated, unless a solver has raised the estimate since), ||L||_F the linear term of a
    quadratic f and lam the penalty's weight (0 for Zero, X >= 0 or a penalty without one). It does not
    depend on the point, so the global level's tolerance is the same for every X. When it is 0 (a
    constant quadratic f with h = 0 or X >= 0) it falls back to ||G||_F, G = grad f(X) if given. The
    hierarchy's tolerances multiply it: a residual is compared with tol (S + ||grad f(X)||_F), a gap with
    tol (|F| + S), F against a certified bound with gap_tol S.

    Parameters
    ----------
    problem : obcd_lite.protocol.Problem
        The problem.
    G : numpy.ndarray, optional
        grad f(X) at the point judged, the fallback scale.

    Returns
    -------
    float
        S >= 0 (0 only when F's data and G are 0: every residual and gap is then exactly 0).
    """
    scale = float(problem.lipschitz())
    L = getattr(problem, "L", None)
    if isinstance(L, np.ndarray):
        scale += float(np.linalg.norm(L))
    scale += float(getattr(problem.h, "lam", 0.0))
    if scale == 0.0 and G is not None:
        scale = float(np.linalg.norm(G))
    return scale


def critical_tolerance(problem, G: np.ndarray, tol: float) -> float:
    """The absolute bound on dist(0, d_M F(X)) for relative ``tol``: tol (S + ||G||_F), S =
    :func:`verdict_scale` (the residual is in the units of the gradient; s F gets s times the bound).

    Parameters
    ----------
    problem : obcd_lite.protocol.Problem
        The problem.
    G : numpy.ndarray
        grad f(X).
    tol : float
        The relative tolerance.

    Returns
    -------
    float
        The bound.
    """
    return tol * (verdict_scale(problem, G) + float(np.linalg.norm(G)))


def tangent_part(X: np.ndarray, G: np.ndarray) -> np.ndarray:
    """A(G) = G - X G^T X, the element of d_M F(X) that G in dF(X) gives (Definition 3.4).

    Parameters
    ----------
    X : numpy.ndarray
        (n, r), a point on St(n, r).
    G : numpy.ndarray
        (n, r).

    Returns
    -------
    numpy.ndarray
        (n, r).
    """
    return G - X @ (G.T @ X)


def residual_details(problem, X, *, zero_tol: float | None = None) -> Residual:
    """dist(0, d_M F(X)) of Definition 3.4 with the subgradient attaining it (see the module docstring).

    Parameters
    ----------
    problem : Problem
        A :class:`~obcd_lite.protocol.Problem` (``grad``, ``h`` with ``subdifferential``), any smooth f.
    X : numpy.ndarray, shape (n, r)
        A point on St(n, r).
    zero_tol : float or None
        Which entries are zeros of h (where dh is an interval): None (default) the package's
        rounding rule (``rounding.zero_mask``: |X_ij| <= 32 eps ||X[:, j]||, so cos(pi/2) = 6e-17 is a
        zero); 0 exact zeros only; a positive number |X_ij| <= zero_tol (e.g. 1e-10 for a proximal
        method's points).

    Returns
    -------
    Residual
        The distance, the subgradient that attains it and how it was computed.
    """
    X = as_matrix(X, "X")
    check_stiefel(X, "X")
    problem.check_point(X, "X")
    X = snap_point(X, zero_tol)
    h = problem.h
    lo, hi = h.subdifferential(X)
    two_point = np.argwhere(h.two_point_entries(X))
    grad = problem.grad(X)
    exact = len(two_point) <= MAX_TWO_POINT
    choices = itertools.product(*[(lo[tuple(e)], hi[tuple(e)]) for e in two_point]) if exact else [()]
    best = None
    for choice in choices:
        lo_c, hi_c = lo.copy(), hi.copy()
        for e, value in zip(two_point, choice):
            lo_c[tuple(e)] = hi_c[tuple(e)] = value
        candidate = _box_distance(X, grad, lo_c, hi_c)
        if best is None or candidate[0] < best[0]:
            best = candidate
    value, G, free = best
    return Residual(value, G, free, exact)


def _box_distance(X, grad, lo, hi):
    """min ||A(grad + H)||_F over lo <= H <= hi (entrywise), by BVLS over the free entries."""
    free = lo < hi
    G0 = grad + np.where(free, 0.0, lo)
    b = tangent_part(X, G0).ravel()
    idx = np.argwhere(free)
    if len(idx) == 0:
        return float(np.linalg.norm(b)), G0, 0
    n, r = X.shape
    # Column for entry (i, j): vec(E_ij) - vec(X[:, j] X[i, :]).
    cols = -np.einsum("am,mb->mab", X[:, idx[:, 1]], X[idx[:, 0], :]).reshape(len(idx), n * r)
    cols[np.arange(len(idx)), idx[:, 0] * r + idx[:, 1]] += 1.0
    sol = lsq_linear(cols.T, -b, bounds=(lo[free], hi[free]), method="bvls", tol=1e-14)
    t = np.clip(sol.x, lo[free], hi[free])
    G = G0.copy()
    G[free] += t
    return float(np.linalg.norm(tangent_part(X, G))), G, len(idx)


def riemannian_residual(problem, X, *, zero_tol: float | None = None) -> float:
    """dist(0, d_M F(X)) = min ||G - X G^T X||_F over G in grad f(X) + dh(X) (Definition 3.4).

    Zero exactly at the critical points. Works for every penalty with a ``subdifferential``
    (Zero, L1, L0, CappedL1, NonNeg); :func:`residual_details` also returns the subgradient that
    attains the distance.

    Parameters
    ----------
    problem : Problem
        As for :func:`residual_details`.
    X : numpy.ndarray
        As for :func:`residual_details`.
    zero_tol : float or None
        As for :func:`residual_details`.

    Returns
    -------
    float
        The distance.
    """
    return residual_details(problem, X, zero_tol=zero_tol).value


def is_critical(problem, X, *, tol: float = 1e-8, zero_tol: float | None = None) -> bool:
    """Whether X is a critical point (Definition 3.4): residual <= tol (S + ||grad f(X)||_F), S =
    :func:`verdict_scale` (L_f + ||L||_F + lam: the verdict does not change when F is scaled).

    Parameters
    ----------
    problem : Problem
        As for :func:`residual_details`.
    X : numpy.ndarray
        As for :func:`residual_details`.
    tol : float, default 1e-8
        The tolerance relative to :func:`verdict_scale`.
    zero_tol : float or None
        As for :func:`residual_details`.

    Returns
    -------
    bool
        The verdict.
    """
    tol = check_nonnegative(tol, "tol")
    X = as_matrix(X, "X")
    value = riemannian_residual(problem, X, zero_tol=zero_tol)
    return value <= critical_tolerance(problem, problem.grad(X), tol)
