"""RADMM: the Riemannian ADMM of Li, Ma and Srivastava with a Moreau-envelope smoothing.

Source: J. Li, S. Ma, T. Srivastava, "A Riemannian ADMM", arXiv 2211.02163 (2024).
Reference code: ``JasonJiaxiangLi/RADMM:sPCA/SPCA_manpg_orig/radmm_spca.m`` (the same loop is in
``sPCA/compare_soc_madmm.m`` and ``sPCA/compare_manpg_subg.m``; tangent projection ``proj.m``,
retraction ``sPCA/retr.m``). For min f(X) + h_gamma(Z) s.t. X = Z, X in St(n, r), with h_gamma
the Moreau envelope of h, one iteration is

    G <- grad f(X) + Lambda + rho (X - Z)
    X <- polar(X - eta (G - X sym(X^T G)))                  (ONE Riemannian gradient step)
    Y <- prox_{h, (1 + rho gamma) / rho}(X + Lambda / rho)
    Z <- (Y / gamma + Lambda + rho X) / (1 / gamma + rho)    (Z-step: prox of h_gamma / rho)
    Lambda <- Lambda + rho (X - Z).

The Y, Z formulas minimise h(Y) + ||Y - Z||^2 / (2 gamma) + rho/2 ||Z - X - Lambda/rho||^2 jointly,
which needs only a proximal map of h, so l0 (hard threshold) and X >= 0 (max(., 0)) run through
the same lines as the code's l1 soft threshold (no theory covers them).

Defaults matched to radmm_spca.m (at the scale S = 1, below): X = Z = X0, Lambda = 0, rho = 100,
eta = 1e-2, gamma = 1e-6 (the comparison scripts use 1e-8 and 1e-9); stop from the third iteration on when
||X - Z||_F / max(1, ||X||, ||Z||) < tol = 1e-4 and F changed by at most 1e-8 S since the previous
iteration (F at X, computed only while the residual test holds, as in the code); maxiter = 20000
(``demo_compare_SPCA_dimension_n.m``).

Objective convention. The code minimises -1/2 tr(X^T H X) + mu ||X||_1 (its gradient line is
``gx = A*X`` with A = -H). This solver uses ``problem.grad`` and ``problem.h`` as they are, so
it minimises our F itself: sparse_pca(C, L1(lam)) = -tr(X^T C X) + lam ||X||_1 is the code's
problem with H = 2C and mu = lam; the code's own run on H is QuadraticProblem(-H, h=L1(mu)).
Scale (issue 34): rho, 1/eta and 1/gamma have the units of F, so the defaults are the code's numbers
relative to the problem's scale S = L_f (:func:`~obcd_lite.results.problem_scale`): rho = 100 S,
eta = 1e-2 / S, gamma = 1e-6 / S, and the F-change test 1e-8 S; the residual test is dimensionless.
The problem s F then runs the same iterates. Until issue 34 they were absolute (the code's numbers,
tuned for H = A S A^T, S = |randn|, ||H||_2 of order 3; the same at S = 1): on data scaled down RADMM
stopped at X0 after four iterations, on data scaled up it ended worse than X0.

Differences from the reference code:

* the retraction: the code's ``retr`` forms (X + V) (M^T M)^{-1/2} from the eigendecomposition of
  the Gram matrix M^T M; here the same polar factor comes from the thin SVD of X + V (better
  conditioned, equal in exact arithmetic);
* every penalty with a proximal map (above), and any QuadraticProblem (D, L);
* F for the stopping test: F(X) where finite, else (X >= 0) the paper's surrogate
  f(X) + 1000 ||min(0, X)||_F, since F(X) is +inf at every X with a negative entry;
* the code counts sparsity as |X_ij| <= 1e-5; here F = problem.F(X) counts exact nonzeros
  (the paper's 1e-6 count is ``info["F_paper_count"]``). The returned X is the code's X, the
  iterate on St(n, r); the sparse copy Y is ``info["raw"]``
  (see :mod:`obcd_lite.solvers.infeasible`).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..threads import one_blas_thread
from ..results import Recorder, Result, Step, check_budget, problem_scale
from ..stiefel import polar
from ..validation import as_rng, check_nonnegative
from .infeasible import (HISTORY_COLUMNS, check_prox_penalty, check_start, infeasible_info, log_columns,
                         progress_score)

#: max_iter when none is given (the maxiter of the reference demo).
DEFAULT_MAX_ITER = 20_000
#: |F change| / S below which the code stops (once the residual test holds; S the problem's scale).
F_CHANGE_TOL = 1e-8


@one_blas_thread
def radmm(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
          callback: Callable[[Step], bool | None] | None = None, log_every: int = 10, rho: float | None = None,
          eta: float | None = None, gamma: float | None = None, tol: float = 1e-4, verbose: bool = False,
          progress: bool = False) -> Result:
    """Run RADMM (Li, Ma, Srivastava 2024; ``radmm_spca.m``) from ``X0``.

    Parameters
    ----------
    problem : Problem
        Object with ``grad``, ``f``, ``F`` and ``h`` (a Penalty with a proximal map).
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r); h(X0) may be +inf (a random start for X >= 0).
    max_iter : int or None
        Iteration budget (default 20,000).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Accepted for the common solver signature; the method draws nothing.
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` (the X on St(n, r)) after every
        iteration; returning True stops.
    log_every : int
        History row every this many iterations.
    rho : float or None
        Penalty of X = Z (default 100 S, S = L_f the problem's scale; code: 100).
    eta : float or None
        Riemannian step size (default 1e-2 / S; code: 1e-2).
    gamma : float or None
        Moreau-envelope parameter (default 1e-6 / S; code: 1e-6).
    tol : float
        Relative residual tolerance (code: 1e-4): the stationarity measure is the residual
        ||X - Z||_F / max(1, ||X||, ||Z||) (dimensionless); the run stops when it is < tol and F changed by
        at most 1e-8 S since the previous iteration.
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "radmm"``; ``X`` is the iterate on St(n, r), ``F = problem.F(X)``; ``info`` as
        in :func:`~obcd_lite.solvers.infeasible.infeasible_info` with raw = Y, plus ``Z``,
        ``Lambda`` and ``residual``; ``stationarity`` = that residual.
    """
    check_prox_penalty(problem, "radmm")
    as_rng(rng)  # drawn from by no one here, but a bad rng is still an error
    X = check_start(problem, X0, "radmm")
    for name, value in (("rho", rho), ("eta", eta), ("gamma", gamma)):
        if value is not None:
            check_nonnegative(value, name, strict=True)
    tol = check_nonnegative(tol, "tol")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)
    h = problem.h
    rec = Recorder("radmm", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, columns=(*HISTORY_COLUMNS, "residual"), verbose=verbose, progress=progress)
    scale = problem_scale(problem)  # L_f, on the clock: part of the setup
    rho = 100.0 * scale if rho is None else float(rho)
    eta = 1e-2 / scale if eta is None else float(eta)
    gamma = 1e-6 / scale if gamma is None else float(gamma)
    prox_step = (1.0 + rho * gamma) / rho
    Z = X.copy()
    Y = X.copy()
    Lam = np.zeros_like(X)
    F = problem.F(X)
    rec.log(0, X, F, **log_columns(problem, X, Y))
    score_before = None  # the code's F_ad(itera - 1): set only while the residual test holds
    stop_reason = "max_iter"
    if rec.out_of_time():  # the setup (the first F) used the whole budget
        max_iter, stop_reason = 0, "time_limit"
    residual = np.inf
    it = 0
    for it in range(1, max_iter + 1):
        G = problem.grad(X) + Lam + rho * (X - Z)
        XtG = X.T @ G
        X = polar(X - eta * (G - X @ (0.5 * (XtG + XtG.T))))
        Y = h.prox(X + Lam / rho, prox_step)
        Z = (Y / gamma + Lam + rho * X) / (1.0 / gamma + rho)
        Lam += rho * (X - Z)
        residual = np.linalg.norm(X - Z) / max(1.0, np.linalg.norm(X), np.linalg.norm(Z))
        small = it > 2 and residual < tol
        logged = it % rec.log_every == 0 or callback is not None
        F_before, F = F, (problem.F(X) if logged or small else np.nan)
        columns = log_columns(problem, X, Y) if logged else {}
        reason = rec.after_step(it, X, F, F_before, residual=residual, stationarity=residual, **columns)
        if small:
            score = progress_score(problem, X, F, scale=scale)
            if score_before is not None and abs(score - score_before) <= F_CHANGE_TOL * scale:
                stop_reason = "tol"
                break
            score_before = score
        else:
            score_before = None
        if reason is not None:
            stop_reason = reason
            break
    if rec.history["iteration"][-1] != it:
        rec.log(it, X, problem.F(X), residual=residual, **log_columns(problem, X, Y))
    info = infeasible_info(problem, X, Y, returned="X, the iterate on St(n, r) (the code's output)",
                           raw_name="Y", Z=Z.copy(), Lambda=Lam.copy(), residual=float(residual))
    return rec.result(X, it, stop_reason, info=info, stationarity=float(residual))
