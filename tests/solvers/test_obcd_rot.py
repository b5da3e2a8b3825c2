"""obcd_rot: OBCD on the rotation circle, Frerix & Bruna's exact Givens search generalised."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.penalties import L1
from obcd_lite.problems import QuadraticProblem, procrustes, randn_covariance, sparse_pca
from obcd_lite.solvers import SOLVERS, obcd, obcd_rot
from obcd_lite.stiefel import feasibility, identity_init, random_stiefel, rot


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_equals_obcd_with_branches_rot(penalty_problem, engine):
    problem = penalty_problem(randn_covariance(20, 9, rng=0))
    X0 = identity_init(9, 3)
    a = obcd_rot(problem, X0, max_iter=400, rng=3, engine=engine, log_every=50)
    b = obcd(problem, X0, max_iter=400, rng=3, engine=engine, log_every=50, branches="rot")
    assert np.array_equal(a.X, b.X) and a.F == b.F
    assert a.solver == "obcd_rot" and b.solver == "obcd"
    assert all(np.array_equal(a.history[key], b.history[key]) for key in ("iteration", "F", "nnz"))


def test_monotone_decrease_feasibility_honest_F(penalty_problem):
    problem = penalty_problem(randn_covariance(20, 9, rng=1))
    X0 = identity_init(9, 3)
    gaps = []
    res = obcd_rot(problem, X0, max_iter=300, rng=2, callback=lambda s: gaps.append(s.F_before - s.F))
    assert min(gaps) >= -1e-12 and len(gaps) == 300
    assert feasibility(res.X) < 1e-12
    assert res.F == problem.F(res.X)
    assert res.F == pytest.approx(res.history["F"][-1], abs=1e-10)


def test_never_leaves_SO_n_X0_while_obcd_reaches_the_optimum():
    """Procrustes with a determinant mismatch: obcd_rot stops at the SO(n) floor, OBCD at the optimum."""
    n = 6
    rng = np.random.default_rng(4)
    T = rng.standard_normal((n, n))
    U, sigma, Vt = np.linalg.svd(T)
    problem = procrustes(T)
    X0 = random_stiefel(n, n, 5)
    if np.linalg.det(U @ Vt) * np.linalg.det(X0) > 0:
        X0[:, 0] *= -1
    dets = []
    res = obcd_rot(problem, X0, max_iter=3000, rng=6,
                   callback=lambda s: dets.append(np.linalg.det(s.X @ X0.T)))
    assert np.allclose(dets, 1.0, atol=1e-10)
    # ||X - T||^2 = n - 2 <X, T> + ||T||^2; best on SO(n) X0: <X, T> = sum(sigma) - 2 sigma_min
    floor = n - 2 * (np.sum(sigma) - 2 * sigma[-1]) + np.sum(T * T)
    optimum = n - 2 * np.sum(sigma) + np.sum(T * T)
    assert res.F >= floor - 1e-9
    assert res.F == pytest.approx(floor, abs=1e-8)
    # OBCD's reflections leave SO(n) X0 (with k = 2 from some seeds it also stops at the floor point,
    # which is then a BS_2 point; k = 3 reaches the optimum from every seed tried)
    for k, seed in ((2, 0), (3, 6)):
        both = obcd(problem, X0, max_iter=3000, rng=seed, k=k)
        assert both.F == pytest.approx(optimum, abs=1e-6)
        assert np.linalg.det(both.X @ X0.T) == pytest.approx(-1.0)


def l1_rotation_candidates(Z: np.ndarray) -> np.ndarray:
    """Frerix & Bruna's candidates for a 2 x r block: the angles that rotate one column onto an axis
    (every pi/2 from the column's angle; both orientations, so the set does not depend on the
    sign convention of rot)."""
    phi = np.arctan2(Z[1], Z[0])
    quarter = np.pi / 2 * np.arange(4)[None, :]
    return np.concatenate([(quarter - phi[:, None]).ravel(), (phi[:, None] - quarter).ravel()])


@pytest.mark.parametrize("seed", range(5))
def test_one_step_is_the_exact_l1_givens_search(seed):
    """f = 0, h = l1: one obcd_rot step on the pair (0, 1) lands on the best of Frerix & Bruna's
    candidate angles, the global minimum of the l1 norm over the rotations of the two rows (the
    proximal term moves it by at most 4 alpha)."""
    X0 = random_stiefel(6, 4, seed)
    problem = QuadraticProblem(np.zeros((6, 6)), h=L1(1.0))
    Z, rest = X0[:2], np.abs(X0[2:]).sum()
    best = min(np.abs(rot(t) @ Z).sum() for t in l1_rotation_candidates(Z)) + rest
    alpha = 1e-8
    res = obcd_rot(problem, X0, max_iter=1, working_set="cyclic", alpha=alpha)
    assert np.array_equal(res.X[2:], X0[2:])
    assert best - 1e-12 <= res.F <= best + 4 * alpha
    assert res.F < problem.F(X0) - 1e-3 or problem.F(X0) <= best + 4 * alpha


def test_bad_input_and_registry():
    problem = sparse_pca(randn_covariance(10, 5, rng=7))
    X0 = identity_init(5, 2)
    with pytest.raises(ValueError, match="branches = 'both'"):
        obcd_rot(problem, X0, branches="both")
    with pytest.raises(ValueError, match="k = 3"):
        obcd_rot(problem, X0, k=3)
    with pytest.raises(ValueError, match="alpha = -1"):
        obcd_rot(problem, X0, alpha=-1)
    with pytest.raises(ValueError, match="X0 is not on the Stiefel"):
        obcd_rot(problem, np.ones((5, 2)))
    assert SOLVERS["obcd_rot"] is obcd_rot
    a, b, c = (obcd_rot(problem, X0, max_iter=50, rng=seed) for seed in (1, 1, 2))
    assert np.array_equal(a.X, b.X) and not np.array_equal(a.X, c.X)
