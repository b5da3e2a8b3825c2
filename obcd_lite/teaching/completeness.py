"""Completeness of OBCD's row updates: every orthogonal matrix from 2x2 blocks.

Theorem 3.1(a) of the paper: every D in O(n) = St(n, n) is a product of
C(n, 2) matrices W = I + U_B (V - I) U_B^T with |B| = 2 and V in O(2), i.e. of
OBCD row updates X(B, :) <- V X(B, :). Theorem 3.1(b): hence every X in
St(n, r) is reachable from every X0 in St(n, r). Corollary 3.2 (the same holds
for blocks of size k >= 3) and the count of factors are in
:mod:`obcd_lite.teaching.completeness_blocks`.

Conventions used throughout this module
---------------------------------------
A *factor* is a tuple ``(i, j, V)`` with 0-based rows ``i < j`` and V a 2x2
orthogonal matrix; it stands for ``W = I + U_B (V - I) U_B^T`` with
``U_B = [e_i, e_j]``, i.e. the row update ``X([i, j], :) <- V X([i, j], :)``.
A list of factors is in the order the updates are applied: ``[W_1, ..., W_m]``
means the product ``W_m ... W_1``. Block factors for k >= 3 are ``(B, V)`` with
``B`` a sorted tuple of k rows and V a k x k orthogonal matrix.

How the factors are found (Listing 1, "Jacobi-Givens-QR")
---------------------------------------------------------
Listing 1 applies row updates ``R(B, :) <- V^T R(B, :)`` to R = X until R = I.
We run it on X = D^T: the updates then satisfy ``W_m ... W_1 D^T = I``, so
``W_m ... W_1 = D`` with ``W_l`` built from ``V_l^T`` -- the steps of Listing 1
in their own order are the factors in application order, and the running
product ``W_l ... W_1`` times ``D^T`` is exactly Listing 1's matrix R after l steps.

Listing 1's sign corrections (its lines 7-10 and 13-15) act on the same pair B
as the Givens step just before them, so they are multiplied into that step's
V: the count stays C(n, 2). Lines 7-10 use V = -I, a *rotation* (det +1);
lines 13-15 use diag(1, -1), the only *reflection*, and run only if
det D = -1. Since det(W_m ... W_1) is the product of the det V_l, a det -1
matrix needs an odd number of reflections, and this construction uses exactly
one -- so at most one is ever needed.
"""
from __future__ import annotations

from math import comb
from typing import NamedTuple, Sequence

import numpy as np

from ..stiefel import angle_of, random_stiefel
from ..validation import as_matrix, check_stiefel

#: Default tolerance on ``||D^T D - I||_F`` for D to count as orthogonal.
ORTHOGONAL_TOL = 1e-10

Factor = tuple[int, int, np.ndarray]
_ORDERS = ("paper", "distinct")
_SIGN_FLIP = -np.eye(2)  # Listing 1, line 8: the rotation by pi (det +1)
_LAST_REFLECTION = np.diag([1.0, -1.0])  # Listing 1, line 14: the reflection (det -1)


class RotationsOnlyQR(NamedTuple):
    """Output of :func:`givens_qr_rotations_only`.

    Attributes
    ----------
    factors : list of (i, j, V)
        Rotations only.
    R : numpy.ndarray
        ``compose(factors, n) @ D.T``, Listing 1's final matrix: diagonal with entries +-1 up to
        rounding (Lemma A.5), so ``compose(factors, n) == R @ D``.
    sign_fixes : int
        How often Listing 1's lines 7-10 (V = -I) fired.
    """

    factors: list
    R: np.ndarray
    sign_fixes: int


def givens(a: float, b: float) -> np.ndarray:
    """Listing 1's ``Givens(a, b)``: V = [[c, s], [-s, c]] with ``V^T [a, b]^T = [r, 0]^T``.

    The stable form of Golub & Van Loan, Alg. 5.1.3 (the paper's reference): the
    larger of |a|, |b| is divided by, so tau never overflows; r may be negative.

    Parameters
    ----------
    a, b : float
        The vector to rotate.

    Returns
    -------
    numpy.ndarray
        V.
    """
    if b == 0.0:
        c, s = 1.0, 0.0
    elif abs(b) > abs(a):
        tau = -a / b
        s = 1.0 / np.sqrt(1.0 + tau * tau)
        c = s * tau
    else:
        tau = -b / a
        c = 1.0 / np.sqrt(1.0 + tau * tau)
        s = c * tau
    return np.array([[c, s], [-s, c]])


def _check_orthogonal(D, name: str, tol: float) -> np.ndarray:
    D = as_matrix(D, name)
    if D.shape[0] != D.shape[1]:
        raise ValueError(f"{name} must be square (an element of O(n)), got shape {D.shape}")
    if D.shape[0] < 2:
        raise ValueError(f"{name} must be at least 2 x 2: O(1) = {{+1, -1}} has no 2x2 blocks, got shape {D.shape}")
    err = float(np.linalg.norm(D.T @ D - np.eye(D.shape[0])))
    if err > tol:
        raise ValueError(f"{name} is not orthogonal: ||{name}^T {name} - I||_F = {err:.3e} > {tol:.0e}")
    return D


def _pair_schedule(n: int, order: str) -> list[list[tuple[int, int, int]]]:
    """For each column j, the (pivot row, zeroed row, pair) steps of the QR sweep.

    Each step is ``(p, q, j)``: rows (p, q), p < q, zero the entry R[q, j] against R[p, j].
    The last step of column j always touches rows (j, j + 1), where the sign of
    R[j, j] is settled.
    """
    if order not in _ORDERS:
        raise ValueError(f"order must be 'paper' or 'distinct', got {order!r}")
    columns = []
    for j in range(n - 1):
        if order == "paper":  # Listing 1: neighbouring rows, bottom to top
            columns.append([(q - 1, q, j) for q in range(n - 1, j, -1)])
        else:  # each pair (j, q) once: pivot on the diagonal row j
            columns.append([(j, q, j) for q in range(n - 1, j, -1)])
    return columns


def _sweep(D: np.ndarray, order: str, fix_signs: bool,
           final_reflection: bool) -> tuple[list[Factor], np.ndarray, int]:
    """Run Listing 1 on D^T: the factors (application order), the final R, the number of sign fixes."""
    n = D.shape[0]
    R = D.T.copy()
    factors: list[Factor] = []
    sign_fixes = 0
    for column in _pair_schedule(n, order):
        for p, q, j in column:
            V_alg = givens(R[p, j], R[q, j])
            rows = [p, q]
            R[rows] = V_alg.T @ R[rows]
            # Listing 1, lines 7-10 (a rotation): only after the column's last step, on rows (j, j + 1),
            # where R[j, j] is settled. (Testing p == j instead fires after every step of the
            # "distinct" order, whose pivot row is always j.)
            if fix_signs and q == j + 1 and R[j, j] < 0:
                R[rows] = _SIGN_FLIP.T @ R[rows]
                V_alg = V_alg @ _SIGN_FLIP
                sign_fixes += 1
            factors.append((p, q, V_alg.T))
    if final_reflection and R[n - 1, n - 1] < 0:  # Listing 1, lines 13-15 (the reflection)
        p, q, V_last = factors[-1]  # the last step always acts on rows (n-2, n-1)
        R[[p, q]] = _LAST_REFLECTION @ R[[p, q]]
        factors[-1] = (p, q, _LAST_REFLECTION @ V_last)
    return factors, R, sign_fixes


def jacobi_givens_qr(D, order: str = "paper", tol: float = ORTHOGONAL_TOL) -> list[Factor]:
    """Factor D in O(n) into C(n, 2) OBCD row updates (Theorem 3.1(a), Listing 1).

    Parameters
    ----------
    D : numpy.ndarray, shape (n, n)
        Orthogonal matrix, n >= 2, det D = +1 or -1.
    order : str
        ``"paper"`` follows Listing 1 (neighbouring rows (q-1, q), some pairs
        repeat); ``"distinct"`` zeroes R[q, j] against row j, so each of the
        C(n, 2) pairs is used exactly once, as Theorem 3.1 states.
    tol : float
        Largest accepted ``||D^T D - I||_F``.

    Returns
    -------
    list of (i, j, V)
        Exactly C(n, 2) factors, i < j, V in O(2), with ``D = W_m ... W_1`` and
        ``W_l = I + U_B (V_l - I) U_B^T``, B = (i_l, j_l); the first item is W_1.
        At most one V is a reflection (det -1): the last one, present iff det D = -1.

    Raises
    ------
    ValueError
        If D is not square, smaller than 2 x 2, or ``||D^T D - I||_F > tol``.
    """
    D = _check_orthogonal(D, "D", tol)
    factors, _, _ = _sweep(D, order, fix_signs=True, final_reflection=True)
    return factors


def givens_qr_rotations_only(D, order: str = "paper", fix_signs: bool = True,
                             tol: float = ORTHOGONAL_TOL) -> RotationsOnlyQR:
    """Givens QR of D with rotations only: Listing 1 without its reflection (Lemma A.5).

    Parameters
    ----------
    D : numpy.ndarray, shape (n, n)
        Orthogonal matrix.
    order : str
        As in :func:`jacobi_givens_qr`.
    fix_signs : bool
        Keep Listing 1's lines 7-10 (V = -I, a rotation). Then
        ``R = diag(1, ..., 1, det D)``: a single -1, in the corner, exactly when
        det D = -1. With ``False`` this is classical Givens QR and R may hold
        several -1 entries, always an odd number iff det D = -1.
    tol : float
        Largest accepted ``||D^T D - I||_F``.

    Returns
    -------
    RotationsOnlyQR
        ``factors`` (all rotations, C(n, 2) of them), ``R`` with
        ``compose(factors, n) = R @ D`` and ``sign_fixes``. By Lemma A.5, R is diagonal with entries
        +-1; since rotations have det +1, det R = det D: rotations alone never
        produce a det -1 matrix.
    """
    D = _check_orthogonal(D, "D", tol)
    factors, R, sign_fixes = _sweep(D, order, fix_signs=fix_signs, final_reflection=False)
    return RotationsOnlyQR(factors, R, sign_fixes)


def factor_matrix(factor, n: int) -> np.ndarray:
    """The n x n matrix ``W = I + U_B (V - I) U_B^T`` of one factor ``(i, j, V)`` or ``(B, V)``.

    Parameters
    ----------
    factor : tuple
        ``(i, j, V)`` or ``(B, V)``.
    n : int
        The dimension.

    Returns
    -------
    numpy.ndarray
        W.
    """
    block, V = _as_block_factor(factor, n)
    W = np.eye(n)
    W[np.ix_(block, block)] = V
    return W


def compose(factors: Sequence, n: int, X0=None) -> np.ndarray:
    """Apply the row updates in order: ``W_m … W_1 X0`` (X0 = I_n by default).

    Parameters
    ----------
    factors : Sequence
        Items ``(i, j, V)`` (k = 2) or ``(B, V)`` (any k), in application order.
    n : int
        The dimension.
    X0 : numpy.ndarray
        Optional (n, r) start; each factor does ``X(B, :) <- V X(B, :)``.

    Returns
    -------
    numpy.ndarray
        The product applied to X0.

    Raises
    ------
    ValueError
        If n is not a positive integer, rows are out of range or repeated, or a V has
        ``||V^T V - I||_F > ORTHOGONAL_TOL`` (the message names the factor's 0-based position).
    """
    if int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer, got n = {n!r}")
    X = np.eye(int(n)) if X0 is None else as_matrix(X0, "X0", (n, None)).copy()
    for index, factor in enumerate(factors):
        block, V = _as_block_factor(factor, n, index)
        X[block] = V @ X[block]
    return X


def _check_factor_V(V, k: int, index: int | None) -> np.ndarray:
    """V as a k x k float matrix, raising unless ``||V^T V - I||_F <= ORTHOGONAL_TOL``.

    A non-orthogonal V is not an OBCD row update: products of such factors are silently
    non-orthogonal, so it is rejected with the factor's position and the residual.
    """
    where = "a factor's V" if index is None else f"factor {index} (0-based)"
    V = as_matrix(V, f"the V of {where}", (k, k))
    err = float(np.linalg.norm(V.T @ V - np.eye(k)))
    if err > ORTHOGONAL_TOL:
        raise ValueError(f"{where}: V is not orthogonal: ||V^T V - I||_F = {err:.3e} > {ORTHOGONAL_TOL:.0e}")
    return V


def _as_block_factor(factor, n: int, index: int | None = None) -> tuple[list[int], np.ndarray]:
    if len(factor) == 3:
        i, j, V = factor
        block = [i, j]
    elif len(factor) == 2:
        block, V = factor
        block = list(block)
    else:
        raise TypeError(f"a factor must be (i, j, V) or (B, V), got {factor!r}")
    k = len(block)
    if any(int(b) != b or not 0 <= b < n for b in block) or len(set(block)) != k:
        raise ValueError(f"factor rows {block} must be {k} distinct integers in [0, {n})")
    V = _check_factor_V(V, k, index)
    return [int(b) for b in block], V


def reflection_steps(factors: Sequence) -> list[int]:
    """0-based positions of the factors whose V is a reflection (det V < 0).

    Parameters
    ----------
    factors : Sequence
        Sequence of factors, ``(i, j, V)`` or ``(B, V)``.

    Returns
    -------
    list of int
        The positions.
    """
    return [pos for pos, factor in enumerate(factors) if np.linalg.det(np.asarray(factor[-1], dtype=float)) < 0]


def describe_factors(factors: Sequence[Factor]) -> list[tuple[int, int, str, float]]:
    """``(i, j, branch, theta)`` per factor, with V = rot(theta) or ref(theta) (Lemma 2.5).

    Parameters
    ----------
    factors : sequence of (i, j, V)
        The factors.

    Returns
    -------
    list of tuple
        One per factor.

    Raises
    ------
    ValueError
        If a V is not in O(2) (to ``ORTHOGONAL_TOL``; its angle would describe some other matrix): the
        message names the factor's position and ``||V^T V - I||_F``.
    """
    return [(i, j, *angle_of(_check_factor_V(V, 2, index))) for index, (i, j, V) in enumerate(factors)]


def orthogonal_map(X0, X, det: int | None = None, tol: float = 1e-8) -> np.ndarray:
    """An orthogonal D with ``D X0 = X`` (proof of Theorem 3.1(b), eqs. (z:exp)).

    D is the polar factor U V^T of the full SVD ``X X0^T = U diag(z) V^T``,
    z in {0, 1}^n. For r = n it is unique, D = X X0^T, and det D = det X det X0.
    For r < n the last n - r singular values are 0: their singular vectors
    are any orthonormal completion, the polar factor is not unique, and each
    choice still maps X0 to X (those right vectors are orthogonal to range X0).
    Flipping one such left vector flips det D, so ``det=+1`` is always possible
    when r < n -- rotations alone then reach X from X0.

    Parameters
    ----------
    X0, X : numpy.ndarray, shape (n, r)
        Points of St(n, r).
    det : int or None
        +1 or -1; None: whatever the SVD gives.
    tol : float
        Tolerance of the St(n, r) check on X0 and X.

    Returns
    -------
    numpy.ndarray
        D.

    Raises
    ------
    ValueError
        Shapes differ, a point is off St(n, r), or ``det`` is impossible (r = n
        and det X det X0 != det).
    """
    X0 = as_matrix(X0, "X0")
    X = as_matrix(X, "X", X0.shape)
    check_stiefel(X0, "X0", tol)
    check_stiefel(X, "X", tol)
    if det not in (None, 1, -1):
        raise ValueError(f"det must be None, +1 or -1, got det = {det!r}")
    n, r = X0.shape
    U, _, Vt = np.linalg.svd(X @ X0.T)  # full U, V in O(n)
    D = U @ Vt
    if det is not None and np.linalg.det(D) * det < 0:
        if r == n:
            raise ValueError(f"det = {det} is impossible: for r = n, D = X X0^T is unique with det "
                             f"{np.linalg.det(D):+.0f}")
        U[:, -1] = -U[:, -1]  # a zero singular value: its left vector is free up to sign
        D = U @ Vt
    return D


def path_between(X0, X, order: str = "paper", det: int | None = None, tol: float = 1e-8) -> list[Factor]:
    """C(n, 2) row updates carrying X0 to X in St(n, r) (Theorem 3.1(b)).

    ``compose(path_between(X0, X), n, X0)`` equals X. The factors are
    ``jacobi_givens_qr(orthogonal_map(X0, X, det), order)``; pass ``det=+1`` for
    r < n to get rotations only.

    Parameters
    ----------
    X0, X : numpy.ndarray
        Points of St(n, r).
    order : str
        As in :func:`jacobi_givens_qr` and :func:`orthogonal_map`.
    det : int or None
        As in :func:`jacobi_givens_qr` and :func:`orthogonal_map`.
    tol : float
        As in :func:`jacobi_givens_qr` and :func:`orthogonal_map`.

    Returns
    -------
    list of (i, j, V)
        The factors.

    Raises
    ------
    ValueError
        As :func:`orthogonal_map`.
    """
    D = orthogonal_map(X0, X, det=det, tol=tol)
    return jacobi_givens_qr(D, order=order, tol=1e-8)


def factor_count(n: int) -> int:
    """C(n, 2), the number of factors of Theorem 3.1(a).

    Parameters
    ----------
    n : int
        The dimension.

    Returns
    -------
    int
        C(n, 2).
    """
    return comb(n, 2)


def closest_with_det(T, det: int) -> tuple[np.ndarray, float]:
    """The point of {X in O(n): det X = det} closest to T in O(n), and the squared distance.

    For det T = det this is T itself (distance 0). Otherwise one minimizer is T
    with its last column negated, and the minimum of ||X - T||_F^2 is exactly 4:
    M = T^T X is orthogonal with det -1, so it has an eigenvalue -1 and
    tr M <= n - 2, hence ||X - T||^2 = 2n - 2 tr M >= 4. It is the floor that a
    rotations-only method (det X stays det X0) can never go below.

    Parameters
    ----------
    T : array_like
        A point of O(n).
    det : int
        +1 or -1.

    Returns
    -------
    tuple
        The closest point and the squared distance.

    Raises
    ------
    ValueError
        If det is neither +1 nor -1.
    """
    T = _check_orthogonal(T, "T", 1e-8)
    if det not in (1, -1):
        raise ValueError(f"det must be +1 or -1, got det = {det!r}")
    if np.linalg.det(T) * det > 0:
        return T.copy(), 0.0
    X = T.copy()
    X[:, -1] = -X[:, -1]
    return X, float(np.sum((X - T) ** 2))


def random_orthogonal(n: int, det: int, rng=None) -> np.ndarray:
    """A Haar-random point of O(n) with the given determinant (+1 or -1).

    A Haar point of St(n, n) has det +-1 with probability 1/2 each; flipping one column
    maps one half onto the other, so the result is Haar on that half.

    Parameters
    ----------
    n : int
        The dimension.
    det : int
        +1 or -1.
    rng : int, numpy.random.Generator or None
        Draws the point.

    Returns
    -------
    numpy.ndarray
        The point.

    Raises
    ------
    ValueError
        If det is neither +1 nor -1.
    """
    if det not in (1, -1):
        raise ValueError(f"det must be +1 or -1, got det = {det!r}")
    D = random_stiefel(n, n, rng)
    if np.sign(np.linalg.det(D)) != det:
        D[:, 0] = -D[:, 0]
    return D
