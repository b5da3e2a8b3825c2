"""Critical points and BS_2-points over O(2) (Remark 2.6, Appendix C.1, Definitions 3.4 and 3.6).

The reference used here is independent of obcd_lite.teaching.critical_points: F is evaluated entrywise
on a dense grid of each circle and discrete local extrema are read off; criticality is tested in
the ambient form of Definition 3.4 with subgradients sampled from the l1 box; BS_2 is tested by
brute-force minimization of K(V; X, B) = F(V X) + alpha/2 ||V - I||^2 over a dense grid of O(2).
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import lsq_linear

from obcd_lite.teaching.critical_points import (bs2_points_2x2, critical_points_2x2, criticality_residual,
                                                global_minimum_2x2, landscape_2x2, majorizer_gap)
from obcd_lite.teaching.exercises import has_critical_count, reflection_is_nearest
from obcd_lite.penalties import L1, Zero
from obcd_lite.problems import procrustes

A = np.array([[1.0, 0.0], [-1.0, -1.0]])
B = np.array([[1.0, 0.0], [1.0, 2.0]])
GRID = 2**16  # divisible by 4, so the kinks j pi / 2 are grid points
SPACING = 2 * np.pi / GRID


def dense_circle(branch: str, n: int = GRID):
    """(thetas, matrices of shape (n, 2, 2)) written out entry by entry from Lemma 2.5."""
    t = np.arange(n) * 2 * np.pi / n
    c, s = np.cos(t), np.sin(t)
    if branch == "rot":
        V = np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], 1)
    else:
        V = np.stack([np.stack([-c, s], -1), np.stack([s, c], -1)], 1)
    return t, V


def dense_F(V, T, mu):
    return np.sum((V - T) ** 2, axis=(-2, -1)) + mu * np.sum(np.abs(V), axis=(-2, -1))


def dense_extrema(T, mu):
    """Discrete local minima / maxima of F on each circle: [(branch, theta, kind, value)]."""
    found = []
    for branch in ("rot", "ref"):
        t, V = dense_circle(branch)
        f = dense_F(V, T, mu)
        prev, nxt = np.roll(f, 1), np.roll(f, -1)
        for i in np.flatnonzero((f < prev) & (f <= nxt)):
            found.append((branch, t[i], "min", f[i]))
        for i in np.flatnonzero((f > prev) & (f >= nxt)):
            found.append((branch, t[i], "max", f[i]))
    return found


def circular_distance(a, b):
    d = abs(a - b) % (2 * np.pi)
    return min(d, 2 * np.pi - d)


def assert_matches_dense(T, mu):
    points = [pt for pt in critical_points_2x2(T, mu) if pt.kind in ("min", "max")]
    dense = dense_extrema(T, mu)
    assert len(points) == len(dense), (points, dense)
    for branch, theta, kind, value in dense:
        close = [pt for pt in points if pt.branch == branch and pt.kind == kind
                 and circular_distance(pt.theta, theta) <= 2 * SPACING]
        assert len(close) == 1, (branch, theta, kind)
        assert close[0].value == pytest.approx(value, abs=1e-6)


def ambient_residual(V, T, mu):
    """min over G in 2(V - T) + mu * S (S in the l1 subdifferential box) of ||G - V G^T V||_F.

    G - V G^T V is affine in the free box entries s (those where V_ij = 0), so this is a
    bound-constrained linear least-squares problem, solved exactly by scipy's lsq_linear.
    """
    zero = (np.abs(V) <= 1e-12).ravel()
    fixed = np.where(zero, 0.0, np.sign(V).ravel())

    def residual(S):
        G = 2 * (V - T) + mu * S.reshape(2, 2)
        return (G - V @ G.T @ V).ravel()

    r0 = residual(fixed)
    if mu == 0 or not zero.any():
        return float(np.linalg.norm(r0))
    columns = []
    for idx in np.flatnonzero(zero):
        unit = np.zeros(4)
        unit[idx] = 1.0
        columns.append(residual(fixed + unit) - r0)
    fit = lsq_linear(np.column_stack(columns), -r0, bounds=(-1.0, 1.0))
    return float(np.linalg.norm(r0 + np.column_stack(columns) @ fit.x))


# --- the paper's two examples ------------------------------------------------------------

def test_first_example_has_four_smooth_critical_points():
    points = critical_points_2x2(A)
    assert [(pt.branch, pt.kind, pt.smooth) for pt in points] == [
        ("rot", "min", True), ("rot", "max", True), ("ref", "max", True), ("ref", "min", True)]
    rot_min, ref_min = points[0], points[3]
    assert rot_min.theta == pytest.approx(np.pi / 2) and rot_min.value == pytest.approx(3.0)
    assert ref_min.value == pytest.approx(5 - 2 * np.sqrt(5))  # 5 + 4 cos + 2 sin, minimized


def test_second_example_has_sixteen_critical_points_not_eight():
    """The paper says 8: those are the 8 kinks (all local minima); the 8 smooth maxima are critical too."""
    points = critical_points_2x2(B, 5.0)
    assert len(points) == 16
    kinks = [pt for pt in points if not pt.smooth]
    smooth = [pt for pt in points if pt.smooth]
    assert len(kinks) == 8 and all(pt.kind == "min" for pt in kinks)
    assert np.allclose(sorted({round(pt.theta / (np.pi / 2)) for pt in kinks}), [0, 1, 2, 3])
    assert len(smooth) == 8 and all(pt.kind == "max" for pt in smooth)
    # The decisive check: each smooth maximum satisfies Definition 3.4 exactly.
    for pt in smooth:
        assert ambient_residual(pt.V, B, 5.0) < 1e-9


@pytest.mark.parametrize("T, mu", [(A, 0.0), (B, 5.0)])
def test_paper_examples_agree_with_dense_search(T, mu):
    assert_matches_dense(T, mu)


@pytest.mark.parametrize("T, mu", [(A, 0.0), (B, 5.0)])
def test_every_record_is_critical_and_nothing_else_is(T, mu):
    points = critical_points_2x2(T, mu)
    for pt in points:
        assert ambient_residual(pt.V, T, mu) < 1e-9
        assert criticality_residual(pt.V, T, mu) < 1e-9
    for branch in ("rot", "ref"):
        t, V = dense_circle(branch, 720)
        for theta, Vi in zip(t, V):
            if all(circular_distance(theta, pt.theta) > 1e-3 for pt in points if pt.branch == branch):
                assert ambient_residual(Vi, T, mu) > 1e-4
                assert criticality_residual(Vi, T, mu) == pytest.approx(ambient_residual(Vi, T, mu), abs=1e-12)


@pytest.mark.parametrize("T, mu, branch, value", [(A, 0.0, "ref", 5 - 2 * np.sqrt(5)), (B, 5.0, "rot", 12.0)])
def test_unique_bs2_point_is_the_dense_global_minimum(T, mu, branch, value):
    bs2 = bs2_points_2x2(T, mu)
    assert len(bs2) == 1
    assert bs2[0].branch == branch and bs2[0].value == pytest.approx(value)
    dense_min = min(dense_F(dense_circle(b)[1], T, mu).min() for b in ("rot", "ref"))
    assert bs2[0].value <= dense_min + 1e-12
    assert global_minimum_2x2(T, mu).value == bs2[0].value


def test_second_example_global_minimum_is_a_rotation():
    """Remark 2.6 says reflections give the lower value; for F_2 the rotation I wins (12 < 16)."""
    land = landscape_2x2(B, 5.0, np.arange(GRID) * SPACING)
    assert land["rot"].min() == pytest.approx(12.0) and land["ref"].min() == pytest.approx(16.0)


@pytest.mark.parametrize("T, mu", [(A, 0.0), (B, 5.0)])
def test_bs2_definition_by_brute_force(T, mu):
    """K(V; X, B) - K(I; X, B) = F(V X) - F(X) + alpha/2 ||V - I||^2 (exact Q = 2 I_4), minimized densely."""
    alpha = 1e-5
    problem = procrustes(T, L1(mu) if mu else Zero())
    grids = [dense_circle(b, 4096)[1] for b in ("rot", "ref")]
    bs2 = {(pt.branch, pt.theta) for pt in bs2_points_2x2(T, mu, alpha)}
    for pt in critical_points_2x2(T, mu):
        X = pt.V
        # Grid over Y = V X (which holds the kinks exactly); V = Y X^T, ||V - I|| = ||Y - X||.
        drop = min(np.min(dense_F(Ys, T, mu) - pt.value + alpha / 2 * np.sum((Ys - X) ** 2, axis=(1, 2)))
                   for Ys in grids)
        gap = majorizer_gap(problem, X, alpha)
        assert gap >= -1e-10
        assert -drop == pytest.approx(gap, abs=1e-5)  # grid resolution
        assert ((pt.branch, pt.theta) in bs2) == (drop > -1e-9)


def test_bs2_points_are_critical_on_a_grid_theorem_3_8a():
    """Scan X over both circles: I_2 minimizes K only where X is critical (here: the global min)."""
    alpha = 1e-5
    problem = procrustes(B, L1(5.0))
    for branch in ("rot", "ref"):
        for X in dense_circle(branch, 360)[1]:
            if majorizer_gap(problem, X, alpha) <= 1e-10:
                assert criticality_residual(X, B, 5.0) < 1e-9


# --- generic targets -------------------------------------------------------------------------

quarter = st.integers(-12, 12).map(lambda i: i / 4)


@settings(deadline=None)
@given(entries=st.lists(quarter, min_size=4, max_size=4), mu=st.integers(0, 8).map(lambda i: i / 2))
def test_random_targets_agree_with_dense_search(entries, mu):
    T = np.reshape(entries, (2, 2))
    points = critical_points_2x2(T, mu)
    # Degenerate cases (flat arcs, non-extremal critical points, extrema closer than the
    # dense grid can separate) are covered by the dedicated tests below.
    assume(all(pt.kind in ("min", "max") for pt in points))
    for branch in ("rot", "ref"):
        thetas = sorted(pt.theta for pt in points if pt.branch == branch)
        gaps = np.diff(thetas + [thetas[0] + 2 * np.pi]) if thetas else []
        assume(len(thetas) == 0 or min(gaps) > 1e-2)
    assert_matches_dense(T, mu)
    for pt in points:
        assert ambient_residual(pt.V, T, mu) < 1e-8
        assert 0.0 <= pt.theta < 2 * np.pi


def test_flat_arc_reported_as_one_record():
    # rot: p = T11 + T22 = 1 = mu, q = T12 - T21 = 1 = mu, so F is constant on (0, pi/2);
    # ref: p = T22 - T11 = -1, q = T12 + T21 = 1, so F is constant on (pi/2, pi).
    T = np.array([[1.0, 1.0], [0.0, 0.0]])
    flat = [pt for pt in critical_points_2x2(T, 1.0) if pt.kind == "flat"]
    assert [(pt.branch, pt.arc) for pt in flat] == [("rot", (0.0, np.pi / 2)), ("ref", (np.pi / 2, np.pi))]
    for pt in flat:
        t, V = dense_circle(pt.branch, 4096)
        inside = (t > pt.arc[0]) & (t < pt.arc[1])
        assert np.ptp(dense_F(V[inside], T, 1.0)) < 1e-12
        assert np.ptp(dense_F(V[~inside], T, 1.0)) > 0.1


def test_zero_target_without_penalty_is_flat_everywhere():
    points = critical_points_2x2(np.zeros((2, 2)))
    assert [(pt.branch, pt.kind) for pt in points] == [("rot", "flat"), ("ref", "flat")]


def test_reflection_exercise_verifier():
    assert reflection_is_nearest(A) is True  # det A = -1
    assert reflection_is_nearest(np.eye(2)) is False  # the rotation V = I reaches 0
    assert reflection_is_nearest(np.diag([2.0, -3.0])) is True  # any det T < 0, not only the instructor's


@pytest.mark.parametrize("bad, error", [(np.eye(3), ValueError), ([[1, 2], [3, np.nan]], ValueError),
                                        ("ab", TypeError), ([1, 2, 3, 4], ValueError)])
def test_bad_target_rejected(bad, error):
    with pytest.raises(error, match="T"):
        critical_points_2x2(bad)


def test_bad_weights_rejected():
    with pytest.raises(ValueError, match="mu"):
        critical_points_2x2(A, -1.0)
    with pytest.raises(ValueError, match="alpha"):
        bs2_points_2x2(A, 0.0, alpha=0.0)


@pytest.mark.parametrize("V", [np.zeros((2, 2)), 0.5 * np.eye(2), np.array([[1.0, 0.0], [0.0, 0.5]])],
                         ids=["zero", "half-identity", "diag(1, 0.5)"])
def test_criticality_residual_rejects_a_V_off_O2(V):
    """Off O(2) the closed form means nothing (V = 0 used to come out 'critical', residual 0.0)."""
    residual = np.linalg.norm(V.T @ V - np.eye(2))
    with pytest.raises(ValueError, match="V is not on the Stiefel manifold: .*" + re.escape(f"{residual:.3e}")):
        criticality_residual(V, B, 5.0)


def test_criticality_residual_rejects_a_scaled_critical_point():
    pt = global_minimum_2x2(A)  # a smooth critical point (mu = 0)
    assert criticality_residual(pt.V, A) < 1e-9
    assert criticality_residual(pt.V + 1e-10, A) < 1e-8  # rounding-level noise is still accepted
    with pytest.raises(ValueError, match="V is not on the Stiefel manifold"):
        criticality_residual(1.001 * pt.V, A)


def test_critical_count_exercise_verifier():
    """Exercise 3: between mu = 1 and mu = 3 the second example has 12 critical points; never 8."""
    assert has_critical_count(B, 2.0, 12)
    assert not has_critical_count(B, 5.0, 8)
    assert len(critical_points_2x2(B, 5.0)) == 16
    counts = {len(critical_points_2x2(B, mu)) for mu in np.linspace(0.0, 10.0, 401)}
    assert 8 not in counts and {4, 12, 16} <= counts


@pytest.mark.parametrize("T, mu", [(B, 5.0), (B, 2.0), (np.array([[0.3, -1.2], [0.8, 0.1]]), 0.7)])
def test_kink_derivatives_are_the_one_sided_derivatives(T, mu):
    """The interval of Definition 3.4 along the circle equals [F'(theta-), F'(theta+)] (notebook 01)."""
    from obcd_lite.stiefel import branch_matrix
    from obcd_lite.teaching.critical_points import kink_derivatives

    def F(branch, theta):
        V = branch_matrix(branch, theta)
        return np.sum((V - T) ** 2) + mu * np.sum(np.abs(V))

    step = 1e-7
    for branch in ("rot", "ref"):
        for theta in (0.0, np.pi / 2, np.pi, 3 * np.pi / 2, 0.4, 2.0):
            left, right = kink_derivatives(branch_matrix(branch, theta), T, mu)
            value = F(branch, theta)
            assert left == pytest.approx((value - F(branch, theta - step)) / step, abs=1e-5)
            assert right == pytest.approx((F(branch, theta + step) - value) / step, abs=1e-5)
            assert left <= right + 1e-12
