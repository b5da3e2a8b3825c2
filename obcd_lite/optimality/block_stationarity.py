"""Optimality tests along the paper's hierarchy: critical ⊇ BS_2 ⊇ BS_3 ⊇ ... ⊇ global (Theorem 3.8).

A point X is a block-k stationary point (BS_k, Definition 3.6) when, for every working set B of
size k, V = I_k is a global minimizer of the majorizer K(V; X, B) of eq. (11). The test solves
each block subproblem globally (the breakpoint search for k = 2; the SVD of Lemma 2.3(b) for
k > 2, h = 0, scalar Q) and reports the gap K(I; X, B) - min_V K(V; X, B) >= 0.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..subproblem import Q_CHOICES, block_data, majorizer_value, solve_2x2_unchecked, solve_kxk
from ..validation import as_matrix, check_nonnegative, check_stiefel


def block_gaps(problem, X, k: int = 2, *, alpha: float = 1e-5, Q: str = "exact") -> dict:
    """K(I; X, B) - min_V K(V; X, B) for every working set B of size k, as {B: gap}.

    Every gap is >= 0 up to rounding; all are 0 exactly when X is a BS_k point.
    k > 2 needs h = 0 and Q = "scalar" (the subproblem is then solved by an SVD).
    """
    X = as_matrix(X, "X")
    check_stiefel(X, "X")
    problem.check_point(X, "X")
    n = X.shape[0]
    if not isinstance(k, (int, np.integer)) or not 2 <= k <= n:
        raise ValueError(f"k must be an integer with 2 <= k <= n = {n}, got k = {k!r}")
    alpha = check_nonnegative(alpha, "alpha", strict=True)
    if Q not in Q_CHOICES:
        raise ValueError(f"Q must be 'exact' or 'scalar', got {Q!r}")
    h = problem.h
    if k > 2 and not (h.is_zero and Q == "scalar"):
        raise ValueError(f"k = {k} > 2 needs h = Zero() and Q = 'scalar' (Lemma 2.3(b)); got h = {h!r}, Q = {Q!r}")
    G = problem.grad(X)
    gaps = {}
    for B in itertools.combinations(range(n), k):
        Qt, P, Z, _ = block_data(problem, X, G, list(B), alpha, Q)
        stay = majorizer_value(Qt, P, np.eye(k), Z, h)
        if k == 2:
            best = solve_2x2_unchecked(Qt, P, Z, h).value
        else:
            V = solve_kxk(P)
            best = majorizer_value(Qt, P, V, V @ Z, h)
        gaps[B] = stay - best
    return gaps


def is_block_stationary(problem, X, k: int = 2, *, alpha: float = 1e-5, Q: str = "exact",
                        tol: float = 1e-10) -> bool:
    """Whether X is a BS_k point: every block gap <= tol (1 + |F(X)|) (Definition 3.6)."""
    tol = check_nonnegative(tol, "tol")
    gaps = block_gaps(problem, X, k, alpha=alpha, Q=Q)
    return max(gaps.values()) <= tol * (1.0 + abs(problem.F(np.asarray(X, dtype=float))))


def riemannian_gradient_norm(problem, X) -> float:
    """||grad f(X) - X grad f(X)^T X||_F, zero exactly at the critical points of a smooth problem
    (Definition 3.4 with h = 0)."""
    if not problem.h.is_zero:
        raise ValueError(f"riemannian_gradient_norm is for h = Zero(); got h = {problem.h!r} "
                         "(with a nonsmooth h criticality is a set condition)")
    X = as_matrix(X, "X")
    G = problem.grad(X)
    return float(np.linalg.norm(G - X @ G.T @ X))
