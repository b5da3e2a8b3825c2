"""PSM, the paper's penalty-based splitting baseline: OUR RECONSTRUCTION (no code is public).

The paper cites PSM ("SPM" in its l0 table header) to Yuan, "Smoothing proximal gradient methods
for nonsmooth sparsity constrained optimization", ICML 2024 (yuan2023smoothing), and Chen 2012
(smoothing methods). Its code is not available (the author's homepage lists
``files/2024_icml_smoothing_code.zip``, absent from ``github:yuangzh/yuangzh.github.io``, and it
targets ||x||_0 <= s, not St(n, r)). This module transfers the ICML paper's Algorithm 1 (option
IHT, with A = I, b = 0) to St(n, r): the splitting X = Y with the constraint penalised,

    J(X, Y; mu) = f(X) + h(Y) + ||X - Y||_F^2 / (2 mu),   X in St(n, r),

and alternating steps with a smoothing/penalty parameter mu_t -> 0:

    X <- P_St(X - [grad f(X) + (X - Y) / mu_t] / H_t),   H_t = 1/mu_t + L_f + theta   (ICML eq. (5), (8))
    Y <- prox_{mu_t h}(X)                                                             (ICML (S2))
    mu_{t+1} = mu_t / 2 every K = 10 iterations                                       (ICML App. D)

P_St is the polar projection (the x-step's constraint set is St(n, r) in place of ||x||_0 <= s; the
author's OADMM paper, ``yuangzh/yuangzh.github.io:files/2024_arxiv_oadmm.pdf`` Section 6, runs this
Euclidean-projection variant on St(n, r) as "SPGM-EP", after Boehm & Wright 2021).
Defaults from the ICML paper's experiments (App. D), at the scale S = 1 (below): theta = 1e-3, mu halved
every K = 10 iterations, at most T = 1000 iterations, stop when the mean of the last min(t, varpi)
relative changes d_t = |F_t - F_{t+1}| / (1 + |F_t|), varpi = 100, is <= eps = 1e-5. L_f = ||C||_2 ||D||_2.

Choices the sources leave open (ours, stated):

* the first mu: the ICML paper gives none; default mu0 = 1 / L_f (the penalty starts with the
  curvature of f);
* the first Y = prox_{mu0 h}(X0) (the minimiser of J over Y at the start);
* F in the stopping rule is F(X) where finite, else (X >= 0) the paper's surrogate
  f(X) + 1000 ||min(0, X)||_F: F(X) is +inf at every X with a negative entry;
* every penalty with a proximal map (l1 soft, l0 hard thresholding, X >= 0 projection);
* the returned X is the iterate on St(n, r), with F = problem.F(X); the structured copy Y is
  ``info["raw"]`` (see :mod:`obcd_lite.solvers.infeasible`).

Scale (issue 34): theta and the "1 +" of the relative change have the units of F, so they are taken
relative to the problem's scale S = L_f (:func:`~obcd_lite.results.problem_scale`): theta = 1e-3 S,
d_t = |F_t - F_{t+1}| / (S + |F_t|), the X >= 0 surrogate's weight 1000 S. With mu0 = 1 / L_f the problem
s F then runs the same iterates. Until issue 34 they were absolute (the ICML numbers, the same at S = 1):
on data scaled down d_t was ~ |F_t - F_{t+1}| from the start and PSM stopped after one iteration.
"""
from __future__ import annotations

from collections import deque
from typing import Callable

import numpy as np

from ..threads import one_blas_thread
from ..results import Recorder, Result, Step, check_budget, problem_scale
from ..stiefel import nearest_rotation, polar
from ..validation import as_rng, check_nonnegative
from .infeasible import (HISTORY_COLUMNS, check_prox_penalty, check_start, infeasible_info, log_columns,
                         progress_score)

#: max_iter when none is given (the ICML paper's T).
DEFAULT_MAX_ITER = 1000


@one_blas_thread
def psm(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
        callback: Callable[[Step], bool | None] | None = None, log_every: int = 10, mu0: float | None = None,
        shrink_every: int = 10, shrink: float = 0.5, theta: float | None = None, tol: float = 1e-5,
        window: int = 100, verbose: bool = False, progress: bool = False) -> Result:
    """Run PSM (our reconstruction of the smoothing proximal gradient method on St(n, r)) from ``X0``.

    Parameters
    ----------
    problem : QuadraticProblem
        L_f from its C and D; ``problem.h`` needs a proximal map.
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r); h(X0) may be +inf (a random start for X >= 0).
    max_iter : int or None
        Iteration budget (default 1000, the ICML paper's T).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Accepted for the common solver signature; the method draws nothing.
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` (the X on St(n, r)) after every
        iteration; returning True stops.
    log_every : int
        History row every this many iterations.
    mu0 : float or None
        First smoothing parameter (default 1 / L_f).
    shrink_every : int
        mu <- shrink * mu every ``shrink_every`` iterations (ICML: 10).
    shrink : float
        The factor (ICML: 1/2).
    theta : float or None
        Proximal constant of the X-step (default 1e-3 S, S = L_f the problem's scale; ICML: 1e-3).
    tol : float
        Stop when the mean of the last min(t, ``window``) relative F changes
        |F_t - F_{t+1}| / (S + |F_t|) is <= tol (ICML: 1e-5, 100, with 1 for S): PSM's stationarity measure.
    window : int
        The number of relative F changes averaged (see ``tol``; ICML: 100).
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "psm"``; ``X`` is the iterate on St(n, r), ``F = problem.F(X)``; ``info`` as in
        :func:`~obcd_lite.solvers.infeasible.infeasible_info` with raw = Y, plus the final ``mu``;
        ``stationarity`` = that mean relative change at the returned X.

    Raises
    ------
    ValueError
        If the default mu0 = 1 / L_f is needed but L_f = 0, ``shrink`` is not in (0, 1], or an integer option is not positive.
    """
    check_prox_penalty(problem, "psm")
    as_rng(rng)  # drawn from by no one here, but a bad rng is still an error
    X = check_start(problem, X0, "psm")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)
    # The clock starts before L_f: the setup is part of the method's time (as ManPG's L_f is).
    rec = Recorder("psm", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, columns=(*HISTORY_COLUMNS, "mu"), verbose=verbose, progress=progress)
    lipschitz = problem.lipschitz()
    scale = problem_scale(problem)
    if mu0 is None:
        if lipschitz == 0.0:
            raise ValueError("psm: the default mu0 = 1 / L_f needs L_f = ||C||_2 ||D||_2 > 0; pass mu0")
        mu0 = 1.0 / lipschitz
    mu = check_nonnegative(mu0, "mu0", strict=True)
    theta = 1e-3 * scale if theta is None else check_nonnegative(theta, "theta")
    tol = check_nonnegative(tol, "tol")
    if not 0.0 < shrink <= 1.0:
        raise ValueError(f"shrink must lie in (0, 1], got shrink = {shrink!r}")
    for name, value in (("shrink_every", shrink_every), ("window", window)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {name} = {value!r}")
    h = problem.h
    # On SO(n) (rotations_only) the X-step projects onto SO(n): the polar factor may be a reflection.
    project = nearest_rotation if getattr(problem, "rotations_only", False) else polar

    Y = h.prox(X, mu)
    G = problem.grad(X)
    f = problem.f_from_grad(X, G)
    F = f + h(X)
    score = progress_score(problem, X, F, f, scale=scale)
    changes = deque(maxlen=window)
    rec.log(0, X, F, mu=mu, **log_columns(problem, X, Y))
    stop_reason = "max_iter"
    if rec.out_of_time():  # the setup (L_f, the first gradient) used the whole budget
        max_iter, stop_reason = 0, "time_limit"
    it = 0
    for it in range(1, max_iter + 1):
        step = 1.0 / (1.0 / mu + lipschitz + theta)
        X = project(X - step * (G + (X - Y) / mu))
        Y = h.prox(X, mu)
        # f(X) from the gradient the next X-step needs anyway: F costs O(nr) + h(X) per iteration.
        G = problem.grad(X)
        f = problem.f_from_grad(X, G)
        F_before, F = F, f + h(X)
        score_before, score = score, progress_score(problem, X, F, f, scale=scale)
        changes.append(abs(score_before - score) / (scale + abs(score_before)))
        logged = it % rec.log_every == 0
        columns = log_columns(problem, X, Y) if logged else {}
        mean_change = float(np.mean(changes))
        reason = rec.after_step(it, X, F, F_before, mu=mu, stationarity=mean_change, **columns)
        if it % shrink_every == 0:
            mu *= shrink
        if mean_change <= tol:  # ICML App. D: the mean over the last min(t, window) changes
            stop_reason = "tol"
            break
        if reason is not None:
            stop_reason = reason
            break
    if rec.history["iteration"][-1] != it:
        rec.log(it, X, F, mu=mu, **log_columns(problem, X, Y))
    info = infeasible_info(problem, X, Y, returned="X, the iterate on St(n, r) (polar projection of the X-step)",
                           raw_name="Y", mu=mu)
    return rec.result(X, it, stop_reason, info=info)
