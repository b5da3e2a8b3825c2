"""OBCD's whole k = 2 iteration compiled with numba: the "compiled" engine of :func:`~.obcd.obcd`.

One call of :func:`run_steps` does a chunk of Algorithm 1 iterations on a ``QuadraticProblem``
f(X) = 1/2 tr(X^T C X D) + <X, L> + const with a built-in penalty, for working sets drawn by the
Python driver (the same draws as the Python engine). Each iteration is the Python engine's, step
by step and in the same floating-point order where it matters:

1. block data of Lemma 2.3(a): Z = X(B, :), M = [G X^T]_BB, Q from eq. (9) ((Z D Z^T) (x) C_BB) or
   eq. (10) (varsigma I, varsigma = ||Z D Z^T||_2 ||C_BB||_2), Qt = Q + alpha I and P;
2. the coefficients of eq. (1-D) and the compiled sweep ``subproblem.sweep.sweep_2x2`` (called,
   not copied), which returns V Z with its zeros to rounding exact;
3. X(B, :) <- V Z, the exact change of f, <dZ, G_B> + 1/2 tr(dZ^T C_BB dZ D), and of h;
4. G += C(:, B) dZ D (Appendix C.3 (i)) as a rank-2 update read row by row: C is symmetric, so
   column B of C is row B, and row i of G gains C[b1, i] W[0] + C[b2, i] W[1] with W = dZ D.

Memory beyond X, G and C: the buffers of one chunk, O(r) (plus r x r-free: D is used as given).
The loop itself allocates nothing; the sweep allocates its O(r) scratch arrays per call.
L enters only through G (whose update does not involve it) and the starting F.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..penalties import CAPPED_KIND, L0_KIND, L1_KIND, NONNEG_KIND, ZERO_KIND
from ..subproblem.sweep import sweep_2x2

#: Columns of the optional per-step trace: F before - F after, ||V - I||_F^2.
TRACE_COLUMNS = ("decrease", "move")


@njit(cache=True)
def _penalty_value(M, kind, lam, tau):
    """h(M) of the built-in penalty ``kind`` (what ``Penalty.__call__`` returns)."""
    total = 0.0
    count = 0
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            u = M[i, j]
            if kind == L1_KIND:
                total += abs(u)
            elif kind == CAPPED_KIND:
                total += min(abs(u), tau)
            elif kind == L0_KIND:
                if u != 0.0:
                    count += 1
            elif kind == NONNEG_KIND:
                if not u >= 0.0:
                    return np.inf
    if kind == L0_KIND:
        return lam * count
    if kind == L1_KIND or kind == CAPPED_KIND:
        return lam * total
    return 0.0


@njit(cache=True)
def _norm_sym_2x2(p, q, s):
    """||[[p, q], [q, s]]||_2 (as ``problems._norm_sym_2x2``)."""
    return abs(0.5 * (p + s)) + math.hypot(0.5 * (p - s), q)


@njit(cache=True)
def _gram(Z, D, ZD, gram):
    """gram = Z D Z^T (Z Z^T when D is empty), 2 x 2; ZD is a (2, r) buffer."""
    r = Z.shape[1]
    left = Z
    if D.shape[0] > 0:
        for a in range(2):
            for j in range(r):
                acc = 0.0
                for l in range(r):
                    acc += Z[a, l] * D[l, j]
                ZD[a, j] = acc
        left = ZD
    for a in range(2):
        for c in range(2):
            acc = 0.0
            for j in range(r):
                acc += left[a, j] * Z[c, j]
            gram[a, c] = acc


@njit(cache=True)
def _block_coefficients(C, D, G, Z, b, alpha, exact, ZD, gram, CB, Qt, P, coef):
    """Lemma 2.3(a) for the block b = (b0, b1): fill Qt (4 x 4), P (2 x 2) and the coefficients
    (a, b, cq, d, e) of eq. (1-D) for rot (row 0) and ref (row 1), as ``block_data`` and
    ``breakpoint._scalar_coefficients`` compute them."""
    r = Z.shape[1]
    _gram(Z, D, ZD, gram)
    for a in range(2):
        for c in range(2):
            CB[a, c] = C[b[a], b[c]]
    for a in range(2):  # P starts as M = [G X^T]_BB = G_B Z^T
        for c in range(2):
            acc = 0.0
            for j in range(r):
                acc += G[b[a], j] * Z[c, j]
            P[a, c] = acc
    if exact:  # eq. (9): Q[(a, b), (c, d)] = gram[a, c] CB[b, d], rows and columns indexed 2 a + b
        for p in range(4):
            for q in range(4):
                Qt[p, q] = gram[p // 2, q // 2] * CB[p % 2, q % 2]
        for a in range(2):
            for c in range(2):
                # mat(Q vec(I))[a, c] = Q[2c + a, 0] + Q[2c + a, 3]
                P[a, c] = P[a, c] - (Qt[2 * c + a, 0] + Qt[2 * c + a, 3])
        for p in range(4):
            Qt[p, p] += alpha
        for a in range(2):
            P[a, a] = P[a, a] - alpha
    else:  # eq. (10): Qt = (varsigma + alpha) I
        shift = (_norm_sym_2x2(gram[0, 0], gram[0, 1], gram[1, 1])
                 * _norm_sym_2x2(CB[0, 0], CB[0, 1], CB[1, 1])) + alpha
        for p in range(4):
            for q in range(4):
                Qt[p, q] = shift if p == q else 0.0
        for a in range(2):
            P[a, a] = P[a, a] - shift
    half_c, half_e = 0.5 * (Qt[0, 0] + Qt[3, 3]), 0.5 * (Qt[1, 1] + Qt[2, 2])
    d_even, d_odd = Qt[2, 3] - Qt[0, 1], Qt[0, 2] - Qt[1, 3]
    p11, p12, p21, p22 = P[0, 0], P[0, 1], P[1, 0], P[1, 1]
    coef[0, 0], coef[0, 1], coef[0, 2] = p22 + p11, p12 - p21, half_c + Qt[0, 3]
    coef[0, 3], coef[0, 4] = d_even + d_odd, half_e - Qt[1, 2]
    coef[1, 0], coef[1, 1], coef[1, 2] = p22 - p11, p12 + p21, half_c - Qt[0, 3]
    coef[1, 3], coef[1, 4] = d_even - d_odd, half_e + Qt[1, 2]


@njit(cache=True)
def run_steps(C, D, X, G, blocks, alpha, exact, kind, lam, tau, first, last, F, trace):
    """Do ``len(blocks)`` OBCD iterations (k = 2) in place on X and G; return the tracked F.

    Parameters
    ----------
    C : (n, n) symmetric, C-contiguous. D : (r, r), or (0, 0) for D = I.
    X, G : (n, r) C-contiguous iterate and gradient grad f(X) = C X D + L, updated in place.
    blocks : (m, 2) int64 working sets, rows b0 < b1.
    alpha : proximal parameter of eq. (11). exact : Q of eq. (9) (True) or eq. (10) (False).
    kind, lam, tau : the penalty as the sweep reads it (``ZERO_KIND`` for h = 0).
    first, last : branches searched, 0 (rot) to 1 (ref) inclusive.
    F : F(X) on entry (tracked exactly from the change of the two rows).
    trace : (m, 2) array that receives F before - F after and ||V - I||_F^2 of every step, or
        (0, 2) for none.
    """
    r = X.shape[1]
    n = X.shape[0]
    has_D = D.shape[0] > 0
    Z = np.empty((2, r))
    dZ = np.empty((2, r))
    W = np.empty((2, r))
    VZ = np.empty((2, r))
    ZD = np.empty((2, r))
    no_rows = np.empty((2, 0))
    gram = np.empty((2, 2))
    CB = np.empty((2, 2))
    Qt = np.empty((4, 4))
    P = np.empty((2, 2))
    coef = np.empty((2, 5))
    b = np.empty(2, dtype=np.int64)
    record = trace.shape[0] > 0
    for step in range(blocks.shape[0]):
        b[0], b[1] = blocks[step, 0], blocks[step, 1]
        for a in range(2):
            for j in range(r):
                Z[a, j] = X[b[a], j]
        _block_coefficients(C, D, G, Z, b, alpha, exact, ZD, gram, CB, Qt, P, coef)
        if kind == ZERO_KIND:
            branch, c, s, _, _ = sweep_2x2(coef, no_rows, kind, 0.0, 0.0, first, last)
            v00 = c if branch == 0 else -c
            v10 = -s if branch == 0 else s
            for j in range(r):  # V Z with V = rot(theta) = [[c, s], [-s, c]] or ref = [[-c, s], [s, c]]
                VZ[0, j] = v00 * Z[0, j] + s * Z[1, j]
                VZ[1, j] = v10 * Z[0, j] + c * Z[1, j]
            h_change = 0.0
        else:
            branch, c, s, _, rows = sweep_2x2(coef, Z, kind, lam, tau, first, last)
            for a in range(2):
                for j in range(r):
                    VZ[a, j] = rows[a, j]
            h_change = _penalty_value(VZ, kind, lam, tau) - _penalty_value(Z, kind, lam, tau)
        # dZ, W = dZ D, and the exact change of f before G moves
        for a in range(2):
            for j in range(r):
                dZ[a, j] = VZ[a, j] - Z[a, j]
        if has_D:
            for a in range(2):
                for j in range(r):
                    acc = 0.0
                    for l in range(r):
                        acc += dZ[a, l] * D[l, j]
                    W[a, j] = acc
        else:
            for a in range(2):
                for j in range(r):
                    W[a, j] = dZ[a, j]
        linear = 0.0
        quadratic = 0.0
        for a in range(2):
            c0, c1 = C[b[0], b[a]], C[b[1], b[a]]    # the rows b of C(:, B) W
            for j in range(r):
                linear += dZ[a, j] * G[b[a], j]
                quadratic += dZ[a, j] * (c0 * W[0, j] + c1 * W[1, j])
        F_before = F
        F += (linear + 0.5 * quadratic) + h_change
        for a in range(2):
            for j in range(r):
                X[b[a], j] = VZ[a, j]
        row0 = C[b[0]]
        row1 = C[b[1]]
        for i in range(n):
            c0, c1 = row0[i], row1[i]
            for j in range(r):
                G[i, j] += c0 * W[0, j] + c1 * W[1, j]
        if record:
            trace[step, 0] = F_before - F
            first_diagonal = c - 1.0 if branch == 0 else -c - 1.0
            trace[step, 1] = first_diagonal * first_diagonal + (c - 1.0) ** 2 + 2.0 * s * s
    return F
