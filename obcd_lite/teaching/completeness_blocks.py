"""How many factors: Corollary 3.2 (blocks of size k >= 3) and the dimension count of Theorem 3.1(a).

Corollary 3.2 of the paper: every D in O(n) is also a product of OBCD row updates on blocks of
size k >= 3. Its proof embeds each 2x2 factor of Theorem 3.1(a) in a k-block
(:func:`embed_factors`), which gives C(n, 2) block factors, not the C(n, k) the statement
suggests. C(n, k) factors on distinct blocks do exist: by a matching for 2 <= k <= n - 2
(:func:`distinct_block_factors`) and by an explicit construction with three blocks for
k = n - 1 (:func:`three_block_factors`). :func:`angle_jacobian_rank` checks that C(n, 2)
one-angle factors are as many as dim O(n) requires.

Factors follow the conventions of :mod:`obcd_lite.teaching.completeness`: ``(i, j, V)`` for a
2x2 update, ``(B, V)`` with B a sorted tuple of k rows for a k x k one, in the order applied.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .completeness import ORTHOGONAL_TOL, Factor, _check_factor_V, _check_orthogonal, compose


def embed_factors(factors: Sequence[Factor], n: int, k: int) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Corollary 3.2: each 2x2 factor as a k x k block update, k >= 2.

    Factor (i, j, V) becomes (B, V_k) with B = {i, j} plus the k - 2 smallest
    other rows (sorted), and V_k the identity with V placed on the positions of
    i and j in B. The W matrices are unchanged, so the product is too. Note the
    count: this gives C(n, 2) block factors, not C(n, k) as the corollary's
    statement (via Theorem 3.1 with k) suggests.

    Parameters
    ----------
    factors : sequence of (i, j, V)
        The 2 x 2 factors.
    n, k : int
        The dimension and the block size.

    Returns
    -------
    list of (B, V)
        The block factors.

    Raises
    ------
    ValueError
        If k is not an integer in 2..n.
    """
    if int(k) != k or not 2 <= k <= n:
        raise ValueError(f"k must be an integer with 2 <= k <= n = {n}, got k = {k!r}")
    embedded = []
    for i, j, V in factors:
        others = [row for row in range(n) if row not in (i, j)][: k - 2]
        block = tuple(sorted([i, j, *others]))
        pos = [block.index(i), block.index(j)]
        Vk = np.eye(k)
        Vk[np.ix_(pos, pos)] = V
        embedded.append((block, Vk))
    return embedded


def distinct_block_factors(factors: Sequence[Factor], n: int, k: int) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Corollary 3.2 with distinct blocks, 2 <= k <= n - 2: each 2x2 factor on its own k-block.

    Every pair lies in C(n-2, k-2) blocks and every block holds C(k, 2) pairs; since
    C(n, 2) <= C(n, k) for 2 <= k <= n - 2, Hall's condition holds and a matching gives each
    pair of ``factors`` (which must use distinct pairs, e.g. ``order="distinct"``) its own block.
    Each factor is embedded there as in :func:`embed_factors`; the blocks no pair uses get V = I,
    so the result has exactly C(n, k) factors on distinct blocks with the same product.

    Parameters
    ----------
    factors : sequence of (i, j, V)
        The 2 x 2 factors, on distinct pairs.
    n, k : int
        The dimension and the block size.

    Returns
    -------
    list of (B, V)
        C(n, k) block factors.

    Raises
    ------
    ValueError
        If k is not an integer in 2..n-2, or two factors share a pair.
    """
    from itertools import combinations

    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    if int(k) != k or not 2 <= k <= n - 2:
        raise ValueError(f"k must be an integer with 2 <= k <= n - 2 = {n - 2}, got k = {k!r}")
    pairs = [(i, j) for i, j, _ in factors]
    if len(set(pairs)) != len(pairs):
        raise ValueError("the factors must use distinct pairs of rows (jacobi_givens_qr(D, order='distinct'))")
    blocks = list(combinations(range(n), k))
    contains = csr_matrix([[float(i in b and j in b) for b in blocks] for i, j in pairs])
    match = maximum_bipartite_matching(contains, perm_type="column")
    embedded = []
    for (i, j, V), col in zip(factors, match):
        block = blocks[col]
        Vk = np.eye(k)
        pos = [block.index(i), block.index(j)]
        Vk[np.ix_(pos, pos)] = V
        embedded.append((block, Vk))
    used = set(match.tolist())
    return embedded + [(b, np.eye(k)) for col, b in enumerate(blocks) if col not in used]


def three_block_factors(D, tol: float = ORTHOGONAL_TOL) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Corollary 3.2 for k = n - 1 (n >= 3): D = W_c W_b W_a on three distinct (n-1)-blocks.

    W_x fixes row x (its block is every row but x); take (a, b, c) = (0, 1, 2). With v = D e_a,
    W_b maps e_a to u = v_c e_c + sqrt(1 - v_c^2) e_a (u is orthogonal to e_b), W_c maps u to v
    (both have the same c-entry, so the rest has the same norm), and W_a = W_b^T W_c^T D fixes
    e_a because W_c W_b e_a = D e_a. Padding the other n - 3 blocks with V = I gives the
    corollary's n = C(n, n-1) factors, one per block.

    Parameters
    ----------
    D : array_like
        The n x n orthogonal matrix.
    tol : float
        The largest accepted ``||D^T D - I||_F``.

    Returns
    -------
    list of (B, V)
        n block factors.

    Raises
    ------
    ValueError
        If n < 3 or D is not orthogonal.
    """
    D = _check_orthogonal(D, "D", tol)
    n = D.shape[0]
    if n < 3:
        raise ValueError(f"three_block_factors needs n >= 3, got n = {n}")
    a, b, c = 0, 1, 2
    v = D[:, a]
    u = np.zeros(n)
    u[c], u[a] = v[c], np.sqrt(max(0.0, 1.0 - v[c] ** 2))
    W_b = _householder_between(np.eye(n)[a], u, fixed=b)
    W_c = _householder_between(u, v, fixed=c)
    W_a = W_b.T @ W_c.T @ D
    out = []
    for row, W in ((a, W_a), (b, W_b), (c, W_c)):
        block = tuple(i for i in range(n) if i != row)
        out.append((block, W[np.ix_(block, block)]))
    return out


def _householder_between(x: np.ndarray, y: np.ndarray, fixed: int) -> np.ndarray:
    """An orthogonal W with W x = y and W e_fixed = e_fixed (x, y unit, equal entry ``fixed``)."""
    diff = x - y
    W = np.eye(len(x))
    norm = np.linalg.norm(diff)
    if norm > 1e-15:  # the reflection across the hyperplane orthogonal to x - y (its fixed entry is 0)
        h = diff / norm
        W -= 2.0 * np.outer(h, h)
    return W


def angle_jacobian_rank(factors: Sequence[Factor], n: int, tol: float = 1e-9) -> int:
    """Rank of the derivative of (theta_1, ..., theta_m) -> W_m ... W_1 at the given factors.

    Each V_l is rot(theta_l) or ref(theta_l) (Lemma 2.5) and dV/dtheta = +-V Omega. Moving
    theta_l changes the product D by D_(>l) dW_l D_(<=l)^{-1} D (tangent at D); left-multiplied by
    D^T this is a skew matrix, i.e. a vector in the C(n, 2)-dimensional tangent space of O(n).
    Full rank C(n, 2) means the factor map is locally onto O(n): C(n, 2) one-angle factors are
    exactly as many as dim O(n) = n (n - 1) / 2 requires.

    Parameters
    ----------
    factors : sequence of (i, j, V)
        The factors.
    n : int
        The dimension.
    tol : float
        The rank's tolerance.

    Returns
    -------
    int
        The rank.

    Raises
    ------
    ValueError
        If a V is not in O(2) (as :func:`compose`).
    """
    omega = np.array([[0.0, 1.0], [-1.0, 0.0]])
    D = compose(factors, n)
    columns = []
    iu = np.triu_indices(n, 1)
    for pos, (i, j, V) in enumerate(factors):
        V = _check_factor_V(V, 2, pos)
        dW = np.zeros((n, n))
        dW[np.ix_([i, j], [i, j])] = np.sign(np.linalg.det(V)) * V @ omega
        after = compose(factors[pos + 1:], n)
        before = compose(factors[:pos], n)
        tangent = D.T @ after @ dW @ before  # skew: the derivative, moved to the identity
        columns.append(tangent[iu])
    return int(np.linalg.matrix_rank(np.array(columns).T, tol=tol))
