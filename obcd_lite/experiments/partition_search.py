"""A reference point for nonnegative PCA (issue 27): a local search over partitions of the features.

Nonnegative PCA is min F(X) = -1/2 tr(X^T C X) s.t. X^T X = I, X >= 0 (Appendix E.1). Two nonnegative
orthogonal columns have disjoint supports, so a feasible X is a partition of (some of) the n features into r
groups plus one nonnegative unit vector per group, and F = -1/2 sum_j x_j^T C x_j. This search moves **one
feature at a time** from its column to another column (or in or out of every column), which OBCD cannot
do: a two-row block step under X >= 0 can only exchange two rows, so OBCD's limits can still have improving
single-row moves however small alpha is (notebook 04).

Each move is scored exactly in closed form from CX (O(1) per candidate, all n (r + 1) candidates at once):
removing feature i from column x_j leaves x_j - x_ij e_i (renormalized); adding it to x_k gives the best
unit vector in span{x_k, e_i} with nonnegative weights, the top eigenvector of a 2 x 2 matrix. The best
improving move is applied, then the two columns it touched are polished by the projected power iteration
x <- P_+(C x) / ||P_+(C x)|| on their supports, which never lowers x^T C x when C is PSD (a covariance):
convexity of x^T C x makes each step a minorize-maximize step. So F never increases, every iterate is
feasible, and the search stops at a point no single move improves (by more than ``tol``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..validation import as_matrix, check_symmetric


@dataclass
class PartitionResult:
    """``X`` (n x r, X >= 0, X^T X = I), its ``F`` = -1/2 tr(X^T C X), ``F_start`` (the start's F), ``moves``
    (single-feature moves applied) and ``history`` (F after the start's polish and after each move)."""

    X: np.ndarray
    F: float
    F_start: float
    moves: int
    history: list


def _polish(C: np.ndarray, x: np.ndarray, iters: int) -> np.ndarray:
    """Projected power iteration on the support of x (nonnegative, unit); never lowers x^T C x for PSD C."""
    support = x > 0
    if not support.any():
        return x
    M = C[np.ix_(support, support)]
    y = x[support]
    value = float(y @ M @ y)
    for _ in range(iters):
        z = np.maximum(M @ y, 0.0)
        norm = np.linalg.norm(z)
        if norm == 0.0:
            break
        z /= norm
        new = float(z @ M @ z)
        if new <= value:
            break
        y, value = z, new
    out = np.zeros_like(x)
    out[support] = y
    return out


def _best_move(C: np.ndarray, X: np.ndarray, CX: np.ndarray, mu: np.ndarray):
    """The single-feature move with the largest gain in sum_j x_j^T C x_j: (gain, i, source, target), source or
    target = -1 for "no column". Closed forms (module docstring)."""
    n, r = X.shape
    diag = np.diag(C)
    owner = np.where((X > 0).any(axis=1), np.argmax(X, axis=1), -1)       # disjoint supports: one owner per row
    xi = X[np.arange(n), np.maximum(owner, 0)] * (owner >= 0)              # x_{i, owner}
    ci = CX[np.arange(n), np.maximum(owner, 0)]                            # (C x_owner)_i
    rest = 1.0 - xi**2
    mu_owner = mu[np.maximum(owner, 0)]
    with np.errstate(divide="ignore", invalid="ignore"):
        removed = np.where(rest > 1e-14, (mu_owner - 2 * xi * ci + xi**2 * diag) / rest, 0.0)
    loss = np.where(owner >= 0, mu_owner - removed, 0.0)                   # what leaving the owner costs
    # adding feature i to column k: top eigenvalue of [[mu_k, c], [c, C_ii]], c = (C x_k)_i >= 0 for a
    # nonnegative eigenvector (c < 0: the best nonnegative combination is x_k alone, no gain)
    c = np.maximum(CX, 0.0)
    half = 0.5 * (mu[None, :] - diag[:, None])
    top = 0.5 * (mu[None, :] + diag[:, None]) + np.sqrt(half**2 + c**2)
    gain_add = np.where(c > 0, top - mu[None, :], 0.0)
    gain_add[np.arange(n), np.maximum(owner, 0)] = np.where(owner >= 0, -np.inf, gain_add[np.arange(n), 0])
    total = gain_add - loss[:, None]
    total[rest <= 1e-14, :] = -np.inf                                      # a column may not become empty
    drop = -loss                                                           # to no column
    drop[(owner < 0) | (rest <= 1e-14)] = -np.inf
    i, k = np.unravel_index(int(np.argmax(total)), total.shape)
    if drop.max() > total[i, k]:
        i = int(np.argmax(drop))
        return float(drop[i]), i, int(owner[i]), -1
    return float(total[i, k]), int(i), int(owner[i]), int(k)


def partition_search(C, X0, *, max_moves: int = 100_000, polish_iters: int = 200, tol: float = 1e-15) -> PartitionResult:
    """Local search over single-feature moves for nonnegative PCA (module docstring), from a feasible X0.

    Parameters
    ----------
    C : (n, n) covariance (symmetric PSD; F = -1/2 tr(X^T C X), the scaling of ``nonneg_pca``).
    X0 : (n, r) start with X0 >= 0 and X0^T X0 = I (e.g. OBCD's output).
    max_moves : budget of moves; polish_iters : power iterations per touched column.
    tol : a move must lower F by more than tol (1 + |F|).
    """
    C = as_matrix(C, "C")
    check_symmetric(C, "C")
    X = np.array(as_matrix(X0, "X0"), dtype=float)
    if X.shape[0] != C.shape[0]:
        raise ValueError(f"X0 must have n = {C.shape[0]} rows, got shape {X.shape}")
    if np.any(X < 0) or not np.allclose(X.T @ X, np.eye(X.shape[1]), atol=1e-10):
        raise ValueError("X0 must satisfy X0 >= 0 and X0^T X0 = I (a feasible point of nonnegative PCA)")
    F_start = -0.5 * float(np.trace(X.T @ C @ X))
    for j in range(X.shape[1]):
        X[:, j] = _polish(C, X[:, j], polish_iters)
    CX = C @ X
    mu = np.einsum("ij,ij->j", X, CX)
    history = [-0.5 * float(mu.sum())]
    moves = 0
    while moves < max_moves:
        gain, i, source, target = _best_move(C, X, CX, mu)
        if not gain > 2.0 * tol * (1.0 + abs(history[-1])):
            break
        trial = X.copy()
        if source >= 0:
            trial[i, source] = 0.0
            trial[:, source] /= np.linalg.norm(trial[:, source])
        if target >= 0:
            x, c = trial[:, target], max(float(CX[i, target]), 0.0)
            w, V = np.linalg.eigh(np.array([[mu[target], c], [c, C[i, i]]]))
            a, b = np.abs(V[:, -1])
            x = a * x
            x[i] = b
            trial[:, target] = x / np.linalg.norm(x)
        touched = sorted({source, target} - {-1})
        trial_CX, trial_mu = CX.copy(), mu.copy()
        for j in touched:  # only the two touched columns change: O(n^2) per move, not O(n^2 r)
            trial[:, j] = _polish(C, trial[:, j], polish_iters)
            trial_CX[:, j] = C @ trial[:, j]
            trial_mu[j] = float(trial[:, j] @ trial_CX[:, j])
        F_trial = -0.5 * float(trial_mu.sum())
        if not F_trial < history[-1] - tol * (1.0 + abs(history[-1])):
            break
        X, CX, mu = trial, trial_CX, trial_mu
        history.append(F_trial)
        moves += 1
    return PartitionResult(X=X, F=history[-1], F_start=F_start, moves=moves, history=history)


__all__ = ["PartitionResult", "partition_search"]
