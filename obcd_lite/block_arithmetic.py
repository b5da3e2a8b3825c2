"""The k = 2 block arithmetic of a QuadraticProblem, compiled: one definition for both OBCD engines.

For f(X) = 1/2 tr(X^T C X D) + <X, L> + const and a working set B = (b0, b1) with Z = X(B, :):

* :func:`block_2x2` — Lemma 2.3(a): Qt = Q + alpha I and P = [grad f(X) X^T]_BB - mat(Q vec(I)) - alpha I,
  with Q of eq. (9), (Z D Z^T) (x) C_BB, or eq. (10), varsigma I with
  varsigma = ||Z D Z^T||_2 ||C_BB||_2 (Lemma C.2(a));
* :func:`step_2x2` — moving X by U_B dZ: the exact change of f, <dZ, G_B> + 1/2 tr(dZ^T C_BB dZ D), and
  G += C(:, B) dZ D (Appendix C.3 (i)), a rank-2 update read row by row (C is symmetric, so
  column b of C is row b, contiguous);
* :func:`coefficients_2x2` — the coefficients (a, b, cq, d, e) of eq. (1-D) of both branches from (Qt, P);
* :func:`rotate_rows` — the new rows V Z for V = rot(theta) or ref(theta).

``QuadraticProblem`` (through ``block_data`` and ``apply_step``) and the compiled OBCD kernel call
these same functions, so the two engines do the same floating-point operations and their
iterates agree to the last bit; a second implementation (NumPy's BLAS sums in its own order)
would differ by rounding, which flat minima of the subproblem amplify to ~sqrt(eps) in theta.
D is passed as a (0, 0) array when it is the identity.
"""
from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def norm_sym_2x2(p, q, s):
    """||[[p, q], [q, s]]||_2: the larger |eigenvalue|, |p + s|/2 + hypot((p - s)/2, q).

    Parameters
    ----------
    p, q, s : float
        The entries (1, 1), (1, 2) = (2, 1) and (2, 2) of the symmetric matrix.

    Returns
    -------
    float
        Its spectral norm.
    """
    return abs(0.5 * (p + s)) + math.hypot(0.5 * (p - s), q)


@njit(cache=True)
def _gram(Z, D, ZD):
    """Z D Z^T (Z Z^T when D is empty) as (g11, g12, g21, g22); ZD is a (2, r) buffer."""
    r = Z.shape[1]
    left = Z
    if D.shape[0] > 0:
        for a in range(2):
            for j in range(r):
                acc = 0.0
                for m in range(r):
                    acc += Z[a, m] * D[m, j]
                ZD[a, j] = acc
        left = ZD
    g11 = g12 = g21 = g22 = 0.0
    for j in range(r):
        g11 += left[0, j] * Z[0, j]
        g12 += left[0, j] * Z[1, j]
        g21 += left[1, j] * Z[0, j]
        g22 += left[1, j] * Z[1, j]
    return g11, g12, g21, g22


@njit(cache=True)
def block_2x2(C, D, X, G, b0, b1, alpha, exact, Z, ZD, Qt, P):
    """Fill Z = X(B, :) (2 x r), Qt (4 x 4) and P (2 x 2) of Lemma 2.3(a) for B = (b0, b1).

    vec stacks columns, so Q[(a, b), (c, d)] = gram[a, c] C_BB[b, d] with rows and columns 2 a + b
    (eq. (9)), and mat(Q vec(I))[a, c] = Q[2 c + a, 0] + Q[2 c + a, 3]. ZD is a (2, r) buffer.

    Parameters
    ----------
    C : ndarray, shape (n, n)
        The symmetric C of f.
    D : ndarray, shape (r, r) or (0, 0)
        The symmetric D of f; (0, 0) for the identity.
    X : ndarray, shape (n, r)
        The iterate.
    G : ndarray, shape (n, r)
        grad f(X).
    b0, b1 : int
        The working set B.
    alpha : float
        The proximal weight alpha of Lemma 2.3(a).
    exact : bool
        True: Q of eq. (9); False: varsigma I of eq. (10).
    Z : ndarray, shape (2, r)
        Receives X(B, :).
    ZD : ndarray, shape (2, r)
        Buffer for Z D.
    Qt : ndarray, shape (4, 4)
        Receives Q + alpha I.
    P : ndarray, shape (2, 2)
        Receives P.
    """
    r = X.shape[1]
    for j in range(r):
        Z[0, j] = X[b0, j]
        Z[1, j] = X[b1, j]
    gram = _gram(Z, D, ZD)
    for a in range(2):  # P starts as M = [G X^T]_BB = G_B Z^T
        ba = b0 if a == 0 else b1
        for c in range(2):
            acc = 0.0
            for j in range(r):
                acc += G[ba, j] * Z[c, j]
            P[a, c] = acc
    if exact:
        for p in range(4):
            bp = b0 if p % 2 == 0 else b1
            for q in range(4):
                bq = b0 if q % 2 == 0 else b1
                Qt[p, q] = gram[2 * (p // 2) + q // 2] * C[bp, bq]
        for a in range(2):
            for c in range(2):
                P[a, c] = P[a, c] - (Qt[2 * c + a, 0] + Qt[2 * c + a, 3])
        for p in range(4):
            Qt[p, p] += alpha
        for a in range(2):
            P[a, a] = P[a, a] - alpha
    else:
        shift = (norm_sym_2x2(gram[0], gram[1], gram[3])
                 * norm_sym_2x2(C[b0, b0], C[b0, b1], C[b1, b1])) + alpha
        for p in range(4):
            for q in range(4):
                Qt[p, q] = shift if p == q else 0.0
        for a in range(2):
            P[a, a] = P[a, a] - shift


@njit(cache=True)
def step_2x2(C, D, G, b0, b1, dZ, W):
    """G += C(:, B) dZ D in place; return the exact change of f, <dZ, G_B> + 1/2 tr(dZ^T C_BB dZ D).

    A step that moves nothing (V Z = Z exactly: V = I, or rows that are zero, common with sparse X)
    changes f by exactly 0 and leaves G as it is, so the O(nr) update is skipped.

    Parameters
    ----------
    C : ndarray, shape (n, n)
        As for :func:`block_2x2`.
    D : ndarray, shape (r, r) or (0, 0)
        As for :func:`block_2x2`.
    G : ndarray, shape (n, r)
        grad f(X), updated in place to grad f(X + U_B dZ).
    b0, b1 : int
        As for :func:`block_2x2`.
    dZ : ndarray, shape (2, r)
        The move of the rows B.
    W : ndarray, shape (2, r)
        Buffer that receives dZ D.

    Returns
    -------
    float
        f(X + U_B dZ) - f(X).
    """
    n, r = G.shape
    moved = False
    for a in range(2):
        for j in range(r):
            if dZ[a, j] != 0.0:
                moved = True
    if not moved:
        return 0.0
    if D.shape[0] > 0:
        for a in range(2):
            for j in range(r):
                acc = 0.0
                for m in range(r):
                    acc += dZ[a, m] * D[m, j]
                W[a, j] = acc
    else:
        for a in range(2):
            for j in range(r):
                W[a, j] = dZ[a, j]
    linear = 0.0
    quadratic = 0.0
    for a in range(2):
        ba = b0 if a == 0 else b1
        c0, c1 = C[b0, ba], C[b1, ba]    # row b_a of C(:, B) W
        for j in range(r):
            linear += dZ[a, j] * G[ba, j]
            quadratic += dZ[a, j] * (c0 * W[0, j] + c1 * W[1, j])
    row0 = C[b0]
    row1 = C[b1]
    w0 = W[0]
    w1 = W[1]
    for i in range(n):
        c0, c1 = row0[i], row1[i]
        g = G[i]
        for j in range(r):
            g[j] += c0 * w0[j] + c1 * w1[j]
    return linear + 0.5 * quadratic


@njit(cache=True)
def coefficients_2x2(Qt, P, coef):
    """Fill coef (2 x 5) with (a, b, cq, d, e) of eq. (1-D) for rot (row 0) and ref (row 1):
    a = P22 +- P11, b = P12 -+ P21, cq = (Q11 + Q44)/2 +- Q14, d = -Q12 +- Q13 -+ Q24 + Q34,
    e = (Q22 + Q33)/2 -+ Q23 (paper's 1-based indices; upper sign: rot).

    Parameters
    ----------
    Qt : numpy.ndarray, shape (4, 4)
        Q + alpha I of Lemma 2.3(a).
    P : numpy.ndarray, shape (2, 2)
        P of Lemma 2.3(a).
    coef : numpy.ndarray, shape (2, 5)
        Receives the coefficients.
    """
    half_c, half_e = 0.5 * (Qt[0, 0] + Qt[3, 3]), 0.5 * (Qt[1, 1] + Qt[2, 2])
    d_even, d_odd = Qt[2, 3] - Qt[0, 1], Qt[0, 2] - Qt[1, 3]
    p11, p12, p21, p22 = P[0, 0], P[0, 1], P[1, 0], P[1, 1]
    coef[0, 0], coef[0, 1], coef[0, 2] = p22 + p11, p12 - p21, half_c + Qt[0, 3]
    coef[0, 3], coef[0, 4] = d_even + d_odd, half_e - Qt[1, 2]
    coef[1, 0], coef[1, 1], coef[1, 2] = p22 - p11, p12 + p21, half_c - Qt[0, 3]
    coef[1, 3], coef[1, 4] = d_even - d_odd, half_e + Qt[1, 2]


@njit(cache=True)
def rotate_rows(Z, branch, c, s, out):
    """out = V Z for V = rot(theta) = [[c, s], [-s, c]] (branch 0) or ref(theta) = [[-c, s], [s, c]] (branch 1).

    Parameters
    ----------
    Z : numpy.ndarray, shape (2, r)
        The rows to rotate.
    branch : int
        The branch, 0 (rot) or 1 (ref).
    c, s : float
        cos theta, sin theta.
    out : numpy.ndarray, shape (2, r)
        Receives V Z.
    """
    first = c if branch == 0 else -c
    second = -s if branch == 0 else s
    for j in range(Z.shape[1]):
        z1, z2 = Z[0, j], Z[1, j]
        out[0, j] = first * z1 + s * z2
        out[1, j] = second * z1 + c * z2
