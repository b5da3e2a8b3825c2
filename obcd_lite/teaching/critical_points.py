"""Every critical point and every BS_2-point of a 2x2 Procrustes problem over O(2).

The problem is the one of Remark 2.6 and Appendix C.1 (``sect:additional:two:example``):

    min_{V in O(2)}  F(V) = ||V - T||_F^2 + mu ||V||_1 .

By Lemma 2.5 every V in O(2) is ``rot(theta)`` (det = +1) or ``ref(theta)`` (det = -1).
Since ||V||_F^2 = 2 on O(2) and every entry of V is +-cos or +-sin,

    F(rot(theta)) = 2 + ||T||^2 - 2 (p c + q s) + 2 mu (|c| + |s|),  p = T11 + T22, q = T12 - T21,
    F(ref(theta)) = 2 + ||T||^2 - 2 (p c + q s) + 2 mu (|c| + |s|),  p = T22 - T11, q = T12 + T21,

with (c, s) = (cos theta, sin theta). For mu > 0 the l1 term has kinks at theta = j pi / 2; on
each open quadrant the objective is the sinusoid ``const + a c + b s`` with
a = 2 mu sign(c) - 2 p, b = 2 mu sign(s) - 2 q, so every critical point is found in closed form:

* smooth critical points: theta = atan2(b, a) (a strict local max of the piece) and
  atan2(b, a) + pi (a strict local min), kept when they fall inside the open quadrant;
* kinks: by Definition 3.4 a point X is critical when 0 is in {G - X G^T X : G in dF(X)}, with
  dF the limiting subdifferential 2 (X - T) + mu * [sign box] of the l1 term. Along the circle
  this set is the interval [F'(theta-), F'(theta+)] (the l1 kinks are convex, so F'(theta-) <
  F'(theta+)), hence a kink is critical exactly when F'(theta-) <= 0 <= F'(theta+).

BS_2-points (Definition 3.6) are found from the definition: X is one when I_2 is a global
minimizer of the majorizer K(V; X, B) of eq. (11) with B = (1, 2) (the only working set for
n = 2). For n = 2, K(V; X) = F(V X) + alpha/2 ||V - I||^2 + const, so if I minimizes K then
F(theta0 + eps) >= F(theta0) - O(eps^2) and F'(theta0-) <= 0 <= F'(theta0+): every BS_2-point is
critical and the critical points are the only candidates. (Theorem 3.8(a) claims this for every n;
that is false for l1 in general, but n = 2 is safe.) The BS_2-points depend on alpha.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ..penalties import L1, Zero
from ..problems import procrustes
from ..rounding import equals, first_minimizer, fmt, zero_mask
from ..stiefel import BRANCHES, branch_matrix
from ..subproblem import block_data, majorizer_value, solve_2x2_unchecked
from ..validation import as_matrix, check_nonnegative, check_stiefel

#: Coefficients of a piece below this (relative to the data) count as zero: the piece is flat.
FLAT_RTOL = 1e-12


class CriticalPoint(NamedTuple):
    """One critical point of F over O(2).

    ``kind`` is "min" / "max" (local, in the weak sense: <= / >= on a neighbourhood) or
    "other"; "flat" marks a record standing for a whole arc ``arc = (lo, hi)`` on which F is
    constant (then every point of the arc is critical and ``theta`` is its midpoint).
    ``smooth`` is False at the kinks theta = j pi / 2 of the l1 term.

    Attributes
    ----------
    branch : str
        "rot" or "ref".
    theta : float
        The angle.
    value : float
        F at the point.
    kind : str
        "min", "max", "other" or "flat".
    smooth : bool
        False at a kink of the l1 term.
    V : numpy.ndarray
        The 2 x 2 point.
    arc : tuple of float or None
        The arc of a "flat" record.
    """

    branch: str
    theta: float
    value: float
    kind: str
    smooth: bool
    V: np.ndarray
    arc: tuple[float, float] | None = None


def objective_2x2(V: ArrayLike, T: ArrayLike, mu: float = 0.0) -> float:
    """F(V) = ||V - T||_F^2 + mu ||V||_1, evaluated entrywise (no trigonometric form).

    Parameters
    ----------
    V : array_like
        The 2 x 2 point.
    T : array_like
        As in :func:`critical_points_2x2`.
    mu : float
        As in :func:`critical_points_2x2`.

    Returns
    -------
    float
        F(V).
    """
    V = np.asarray(V, dtype=float)
    return float(np.sum((V - T) ** 2) + mu * np.sum(np.abs(V)))


def landscape_2x2(T: ArrayLike, mu: float = 0.0, thetas: ArrayLike | None = None) -> dict:
    """F along both circles of O(2): ``{"theta", "rot", "ref"}`` (arrays), for plotting.

    Uses the closed form above; ``thetas`` defaults to 721 points of [0, 2 pi].

    Parameters
    ----------
    T : array_like
        As in :func:`critical_points_2x2`.
    mu : float
        As in :func:`critical_points_2x2`.
    thetas : array_like or None
        The angles.

    Returns
    -------
    dict
        The angles and F on each circle.
    """
    T, mu = _check_target(T, mu)
    thetas = np.linspace(0.0, math.tau, 721) if thetas is None else np.asarray(thetas, dtype=float)
    c, s = np.cos(thetas), np.sin(thetas)
    const = 2.0 + float(np.sum(T * T))
    out = {"theta": thetas}
    for branch in BRANCHES:
        p, q = _linear_coefficients(T, branch)
        out[branch] = const - 2.0 * (p * c + q * s) + 2.0 * mu * (np.abs(c) + np.abs(s))
    return out


def critical_points_2x2(T: ArrayLike, mu: float = 0.0) -> list[CriticalPoint]:
    """Every critical point over O(2) of F(V) = ||V - T||_F^2 + mu ||V||_1 (Remark 2.6).

    Parameters
    ----------
    T : numpy.ndarray, shape (2, 2)
        The target.
    mu : float
        Float >= 0, the l1 weight (the paper's second example has mu = 5).

    Returns
    -------
    list of CriticalPoint
        Sorted by branch ("rot" first) and then theta in [0, 2 pi). Smooth stationary points
        come from the sinusoidal form of each piece; kinks are tested with the limiting
        subdifferential (Definition 3.4), see the module docstring.
    """
    T, mu = _check_target(T, mu)
    scale = max(1.0, float(np.max(np.abs(T))), mu)
    points: list[CriticalPoint] = []
    for branch in BRANCHES:
        p, q = _linear_coefficients(T, branch)
        if mu == 0.0:
            pieces = [(0.0, math.tau, -2.0 * p, -2.0 * q)]
        else:
            pieces = [(j * np.pi / 2, (j + 1) * np.pi / 2, *_quadrant_coefficients(j, p, q, mu))
                      for j in range(4)]
        for lo, hi, a, b in pieces:
            points.extend(_piece_points(branch, lo, hi, a, b, mu, T, scale))
        if mu > 0.0:
            for j in range(4):
                point = _kink_point(branch, j, pieces, mu, T, scale)
                if point is not None:
                    points.append(point)
    return sorted(points, key=lambda pt: (BRANCHES.index(pt.branch), pt.theta))


def bs2_points_2x2(T: ArrayLike, mu: float = 0.0, alpha: float = 1e-5) -> list[CriticalPoint]:
    """The BS_2-points of the problem of :func:`critical_points_2x2` (Definition 3.6).

    X is a BS_2-point when I_2 is in argmin_{V in O(2)} K(V; X, B) for B = (1, 2), with K the
    majorizer of eq. (11) built with the exact Q of eq. (9) (Q = 2 I_4 here, since the Hessian
    of ||X - T||^2 is 2 I). For n = 2 BS_2-points are critical (module docstring), so each critical
    point is tested; the minimum of K is computed by the breakpoint search ``solve_2x2_full``.
    The result depends on alpha: a jump to the other circle costs exactly 2 alpha.

    Parameters
    ----------
    T : array_like
        As in :func:`critical_points_2x2`.
    mu : float
        As in :func:`critical_points_2x2`.
    alpha : float
        Float > 0, the proximal parameter alpha of eq. (11).

    Returns
    -------
    list of CriticalPoint
        The subset of ``critical_points_2x2(T, mu)`` that are BS_2-points.
    """
    T, mu = _check_target(T, mu)
    alpha = check_nonnegative(alpha, "alpha", strict=True)
    problem = procrustes(T, L1(mu) if mu > 0 else Zero())
    return [pt for pt in critical_points_2x2(T, mu)
            if majorizer_gap(problem, pt.V, alpha) <= 1e-10 * max(1.0, abs(pt.value))]


def majorizer_gap(problem, X: ArrayLike, alpha: float) -> float:
    """K(I; X, B) - min_V K(V; X, B) >= 0 for n = 2, B = (1, 2) (eq. (11), Lemma 2.3(a)).

    Zero exactly when X is a BS_2-point. K is written as 1/2 vec(V)^T Qt vec(V) + <V, P> +
    h(V Z) with Qt = Q + alpha I and P = [grad f(X) X^T]_BB - mat(Q vec(I)) - alpha I.

    Parameters
    ----------
    problem : Problem
        A problem on St(2, 2).
    X : array_like
        The 2 x 2 point.
    alpha : float
        The proximal parameter of eq. (11).

    Returns
    -------
    float
        The gap.
    """
    X = as_matrix(X, "X", (2, 2))
    Qt, P, Z = block_data(problem, X, problem.grad(X), np.array([0, 1]), alpha, "exact")
    best = solve_2x2_unchecked(Qt, P, Z, problem.h).value
    return majorizer_value(Qt, P, np.eye(2), Z, problem.h) - best


def global_minimum_2x2(T: ArrayLike, mu: float = 0.0) -> CriticalPoint:
    """The critical point of lowest value (a global minimizer of F over O(2)); among values equal to
    rounding the first in the order of :func:`critical_points_2x2` (``rounding.first_minimizer``).

    Parameters
    ----------
    T : array_like
        As in :func:`critical_points_2x2`.
    mu : float
        As in :func:`critical_points_2x2`.

    Returns
    -------
    CriticalPoint
        The global minimizer.
    """
    points = critical_points_2x2(T, mu)
    return points[first_minimizer([pt.value for pt in points])]


def criticality_residual(V: ArrayLike, T: ArrayLike, mu: float = 0.0, zero_tol: float | None = None) -> float:
    """dist(0, {G - V G^T V : G in dF(V)}), the critical-point test of Definition 3.4 for n = r = 2.

    dF(V) = 2 (V - T) + mu * S with S_ij = sign(V_ij) where V_ij != 0 and S_ij in [-1, 1] where
    V_ij = 0, the limiting subdifferential of the l1 term. Which entries are zero: the package's rule
    (``rounding.zero_mask``; zero_tol None: |V_ij| <= 32 eps, so cos(pi/2) = 6e-17 is a zero), 0 for
    exact zeros only, a positive zero_tol for |V_ij| <= zero_tol. For V in O(2),
    G - V G^T V = V (V^T G - G^T V) and the skew part is w [[0, 1], [-1, 0]] with
    w = <G, V Omega>, Omega = [[0, 1], [-1, 0]]; its norm is sqrt(2) |w|. As G ranges over the
    box, w ranges over an interval, and the residual is sqrt(2) times its distance to 0.

    Raises ``ValueError`` (naming ||V^T V - I||_F) when V is not in O(2): the formula above
    holds only there, and off O(2) it would return a meaningless number, often 0.

    Parameters
    ----------
    V : array_like
        The point of O(2).
    T : array_like
        As in :func:`critical_points_2x2`.
    mu : float
        As in :func:`critical_points_2x2`.
    zero_tol : float or None
        Which entries count as zero.

    Returns
    -------
    float
        The residual.

    Raises
    ------
    ValueError
        If ``V`` is not in O(2).
    """
    lo, hi = kink_derivatives(V, T, mu, zero_tol)
    return float(np.sqrt(2.0) * max(0.0, lo, -hi))


def kink_derivatives(V: ArrayLike, T: ArrayLike, mu: float = 0.0,
                     zero_tol: float | None = None) -> tuple[float, float]:
    """The interval {d/dtheta along G : G in dF(V)} = [F'(theta-), F'(theta+)] at V = rot/ref(theta).

    Along the circle, V(theta) has dV/dtheta = +-V Omega (+ for rot, - for ref) and each entry that
    vanishes at theta has derivative +-1, so with the limiting subdifferential of the l1 term,
    w = <G, dV/dtheta> runs over [center - radius, center + radius] with radius = mu times the sum of
    |dV_ij/dtheta| over the vanishing entries. The one-sided derivatives of F(V(theta)) are these
    two ends: |V_ij(theta + eps)| = |eps| |dV_ij/dtheta| adds +-radius on each side. So a kink is
    critical (0 in the interval) exactly when F'(theta-) <= 0 <= F'(theta+); at a smooth point the
    interval is the single number F'(theta). ``zero_tol``: which entries vanish, as in
    :func:`criticality_residual`.

    Parameters
    ----------
    V, T : array_like
        As in :func:`criticality_residual` (``zero_tol``: which entries vanish).
    mu : float
        As in :func:`criticality_residual` (``zero_tol``: which entries vanish).
    zero_tol : float or None
        As in :func:`criticality_residual` (``zero_tol``: which entries vanish).

    Returns
    -------
    tuple of float
        F'(theta-) and F'(theta+).

    Raises
    ------
    ValueError
        As :func:`criticality_residual`.
    """
    V = as_matrix(V, "V", (2, 2))
    check_stiefel(V, "V")
    T, mu = _check_target(T, mu)
    # d/dtheta of rot(theta) is rot(theta) Omega, of ref(theta) it is -ref(theta) Omega
    direction = np.sign(np.linalg.det(V)) * V @ np.array([[0.0, 1.0], [-1.0, 0.0]])
    zero = zero_mask(V, zero_tol)
    center = float(np.sum((2.0 * (V - T) + mu * np.where(zero, 0.0, np.sign(V))) * direction))
    radius = float(mu * np.sum(np.abs(direction[zero])))
    return center - radius, center + radius


def sampled_extrema_2x2(T: ArrayLike, mu: float = 0.0, samples: int = 2**14) -> list[tuple[str, float, str]]:
    """A brute-force cross-check: the discrete local minima / maxima of F on ``samples`` equally
    spaced angles of each circle, as (branch, theta, "min" / "max"). It uses only entrywise
    evaluations of F, none of the closed forms above.

    Parameters
    ----------
    T : array_like
        As in :func:`critical_points_2x2`.
    mu : float
        As in :func:`critical_points_2x2`.
    samples : int
        The angles per circle.

    Returns
    -------
    list of tuple
        (branch, theta, "min" or "max"), sorted by branch and angle.
    """
    T, mu = _check_target(T, mu)
    thetas = np.arange(int(samples)) * math.tau / int(samples)
    found = []
    for branch in BRANCHES:
        values = np.array([objective_2x2(branch_matrix(branch, t), T, mu) for t in thetas])
        before, after = np.roll(values, 1), np.roll(values, -1)
        found += [(branch, float(thetas[i]), "min") for i in np.flatnonzero((values < before) & (values <= after))]
        found += [(branch, float(thetas[i]), "max") for i in np.flatnonzero((values > before) & (values >= after))]
    return sorted(found, key=lambda item: (BRANCHES.index(item[0]), item[1]))


# --- internals -----------------------------------------------------------------------------

def _check_target(T, mu) -> tuple[np.ndarray, float]:
    return as_matrix(T, "T", (2, 2)), check_nonnegative(mu, "mu")


def _linear_coefficients(T: np.ndarray, branch: str) -> tuple[float, float]:
    """(p, q) with <V, T> = p cos + q sin for V = rot(theta) / ref(theta)."""
    if branch == "rot":
        return float(T[0, 0] + T[1, 1]), float(T[0, 1] - T[1, 0])
    return float(T[1, 1] - T[0, 0]), float(T[0, 1] + T[1, 0])


def _quadrant_coefficients(j: int, p: float, q: float, mu: float) -> tuple[float, float]:
    """(a, b) of the piece const + a c + b s on the open quadrant (j pi/2, (j+1) pi/2)."""
    sign_c = 1.0 if j in (0, 3) else -1.0
    sign_s = 1.0 if j in (0, 1) else -1.0
    return 2.0 * mu * sign_c - 2.0 * p, 2.0 * mu * sign_s - 2.0 * q


def _record(branch, theta, T, mu, kind, smooth, arc=None) -> CriticalPoint:
    theta = float(theta % math.tau)
    V = branch_matrix(branch, theta)
    return CriticalPoint(branch, theta, objective_2x2(V, T, mu), kind, smooth, V, arc)


def _piece_points(branch, lo, hi, a, b, mu, T, scale):
    """Stationary points of const + a cos + b sin strictly inside (lo, hi)."""
    if abs(a) <= FLAT_RTOL * scale and abs(b) <= FLAT_RTOL * scale:
        return [_record(branch, 0.5 * (lo + hi), T, mu, "flat", True, (lo, hi))]
    peak = np.arctan2(b, a) % math.tau  # a c + b s = R cos(theta - peak): max at peak
    found = []
    for theta, kind in ((peak, "max"), ((peak + np.pi) % math.tau, "min")):
        if mu == 0.0:
            found.append(_record(branch, theta, T, mu, kind, True))
            continue
        # A stationary point on the quadrant's edge coincides with a kink: the kink test owns it.
        margin = 1e-12
        if lo + margin < theta < hi - margin:
            found.append(_record(branch, theta, T, mu, kind, True))
    return found


def _side_trend(a: float, b: float, theta: float, direction: float, scale: float) -> str:
    """How the piece const + a c + b s moves when leaving theta in ``direction`` (+1 / -1).

    "up" / "down" from the first derivative, or from the second one when the first vanishes;
    "flat" when both vanish (then a = b = 0).
    """
    c, s = np.cos(theta), np.sin(theta)
    slope = direction * (-a * s + b * c)
    if abs(slope) > FLAT_RTOL * scale:
        return "up" if slope > 0 else "down"
    curvature = -(a * c + b * s)
    if abs(curvature) > FLAT_RTOL * scale:
        return "up" if curvature > 0 else "down"
    return "flat"


def _kink_point(branch, j, pieces, mu, T, scale):
    """The kink theta = j pi / 2 if 0 lies in [F'(theta-), F'(theta+)] (Definition 3.4)."""
    theta = j * np.pi / 2
    _, _, a_left, b_left = pieces[(j - 1) % 4]
    _, _, a_right, b_right = pieces[j]
    c, s = np.cos(theta), np.sin(theta)
    left_derivative = -a_left * s + b_left * c
    right_derivative = -a_right * s + b_right * c
    tol = FLAT_RTOL * scale
    if not (left_derivative <= tol and right_derivative >= -tol):
        return None
    trends = {_side_trend(a_left, b_left, theta, -1.0, scale),
              _side_trend(a_right, b_right, theta, 1.0, scale)}
    if trends <= {"up", "flat"}:
        kind = "min"
    elif trends <= {"down", "flat"}:
        kind = "max"
    else:
        kind = "other"
    return _record(branch, theta, T, mu, kind, False)
