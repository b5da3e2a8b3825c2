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
* the run stops at ``max_iter``, at ``time_limit`` seconds, when the callback returns True, or for
  a solver-specific reason (a stationarity tolerance, a step size below its floor);
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
from .stiefel import feasibility
from .validation import check_nonnegative

#: The clock of every run (a module attribute, so that tests can replace it by a fake clock and check
#: where the solvers read it, without asserting any wall time).
clock = time.perf_counter

#: The history columns every solver records.
HISTORY_COLUMNS = ("iteration", "seconds", "F", "feasibility", "nnz")


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
    X : (n, r) array, the returned point.
    F : F(X) = f(X) + h(X) recomputed at X (for an infeasible method, see its docstring for which
        point on St(n, r) it returns).
    iterations : iterations done.
    seconds : wall-clock time of the iterations (logging excluded).
    stop_reason : "max_iter", "time_limit", "callback" or a solver-specific reason.
    solver : the solver's name in :data:`obcd_lite.solvers.SOLVERS`.
    history : dict of equal-length arrays with at least ``iteration, seconds, F, feasibility, nnz``.
    info : solver-specific extras (e.g. the infeasible iterate of a splitting method).
    """

    X: np.ndarray
    F: float
    iterations: int
    seconds: float
    stop_reason: str
    solver: str
    history: dict = field(repr=False)
    info: dict = field(default_factory=dict, repr=False)


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
    solver : the solver's registry name (stored in the Result).
    problem : the problem (``problem.F`` scores the returned point).
    max_iter, time_limit : the budget (validated with :func:`check_budget`).
    log_every : write a history row every this many iterations (>= 1).
    callback : called with a :class:`Step` after every iteration; returning True stops the run.
    columns : solver-specific history columns, filled through ``log(..., **extra)``.
    """

    def __init__(self, solver: str, problem, *, max_iter: int, time_limit: float | None, log_every: int,
                 callback: Callable[[Step], Any] | None = None, columns: tuple[str, ...] = ()):
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
        self.history: dict[str, list] = {key: [] for key in (*HISTORY_COLUMNS, *columns)}
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

    def after_step(self, iteration: int, X: np.ndarray, F: float, F_before: float = np.nan,
                   B=None, V=None, **info) -> str | None:
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
        **info
            Solver-specific values for the callback.

        Returns
        -------
        str or None
            A stop reason ("time_limit", "callback") or None to go on.
        """
        if iteration % self.log_every == 0:
            self.log(iteration, X, F, **{k: v for k, v in info.items() if k in self.history})
        if self.callback is not None:
            view = X.view()
            view.flags.writeable = False
            if self.callback(Step(iteration, view, float(F), float(F_before), B, V, info)):
                return "callback"
        if self.out_of_time():
            return "time_limit"
        return None

    def result(self, X: np.ndarray, iterations: int, stop_reason: str, F_tracked: float | None = None,
               info: dict | None = None) -> Result:
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

        Returns
        -------
        Result
            The run's result.
        """
        seconds = self.elapsed()
        F = float(self.problem.F(X))
        if not self.history["iteration"] or self.history["iteration"][-1] != iterations:
            self.log(iterations, X, F if F_tracked is None else F_tracked)
        return Result(X=X, F=F, iterations=int(iterations), seconds=seconds, stop_reason=stop_reason,
                      solver=self.solver, history={k: np.asarray(v) for k, v in self.history.items()},
                      info=info or {})
