"""OBCD, Algorithm 1: block coordinate descent on St(n, r) by k-row updates.

Each iteration picks a working set B of k rows, builds the majorizer
K(V; X, B) of eq. (11) with Q from eq. (9) ("exact") or eq. (10) ("scalar"),
minimizes it globally over V in O(k) and sets X(B, :) <- V X(B, :).
The gradient is kept up to date incrementally in O(nrk) per step
(Appendix C.3) and F is tracked exactly from the change of the k rows.

Feasibility: X^T X = I is preserved by construction (Lemma 2.1); V is built
from a unit (cos, sin) pair, so rounding adds O(eps) per step. The history
records ||X^T X - I||_F so the drift can be watched; the tests bound it after
10^6 steps.

Two engines run the same iteration: "python" (the loop below, for any problem with
QuadraticProblem's methods, any penalty, any k, callbacks) and "compiled" (k = 2 on a
QuadraticProblem with a built-in penalty, no callback: the whole iteration in numba,
:mod:`.obcd_kernel`, called in chunks between log points and clock checks). Both draw the
working sets from the same batches and run the same compiled k = 2 arithmetic
(``block_arithmetic``, the sweep), so their iterates agree bit for bit.

Reading map: one step, file by file
-----------------------------------
The map with file:line ranges, checked by ``tests/test_reading_map.py``, is on the site's package page
(``docs/package.md``, "Reading one OBCD step"; every name is in its glossary). In short:

1. ``solvers/obcd.py`` — :func:`obcd` (below): checks, the engine, the working sets B
   (:func:`working_sets`), then the Python engine's loop: one step is the five lines after
   ``B = next(blocks)``.
2. ``subproblem/majorizer.py`` — ``block_data_unchecked``: (Qt, P, Z) of problem (3), the majorizer K of
   eq. (11) up to its constant (Lemma 2.3(a)); for k = 2 a ``QuadraticProblem`` computes the same
   numbers compiled (``QuadraticProblem.block_2x2`` -> ``block_arithmetic.block_2x2``).
3. ``minimize_block`` (``subproblem/majorizer.py``): for k = 2 ``breakpoint.solve_2x2_unchecked``, the
   compiled sweep (``sweep.sweep_2x2``); for k > 2 (h = 0) ``majorizer.solve_kxk``. *How* the k = 2
   subproblem is solved: read ``subproblem/reference.py`` (``reference_2x2``, Appendix B in plain loops)
   instead of the compiled code; the sweep's helpers (``crossings``, ``window``, ``arcs``,
   ``polynomial_roots``) are for speed.
4. ``problems.py`` — ``QuadraticProblem.apply_step`` -> ``block_arithmetic.step_2x2``: the exact
   change of f and the O(nr) gradient update G += C(:, B) dZ D (Appendix C.3); back in
   :func:`obcd`, F += that change + h(VZ) - h(Z) and X(B, :) <- V Z.
5. ``results.py`` — ``Recorder.after_step``: history, callback, stop rules; ``Recorder.result``.

What runs by default for l1 (and every built-in penalty, k = 2, no callback) is the compiled
engine: ``_run_compiled`` -> ``solvers/obcd_kernel.py``'s ``run_steps``, steps 2-4 in one numba
loop calling the same functions (bit for bit the Python engine's iterates); read its docstring,
not its body.
"""
from __future__ import annotations

import itertools
from typing import Callable

import numpy as np

from ..threads import one_blas_thread
from ..penalties import ZERO_KIND
from ..problems import QuadraticProblem
from ..results import (DECREASE, Recorder, Result, Step, check_budget, problem_scale,
                       riemannian_gradient_norm)
from ..stiefel import BRANCHES
from ..protocol import is_quadratic
from ..subproblem import MAJORIZER_Q, block_data_unchecked
from ..subproblem.majorizer import minimize_block
from ..validation import UnsupportedProblemError, as_matrix, as_rng, check_nonnegative, check_problem, check_stiefel
from .obcd_kernel import run_steps_for
from .obcd_pairs import run_matching
from .obcd_smooth import run_smooth

#: max_iter when none is given.
DEFAULT_MAX_ITER = 10_000
WORKING_SET_RULES = ("random", "cyclic")
#: The working_set of :func:`obcd` that takes many disjoint pairs per gradient (:mod:`.obcd_pairs`).
MATCHING = "matching"
ENGINES = (None, "compiled", "python")
#: Most steps of one compiled chunk: the clock (time_limit) is read at least this often.
COMPILED_CHUNK = 1024
_NO_TRACE = np.empty((0, 2))


def working_sets(n: int, k: int, rule: str, rng=None):
    """Yield working sets B (sorted index arrays of length k) forever.

    Parameters
    ----------
    n, k : int
        2 <= k <= n.
    rule : str
        "random" (uniform over the C(n, k) subsets, independently each time) or
        "cyclic" (every subset in lexicographic order, then again).
    rng : int, numpy.random.Generator or None
        Int seed or Generator for "random".

    Returns
    -------
    generator of numpy.ndarray
        The working sets, one after the other.
    """
    return (B for batch in _working_set_batches(n, k, rule, rng) for B in batch)


def _working_set_batches(n: int, k: int, rule: str, rng=None):
    """The working sets of :func:`working_sets` as a stream of (m, k) int arrays (the same sets in
    the same order): the compiled engine takes them in chunks, the Python engine one by one."""
    if rule not in WORKING_SET_RULES:
        raise ValueError(f"rule must be 'random' or 'cyclic', got {rule!r}")
    if (not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in (n, k))
            or not 1 <= k <= n):
        raise ValueError(f"need integers 1 <= k <= n, got n = {n!r}, k = {k!r}")
    return _cyclic_batches(n, k) if rule == "cyclic" else _random_batches(n, k, as_rng(rng))


def _cyclic_batches(n: int, k: int):
    while True:
        if k == 2:  # (i, i + 1), ..., (i, n - 1) for each i: lexicographic order, O(n) per batch
            for i in range(n - 1):
                yield np.column_stack((np.full(n - 1 - i, i), np.arange(i + 1, n)))
        else:
            subsets = itertools.combinations(range(n), k)
            while batch := list(itertools.islice(subsets, 4096)):
                yield np.array(batch).reshape(-1, k)


def _random_batches(n: int, k: int, rng: np.random.Generator):
    # Uniform k-tuples conditioned on distinct entries are uniform over subsets.
    batch = 4096
    accept = np.prod([(n - i) / n for i in range(k)])
    while True:
        if accept > 0.05:
            draws = np.sort(rng.integers(0, n, size=(int(batch / accept) + 16, k)), axis=1)
            yield draws[np.all(np.diff(draws, axis=1) > 0, axis=1)]
        else:
            yield np.sort(np.argsort(rng.random((batch, n)), axis=1)[:, :k], axis=1)


class _BlockChunks:
    """Takes the next m working sets of a batch stream as one C-contiguous (m, k) int64 array."""

    def __init__(self, batches):
        self._batches = batches
        self._rest = np.empty((0, 0), dtype=np.int64)

    def take(self, m: int) -> np.ndarray:
        parts, have = [], 0
        while have < m:
            if not len(self._rest):
                self._rest = next(self._batches)
                continue
            part, self._rest = self._rest[:m - have], self._rest[m - have:]
            parts.append(part)
            have += len(part)
        return np.ascontiguousarray(np.concatenate(parts), dtype=np.int64)


#: The paper's proximal parameter ("We set alpha = 10^-5 for OBCD", its experiment settings).
PAPER_ALPHA = 1e-5


def default_alpha(problem) -> float:
    """OBCD's alpha when none is given: 1e-5 S, the paper's 1e-5 relative to the problem's scale
    S = L_f = ||C||_2 ||D||_2 (:func:`~obcd_lite.results.problem_scale`).

    Why relative (issues 27 and 34): the proximal term alpha/2 ||V - I||^2 competes with the decrease of F a
    block step gains, which scales with ||C||. An absolute alpha freezes OBCD on a problem scaled down (at
    ||C|| = 1e-8 every step gains less than alpha costs and OBCD returns X0) and makes it a different
    method on one scaled up. Under X >= 0 the useful two-row steps are exchanges of whole rows
    (||V - I||^2 = 4), and on the paper's data (||A||_F = 1, tr C = 1, ||C||_2 ~ 6e-3 for randn-500-1000)
    one gains ~1e-5, below 2 alpha at alpha = 1e-5: OBCD stalls at F = -0.0175, far above the paper's
    -0.0211, which it reaches with alpha ~ 1e-7 (``benchmarks/nonneg_alpha.py``). 1e-5 S keeps the paper's
    value at S = 1; the problem s P then gets alpha s times P's, and the same iterates up to the factor s.
    (Until issue 34, h = 0, l0 and l1 kept an absolute 1e-5.)

    Parameters
    ----------
    problem : Problem
        The problem; ``lipschitz()`` gives S.

    Returns
    -------
    float
        The proximal parameter alpha of eq. (11).
    """
    return PAPER_ALPHA * problem_scale(problem)


@one_blas_thread
def obcd(problem, X0, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
         callback: Callable[[Step], bool | None] | None = None, log_every: int = 100, k: int = 2,
         alpha: float | None = None, working_set: str = "random", Q: str | None = None,
         branches: str = "both", engine: str | None = None, sigma0: float | None = None, tol: float | None = None,
         verbose: bool = False, progress: bool = False) -> Result:
    """Run OBCD (Algorithm 1) on ``problem`` from ``X0``.

    Parameters
    ----------
    problem : Problem
        A QuadraticProblem (exact Q, compiled engine), or any smooth f (:class:`~obcd_lite.smooth.SmoothProblem`,
        ``from_pymanopt``): the scalar Q of eq. (10), or the Hessian's Q where it has ``hessvec``, with the
        majorization verified on every step (:mod:`.obcd_smooth`).
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r).
    max_iter : int or None
        Iteration budget (default 10,000).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Int seed or Generator for the random working sets.
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` (read-only X, B, V, F before and
        after) after every iteration; returning True stops.
    log_every : int
        Record a history row every this many iterations.
    k : int
        Block size, 2 <= k <= n. k > 2 needs h = 0 and Q = "scalar" (SVD subproblem).
    alpha : float or None
        Proximal parameter alpha > 0 of eq. (11); None takes :func:`default_alpha` (the paper's 1e-5
        relative to the problem's scale: 1e-5 ||C||_2 ||D||_2).
    working_set : str
        "random" (uniform over the C(n, k) sets, the paper's rule), "cyclic", or "matching": many
        pairs per gradient (:mod:`.obcd_pairs`; k = 2, the verified scalar Q of eq. (10) for any problem,
        a QuadraticProblem included): every iteration draws a random perfect matching of the rows, solves
        every pair's subproblem from one gradient and checks the joint step once; one iteration = one
        matching (n // 2 pair steps).
    Q : str or None
        "exact" (eq. (9)), "scalar" (eq. (10), Lemma C.2's block varsigma) or "lipschitz" (eq. (10),
        varsigma = L_f, python engine); None means "exact" for k = 2 where the problem gives it (below), else
        "scalar". A problem
        without the quadratic structure takes "scalar" or "lipschitz" (both varsigma = its L_f, verified), or,
        when it has a Hessian (``problem.hessvec``, e.g. ``from_pymanopt`` of a problem with a Euclidean
        Hessian), "exact": the Hessian's block Q of eq. (9) from 4 Hessian-vector products per pair, plus a
        varsigma that adapts, with the majorization verified (:mod:`.obcd_smooth`; a second-order model, not a
        majorizer, for a non-quadratic f: the check keeps F from rising); with "matching" it costs 2 n
        products per matching. None picks it for one pair per step on a problem with ``hessvec`` (the oracle is
        used when present) and keeps eq. (10) for "matching", where the products lose on time
        (``docs/benchmarks/own_problem.md`` measures both).
    branches : str
        "both" (OBCD), or "rot" / "ref" to restrict V to one circle of O(2) (k = 2). On a problem
        with ``rotations_only`` (SO(n), e.g. ``from_pymanopt`` of ``SpecialOrthogonalGroup(n)``) "both" runs
        as "rot", and "ref" or k > 2 is refused: det X stays +1.
    engine : str or None
        "compiled" (the whole iteration in numba, :mod:`.obcd_kernel`), "python" (this
        module's loop), or None: "compiled" where it applies, i.e. a QuadraticProblem with a
        built-in penalty (``h.sweep_kind`` is not None), k = 2 and no callback. Both engines draw
        the same working sets and give the same iterates (to rounding). "matching" runs in Python around
        a compiled loop over the pairs (``engine`` None or "python").
    sigma0 : float or None
        Float > 0, optional
        The first varsigma of the verified scalar majorizer (a smooth f, or working_set = "matching"): a
        guess, never stored nor used as a bound (the estimate is raised only to what a failed check
        proves). None starts at ``problem.lipschitz()``. With "matching", varsigma then adapts both ways
        (doubled on a failed check, divided by 1.5 after an accepted iteration); the one-pair rules keep
        the paper's non-decreasing varsigma.
    tol : float or None
        Stop (reason "tol") at the first log point where the stationarity measure is <= tol; None (the
        default) never stops for it. The measure, relative to the problem's scale S = L_f
        (:func:`~obcd_lite.results.problem_scale`), evaluated every ``log_every`` iterations: for h = 0 the
        Riemannian gradient norm ||G - X sym(X^T G)||_F / S (from the gradient OBCD keeps, O(nr^2)); for
        h != 0 the mean decrease of F per iteration since the previous log point, over S (0 when no block
        step of the interval moved X; NaN at the first log point).
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "obcd"``; F is recomputed at the returned X (the tracked F is the last
        history entry, equal to it up to rounding); ``info["engine"]`` is the engine that ran;
        ``stationarity`` the measure above at the returned X (at its last log point for h != 0).

    Notes
    -----
    What stops OBCD: ``max_iter`` iterations, ``time_limit`` seconds (the clock is read at every log point
    and every :data:`COMPILED_CHUNK` steps), the callback returning True, or ``tol`` (at a log point).
    Nothing else: OBCD has no stopping test of its own.
    """
    X = as_matrix(X0, "X0").copy()
    n, r = X.shape
    check_problem(problem, X, "X0", "obcd")
    check_stiefel(X, "X0")
    problem.check_point(X, "X0")
    h = problem.h
    if n < 2:
        raise ValueError(f"obcd needs n >= 2 rows to form a block of rows, got X0 of shape {X.shape}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 2 <= k <= n:
        raise ValueError(f"k must be an integer with 2 <= k <= n = {n}, got k = {k!r}")
    alpha = None if alpha is None else check_nonnegative(alpha, "alpha", strict=True)
    if working_set not in (*WORKING_SET_RULES, MATCHING):
        raise ValueError(f"working_set must be 'random' or 'cyclic', got {working_set!r} (or 'matching': many pairs "
                         "per gradient)")
    quadratic = is_quadratic(problem)
    if sigma0 is not None:
        sigma0 = check_nonnegative(sigma0, "sigma0", strict=True)
        if quadratic and working_set != MATCHING:
            raise ValueError(f"sigma0 = {sigma0!r} applies to the verified scalar majorizer (a smooth f without the "
                             "quadratic structure, or working_set = 'matching'); a QuadraticProblem's one-pair "
                             "OBCD takes varsigma from eq. (9) / (10)")
    # before either rule: both take branches, and on SO(n) both must stay on the rotations
    if branches not in ("both", *BRANCHES):
        raise ValueError(f"branches must be 'both', 'rot' or 'ref', got {branches!r}")
    if getattr(problem, "rotations_only", False):  # SO(n): a reflection V (det -1) would leave it
        if k != 2 or branches == "ref":
            raise ValueError(f"the problem is on SO(n) (rotations_only): a reflection would leave it, so OBCD runs "
                             f"with k = 2 and branches = 'rot' (obcd_rot); got k = {k}, branches = {branches!r}")
        branches = "rot"
    if working_set == MATCHING:
        return _obcd_matching(problem, X, max_iter=max_iter, time_limit=time_limit, rng=rng, callback=callback,
                              log_every=log_every, k=k, alpha=alpha, Q=Q, branches=branches, engine=engine,
                              sigma0=sigma0, tol=tol, verbose=verbose, progress=progress)
    hessian = getattr(problem, "hessvec", None) is not None
    if Q is None:  # eq. (9)'s exact Q wherever the problem gives it: quadratic f, or a Hessian (hessvec)
        Q = "exact" if k == 2 and (quadratic or hessian) else "scalar"
    if Q not in MAJORIZER_Q:
        raise ValueError(f"Q must be 'exact', 'scalar' or 'lipschitz', got {Q!r} (None picks 'exact' for k = 2, "
                         "'scalar' for k > 2)")
    if Q == "exact" and not quadratic and not hessian:
        raise UnsupportedProblemError(f"Q = 'exact' (eq. (9)) needs the Hessian: a quadratic f, or a problem with "
                                      f"hessvec; the {type(problem).__name__} gives f and grad f only: use "
                                      f"Q = 'scalar' (eq. (10))")
    if k > 2 and not h.is_zero:
        raise UnsupportedProblemError(f"k = {k} > 2 needs h = Zero() (the SVD subproblem of Lemma 2.3(b)); "
                                  f"got h = {h!r}")
    if k > 2 and Q != "scalar":
        raise ValueError(f"k = {k} > 2 needs Q = 'scalar' (Lemma 2.3(b) needs Q = varsigma I), got Q = {Q!r}")
    if k > 2 and branches != "both":
        raise ValueError(f"branches = {branches!r} only applies to k = 2")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)

    engine = _choose_engine(engine, problem, k, callback, Q)

    batches = _working_set_batches(n, k, working_set, rng)
    def gradient_norm(Y):  # G: the gradient OBCD keeps up to date in place (a fresh one for any smooth f)
        return riemannian_gradient_norm(Y, G if quadratic else problem.grad(Y), rec.scale())

    rec = Recorder("obcd", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, tol=tol, stationarity=gradient_norm if h.is_zero else DECREASE,
                   verbose=verbose, progress=progress)
    if alpha is None:  # default_alpha(problem), with L_f computed once and on the clock (part of the setup)
        alpha = PAPER_ALPHA * rec.scale()
    G = problem.grad(X)
    F = problem.f_from_grad(X, G) + h(X)
    rec.log(0, X, F)
    if rec.out_of_time():  # the setup (the first gradient) used the whole budget
        return rec.result(X, 0, "time_limit", F_tracked=F, info={"engine": engine})
    if not quadratic:  # any smooth f: the verified scalar majorizer
        it, stop_reason, F, info = run_smooth(problem, X, (B for batch in batches for B in batch), rec,
                                              alpha=alpha, branches=branches, sigma0=sigma0, hessian=Q == "exact")
        info["Q"] = Q
        return rec.result(X, it, stop_reason, F_tracked=F, info={"engine": engine, **info})
    if engine == "compiled":
        it, stop_reason, F = _run_compiled(problem, X, G, F, _BlockChunks(batches), rec, alpha=alpha,
                                           exact=Q == "exact", branches=branches)
        return rec.result(X, it, stop_reason, F_tracked=F, info={"engine": engine})
    blocks = (B for batch in batches for B in batch)
    stop_reason = "max_iter"
    it = 0
    for it in range(1, max_iter + 1):
        B = next(blocks)
        Qt, P, Z = block_data_unchecked(problem, X, G, B, alpha, Q)
        V, VZ = minimize_block(Qt, P, Z, h, branches)
        F_before = F
        F += problem.apply_step(G, B, VZ - Z) + (h(VZ) - h(Z))
        X[B] = VZ
        reason = rec.after_step(it, X, F, F_before, B, V)
        if reason is not None:
            stop_reason = reason
            break
    return rec.result(X, it, stop_reason, F_tracked=F, info={"engine": engine})


def _choose_engine(engine, problem, k: int, callback, Q: str) -> str:
    """The engine that runs: ``engine`` checked, or None resolved ("compiled" where it applies)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be 'compiled', 'python' or None, got {engine!r}")
    why_not = None
    if not isinstance(problem, QuadraticProblem):
        why_not = f"the problem is a {type(problem).__name__}, not a QuadraticProblem"
    elif problem.h.sweep_kind is None:
        why_not = f"the penalty {problem.h!r} is not built in (it has no sweep_kind)"
    elif k != 2:
        why_not = f"k = {k} (the kernel does k = 2 only)"
    elif Q == "lipschitz":
        why_not = "Q = 'lipschitz' (the kernel builds the exact or the block-scalar Q)"
    elif callback is not None:
        why_not = "a callback is given (it sees every step; use engine='python' or None)"
    if engine == "compiled" and why_not is not None:
        raise ValueError(f"engine='compiled' cannot run here: {why_not}")
    return "python" if why_not is not None or engine == "python" else "compiled"


def _run_compiled(problem, X, G, F, chunks: _BlockChunks, rec: Recorder, *, alpha: float, exact: bool,
                  branches: str) -> tuple[int, str, float]:
    """The compiled engine: kernel chunks that end at every log point and at least every
    ``COMPILED_CHUNK`` steps (where the clock is checked); returns (iterations, stop reason, F)."""
    h = problem.h
    kind = ZERO_KIND if h.is_zero else h.sweep_kind
    lam, tau = h.sweep_params()
    first, last = (0, 1) if branches == "both" else (BRANCHES.index(branches),) * 2
    kernel = run_steps_for(kind)  # compiled for this penalty's family only: less to compile on first use
    it = 0
    while it < rec.max_iter:
        m = min(COMPILED_CHUNK, rec.max_iter - it, rec.log_every - it % rec.log_every)
        F = kernel(*problem.compiled_arrays(), X, G, chunks.take(m), alpha, exact, kind, lam, tau, first, last, F,
                   _NO_TRACE)
        it += m
        reason = rec.after_step(it, X, F)
        if reason is not None:
            return it, reason, F
    return it, "max_iter", F


def _obcd_matching(problem, X, *, max_iter, time_limit, rng, callback, log_every, k, alpha, Q, branches, engine,
                   sigma0, tol, verbose, progress) -> Result:
    """:func:`obcd` with working_set = "matching" (its checks, then :func:`.obcd_pairs.run_matching`)."""
    if k != 2:
        raise ValueError(f"working_set = 'matching' pairs the rows: it needs k = 2, got k = {k!r}")
    hessian = getattr(problem, "hessvec", None) is not None
    if Q is None:  # the Hessian's Q costs 2 n products per matching: it loses on time (docs/benchmarks/own_problem.md)
        Q = "scalar"
    if Q not in ("scalar", "exact") or (Q == "exact" and not hessian):
        raise ValueError(f"working_set = 'matching' runs the verified Q of eq. (10) ('scalar') or, for a problem with "
                         f"hessvec, the Hessian's Q of eq. (9) ('exact'): got Q = {Q!r}"
                         + ("" if hessian else f" on a {type(problem).__name__} without hessvec"))
    if engine not in (None, "python"):
        raise ValueError(f"working_set = 'matching' runs in Python around a compiled loop over the pairs: engine "
                         f"must be None or 'python', got engine = {engine!r}")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)
    rec = Recorder("obcd", problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, tol=tol, verbose=verbose, progress=progress,
                   stationarity=(lambda Y: riemannian_gradient_norm(Y, problem.grad(Y), rec.scale()))
                   if problem.h.is_zero else DECREASE)  # as the one-pair rules measure it (a fresh gradient)
    if alpha is None:
        alpha = PAPER_ALPHA * rec.scale()
    rec.log(0, X, problem.F(X))
    it, stop_reason, F, info = run_matching(problem, X, as_rng(rng), rec, alpha=alpha, branches=branches,
                                            sigma0=sigma0, hessian=Q == "exact")
    return rec.result(X, it, stop_reason, F_tracked=F, info={"engine": "python", "working_set": MATCHING, "Q": Q,
                                                             **info})
