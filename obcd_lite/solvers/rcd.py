"""RCD: Riemannian coordinate descent by Givens rotations of row pairs (a relative of OBCD).

Source paper: A. Han, P. Jawanpuria, B. Mishra, "Riemannian coordinate descent algorithms on
matrix manifolds", ICML 2024. Reference code, ported here (method only, not copied):
``andyjm3/rcd:proposed/coordinate_descent_orthogonal.m`` (MATLAB on Manopt; its experiments
``test_procrustes.m`` and ``test_pca.m``).

One update, for a pair of rows i < j of X (n x r) and the Euclidean gradient G:

    eta = -stepsize (<G_i, X_j> - <G_j, X_i>)          (-stepsize times d/d eta f at eta = 0)
    X_i <- cos(eta) X_i + sin(eta) X_j,   X_j <- -sin(eta) X_i + cos(eta) X_j

i.e. X <- R X with R a Givens rotation of O(n): one gradient step on the angle, no exact
minimization, **rotations only** (det R = +1). On a square problem the iterates therefore stay in
SO(n) X0; when the minimizer has the other determinant the method plateaus (notebook 07).
In OBCD's terms: working set B = (i, j), V restricted to the rotation circle, and V one gradient
step from I instead of the global solve of eq. (11).

A sweep is ``numupdates`` updates; the pairs of a sweep follow ``update_type``:
"cyclic" (lexicographic (0, 1), (0, 2), ..., (n - 2, n - 1)), "replace" (uniform, with
replacement: MATLAB's ``randsample(nn, numupdates, true)``) or "noreplace" (``randperm(nn, m)``,
m = min(nn, numupdates) distinct pairs). With ``linearization=True`` (the code's default) G is
computed once per sweep at the sweep's first X and reused by every update of the sweep (a stale,
"linearized" gradient: ~10 r flops per update); with ``linearization=False`` every update reads
the current gradient (the code's ``egradrowi``), here kept up to date in O(nr) per update by
``block_arithmetic.step_2x2`` (Appendix C.3 (i)), which also tracks f exactly.

Defaults from the code: stepsize = 1 / S (the code's 1 at S = 1, below), update_type = "cyclic", linearization
= True, numupdates = C(n, 2) (every pair once per sweep), maxiter = 100 sweeps. The step has the units of 1 /
F, so the default is relative to the problem's scale S = L_f (:func:`~obcd_lite.results.problem_scale`) and
the problem s F runs the same iterates (issue 34). The code's step is absolute (its Procrustes cost carries a
1/p, and its experiments tune the step: 1.1 to 1.3); so was ours until issue 34: a too large step for the
problem's scaling oscillates, a too small one crawls (data scaled to ||A||_F = 1 has ||C||_2 << 1; at ||C|| =
1e-8 RCD never moved X0). ``stepsize="lipschitz"`` (not in the code) takes 1 / L_eta with L_eta = sqrt(2)
(||C|| ||D|| sqrt(r) + ||L||_F) + 2 ||C|| ||D|| >= |phi''| for phi(eta) = f(R(eta) X) (phi'' = -<G_B, Z> +
tr(Z'^T C_BB Z' D), ||Z||_F^2 = ||Z'||_F^2 <= 2): with the current gradient (``linearization=False``) every
update then decreases f (descent lemma); with the linearized gradient no decrease is guaranteed at any step
size.

Differences from the reference code (all deliberate):

* Iterations: one iteration here is one pair update (OBCD's unit: one block), not one sweep;
  ``max_iter`` defaults to 100 sweeps (100 * numupdates updates), ``log_every`` to one sweep, and
  ``Result.iterations`` counts updates.
* Stopping: the common budget (``max_iter``, ``time_limit``, callback). The code's stop on
  ``optgap < minoptgaptol`` (1e-3) needs the known optimum and is left out; its clock is read
  after every sweep, ours at least every :data:`CHUNK` updates and at every log row.
* "cyclic" with numupdates < C(n, 2): the code restarts at the first pair every sweep (the later
  pairs are never visited); here the cycle continues where the last sweep stopped. Same at the
  default numupdates.
* F: ``Result.F`` is recomputed at the returned X (the code logs ``problem.cost(X)`` per sweep
  too). With linearization the history's F is computed at each log row from the fresh gradient
  (at a sweep end, where the method needs it anyway) or by ``problem.F`` (elsewhere).
* The Stiefel variant (``coordinate_descent_stiefel.m``: column pairs, i.e. the right action of
  O(r), plus a geodesic step for i = j) is not ported: the row-pair update above is defined on
  every St(n, r) (the left action of O(n) is transitive on it), is the one compared with OBCD's
  row blocks, and the column rotations do nothing for objectives invariant under X -> X W
  (PCA).
* Smooth f only (h = 0): a nonsmooth penalty is declined before any work (the angle step needs a
  gradient; l1's subgradient step would be a different, unpublished method).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from numba import njit

from ..block_arithmetic import step_2x2
from ..problems import QuadraticProblem
from ..results import Recorder, Result, Step, check_budget, problem_scale, riemannian_gradient_norm
from ..threads import one_blas_thread
from ..validation import UnsupportedProblemError, as_matrix, as_rng, check_nonnegative, check_problem, check_stiefel

#: The code's pair orders.
UPDATE_TYPES = ("cyclic", "replace", "noreplace")
#: max_iter when none is given, in sweeps (the code's maxiter).
DEFAULT_SWEEPS = 100
#: Most updates between two reads of the clock.
CHUNK = 1024
_EMPTY = np.empty((0, 0))


@njit(cache=True)
def rcd_updates(X, G, pairs, stepsize, fresh, C, D, eta_out):
    """Do the updates of ``pairs`` in place on X; return the change of f.

    Parameters
    ----------
    X, G : numpy.ndarray
        (n, r), the iterate and the gradient.
    pairs : numpy.ndarray
        (m, 2) int64, rows i < j.
    stepsize : float
        The step on the angle.
    fresh : bool
        False uses G as given (linearized) and returns 0.0; True keeps G = grad f(X) of the quadratic f
        up to date after every update and returns the exact change of f.
    C, D : numpy.ndarray
        The quadratic f's data, as in ``block_arithmetic.step_2x2``.
    eta_out : numpy.ndarray
        (1,), receives the last angle.

    Returns
    -------
    float
        The change of f (0.0 when not ``fresh``).
    """
    r = X.shape[1]
    dZ = np.empty((2, r))
    buf = np.empty((2, r))
    change = 0.0
    for t in range(pairs.shape[0]):
        i, j = pairs[t, 0], pairs[t, 1]
        gi_xj = 0.0
        gj_xi = 0.0
        for m in range(r):
            gi_xj += G[i, m] * X[j, m]
            gj_xi += G[j, m] * X[i, m]
        eta = -stepsize * (gi_xj - gj_xi)
        c, s = np.cos(eta), np.sin(eta)
        for m in range(r):
            xi, xj = X[i, m], X[j, m]
            new_i = xi * c + xj * s
            new_j = -xi * s + xj * c
            dZ[0, m], dZ[1, m] = new_i - xi, new_j - xj
            X[i, m], X[j, m] = new_i, new_j
        if fresh:
            change += step_2x2(C, D, G, i, j, dZ, buf)
        eta_out[0] = eta
    return change


def angle_lipschitz(problem: QuadraticProblem, r: int) -> float:
    """A bound on the second derivative of f along any pair rotation of a point of St(n, r).

    L_eta = sqrt(2) (||C|| ||D|| sqrt(r) + ||L||_F) + 2 ||C|| ||D|| (module docstring).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    r : int
        The number of columns.

    Returns
    -------
    float
        L_eta.
    """
    curvature = problem.lipschitz()
    linear = 0.0 if problem.L is None else float(np.linalg.norm(problem.L))
    return float(np.sqrt(2.0) * (curvature * np.sqrt(r) + linear) + 2.0 * curvature)


def all_pairs(n: int) -> np.ndarray:
    """The C(n, 2) pairs (i, j), i < j, in the code's (lexicographic) order.

    Parameters
    ----------
    n : int
        The number of rows.

    Returns
    -------
    numpy.ndarray
        (C(n, 2), 2) int64.
    """
    i, j = np.triu_indices(n, k=1)
    return np.column_stack((i, j)).astype(np.int64)


class _Sweeps:
    """The pair indices of each sweep, drawn as the code draws them (see the module docstring)."""

    def __init__(self, count: int, numupdates: int, update_type: str, rng):
        self.count, self.update_type = count, update_type
        self.length = numupdates if update_type == "replace" else min(count, numupdates)
        self._rng = as_rng(rng)
        self._cursor = 0

    def next(self) -> np.ndarray:
        if self.update_type == "replace":
            return self._rng.integers(0, self.count, size=self.length)
        if self.update_type == "noreplace":
            return self._rng.permutation(self.count)[:self.length]
        seq = (self._cursor + np.arange(self.length)) % self.count
        self._cursor = int((self._cursor + self.length) % self.count)
        return seq


@one_blas_thread
def rcd(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
        callback: Callable[[Step], bool | None] | None = None, log_every: int | None = None,
        stepsize: float | str | None = None, update_type: str = "cyclic", linearization: bool = True,
        numupdates: int | None = None, tol: float | None = None, verbose: bool = False,
        progress: bool = False) -> Result:
    """Run RCD (Han, Jawanpuria, Mishra 2024; ``coordinate_descent_orthogonal.m``) from ``X0``.

    Parameters
    ----------
    problem : Problem
        With ``grad(X)``, ``f_from_grad(X, G)``, ``F(X)`` and ``h`` (h must be zero);
        ``linearization=False`` needs a :class:`~obcd_lite.problems.QuadraticProblem`.
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r), n >= 2.
    max_iter : int or None
        Budget in pair updates (default 100 sweeps = 100 * numupdates).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Int seed or Generator for "replace" / "noreplace" (cyclic draws nothing).
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` after every update (``B`` the pair,
        ``V`` its 2 x 2 rotation, ``info["eta"]`` the angle); returning True stops.
    log_every : int or None
        History row every this many updates (default: one sweep, as the code logs).
    stepsize : float or str or None
        The angle's step (the code's ``stepsize``; default 1 / S, S = L_f the problem's scale), or
        "lipschitz" for 1 / L_eta (a QuadraticProblem; see the module docstring).
    update_type : str
        "cyclic" (default), "replace" or "noreplace", the code's pair orders.
    linearization : bool
        True (default): the gradient once per sweep; False: the current gradient.
    numupdates : int or None
        Updates per sweep (default C(n, 2)).
    tol : float or None
        Stop (reason "tol") at the first log point (default: every sweep) where the Riemannian gradient
        norm ||G - X sym(X^T G)||_F / S at the current X (a fresh gradient; S = L_f, the problem's scale) is
        <= tol; None (default): never.
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "rcd"``; F recomputed at the returned X; ``info["sweeps"]`` sweeps started;
        ``stationarity`` the measure above at the returned X.

    Raises
    ------
    UnsupportedProblemError
        For h other than ``Zero()``.
    ValueError
        If n < 2, ``stepsize``, ``update_type`` or ``numupdates`` is not valid, or a QuadraticProblem is needed (``stepsize="lipschitz"``, ``linearization=False``) and not given.
    TypeError
        If ``linearization`` is not True or False.
    """
    X = np.array(as_matrix(X0, "X0"), order="C")
    check_problem(problem, X, "X0", "rcd")
    check_stiefel(X, "X0")
    n, r = X.shape
    if not problem.h.is_zero:
        raise UnsupportedProblemError(f"rcd handles smooth f only (h = 0), got h = {problem.h!r}: the angle step "
                                      "of Han et al. needs a gradient")
    if n < 2:
        raise ValueError(f"rcd needs n >= 2 rows to rotate a pair, got X0 of shape {X.shape}")
    if hasattr(problem, "check_point"):
        problem.check_point(X, "X0")
    if isinstance(stepsize, str) and stepsize == "lipschitz":
        if not isinstance(problem, QuadraticProblem):
            raise ValueError(f"stepsize='lipschitz' needs a QuadraticProblem, got a {type(problem).__name__}")
        stepsize = 1.0 / angle_lipschitz(problem, r)
    if isinstance(stepsize, str):
        raise ValueError(f"stepsize must be a positive number or 'lipschitz', got stepsize = {stepsize!r}")
    if stepsize is not None:
        stepsize = check_nonnegative(stepsize, "stepsize", strict=True)
    if update_type not in UPDATE_TYPES:
        raise ValueError(f"update_type must be 'cyclic', 'replace' or 'noreplace', got {update_type!r}")
    if not isinstance(linearization, (bool, np.bool_)):
        raise TypeError(f"linearization must be True or False, got {linearization!r}")
    if not linearization and not isinstance(problem, QuadraticProblem):
        raise ValueError(f"linearization=False needs a QuadraticProblem (the gradient is updated in place), "
                         f"got a {type(problem).__name__}")
    count = n * (n - 1) // 2  # the C(n, 2) pairs
    if numupdates is None:
        numupdates = count
    if isinstance(numupdates, bool) or not isinstance(numupdates, (int, np.integer)) or numupdates < 1:
        raise ValueError(f"numupdates must be a positive integer, got numupdates = {numupdates!r}")
    sweeps = _Sweeps(count, int(numupdates), update_type, rng)
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_SWEEPS * sweeps.length)
    rec = Recorder("rcd", problem, max_iter=max_iter, time_limit=time_limit,
                   log_every=sweeps.length if log_every is None else log_every, callback=callback,
                   columns=("eta",), tol=tol, verbose=verbose, progress=progress,
                   stationarity=lambda Y: riemannian_gradient_norm(Y, problem.grad(Y), rec.scale()))
    if stepsize is None:  # 1 / L_f, on the clock: part of the setup
        stepsize = 1.0 / problem_scale(problem)
    pairs = all_pairs(n)  # O(n^2) memory and time: part of the setup, on the clock
    C, D = problem.compiled_arrays() if not linearization else (_EMPTY, _EMPTY)
    eta = np.zeros(1)

    G = np.ascontiguousarray(problem.grad(X))
    F = problem.f_from_grad(X, G)
    rec.log(0, X, F)
    if rec.out_of_time():  # the setup used the whole budget
        return rec.result(X, 0, "time_limit", F_tracked=F, info={"sweeps": 0})
    seq, pos, started, fresh_G = sweeps.next(), 0, 1, True
    F_at = 0  # the iteration at which F was last computed (the linearized method skips it in between)
    stop_reason, it = "max_iter", 0
    while it < max_iter:
        if pos == sweeps.length:  # a new sweep: new pairs; the linearized method refreshes G
            seq, pos, started = sweeps.next(), 0, started + 1
            if linearization and not fresh_G:
                G = np.ascontiguousarray(problem.grad(X))
        m = 1 if callback is not None else min(CHUNK, sweeps.length - pos, max_iter - it,
                                               rec.log_every - it % rec.log_every)
        block = pairs[seq[pos:pos + m]]
        F_before = F
        change = rcd_updates(X, G, block, stepsize, not linearization, C, D, eta)
        it, pos, fresh_G = it + m, pos + m, False
        if not linearization:
            F += change
            F_at = it
        elif it % rec.log_every == 0 or callback is not None:
            F_at = it
            if pos == sweeps.length:  # the gradient the next sweep needs gives F in O(nr)
                G, fresh_G = np.ascontiguousarray(problem.grad(X)), True
                F = problem.f_from_grad(X, G)
            else:
                F = problem.f(X)
        V = None
        if callback is not None:
            c, s = np.cos(eta[0]), np.sin(eta[0])
            V = np.array([[c, s], [-s, c]])
        reason = rec.after_step(it, X, F, F_before, block[-1] if callback is not None else None, V,
                                eta=float(eta[0]))
        if reason is not None:
            stop_reason = reason
            break
    return rec.result(X, it, stop_reason, F_tracked=F if F_at == it else None,
                      info={"sweeps": started})
