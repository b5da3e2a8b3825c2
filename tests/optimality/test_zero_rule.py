"""One rule for "is this entry zero" (rounding.zero_mask) across the optimality layer (issue 17, item 4).

The points of notebook 01 are built from floating angles (rot(pi/2) has cos = 6e-17), so an exact-zero
test would call a kink smooth and its subdifferential a single point.
"""
import numpy as np
import pytest

from obcd_lite import L1, block_report, classify, is_critical, procrustes, randn_covariance, ref, rot, sparse_pca
from obcd_lite.optimality import riemannian_residual
from obcd_lite.teaching.critical_points import critical_points_2x2, criticality_residual
from obcd_lite.teaching.hierarchy import bs2_not_critical_witness, eigen_critical_points
from obcd_lite.teaching.hierarchy_descent import scalar_q_search

A = np.array([[1.0, 0.0], [-1.0, -1.0]])  # the paper's F1 (mu = 0)
B = np.array([[1.0, 0.0], [1.0, 2.0]])    # the paper's F2 (mu = 5)
EXAMPLES = [(A, 0.0), (B, 5.0), (B, 2.0), (B, 1.0), (B, 3.0)]  # notebook 01's examples and exercise


def _problem(T, mu):
    return procrustes(T, L1(mu)) if mu else procrustes(T)


@pytest.mark.parametrize("T, mu", EXAMPLES, ids=["F1", "F2", "F2 mu=2", "F2 mu=1", "F2 mu=3"])
def test_every_point_of_notebook_01_rebuilt_from_its_angle_is_critical(T, mu):
    problem = _problem(T, mu)
    points = critical_points_2x2(T, mu)
    assert points and any(not pt.smooth for pt in points) == (mu > 0)
    for pt in points:
        V = rot(pt.theta) if pt.branch == "rot" else ref(pt.theta)
        assert is_critical(problem, V), (pt.branch, pt.theta, riemannian_residual(problem, V))
        assert criticality_residual(V, T, mu) < 1e-12  # notebook 01's closed form, same rule


@pytest.mark.parametrize("V", [rot(np.pi / 2), rot(np.pi), rot(3 * np.pi / 2), ref(np.pi / 2), ref(np.pi)],
                         ids=["rot(pi/2)", "rot(pi)", "rot(3pi/2)", "ref(pi/2)", "ref(pi)"])
def test_kinks_of_f2_at_floating_angles(V):
    """The issue's example: cos(pi/2) = 6e-17 is a zero of h, so dh there is [-lam, lam] and the kink
    is critical; judged on exact zeros only (zero_tol=0) it is not (residual of order lam)."""
    problem = procrustes(B, L1(5.0))
    assert np.any((V != 0) & (np.abs(V) < 1e-15))  # the point really carries a rounding-level entry
    assert is_critical(problem, V)
    assert riemannian_residual(problem, V) < 1e-12
    assert not is_critical(problem, V, zero_tol=0)
    assert riemannian_residual(problem, V, zero_tol=0) > 1.0
    assert criticality_residual(V, B, 5.0, zero_tol=0) > 1.0


def test_a_genuine_small_nonzero_is_not_a_zero():
    """1e-6 off a kink is a smooth point of h: its subdifferential is one point, and F2 is not stationary there."""
    problem = procrustes(B, L1(5.0))
    for V in (rot(np.pi / 2 + 1e-6), rot(1e-6), ref(np.pi - 1e-6)):
        assert np.min(np.abs(V)) > 5e-7
        assert not is_critical(problem, V)
        assert riemannian_residual(problem, V) > 1.0
        assert criticality_residual(V, B, 5.0) > 1.0
        assert not classify(problem, V, global_search=False).critical


def test_hierarchy_witnesses_keep_their_verdicts():
    """Notebook 05's witnesses under the package's zero rule (the default)."""
    for penalty in ("l1", "l0"):  # Theorem 3.8(a) fails: BS_2 but not critical
        w = bs2_not_critical_witness(penalty)
        c = classify(w.problem, w.X, global_search=False)
        assert c.bs[2] and not c.critical and not c.nested
        assert max(w.brute.values()) < 1e-12 and w.residual > 0.1
    problem, X = scalar_q_search(60, rng=0)["witness"]  # Theorem 3.8(c) fails with the scalar Q
    c = classify(problem, X, Q="scalar", ks=(2, 3, 4), global_search=False)
    assert c.critical and not c.bs[2] and c.bs[3] and c.bs[4]
    C5 = randn_covariance(10, 5, rng=0)  # a saddle of smooth PCA passing every scalar-Q block test
    c = classify(sparse_pca(C5), eigen_critical_points(C5, 2)[4][1], ks=range(2, 6), global_search=False)
    assert c.critical and all(c.bs.values()) and list(c.bs) == [2, 3, 4, 5]


def test_worst_block_ties_go_to_the_first_block():
    """At a BS_k point every gap is rounding (~1e-16): the reported block is the first one, on every CPU."""
    C = randn_covariance(8, 4, rng=0)
    top = eigen_critical_points(C, 1)[0][1]  # the global minimizer of smooth PCA (r = 1)
    for k, Q in ((2, "exact"), (3, "scalar"), (4, "scalar")):
        report = block_report(sparse_pca(C), top, k, Q=Q)
        assert report.stationary and report.largest_gap < 1e-12
        assert report.worst_block == tuple(range(k))
    problem, X = scalar_q_search(60, rng=0)["witness"]
    summary = classify(problem, X, Q="scalar", ks=(2, 3, 4), global_search=False).summary()
    assert "largest gap < 1e-12 at B = (0, 1, 2);" in summary and "-0.0" not in summary
