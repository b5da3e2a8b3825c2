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
feasible, and the search stops at a point no single move, scored this way, improves by more than ``tol``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..validation import as_matrix, check_symmetric


@dataclass
class PartitionResult:
    """``X`` (n x r, X >= 0, X^T X = I), its ``F`` = -1/2 tr(X^T C X), ``F_start`` (the start's F), ``moves``
    (single-feature moves applied) and ``history`` (F after the start's polish and after each move).

    Attributes
    ----------
    X : numpy.ndarray
        (n, r), X >= 0 and X^T X = I.
    F : float
        -1/2 tr(X^T C X).
    F_start : float
        F at the start X0 (before the polish).
    moves : int
        The single-feature moves applied.
    history : list of float
        F after the start's polish and after each move.
    """

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


def _move_gains(C: np.ndarray, X: np.ndarray, CX: np.ndarray, mu: np.ndarray):
    """Gains in sum_j x_j^T C x_j of every single-feature move, in closed form (module docstring):
    ``(owner, total, drop)`` with total[i, k] for moving feature i to column k (-inf where not allowed) and
    drop[i] for taking it out of every column; owner[i] is its column (-1: none)."""
    n, r = X.shape
    diag = np.diag(C)
    owner = np.where((X > 0).any(axis=1), np.argmax(X, axis=1), -1)       # disjoint supports: one owner per row
    rows, own = np.arange(n), np.maximum(owner, 0)
    xi = X[rows, own] * (owner >= 0)                                       # x_{i, owner}
    ci = CX[rows, own]                                                     # (C x_owner)_i
    rest = 1.0 - xi**2
    with np.errstate(divide="ignore", invalid="ignore"):
        removed = np.where(rest > 1e-14, (mu[own] - 2 * xi * ci + xi**2 * diag) / rest, 0.0)
    loss = np.where(owner >= 0, mu[own] - removed, 0.0)                    # what leaving the owner costs
    # adding feature i to column k: top eigenvalue of [[mu_k, c], [c, C_ii]], c = (C x_k)_i >= 0 for a
    # nonnegative eigenvector (c < 0: the best nonnegative combination is x_k alone, no gain)
    c = np.maximum(CX, 0.0)
    half = 0.5 * (mu[None, :] - diag[:, None])
    top = 0.5 * (mu[None, :] + diag[:, None]) + np.sqrt(half**2 + c**2)
    total = np.where(c > 0, top - mu[None, :], 0.0) - loss[:, None]
    total[rows[owner >= 0], owner[owner >= 0]] = -np.inf                  # staying is not a move
    total[rest <= 1e-14, :] = -np.inf                                      # a column may not become empty
    drop = -loss
    drop[(owner < 0) | (rest <= 1e-14)] = -np.inf
    return owner, total, drop


def _best_move(C: np.ndarray, X: np.ndarray, CX: np.ndarray, mu: np.ndarray):
    """The single-feature move with the largest gain: (gain, i, source, target), -1 for "no column"."""
    owner, total, drop = _move_gains(C, X, CX, mu)
    i, k = np.unravel_index(int(np.argmax(total)), total.shape)
    if drop.max() > total[i, k]:
        i = int(np.argmax(drop))
        return float(drop[i]), i, int(owner[i]), -1
    return float(total[i, k]), int(i), int(owner[i]), int(k)


def improving_rows(C, X, tol: float = 1e-15) -> int:
    """How many features of a feasible X (X >= 0, X^T X = I) have a single-feature move (to another column, or
    in or out of every column, scored in closed form) that lowers F = -1/2 tr(X^T C X) by more than
    tol (1 + |F|): moves a two-row block step under X >= 0 cannot make (it can only exchange two rows).

    Parameters
    ----------
    C : array_like
        (n, n) covariance.
    X : array_like
        (n, r), feasible: X >= 0, X^T X = I.
    tol : float
        A move counts when it lowers F by more than tol (1 + |F|).

    Returns
    -------
    int
        The number of such features (rows).
    """
    C, X = np.asarray(C, dtype=float), np.asarray(X, dtype=float)
    CX = C @ X
    mu = np.einsum("ij,ij->j", X, CX)
    _, total, drop = _move_gains(C, X, CX, mu)
    threshold = 2.0 * tol * (1.0 + 0.5 * abs(float(mu.sum())))
    return int(np.sum(np.maximum(total.max(axis=1), drop) > threshold))


def alpha_study(C, rs, alphas, *, time_limit: float | None = None, max_iter: int | None = None, rng=0) -> list[dict]:
    """Nonnegative PCA at several alpha (issue 27): for each r, OBCD from the identity start (the paper's "(id)")
    at each alpha and at the default (``alpha=None``: 1e-5 ||C||_2), the partition search from the best OBCD
    point, and the bound -1/2 (sum of the r largest eigenvalues of C). Rows: r, method, alpha, default, F,
    iterations (moves for the search), seconds, improving (features with an improving single-row move).

    Parameters
    ----------
    C : array_like
        (n, n) covariance (symmetric PSD).
    rs : iterable of int
        The numbers of columns r.
    alphas : iterable of float
        OBCD's proximal parameters (eq. (11)) tried besides the default.
    time_limit : float or None
        OBCD's time limit per run, seconds.
    max_iter : int or None
        OBCD's iterations per run.
    rng : numpy.random.Generator or int or None
        OBCD's random source (the blocks).

    Returns
    -------
    list of dict
        One row per (r, method, alpha), with the keys above.
    """
    from ..problems import nonneg_pca
    from ..solvers import get_solver
    from ..solvers.obcd import default_alpha

    C = as_matrix(C, "C")
    problem = nonneg_pca(C)
    obcd = get_solver("obcd")
    eig = np.sort(np.linalg.eigvalsh(C))[::-1]
    rows = []
    for r in rs:
        X0 = np.eye(C.shape[0])[:, :r]
        best = None
        for alpha in (*alphas, None):
            result = obcd(problem, X0, time_limit=time_limit, max_iter=max_iter, alpha=alpha, rng=rng)
            rows.append({"r": r, "method": "OBCD(id)", "alpha": default_alpha(problem) if alpha is None else alpha,
                         "default": alpha is None, "F": result.F, "iterations": result.iterations,
                         "seconds": result.seconds, "improving": improving_rows(C, result.X)})
            if best is None or result.F < best.F:
                best = result
        start = time.perf_counter()
        search = partition_search(C, best.X)
        rows.append({"r": r, "method": "partition search (from the best OBCD point)", "alpha": None, "default": False,
                     "F": search.F, "iterations": search.moves, "seconds": time.perf_counter() - start,
                     "improving": improving_rows(C, search.X)})
        rows.append({"r": r, "method": "bound -1/2 sum of the r largest eigenvalues", "alpha": None, "default": False,
                     "F": -0.5 * float(eig[:r].sum()), "iterations": 0, "seconds": 0.0, "improving": None})
    return rows


def partition_search(C, X0, *, max_moves: int = 100_000, polish_iters: int = 200, tol: float = 1e-15) -> PartitionResult:
    """Local search over single-feature moves for nonnegative PCA (module docstring), from a feasible X0.

    Parameters
    ----------
    C : array_like
        (n, n) covariance (symmetric PSD; F = -1/2 tr(X^T C X), the scaling of ``nonneg_pca``).
    X0 : array_like
        (n, r) start with X0 >= 0 and X0^T X0 = I (e.g. OBCD's output).
    max_moves : int
        The budget of moves.
    polish_iters : int
        Power iterations per touched column.
    tol : float
        A move must lower F by more than tol (1 + |F|).

    Returns
    -------
    PartitionResult
        The last point, no worse than X0.

    Raises
    ------
    ValueError
        If C is not symmetric or X0 is not a feasible point with n rows.
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


__all__ = ["PartitionResult", "partition_search", "improving_rows", "alpha_study"]
