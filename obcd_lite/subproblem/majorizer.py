"""The block data of problem (3) and the majorizer K(V; X, B) of eq. (11).

For a working set B of k rows with Z = X(B, :), Lemma 2.3(a) writes the majorizer as

    K(V; X, B) = 1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z) + const,
    Qt = Q + alpha I,   P = [grad f(X) X^T]_BB - mat(Q vec(I_k)) - alpha I_k,

with Q from eq. (9) ("exact") or eq. (10) ("scalar": varsigma of Lemma C.2(a), which depends on the
block; "lipschitz": varsigma = L_f, the same for every block, which eq. (10) also allows since
||Q_exact||_2 <= ||Z D Z^T||_2 ||C_BB||_2 <= ||D||_2 ||C||_2 = L_f). Theorem 3.8(c) (BS_3 => BS_2) holds
for "exact" and "lipschitz" and fails for "scalar" (notebook 05). "lipschitz_z" is Lemma C.2(b)'s
varsigma = L_f ||Z||_2^2 (H = L_f I): block-dependent too, but it never produces a Theorem 3.8(c) witness at
an eigenvector (h = 0, r = 1): I is optimal on B iff varsigma >= lam ||x_B||^2, always true for L_f >= |lam|. Every caller (the OBCD driver, the
BS_k certificates, the 2x2 teaching examples) gets (Qt, P, Z) from :func:`block_data` and values of K
from :func:`majorizer_value`.
"""
from __future__ import annotations

import numpy as np

from ..stiefel import polar
from ..validation import as_matrix, check_nonnegative
from .breakpoint import solve_2x2_unchecked

#: The Q choices of eqs. (9) and (10) that OBCD runs.
Q_CHOICES = ("exact", "scalar")
#: Those and the block-independent varsigma = L_f of eq. (10), which the BS_k certificates also accept.
MAJORIZER_Q = (*Q_CHOICES, "lipschitz", "lipschitz_z")
_IDENTITIES = {k: (np.eye(k), np.eye(k * k)) for k in range(2, 9)}


def block_data(problem, X: np.ndarray, G: np.ndarray, B, alpha: float, Q: str):
    """Problem (3) for the block B at X (Lemma 2.3(a)).

    Parameters
    ----------
    problem : QuadraticProblem
        Or any object with ``exact_Q``, ``scalar_Q`` (and ``block_2x2`` for k = 2, compiled, if it has one).
    X : numpy.ndarray
        (n, r), the point.
    G : numpy.ndarray
        (n, r), grad f(X).
    B : sequence of int
        The k row indices.
    alpha : float
        The proximal parameter of eq. (11).
    Q : str
        "exact" (eq. (9)), "scalar" (eq. (10), varsigma of Lemma C.2(a)) or "lipschitz" (eq. (10),
        varsigma = L_f = ``problem.lipschitz()``) or "lipschitz_z" (eq. (10), Lemma C.2(b):
        varsigma = L_f ||Z||_2^2).

    Returns
    -------
    tuple of numpy.ndarray
        ``(Qt, P, Z)``: Qt = Q + alpha I (k^2 x k^2), P = [grad f(X) X^T]_BB - mat(Q vec(I_k)) - alpha I_k
        (k x k) and Z = X(B, :).

    Raises
    ------
    ValueError
        Naming the value for an unknown Q, a B with repeated, negative or out-of-range rows, a negative or
        non-finite alpha, or X and G of different shapes.
    """
    X = np.asarray(X)
    if X.ndim != 2 or np.shape(G) != X.shape:
        raise ValueError(f"X and G must be (n, r) arrays of the same shape, got X {X.shape} and G {np.shape(G)}")
    if Q not in MAJORIZER_Q:
        raise ValueError(f"Q must be one of {', '.join(MAJORIZER_Q)}, got Q = {Q!r}")
    alpha = check_nonnegative(alpha, "alpha")
    return block_data_unchecked(problem, X, G, _check_block(B, X.shape[0]), alpha, Q)


def _check_block(B, n: int) -> np.ndarray:
    """B as an int array of k >= 2 distinct rows in [0, n), or a ValueError naming B."""
    B = np.asarray(B)
    if (B.ndim != 1 or not 2 <= B.size <= n or B.dtype.kind not in "iu" or np.any(B < 0) or np.any(B >= n)
            or len(np.unique(B)) != B.size):
        raise ValueError(f"B must be k >= 2 distinct row indices in [0, n = {n}), got B = {B.tolist()!r}")
    return B


def block_data_unchecked(problem, X: np.ndarray, G: np.ndarray, B, alpha: float, Q: str):
    """:func:`block_data` without its input checks, for the OBCD loop (which checks its own).

    Parameters
    ----------
    problem : QuadraticProblem or Problem
        As for :func:`block_data`.
    X, G : numpy.ndarray, shape (n, r)
        The point and grad f(X).
    B : numpy.ndarray of int
        The k row indices, distinct (already checked).
    alpha : float
        The proximal parameter of eq. (11), >= 0 (already checked).
    Q : str
        One of ``MAJORIZER_Q`` (already checked), as for :func:`block_data`.

    Returns
    -------
    tuple of numpy.ndarray
        ``(Qt, P, Z)`` as from :func:`block_data`.
    """
    k = len(B)
    if k == 2 and Q in Q_CHOICES and hasattr(problem, "block_2x2"):  # compiled, the same arithmetic as the compiled OBCD engine
        return problem.block_2x2(X, G, B, alpha, Q)
    Ik, Ik2 = _IDENTITIES[k] if k in _IDENTITIES else (np.eye(k), np.eye(k * k))
    Z = X[B]
    M = G[B] @ Z.T  # [grad f(X) X^T]_BB
    if Q == "exact":
        Qm = problem.exact_Q(B, Z)
        # mat(Q vec(I)): vec(I) is symmetric in the stacking; mat() unstacks columns
        return Qm + alpha * Ik2, M - (Qm @ Ik.reshape(-1)).reshape(k, k).T - alpha * Ik, Z
    if Q == "lipschitz_z":
        varsigma = problem.lipschitz() * float(np.linalg.norm(Z, 2)) ** 2
    else:
        varsigma = problem.lipschitz() if Q == "lipschitz" else problem.scalar_Q(B, Z)
    return (*scalar_majorizer(M, varsigma + alpha), Z)


def scalar_majorizer(M: np.ndarray, shift: float) -> tuple[np.ndarray, np.ndarray]:
    """``(Qt, P)`` of Lemma 2.3(a) for Q = varsigma I (eq. (10)).

    Parameters
    ----------
    M : numpy.ndarray
        (k, k), [grad f(X) X^T]_BB.
    shift : float
        varsigma + alpha.

    Returns
    -------
    tuple of numpy.ndarray
        ``(Qt, P)``: Qt = shift I (k^2 x k^2), P = M - shift I (k x k).
    """
    k = len(M)
    Ik, Ik2 = _IDENTITIES[k] if k in _IDENTITIES else (np.eye(k), np.eye(k * k))
    return shift * Ik2, M - shift * Ik


def majorizer_value(Qt: np.ndarray, P: np.ndarray, V: np.ndarray, VZ: np.ndarray, h) -> float:
    """K(V; X, B) up to its constant: 1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z).

    Parameters
    ----------
    Qt, P : numpy.ndarray
        The block data of :func:`block_data`.
    V : numpy.ndarray
        (k, k).
    VZ : numpy.ndarray
        (k, r), the rows V Z (with their exact zeros).
    h : Penalty
        The penalty.

    Returns
    -------
    float
        K(V; X, B) less its constant.

    Raises
    ------
    TypeError
        For an h that is not callable (a Penalty is), or non-real arrays.
    ValueError
        Naming the array: V not square (k x k), Qt not k^2 x k^2, P not k x k, VZ without k rows, or a
        non-finite entry.
    """
    V = as_matrix(V, "V")
    k = V.shape[0]
    V = as_matrix(V, "V", (k, k))
    Qt = as_matrix(Qt, "Qt", (k * k, k * k))
    P = as_matrix(P, "P", (k, k))
    VZ = as_matrix(VZ, "VZ", (k, None))
    if not callable(h):  # a Penalty, or any h(VZ) -> float (the tests pass a lambda for h = 0)
        raise TypeError(f"h must be a Penalty (callable on V Z), got h = {h!r}")
    return majorizer_value_unchecked(Qt, P, V, VZ, h)


def majorizer_value_unchecked(Qt: np.ndarray, P: np.ndarray, V: np.ndarray, VZ: np.ndarray, h) -> float:
    """:func:`majorizer_value` without its checks, for loops over blocks whose data :func:`block_data` made.

    Parameters
    ----------
    Qt, P, V, VZ : numpy.ndarray
        As for :func:`majorizer_value`, already of matching shapes and finite.
    h : Penalty or callable
        As for :func:`majorizer_value`.

    Returns
    -------
    float
        The value.
    """
    v = V.T.reshape(-1)  # vec stacks columns
    return float(0.5 * v @ Qt @ v + np.vdot(V, P) + h(VZ))


def solve_kxk(P: np.ndarray) -> np.ndarray:
    """Lemma 2.3(b): argmin_{V in O(k)} <V, P> = -polar(P), the case h = 0, Q = varsigma I.

    Parameters
    ----------
    P : array_like
        (k, k), the linear term.

    Returns
    -------
    numpy.ndarray
        (k, k) orthogonal.

    Raises
    ------
    ValueError
        If P is not square.
    """
    P = as_matrix(P, "P")
    if P.shape[0] != P.shape[1]:
        raise ValueError(f"P must be square, got shape {P.shape}")
    return -polar(P)


def minimize_block(Qt: np.ndarray, P: np.ndarray, Z: np.ndarray, h, branches: str = "both"):
    """``(V, V Z)``: a global minimizer over O(k) of K(V; X, B) of eq. (11) up to its constant,
    1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z) (Lemma 2.3(a)).

    k = 2: the breakpoint search (``breakpoint.solve_2x2_unchecked``), for any symmetric Qt: the exact Q of
    eq. (9) (a Kronecker product (Z D Z^T) (x) C_BB, plus alpha I) as well as the scalar Q of eq. (10)
    (Qt = (varsigma + alpha) I). k > 2: the polar factor of Lemma 2.3(b), which holds only for h = 0 and a
    scalar Q (Qt a multiple of the identity: then 1/2 vec(V)^T Qt vec(V) is constant on O(k) and only
    <V, P> is minimized); the caller guarantees both (``obcd`` declines other k > 2 runs).

    Parameters
    ----------
    Qt : numpy.ndarray
        (k^2, k^2), Q + alpha I of Lemma 2.3(a), symmetric (any such matrix for k = 2; a multiple of the
        identity for k > 2).
    P : numpy.ndarray
        (k, k), [grad f(X) X^T]_BB - mat(Q vec(I_k)) - alpha I_k.
    Z : numpy.ndarray
        (k, r), X(B, :).
    h : Penalty
        The separable nonsmooth part (``Zero()`` for k > 2).
    branches : str
        "both", "rot" or "ref": the circles of O(2) searched for k = 2.

    Returns
    -------
    tuple of numpy.ndarray
        ``(V, V Z)``: V (k, k) in O(k) and the new rows (k, r).
    """
    if len(Z) == 2:
        sol = solve_2x2_unchecked(Qt, P, Z, h, branches)
        return sol.V, sol.VZ
    V = solve_kxk(P)
    return V, V @ Z


def hessian_Q(hessvec, X: np.ndarray, B) -> np.ndarray:
    """Eq. (9) for the block B from k^2 Hessian-vector products (4 for a pair): Q = (Z^T (x) U_B)^T H (Z^T (x) U_B).

    Column q of Q (vec stacks columns: q = a + k b for the entry (a, b) of a k x k matrix) is the Hessian
    applied to the direction U_B E_ab Z (row B[a] holds Z's row b, every other row 0), read on the block:
    Q[p, q] = <U_B E_p Z, H[U_B E_q Z]> = vec(W_q Z^T)[p] with W_q = (H[U_B E_q Z])(B, :). For a quadratic f
    (H = D (x) C: hessvec(X, V) = C V D) this is the exact Q of ``QuadraticProblem.exact_Q``; for any other f
    it is the Hessian's curvature along the block at X, a second-order model and **not** a majorizer
    (f's curvature changes along the step): OBCD uses it only with varsigma added and the majorization checked
    (``solvers.obcd_smooth``, ``solvers.obcd_pairs``).

    Parameters
    ----------
    hessvec : callable
        (X, V) -> the Euclidean Hessian of f at X applied to V, (n, r) (e.g. ``SmoothProblem.hessvec``).
    X : numpy.ndarray
        (n, r), the point.
    B : sequence of int
        The k >= 2 distinct row indices.

    Returns
    -------
    numpy.ndarray
        (k^2, k^2), symmetric (the products' rounding asymmetry averaged out).

    Raises
    ------
    TypeError
        For a hessvec that is not callable.
    ValueError
        Naming B for repeated or out-of-range rows.
    """
    if not callable(hessvec):
        raise TypeError(f"hessvec must be callable ((X, V) -> Hessian of f at X applied to V), got {hessvec!r}")
    X = as_matrix(X, "X")
    B = _check_block(B, X.shape[0])
    k = B.size
    Z = X[B]
    Q = np.empty((k * k, k * k))
    D = np.zeros_like(X)
    for b in range(k):
        for a in range(k):
            D[B[a]] = Z[b]
            W = np.asarray(hessvec(X, D))[B]
            D[B[a]] = 0.0
            Q[:, a + k * b] = (W @ Z.T).reshape(-1, order="F")
    return 0.5 * (Q + Q.T)


def hessian_majorizer(Qh: np.ndarray, M: np.ndarray, shift: float) -> tuple[np.ndarray, np.ndarray]:
    """``(Qt, P)`` of Lemma 2.3(a) for Q = Qh + varsigma I (Qh from :func:`hessian_Q`), shift = varsigma + alpha.

    Parameters
    ----------
    Qh : numpy.ndarray
        (k^2, k^2), the Hessian's block Q of eq. (9).
    M, shift : numpy.ndarray, float
        As for :func:`scalar_majorizer`.

    Returns
    -------
    tuple of numpy.ndarray
        ``(Qt, P)``: Qt = Qh + shift I, P = M - mat(Qh vec(I)) - shift I.
    """
    Qt, P = scalar_majorizer(M, shift)
    # mat(Q vec(I)): vec(I) is symmetric in the stacking; mat() unstacks columns
    return Qh + Qt, P - (Qh @ np.eye(len(M)).reshape(-1)).reshape(len(M), len(M)).T
