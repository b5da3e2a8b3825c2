"""The inexact block step: OBCD's row blocks with one Riemannian gradient step instead of the global solve.

The pattern of randomized submanifold descent (RSDM-style methods; the shared notes record a code
excerpt, its repository unresolved, so no attribution beyond the pattern is claimed): pick k rows
B, form M = G_B Z^T with Z = X(B, :) and G = grad f(X), and take one retracted gradient step on
O(k) from V = I. Here the retraction is the Cayley transform of :mod:`.cayley` (Wen & Yin 2013),

    W = M - M^T,   V = (I + t/2 W)^{-1} (I - t/2 W),   X(B, :) <- V Z,

and the step size comes from the majorizer of OBCD's eq. (11): for the quadratic f,
f(X + U_B (V - I) Z) - f(X) = <M, V - I> + 1/2 vec(V - I)^T Q vec(V - I) exactly, with Q of
eq. (9) and ||Q||_2 <= varsigma of eq. (10). With E = V - I + t W one has
||V - I||_F <= t ||W||_F and ||E||_F <= t^2 ||W||_2 ||W||_F / 2 (Cayley of a skew W), so

    f(new) - f(X) <= -t/2 ||W||_F^2 (1 - t L_B),   L_B = varsigma + ||M||_F,

and the step t = 1 / (2 L_B) gives the sufficient decrease f(new) <= f(X) - ||W||_F^2 / (8 L_B)
(checked on every step in ``tests/solvers/test_obcd_step.py``). V is the Cayley transform of a
skew matrix, so det V = +1: the method moves by rotations only and, like OBCD with
``branches="rot"``, never leaves SO(n) X0 on a square problem.

Against :func:`~.obcd.obcd` with the same k, working sets and rng, the only difference is the
block update (one step vs the global minimization of eq. (11) over O(k) with both branches), so
the pair measures what the global solve buys.

Smooth f only (h = 0). A nonsmooth h is declined, because no sound one-step version is known here:
the proximal step on the block, min over V in O(k) of <M, V - I> + L/2 ||V - I||^2 + h(V Z), has no
closed form for a separable h (h(V Z) couples all of V; for k = 2 it is OBCD's own search on the
circle, i.e. the exact method again); a ManPG-type step in the tangent space of O(k) needs a
semismooth Newton solve per block plus a line search on h after the retraction (ManPG on O(k),
not a one-step method); a prox in the ambient space followed by a projection onto the orbit V Z
loses the decrease guarantee, and for l0 / X >= 0 (nonconvex or an indicator) the projection
can undo the prox entirely.

Engines: for k = 2 on a :class:`~obcd_lite.problems.QuadraticProblem` the step is compiled
(:func:`pair_steps`: OBCD's ``block_arithmetic`` for M and varsigma, the Cayley rotation in closed
form, V = [[1 - b^2, -2 b], [2 b, 1 - b^2]] / (1 + b^2) with b = t w / 2, w = M_12 - M_21, and
``step_2x2`` for G and f), so its time compares with OBCD's compiled engine; k > 2 (or another
problem type) runs the NumPy step :func:`block_step`.

Defaults: k = 2, working_set = "random" (OBCD's uniform draws), max_iter = 10,000, log_every =
100 (OBCD's). One iteration is one block; F is tracked exactly from the change of the block
(``problem.apply_step``, Appendix C.3 (i)) and recomputed at the returned X for ``Result.F``.
"""
from __future__ import annotations

import itertools
import math
from typing import Callable

import numpy as np
from numba import njit

from ..block_arithmetic import block_2x2, step_2x2
from ..problems import QuadraticProblem
from ..protocol import is_quadratic
from ..results import Recorder, Result, Step, check_budget, riemannian_gradient_norm
from ..threads import one_blas_thread
from ..validation import UnsupportedProblemError, as_matrix, check_problem, check_stiefel
from .cayley import cayley_matrix
from .obcd import COMPILED_CHUNK, DEFAULT_MAX_ITER, WORKING_SET_RULES, working_sets


def block_step(problem, X: np.ndarray, G: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The step on the rows B: V = Cayley(W, t) with t = 1 / (2 L_B).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X, G : numpy.ndarray
        (n, r), the iterate and grad f(X).
    B : numpy.ndarray
        The k row indices.

    Returns
    -------
    tuple
        ``(V, t, bound)``: the k x k rotation, the step and the guaranteed decrease
        ||W||_F^2 / (8 L_B) (0 when W = 0: V = I).
    """
    Z = X[B]
    M = G[B] @ Z.T
    W = M - M.T
    norm_W = float(np.linalg.norm(W))
    L_B = problem.scalar_Q(B, Z) + float(np.linalg.norm(M))
    if norm_W == 0.0 or L_B == 0.0:  # a block stationary point: no move
        return np.eye(len(B)), 0.0, 0.0
    t = 0.5 / L_B
    return cayley_matrix(W, t), t, norm_W**2 / (8.0 * L_B)


@njit(cache=True)
def pair_steps(C, D, X, G, blocks, F, out):
    """Do the k = 2 steps of ``blocks`` in place on X and G; return the tracked F.

    Parameters
    ----------
    C, D : numpy.ndarray
        The quadratic f's data (D (0, 0) for the identity).
    X, G : numpy.ndarray
        (n, r), the iterate and grad f(X), updated in place.
    blocks : numpy.ndarray
        (m, 2) int64 working sets.
    F : float
        F(X) on entry.
    out : numpy.ndarray
        (m, 3), receives t, the guaranteed decrease ||W||_F^2 / (8 L_B) and b = t w / 2 of each step
        (V is the Cayley rotation of b, see the module docstring).

    Returns
    -------
    float
        The tracked F after the steps.
    """
    r = X.shape[1]
    Z, ZD, dZ, buf = np.empty((2, r)), np.empty((2, r)), np.empty((2, r)), np.empty((2, r))
    Qt, P = np.empty((4, 4)), np.empty((2, 2))
    for s in range(blocks.shape[0]):
        b0, b1 = blocks[s, 0], blocks[s, 1]
        block_2x2(C, D, X, G, b0, b1, 0.0, False, Z, ZD, Qt, P)  # Qt = varsigma I, P = M - varsigma I
        sigma = Qt[0, 0]
        w = P[0, 1] - P[1, 0]
        L_B = sigma + math.sqrt((P[0, 0] + sigma) ** 2 + P[0, 1] ** 2 + P[1, 0] ** 2 + (P[1, 1] + sigma) ** 2)
        t = bound = b = 0.0
        if w != 0.0 and L_B != 0.0:
            t = 0.5 / L_B
            b = 0.5 * t * w
            bound = 2.0 * w * w / (8.0 * L_B)
        c, sn = (1.0 - b * b) / (1.0 + b * b), 2.0 * b / (1.0 + b * b)
        for j in range(r):
            new0 = c * Z[0, j] - sn * Z[1, j]
            new1 = sn * Z[0, j] + c * Z[1, j]
            dZ[0, j], dZ[1, j] = new0 - Z[0, j], new1 - Z[1, j]
            X[b0, j], X[b1, j] = new0, new1
        F += step_2x2(C, D, G, b0, b1, dZ, buf)
        out[s, 0], out[s, 1], out[s, 2] = t, bound, b
    return F


def _cayley_rotation(b: float) -> np.ndarray:
    return np.array([[1.0 - b * b, -2.0 * b], [2.0 * b, 1.0 - b * b]]) / (1.0 + b * b)


@one_blas_thread
def obcd_step(problem, X0, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
              callback: Callable[[Step], bool | None] | None = None, log_every: int = 100, k: int = 2,
              working_set: str = "random", tol: float | None = None, verbose: bool = False,
              progress: bool = False) -> Result:
    """Run the inexact block method (OBCD's loop, one Cayley gradient step per block) from ``X0``.

    Parameters
    ----------
    problem : QuadraticProblem
        :class:`~obcd_lite.problems.QuadraticProblem` (or an object with its methods) with h = 0.
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r).
    max_iter : int or None
        Iteration budget (default 10,000).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Int seed or Generator for the random working sets (the same draws as :func:`~.obcd.obcd`).
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` after every iteration (``info`` holds
        the step ``t`` and the guaranteed decrease ``bound``); returning True stops.
    log_every : int
        History row every this many iterations.
    k : int
        Block size, 2 <= k <= n.
    working_set : str
        "random" or "cyclic", as in OBCD.
    tol : float or None
        Stop (reason "tol") at the first log point where the Riemannian gradient norm
        ||G - X sym(X^T G)||_F / S (S = L_f, the problem's scale) is <= tol; None (default): never.
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "obcd_step"``; history adds ``t``; ``stationarity`` the measure above at the returned X.

    Raises
    ------
    UnsupportedProblemError
        For h other than ``Zero()`` or a non-quadratic f.
    ValueError
        If n < 2, ``k`` is not an integer in 2..n, or ``working_set`` is not "random" or "cyclic".
    """
    X = np.array(as_matrix(X0, "X0"), order="C")
    check_problem(problem, X, "X0", "obcd_step")
    check_stiefel(X, "X0")
    n, _ = X.shape
    if not problem.h.is_zero:
        raise UnsupportedProblemError(f"obcd_step handles smooth f only (h = 0), got h = {problem.h!r}: a proximal "
                                      "step on O(k) has no closed form (see the module docstring)")
    if not is_quadratic(problem):
        raise UnsupportedProblemError(f"obcd_step needs a quadratic f, got a {type(problem).__name__}: its step "
                                      "1 / (2 L_B) and the decrease it guarantees come from the exact quadratic "
                                      "model of f along the block (module docstring); use obcd (verified scalar Q)")
    problem.check_point(X, "X0")
    if n < 2:
        raise ValueError(f"obcd_step needs n >= 2 rows to form a block of rows, got X0 of shape {X.shape}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 2 <= k <= n:
        raise ValueError(f"k must be an integer with 2 <= k <= n = {n}, got k = {k!r}")
    if working_set not in WORKING_SET_RULES:
        raise ValueError(f"working_set must be 'random' or 'cyclic', got {working_set!r}")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)
    blocks = working_sets(n, k, working_set, rng)
    def gradient_norm(Y):  # G: the gradient the method keeps up to date in place
        return riemannian_gradient_norm(Y, G, rec.scale())

    rec = Recorder("obcd_step", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, columns=("t",), tol=tol, stationarity=gradient_norm, verbose=verbose,
                   progress=progress)
    G = np.ascontiguousarray(problem.grad(X))
    F = problem.f_from_grad(X, G)
    rec.log(0, X, F)
    if rec.out_of_time():  # the setup (the first gradient) used the whole budget
        return rec.result(X, 0, "time_limit", F_tracked=F)
    compiled = k == 2 and isinstance(problem, QuadraticProblem)
    stop_reason, it = "max_iter", 0
    while it < max_iter:
        m = 1 if callback is not None or not compiled else min(COMPILED_CHUNK, max_iter - it,
                                                               rec.log_every - it % rec.log_every)
        F_before = F
        if compiled:
            chunk = np.array(list(itertools.islice(blocks, m)), dtype=np.int64).reshape(m, 2)
            out = np.empty((m, 3))
            F = pair_steps(*problem.compiled_arrays(), X, G, chunk, F, out)
            B, (t, bound, b) = chunk[-1], out[-1]
            V = _cayley_rotation(b) if callback is not None else None
        else:
            B = next(blocks)
            V, t, bound = block_step(problem, X, G, B)
            Z = X[B]
            VZ = V @ Z
            F += problem.apply_step(G, B, VZ - Z)
            X[B] = VZ
        it += m
        reason = rec.after_step(it, X, F, F_before, B, V, t=float(t), bound=float(bound))
        if reason is not None:
            stop_reason = reason
            break
    return rec.result(X, it, stop_reason, F_tracked=F)
