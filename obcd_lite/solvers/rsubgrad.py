"""RSubGrad: the Riemannian subgradient method with the polar retraction.

Source paper: X. Li, S. Chen, Z. Deng, Q. Qu, Z. Zhu, A. M.-C. So, "Weakly convex optimization
over Stiefel manifold using Riemannian subgradient-type methods", SIAM J. Optim. 31(3), 2021
(the Riemannian subgradient method, here with the polar retraction). Reference code, ported here:
``chenshixiang/ManPG:manpg_code_share/SPCA/Re_sub_grad_spca.m`` (identical in
``QinsiWang2022/ManPQN:SPCA/Re_sub_grad_spca.m``), the code the ManPG and ManPQN demos use both
as a baseline and to make their starting points (500 iterations from a random point).

One iteration k = 1, 2, ... (the code's loop index is i = k + 1):

    G  = grad f(X) + s,  s in dh(X)            (the code: gx = -(2 A X - mu sign(X)))
    xi = G - 1/2 X (X^T G + G^T X)             (projection onto T_X St, Euclidean metric)
    X <- polar(X - eta_k xi),  eta_k = step0 / (k + 1)^{3/4}

Defaults matched to the code: step0 = 1 / S (the code's eta = 1/i^(3/4) at S = 1; see Scale below), s the
subgradient with sign(0) = 0 (``h.subgradient``, the least-norm one, is exactly MATLAB's
``mu*sign(X)`` for L1), max_iter = 500 (the demos' warm-up run), polar retraction.

The subgradient and the objective's scaling. The OBCD paper (Appendix E, "Compared methods on
L1-SPCA") takes G = -C X + lam sign(X) with sign(0) = 1. That is a subgradient of
-1/2 tr(X^T C X) + lam ||X||_1, the scaling the paper's l1 tables match, but not of the
-tr(X^T C X) + lam ||X||_1 its Section 1.1 writes (and ``sparse_pca`` builds), whose smooth
gradient is -2 C X; the reference code uses -2 C X (``gx = 2*AX - mu*sign(X)``) for its
-tr objective, i.e. it is consistent. Here G is always ``problem.grad(X) + h.subgradient(X)``,
so it is right for whichever scaling the problem carries; with ``sparse_pca(C, L1(lam))`` it
equals the code's. (sign(0) = 1 is also a valid subgradient of |.| at 0; the least-norm 0 is
what the code uses.)

Scale (issue 34): the step has the units of 1 / F, so the default is relative to the problem's
scale S = L_f (:func:`~obcd_lite.results.problem_scale`): step0 = 1 / S, and the problem s F runs the
same iterates. Until issue 34 it was the code's absolute step0 = 1 (the same at S = 1): on data scaled
to ||A||_F = 1 its first steps threw X around St(n, r), on data scaled down it never moved X0.

Differences from the reference code (all deliberate):

* The best point so far is returned (``Result.X``; ``Result.F`` is F there): a subgradient method
  is not monotone. The code returns the last iterate thresholded at |X_ij| <= 1e-5 (off
  St(n, r)) and reports F of the iterate before it. The history's F column is the current
  iterate and ``F_best`` the best so far; ``info["X_last"]`` is the last iterate.
* Scaling: the code minimizes -tr(X^T C X) + mu ||X||_1; here f is whatever the problem says.
* The polar factor comes from the SVD of X - eta xi, not of (X - eta xi)^T (X - eta xi).
* The code stops when F < F_ManPG + tol (tol = 5e-3 in its demos); ``F_target`` and
  ``target_tol`` give that test, off by default.

Penalties: Zero, L1 and CappedL1 (through ``h.subgradient``). Declined: L0 (its subgradient is 0
at every nonzero entry, so the method is a gradient method on f that never creates a zero; the
paper's RSSM/RSubGrad were not run on l0) and NonNeg (an indicator: no subgradient off X >= 0,
and the polar step leaves X >= 0).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..threads import one_blas_thread
from ..results import Recorder, Result, Step, check_budget, problem_scale
from ..stiefel import polar
from ..validation import UnsupportedProblemError, as_matrix, as_rng, check_nonnegative, check_problem, check_stiefel

#: max_iter when none is given (the ManPG/ManPQN demos' warm-up run).
DEFAULT_MAX_ITER = 500
#: The code's step exponent: eta_k = step0 / (k + 1)^POWER.
POWER = 0.75


@one_blas_thread
def rsubgrad(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
             callback: Callable[[Step], bool | None] | None = None, log_every: int = 1, step0: float | None = None,
             F_target: float | None = None, target_tol: float = 5e-3, tol: float | None = None,
             verbose: bool = False, progress: bool = False) -> Result:
    """Run the Riemannian subgradient method (Li et al. 2021) from ``X0``; return the best point.

    Parameters
    ----------
    problem : QuadraticProblem
        Object with ``grad(X)``, ``f_from_grad(X, G)``, ``F(X)`` and ``h`` (QuadraticProblem).
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r).
    max_iter : int or None
        Iteration budget (default 500).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Accepted for the common signature; the method draws nothing.
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` of the current iterate after every
        iteration (``info``: ``eta``, ``F_best``); returning True stops.
    log_every : int
        History row every this many iterations.
    step0 : float or None
        eta_k = step0 / (k + 1)^{3/4} (default 1 / S, S = L_f the problem's scale; the code: 1).
    F_target : float or None
        Stop when F < F_target + target_tol (the code's test against ManPG's F).
    target_tol : float
        The margin of that test.
    tol : float or None
        Stop (reason "tol") when the stationarity measure, the norm of the Riemannian subgradient
        ||xi||_F / S at the current iterate (xi = the projection of grad f(X) + s, s the least-norm
        subgradient of h; S = L_f the problem's scale), is <= tol; that iterate is then returned. None
        (default): never. With a nonsmooth h xi rarely vanishes: the tolerance suits h = 0.
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "rsubgrad"``; ``X`` is the best iterate, ``F`` = F(X). History: ``F`` of the
        current iterate, ``F_best``, ``eta``. ``info``: ``X_last``, ``F_last``, ``best_iteration``;
        ``stationarity`` the measure above at the returned X.

    Raises
    ------
    UnsupportedProblemError
        For a problem it does not handle (the message says why).
    ValueError
        If ``F_target`` is not finite.
    """
    X = as_matrix(X0, "X0").copy()
    check_problem(problem, X, "X0", "rsubgrad")
    as_rng(rng)  # drawn from by no one here, but a bad rng is still an error
    check_stiefel(X, "X0")
    problem.check_point(X, "X0")
    h = problem.h
    if not (h.finite and h.subgradient_informative):
        raise UnsupportedProblemError(
            f"rsubgrad does not handle h = {h!r}: the l0 subgradient is 0 at every nonzero entry (the method "
            "never sparsifies), and NonNeg is an indicator (no subgradient off X >= 0, and the polar step leaves "
            "X >= 0); it handles Zero, L1 and CappedL1")
    if step0 is not None:
        step0 = check_nonnegative(step0, "step0", strict=True)
    target_tol = check_nonnegative(target_tol, "target_tol")
    if F_target is not None and not np.isfinite(F_target):
        raise ValueError(f"F_target must be finite, got F_target = {F_target!r}")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)

    rec = Recorder("rsubgrad", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, columns=("F_best", "eta"), tol=tol, verbose=verbose, progress=progress)
    scale = problem_scale(problem)  # L_f, on the clock: part of the setup
    if step0 is None:
        step0 = 1.0 / scale
    G = problem.grad(X)
    F = problem.f_from_grad(X, G) + h(X)
    xi = _riemannian_subgradient(X, G, h)
    rec.stationarity = float(np.linalg.norm(xi)) / scale
    X_best, F_best, best_it, best_stationarity = X, F, 0, rec.stationarity
    rec.log(0, X, F, F_best=F_best)
    if rec.out_of_time():  # the setup used the whole budget
        return rec.result(X, 0, "time_limit", info={"X_last": X, "F_last": float(F), "best_iteration": 0})
    stop_reason = "max_iter"
    it = 0
    for it in range(1, max_iter + 1):
        eta = step0 / (it + 1) ** POWER
        F_before = F
        X = polar(X - eta * xi)
        G = problem.grad(X)
        F = problem.f_from_grad(X, G) + h(X)
        xi = _riemannian_subgradient(X, G, h)  # the next step's direction, and the measure at X
        stationarity = float(np.linalg.norm(xi)) / scale
        if F < F_best:
            X_best, F_best, best_it, best_stationarity = X, F, it, stationarity
        reason = rec.after_step(it, X, F, F_before, eta=eta, F_best=F_best, stationarity=stationarity)
        if reason == "tol":  # return the iterate that met the tolerance
            X_best, best_it, best_stationarity = X, it, stationarity
        if reason is not None:
            stop_reason = reason
            break
        if F_target is not None and F < F_target + target_tol:
            stop_reason = "F_target"
            break
    if it % log_every != 0:  # the last row shows the last iterate, as every other row does
        rec.log(it, X, F, F_best=F_best)
    return rec.result(X_best, it, stop_reason, info={"X_last": X, "F_last": float(F), "best_iteration": best_it},
                      stationarity=best_stationarity)


def _riemannian_subgradient(X: np.ndarray, G: np.ndarray, h) -> np.ndarray:
    """xi = P_X(grad f(X) + s), s the least-norm subgradient of h at X, P_X the projection onto T_X St."""
    G = G + h.subgradient(X)
    XtG = X.T @ G
    return G - 0.5 * X @ (XtG + XtG.T)
