"""Adjusted explained variance, sparsity, and what the paper's tables measure (scaling, lam)."""
import numpy as np
import pytest

from obcd_lite import L0, L1, obcd, random_stiefel, sparse_pca
from obcd_lite.data import load_dataset
from obcd_lite.experiments import (PAPER_OBCD_RANDN, adjusted_explained_variance, convert_lam, coordinate_point,
                                   coordinate_threshold, coordinate_value, lam_for_code, matching_scale, sparsity,
                                   support_recovery)


def _small_C(seed=0, m=12, n=6):
    A = np.random.default_rng(seed).standard_normal((m, n))
    A /= np.linalg.norm(A)
    return A, A.T @ A


def test_adjusted_variance_of_eigenvectors_is_their_eigenvalue_share():
    A, C = _small_C()
    w, U = np.linalg.eigh(C)
    X = U[:, ::-1][:, :3]
    assert adjusted_explained_variance(X, A=A) == pytest.approx(w[::-1][:3].sum())
    assert adjusted_explained_variance(X, C=C) == pytest.approx(w[::-1][:3].sum())


def test_adjusted_variance_removes_shared_variance():
    # Two identical loadings explain the variance of one (R_22 = 0), though tr(X^T C X) counts it twice.
    A, C = _small_C(1)
    x = np.linalg.eigh(C)[1][:, -1]
    X = np.column_stack([x, x])
    assert adjusted_explained_variance(X, A=A) == pytest.approx(x @ C @ x)
    np.testing.assert_allclose(adjusted_explained_variance(X, C=C, cumulative=True), [x @ C @ x] * 2, atol=1e-12)


def test_adjusted_variance_normalises_columns_and_drops_zero_ones():
    A, C = _small_C(2)
    X = random_stiefel(6, 2, rng=0)
    scaled = np.column_stack([3.0 * X[:, 0], np.zeros(6), 0.5 * X[:, 1]])
    assert adjusted_explained_variance(scaled, A=A) == pytest.approx(adjusted_explained_variance(X, A=A))
    with pytest.raises(ValueError, match="exactly one of A"):
        adjusted_explained_variance(X)


def test_sparsity_counts_with_the_tolerance():
    X = np.array([[1.0, 1e-7], [0.0, -2e-6]])
    assert sparsity(X) == {"nnz": 2, "density": 0.5, "zero_fraction": 0.5}
    assert sparsity(X, tol=0.0)["nnz"] == 3
    assert support_recovery(np.array([[1.0], [0.0], [1.0]]), [np.array([0, 1])]) == pytest.approx(0.5)


@pytest.mark.parametrize("key", sorted(PAPER_OBCD_RANDN))
def test_table_entries_fit_l0_with_tr_and_l1_with_half_tr(key):
    """Recompute the randn-500-1000 OBCD-R entries: lam r - scale * (sum of the 20 largest C_ii)."""
    C = _paper_randn().C
    penalty, lam = key
    fit = matching_scale(PAPER_OBCD_RANDN[key], C, 20, lam)
    assert fit["scale"] == (1.0 if penalty == "l0" else 0.5)
    assert fit["errors"][fit["scale"]] < 2e-3 < fit["errors"][1.5 - fit["scale"]]


def _paper_randn(cache={}):
    if "ds" not in cache:
        cache["ds"] = load_dataset("randn", rng=0)
    return cache["ds"]


@pytest.mark.parametrize("penalty", ["l0", "l1"])
def test_coordinate_point_is_optimal_above_the_threshold(penalty):
    """No OBCD run from 20 random starts beats the coordinate selection at lam >= the threshold;
    at lam = 0 the top eigenvectors do."""
    A, C = _small_C(3, m=8, n=5)
    lam = coordinate_threshold(C, 2, penalty, 1.0) * 1.01
    h = L0(lam) if penalty == "l0" else L1(lam)
    best = coordinate_value(C, 2, lam, 1.0)
    problem = sparse_pca(C, h)
    assert problem.F(coordinate_point(C, 2)) == pytest.approx(best)
    for seed in range(20):
        res = obcd(problem, random_stiefel(5, 2, rng=seed), max_iter=400, rng=seed)
        assert res.F >= best - 1e-12
    eig = np.linalg.eigh(C)[1][:, -2:]
    assert sparse_pca(C).F(eig) < sparse_pca(C).F(coordinate_point(C, 2)) - 1e-6


def test_convert_lam_keeps_minimisers():
    """F_to = (to / from) F_from for the converted lam, so both have the same minimisers."""
    _, C = _small_C(4)
    X = random_stiefel(6, 3, rng=1)
    lam = 0.2
    F_half = sparse_pca(C, L1(lam), scale=0.5).F(X)
    F_one = sparse_pca(C, L1(convert_lam(lam, 0.5, 1.0)), scale=1.0).F(X)
    assert F_one == pytest.approx(2.0 * F_half)
    assert lam_for_code(10.0, 0.5, "manpg") == 20.0 and lam_for_code(10.0, 0.5, "radmm") == 10.0
    assert lam_for_code(10.0, 1.0, "radmm") == 5.0


@pytest.mark.parametrize("call, match", [
    (lambda: convert_lam(1.0, 2.0, 1.0), "from_scale must be 1.0 or 0.5"),
    (lambda: convert_lam(-1.0, 1.0, 0.5), "lam must be finite and >= 0"),
    (lambda: lam_for_code(1.0, 1.0, "ladmm"), "unknown reference code 'ladmm'"),
    (lambda: sparse_pca(np.eye(3), scale=2.0), "scale must be 1.0"),
    (lambda: coordinate_point(np.eye(3), 4), "r must be an integer in 1..n = 3"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_coordinate_point_takes_rounding_ties_in_row_order():
    """C_ii equal to rounding (standardized data: 1/n each) tie; the rows go in row order on every CPU,
    a genuinely larger C_ii still comes first."""
    eps = np.finfo(float).eps
    C = np.diag([0.5, 1.0, 1.0 + 2 * eps, 1.0 - eps, 0.9, 1.1])
    X = coordinate_point(C, 4)
    assert [int(np.argmax(X[:, j])) for j in range(4)] == [5, 1, 2, 3]
    bc = load_dataset("breast_cancer").C  # diag = 1/30 to rounding
    assert [int(np.argmax(coordinate_point(bc, 3)[:, j])) for j in range(3)] == [0, 1, 2]
