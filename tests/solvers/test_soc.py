"""SOC (Lai & Osher 2014) against a line-by-line transcription of soc_spca.m, and its behaviour."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.penalties import L0, L1, CappedL1, Zero
from obcd_lite.problems import QuadraticProblem, nonneg_pca, procrustes, sparse_pca
from obcd_lite.solvers.infeasible import nonneg_surrogate
from obcd_lite.solvers.soc import _x_step_solver, soc
from obcd_lite.stiefel import feasibility, identity_init, random_stiefel
from obcd_lite.validation import UnsupportedProblemError

rng = np.random.default_rng(0)
B_DATA = rng.standard_normal((20, 12))
B_DATA /= np.linalg.norm(B_DATA)  # the paper's scaling ||A||_F = 1
C = B_DATA.T @ B_DATA
N, R = 12, 3


def soc_spca_transcribed(B, mu, X0, iterations):
    """chenshixiang/ManPG:manpg_code_share/SPCA/soc_spca.m (type 0), written out in numpy."""
    A = -B.T @ B
    rho = 2 * np.linalg.svd(B, compute_uv=False)[0] ** 2
    lam = rho
    P = X0.copy()
    Q = P.copy()
    Z = np.zeros_like(P)
    b = Z.copy()
    Ainv = np.linalg.inv(2 * A + (rho + lam) * np.eye(A.shape[0]))
    for _ in range(iterations):
        X = Ainv @ (rho * (P - Z) + lam * (Q - b))
        Q = np.sign(X + b) * np.maximum(0, np.abs(X + b) - mu / lam)
        U, _, Vt = np.linalg.svd(X + Z, full_matrices=False)
        P = U @ Vt
        Z = Z + X - P
        b = b + X - Q
    return X, P, Q


@pytest.mark.parametrize("iterations", [1, 2, 25])
def test_matches_the_reference_code(iterations):
    mu = 0.01
    X0 = random_stiefel(N, R, rng=1)
    X, P, Q = soc_spca_transcribed(B_DATA, mu, X0, iterations)
    res = soc(sparse_pca(C, L1(mu)), X0, max_iter=iterations, tol=0.0)
    assert res.iterations == iterations
    assert np.allclose(res.X, P, atol=1e-10)
    assert np.allclose(res.info["raw"], Q, atol=1e-10)
    assert np.allclose(res.info["X_split"], X, atol=1e-10)
    assert res.info["rho"] == res.info["lam"] == pytest.approx(2 * np.linalg.norm(B_DATA, 2) ** 2)


@pytest.mark.parametrize("with_D", [False, True])
def test_x_step_against_a_kronecker_solve(with_D):
    """C X D + s X = R - L, solved by the eigendecompositions, against the (nr x nr) system."""
    D = np.array([[2.0, 0.3, 0.0], [0.3, 1.0, -0.2], [0.0, -0.2, 0.5]]) if with_D else None
    L = rng.standard_normal((N, R))
    problem = QuadraticProblem(-2 * C, D=D, L=L)
    shift = 3.0
    Rhs = rng.standard_normal((N, R))
    DD = np.eye(R) if D is None else D
    system = np.kron(DD, problem.C) + shift * np.eye(N * R)  # vec(C X D) = (D^T (x) C) vec(X)
    expected = np.linalg.solve(system, (Rhs - L).reshape(-1, order="F")).reshape((N, R), order="F")
    assert np.allclose(_x_step_solver(problem, shift)(Rhs), expected, atol=1e-10)


@pytest.mark.parametrize("h", [Zero(), L1(0.01), L0(0.001), CappedL1(0.01, 0.1)], ids=repr)
def test_decreases_F(h):
    problem = sparse_pca(C, h)
    X0 = random_stiefel(N, R, rng=2)
    res = soc(problem, X0, max_iter=400)
    assert res.F < problem.F(X0)
    assert feasibility(res.X) <= 1e-8


def test_stops_on_the_residual_and_agrees_with_the_splitting():
    problem = sparse_pca(C, L1(0.01))
    res = soc(problem, identity_init(N, R))
    assert res.stop_reason == "tol" and res.iterations < 2000
    assert res.info["residual"] < 1e-4
    assert res.info["split_residual"] < 1e-3  # P and Q nearly agree at the end


def test_nonneg_surrogate_decreases():
    problem = nonneg_pca(C)
    X0 = identity_init(N, R)  # feasible for X >= 0: surrogate = f
    res = soc(problem, X0, tol=1e-8)
    assert res.info["surrogate"] < nonneg_surrogate(problem, X0)
    assert res.info["negative_part"] < 1e-6


def test_declines_and_bad_input():
    X0 = identity_init(N, R)

    class NotQuadratic:
        h = L1(1.0)

        def F(self, X):
            return 0.0

        def grad(self, X):
            return 0.0 * X

    with pytest.raises(UnsupportedProblemError, match="QuadraticProblem"):
        soc(NotQuadratic(), X0)
    with pytest.raises(TypeError, match="soc: the problem does not follow .*got problem = None"):
        soc(None, X0)
    with pytest.raises(ValueError, match="rho"):
        soc(sparse_pca(C, L1(0.1)), X0, rho=0.0)
    with pytest.raises(ValueError, match="strongly convex"):
        soc(sparse_pca(C, L1(0.1)), X0, rho=1e-3, lam=1e-3)  # C_ours = -2C is indefinite
    with pytest.raises(ValueError, match="pass rho"):
        soc(QuadraticProblem(np.zeros((N, N)), h=L1(0.1)), X0)
    with pytest.raises(ValueError, match="time_limit"):
        soc(sparse_pca(C, L1(0.1)), X0, time_limit=0)
    with pytest.raises(ValueError, match="Stiefel"):
        soc(sparse_pca(C, L1(0.1)), 2 * X0)


def test_callback_and_time_limit_stop():
    problem = procrustes(random_stiefel(N, R, rng=3), L1(0.1))
    res = soc(problem, identity_init(N, R), callback=lambda step: step.iteration == 4, tol=0.0)
    assert res.stop_reason == "callback" and res.iterations == 4
    res = soc(problem, identity_init(N, R), time_limit=1e-9, tol=0.0)
    assert res.stop_reason == "time_limit" and res.iterations == 0  # the setup used the budget: no step
