"""Honest scoring of the infeasible (splitting / penalty) baselines SOC, RADMM and PSM.

A splitting method carries several copies of X: one on St(n, r) (SOC's P, the X of RADMM and
PSM, all polar factors) and one with the structure of h (SOC's Q, RADMM's and PSM's Y: sparse
or nonnegative), which agree only in the limit. Each copy alone would flatter the method: the
structured copy Y has a small h but is not orthonormal, and F is +inf at a point of St(n, r)
with a negative entry when h is the indicator of X >= 0. The rule used here:

* the returned X is the method's copy on St(n, r) (the one its reference code reports), and
  ``Result.F = problem.F(X)`` at that point: +inf for X >= 0 when X has a negative entry, the
  exact nonzero count for l0 (a polar factor has no exact zeros);
* every history row scores that same copy, so no record shows an F below what its X attains;
* ``Result.info`` keeps the structured copy ("raw" iterate) with its feasibility
  ||Y^T Y - I||_F and F(Y), and, labelled as such, the paper's scores of the returned X:
  the surrogate f(X) + 1000 ||min(0, X)||_F for X >= 0 (Appendix E.1, "with X in St(n, r)"),
  and f(X) + h(X with |X_ij| <= 1e-6 set to 0), the paper's l0 count (Section 5 counts
  |X_ij| > 1e-6).
"""
from __future__ import annotations

import numpy as np

from ..penalties import Penalty
from ..stiefel import feasibility
from ..validation import STIEFEL_TOL, UnsupportedProblemError, as_matrix, check_problem, check_stiefel

#: The weight of the paper's X >= 0 surrogate f(X) + 1000 ||min(0, X)||_F (Appendix E.1).
SURROGATE_WEIGHT = 1000.0
#: Entries with |X_ij| <= this count as zero in the paper's tables (Section 5).
PAPER_ZERO_TOL = 1e-6
#: History columns the three methods add to the common ones.
HISTORY_COLUMNS = ("surrogate", "raw_feasibility", "split_residual")


def check_prox_penalty(problem, solver: str) -> None:
    """Raise UnsupportedProblemError unless ``problem.h`` has a proximal map.

    The splitting methods reach h only through it.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    solver : str
        The solver's name, for the message.

    Raises
    ------
    UnsupportedProblemError
        If ``problem.h`` has no ``prox``.
    """
    check_problem(problem, solver=solver)
    h = problem.h
    if type(h).prox is Penalty.prox:
        raise UnsupportedProblemError(f"{solver} does not handle h = {h!r}: it has no proximal map "
                                      f"(define {type(h).__name__}.prox to use it)")


def has_surrogate(problem) -> bool:
    """Whether the paper scores this problem by its X >= 0 surrogate (h an indicator: not finite).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.

    Returns
    -------
    bool
        The verdict.
    """
    return not problem.h.finite


def nonneg_surrogate(problem, X: np.ndarray, weight: float = SURROGATE_WEIGHT, f: float | None = None) -> float:
    """f(X) + weight ||min(0, X)||_F, the paper's score of an infeasible X >= 0 run (App. E.1).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X : numpy.ndarray
        (n, r).
    weight : float, default 1000.0
        The weight of the negative part.
    f : float, optional
        f(X) when the caller has it.

    Returns
    -------
    float
        The score.
    """
    f = float(problem.f(X)) if f is None else float(f)
    return f + weight * float(np.linalg.norm(np.minimum(X, 0.0)))


def paper_count_F(problem, X: np.ndarray, tol: float = PAPER_ZERO_TOL) -> float:
    """f(X) + h(X with |X_ij| <= tol set to 0): the paper's tables count |X_ij| > 1e-6.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X : numpy.ndarray
        (n, r).
    tol : float, default 1e-6
        Entries at or below it count as zeros.

    Returns
    -------
    float
        The value.
    """
    return float(problem.f(X)) + float(problem.h(np.where(np.abs(X) <= tol, 0.0, X)))


def progress_score(problem, X: np.ndarray, F: float, f: float | None = None, scale: float = 1.0) -> float:
    """What a stopping rule watches: F where finite, else the surrogate (X >= 0).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X : numpy.ndarray
        (n, r).
    F : float
        F(X).
    f : float, optional
        f(X) when the caller has it.
    scale : float, default 1.0
        The problem's scale S (:func:`~obcd_lite.results.problem_scale`): the surrogate's weight is
        1000 S, so that it scales with f (the paper's 1000 at S = 1).

    Returns
    -------
    float
        The score.
    """
    if np.isfinite(F) or not has_surrogate(problem):
        return F
    return nonneg_surrogate(problem, X, weight=SURROGATE_WEIGHT * scale, f=f)


def log_columns(problem, X: np.ndarray, raw: np.ndarray) -> dict:
    """The extra history columns of one logged iterate.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X : numpy.ndarray
        (n, r), the point on St(n, r).
    raw : numpy.ndarray
        The method's structured (infeasible) copy.

    Returns
    -------
    dict
        {column: value}.
    """
    return {"surrogate": nonneg_surrogate(problem, X) if has_surrogate(problem) else np.nan,
            "raw_feasibility": feasibility(raw), "split_residual": float(np.linalg.norm(X - raw))}


def infeasible_info(problem, X: np.ndarray, raw: np.ndarray, *, returned: str, raw_name: str,
                    **extra) -> dict:
    """``Result.info`` of an infeasible method.

    Parameters
    ----------
    problem : Problem
        The problem (``f``, ``F``, ``h``).
    X : numpy.ndarray
        The returned point, on St(n, r).
    raw : numpy.ndarray
        The method's structured copy (sparse / nonnegative, not orthonormal).
    returned : str
        Which copy X is, in words (e.g. "P, the orthogonal copy (polar factor)").
    raw_name : str
        The raw copy's name in the method (e.g. "Q").
    **extra
        Solver-specific entries added as they are.

    Returns
    -------
    dict
        ``returned, feasibility, on_stiefel, raw_name, raw, raw_feasibility, F_raw, split_residual,
        F_paper_count`` and, for X >= 0, ``surrogate`` (of X) and ``negative_part`` ||min(0, X)||_F.
    """
    feas = feasibility(X)
    info = {
        "returned": returned,
        "feasibility": feas,
        "on_stiefel": feas <= STIEFEL_TOL,
        "raw_name": raw_name,
        "raw": np.array(raw, dtype=float),
        "raw_feasibility": feasibility(raw),
        "F_raw": float(problem.F(raw)),
        "split_residual": float(np.linalg.norm(X - raw)),
        "F_paper_count": paper_count_F(problem, X),
    }
    if has_surrogate(problem):
        info["surrogate"] = nonneg_surrogate(problem, X)
        info["negative_part"] = float(np.linalg.norm(np.minimum(X, 0.0)))
    info.update(extra)
    return info


def check_start(problem, X0, solver: str) -> np.ndarray:
    """X0 as a float copy on St(n, r) with the problem's n (and r where D or L fix it).

    Unlike ``problem.check_point`` this accepts h(X0) = inf: an infeasible method may start
    from a point of St(n, r) with negative entries (the paper's "(rnd)" starts for X >= 0).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X0 : array_like
        (n, r).
    solver : str
        The solver's name, for the messages.

    Returns
    -------
    numpy.ndarray
        The copy.

    Raises
    ------
    ValueError
        If n or r is 0, the problem's shape is not known, or X0's shape does not match it.
    """
    X = as_matrix(X0, "X0").copy()
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{solver} needs n >= 1 and r >= 1 (an empty X has no scale L_f = ||C||_2 ||D||_2 and "
                         f"nothing to split), got X0 of shape {X.shape}")
    check_stiefel(X, "X0")
    if problem.n is None:  # a SmoothProblem without shape=: check_point (which fixes it) refuses h(X0) = inf
        raise ValueError(f"{solver} needs the problem's shape: give it shape=(n, r) (SmoothProblem(f, grad, "
                         f"shape=({X.shape[0]}, {X.shape[1]})) for this X0)")
    if X.shape[0] != problem.n:
        raise ValueError(f"{solver}: X0 has {X.shape[0]} rows but the problem has n = {problem.n}")
    if getattr(problem, "r", None) is not None and X.shape[1] != problem.r:
        raise ValueError(f"{solver}: X0 has {X.shape[1]} columns but the problem needs r = {problem.r}")
    return X
