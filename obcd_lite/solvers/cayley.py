"""The Cayley-transform feasible method of Wen & Yin (2013), the baseline of Appendix C.1.

For a smooth f on St(n, r) with Euclidean gradient G = grad f(X), let W = G X^T - X G^T
(skew-symmetric). The curve

    Y(tau) = Q(tau) X,   Q(tau) = (I + tau/2 W)^{-1} (I - tau/2 W)            (Wen & Yin, eq. (7))

stays on St(n, r) for every tau, and Y'(0) = -W X is a descent direction with
dF/dtau(0) = -1/2 ||W||_F^2. Q(tau) is the Cayley transform of a skew matrix, so it is orthogonal
with det Q(tau) = +1 (Lemma A.3 for n = 2; for any n the eigenvalues of Q come in conjugate pairs
(1 - i tau w / 2) / (1 + i tau w / 2) of modulus 1, and a real one is +1). Hence
det(X^{t+1}) = det(X^t) when n = r: a run started on the rotation circle of O(2) never reaches
a reflection, which is the point of Appendix C.1.

Step sizes: Barzilai-Borwein initial steps with Armijo backtracking (a monotone variant of
Wen & Yin's Algorithm 2). For a nonsmooth h the method is a heuristic: the least-norm subgradient
of h (``h.subgradient``) is added to G, and the run stops when the backtracking step falls below
``tau_min``. Penalties without a useful subgradient (l0, whose subgradient is 0 almost everywhere,
and the indicator X >= 0, which a Cayley curve does not keep) are declined.

One safeguard Wen & Yin do not need in exact arithmetic: a trial point that rounding has taken off
St(n, r) (||Y^T Y - I||_F > 1e-12, seen for tau ||W|| ~ 1e6-1e9 on scaled data) is replaced by its
polar factor, and a singular I + tau/2 W is a rejected trial; so every accepted point is on St(n, r)
and the line search compares true values of F there.

Scale (issue 34): tau has the units of 1 / F, so the defaults are relative to the problem's scale
S = L_f (:func:`~obcd_lite.results.problem_scale`): tau0 = 0.1 / S, tau_min = 1e-12 / S, the
Barzilai-Borwein steps clipped to [1e-10, 1e10] / S, and the tolerance on ||W X||_F is tol S. The problem
s F then runs the same iterates. (Until issue 34 these were absolute: the same numbers at S = 1.)
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..threads import one_blas_thread
from ..results import Recorder, Result, Step, check_budget, problem_scale
from ..stiefel import feasibility, polar
from ..validation import (UnsupportedProblemError, as_matrix, as_rng, check_nonnegative,
                          check_problem, check_stiefel)

#: max_iter when none is given.
DEFAULT_MAX_ITER = 500


def cayley_matrix(W: np.ndarray, tau: float) -> np.ndarray:
    """Q = (I + tau/2 W)^{-1} (I - tau/2 W), the Cayley transform of the skew matrix W (Lemma A.3).

    Parameters
    ----------
    W : numpy.ndarray
        (n, n) skew-symmetric.
    tau : float
        The step.

    Returns
    -------
    numpy.ndarray
        (n, n) orthogonal with det = +1.

    Raises
    ------
    ValueError
        If W is not square.
    """
    W = as_matrix(W, "W")
    if W.shape[0] != W.shape[1]:
        raise ValueError(f"W must be square, got shape {W.shape}")
    eye = np.eye(W.shape[0])
    return np.linalg.solve(eye + 0.5 * tau * W, eye - 0.5 * tau * W)


def cayley_step(X: np.ndarray, G: np.ndarray, tau: float) -> np.ndarray:
    """Y(tau) = Q(tau) X with W = G X^T - X G^T (Wen & Yin, eq. (7)).

    For n > 2r Wen & Yin's low-rank (Sherman-Morrison-Woodbury) form is used,
    Y(tau) = X - tau U (I + tau/2 V^T U)^{-1} V^T X with U = [G, X], V = [X, -G],
    so only a 2r x 2r system is solved.

    Parameters
    ----------
    X : numpy.ndarray
        (n, r), a point on St(n, r).
    G : numpy.ndarray
        (n, r), the (Euclidean) gradient at X.
    tau : float
        The step.

    Returns
    -------
    numpy.ndarray
        (n, r), the next point on St(n, r).
    """
    n, r = X.shape
    if n <= 2 * r:
        W = G @ X.T - X @ G.T
        return cayley_matrix(W, tau) @ X
    U = np.hstack([G, X])
    V = np.hstack([X, -G])
    inner = np.eye(2 * r) + 0.5 * tau * (V.T @ U)
    return X - tau * U @ np.linalg.solve(inner, V.T @ X)


#: A trial point farther than this from St(n, r) (||Y^T Y - I||_F) is pulled back by the polar retraction.
DRIFT_TOL = 1e-12


def _trial_point(X: np.ndarray, G: np.ndarray, tau: float) -> np.ndarray | None:
    """Y(tau) on St(n, r), or None when I + tau/2 W is singular to rounding.

    For a large tau ||W|| (data scaled by 1e6-1e9, where the Barzilai-Borwein steps grow) the low-rank
    form loses orthogonality (||Y^T Y - I|| up to 22 was seen), and F(Y) can then lie below the
    global minimum on St(n, r). Such a Y is replaced by its polar factor, so every F the line search
    compares, and every accepted point, is a true value of F on St(n, r)."""
    try:
        Y = cayley_step(X, G, tau)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(Y)):
        return None
    return polar(Y) if feasibility(Y) > DRIFT_TOL else Y


def _det_cayley(W: np.ndarray, tau: float) -> float:
    """det Q(tau), NaN where I + tau/2 W is singular to rounding (a huge tau ||W||)."""
    try:
        return float(np.linalg.det(cayley_matrix(W, tau)))
    except np.linalg.LinAlgError:
        return np.nan


@one_blas_thread
def cayley_method(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None,
                  rng=None, callback: Callable[[Step], bool | None] | None = None, log_every: int = 1,
                  tau0: float | None = None, tol: float = 1e-8, armijo: float = 1e-4, shrink: float = 0.5,
                  tau_min: float = 1e-12, subgradient_h: Callable[[np.ndarray], np.ndarray] | None = None,
                  record_det: bool | None = None, keep_path: bool = False, verbose: bool = False,
                  progress: bool = False) -> Result:
    """Run the Cayley-transform feasible method (Wen & Yin 2013, Appendix C.1) from ``X0``.

    Parameters
    ----------
    problem : Problem
        Object with ``F(X)``, ``grad(X)`` (gradient of the smooth part) and ``h``.
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r).
    max_iter : int or None
        Iteration budget (default 500).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Accepted for the common solver signature; the method draws nothing.
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` after every iteration (``info``
        holds the step ``tau``); returning True stops.
    log_every : int
        History row every this many iterations (default 1: the runs are short).
    tau0 : float or None
        First step size; later ones are Barzilai-Borwein steps (default 0.1 / S, S = L_f the problem's
        scale).
    tol : float
        Stop when the Riemannian gradient norm ||W X||_F <= tol S (relative to the scale S).
    armijo, shrink : float
        Armijo constant and backtracking factor, F(Y) <= F(X) - armijo tau ||W||^2 / 2.
    tau_min : float
        Stop when backtracking needs a step below tau_min / S (the nonsmooth case stalls at kinks).
    subgradient_h : callable or None
        X -> an element of dh(X); default ``problem.h.subgradient``.
    record_det : bool or None
        Record det Q(tau) per step (Lemma A.3); default: when n <= 64.
    keep_path : bool
        Keep every iterate in ``result.info["path"]`` (for drawing trajectories).
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "cayley"``; history adds ``tau, grad_norm, det_Q`` (NaN where not recorded);
        ``stationarity`` = ||W X||_F / S at the returned X (stop reason "tol" when it is <= tol).

    Raises
    ------
    UnsupportedProblemError
        For a penalty h the Cayley curve cannot handle (the message says why).
    ValueError
        If ``shrink`` is not in (0, 1).
    """
    X = as_matrix(X0, "X0").copy()
    check_problem(problem, X, "X0", "cayley")
    as_rng(rng)  # drawn from by no one here, but a bad rng is still an error
    check_stiefel(X, "X0")
    n, r = X.shape
    if subgradient_h is None and not (problem.h.finite and problem.h.subgradient_informative):
        raise UnsupportedProblemError(f"cayley_method does not handle h = {problem.h!r}: a Cayley curve does not keep "
                                  "X >= 0, and the l0 subgradient is 0 almost everywhere (pass subgradient_h "
                                  "to force a heuristic)")
    for name, value in (("tau0", 1.0 if tau0 is None else tau0), ("tol", tol), ("armijo", armijo),
                        ("tau_min", tau_min)):
        check_nonnegative(value, name, strict=name != "tol")
    if not 0.0 < shrink < 1.0:
        raise ValueError(f"shrink must lie in (0, 1), got shrink = {shrink!r}")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)
    subgradient_h = problem.h.subgradient if subgradient_h is None else subgradient_h
    if record_det is None:
        record_det = n <= 64

    def gradient(Y):
        return problem.grad(Y) + subgradient_h(Y)

    rec = Recorder("cayley", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, columns=("tau", "grad_norm", "det_Q"), verbose=verbose, progress=progress)
    scale = problem_scale(problem)
    tau0 = 0.1 / scale if tau0 is None else float(tau0)
    tau_min, tol = tau_min / scale, tol * scale
    F = problem.F(X)
    G = gradient(X)
    path = [X.copy()] if keep_path else []
    tau = tau0
    stop_reason = "max_iter"
    it = 0
    W = G @ X.T - X @ G.T
    rec.stationarity = float(np.linalg.norm(W @ X)) / scale
    rec.log(0, X, F, grad_norm=float(np.linalg.norm(W @ X)))
    if rec.out_of_time():  # the setup used the whole budget
        max_iter, stop_reason = 0, "time_limit"
    for it in range(1, max_iter + 1):
        riemannian_norm = float(np.linalg.norm(W @ X))
        if riemannian_norm <= tol:
            it -= 1
            stop_reason = "tol"
            break
        decrease = 0.5 * float(np.sum(W * W))
        while True:
            Y = _trial_point(X, G, tau)
            F_new = problem.F(Y) if Y is not None else np.inf
            if F_new <= F - armijo * tau * decrease or tau < tau_min or rec.out_of_time():
                break
            tau *= shrink
        if tau < tau_min or Y is None or not F_new <= F - armijo * tau * decrease:
            it -= 1
            stop_reason = "tau_min" if tau < tau_min else "time_limit"  # X stays: no unchecked step
            break
        det_q = _det_cayley(W, tau) if record_det else np.nan
        G_new = gradient(Y)
        # Barzilai-Borwein step from the Riemannian gradients W X, as in Wen & Yin's Algorithm 2.
        W_new = G_new @ Y.T - Y @ G_new.T
        S, D = Y - X, W_new @ Y - W @ X
        sd = abs(float(np.sum(S * D)))
        tau_next = float(np.sum(S * S)) / sd if sd > 0 else tau0
        F_before = F
        X, F, G, W = Y, F_new, G_new, W_new
        if keep_path:
            path.append(X.copy())
        grad_norm = float(np.linalg.norm(W @ X))
        reason = rec.after_step(it, X, F, F_before, tau=tau, grad_norm=grad_norm, det_Q=det_q,
                                stationarity=grad_norm / scale)
        tau = min(max(tau_next, 1e-10 / scale), 1e10 / scale)
        if reason is not None:
            stop_reason = reason
            break
    return rec.result(X, it, stop_reason, F_tracked=F, info={"path": path},
                      stationarity=float(np.linalg.norm(W @ X)) / scale)


def cayley_symbolic() -> tuple:
    """Lemma A.3 in sympy: Q = (I + tau/2 A)^{-1} (I - tau/2 A) with A = [[0, a], [-a, 0]].

    Returns
    -------
    tuple
        ``(a, tau, Q)``: the two real sympy symbols and the 2 x 2 sympy matrix.
    """
    import sympy as sp

    a, tau = sp.symbols("a tau", real=True)
    A = sp.Matrix([[0, a], [-a, 0]])
    eye = sp.eye(2)
    return a, tau, sp.simplify((eye + tau / 2 * A).inv() * (eye - tau / 2 * A))

