"""The Cayley method (Wen & Yin 2013, Appendix C.1), Lemma A.3, and OBCD on the 2x2 examples."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from obcd_lite.solvers.cayley import cayley_matrix, cayley_method, cayley_step, cayley_symbolic
from obcd_lite.teaching.exercises import is_cayley_rotation
from obcd_lite.teaching.critical_points import global_minimum_2x2
from obcd_lite.solvers.obcd import obcd
from obcd_lite.penalties import L0, L1
from obcd_lite.problems import QuadraticProblem, procrustes
from obcd_lite.stiefel import angle_of, random_stiefel, ref, rot

A = np.array([[1.0, 0.0], [-1.0, -1.0]])
B = np.array([[1.0, 0.0], [1.0, 2.0]])
F1 = procrustes(A)
F2 = procrustes(B, L1(5.0))
START_ANGLES = np.linspace(0.0, 2 * np.pi, 24, endpoint=False)
# Cayley starts off the grid of multiples of pi/12: a start exactly at a critical point
# (e.g. F_1's rotation maximum at 3 pi / 2) is a fixed point of any gradient method.
CAYLEY_STARTS = START_ANGLES + 0.05


def dense_global_min(T, mu):
    """min of F over 2^16 points of each circle; rot / ref broadcast to shape (2, 2, n)."""
    t = np.linspace(0, 2 * np.pi, 2**16, endpoint=False)
    return min(float(np.min(np.sum((M(t) - T[:, :, None]) ** 2 + mu * np.abs(M(t)), axis=(0, 1))))
               for M in (rot, ref))


def test_lemma_a3_cayley_det_symbolically():
    """Lemma A.3: the Cayley transform of a 2 x 2 skew matrix has det +1 (a rotation, never a reflection)."""
    a, tau, Q = cayley_symbolic()
    assert sp.simplify(Q.det()) == 1
    assert sp.simplify(Q.T * Q - sp.eye(2)) == sp.zeros(2, 2)
    b = tau * a / 2  # the paper's closed form 1/(1+b^2) [[1-b^2, -2b], [2b, 1-b^2]]
    paper = sp.Matrix([[1 - b**2, -2 * b], [2 * b, 1 - b**2]]) / (1 + b**2)
    assert sp.simplify(Q - paper) == sp.zeros(2, 2)


def test_cayley_exercise_verifier():
    a, tau = sp.symbols("a tau", real=True)
    skew = sp.Matrix([[0, a], [-a, 0]])
    assert is_cayley_rotation((sp.eye(2) + tau / 2 * skew).inv() * (sp.eye(2) - tau / 2 * skew))
    assert not is_cayley_rotation(sp.Matrix([[0, 1], [1, 0]]))  # a reflection, det = -1
    assert not is_cayley_rotation(np.eye(2))  # not a sympy Matrix: a wrong answer, not a crash


@settings(deadline=None)
@given(n=st.integers(2, 7), tau=st.floats(-50, 50), seed=st.integers(0, 2**32 - 1))
def test_cayley_of_skew_is_special_orthogonal(n, tau, seed):
    M = np.random.default_rng(seed).standard_normal((n, n))
    Q = cayley_matrix(M - M.T, tau)
    assert np.allclose(Q.T @ Q, np.eye(n), atol=1e-9)
    assert np.linalg.det(Q) == pytest.approx(1.0, abs=1e-9)


@settings(deadline=None)
@given(n=st.integers(5, 12), r=st.integers(1, 2), tau=st.floats(0.01, 5), seed=st.integers(0, 2**32 - 1))
def test_low_rank_step_equals_full_step(n, r, tau, seed):
    """The low-rank (Sherman-Morrison-Woodbury) form used for n > 2r equals Q(tau) X."""
    rng = np.random.default_rng(seed)
    X, G = random_stiefel(n, r, rng), rng.standard_normal((n, r))
    full = cayley_matrix(G @ X.T - X @ G.T, tau) @ X
    assert np.allclose(cayley_step(X, G, tau), full, atol=1e-9)


@pytest.mark.parametrize("theta", CAYLEY_STARTS)
def test_cayley_from_rotation_stays_on_rotations_and_misses_f1_minimum(theta):
    res = cayley_method(F1, rot(theta), keep_path=True)
    dets = res.history["det_Q"][1:]
    assert res.iterations > 0 and np.allclose(dets, 1.0, atol=1e-12)
    assert all(np.linalg.det(X) == pytest.approx(1.0, abs=1e-12) for X in res.info["path"])
    assert np.max(res.history["feasibility"]) < 1e-12
    assert np.all(np.diff(res.history["F"]) <= 1e-12)  # Armijo: monotone
    assert res.stop_reason == "tol"
    assert res.F == pytest.approx(3.0, abs=1e-9)  # the best rotation, theta = pi/2
    assert res.F > global_minimum_2x2(A).value + 2.0


@pytest.mark.parametrize("theta", CAYLEY_STARTS)
def test_cayley_from_reflection_stays_on_reflections_and_misses_f2_minimum(theta):
    res = cayley_method(F2, ref(theta), keep_path=True)
    assert all(np.linalg.det(X) == pytest.approx(-1.0, abs=1e-12) for X in res.info["path"])
    assert np.allclose(res.history["det_Q"][1:], 1.0, atol=1e-12)
    assert res.F >= 16.0 - 1e-6  # every reflection has F >= 16; the global minimum is 12
    assert global_minimum_2x2(B, 5.0).value == pytest.approx(12.0)


@pytest.mark.parametrize("T, problem, mu", [(A, F1, 0.0), (B, F2, 5.0)])
@pytest.mark.parametrize("start", ["rot", "ref"])
def test_obcd_reaches_the_global_minimum_from_every_start(T, problem, mu, start):
    best = dense_global_min(T, mu)
    for theta in START_ANGLES:
        X0 = rot(theta) if start == "rot" else ref(theta)
        res = obcd(problem, X0, k=2, working_set="cyclic", max_iter=5)
        assert res.F == pytest.approx(best, abs=1e-6), (start, theta)
        assert np.allclose(res.X.T @ res.X, np.eye(2), atol=1e-12)


@pytest.mark.parametrize("branch", ["rot", "ref"])
def test_obcd_restricted_to_one_branch_behaves_like_cayley(branch):
    """With branches='rot' (Givens only) OBCD from a rotation cannot reach F_1's reflection minimum."""
    res = obcd(F1, rot(0.3) if branch == "rot" else ref(0.3), k=2, working_set="cyclic", max_iter=5,
               branches="rot")
    expected = 3.0 if branch == "rot" else global_minimum_2x2(A).value
    assert res.F == pytest.approx(expected, abs=1e-6)
    assert angle_of(res.X)[0] == branch


def test_cayley_on_a_larger_stiefel_problem():
    """St(8, 3), f = 1/2 tr(X^T C X): descends monotonically to a stationary point on the manifold."""
    rng = np.random.default_rng(0)
    M = rng.standard_normal((8, 8))
    problem = QuadraticProblem(M + M.T)
    res = cayley_method(problem, random_stiefel(8, 3, rng), max_iter=2000, tol=1e-7)
    assert res.stop_reason == "tol"
    assert np.all(np.diff(res.history["F"]) <= 1e-10)
    assert np.max(res.history["feasibility"]) < 1e-10
    # At a stationary point of tr(X^T C X)/2 the columns span an invariant subspace of C.
    X = res.X
    assert np.linalg.norm((M + M.T) @ X - X @ (X.T @ (M + M.T) @ X)) < 1e-6


def _subgradient_violation(h, G, X, Y) -> float:
    """max(0, h(X) + <G, Y - X> - h(Y)) up to rounding: > 0 means G is not a subgradient of h at X."""
    gap = h(X) + float(np.sum(G * (Y - X))) - h(Y)
    scale = 1e-12 * (1.0 + h(X) + h(Y) + float(np.sum(np.abs(G) * (np.abs(Y) + np.abs(X)))))
    return max(0.0, gap - scale)


def _probe_points(X, rng, n_random=20):
    """Random Y near and far from X, and X +- a step along each coordinate (which finds |G_ij| > lam at
    a zero X_ij and a wrong G_ij at a nonzero one)."""
    probes = [X + rng.standard_normal(X.shape) * scale for scale in (1e-3, 1.0, 10.0) for _ in range(n_random)]
    for idx in np.ndindex(X.shape):
        for step in (1e-3, -1e-3, 5.0, -5.0):
            Y = X.copy()
            Y[idx] += step
            probes.append(Y)
    return probes + [np.zeros_like(X), -X]


@settings(deadline=None)
@given(lam=st.floats(0.0, 10.0), shape=st.tuples(st.integers(1, 5), st.integers(1, 4)),
       zero_fraction=st.sampled_from([0.0, 0.3, 1.0]), seed=st.integers(0, 2**32 - 1))
def test_l1_subgradient_is_a_subgradient(lam, shape, zero_fraction, seed):
    """h(Y) >= h(X) + <G, Y - X> for G = L1(lam).subgradient(X), every probe Y, X with exact zeros."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal(shape) * rng.choice([1e-8, 1.0, 1e3])
    X[rng.random(shape) < zero_fraction] = 0.0
    h, G = L1(lam), L1(lam).subgradient(X)
    assert G.shape == X.shape
    for Y in _probe_points(X, rng):
        assert _subgradient_violation(h, G, X, Y) == 0.0


def test_subgradient_check_catches_wrong_subgradients():
    """The check above is not vacuous: it rejects |G_ij| > lam at a zero entry and a wrong sign elsewhere."""
    rng = np.random.default_rng(0)
    X = np.array([[0.5, 0.0], [-2.0, 1.0]])
    h, G = L1(3.0), L1(3.0).subgradient(X)
    assert np.array_equal(G, [[3.0, 0.0], [-3.0, 3.0]])
    too_big_at_zero = G + np.array([[0.0, 3.5], [0.0, 0.0]])
    wrong_sign = G * np.array([[1.0, 1.0], [1.0, -1.0]])
    for wrong in (too_big_at_zero, wrong_sign):
        assert max(_subgradient_violation(h, wrong, X, Y) for Y in _probe_points(X, rng)) > 0.1


def test_cayley_bad_input():
    with pytest.raises(ValueError, match="X0"):
        cayley_method(F1, np.ones((2, 2)))
    with pytest.raises(ValueError, match="shrink"):
        cayley_method(F1, np.eye(2), shrink=1.5)
    with pytest.raises(ValueError, match="tau0"):
        cayley_method(F1, np.eye(2), tau0=-1.0)
    with pytest.raises(NotImplementedError, match=r"L0\(lam=1\).*subgradient_h"):
        cayley_method(procrustes(A, L0(1.0)), np.eye(2))
    with pytest.raises(ValueError, match="W"):
        cayley_matrix(np.ones((2, 3)), 1.0)
