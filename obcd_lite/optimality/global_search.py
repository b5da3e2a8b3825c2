"""A certified global minimum of F = f + h on St(n, r) for small n, by one of two branch and bounds.

Backends (``global_minimum(..., backend=)``): "scip", SCIP on a nonconvex MIQCQP model of the problem
(:mod:`.global_scip`; D = I and a built-in penalty), and "angles", this module's own branch and bound over
Givens angles (n <= 5; any D, any penalty with kink levels), which stays as the fallback and the
cross-check (the tests compare the two wherever both certify). "auto" (default) keeps the angle search up to
3 angles (n = 3 with r <= 2 or r = 3, and (4, 1): certified in well under a second) and takes SCIP beyond,
where it applies.
Both work in floating point: SCIP's bound is SCIP's (its LP and its tolerances, lowered here by the
a-priori drift of its feasibility tolerance), the angle search's Taylor bounds are evaluated in numpy; F
at the returned point is the package's F, at a point on St(n, r) to rounding.

Measured reach (``benchmarks/global_reach.py``, tables in ``docs/global_search.md``): the angle search
certifies (gap <= 1e-3) every h in {0, l1, l0, X >= 0} for n <= 3 and for (n, r) = (4, 1), and h = 0
for every (n, r) (Ky Fan); SCIP reaches further (the table there).

The angle search:

Angles. Every X in St(n, r) is X(theta) = G_1^T G_2^T ... G_m^T E_r (E_r the first r columns of
I_n), where G_l is the Givens rotation of the l-th step of a Givens QR of X (column j zeroed from
the bottom by rotations of rows (i - 1, i), i = n - 1, ..., j + 1): m = nr - r(r + 1)/2 angles, the
dimension of St(n, r). Rotations that do not reach the diagonal need theta in [-pi/2, pi/2] (the
sign of the new top entry is free); the last one of each column needs [-pi, pi] (it makes the
diagonal +1). For r = n the last column is +-e_n: a sign is added. :func:`stiefel_angles` computes
the angles of a given X, so the box covers St(n, r) (the tests check the round trip).

Lower bound on a box (center c, half-widths w). With J_l = dX/dtheta_l at c, Taylor gives
X(theta) = X(c) + sum_l J_l dtheta_l + E with ||E||_F <= rho2 = sqrt(min(2, r))/2 (sum_l w_l)^2
(every second derivative applies two quarter-turns to rows of a matrix with orthonormal columns),
so entry (i, j) moves by at most sum_l |J_l,ij| w_l + rho2 and ||D X||_F <= rho. With Xc = X(c):

* f is quadratic: f(X) = f(Xc) + <grad f(Xc), D X> + 1/2 vec(D X)^T (D (x) C) vec(D X);
  any other f with a Lipschitz bound L of its gradient (``SmoothProblem(..., L=)``) has
  f(X) >= f(Xc) + <grad f(Xc), D X> - L/2 ||D X||_F^2, the same bound with L for the curvature term;
* h is separable and, for the package's penalties, affine between its kink levels: on an entry
  whose interval holds no kink, h_ij(u) = h_ij(c) + g_ij (u - c) exactly; on the others h_ij >=
  its minimum over the interval (at an end or a kink level);
* with G = grad f(Xc) + g (g on the kink-free entries), either
  <G, D X> >= -sum_l |<G, J_l>| w_l - ||G||_F rho2, or, since P_N D X = -1/2 Xc D X^T D X on
  St(n, r), <G, D X> >= -||P_T G||_F rho - 1/2 lmax(sym(Xc^T G))_+ rho^2; the larger bound is kept,
  and the quadratic term is >= -1/2 (-lmin(D (x) C))_+ rho^2.

Two more bounds and a symmetry. When f = 1/2 tr(X^T C X) + const (no D, no L), f >= half the sum of the
r smallest eigenvalues of C on St(n, r) (Ky Fan), so F >= that + the least h on the box, entry by entry:
this alone certifies h = 0, and X >= 0 whenever a top eigenvector is sign-definite. When
F(X diag(+-1)) = F(X) (h even, no linear term, D diagonal: :func:`sign_invariant`), the diagonal
angles need only [-pi/2, pi/2] and r = n needs no sign: a Givens QR that uses atan on the diagonal too
writes every X as X(theta) diag(d), d = +-1 (2^r fewer boxes).

Boxes are bisected along their widest angle; a box is dropped once its bound exceeds the best
value found minus ``tol``. Best values come from the box centers and from OBCD runs (which reach
the exact zeros of l0 / X >= 0 that no center has). The result certifies
``lower_bound <= min F <= value``; ``gap = value - lower_bound`` is <= tol when the search finished
within ``max_boxes`` (and ``time_limit``) and larger otherwise (reported, never hidden).
"""
from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from ..protocol import is_quadratic
from ..solvers.obcd import obcd
from ..stiefel import polar, random_start
from ..subproblem.global_3x3 import bisect_boxes
from ..validation import UnsupportedProblemError, as_matrix, check_count, check_nonnegative, check_stiefel
from . import global_scip

#: The largest n the exact global search accepts (the angle space has nr - r(r+1)/2 dimensions).
MAX_N = 5
#: ``backend="auto"`` keeps the angle search up to this many angles (it certifies every h there in well
#: under a second, SCIP's capped-l1 model needs seconds at (3, 3)), SCIP beyond.
AUTO_ANGLES = 3


class GlobalMinimum(NamedTuple):
    """A certified global minimum: ``lower_bound <= min_{St(n, r)} F <= value = F(X)``.

    Attributes
    ----------
    X : numpy.ndarray
        The best point found.
    value : float
        F(X).
    lower_bound : float
        A certified lower bound of F over St(n, r).
    gap : float
        value - lower_bound.
    certified : bool
        gap <= tol.
    boxes : int
        The boxes bounded (the angle search) or SCIP's branch-and-bound nodes.
    method : str
        How the bound was obtained.
    """

    X: np.ndarray
    value: float
    lower_bound: float
    gap: float
    certified: bool
    boxes: int
    method: str


def _rotation_plan(n: int, r: int) -> list[tuple[int, int, int]]:
    """(top row, bottom row, column) of each Givens QR step, in QR order."""
    return [(i - 1, i, j) for j in range(r) for i in range(n - 1, j, -1)]


def angle_box(n: int, r: int) -> tuple[np.ndarray, np.ndarray]:
    """The box of angles that covers St(n, r).

    Parameters
    ----------
    n, r : int
        The size of St(n, r).

    Returns
    -------
    tuple of numpy.ndarray
        The lower and upper ends: [-pi, pi] for a rotation onto the diagonal, else [-pi/2, pi/2].
    """
    half = np.array([math.pi if top == col else math.pi / 2 for top, _, col in _rotation_plan(n, r)])
    return -half, half


def stiefel_angles(X) -> tuple[np.ndarray, float]:
    """The angles (in :func:`angle_box`) and sign with ``stiefel_from_angles(theta, n, r, sign) == X``.

    Parameters
    ----------
    X : numpy.ndarray
        (n, r), a point on St(n, r).

    Returns
    -------
    tuple
        ``(theta, sign)``.
    """
    X = as_matrix(X, "X")
    check_stiefel(X, "X")
    n, r = X.shape
    R = X.copy()
    theta = []
    for top, bottom, col in _rotation_plan(n, r):
        a, b = R[top, col], R[bottom, col]
        t = math.atan2(b, a) if top == col else (math.atan(b / a) if a != 0 else math.pi / 2)
        c, s = math.cos(t), math.sin(t)
        R[[top, bottom]] = np.array([[c, s], [-s, c]]) @ R[[top, bottom]]
        theta.append(t)
    sign = 1.0 if r < n or R[n - 1, n - 1] >= 0 else -1.0
    return np.array(theta), sign


def stiefel_from_angles(theta, n: int, r: int, sign=1.0) -> np.ndarray:
    """X(theta) = G_1^T ... G_m^T E_r (times diag(1, .., sign) for r = n).

    Parameters
    ----------
    theta : numpy.ndarray
        (m,) angles, or a batch (..., m).
    n, r : int
        The size of St(n, r).
    sign : float, default 1.0
        The sign of the last column for r = n.

    Returns
    -------
    numpy.ndarray
        (n, r), or (..., n, r) for a batch.
    """
    theta = np.asarray(theta, dtype=float)
    lead = theta.shape[:-1]
    theta = theta.reshape(-1, theta.shape[-1])
    Y = np.broadcast_to(np.eye(n, r), (len(theta), n, r)).copy()
    if r == n:
        Y[:, n - 1, n - 1] = np.broadcast_to(np.asarray(sign, dtype=float), lead).reshape(-1)
    for l, (top, bottom, _) in reversed(list(enumerate(_rotation_plan(n, r)))):
        c, s = np.cos(theta[:, l])[:, None], np.sin(theta[:, l])[:, None]
        a, b = Y[:, top].copy(), Y[:, bottom].copy()
        Y[:, top], Y[:, bottom] = c * a - s * b, s * a + c * b  # rot(theta)^T on the two rows
    return Y.reshape(*lead, n, r)


def _interval_min_h(h, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Elementwise min of h over [lo, hi] (h monotone between its kink levels): ends and kinks inside."""
    best = np.minimum(h.elementwise(lo), h.elementwise(hi))
    for level in h.kink_levels():
        inside = (lo <= level) & (level <= hi)
        best = np.where(inside, np.minimum(best, h.elementwise(np.full_like(lo, level))), best)
    return best


def _with_jacobian(centers, n, r, signs):
    """X(c) and its derivatives J_l = dX/dtheta_l at a batch of centers: shapes (N, n, r), (m, N, n, r)."""
    plan = _rotation_plan(n, r)
    N, m = centers.shape
    Y = np.broadcast_to(np.eye(n, r), (N, n, r)).copy()
    if r == n:
        Y[:, n - 1, n - 1] = signs
    cos, sin = np.cos(centers), np.sin(centers)

    def rotate(M, l, derivative=False):
        top, bottom, _ = plan[l]
        c, s = cos[:, l, None], sin[:, l, None]
        a, b = M[:, top].copy(), M[:, bottom].copy()
        if derivative:  # d/dtheta of rot(theta)^T on the two rows; the other rows vanish
            M = np.zeros_like(M)
            M[:, top], M[:, bottom] = -s * a - c * b, c * a - s * b
        else:
            M[:, top], M[:, bottom] = c * a - s * b, s * a + c * b
        return M

    J = np.empty((m, N, n, r))
    for l in reversed(range(m)):  # Y holds R_{l+1}^T ... R_m^T E_r
        D = rotate(Y, l, derivative=True)
        for p in reversed(range(l)):
            D = rotate(D, p)
        J[l] = D
        Y = rotate(Y, l)
    return Y, J


def _bounds(problem, centers, halfwidths, signs, n, r, curvature, f_floor=None):
    """(F at the centers, lower bounds on the boxes) for a batch (see the module docstring); ``f_floor``:
    a lower bound on f over St(n, r) (Ky Fan), combined with the least h over each box."""
    X, J = _with_jacobian(centers, n, r, signs)
    # X(theta) = X(c) + sum_l J_l dtheta_l + E with ||E||_F <= rho2 (second derivatives have norm
    # <= sqrt(min(2, r)): each applies two quarter-turns to rows of a matrix with orthonormal columns)
    w = halfwidths
    rho2 = 0.5 * math.sqrt(min(2, r)) * w.sum(axis=1) ** 2
    Jnorm = np.sqrt(np.einsum("lnij,lnij->ln", J, J))
    rho = np.minimum((Jnorm * w.T).sum(axis=0) + rho2, math.sqrt(min(2, r)) * w.sum(axis=1))
    radius = np.einsum("lnij,nl->nij", np.abs(J), w) + rho2[:, None, None]  # |X_ij(theta) - X_ij(c)|
    h = problem.h
    f, grad = _batched_f_grad(problem, X)
    with np.errstate(invalid="ignore"):
        hval = h.elementwise(X)
    F_center = f + hval.sum(axis=(1, 2))
    lo, hi = X - radius, X + radius
    kinky = np.zeros(X.shape, dtype=bool)
    for level in h.kink_levels():
        kinky |= (lo <= level) & (level <= hi)
    smooth_h = np.where(kinky, 0.0, hval)
    infeasible = ~np.isfinite(smooth_h).all(axis=(1, 2))  # X >= 0 violated on a whole interval
    smooth_h = np.where(np.isfinite(smooth_h), smooth_h, 0.0)
    free = ~kinky & np.isfinite(hval)
    g = np.zeros_like(X)
    if np.any(free):  # slope of h on the kink-free entries (its subdifferential is a point there)
        g = np.where(free, h.subdifferential(np.where(free, X, 1.0))[0], 0.0)
    G = grad + g
    base = f + smooth_h.sum(axis=(1, 2)) + np.where(kinky, _interval_min_h(h, lo, hi), 0.0).sum(axis=(1, 2))
    XtG = np.einsum("mki,mkj->mij", X, G)
    sym = 0.5 * (XtG + np.swapaxes(XtG, 1, 2))
    PT = G - X @ sym
    lam_max = np.maximum(np.linalg.eigvalsh(sym)[:, -1], 0.0)
    # two valid bounds on <G, D X> + 1/2 q(D X); keep the larger
    tangent = base - np.sqrt(np.einsum("mij,mij->m", PT, PT)) * rho - 0.5 * (lam_max + curvature) * rho**2
    directional = (base - (np.abs(np.einsum("lmij,mij->ml", J, G)) * w).sum(axis=1)
                   - np.sqrt(np.einsum("mij,mij->m", G, G)) * rho2 - 0.5 * curvature * rho**2)
    bound = np.maximum(tangent, directional)
    if f_floor is not None:  # f >= its global minimum, h >= its least value on the box, entry by entry
        bound = np.maximum(bound, f_floor + _interval_min_h(h, lo, hi).sum(axis=(1, 2)))
    bound[infeasible] = np.inf
    return F_center, bound


def _batched_f_grad(problem, X):
    """f and grad f at a batch X (m, n, r): one BLAS call for a quadratic f, a loop over the points otherwise."""
    if not is_quadratic(problem):
        return np.array([problem.f(Y) for Y in X]), np.array([problem.grad(Y) for Y in X])
    G = np.einsum("ik,mkj->mij", problem.C, X)
    if problem.D is not None:
        G = G @ problem.D
    if problem.L is not None:
        G = G + problem.L
    f = 0.5 * np.einsum("mij,mij->m", X, G)
    if problem.L is not None:  # 1/2 <X, C X D> + <X, L> = 1/2 <X, G + L>
        f += 0.5 * np.einsum("mij,ij->m", X, problem.L)
    return f + problem.const, G


def _curvature(problem, r: int) -> float:
    """(-lambda_min(D (x) C))_+ : how much the quadratic term can bend f down; for any other f the
    Lipschitz bound L of grad f (f(Y) >= f(X) + <grad f(X), Y - X> - L/2 ||Y - X||^2)."""
    if not is_quadratic(problem):
        return float(problem.lipschitz())
    ec = np.linalg.eigvalsh(problem.C)
    ed = np.ones(r) if problem.D is None else np.linalg.eigvalsh(problem.D)
    return max(0.0, -float(np.min(np.outer(ec, ed))))


def _ky_fan_floor(problem, r: int) -> float | None:
    """min of f over St(n, r) when f = 1/2 tr(X^T C X) + const (no D, no L): half the sum of the r smallest
    eigenvalues of C (Ky Fan), plus const; None otherwise."""
    if not is_quadratic(problem) or problem.D is not None or problem.L is not None:
        return None
    return 0.5 * float(np.sum(np.linalg.eigvalsh(problem.C)[:r])) + problem.const


def _local_starts(problem, n, r, starts, rng):
    """The best point of a few OBCD runs (an upper bound with the exact zeros a center never has)."""
    rng = np.random.default_rng(rng)
    best = None
    for s in range(starts):
        X0 = random_start(n, r, rng, problem.h)  # X >= 0: distinct unit columns
        res = obcd(problem, X0, working_set="cyclic", max_iter=60 * math.comb(n, 2), rng=s)
        if best is None or res.F < best[1]:
            best = (res.X, res.F)
    return best


def sign_invariant(problem) -> bool:
    """Whether F(X S) = F(X) for every S = diag(+-1): h even (``symmetric``), no linear term, D diagonal.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.

    Returns
    -------
    bool
        The verdict.
    """
    if not is_quadratic(problem):
        return False
    D = problem.D
    return bool(problem.h.symmetric and problem.L is None and (D is None or np.count_nonzero(D - np.diag(np.diag(D))) == 0))


def global_minimum(problem, *, r: int | None = None, tol: float = 1e-3, max_boxes: int = 1_500_000,
                   starts: int = 6, rng=None, time_limit: float | None = None,
                   chunk: int = 200_000, backend: str = "auto", max_nodes: int = 200_000) -> GlobalMinimum:
    """A certified global minimum of F over St(n, r) for small n (see the module docstring and
    :mod:`.global_scip`; the measured reach of both backends is in ``docs/global_search.md``).

    Parameters
    ----------
    problem : Problem
        With n <= MAX_N = 5: a QuadraticProblem, or any f whose ``lipschitz()`` is a bound (``lipschitz_is_bound``; the f part of each box bound then uses L).
    r : int or None
        Number of columns (needed when neither D nor L fixes it).
    tol : float
        The gap to certify (absolute).
    max_boxes : int
        Budget of boxes bounded (angle search), a positive integer; when it runs out the gap
        reached is reported.
    starts : int
        OBCD runs for the first upper bound (a positive integer: they also give the exact zeros of
        l0 / X >= 0 that no box center has).
    rng : int, numpy.random.Generator or None
        Their seed.
    time_limit : float or None
        Seconds (None: no limit; the result then does not depend on the machine); when it runs
        out the gap reached is reported, as for ``max_boxes``.
    chunk : int
        Boxes bounded per batch, a positive integer (memory: about 8 m n r chunk bytes for the
        derivatives).
    backend : str
        "scip" (SCIP on a MIQCQP model, ``_scip_minimum``), "angles" (the branch and bound over
        Givens angles of this module) or "auto": the angles up to AUTO_ANGLES = 3 angles, SCIP beyond
        where its model applies (D = I, a built-in penalty), the angles otherwise.
    max_nodes : int
        SCIP's node budget, a positive integer (deterministic, unlike ``time_limit``); when it runs
        out the gap is reported.

    Returns
    -------
    GlobalMinimum
        The best point, its value and the certified lower bound.

    Raises
    ------
    ValueError or TypeError
        Naming the value: a bad ``r``, ``backend``, ``tol``, ``time_limit``, or a budget (``max_boxes``,
        ``max_nodes``, ``chunk``, ``starts``) that is not a positive integer.
    UnsupportedProblemError
        For a non-quadratic f without a Lipschitz bound of grad f (``lipschitz_is_bound``).
    """
    if not is_quadratic(problem) and not problem.lipschitz_is_bound:
        raise UnsupportedProblemError(f"global_minimum needs a Lipschitz bound of grad f for a non-quadratic f "
                                      f"(its box bounds use it); {problem!r} has an estimate only: pass L=")
    n = problem.n
    if n is None:
        raise ValueError("global_minimum needs the problem's n: give the SmoothProblem a shape")
    if backend not in ("auto", "scip", "angles"):
        raise ValueError(f"backend must be 'auto', 'scip' or 'angles', got {backend!r}")
    r = problem.r if r is None else r
    if r is None:
        raise ValueError("r is needed: the problem's D and L do not fix the number of columns")
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or not 1 <= r <= n or (problem.r not in (None, r)):
        raise ValueError(f"r must be an integer with 1 <= r <= n = {n} (and the problem's r = {problem.r}), got r = {r!r}")
    if backend == "auto":
        small = n * r - r * (r + 1) // 2 <= AUTO_ANGLES
        backend = "angles" if small or global_scip.unsupported_reason(problem) else "scip"
    if backend == "angles" and n > MAX_N:
        raise ValueError(f"global_minimum is exact only for tiny problems: n = {n} > {MAX_N} "
                         f"(the angle space has nr - r(r+1)/2 dimensions)")
    tol = check_nonnegative(tol, "tol", strict=True)
    if time_limit is not None:
        time_limit = check_nonnegative(time_limit, "time_limit", strict=True)
    r = int(r)
    max_nodes = check_count(max_nodes, "max_nodes")
    max_boxes = check_count(max_boxes, "max_boxes")
    chunk = check_count(chunk, "chunk")
    starts = check_count(starts, "starts")  # the first upper bound and the exact zeros come from these runs
    if backend == "scip":
        return _scip_minimum(problem, r, tol=tol, starts=starts, rng=rng, time_limit=time_limit,
                             max_nodes=max_nodes)
    started = time.perf_counter()
    X_best, best = _local_starts(problem, n, r, starts, rng)
    lo, hi = angle_box(n, r)
    signs = [1.0, -1.0] if r == n else [1.0]
    if sign_invariant(problem):
        # X = X(theta) diag(d) with every angle in [-pi/2, pi/2] (a Givens QR with atan on the diagonal too
        # leaves d = +-1 there), and F(X diag(d)) = F(X): half of each diagonal angle's range and no sign
        lo, hi, signs = np.maximum(lo, -math.pi / 2), np.minimum(hi, math.pi / 2), [1.0]
    centers = np.array([0.5 * (lo + hi)] * len(signs))
    half = np.array([0.5 * (hi - lo)] * len(signs))
    box_sign = np.array(signs)
    curvature = _curvature(problem, r)
    # Ky Fan's bound, lowered by a rounding margin so that it stays a bound as computed
    f_floor = _ky_fan_floor(problem, r)
    if f_floor is not None:
        f_floor -= 1e-12 * (abs(f_floor) + abs(problem.const) + float(np.abs(problem.C).sum()))  # relative: scale-free
    bounded, dropped_min, open_min = 0, np.inf, np.inf
    while len(centers):
        pieces = [_bounds(problem, centers[i:i + chunk], half[i:i + chunk], box_sign[i:i + chunk], n, r, curvature,
                          f_floor)
                  for i in range(0, len(centers), chunk)]
        F_c, lb = np.concatenate([p[0] for p in pieces]), np.concatenate([p[1] for p in pieces])
        bounded += len(centers)
        j = int(np.argmin(F_c))
        if F_c[j] < best:
            best = float(F_c[j])
            X_best = stiefel_from_angles(centers[j], n, r, box_sign[j])
        keep = lb <= best - tol
        dropped_min = min(dropped_min, float(np.min(lb[~keep], initial=np.inf)))
        centers, half, box_sign, lb = centers[keep], half[keep], box_sign[keep], lb[keep]
        open_min = float(np.min(lb, initial=np.inf))
        out_of_time = time_limit is not None and time.perf_counter() - started > time_limit
        if bounded + 2 * len(centers) > max_boxes or out_of_time:
            break
        centers, half = bisect_boxes(centers, half)
        box_sign = np.concatenate([box_sign, box_sign])
    # every box was either dropped (its bound is in dropped_min) or is still open (its bound is in open_min)
    lower = min(dropped_min, open_min, best)
    gap = best - lower
    X_best = np.asarray(X_best)
    return GlobalMinimum(X_best, float(problem.F(X_best)), lower, gap, gap <= tol, bounded,
                         f"branch and bound over the {len(lo)} Givens angles of St({n}, {r}), "
                         f"Lipschitz/second-order bounds, tol {tol:g}")


def _scip_minimum(problem, r: int, *, tol: float, starts: int, rng, time_limit: float | None,
                  max_nodes: int) -> GlobalMinimum:
    """The SCIP backend's certificate (:mod:`.global_scip`): ``lower_bound`` = SCIP's dual bound minus the
    a-priori drift of its relaxed feasible set (:func:`.global_scip.relaxation_drift`); ``value`` = F at
    an exactly feasible point: the best of SCIP's point made feasible (zeros kept, or its polar factor),
    each polished by OBCD, and of ``starts`` OBCD runs from random points. Both ends are computed in
    floating point (SCIP's bound as SCIP computes it, F as the package does)."""
    n = problem.n
    answer = global_scip.solve(problem, r, time_limit=time_limit, node_limit=max_nodes, gap=0.01 * tol)
    X_best, best = _local_starts(problem, n, r, starts, rng)
    if answer.X is not None:
        for X0 in (global_scip.feasible_from_relaxed(answer.X), polar(answer.X)):
            if not np.isfinite(problem.F(X0)):  # the polar factor of an X >= 0 point may dip below 0
                continue
            polished = obcd(problem, X0, working_set="cyclic", max_iter=60 * math.comb(n, 2), rng=0)
            for X, F in ((X0, float(problem.F(X0))), (polished.X, float(polished.F))):
                if F < best:
                    X_best, best = X, F
    value = float(problem.F(X_best))
    lower = min(answer.dual_bound - global_scip.relaxation_drift(problem, r), value)
    gap = value - lower
    return GlobalMinimum(np.asarray(X_best), value, lower, gap, gap <= tol, answer.nodes,
                         f"SCIP ({answer.model} model, {answer.status}, {answer.nodes} nodes) on the MIQCQP of "
                         f"min F over St({n}, {r}), its bound less the drift of its tolerance, tol {tol:g}")
