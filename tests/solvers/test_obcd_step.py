"""obcd_step: OBCD's row blocks with one Cayley gradient step (the inexact block method)."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.problems import procrustes, randn_covariance, sparse_pca
from obcd_lite.solvers import SOLVERS, obcd, obcd_step
from obcd_lite.solvers.obcd_step import block_step
from obcd_lite.stiefel import feasibility, identity_init, random_stiefel
from obcd_lite.validation import UnsupportedProblemError

PROBLEMS = {"pca": lambda: sparse_pca(randn_covariance(30, 9, rng=0)),
            "procrustes": lambda: procrustes(np.random.default_rng(1).standard_normal((9, 3)))}


@pytest.mark.parametrize("name", sorted(PROBLEMS))
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("rule", ["random", "cyclic"])
def test_sufficient_decrease_every_step_by_rotations(name, k, rule):
    """F(X) - F(new) >= ||W||_F^2 / (8 L_B) (the module docstring's bound), det V = +1."""
    problem = PROBLEMS[name]()
    steps = []
    res = obcd_step(problem, random_stiefel(9, 3, 2), k=k, working_set=rule, max_iter=500, rng=3,
                    callback=lambda s: steps.append((s.F_before - s.F, s.info["bound"], np.linalg.det(s.V))))
    gaps, bounds, dets = (np.array(col) for col in zip(*steps))
    assert np.all(gaps >= bounds - 1e-12) and np.all(bounds >= 0) and np.sum(bounds) > 1e-3
    assert np.allclose(dets, 1.0, atol=1e-12)
    assert res.F == problem.F(res.X)
    assert res.F == pytest.approx(res.history["F"][-1], abs=1e-10)


def test_same_working_sets_as_obcd_and_reaches_the_pca_optimum():
    C = randn_covariance(40, 8, rng=4)
    problem = sparse_pca(C)
    X0 = random_stiefel(8, 2, 5)
    seen = {"step": [], "obcd": []}
    obcd_step(problem, X0, max_iter=200, rng=6, callback=lambda s: seen["step"].append(s.B.copy()))
    obcd(problem, X0, max_iter=200, rng=6, engine="python", callback=lambda s: seen["obcd"].append(s.B.copy()))
    assert np.array_equal(np.array(seen["step"]), np.array(seen["obcd"]))
    res = obcd_step(problem, X0, max_iter=20_000, rng=6, log_every=1000)
    best = -np.sort(np.linalg.eigvalsh(C))[-2:].sum()
    assert res.F == pytest.approx(best, abs=1e-6)
    assert np.all(np.diff(res.history["F"]) <= 1e-12)
    assert feasibility(res.X) < 1e-12


def test_square_problem_never_leaves_SO_n_X0():
    n = 5
    T = np.random.default_rng(7).standard_normal((n, n))
    U, sigma, Vt = np.linalg.svd(T)
    X0 = random_stiefel(n, n, 8)
    if np.linalg.det(U @ Vt) * np.linalg.det(X0) > 0:
        X0[:, 0] *= -1
    res = obcd_step(procrustes(T), X0, max_iter=5000, rng=9, k=3)
    assert np.linalg.det(res.X @ X0.T) == pytest.approx(1.0, abs=1e-10)
    floor = n - 2 * (np.sum(sigma) - 2 * sigma[-1]) + np.sum(T * T)
    assert res.F >= floor - 1e-9 and res.F == pytest.approx(floor, abs=1e-5)


def test_declines_nonsmooth_penalties_before_any_work(nonsmooth_problem):
    calls = []
    with pytest.raises(UnsupportedProblemError, match=r"obcd_step handles smooth f only.*no closed form"):
        obcd_step(nonsmooth_problem, np.eye(4, 2), callback=calls.append)
    assert not calls


def test_bad_input_determinism_registry():
    problem = sparse_pca(randn_covariance(10, 5, rng=10))
    X0 = identity_init(5, 2)
    for k in (1, 6, 2.0, True):
        with pytest.raises(ValueError, match=f"k = {k!r}"):
            obcd_step(problem, X0, k=k)
    with pytest.raises(ValueError, match="working_set.*'greedy'"):
        obcd_step(problem, X0, working_set="greedy")
    with pytest.raises(ValueError, match="X0 is not on the Stiefel"):
        obcd_step(problem, np.ones((5, 2)))
    with pytest.raises(ValueError, match="log_every.*0"):
        obcd_step(problem, X0, log_every=0)
    a, b, c = (obcd_step(problem, X0, max_iter=50, rng=seed) for seed in (1, 1, 2))
    assert np.array_equal(a.X, b.X) and not np.array_equal(a.X, c.X)
    assert SOLVERS["obcd_step"] is obcd_step and a.solver == "obcd_step"


def test_compiled_pair_step_is_the_numpy_cayley_step():
    """k = 2: the compiled closed form (pair_steps) gives the V of block_step (np.linalg.solve)."""
    problem = PROBLEMS["procrustes"]()
    X = random_stiefel(9, 3, 11)
    steps = []
    obcd_step(problem, X, max_iter=40, rng=12,
              callback=lambda s: steps.append((s.B.copy(), s.V.copy(), s.X.copy(), s.info["t"])))
    prev = X
    for B, V, X_after, t in steps:
        V_ref, t_ref, _ = block_step(problem, prev, problem.grad(prev), B)
        assert np.allclose(V, V_ref, atol=1e-13) and t == pytest.approx(t_ref, rel=1e-13)
        assert np.allclose(X_after[B], V_ref @ prev[B], atol=1e-13)
        prev = X_after
    chunked = obcd_step(problem, X, max_iter=40, rng=12, log_every=7)  # chunks end at the log rows
    assert np.allclose(chunked.X, prev, atol=1e-14)
