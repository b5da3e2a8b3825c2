"""The optimality hierarchy, checked numerically (Theorem 3.8): global ⊆ BS_3 ⊆ BS_2 ⊆ critical,
with the reverse inclusions failing on concrete points."""
import numpy as np
import pytest

from obcd_lite import (L1, block_gaps, identity_init, is_block_stationary, obcd, random_stiefel,
                       riemannian_gradient_norm, sparse_pca)


def spectrum(n=7, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((2 * n, n))
    C = A.T @ A / n
    w, U = np.linalg.eigh(C)
    return C, w[::-1], U[:, ::-1]


def test_global_minimizer_is_bs2_and_bs3():
    C, _, U = spectrum()
    problem = sparse_pca(C)
    X = U[:, :2]  # top eigenvectors: the global minimizer of -tr(X^T C X)
    assert riemannian_gradient_norm(problem, X) < 1e-10
    assert is_block_stationary(problem, X, 2)
    assert is_block_stationary(problem, X, 2, Q="scalar")
    assert is_block_stationary(problem, X, 3, Q="scalar")


def test_a_critical_point_that_is_not_bs2():
    """Eigenvectors of the 2nd and 3rd eigenvalues: critical (Riemannian gradient 0) but some
    2-row block can still descend, so critical ⊋ BS_2 (Theorem 3.8(d))."""
    C, _, U = spectrum()
    problem = sparse_pca(C)
    X = U[:, 1:3]
    assert riemannian_gradient_norm(problem, X) < 1e-10
    gaps = block_gaps(problem, X, 2)
    assert max(gaps.values()) > 1e-3
    assert not is_block_stationary(problem, X, 2)


def test_gaps_are_nonnegative_and_positive_away_from_stationarity():
    C, _, _ = spectrum(6, seed=1)
    problem = sparse_pca(C, L1(0.05))
    X = random_stiefel(6, 2, rng=3)
    gaps = block_gaps(problem, X, 2)
    assert len(gaps) == 15
    assert min(gaps.values()) >= -1e-12
    assert max(gaps.values()) > 1e-3
    assert not is_block_stationary(problem, X)


def test_obcd_limit_is_bs2():
    """OBCD's fixed points are BS_2 points: after cyclic sweeps that no longer move X, every gap is 0."""
    C, _, _ = spectrum(6, seed=2)
    problem = sparse_pca(C, L1(0.05))
    assert not is_block_stationary(problem, identity_init(6, 2), 2, tol=1e-8)  # the start is not
    res = obcd(problem, identity_init(6, 2), working_set="cyclic", max_iter=15 * 400, rng=0)
    assert is_block_stationary(problem, res.X, 2, tol=1e-8)


@pytest.mark.parametrize("kwargs, match", [
    (dict(k=3), r"k = 3 > 2 needs h = Zero\(\) and Q = 'scalar'"),
    (dict(k=1), "k must be an integer with 2 <= k <= n = 5, got k = 1"),
    (dict(Q="diag"), "Q must be 'exact' or 'scalar', got 'diag'"),
    (dict(alpha=0.0), "alpha must be finite and > 0"),
])
def test_bad_input(kwargs, match):
    C, _, _ = spectrum(5)
    with pytest.raises(ValueError, match=match):
        block_gaps(sparse_pca(C, L1(0.1)), identity_init(5, 2), **kwargs)


def test_riemannian_gradient_needs_smooth_problem():
    C, _, _ = spectrum(5)
    with pytest.raises(ValueError, match="riemannian_gradient_norm is for h = Zero"):
        riemannian_gradient_norm(sparse_pca(C, L1(0.1)), identity_init(5, 2))
