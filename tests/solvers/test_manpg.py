"""ManPG and ManPG-Ada: the subproblem against scipy, descent, stationarity, declines, a cross-check with OBCD."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from obcd_lite.penalties import L0, L1, CappedL1, NonNeg, Zero
from obcd_lite.problems import QuadraticProblem, nonneg_pca, sparse_pca
from obcd_lite.solvers import SOLVERS, manpg, manpg_ada, manpg_subproblem, obcd
from obcd_lite.stiefel import feasibility, polar, random_stiefel
from obcd_lite.validation import UnsupportedProblemError


def covariance(m: int, n: int, seed: int) -> np.ndarray:
    A = np.random.default_rng(seed).standard_normal((m, n))
    A -= A.mean(axis=0)
    A /= np.linalg.norm(A, axis=0)
    return A.T @ A


def scipy_subproblem(X, G, t, lam):
    """min <G, D> + ||D||^2/(2t) + lam ||X + D||_1 s.t. X^T D + D^T X = 0, as a smooth problem with
    X + D = P - N, P, N >= 0 (SLSQP), an independent reference for the semismooth Newton solution."""
    n, r = X.shape
    rows, cols = np.tril_indices(r)

    def split(v):
        P, N = v[: n * r].reshape(n, r), v[n * r:].reshape(n, r)
        return P - N - X

    def objective(v):
        D = split(v)
        return float(np.sum(G * D) + np.sum(D * D) / (2 * t) + lam * v.sum())

    def gradient(v):
        D = split(v)
        g = (G + D / t).ravel()
        return np.concatenate([g, -g]) + lam

    def tangent(v):
        S = X.T @ split(v)
        return (S + S.T)[rows, cols]

    v0 = np.concatenate([np.maximum(X, 0).ravel(), np.maximum(-X, 0).ravel()])
    sol = minimize(objective, v0, jac=gradient, method="SLSQP", bounds=[(0, None)] * (2 * n * r),
                   constraints=[{"type": "eq", "fun": tangent}], options={"ftol": 1e-12, "maxiter": 2000})
    assert sol.success, sol.message
    return split(sol.x)


@pytest.mark.parametrize("seed, n, r, lam",
                         [(0, 6, 2, 0.3), (1, 7, 3, 0.1), (2, 5, 1, 1.0), (3, 8, 3, 2.0), (5, 6, 2, 5.0)])
def test_subproblem_matches_scipy(seed, n, r, lam):
    rng = np.random.default_rng(seed)
    X = random_stiefel(n, r, rng)
    G = rng.standard_normal((n, r))
    t = 0.5
    sol = manpg_subproblem(X, G, t, L1(lam), tol=1e-24)
    assert sol.converged
    S = X.T @ sol.D
    assert np.linalg.norm(S + S.T) < 1e-10
    assert np.allclose(sol.Lam, sol.Lam.T)
    # KKT: X + D is the prox of X - t G + 2 t X Lam.
    assert np.allclose(X + sol.D, L1(lam).prox(X - t * G + 2 * t * X @ sol.Lam, t), atol=1e-12)
    assert np.allclose(sol.D, scipy_subproblem(X, G, t, lam), atol=2e-6)


def test_subproblem_without_penalty_is_the_projected_gradient_step():
    rng = np.random.default_rng(4)
    X = random_stiefel(9, 3, rng)
    G = rng.standard_normal((9, 3))
    S = X.T @ G
    expected = -0.3 * (G - X @ (S + S.T) / 2)
    assert np.allclose(manpg_subproblem(X, G, 0.3, Zero(), tol=1e-26).D, expected, atol=1e-12)


def test_subproblem_warm_start_and_bad_input():
    rng = np.random.default_rng(5)
    X = random_stiefel(10, 3, rng)
    G = rng.standard_normal((10, 3))
    cold = manpg_subproblem(X, G, 0.2, L1(0.5), tol=1e-22)
    warm = manpg_subproblem(X, G, 0.2, L1(0.5), Lam0=cold.Lam, tol=1e-22)
    assert warm.iterations == 0 and np.allclose(warm.D, cold.D)
    with pytest.raises(ValueError, match="t must be"):
        manpg_subproblem(X, G, 0.0, L1(0.5))
    with pytest.raises(ValueError, match="Lam0 must be symmetric"):
        manpg_subproblem(X, G, 0.2, L1(0.5), Lam0=np.triu(np.ones((3, 3))))
    with pytest.raises(UnsupportedProblemError, match=r"L0\(lam=1\)"):
        manpg_subproblem(X, G, 0.2, L0(1.0))


@pytest.mark.parametrize("h", [Zero(), L1(0.7), NonNeg()], ids=repr)
def test_prox_jacobian_is_the_derivative_of_the_prox(h):
    A = np.random.default_rng(6).standard_normal((20, 4))
    eps = 1e-7
    numeric = (h.prox(A + eps, 0.5) - h.prox(A - eps, 0.5)) / (2 * eps)
    assert np.allclose(h.prox_jacobian(A, 0.5), numeric, atol=1e-6)


def problem_l1(n=20, r=3, lam=0.05, seed=7):
    return sparse_pca(covariance(8, n, seed), L1(lam))


@pytest.mark.parametrize("solver", [manpg, manpg_ada])
@pytest.mark.parametrize("make", [problem_l1, lambda: sparse_pca(covariance(8, 20, 8))])
def test_manpg_decreases_F_and_ends_stationary(solver, make):
    problem = make()
    X0 = random_stiefel(problem.n, 3, 11)
    res = solver(problem, X0)
    assert res.stop_reason == "tol"
    assert res.solver == solver.__name__
    F = res.history["F"]
    assert np.all(np.diff(F) <= 1e-12) and F[-1] < F[0] - 1e-3
    assert res.F == problem.F(res.X)
    assert feasibility(res.X) < 1e-8
    # The stationarity measure ||D|| / (t S) at the returned X, recomputed from scratch, is below the
    # default tol sqrt(1e-8 n r) (relative to the scale S = L_f, issue 34): ||D||^2/t^2 < 1e-8 n r S^2.
    tol = 1e-8 * problem.n * 3 * problem.lipschitz() ** 2
    t = res.info["t"]
    sol = manpg_subproblem(res.X, problem.grad(res.X), t, problem.h, tol=1e-24)
    assert np.sum(sol.D**2) / t**2 < tol
    assert res.info["opt_norm"] ** 2 < tol


def test_manpg_without_penalty_reaches_the_eigenvalue_optimum():
    C = covariance(10, 15, 9)
    problem = sparse_pca(C)
    res = manpg(problem, random_stiefel(15, 4, 2), tol=1e-8)
    assert res.F == pytest.approx(-np.sum(np.linalg.eigvalsh(C)[-4:]), abs=1e-8)


def test_manpg_and_obcd_reach_similar_F_on_a_tiny_l1_spca():
    problem = problem_l1(n=12, r=2, lam=0.1, seed=3)
    starts = [random_stiefel(12, 2, s) for s in range(3)]
    F_manpg = min(manpg(problem, X0).F for X0 in starts)
    F_obcd = min(obcd(problem, X0, max_iter=1000, log_every=1000, rng=0).F for X0 in starts)
    assert F_manpg == pytest.approx(F_obcd, rel=1e-3)


def test_manpg_ada_changes_t_and_honours_F_target():
    problem = problem_l1()
    X0 = random_stiefel(20, 3, 1)
    ref = manpg(problem, X0)
    ada = manpg_ada(problem, X0, F_target=ref.F)
    assert ada.stop_reason in ("F_target", "tol")
    assert ada.F < ref.F + 1e-6
    t0 = 1 / problem.lipschitz()
    assert np.all(ada.history["t"][1:] >= t0 * (1 - 1e-12)) and np.max(ada.history["t"]) > t0
    assert np.allclose(ref.history["t"], t0)


def test_manpg_history_callback_and_budget():
    problem = problem_l1()
    seen = []
    res = manpg(problem, random_stiefel(20, 3, 0), max_iter=5, callback=lambda step: seen.append(step.info["alpha"]))
    assert res.iterations == 5 and res.stop_reason == "max_iter" and len(seen) == 5
    assert set(res.history) >= {"iteration", "seconds", "F", "feasibility", "nnz", "alpha", "t", "opt_norm", "inner"}


@pytest.mark.parametrize("h, name",
                         [(L0(0.1), r"L0\(lam=0.1\)"), (CappedL1(0.1, 0.2), r"CappedL1\(lam=0.1, tau=0.2\)")])
@pytest.mark.parametrize("solver", [manpg, manpg_ada])
def test_manpg_declines_nonconvex_penalties(solver, h, name):
    problem = sparse_pca(covariance(5, 6, 0), h)
    with pytest.raises(UnsupportedProblemError, match=name):
        solver(problem, random_stiefel(6, 2, 0))


def test_manpg_declines_nonneg_because_polar_leaves_the_orthant():
    problem = nonneg_pca(covariance(5, 6, 0))
    X0 = np.eye(6, 2)
    with pytest.raises(UnsupportedProblemError, match=r"NonNeg\(\).*polar retraction does not keep X >= 0"):
        manpg(problem, X0)
    # The reason: a retracted nonnegative point need not be nonnegative.
    Y = np.array([[1.0, 0.5], [0.0, 1.0], [0.5, 0.0]])
    assert np.min(polar(Y)) < 0


def test_manpg_bad_input():
    problem = problem_l1()
    X0 = random_stiefel(20, 3, 0)
    with pytest.raises(ValueError, match="tol"):
        manpg(problem, X0, tol=-1.0)
    with pytest.raises(ValueError, match="step"):
        manpg(problem, X0, step=0.0)
    with pytest.raises(ValueError, match="X0 is not on the Stiefel manifold"):
        manpg(problem, 2 * X0)
    with pytest.raises(TypeError, match="adaptive"):
        manpg_ada(problem, X0, adaptive=False)


def test_registered():
    assert SOLVERS["manpg"] is manpg and SOLVERS["manpg_ada"] is manpg_ada
    assert isinstance(problem_l1(), QuadraticProblem)


def test_time_limit_is_kept_inside_the_newton_loop(fake_clock):
    """The time budget binds within an outer iteration too (same budget for every method): every
    read of the fake clock moves it 1 s, so a 10.5 s budget allows about ten Newton steps, not the
    100,000 of inner_iter."""
    rng = np.random.default_rng(4)
    A = rng.standard_normal((60, 120))
    problem = sparse_pca(A.T @ A / np.linalg.norm(A) ** 2, L1(1e-3))
    fake_clock.tick = 1.0
    res = manpg(problem, polar(rng.standard_normal((120, 20))), time_limit=10.5, tol=0.0, inner_iter=100_000)
    assert res.stop_reason == "time_limit"
    assert res.info["inner_iterations"] <= 11
