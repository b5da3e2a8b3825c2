"""riemannian_residual (Definition 3.4) against an independent formulation, on every penalty,
at points with and without exact zeros."""
import functools
import itertools

import numpy as np
import pytest
from scipy.optimize import minimize

from obcd_lite import (L0, L1, CappedL1, Zero, identity_init, is_critical, nonneg_pca, procrustes,
                       random_stiefel, riemannian_residual, sparse_pca)
from obcd_lite.optimality import residual_details
from obcd_lite.penalties import penalty_by_name


def box_by_hand(name, X, lam, tau):
    """dh(X) entry by entry, written out here (not from the penalty classes): (lo, hi, two-point mask)."""
    lo, hi = np.zeros_like(X), np.zeros_like(X)
    two = np.zeros(X.shape, dtype=bool)
    for idx, u in np.ndenumerate(X):
        if name == "l1":
            lo[idx], hi[idx] = (-lam, lam) if u == 0 else (lam * np.sign(u),) * 2
        elif name == "l0":
            lo[idx], hi[idx] = (-np.inf, np.inf) if u == 0 else (0.0, 0.0)
        elif name == "capped_l1":
            if u == 0:
                lo[idx], hi[idx] = -lam, lam
            elif abs(u) < tau:
                lo[idx] = hi[idx] = lam * np.sign(u)
            elif abs(u) == tau:
                lo[idx], hi[idx], two[idx] = min(0.0, lam * np.sign(u)), max(0.0, lam * np.sign(u)), True
        elif name == "nonneg":
            lo[idx], hi[idx] = (-np.inf, 0.0) if u == 0 else (0.0, 0.0)
    return lo, hi, two


def distance_by_qp(grad, X, lo, hi, two):
    """min ||(I - X X^T) G||^2 + ||X^T G - G^T X||^2 over the box (= ||G - X G^T X||^2), by L-BFGS-B;
    two-point entries enumerated."""
    n, r = X.shape
    P = np.eye(n) - X @ X.T
    best = np.inf
    two_idx = [tuple(e) for e in np.argwhere(two)]
    for choice in itertools.product(*[(lo[e], hi[e]) for e in two_idx]):
        l, u = lo.copy(), hi.copy()
        for e, v in zip(two_idx, choice):
            l[e] = u[e] = v
        free = l < u

        def cost(t):
            G = grad + np.where(free, 0.0, l)
            G[free] += t
            S = X.T @ G - G.T @ X
            R = P @ G
            value = np.sum(R * R) + np.sum(S * S)
            # gradient: d/dG = 2 P R + 2 X (S - S^T)
            dG = 2 * P @ R + 2 * X @ (S - S.T)
            return value, dG[free]

        if not free.any():
            best = min(best, np.sqrt(cost(np.empty(0))[0]))
            continue
        bounds = [(None if np.isinf(a) else a, None if np.isinf(b) else b) for a, b in zip(l[free], u[free])]
        x0 = np.clip(0.0, l[free], u[free])
        res = minimize(cost, x0, jac=True, method="L-BFGS-B", bounds=bounds,
                       options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 5000})
        best = min(best, np.sqrt(max(res.fun, 0.0)))
    return best


def point_with_zeros(n, r, zeros, rng):
    """A point of St(n, r) with exact zeros: each zero made by a Givens rotation of two rows."""
    X = random_stiefel(n, r, rng=rng)
    for i, j in zeros:
        k = (i + 1) % n
        a, b = X[i, j], X[k, j]
        rho = np.hypot(a, b)
        c, s = b / rho, a / rho
        X[[i, k]] = np.array([[c, -s], [s, c]]) @ X[[i, k]]
        X[i, j] = 0.0
    return X


PENALTIES = {name: functools.partial(penalty_by_name, name) for name in ("zero", "l1", "l0", "capped_l1")}


@pytest.mark.parametrize("name", list(PENALTIES))
@pytest.mark.parametrize("seed", range(4))
def test_residual_matches_an_independent_qp(name, seed):
    rng = np.random.default_rng(seed)
    n, r = 4, 2
    zeros = [] if seed == 0 else [(0, 0), (2, 1)][: seed]
    X = point_with_zeros(n, r, zeros, rng)
    lam = 0.3
    tau = abs(X[1, 1]) if (name == "capped_l1" and seed == 3) else 0.2  # seed 3: an entry exactly at |u| = tau
    T = rng.standard_normal((n, r))
    problem = procrustes(T, PENALTIES[name](lam, tau))
    lo, hi, two = box_by_hand(name if name != "zero" else "none", X, lam, tau)
    if name == "zero":
        lo = hi = np.zeros_like(X)
    expected = distance_by_qp(problem.grad(X), X, lo, hi, two)
    got = riemannian_residual(problem, X)
    assert got == pytest.approx(expected, abs=1e-6)
    assert residual_details(problem, X).exact


@pytest.mark.parametrize("seed", range(3))
def test_nonneg_residual_matches_an_independent_qp(seed):
    rng = np.random.default_rng(seed)
    n = 5
    X = np.zeros((n, 2))
    X[:2, 0] = rng.uniform(0.2, 1, 2)
    X[2:4, 1] = rng.uniform(0.2, 1, 2)
    X /= np.linalg.norm(X, axis=0)
    A = rng.standard_normal((8, n))
    problem = nonneg_pca(A.T @ A)
    lo, hi, two = box_by_hand("nonneg", X, 0.0, 0.0)
    assert riemannian_residual(problem, X) == pytest.approx(distance_by_qp(problem.grad(X), X, lo, hi, two), abs=1e-6)


def test_smooth_residual_is_the_riemannian_gradient_norm():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((8, 5))
    problem = sparse_pca(A.T @ A)
    X = random_stiefel(5, 2, rng=2)
    G = problem.grad(X)
    assert riemannian_residual(problem, X) == pytest.approx(np.linalg.norm(G - X @ G.T @ X), rel=1e-12)
    w, U = np.linalg.eigh(A.T @ A)
    assert is_critical(problem, U[:, [0, 3]])  # any pair of eigenvectors
    assert not is_critical(problem, X)


def test_l0_zero_entries_are_free():
    """At X = [e1, e2] every entry of grad f outside the support can be cancelled by dh (l0 at 0 is R)."""
    rng = np.random.default_rng(3)
    problem = procrustes(rng.standard_normal((4, 2)), L0(0.1))
    X = identity_init(4, 2)
    assert riemannian_residual(problem, X) < 1e-12
    assert riemannian_residual(procrustes(problem.L / -2.0, Zero()), X) > 1e-2


def test_zero_tol_snaps_tiny_entries():
    rng = np.random.default_rng(4)
    X = point_with_zeros(4, 2, [(0, 0)], rng)
    problem = procrustes(rng.standard_normal((4, 2)), L1(5.0))
    Y = X.copy()
    Y[0, 0] = 1e-17
    assert riemannian_residual(problem, Y, zero_tol=1e-12) == pytest.approx(riemannian_residual(problem, X))


@pytest.mark.parametrize("X, match", [
    (np.ones((4, 2)), "X is not on the Stiefel manifold"),
    (np.eye(3, 2), "X has 3 rows but C is 4 x 4"),
    (np.ones(4), "X must be 2-D"),
    (-identity_init(4, 2), r"X is infeasible for h = NonNeg\(\)"),
])
def test_bad_input(X, match):
    problem = nonneg_pca(np.eye(4) + 0.1)
    with pytest.raises(ValueError, match=match):
        riemannian_residual(problem, X)


def test_bad_tolerances():
    problem = sparse_pca(np.eye(3))
    with pytest.raises(ValueError, match="tol must be finite and >= 0"):
        is_critical(problem, identity_init(3, 1), tol=-1.0)
    with pytest.raises(ValueError, match="zero_tol must be finite and >= 0"):
        riemannian_residual(problem, identity_init(3, 1), zero_tol=np.nan)
