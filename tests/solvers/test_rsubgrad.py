"""RSubGrad: the reference code's iteration, best-so-far bookkeeping, descent per penalty, declines."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.penalties import L0, L1, CappedL1, Zero
from obcd_lite.problems import nonneg_pca, sparse_pca
from obcd_lite.solvers import SOLVERS, rsubgrad
from obcd_lite.stiefel import feasibility, random_stiefel
from obcd_lite.validation import UnsupportedProblemError


def covariance(m: int, n: int, seed: int) -> np.ndarray:
    A = np.random.default_rng(seed).standard_normal((m, n))
    A -= A.mean(axis=0)
    A /= np.linalg.norm(A, axis=0)
    return A.T @ A


def reference_loop(C, mu, X, iterations):
    """A literal transcription of Re_sub_grad_spca.m (type = 1, covariance input):
    gx = 2*A*X - mu*sign(X); pgx = gx - 0.5*X*(X'gx + gx'X); X = X + i^(-3/4) pgx;
    polar through the SVD of X'X; i = 2, 3, ...; F = -sum(sum(X.*(A*X))) + mu*sum(sum(abs(X)))."""
    F = []
    for i in range(2, iterations + 2):
        gx = 2 * C @ X - mu * np.sign(X)
        xgx = X.T @ gx
        X = X + i ** -0.75 * (gx - 0.5 * X @ (xgx + xgx.T))
        U, sigma, St = np.linalg.svd(X.T @ X)
        X = X @ (U @ np.diag(1 / np.sqrt(sigma)) @ St)
        F.append(-np.sum(X * (C @ X)) + mu * np.abs(X).sum())
    return X, np.array(F)


def test_rsubgrad_is_the_reference_iteration():
    C = covariance(10, 30, 0)
    X0 = random_stiefel(30, 4, 1)
    # The code's absolute step 1 (the default is 1 / L_f since issue 34)
    res = rsubgrad(sparse_pca(C, L1(0.8)), X0, max_iter=20, step0=1.0)
    X_ref, F_ref = reference_loop(C, 0.8, X0, 20)
    assert np.allclose(res.info["X_last"], X_ref, atol=1e-10)
    assert np.allclose(res.history["F"][1:], F_ref, atol=1e-10)
    assert np.allclose(res.history["eta"][1:], np.arange(2, 22) ** -0.75)


@pytest.mark.parametrize("h", [Zero(), L1(0.2), CappedL1(0.3, 0.1)], ids=repr)
def test_rsubgrad_returns_the_best_point_and_decreases_F(h):
    problem = sparse_pca(covariance(10, 25, 2), h)
    X0 = random_stiefel(25, 3, 3)
    res = rsubgrad(problem, X0, max_iter=200, step0=0.1)
    F_best = res.history["F_best"]
    assert np.all(np.diff(F_best) <= 0)
    assert res.F == problem.F(res.X) == pytest.approx(np.min(res.history["F"]), abs=1e-12)
    assert res.F == pytest.approx(F_best[-1], abs=1e-12)
    assert res.F < problem.F(X0) - 1e-2
    assert feasibility(res.X) < 1e-8 and feasibility(res.info["X_last"]) < 1e-8
    assert res.info["F_last"] == pytest.approx(problem.F(res.info["X_last"]), abs=1e-12)


def test_rsubgrad_stops_at_F_target_and_logs_last_row():
    problem = sparse_pca(covariance(10, 25, 2), L1(0.2))
    X0 = random_stiefel(25, 3, 3)
    res = rsubgrad(problem, X0, max_iter=50, log_every=7, F_target=problem.F(X0) - 0.1, target_tol=0.0)
    assert res.stop_reason == "F_target" and res.iterations < 50
    assert res.history["iteration"][-1] == res.iterations
    assert res.history["F"][-1] < problem.F(X0) - 0.1


@pytest.mark.parametrize("problem, name", [(sparse_pca(covariance(5, 6, 0), L0(0.1)), r"L0\(lam=0.1\)"),
                                           (nonneg_pca(covariance(5, 6, 0)), r"NonNeg\(\)")])
def test_rsubgrad_declines(problem, name):
    with pytest.raises(UnsupportedProblemError, match=name):
        rsubgrad(problem, np.eye(6, 2))


def test_rsubgrad_bad_input_and_registry():
    problem = sparse_pca(covariance(5, 6, 0), L1(0.1))
    with pytest.raises(ValueError, match="step0"):
        rsubgrad(problem, np.eye(6, 2), step0=-1.0)
    with pytest.raises(ValueError, match="max_iter"):
        rsubgrad(problem, np.eye(6, 2), max_iter=-1)
    assert SOLVERS["rsubgrad"] is rsubgrad
