"""global_minimum: the angle parametrization covers St(n, r), the certified bounds hold against
closed forms and dense sampling, and bad input is named."""
import numpy as np
import pytest

from obcd_lite import (L0, L1, CappedL1, global_minimum, nonneg_pca, procrustes, random_stiefel, randn_covariance,
                       sparse_pca)
from obcd_lite.optimality import stiefel_angles, stiefel_from_angles
from obcd_lite.optimality.global_search import angle_box, _with_jacobian


@pytest.mark.parametrize("n, r", [(2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 2), (5, 2)])
def test_angles_round_trip_and_lie_in_the_box(n, r):
    for seed in range(3):
        X = random_stiefel(n, r, rng=seed)
        theta, sign = stiefel_angles(X)
        lo, hi = angle_box(n, r)
        assert theta.shape == (n * r - r * (r + 1) // 2,)
        assert np.all(theta >= lo - 1e-15) and np.all(theta <= hi + 1e-15)
        assert np.allclose(stiefel_from_angles(theta, n, r, sign), X, atol=1e-13)


def test_jacobian_matches_finite_differences():
    n, r = 4, 2
    theta = np.random.default_rng(0).uniform(-1, 1, (1, 5))
    X, J = _with_jacobian(theta, n, r, np.ones(1))
    for l in range(5):
        step = np.zeros_like(theta)
        step[0, l] = 1e-6
        fd = (stiefel_from_angles(theta + step, n, r) - stiefel_from_angles(theta - step, n, r)) / 2e-6
        assert np.allclose(J[l, 0], fd[0], atol=1e-8)


@pytest.mark.parametrize("n, r", [(3, 1), (3, 2), (4, 1)])
def test_smooth_pca_matches_the_eigenvalues(n, r):
    C = randn_covariance(8, n, rng=n + r)
    result = global_minimum(sparse_pca(C), r=r, backend="angles")
    exact = -np.sort(np.linalg.eigvalsh(C))[-r:].sum()
    assert result.certified and result.gap <= 1e-3
    assert result.lower_bound <= exact + 1e-12 <= result.value + 2e-12
    assert result.value == pytest.approx(exact, abs=1e-3)


@pytest.mark.parametrize("h", [L1(0.05), L0(0.02), CappedL1(0.1, 0.2)])
def test_nonsmooth_bound_holds_against_dense_sampling(h):
    C = randn_covariance(8, 3, rng=1)
    problem = sparse_pca(C, h)
    result = global_minimum(problem, r=1, tol=1e-3, backend="angles")
    assert result.certified
    # dense sampling of the sphere (plus every point with exact zeros in one or two coordinates)
    rng = np.random.default_rng(0)
    pts = rng.standard_normal((20000, 3))
    pts /= np.linalg.norm(pts, axis=1, keepdims=True)
    sparse = pts.copy()
    sparse[:, 0] = 0.0
    sparse /= np.linalg.norm(sparse, axis=1, keepdims=True)
    axes = np.vstack([np.eye(3), -np.eye(3)])
    values = [problem.F(p[:, None]) for p in np.vstack([pts, sparse, axes])]
    assert result.lower_bound <= min(values) + 1e-12
    assert result.value <= min(values) + 1e-3


def test_nonneg_pca_is_certified():
    C = randn_covariance(8, 3, rng=2)
    result = global_minimum(nonneg_pca(C), r=2, backend="angles")
    assert result.certified and np.all(result.X >= 0)
    assert np.allclose(result.X.T @ result.X, np.eye(2), atol=1e-12)


def test_budget_exhausted_reports_the_gap():
    C = randn_covariance(8, 4, rng=3)
    result = global_minimum(sparse_pca(C, L1(0.1)), r=2, max_boxes=2000, backend="angles")
    assert not result.certified and result.gap > 1e-3
    assert result.lower_bound <= result.value


def test_bad_input():
    with pytest.raises(ValueError, match="n = 6 > 5"):
        global_minimum(sparse_pca(np.eye(6)), r=2, backend="angles")
    with pytest.raises(ValueError, match="r is needed"):
        global_minimum(sparse_pca(np.eye(3)))
    with pytest.raises(ValueError, match="r must be an integer with 1 <= r <= n = 3"):
        global_minimum(sparse_pca(np.eye(3)), r=4)
    with pytest.raises(ValueError, match="r must be an integer"):
        global_minimum(procrustes(np.ones((3, 2))), r=1)  # the problem fixes r = 2
    with pytest.raises(ValueError, match="tol must be finite and > 0"):
        global_minimum(sparse_pca(np.eye(3)), r=1, tol=0.0)


def _sampled_min(problem, n, r, count, rng):
    """min F over random points of St(n, r) (both components for r = n) and their column sign flips."""
    rng = np.random.default_rng(rng)
    best = np.inf
    for _ in range(count):
        X = random_stiefel(n, r, rng=rng) * rng.choice([-1.0, 1.0], size=r)
        best = min(best, problem.F(X))
    return best


@pytest.mark.parametrize("h", [None, L1(0.1), L0(0.05)], ids=["zero", "l1", "l0"])
@pytest.mark.parametrize("n, r", [(3, 2), (3, 3)])
def test_sign_symmetric_search_is_sound_and_certified(h, n, r):
    """The search over half the diagonal angles (F(X diag(+-1)) = F(X)) still bounds every point."""
    from obcd_lite.optimality.global_search import sign_invariant

    problem = sparse_pca(randn_covariance(8, n, rng=5), h)
    assert sign_invariant(problem)
    result = global_minimum(problem, r=r, rng=0, backend="angles")
    sampled = _sampled_min(problem, n, r, 1000, rng=1)
    assert result.certified and result.lower_bound <= result.value
    assert result.lower_bound <= sampled + 1e-12  # sound: never above a point found
    assert result.value <= sampled + 1e-3
    if h is None:  # closed form: minus the sum of the r largest eigenvalues
        assert result.lower_bound <= -np.sort(np.linalg.eigvalsh(problem.C / -2))[-r:].sum() + 1e-12


def test_sign_invariance_needs_an_even_h_no_linear_term_and_a_diagonal_d():
    from obcd_lite import QuadraticProblem
    from obcd_lite.optimality.global_search import sign_invariant

    C = randn_covariance(8, 3, rng=0)
    assert sign_invariant(sparse_pca(C, L1(0.1))) and sign_invariant(QuadraticProblem(C, D=np.diag([1.0, 2.0])))
    assert not sign_invariant(nonneg_pca(C))  # X >= 0 is not even
    assert not sign_invariant(procrustes(np.ones((3, 2))))  # a linear term
    assert not sign_invariant(QuadraticProblem(C, D=np.array([[1.0, 0.5], [0.5, 1.0]])))


def test_time_limit_reports_the_gap():
    problem = sparse_pca(randn_covariance(8, 4, rng=3), L1(0.1))
    result = global_minimum(problem, r=2, time_limit=0.05, backend="angles")
    assert not result.certified and result.lower_bound <= result.value
    assert result.lower_bound <= _sampled_min(problem, 4, 2, 500, rng=2) + 1e-12
    with pytest.raises(ValueError, match="time_limit must be finite and > 0"):
        global_minimum(problem, r=2, time_limit=0.0)


@pytest.mark.parametrize("n, r, penalty", [(4, 1, "l1"), (3, 2, "nonneg"), (4, 2, "zero")])
def test_certifies_where_docs_global_search_md_says(n, r, penalty):
    """A few rows of the angle search's measured reach (docs/global_search.md), on the same instances."""
    from obcd_lite.teaching.instances import tiny_problem

    problem = tiny_problem(n, penalty, 0.1, 0)
    result = global_minimum(problem, r=r, rng=0, backend="angles")
    assert result.certified and result.lower_bound <= _sampled_min(problem, n, r, 300, rng=3) + 1e-12
