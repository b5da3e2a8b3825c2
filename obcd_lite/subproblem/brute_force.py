"""Brute-force references, independent of the breakpoint search.

``brute_force_2x2`` minimizes problem (3) for k = 2 over a dense angle grid on
both circles of O(2), plus every angle where an entry of V Z hits a kink of h
(zero, or +-tau for capped-l1), then refines the best points locally. It
evaluates the objective straight from the matrix V, never through the
coefficients (a, b, c, d, e, x, y) of Appendix B, and finds the kink angles
from V(0) Z and V(pi/2) Z, so it shares no derivation with ``solve_2x2``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize_scalar

from ..penalties import Penalty, Zero, snap_zeros
from ..stiefel import BRANCHES, branch_matrix
from ..validation import as_matrix, check_count, check_symmetric


class BruteForceResult(NamedTuple):
    """The best point the brute force found.

    Attributes
    ----------
    value : float
        The objective of problem (3) there.
    branch : str
        "rot" or "ref".
    theta : float
        The angle.
    """
    value: float
    branch: str
    theta: float


def objective_at(Qt, P, Z, h: Penalty, V) -> np.ndarray:
    """Problem (3) at the matrices V, entries of V Z that are zero up to rounding counted as zero.

    Parameters
    ----------
    Qt, P, Z : numpy.ndarray
        The data of problem (3), k = 2.
    h : Penalty
        The penalty.
    V : array_like
        (..., 2, 2).

    Returns
    -------
    numpy.ndarray
        The values, shape ``V.shape[:-2]``.
    """
    V = np.asarray(V, dtype=float)
    lead = V.shape[:-2]
    V = V.reshape(-1, 2, 2)
    v = np.swapaxes(V, 1, 2).reshape(len(V), 4)  # vec stacks columns
    value = 0.5 * np.einsum("mi,ij,mj->m", v, Qt, v) + np.einsum("mij,ij->m", V, P)
    if not h.is_zero:
        VZ = snap_zeros(V @ Z, Z)  # the same definition of an exact zero as the solver's
        value = value + h.row_sums(VZ.reshape(len(V), -1))
    return value.reshape(lead)


def objective_on_circle(Qt, P, Z, h: Penalty, branch: str, theta) -> np.ndarray:
    """Problem (3) at V = rot(theta) or ref(theta), evaluated from the matrices.

    Parameters
    ----------
    Qt, P, Z : numpy.ndarray
        As for :func:`objective_at`.
    h : Penalty
        As for :func:`objective_at`.
    branch : str
        "rot" or "ref".
    theta : float or array_like
        The angles.

    Returns
    -------
    numpy.ndarray
        One value per angle.
    """
    return objective_at(Qt, P, Z, h, branch_matrix(branch, np.atleast_1d(np.asarray(theta, dtype=float))))


def kink_angles(Z, h: Penalty, branch: str) -> np.ndarray:
    """Angles in [0, 2 pi) where an entry of V(theta) Z is 0 (or +-tau for CappedL1).

    Parameters
    ----------
    Z : numpy.ndarray
        (2, r).
    h : Penalty
        Its ``kink_levels`` say which levels count.
    branch : str
        "rot" or "ref".

    Returns
    -------
    numpy.ndarray
        The angles (unsorted, repeats possible).
    """
    # Each entry of V(theta) Z is x cos(theta) + y sin(theta) = R cos(theta - phi) (eq. (1-D)'s x, y).
    x = (branch_matrix(branch, np.array([0.0]))[0] @ Z).ravel()
    y = (branch_matrix(branch, np.array([np.pi / 2]))[0] @ Z).ravel()
    R, phi = np.hypot(x, y), np.arctan2(y, x)
    keep = R > 0
    levels = h.kink_levels()
    angles = []
    for level in levels:
        ok = keep & (np.abs(level) <= R)
        delta = np.arccos(np.clip(level / np.where(ok, R, 1.0), -1.0, 1.0))
        angles += [phi[ok] + delta[ok], phi[ok] - delta[ok]]
    return np.mod(np.concatenate(angles), 2 * np.pi) if angles else np.empty(0)


def brute_force_2x2(Qt, P, Z, h: Penalty | None = None, grid: int = 20_001, refine: int = 8,
                    branches: tuple = BRANCHES) -> BruteForceResult:
    """Dense-grid-plus-kinks minimizer of problem (3) for k = 2, refined with bounded Brent steps.

    Parameters
    ----------
    Qt, P, Z : numpy.ndarray
        As for ``solve_2x2``.
    h : Penalty or None
        As for ``solve_2x2``.
    grid : int
        Number of equispaced angles per circle, an integer >= 4 (a coarser grid has no neighbours to
        bracket a refinement in).
    refine : int
        How many of the best grid angles per circle get a bounded Brent refinement, an integer >= 0.
    branches : tuple
        The circles to search, ("rot", "ref") by default.

    Returns
    -------
    BruteForceResult
        ``value``, ``branch`` and ``theta`` of the best point found.

    Raises
    ------
    TypeError
        If ``h`` is not a Penalty or None.
    ValueError
        If ``branches`` is not a non-empty tuple of ``BRANCHES``.
    """
    h = Zero() if h is None else h
    if not isinstance(h, Penalty):
        raise TypeError(f"h must be a Penalty or None, got h = {h!r}")
    grid = check_count(grid, "grid", 4)
    refine = check_count(refine, "refine", 0)
    if isinstance(branches, str) or not set(branches) <= set(BRANCHES) or not branches:
        raise ValueError(f"branches must be a non-empty tuple of {BRANCHES}, got branches = {branches!r}")
    Qt, P, Z = as_matrix(Qt, "Qt", (4, 4)), as_matrix(P, "P", (2, 2)), as_matrix(Z, "Z", (2, None))
    check_symmetric(Qt, "Qt")
    theta = np.linspace(0.0, 2 * np.pi, grid, endpoint=False)
    step = theta[1]
    best = BruteForceResult(np.inf, "rot", 0.0)
    for branch in branches:
        kinks = kink_angles(Z, h, branch)
        for points in (theta, kinks):
            if points.size == 0:
                continue
            vals = objective_on_circle(Qt, P, Z, h, branch, points)
            j = int(np.argmin(vals))
            if vals[j] < best.value:
                best = BruteForceResult(float(vals[j]), branch, float(points[j]))
        vals = objective_on_circle(Qt, P, Z, h, branch, theta)
        for j in np.argsort(vals)[:refine]:
            if not np.isfinite(vals[j]):  # infeasible for NonNeg: nothing to refine
                break
            with np.errstate(invalid="ignore"):  # inf (infeasible) inside a NonNeg bracket
                res = minimize_scalar(lambda t: objective_on_circle(Qt, P, Z, h, branch, t)[0],
                                      bounds=(theta[j] - step, theta[j] + step), method="bounded",
                                      options={"xatol": 1e-13})
            if res.fun < best.value:
                best = BruteForceResult(float(res.fun), branch, float(res.x % (2 * np.pi)))
    return best
