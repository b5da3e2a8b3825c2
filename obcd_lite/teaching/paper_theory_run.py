"""Theorem 4.2 and Lemma 4.4 checked along one OBCD run (notebook 05, Section 6): the per-step decrease of
Theorem 4.2 (:func:`theory_run`), Lemma 4.4's gamma = C(n, k) (:func:`gamma_check`) and its inequality between the
residual and the block residuals (:func:`block_residuals`, :func:`lemma44_check`). The paper's rates and the
witnesses that parts of Section 4 fail are in :mod:`.paper_rates`.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..optimality import eps_bs_measure, global_minimum
from ..optimality.criticality import residual_details
from ..solvers import get_solver
from .hierarchy import pair_conditions


def theory_run(problem, X0, *, k: int = 2, alpha: float = 1.0, max_iter: int = 300, rng=0,
               checkpoints: int = 12, F_lower: float | None = None) -> dict:
    """One OBCD run (random working sets) with Theorem 4.2 checked along it.

    Returns per-step arrays ``decrease`` = F(X^t) - F(X^{t+1}), ``v_term`` = alpha/2 ||V - I||_F^2 and
    ``x_term`` = alpha/2 ||X^{t+1} - X^t||_F^2 (Theorem 4.2(a): x_term <= v_term <= decrease), and at
    ``checkpoints`` log-spaced iterations T the eps-BS_k measure (Definition 4.1), its running
    minimum and the bound c~/(T + 1), c~ = 2 (F(X^0) - F_inf)/alpha (Theorem 4.2(b)), F_inf replaced by
    ``F_lower`` (a valid lower bound; default: the certified global lower bound for n <= 5).

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    X0 : numpy.ndarray
        The start, on St(n, r).
    k : int
        The block size.
    alpha : float
        The proximal parameter of eq. (11).
    max_iter : int
        OBCD's steps.
    rng : int or numpy.random.Generator
        Draws the working sets.
    checkpoints : int
        The number of T checked.
    F_lower : float or None
        A lower bound of F on St(n, r).

    Returns
    -------
    dict
        The arrays named above.
    """
    Q = "exact" if k == 2 else "scalar"
    steps = {"decrease": [], "v_term": [], "x_term": []}
    iterates = {0: np.array(X0, dtype=float)}
    marks = sorted(set(np.unique(np.geomspace(1, max_iter, checkpoints).astype(int)).tolist()))
    previous = [np.array(X0, dtype=float)]

    def record(step):
        X = np.array(step.X)
        steps["decrease"].append(step.F_before - step.F)
        steps["v_term"].append(0.5 * alpha * float(np.sum((step.V - np.eye(k)) ** 2)))
        steps["x_term"].append(0.5 * alpha * float(np.sum((X - previous[0]) ** 2)))
        previous[0] = X
        if step.iteration in marks:
            iterates[step.iteration] = X

    get_solver("obcd")(problem, X0, k=k, alpha=alpha, Q=Q, max_iter=max_iter, rng=rng, callback=record,
                       log_every=max_iter)
    if F_lower is None:
        F_lower = global_minimum(problem, r=X0.shape[1], rng=0).lower_bound
    c_tilde = 2.0 * (problem.F(X0) - F_lower) / alpha
    its = sorted(iterates)
    measure = [eps_bs_measure(problem, iterates[t], k, alpha=alpha, Q=Q) for t in its]
    out = {name: np.array(v) for name, v in steps.items()}
    out.update(iterations=np.array(its), measure=np.array(measure), running_min=np.minimum.accumulate(measure),
               bound=c_tilde / (np.array(its) + 1.0), c_tilde=c_tilde, alpha=alpha, k=k)
    return out


def gamma_check(n: int, k: int, rng=0) -> dict:
    """Lemma 4.4's gamma = C(n, k)/C(n-2, k-2) = n(n-1)/(k(k-1)): for a skew A,
    gamma * mean_B ||A_BB||_F^2 = ||A||_F^2 (each pair lies in C(n-2, k-2) of the C(n, k) blocks).

    Parameters
    ----------
    n, k : int
        The size of A and of the blocks.
    rng : int or numpy.random.Generator
        Draws A.

    Returns
    -------
    dict
        gamma, its closed form and both sides of the identity.
    """
    rng = np.random.default_rng(rng)
    M = rng.standard_normal((n, n))
    A = M - M.T
    blocks = list(itertools.combinations(range(n), k))
    mean = float(np.mean([np.sum(A[np.ix_(B, B)] ** 2) for B in blocks]))
    gamma = math.comb(n, k) / math.comb(n - 2, k - 2)
    return {"gamma": gamma, "closed_form": n * (n - 1) / (k * (k - 1)), "gamma_times_mean": gamma * mean,
            "norm_sq": float(np.sum(A * A)), "blocks": len(blocks)}


def block_residuals(problem, X) -> dict:
    """dist(0, d_M K(I; X, B)) for every pair B (the quantity of Lemma 4.4(b)): sqrt(2) times the
    distance of 0 to the pair's range of [G X^T - X G^T]_ij (two skew entries).

    Parameters
    ----------
    problem : Problem
        As in :func:`obcd_lite.teaching.hierarchy.pair_conditions`.
    X : numpy.ndarray
        As in :func:`obcd_lite.teaching.hierarchy.pair_conditions`.

    Returns
    -------
    dict
        {B: the residual}.
    """
    ranges, _ = pair_conditions(problem, X)
    return {B: math.sqrt(2.0) * max(0.0, lo, -hi) for B, (lo, hi) in ranges.items()}


def lemma44_check(problem, X) -> dict:
    """Both sides of Lemma 4.4(b) at X for k = 2: dist^2(0, d_M F(X)) and gamma * mean_B dist^2(0, d_M K(I; X, B)).

    Parameters
    ----------
    problem : Problem
        As in :func:`block_residuals`.
    X : numpy.ndarray
        As in :func:`block_residuals`.

    Returns
    -------
    dict
        ``lhs``, ``rhs``, ``holds`` and ``per_block``.
    """
    n = X.shape[0]
    per_block = block_residuals(problem, X)
    gamma = math.comb(n, 2)
    lhs = residual_details(problem, X).value ** 2
    rhs = gamma * float(np.mean([d * d for d in per_block.values()]))
    return {"lhs": lhs, "rhs": rhs, "holds": lhs <= rhs + 1e-12, "per_block": per_block}


__all__ = ["theory_run", "gamma_check", "block_residuals", "lemma44_check"]
