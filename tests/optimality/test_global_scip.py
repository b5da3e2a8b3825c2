"""The SCIP backend of global_minimum: it agrees with the angle branch and bound wherever both certify, its
lower bound is never above the best of many OBCD runs, its point is exactly feasible, the drift bound and
the zero-keeping repair hold, and what it cannot model is named."""
import numpy as np
import pytest

from obcd_lite import (L1, QuadraticProblem, global_minimum, obcd, procrustes, random_stiefel, randn_covariance,
                       sparse_pca)
from obcd_lite.optimality import global_scip
from obcd_lite.stiefel import random_start
from obcd_lite.teaching.instances import tiny_problem
from obcd_lite.validation import check_stiefel

PENALTIES = ("zero", "l1", "l0", "capped_l1", "nonneg")
SCIP_NODES = 5000  # a deterministic budget per SCIP run (no wall time): the instances below need <= 400 nodes


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("n, r, seed", [(3, 1, 1), (3, 2, 2), (3, 3, 3), (4, 1, 4)])
def test_agrees_with_the_angle_search_where_both_certify(penalty, n, r, seed):
    problem = tiny_problem(n, penalty, 0.1, seed)
    angles = global_minimum(problem, r=r, rng=0, backend="angles")
    scip = global_minimum(problem, r=r, rng=0, backend="scip", max_nodes=SCIP_NODES)
    assert angles.certified and scip.certified and scip.method.startswith("SCIP")
    # two certified intervals of the same minimum must overlap
    assert scip.lower_bound <= angles.value and angles.lower_bound <= scip.value
    assert abs(scip.value - angles.value) <= 1e-3


@pytest.mark.parametrize("penalty", PENALTIES)
@pytest.mark.parametrize("seed", [0, 1])
def test_never_above_the_best_of_many_obcd_runs(penalty, seed):
    n, r = 4, 2
    problem = tiny_problem(n, penalty, 0.1, seed)
    scip = global_minimum(problem, r=r, rng=0, backend="scip", max_nodes=SCIP_NODES)
    runs = [obcd(problem, random_start(n, r, s, problem.h), max_iter=400, rng=s).F for s in range(40)]
    assert scip.certified
    assert scip.lower_bound <= min(runs) + 1e-12
    assert scip.value <= min(runs) + 1e-3


@pytest.mark.parametrize("penalty", PENALTIES)
def test_the_point_is_exactly_feasible_and_its_value_is_f(penalty):
    problem = tiny_problem(4, penalty, 0.1, 2)
    g = global_minimum(problem, r=2, rng=0, backend="scip", max_nodes=SCIP_NODES)
    check_stiefel(g.X, "X", tol=1e-13)
    assert np.isfinite(problem.h(g.X)) and g.value == problem.F(g.X)
    assert g.lower_bound <= g.value and g.gap == g.value - g.lower_bound


def test_linear_term_procrustes_agrees_with_the_angle_search():
    T = np.random.default_rng(0).standard_normal((3, 2))
    problem = procrustes(T, L1(0.3))
    angles = global_minimum(problem, rng=0, backend="angles")
    scip = global_minimum(problem, rng=0, backend="scip", max_nodes=SCIP_NODES)
    assert angles.certified and scip.certified
    assert scip.lower_bound <= angles.value and angles.lower_bound <= scip.value


@pytest.mark.parametrize("penalty", ["zero", "l1", "capped_l1"])
def test_drift_bounds_the_change_from_a_relaxed_point_to_its_polar_factor(penalty):
    """F(polar(X)) - F(X) <= relaxation_drift(eps) for X with |X^T X - I| <= eps entrywise."""
    problem = tiny_problem(4, penalty, 0.5, 0)
    eps = 1e-3
    rng = np.random.default_rng(0)
    worst = -np.inf
    for _ in range(300):
        Q = random_stiefel(4, 2, rng=rng)
        X = Q @ np.diag(np.sqrt(1.0 + rng.uniform(-eps, eps, 2)))  # the Gram matrix off I by < eps
        assert np.max(np.abs(X.T @ X - np.eye(2))) <= eps
        worst = max(worst, problem.F(Q) - problem.F(X))
    assert 0.0 < worst <= global_scip.relaxation_drift(problem, 2, eps)


def test_repair_keeps_the_zeros_and_lands_on_the_manifold():
    """A sparse point of St(5, 3) seen through SCIP's tolerance (noise 1e-7 on its nonzeros, 1e-9 on its
    zeros) is repaired onto St(5, 3) with exactly its zeros, next to it; the polar factor keeps none."""
    rng = np.random.default_rng(3)
    Q = np.zeros((5, 3))
    Q[:3, :2] = random_stiefel(3, 2, rng=rng)
    Q[[0, 1, 2], 1] *= [0.0, 1.0, 1.0]  # a zero inside the dense block too
    Q[:3, :2] = np.linalg.qr(Q[:3, :2])[0] * np.where(Q[:3, :2] == 0.0, 0.0, 1.0)
    Q[:, 1] /= np.linalg.norm(Q[:, 1])
    Q[:, 0] -= Q[:, 1] * (Q[:, 1] @ Q[:, 0])
    Q[:, 0] /= np.linalg.norm(Q[:, 0])
    Q[3:, 2] = [0.6, -0.8]
    check_stiefel(Q, "Q", tol=1e-13)
    relaxed = np.where(Q == 0.0, 1e-9, Q + 1e-7 * rng.standard_normal(Q.shape))
    repaired = global_scip.feasible_from_relaxed(relaxed)
    check_stiefel(repaired, "repaired", tol=1e-13)
    assert np.array_equal(repaired == 0.0, Q == 0.0)
    assert np.max(np.abs(repaired - Q)) <= 1e-6
    assert not np.any(global_scip.polar(relaxed) == 0.0)


def test_symmetry_is_broken_only_where_f_has_it():
    C = randn_covariance(8, 3, rng=0)
    assert global_scip.has_symmetry(sparse_pca(C, L1(0.1))) == (True, True)
    assert global_scip.has_symmetry(tiny_problem(3, "nonneg", 0.1, 0)) == (True, False)
    assert global_scip.has_symmetry(procrustes(np.ones((3, 2)))) == (False, False)


def test_auto_falls_back_and_bad_input_is_named():
    problem = QuadraticProblem(randn_covariance(8, 3, rng=0), D=np.diag([1.0, 2.0]))
    assert "Givens" in global_minimum(problem, rng=0, backend="auto").method
    with pytest.raises(ValueError, match="D = I"):
        global_minimum(problem, rng=0, backend="scip")
    with pytest.raises(ValueError, match="backend must be"):
        global_minimum(problem, rng=0, backend="gurobi")
    with pytest.raises(ValueError, match="max_nodes must be a positive integer"):
        global_minimum(sparse_pca(np.eye(4)), r=2, max_nodes=0)
    with pytest.raises(ValueError, match="model must be"):
        global_scip.solve(sparse_pca(np.eye(3)), 1, model="dense")


def test_node_budget_reports_the_gap():
    problem = tiny_problem(5, "l1", 0.1, 0)
    g = global_minimum(problem, r=3, rng=0, backend="scip", max_nodes=5)
    assert not g.certified and g.gap > 1e-3 and g.lower_bound <= g.value


def test_auto_keeps_the_angle_search_up_to_three_angles():
    assert "Givens" in global_minimum(tiny_problem(3, "l1", 0.1, 0), r=2, rng=0).method
    assert "Givens" in global_minimum(tiny_problem(4, "l0", 0.1, 0), r=1, rng=0).method
    assert global_minimum(tiny_problem(4, "l1", 0.1, 0), r=2, rng=0).method.startswith("SCIP")
