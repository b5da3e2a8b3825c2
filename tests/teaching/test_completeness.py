"""Tests of obcd_lite.teaching.completeness and .completeness_blocks: Theorem 3.1, Corollary 3.2, Lemma A.5 and Listing 1."""
from __future__ import annotations

import itertools
import re
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obcd_lite.teaching.completeness import (
    closest_with_det,
    compose,
    describe_factors,
    factor_count,
    factor_matrix,
    givens,
    givens_qr_rotations_only,
    jacobi_givens_qr,
    orthogonal_map,
    path_between,
    random_orthogonal,
    reflection_steps,
)
from obcd_lite.teaching.completeness_blocks import embed_factors
from obcd_lite.stiefel import identity_init, random_stiefel, ref, rot

ORDERS = ("paper", "distinct")


def permutation_matrix(perm) -> np.ndarray:
    return np.eye(len(perm))[list(perm)]


def check_factorization(D: np.ndarray, order: str) -> list:
    n = D.shape[0]
    factors = jacobi_givens_qr(D, order)
    assert len(factors) == comb(n, 2)
    for i, j, V in factors:
        assert 0 <= i < j < n
        assert np.linalg.norm(V.T @ V - np.eye(2)) <= 1e-14
    assert np.max(np.abs(compose(factors, n) - D)) <= 1e-12
    # exactly one reflection iff det D = -1, and it is the last factor (Listing 1, lines 13-15)
    det = round(np.linalg.det(D))
    assert reflection_steps(factors) == ([len(factors) - 1] if det == -1 else [])
    return factors


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("det", [1, -1])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 10, 16, 25, 40])
def test_random_orthogonal_is_product_of_C_n_2_factors(n, det, order):
    check_factorization(random_orthogonal(n, det, 1000 * n + det), order)


@settings(deadline=None)
@given(n=st.integers(2, 12), det=st.sampled_from([1, -1]), seed=st.integers(0, 2**32 - 1),
       order=st.sampled_from(ORDERS))
def test_factorization_hypothesis(n, det, seed, order):
    check_factorization(random_orthogonal(n, det, seed), order)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("n", [2, 3, 4, 9, 40])
def test_plus_minus_identity(n, order):
    factors = check_factorization(np.eye(n), order)
    assert all(np.array_equal(V, np.eye(2)) for *_, V in factors)  # Theorem 3.1(a): all V = I gives I
    check_factorization(-np.eye(n), order)  # det (-I) = (-1)^n


@settings(deadline=None)
@given(perm=st.integers(2, 40).flatmap(lambda n: st.permutations(range(n))), order=st.sampled_from(ORDERS))
def test_permutation_matrices(perm, order):
    check_factorization(permutation_matrix(perm), order)


def test_swap_is_the_reflection_at_pi_over_two():
    (i, j, V), = jacobi_givens_qr([[0.0, 1.0], [1.0, 0.0]])
    assert (i, j) == (0, 1)
    assert np.allclose(V, ref(np.pi / 2), atol=1e-15)
    assert describe_factors([(i, j, V)])[0][2] == "ref"


@pytest.mark.parametrize("n", [3, 6, 11])
def test_pair_orders(n):
    D = random_orthogonal(n, -1, n)
    distinct = [(i, j) for i, j, _ in jacobi_givens_qr(D, "distinct")]
    assert sorted(distinct) == list(itertools.combinations(range(n), 2))  # each pair once (Theorem 3.1)
    paper = [(i, j) for i, j, _ in jacobi_givens_qr(D, "paper")]
    assert all(j == i + 1 for i, j in paper)  # Listing 1 only uses neighbouring rows ...
    assert len(set(paper)) == n - 1  # ... so it repeats pairs: it does not use all C(n, 2) of them


def test_givens_zeroes_second_entry():
    for a, b in [(3.0, 4.0), (4.0, -3.0), (0.0, 2.0), (-1e-300, 5.0), (1.0, 0.0), (0.0, 0.0)]:
        V = givens(a, b)
        out = V.T @ np.array([a, b])
        assert abs(out[1]) <= 1e-15 * max(1.0, abs(a), abs(b))
        assert np.allclose(V.T @ V, np.eye(2), atol=1e-15)
        assert np.linalg.det(V) > 0


def test_factor_matrix_is_I_plus_U_V_minus_I_Ut():
    n, i, j, V = 5, 1, 3, ref(0.7)
    U = np.eye(n)[:, [i, j]]
    assert np.allclose(factor_matrix((i, j, V), n), np.eye(n) + U @ (V - np.eye(2)) @ U.T, atol=1e-15)


def test_describe_factors_reconstructs_V():
    D = random_orthogonal(6, -1, 3)
    factors = jacobi_givens_qr(D)
    for (i, j, V), (di, dj, branch, theta) in zip(factors, describe_factors(factors)):
        assert (i, j) == (di, dj)
        assert np.allclose({"rot": rot, "ref": ref}[branch](theta), V, atol=1e-14)


# --- errors ---------------------------------------------------------------------------------

def test_non_orthogonal_reports_the_residual():
    D = random_orthogonal(4, 1, 0)
    D[0, 0] += 0.01
    residual = np.linalg.norm(D.T @ D - np.eye(4))
    with pytest.raises(ValueError, match=f"{residual:.3e}"):
        jacobi_givens_qr(D)


@pytest.mark.parametrize("bad", [np.ones((3, 2)), np.eye(1), np.ones(4)])
def test_bad_shapes(bad):
    with pytest.raises(ValueError, match="D"):
        jacobi_givens_qr(bad)


def test_bad_order_and_nonfinite():
    with pytest.raises(ValueError, match="order"):
        jacobi_givens_qr(np.eye(3), order="random")
    D = np.eye(3)
    D[1, 1] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        jacobi_givens_qr(D)
    with pytest.raises(TypeError):
        jacobi_givens_qr("not a matrix")


def test_random_orthogonal_has_the_requested_det():
    for n in (2, 3, 6):
        for det in (1, -1):
            D = random_orthogonal(n, det, 10 * n)
            assert np.linalg.norm(D.T @ D - np.eye(n)) < 1e-12
            assert np.linalg.det(D) == pytest.approx(det, abs=1e-12)
    with pytest.raises(ValueError, match="det"):
        random_orthogonal(3, 0)


def _scaled(factors, index, scale):
    out = list(factors)
    *rows, V = out[index]
    out[index] = (*rows, scale * V)
    return out


@pytest.mark.parametrize("index", [0, 2, 5])
def test_compose_and_describe_reject_a_non_orthogonal_V(index):
    factors = jacobi_givens_qr(random_orthogonal(4, -1, 5))
    bad = _scaled(factors, index, 1.01)
    residual = np.linalg.norm(bad[index][2].T @ bad[index][2] - np.eye(2))  # (1.01^2 - 1) sqrt(2)
    message = re.escape(f"factor {index} (0-based): V is not orthogonal: ||V^T V - I||_F = {residual:.3e}")
    with pytest.raises(ValueError, match=message):
        compose(bad, 4)
    with pytest.raises(ValueError, match=message):
        compose(bad, 4, identity_init(4, 2))
    with pytest.raises(ValueError, match=message):
        describe_factors(bad)
    # block factors (B, V) of any k are checked the same way
    blocks = embed_factors(factors, 4, 3)
    with pytest.raises(ValueError, match=rf"factor {index} \(0-based\): V is not orthogonal"):
        compose(_scaled(blocks, index, 1.01), 4)
    with pytest.raises(ValueError, match="V is not orthogonal"):
        factor_matrix(bad[index], 4)
    # rounding-level noise is accepted, so a factorization's own factors always compose
    nearly = _scaled(factors, index, 1.0 + 1e-13)
    assert np.max(np.abs(compose(nearly, 4) - compose(factors, 4))) < 1e-12
    assert describe_factors(nearly)[index][2] == describe_factors(factors)[index][2]


def test_compose_rejects_bad_rows():
    with pytest.raises(ValueError, match="distinct integers"):
        compose([(1, 1, np.eye(2))], 3)
    with pytest.raises(ValueError, match="distinct integers"):
        compose([(0, 3, np.eye(2))], 3)


# --- rotations only (Lemma A.5) -------------------------------------------------------------

@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("det", [1, -1])
@pytest.mark.parametrize("n", [2, 3, 8, 40])
def test_rotations_only_leaves_det_in_the_corner(n, det, order):
    D = random_orthogonal(n, det, 7 * n)
    factors, R, _ = givens_qr_rotations_only(D, order)
    assert reflection_steps(factors) == []
    # Lemma A.5 + the -I fixes: R = diag(1, ..., 1, det D), one -1 exactly when det D = -1
    assert np.max(np.abs(R - np.diag([1.0] * (n - 1) + [float(det)]))) <= 1e-12
    assert np.max(np.abs(compose(factors, n) - R @ D)) <= 1e-12
    # the one reflection diag(1, -1) on the last pair fixes it
    fixed = compose([*factors, (n - 2, n - 1, np.diag([1.0, -1.0]))], n)
    assert np.max(np.abs(fixed - (D if det == -1 else np.diag([1.0] * (n - 1) + [-1.0]) @ D))) <= 1e-12


@pytest.mark.parametrize("n", [3, 8, 40])
def test_classical_givens_qr_signs(n):
    """Without Listing 1's fixes, R is still diagonal +-1 (Lemma A.5) with det R = det D."""
    for seed in range(5):
        for det in (1, -1):
            D = random_orthogonal(n, det, seed)
            factors, R, fixes = givens_qr_rotations_only(D, fix_signs=False)
            assert fixes == 0
            assert np.max(np.abs(compose(factors, n) - R @ D)) <= 1e-12
            signs = np.sign(np.diag(R))
            assert np.max(np.abs(R - np.diag(signs))) <= 1e-12  # Lemma A.5: diagonal, entries +-1
            assert int(np.sum(signs < 0)) % 2 == (det == -1)


def test_sign_fixes_are_data_dependent_not_n_minus_2():
    """The paper says Listing 1's lines 7-10 run n - 2 times; they run 0 to n - 1 times, depending on D."""
    n = 6
    counts = {givens_qr_rotations_only(random_orthogonal(n, 1, seed), "paper").sign_fixes for seed in range(100)}
    assert givens_qr_rotations_only(np.eye(n)).sign_fixes == 0
    assert counts <= set(range(n)) and len(counts) >= 4


@settings(deadline=None)
@given(n=st.integers(2, 10), seed=st.integers(0, 2**32 - 1), length=st.integers(0, 60))
def test_products_of_rotations_never_reach_det_minus_one(n, seed, length):
    rng = np.random.default_rng(seed)
    factors = []
    for _ in range(length):
        i, j = sorted(rng.choice(n, 2, replace=False))
        factors.append((i, j, rot(rng.uniform(0, 2 * np.pi))))
    P = compose(factors, n)
    assert np.linalg.det(P) > 0
    T = random_orthogonal(n, -1, seed % 1000)
    assert np.sum((P - T) ** 2) >= 4 - 1e-10  # the floor of closest_with_det


@pytest.mark.parametrize("n", [2, 3, 7])
def test_closest_with_det(n):
    T = random_orthogonal(n, -1, n)
    X, dist = closest_with_det(T, 1)
    assert np.linalg.det(X) > 0 and dist == pytest.approx(4.0)
    assert np.sum((X - T) ** 2) == pytest.approx(4.0)
    X, dist = closest_with_det(T, -1)
    assert dist == 0.0 and np.array_equal(X, T)


# --- Theorem 3.1(b): paths between points of St(n, r) --------------------------------------

@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("n, r", [(2, 1), (2, 2), (5, 2), (6, 6), (12, 7), (40, 3), (40, 40)])
def test_path_between(n, r, order):
    rng = np.random.default_rng(n * 100 + r)
    X = random_stiefel(n, r, rng)
    for X0 in (identity_init(n, r), random_stiefel(n, r, rng)):
        factors = path_between(X0, X, order)
        assert len(factors) == comb(n, 2)
        assert np.max(np.abs(compose(factors, n, X0) - X)) <= 1e-12
        D = orthogonal_map(X0, X)
        assert np.max(np.abs(D @ X0 - X)) <= 1e-12
        if r == n:
            assert np.allclose(D, X @ X0.T, atol=1e-12)  # unique for r = n


@settings(deadline=None)
@given(n=st.integers(2, 15).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))),
       seed=st.integers(0, 2**32 - 1), identity_start=st.booleans(), order=st.sampled_from(ORDERS))
def test_path_between_hypothesis(n, seed, identity_start, order):
    n, r = n
    rng = np.random.default_rng(seed)
    X0 = identity_init(n, r) if identity_start else random_stiefel(n, r, rng)
    X = random_stiefel(n, r, rng)
    assert np.max(np.abs(compose(path_between(X0, X, order), n, X0) - X)) <= 1e-12


@pytest.mark.parametrize("n, r", [(3, 1), (5, 4), (20, 10)])
def test_path_between_r_less_than_n_can_use_rotations_only(n, r):
    rng = np.random.default_rng(r)
    X0, X = random_stiefel(n, r, rng), random_stiefel(n, r, rng)
    for det in (1, -1):
        D = orthogonal_map(X0, X, det=det)
        assert np.sign(np.linalg.det(D)) == det
        factors = path_between(X0, X, det=det)
        assert np.max(np.abs(compose(factors, n, X0) - X)) <= 1e-12
        assert len(reflection_steps(factors)) == (det == -1)


def test_path_between_r_equal_n_det_is_forced():
    X0 = np.eye(4)
    X = random_orthogonal(4, -1, 2)
    assert reflection_steps(path_between(X0, X)) == [5]  # det X != det X0: the reflection is needed
    with pytest.raises(ValueError, match="impossible"):
        orthogonal_map(X0, X, det=1)


def test_path_between_errors():
    with pytest.raises(ValueError, match="shape"):
        path_between(np.eye(4, 2), np.eye(4, 3))
    with pytest.raises(ValueError, match="Stiefel"):
        path_between(np.eye(4, 2), 2 * np.eye(4, 2))
    with pytest.raises(ValueError, match="det"):
        orthogonal_map(np.eye(4, 2), np.eye(4, 2), det=0)


# --- Corollary 3.2: blocks of size k >= 3 ----------------------------------------------------

@pytest.mark.parametrize("n", [3, 6, 10])
def test_embedding_into_k_blocks(n):
    D = random_orthogonal(n, -1, n)
    factors = jacobi_givens_qr(D, "distinct")
    for k in range(2, n + 1):
        blocks = embed_factors(factors, n, k)
        assert len(blocks) == comb(n, 2)  # C(n, 2) block factors, not C(n, k)
        for (B, Vk), (i, j, _) in zip(blocks, factors):
            assert len(B) == k and list(B) == sorted(B) and {i, j} <= set(B)
            assert np.linalg.norm(Vk.T @ Vk - np.eye(k)) <= 1e-14
        assert np.max(np.abs(compose(blocks, n) - D)) <= 1e-12
    with pytest.raises(ValueError, match="k must be"):
        embed_factors(factors, n, n + 1)


def test_factor_count():
    assert [factor_count(n) for n in range(2, 7)] == [1, 3, 6, 10, 15]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("n", [3, 4, 6, 7])
def test_sign_fix_fires_at_most_once_per_column(n, order):
    """Listing 1's lines 7-10 run after a column's last step only: at most n - 1 times in either
    order (the "distinct" order once tested ``p == j``, always true there, and fired up to 9 times
    for n = 6), and the result is still diag(1, ..., 1, det D)."""
    for seed in range(60):
        D = random_orthogonal(n, (-1) ** seed, seed)
        out = givens_qr_rotations_only(D, order=order)
        assert out.sign_fixes <= n - 1
        assert np.allclose(out.R, np.diag([1.0] * (n - 1) + [float((-1) ** seed)]), atol=1e-12)
        assert np.allclose(compose(out.factors, n), out.R @ D, atol=1e-12)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_angle_jacobian_has_full_rank_dim_o_n(n):
    """C(n, 2) one-angle factors: the derivative of the product is onto the tangent space (notebook 03)."""
    from obcd_lite.teaching.completeness_blocks import angle_jacobian_rank

    for order in ORDERS:
        factors = jacobi_givens_qr(random_orthogonal(n, -1, n), order)
        assert angle_jacobian_rank(factors, n) == comb(n, 2)
    assert angle_jacobian_rank(jacobi_givens_qr(random_orthogonal(n, 1, 0))[:-1], n) == comb(n, 2) - 1
