"""One result type for every solver, the step a callback sees, and the history recorder.

Every solver of :mod:`obcd_lite.solvers` returns a :class:`Result` and records its history with a
:class:`Recorder`, so the runs of different methods are timed, logged and stopped the same way:

* the clock starts when the recorder is made (after the input checks, before the method's setup:
  L_f, factorizations, the first gradient) and ``seconds`` excludes the recorder's own logging
  (feasibility and sparsity of X are O(nr^2) to compute);
* ``time_limit`` bounds the wall time of the run, setup and logging included: the clock is read after
  the setup (a setup that used the whole budget stops the run at iteration 0, "time_limit"), after
  every iteration and inside the loops that can take long (line searches, Newton steps); a solver
  whose setup cannot be interrupted predicts it and raises before starting when it alone would
  exceed the budget (SOC's O(n^3) eigendecomposition);
* a history row is written at iteration 0, every ``log_every`` iterations and at the end;
* the run stops at ``max_iter``, at ``time_limit`` seconds, when the callback returns True, at
  ``tol`` (reason "tol": the solver's stationarity measure, relative to the problem's scale, is <= tol;
  pymanopt's convention, issue 36), or for a solver-specific reason (a step size below its floor);
* every solver documents its stationarity measure; ``Result.stationarity`` is its value at the returned
  point (NaN where none was computed). A solver either passes the value to :meth:`Recorder.after_step`
  (its own measure, computed anyway) or gives the Recorder a ``stationarity`` rule, evaluated at the log
  points only (every ``log_every`` iterations, where the tol test is made): a callable X -> measure, or
  :data:`DECREASE` (the mean decrease of F per iteration since the last log point, over S: cheap, for
  block methods with a nonsmooth h);
* ``verbose=True`` prints a table (iteration, F, stationarity) at every log point, pymanopt-like;
  ``progress=True`` shows a tqdm bar of the iterations;
* ``Result.F`` is F recomputed at the returned X, never a tracked or surrogate value.

Scale. :func:`problem_scale` is the one number every default step size, proximal parameter and tolerance
of the solvers is relative to (issue 34): for the problem s F (f and h both multiplied by s > 0, so a
penalty's lam too) every such default is multiplied by s (or 1/s for a step size), so the iterates are the
same and F is s times the same, over the accepted data range.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .penalties import count_nonzeros
from .rounding import fmt
from .stiefel import feasibility
from .validation import check_nonnegative

#: The clock of every run (a module attribute, so that tests can replace it by a fake clock and check
#: where the solvers read it, without asserting any wall time).
clock = time.perf_counter

#: The history columns every solver records.
HISTORY_COLUMNS = ("iteration", "seconds", "F", "feasibility", "nnz")
#: The stationarity rule "mean decrease of F per iteration since the last log point, over the scale S".
DECREASE = "decrease"


def problem_scale(problem) -> float:
    """The problem's scale S: L_f = ``problem.lipschitz()`` (||C||_2 ||D||_2 for a quadratic f), or 1.0 when
    L_f is 0 or not finite (f linear or constant: no curvature to measure it by).

    The solvers' defaults are relative to S: OBCD's alpha = 1e-5 S, step sizes c / S, tolerances on
    gradients tol S. S is homogeneous, S(s P) = s S(P) for the problem s P = (s f, s h), so a default built
    from it gives the scaled problem the same iterates up to the factor s.

    Parameters
    ----------
    problem : Problem
        Anything with ``lipschitz()``.

    Returns
    -------
    float
        S > 0.
    """
    lipschitz = float(problem.lipschitz())
    return lipschitz if np.isfinite(lipschitz) and lipschitz > 0.0 else 1.0


@dataclass(frozen=True)
class Step:
    """What a callback sees after an iteration.

    ``X`` is a read-only view of the iterate (copy it to keep it): a callback cannot corrupt the
    solver's state.

    Attributes
    ----------
    iteration : int
        The iteration just done.
    X : numpy.ndarray
        The iterate after it (read-only).
    F : float
        F there (tracked).
    F_before : float
        F before the iteration.
    B, V : numpy.ndarray or None
        The working set and the k x k factor of a block method (None for the others).
    info : dict
        Solver-specific values (e.g. a step size).
    """

    iteration: int
    X: np.ndarray
    F: float
    F_before: float
    B: np.ndarray | None = None
    V: np.ndarray | None = None
    info: dict = field(default_factory=dict)

    @property
    def F_after(self) -> float:
        """F after the step (the same as ``F``)."""
        return self.F


@dataclass
class Result:
    """What every solver returns.

    Attributes
    ----------
    X : numpy.ndarray, shape (n, r)
        The returned point.
    F : float
        F(X) = f(X) + h(X) recomputed at X (for an infeasible method, see its docstring for which
        point on St(n, r) it returns).
    iterations : int
        Iterations done.
    seconds : float
        Wall-clock time of the iterations (logging excluded).
    stop_reason : str
        "max_iter", "time_limit", "callback", "tol" or a solver-specific reason.
    solver : str
        The solver's name in :data:`obcd_lite.solvers.SOLVERS`.
    history : dict
        Dict of equal-length arrays with at least ``iteration, seconds, F, feasibility, nnz``.
    info : dict
        Solver-specific extras (e.g. the infeasible iterate of a splitting method).
    stationarity : float
        The solver's stationarity measure at the returned X, relative to the problem's scale
        (each solver's docstring says which); NaN where none was computed. ``stop_reason == "tol"``
        means it is <= the ``tol`` given.
    """

    X: np.ndarray
    F: float
    iterations: int
    seconds: float
    stop_reason: str
    solver: str
    history: dict = field(repr=False)
    info: dict = field(default_factory=dict, repr=False)
    stationarity: float = np.nan


def riemannian_gradient_norm(X: np.ndarray, G: np.ndarray, scale: float = 1.0) -> float:
    """||G - X sym(X^T G)||_F / scale: the norm of the Riemannian gradient of f at X on St(n, r) (the
    projection of the Euclidean gradient G onto the tangent space, Euclidean metric), relative to the
    problem's scale S (:func:`problem_scale`). O(n r^2).

    Parameters
    ----------
    X : numpy.ndarray
        (n, r), a point on St(n, r).
    G : numpy.ndarray
        (n, r), grad f(X).
    scale : float
        S.

    Returns
    -------
    float
        The measure (0 at a critical point of f on St(n, r)).
    """
    XtG = X.T @ G
    return float(np.linalg.norm(G - X @ (0.5 * (XtG + XtG.T)))) / scale


def check_tol(tol) -> float | None:
    """Validate a stationarity tolerance: None (no tolerance stop) or a number >= 0.

    Parameters
    ----------
    tol : float or None
        The tolerance.

    Returns
    -------
    float or None
        ``tol`` checked.

    Raises
    ------
    ValueError
        If tol is negative or not a finite number.
    """
    return None if tol is None else check_nonnegative(tol, "tol")


def check_budget(max_iter, time_limit, default_max_iter: int) -> tuple[int, float | None]:
    """Validate the common stopping arguments; ``max_iter=None`` takes the solver's default.

    Parameters
    ----------
    max_iter : int or None
        The iteration budget.
    time_limit : float or None
        Seconds, or None for no limit.
    default_max_iter : int
        The solver's default budget.

    Returns
    -------
    tuple
        ``(max_iter, time_limit)`` checked.

    Raises
    ------
    ValueError
        If max_iter is not a non-negative integer or time_limit is not positive.
    """
    if max_iter is None:
        max_iter = default_max_iter
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 0:
        raise ValueError(f"max_iter must be a non-negative integer, got {max_iter!r}")
    if time_limit is not None:
        time_limit = check_nonnegative(time_limit, "time_limit", strict=True)
    return int(max_iter), time_limit


class Recorder:
    """History, timing, time limit and callback of one run.

    Parameters
    ----------
    solver : str
        The solver's registry name (stored in the Result).
    problem : Problem
        The problem (``problem.F`` scores the returned point).
    max_iter : int
        The budget in iterations (validated with :func:`check_budget`).
    time_limit : float or None
        The budget in seconds, None for none (validated with :func:`check_budget`).
    log_every : int
        Write a history row every this many iterations (>= 1).
    callback : callable or None
        Called with a :class:`Step` after every iteration; returning True stops the run.
    columns : sequence of str
        Solver-specific history columns, filled through ``log(..., **extra)``.
    tol : float or None
        Stop with reason "tol" when the stationarity computed at a log point is <= tol (None: never).
        A solver with its own tolerance test passes None here and its value to ``after_step``.
    stationarity : callable or None
        The rule the Recorder evaluates at every log point: a callable ``X -> float``,
        :data:`DECREASE`, or None (the solver passes the values itself, or has none).
    verbose : bool
        Print a row (iteration, F, stationarity) at every log point, under a header.
    progress : bool
        Show a tqdm progress bar of the iterations.

    Raises
    ------
    ValueError
        If ``log_every`` is not a positive integer.
    TypeError
        If ``callback`` is not callable, ``stationarity`` is not callable, ``DECREASE`` or None, or a flag is not True or False.
    """

    def __init__(self, solver: str, problem, *, max_iter: int, time_limit: float | None, log_every: int,
                 callback: Callable[[Step], Any] | None = None, columns: tuple[str, ...] = (),
                 tol: float | None = None, stationarity: Callable[[np.ndarray], float] | str | None = None,
                 verbose: bool = False, progress: bool = False):
        if isinstance(log_every, bool) or not isinstance(log_every, (int, np.integer)) or log_every < 1:
            raise ValueError(f"log_every must be a positive integer, got {log_every!r}")
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable, got {type(callback).__name__}")
        self.solver = solver
        self.problem = problem
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.log_every = int(log_every)
        self.callback = callback
        if stationarity is not None and stationarity != DECREASE and not callable(stationarity):
            raise TypeError(f"stationarity must be callable, {DECREASE!r} or None, got {stationarity!r}")
        for name, flag in (("verbose", verbose), ("progress", progress)):
            if not isinstance(flag, (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {flag!r}")
        self.history: dict[str, list] = {key: [] for key in (*HISTORY_COLUMNS, *columns)}
        self.tol = check_tol(tol)
        self.stationarity = np.nan  # the last value measured (at the last log point or step)
        self._rule = stationarity
        self._fresh = False  # measured at the last log point, so the tol test may use it
        self._last = None  # (iteration, F) of the last log point, for DECREASE
        self._measured_at = None  # the iteration of the last evaluation of the rule
        self._scale = None
        self.verbose = bool(verbose)
        self._bar = None
        if progress:
            from tqdm.auto import tqdm  # optional display: imported only when asked for
            self._bar = tqdm(total=max_iter, desc=solver, unit="it")
        self._bar_at = 0
        self._overhead = 0.0
        self._start = clock()

    def elapsed(self) -> float:
        """Seconds since the start, without the time spent logging.

        Returns
        -------
        float
            The seconds.
        """
        return clock() - self._start - self._overhead

    def out_of_time(self) -> bool:
        """Whether the time limit is set and the wall time since the start has reached it.

        Logging is included: the budget is the caller's wall time.

        Returns
        -------
        bool
            True when the run must stop.
        """
        return self.time_limit is not None and clock() - self._start >= self.time_limit

    def log(self, iteration: int, X: np.ndarray, F: float, **extra) -> None:
        """Append a history row (its cost is not counted in ``seconds``).

        Parameters
        ----------
        iteration : int
            The iteration.
        X : numpy.ndarray
            The iterate.
        F : float
            F at X (tracked).
        **extra
            Values of the solver's own ``columns``.
        """
        begin = clock()
        row = {"iteration": iteration, "seconds": begin - self._start - self._overhead, "F": float(F),
               "feasibility": feasibility(X), "nnz": count_nonzeros(X), **extra}
        for key, values in self.history.items():
            values.append(row.get(key, np.nan))
        self._overhead += clock() - begin
        # The measure is part of the method's work (on the clock). A callable rule costs a matrix product
        # (O(n r^2)): it is evaluated at the log points only when the tol test or the table needs it, and
        # always at the returned point (``result``); DECREASE is O(1).
        if self._rule == DECREASE or (self._rule is not None and (self.tol is not None or self.verbose)):
            self.stationarity = self._measure(iteration, X, float(F))
            self._fresh, self._measured_at = True, iteration
        if self.verbose:
            self._print_row(iteration, F)

    def _measure(self, iteration: int, X: np.ndarray, F: float) -> float:
        if self._rule != DECREASE:
            return float(self._rule(X))
        last, self._last = self._last, (iteration, F)
        if last is None or iteration <= last[0]:
            return np.nan
        return (last[1] - F) / ((iteration - last[0]) * self.scale())

    def scale(self) -> float:
        """The problem's scale S (:func:`problem_scale`), computed once, on the run's clock.

        Returns
        -------
        float
            S.
        """
        if self._scale is None:
            self._scale = problem_scale(self.problem)
        return self._scale

    def _print_row(self, iteration: int, F: float) -> None:
        begin = clock()
        if not self.history["iteration"][:-1]:
            print(f"{self.solver}: {'iteration':>10} {'F':>22} {'stationarity':>12}")
        print(f"{self.solver}: {iteration:>10d} {fmt(F, 14, style='e', floor=None, sign=True):>22} "
              f"{fmt(self.stationarity, 4, style='e', floor=None):>12}")
        self._overhead += clock() - begin

    def after_step(self, iteration: int, X: np.ndarray, F: float, F_before: float = np.nan,
                   B=None, V=None, stationarity: float | None = None, **info) -> str | None:
        """Log if due, call the callback, check the clock.

        Parameters
        ----------
        iteration : int
            The iteration just done.
        X : numpy.ndarray
            The iterate.
        F : float
            F at X (tracked).
        F_before : float, optional
            F before the iteration (for the callback's :class:`Step`).
        B, V : numpy.ndarray, optional
            The working set and the block factor (for the callback).
        stationarity : float, optional
            The solver's own stationarity measure at X (relative to the scale), when it has one.
        **info
            Solver-specific values for the callback.

        Returns
        -------
        str or None
            A stop reason ("time_limit", "callback", "tol") or None to go on.
        """
        if stationarity is not None:
            self.stationarity, self._fresh = float(stationarity), True
        if iteration % self.log_every == 0:
            self.log(iteration, X, F, **{k: v for k, v in info.items() if k in self.history})
        if self._bar is not None:
            self._bar.update(iteration - self._bar_at)
            self._bar_at = iteration
        if self.callback is not None:
            view = X.view()
            view.flags.writeable = False
            if self.callback(Step(iteration, view, float(F), float(F_before), B, V, info)):
                return "callback"
        if self.out_of_time():
            return "time_limit"
        fresh, self._fresh = self._fresh, False
        if self.tol is not None and fresh and self.stationarity <= self.tol:
            return "tol"
        return None

    def result(self, X: np.ndarray, iterations: int, stop_reason: str, F_tracked: float | None = None,
               info: dict | None = None, stationarity: float | None = None) -> Result:
        """Close the run: a last history row (if not written) and F recomputed at X.

        Parameters
        ----------
        X : numpy.ndarray
            The point returned.
        iterations : int
            Iterations done.
        stop_reason : str
            Why the run stopped.
        F_tracked : float, optional
            The tracked F (the last history entry), if it differs from the recomputed one only by rounding.
        info : dict, optional
            Solver-specific extras.
        stationarity : float, optional
            The stationarity measure at X, when the solver computed it there (default: the last value
            measured, which a closing log row measures at X under a ``stationarity`` rule).

        Returns
        -------
        Result
            The run's result.
        """
        seconds = self.elapsed()
        F = float(self.problem.F(X))
        if stationarity is not None:
            self.stationarity = float(stationarity)
        if not self.history["iteration"] or self.history["iteration"][-1] != iterations:
            self.log(iterations, X, F if F_tracked is None else F_tracked)
        if callable(self._rule) and self._measured_at != iterations:  # at the returned point
            self.stationarity = self._measure(iterations, X, F)
        if self._bar is not None:
            self._bar.update(iterations - self._bar_at)
            self._bar.close()
        if self.verbose:
            print(f"{self.solver}: stopped ({stop_reason}) after {iterations} iterations, F = "
                  f"{fmt(F, 14, style='e', floor=None, sign=True)}, stationarity = "
                  f"{fmt(self.stationarity, 4, style='e', floor=None)}")
        return Result(X=X, F=F, iterations=int(iterations), seconds=seconds, stop_reason=stop_reason,
                      solver=self.solver, history={k: np.asarray(v) for k, v in self.history.items()},
                      info=info or {}, stationarity=float(self.stationarity))
