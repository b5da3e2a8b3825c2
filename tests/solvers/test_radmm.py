"""RADMM (Li, Ma, Srivastava 2024) against a transcription of radmm_spca.m, and its behaviour."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.penalties import L0, L1, CappedL1, Zero
from obcd_lite.problems import QuadraticProblem, nonneg_pca, randn_covariance, sparse_pca
from obcd_lite.solvers.infeasible import nonneg_surrogate
from obcd_lite.solvers.radmm import radmm
from obcd_lite.stiefel import feasibility, identity_init, random_stiefel

N, R = 12, 3
C = randn_covariance(20, N, rng=0)


def radmm_spca_transcribed(H, mu, X0, iterations, rho=1e2, gamma=1e-6, eta=1e-2):
    """JasonJiaxiangLi/RADMM:sPCA/SPCA_manpg_orig/radmm_spca.m (type 1: B = H), with proj.m and
    sPCA/retr.m (polar factor through the eigendecomposition of the Gram matrix), in numpy."""
    A = -H

    def proj(X, Y):
        return Y - X @ (X.T @ Y + Y.T @ X) / 2

    def retr(X, Y):
        M = X + Y
        w, V = np.linalg.eigh(M.T @ M)
        return M @ (V @ np.diag(np.sqrt(1.0 / w)) @ V.T)

    def soft(x, t):
        tmp = np.abs(x) - t
        return np.sign(x) * (tmp + np.abs(tmp)) / 2

    X = X0.copy()
    Z = X.copy()
    Lam = np.zeros_like(X)
    for _ in range(iterations):
        gx = A @ X + Lam + rho * (X - Z)
        X = retr(X, -eta * proj(X, gx))
        Y = soft(X + Lam / rho, mu * (1 + rho * gamma) / rho)
        Z = (Y / gamma + Lam + rho * X) / (1 / gamma + rho)
        Lam = Lam + rho * (X - Z)
    return X, Y, Z


@pytest.mark.parametrize("iterations", [1, 3, 40])
def test_matches_the_reference_code_and_its_scaling(iterations):
    """The code minimises -1/2 tr(X^T H X) + mu ||X||_1: sparse_pca(C, L1(lam)) = -tr(X^T C X) +
    lam ||X||_1 is that problem with H = 2C, mu = lam; the code's own problem is QuadraticProblem(-H)."""
    lam = 0.05
    X0 = random_stiefel(N, R, rng=1)
    X, Y, Z = radmm_spca_transcribed(2 * C, lam, X0, iterations)
    for problem in (sparse_pca(C, L1(lam)), QuadraticProblem(-2 * C, h=L1(lam))):
        # The code's absolute rho, eta, gamma (the defaults are relative to L_f since issue 34)
        res = radmm(problem, X0, max_iter=iterations, tol=0.0, rho=100.0, eta=1e-2, gamma=1e-6)
        assert np.allclose(res.X, X, atol=1e-9)
        assert np.allclose(res.info["raw"], Y, atol=1e-9)
        assert np.allclose(res.info["Z"], Z, atol=1e-9)


@pytest.mark.parametrize("h", [Zero(), L1(0.01), L0(0.001), CappedL1(0.01, 0.1)], ids=repr)
def test_decreases_F(h):
    problem = sparse_pca(C, h)
    X0 = random_stiefel(N, R, rng=2)
    res = radmm(problem, X0, max_iter=300)
    assert res.F < problem.F(X0)
    assert feasibility(res.X) <= 1e-8


def test_nonneg_surrogate_decreases():
    problem = nonneg_pca(C)
    X0 = identity_init(N, R)
    res = radmm(problem, X0, max_iter=500)
    assert res.info["surrogate"] < nonneg_surrogate(problem, X0)
    assert np.all(res.info["raw"] >= 0)


def test_stops_when_the_residual_is_small_and_F_settles():
    problem = sparse_pca(C, L1(0.2))
    X0 = random_stiefel(N, R, rng=1)
    res = radmm(problem, X0, max_iter=20_000)
    assert res.stop_reason == "tol" and res.iterations < 5000
    assert res.info["residual"] < 1e-4 and res.F < problem.F(X0)


def test_bad_input_and_stops():
    X0 = identity_init(N, R)
    problem = sparse_pca(C, L1(0.01))
    for name in ("rho", "eta", "gamma"):
        with pytest.raises(ValueError, match=name):
            radmm(problem, X0, **{name: -1.0})
    with pytest.raises(ValueError, match="max_iter"):
        radmm(problem, X0, max_iter=-1)
    res = radmm(problem, X0, callback=lambda step: step.iteration == 3)
    assert res.stop_reason == "callback" and res.iterations == 3
    res = radmm(problem, X0, time_limit=1e-9)
    assert res.stop_reason == "time_limit" and res.iterations == 0  # the setup used the budget: no step
