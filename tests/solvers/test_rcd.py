"""RCD (Han, Jawanpuria, Mishra 2024): the reference loop, rotations only, decrease, declines, honest F."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.problems import QuadraticProblem, procrustes, sparse_pca
from obcd_lite.solvers import SOLVERS, rcd
from obcd_lite.solvers.rcd import all_pairs, angle_lipschitz
from obcd_lite.stiefel import feasibility, random_stiefel
from obcd_lite.validation import UnsupportedProblemError


def covariance(m: int, n: int, seed: int) -> np.ndarray:
    A = np.random.default_rng(seed).standard_normal((m, n))
    return A.T @ A / m


def rcd_procrustes(n: int, r: int, seed: int):
    """test_procrustes.m's problem: f = -tr(X^T B A^T) / p (a linear f), A (p x p), B (n x p)."""
    rng = np.random.default_rng(seed)
    A, B = rng.standard_normal((r, r)), rng.standard_normal((n, r))
    return QuadraticProblem(np.zeros((n, n)), L=-(B @ A.T) / r), B @ A.T / r


def reference_loop(problem, X, sweeps, stepsize, linearization):
    """A line-by-line transcription of coordinate_descent_orthogonal.m (update_type 'cyclic',
    numupdates = nn): the pair lists idx1/idx2, egrad once per sweep or the rows of the current
    gradient (egradrowi), UXtij = gradi * X(j,:)', eta = -stepsize*(UXtij - UXtji), the two rows
    rotated; cost(X) after each sweep."""
    X = X.copy()
    n = X.shape[0]
    idx1 = [ii for ii in range(n) for jj in range(ii + 1, n)]
    idx2 = [jj for ii in range(n) for jj in range(ii + 1, n)]
    costs = []
    for _ in range(sweeps):
        if linearization:
            egrad = problem.grad(X)
        for k in range(len(idx1)):
            i, j = idx1[k], idx2[k]
            if linearization:
                gradi, gradj = egrad[i, :], egrad[j, :]
            else:
                gradi, gradj = problem.grad(X)[i, :], problem.grad(X)[j, :]
            UXtij = gradi @ X[j, :]
            UXtji = gradj @ X[i, :]
            eta = -stepsize * (UXtij - UXtji)
            Xtempi = X[i, :] * np.cos(eta) + X[j, :] * np.sin(eta)
            Xtempj = -X[i, :] * np.sin(eta) + X[j, :] * np.cos(eta)
            X[i, :] = Xtempi
            X[j, :] = Xtempj
        costs.append(problem.F(X))
    return X, np.array(costs)


@pytest.mark.parametrize("linearization", [True, False])
@pytest.mark.parametrize("kind", ["procrustes", "pca"])
def test_rcd_is_the_reference_loop(linearization, kind):
    if kind == "procrustes":
        problem, _ = rcd_procrustes(6, 3, 0)
        stepsize = 1.1
    else:
        problem, stepsize = sparse_pca(covariance(20, 6, 1)), 0.3
    X0 = random_stiefel(6, 3, 2)
    X_ref, costs = reference_loop(problem, X0, 4, stepsize, linearization)
    res = rcd(problem, X0, max_iter=4 * 15, stepsize=stepsize, linearization=linearization)
    assert res.iterations == 60 and res.info["sweeps"] == 4
    assert np.allclose(res.X, X_ref, atol=1e-12)
    assert np.array_equal(res.history["iteration"], np.arange(5) * 15)  # one row per sweep, as the code
    assert np.allclose(res.history["F"][1:], costs, atol=1e-12)
    assert not np.allclose(X_ref, X0)  # the comparison is not vacuous


def test_one_update_per_sweep_linearized_equals_fresh_gradient():
    """numupdates = 1 refreshes the linearized gradient before every update: the fresh-gradient run."""
    problem = sparse_pca(covariance(30, 8, 3))
    X0 = random_stiefel(8, 2, 4)
    a = rcd(problem, X0, max_iter=200, stepsize=0.2, numupdates=1, update_type="replace", rng=5)
    b = rcd(problem, X0, max_iter=200, stepsize=0.2, numupdates=1, update_type="replace", rng=5,
            linearization=False)
    assert np.allclose(a.X, b.X, atol=1e-12)
    assert a.F == pytest.approx(b.F, abs=1e-12)


@pytest.mark.parametrize("update_type", ["cyclic", "replace", "noreplace"])
def test_fresh_gradient_with_step_one_over_L_decreases_every_update(update_type):
    problem = procrustes(np.random.default_rng(6).standard_normal((7, 3)))
    steps = []
    res = rcd(problem, random_stiefel(7, 3, 7), max_iter=300, stepsize="lipschitz", linearization=False, update_type=update_type, rng=8,
              callback=lambda s: steps.append((s.F_before, s.F, s.B.copy(), s.V.copy(), s.info["eta"])))
    before, after = np.array([s[0] for s in steps]), np.array([s[1] for s in steps])
    assert np.all(after <= before + 1e-12)
    assert after[-1] < before[0] - 1e-2
    for _, _, B, V, eta in steps[:5]:  # the callback sees the pair and its rotation
        assert B[0] < B[1] and np.linalg.det(V) == pytest.approx(1.0) and V[0, 1] == pytest.approx(np.sin(eta))
    assert res.F == problem.F(res.X)
    c, lin = np.linalg.norm(problem.C, 2), np.linalg.norm(problem.L)
    assert angle_lipschitz(problem, 3) == pytest.approx(np.sqrt(2) * (c * np.sqrt(3) + lin) + 2 * c)


@pytest.mark.parametrize("seed", range(3))
def test_angle_lipschitz_bounds_the_second_derivative(seed):
    """|phi''(eta)| <= L_eta for phi(eta) = f(R(eta) X), by finite differences over pairs and angles."""
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((6, 6))
    problem = QuadraticProblem(M + M.T, D=np.diag(rng.random(3) + 0.5), L=rng.standard_normal((6, 3)))
    X = random_stiefel(6, 3, seed)
    bound, h = angle_lipschitz(problem, 3), 1e-4

    def phi(i, j, eta):
        Y = X.copy()
        Y[[i, j]] = np.array([[np.cos(eta), np.sin(eta)], [-np.sin(eta), np.cos(eta)]]) @ X[[i, j]]
        return problem.f(Y)

    second = [abs(phi(i, j, e + h) - 2 * phi(i, j, e) + phi(i, j, e - h)) / h**2
              for i, j in all_pairs(6) for e in np.linspace(0, 2 * np.pi, 13)]
    assert max(second) <= bound
    assert max(second) >= bound / 20  # a bound, not a vacuous one


def test_square_problem_never_leaves_SO_n_X0_and_stops_at_the_floor():
    """det mismatch: RCD's limit is the best point of SO(n) X0, sum(sigma) - 2 sigma_min below 0."""
    n = 8
    problem, M = rcd_procrustes(n, n, 9)
    X0 = random_stiefel(n, n, 10)
    U, sigma, Vt = np.linalg.svd(M)
    if np.linalg.det(U @ Vt) * np.linalg.det(X0) > 0:  # make the start the other determinant
        X0[:, 0] *= -1
    res = rcd(problem, X0, max_iter=20_000, stepsize=0.5)  # 1.1 oscillates at this scale
    floor = -(np.sum(sigma) - 2 * sigma[-1])
    assert np.linalg.det(res.X @ X0.T) == pytest.approx(1.0, abs=1e-10)
    assert res.F >= floor - 1e-10
    assert res.F == pytest.approx(floor, abs=1e-6)
    assert res.F > -np.sum(sigma) + sigma[-1]  # short of the optimum over O(n) by 2 sigma_min


def test_feasibility_and_honest_F():
    problem = sparse_pca(covariance(40, 12, 11))
    X0 = random_stiefel(12, 4, 12)
    res = rcd(problem, X0, max_iter=20_000, stepsize=0.2, update_type="replace", rng=0, log_every=1000)
    assert feasibility(res.X) < 1e-12
    assert np.all(res.history["feasibility"] < 1e-12)
    assert res.F == problem.F(res.X)
    assert res.history["F"][-1] == pytest.approx(res.F, abs=1e-12)
    assert res.F < problem.F(X0)
    assert len(res.history["F"]) == 21 and res.stop_reason == "max_iter"


def test_determinism_with_rng():
    problem = sparse_pca(covariance(30, 9, 13))
    X0 = random_stiefel(9, 3, 14)
    runs = [rcd(problem, X0, max_iter=500, stepsize=0.3, update_type=t, rng=seed)
            for t in ("replace", "noreplace") for seed in (1, 1, 2)]
    for a, b, c in (runs[:3], runs[3:]):
        assert np.array_equal(a.X, b.X)
        assert not np.allclose(a.X, c.X)


def test_declines_nonsmooth_penalties_before_any_work(nonsmooth_problem):
    calls = []
    with pytest.raises(UnsupportedProblemError, match=r"rcd handles smooth f only.*h = "):
        rcd(nonsmooth_problem, np.eye(4, 2), callback=calls.append)
    assert not calls


def test_bad_input_names_the_value():
    problem = sparse_pca(np.eye(4))
    X0 = np.eye(4, 2)
    with pytest.raises(ValueError, match="stepsize = -1"):
        rcd(problem, X0, stepsize=-1)
    with pytest.raises(ValueError, match="stepsize = 'auto'"):
        rcd(problem, X0, stepsize="auto")
    with pytest.raises(ValueError, match="update_type.*'random'"):
        rcd(problem, X0, update_type="random")
    with pytest.raises(ValueError, match="numupdates = 0"):
        rcd(problem, X0, numupdates=0)
    with pytest.raises(TypeError, match="linearization.*'yes'"):
        rcd(problem, X0, linearization="yes")
    with pytest.raises(ValueError, match="X0 is not on the Stiefel"):
        rcd(problem, np.ones((4, 2)))
    with pytest.raises(ValueError, match="n >= 2"):
        rcd(QuadraticProblem(np.eye(1)), np.eye(1))
    with pytest.raises(ValueError, match="max_iter.*-3"):
        rcd(problem, X0, max_iter=-3)


def test_time_limit_and_registry():
    problem = sparse_pca(covariance(30, 40, 15))
    res = rcd(problem, random_stiefel(40, 5, 16), max_iter=10**9, time_limit=0.05, stepsize=0.2)
    assert res.stop_reason == "time_limit" and res.iterations > 0  # the clock's reads: test_budgets.py
    assert SOLVERS["rcd"] is rcd
    assert len(all_pairs(5)) == 10 and all_pairs(5)[3].tolist() == [0, 4]
