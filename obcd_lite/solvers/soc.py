"""SOC: the splitting of orthogonality constraints of Lai & Osher (2014), an ADMM.

Source: R. Lai and S. Osher, "A splitting method for orthogonality constrained problems",
J. Sci. Comput. 58 (2014), the method the paper calls "ADMM (Lai & Osher 2014)" in its l1 tables.
Reference code: ``chenshixiang/ManPG:manpg_code_share/SPCA/soc_spca.m`` (the ManPG authors'
implementation, the one the SPCA literature runs). For min f(X) + h(Q) s.t. X = P, X = Q,
P in St(n, r) it iterates, with multipliers Z (for X = P) and b (for X = Q), both scaled:

    X <- argmin_X f(X) + rho/2 ||X - P + Z||^2 + lam/2 ||X - Q + b||^2   (a linear solve)
    Q <- prox_{h / lam}(X + b)        (l1: soft, l0: hard threshold sqrt(2 mu / lam), X >= 0: max(., 0))
    P <- polar(X + Z)                 (U V^T of the thin SVD: the projection onto St(n, r))
    Z <- Z + X - P,   b <- b + X - Q.

Defaults matched to soc_spca.m: P = Q = X0, Z = b = 0; rho = lam = 2 sigma_max(A)^2 for the data
matrix A (C = A^T A), which is L_f = ||C_ours||_2 ||D||_2, the Lipschitz constant of grad f, for
f = -tr(X^T C X) (the code's comment: "1.9 sigma^2 sometimes not converge"); the matrix of the
X-step is factored once; stop when ||X - Q|| / max(1, ||Q||, ||X||) + ||X - P|| / max(1, r, ||X||)
< tol = 1e-4 (from the third iteration on); maxiter = 20000 (``demo_compare_SPCA*.m``).

Differences from the reference code:

* any f = 1/2 tr(X^T C X D) + <X, L> (the code has D = I, L = 0): the X-step solves
  C X D + (rho + lam) X = rho (P - Z) + lam (Q - b) - L through eigendecompositions of C and D;
  for D = I that is the code's inverse of (2A + (rho + lam) I), A = -C_data;
* every penalty with a proximal map, not only l1 (l0 and X >= 0 by hard thresholding and
  projection as above; no theory covers them);
* the code also waits for F <= F_ManPG + 1e-7 before stopping; there is no ManPG run here,
  so the residual test alone stops;
* the code reports F as <X, -C P> + h(P), which mixes the unconstrained X with P, after zeroing
  |P_ij| <= 1e-5 (which moves P off St(n, r)). Here X = P as computed (on St(n, r) to rounding),
  and F = problem.F(P): see :mod:`obcd_lite.solvers.infeasible` for the honest-scoring rule;
  the structured copy Q is in ``info["raw"]``.

The objective of the reference code is -tr(X^T C X) + mu ||X||_1 (no 1/2): sparse_pca(C, L1(mu))
is that problem with lam = mu.
"""
from __future__ import annotations

import functools
import time
from typing import Callable

import numpy as np

from ..threads import one_blas_thread
from ..results import Recorder, Result, Step, check_budget
from ..stiefel import polar
from ..validation import UnsupportedProblemError, as_rng, check_nonnegative
from .infeasible import (HISTORY_COLUMNS, check_prox_penalty, check_start, infeasible_info, log_columns)

#: max_iter when none is given (the maxiter of the reference demos).
DEFAULT_MAX_ITER = 20_000


@one_blas_thread
def soc(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
        callback: Callable[[Step], bool | None] | None = None, log_every: int = 10, rho: float | None = None,
        lam: float | None = None, tol: float = 1e-4, verbose: bool = False, progress: bool = False) -> Result:
    """Run SOC (Lai & Osher 2014; ``soc_spca.m``) from ``X0``.

    Parameters
    ----------
    problem : QuadraticProblem
        The X-step is a linear solve with its C, D, L; ``problem.h`` needs a proximal map.
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r); h(X0) may be +inf (a random start for X >= 0).
    max_iter : int or None
        Iteration budget (default 20,000).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Accepted for the common solver signature; the method draws nothing.
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` (X = P) after every iteration;
        returning True stops.
    log_every : int
        History row every this many iterations (each row evaluates F(P), an O(n^2 r) product).
    rho, lam : float or None
        Penalty weights of X = P and X = Q (default both L_f = ||C||_2 ||D||_2, i.e. the
        code's 2 sigma_max(A)^2).
    tol : float
        The code's relative residual tolerance: stop (from the third iteration on) when the residual
        ||X - Q|| / max(1, ||Q||, ||X||) + ||X - P|| / max(1, r, ||X||) < tol, SOC's stationarity measure
        (dimensionless, so scale-invariant).
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "soc"``; ``X`` is P (on St(n, r)), ``F = problem.F(P)``; ``info`` as in
        :func:`~obcd_lite.solvers.infeasible.infeasible_info` with raw = Q, plus ``X_split``
        (the unconstrained copy X), ``rho``, ``lam`` and ``residual``; ``stationarity`` = that residual.

    Raises
    ------
    UnsupportedProblemError
        For a problem that is not a QuadraticProblem.
    ValueError
        If the default rho = lam = L_f is 0 for the problem.
    """
    check_prox_penalty(problem, "soc")
    as_rng(rng)  # drawn from by no one here, but a bad rng is still an error
    if not hasattr(problem, "C"):
        raise UnsupportedProblemError(f"soc needs a QuadraticProblem (its X-step solves a linear system in C), "
                                      f"got {type(problem).__name__}")
    P = check_start(problem, X0, "soc")
    r = P.shape[1]
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)
    if time_limit is not None:
        check_setup_fits(problem, time_limit)
    # The clock starts before L_f and the eigendecompositions of the X-step: the setup is part of the
    # method's time, as ManPG's L_f is (the same timing for every method).
    rec = Recorder("soc", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, columns=(*HISTORY_COLUMNS, "residual"), verbose=verbose, progress=progress)
    if rho is None or lam is None:
        lipschitz = problem.lipschitz()
        if lipschitz == 0.0:
            raise ValueError("soc: the default rho = lam = L_f = ||C||_2 ||D||_2 is 0 for this problem; "
                             "pass rho > 0 and lam > 0")
        rho = lipschitz if rho is None else rho
        lam = lipschitz if lam is None else lam
    rho = check_nonnegative(rho, "rho", strict=True)
    lam = check_nonnegative(lam, "lam", strict=True)
    tol = check_nonnegative(tol, "tol")
    h = problem.h

    solve = _x_step_solver(problem, rho + lam)
    Q = P.copy()
    Z = np.zeros_like(P)
    b = np.zeros_like(P)
    X = P.copy()
    F = problem.F(P)
    rec.log(0, P, F, **log_columns(problem, P, Q))
    stop_reason = "max_iter"
    if rec.out_of_time():  # the setup took the whole budget (the prediction was short): no iteration
        max_iter, stop_reason = 0, "time_limit"
    residual = np.inf
    it = 0
    for it in range(1, max_iter + 1):
        X = solve(rho * (P - Z) + lam * (Q - b))
        Q = h.prox(X + b, 1.0 / lam)
        P = polar(X + Z)
        Z += X - P
        b += X - Q
        norm_X = np.linalg.norm(X)
        residual = (np.linalg.norm(X - Q) / max(1.0, np.linalg.norm(Q), norm_X)
                    + np.linalg.norm(X - P) / max(1.0, r, norm_X))
        logged = it % rec.log_every == 0 or callback is not None
        F_before, F = F, (problem.F(P) if logged else np.nan)
        columns = log_columns(problem, P, Q) if logged else {}
        reason = rec.after_step(it, P, F, F_before, residual=residual, stationarity=residual, **columns)
        if it > 2 and residual < tol:
            stop_reason = "tol"
            break
        if reason is not None:
            stop_reason = reason
            break
    if rec.history["iteration"][-1] != it:
        rec.log(it, P, problem.F(P), residual=residual, **log_columns(problem, P, Q))
    info = infeasible_info(problem, P, Q, returned="P, the orthogonal copy (polar factor of X + Z)",
                           raw_name="Q", X_split=X.copy(), rho=rho, lam=lam, residual=float(residual))
    return rec.result(P, it, stop_reason, info=info, stationarity=float(residual))


#: Size of the eigendecomposition timed once per process to predict SOC's setup (n^3 scaling above it).
CALIBRATION_N = 256
#: The prediction's safety factor (a loaded machine, cache effects at large n).
SETUP_MARGIN = 1.25


@functools.lru_cache(maxsize=1)
def _calibration_seconds() -> float:
    """The fastest of three CALIBRATION_N x CALIBRATION_N ``eigh`` calls (once per process)."""
    M = np.random.default_rng(0).standard_normal((CALIBRATION_N, CALIBRATION_N))
    M = M + M.T
    times = []
    for _ in range(3):
        begin = time.perf_counter()
        np.linalg.eigh(M)
        times.append(time.perf_counter() - begin)
    return min(times)


def eigh_seconds(n: int) -> float:
    """A prediction of the seconds ``numpy.linalg.eigh`` takes on an n x n matrix here (one BLAS
    thread): a CALIBRATION_N x CALIBRATION_N decomposition timed once per process, scaled by n^3.

    Parameters
    ----------
    n : int
        The matrix size.

    Returns
    -------
    float
        The predicted seconds.
    """
    return _calibration_seconds() * (n / CALIBRATION_N) ** 3


def check_setup_fits(problem, time_limit: float) -> None:
    """Raise ValueError, before any work, when SOC's setup alone (the eigendecompositions of C and D
    that factor the X-step, O(n^3) and not interruptible) is predicted to exceed ``time_limit``.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem; the sizes of its C (and D, if any) set the predicted setup time.
    time_limit : float
        SOC's time limit in seconds.

    Raises
    ------
    ValueError
        Naming the predicted seconds and ``time_limit`` when the setup would not fit.
    """
    n = problem.C.shape[0]
    if n <= CALIBRATION_N:
        return  # at most the calibration's own time: the clock check after the setup covers it
    sizes = [n] + ([] if problem.D is None else [problem.D.shape[0]])
    predicted = SETUP_MARGIN * sum(eigh_seconds(m) for m in sizes)
    if predicted > time_limit:
        raise ValueError(f"soc: its setup alone, the eigendecomposition of the {n} x {n} C that factors the "
                         f"X-step (O(n^3), about {predicted:.3g} s here), exceeds time_limit = {time_limit!r} s; "
                         f"give at least {predicted:.2g} s, or no time limit")


def _x_step_solver(problem, shift: float) -> Callable[[np.ndarray], np.ndarray]:
    """R -> the X with C X D + shift X = R - L (the X-step's optimality condition).

    C and D are diagonalised once (the reference code inverts its matrix once); the system must
    be positive definite, i.e. the X-step strongly convex.
    """
    c, U = np.linalg.eigh(problem.C)
    L = 0.0 if problem.L is None else problem.L
    if problem.D is None:
        denominator = c + shift
        _check_positive(denominator, shift)
        inverse = (U / denominator) @ U.T
        return lambda R: inverse @ (R - L)
    d, W = np.linalg.eigh(problem.D)
    denominator = np.outer(c, d) + shift
    _check_positive(denominator, shift)
    return lambda R: U @ ((U.T @ (R - L) @ W) / denominator) @ W.T


def _check_positive(denominator: np.ndarray, shift: float) -> None:
    if np.min(denominator) <= 0.0:
        raise ValueError(f"soc: rho + lam = {shift:g} does not make the X-step strongly convex (the smallest "
                         f"eigenvalue of C (x) D + (rho + lam) I is {np.min(denominator):.3e} <= 0); raise rho or lam")
