"""PSM (our reconstruction of Yuan's smoothing proximal gradient method on St(n, r))."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.penalties import L0, L1, CappedL1, NonNeg, Zero
from obcd_lite.problems import nonneg_pca, randn_covariance, sparse_pca
from obcd_lite.solvers.infeasible import nonneg_surrogate
from obcd_lite.solvers.psm import psm
from obcd_lite.stiefel import feasibility, identity_init, random_stiefel

N, R = 12, 3
C = randn_covariance(20, N, rng=0)


def psm_transcribed(problem, X0, iterations, theta=1e-3):
    """The update of the module docstring written out: X <- P_St(X - [grad f + (X - Y)/mu]/H),
    H = 1/mu + L_f + theta; Y <- prox_{mu h}(X); mu halved every 10 iterations from 1/L_f."""
    Lf = np.max(np.abs(np.linalg.eigvalsh(problem.C)))
    mu = 1.0 / Lf
    X = X0.copy()
    Y = problem.h.prox(X, mu)
    for t in range(1, iterations + 1):
        W = X - (problem.grad(X) + (X - Y) / mu) / (1.0 / mu + Lf + theta)
        U, _, Vt = np.linalg.svd(W, full_matrices=False)
        X = U @ Vt
        Y = problem.h.prox(X, mu)
        if t % 10 == 0:
            mu /= 2
    return X, Y, mu


@pytest.mark.parametrize("h", [L1(0.05), L0(0.002), NonNeg()], ids=repr)
def test_follows_the_stated_update(h):
    problem = nonneg_pca(C) if isinstance(h, NonNeg) else sparse_pca(C, h)
    X0 = random_stiefel(N, R, rng=1)
    X, Y, mu = psm_transcribed(problem, X0, 25)
    res = psm(problem, X0, max_iter=25, tol=0.0, theta=1e-3)  # the ICML theta (default 1e-3 L_f, issue 34)
    assert np.allclose(res.X, X, atol=1e-10) and np.allclose(res.info["raw"], Y, atol=1e-10)
    assert res.info["mu"] == pytest.approx(mu)
    # the history's mu column: halved every 10 iterations
    mus = dict(zip(res.history["iteration"], res.history["mu"]))
    assert mus[10] == pytest.approx(mus[20] * 2) and mus[20] == pytest.approx(mu * 2)


@pytest.mark.parametrize("h", [Zero(), L1(0.01), L0(0.001), CappedL1(0.01, 0.1)], ids=repr)
def test_decreases_F(h):
    problem = sparse_pca(C, h)
    X0 = random_stiefel(N, R, rng=2)
    res = psm(problem, X0, max_iter=300)
    assert res.F < problem.F(X0)
    assert feasibility(res.X) <= 1e-8


def test_nonneg_surrogate_decreases():
    problem = nonneg_pca(C)
    X0 = identity_init(N, R)
    res = psm(problem, X0)
    assert res.info["surrogate"] < nonneg_surrogate(problem, X0)
    assert res.info["negative_part"] < 1e-5


def test_stopping_rule_of_the_icml_paper():
    """Stop when the mean of the last min(t, window) relative changes is <= tol."""
    problem = sparse_pca(C, L1(0.01))
    res = psm(problem, random_stiefel(N, R, rng=3))
    assert res.stop_reason == "tol" and res.iterations < 1000
    F = res.history["F"]  # log_every = 10: changes over the last logged stretch are small
    assert abs(F[-1] - F[-2]) / (1 + abs(F[-2])) < 1e-3
    assert psm(problem, random_stiefel(N, R, rng=3), tol=10.0).iterations == 1  # mean of one change


def test_bad_input_and_stops():
    X0 = identity_init(N, R)
    problem = sparse_pca(C, L1(0.01))
    with pytest.raises(ValueError, match="mu0"):
        psm(problem, X0, mu0=0.0)
    with pytest.raises(ValueError, match="shrink"):
        psm(problem, X0, shrink=1.5)
    with pytest.raises(ValueError, match="window"):
        psm(problem, X0, window=0)
    res = psm(problem, X0, tol=0.0, callback=lambda step: step.iteration == 5)
    assert res.stop_reason == "callback" and res.iterations == 5
    res = psm(problem, X0, tol=0.0, time_limit=1e-9)
    assert res.stop_reason == "time_limit" and res.iterations == 0  # the setup used the budget: no step
