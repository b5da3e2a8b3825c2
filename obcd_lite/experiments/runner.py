"""The experiment runner: problems x data sets x lam x methods x starts x seeds -> records.

Every method of a comparison gets the same problem, the same start X0, the same time budget and
is timed the same way (``Result.seconds`` of :class:`~obcd_lite.results.Recorder`: the solver's
own iterations, logging excluded). A method written "A+B" is a warm start, the paper's ManPG+OBCD
and LADMM+OBCD pattern: A runs from X0 within the budget, then B from A's X for what is left of it.

Records hold the returned point's honest F (``Result.F``: +inf for nonneg PCA if X has a negative
entry), ``||X^T X - I||_F``, nnz (|X_ij| > 1e-6), adjusted explained variance, ``||min(0, X)||_F``,
for nonneg PCA the paper's surrogate f(X) + 1000 ||min(0, X)||_F, seconds, iterations and stop reason;
histories hold the solvers' rows (iteration, seconds, F, feasibility, nnz) for curves.

With ``executor=`` (a ``ProcessPoolExecutor`` or a dask client's executor, see :mod:`.parallel`) the
runs go to other processes, each measured in its own process by the solver's Recorder as here; every
worker loads the data from their seeds (checked against this process's by a digest) and warms the
solvers up before its first timed run, and runs with one BLAS thread. For a grid bounded by
iterations the records and histories are those of a serial run except the seconds.

What a grid keeps (the :class:`~.records.Experiment`, saving, resuming, checkpoints, time to target): :mod:`.records`.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import time
import uuid
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..threads import one_blas_thread
from ..data import DATASET_NAMES, Dataset, load_dataset
from ..penalties import L0, L1
from ..problems import SPCA_SCALES, QuadraticProblem, nonneg_pca, sparse_pca
from ..solvers import SOLVERS, get_solver
from ..stiefel import feasibility, identity_init, random_stiefel
from ..validation import UnsupportedProblemError, check_count, check_nonnegative
from .metrics import NNZ_TOL, adjusted_explained_variance, sparsity
from .parallel import concurrent_runs, settled
from .records import (CHECKPOINT_EVERY, Experiment, assemble, failed_record, prepare_checkpoint, reusable_runs,
                      run_identity, write_checkpoint)

#: Problem names: l0-SPCA, l1-SPCA (Section 1.1) and nonnegative PCA (Appendix E.1).
PROBLEMS = ("l0", "l1", "nonneg")
#: Starts: the paper's "(id)" I(:, 1:r) and "(rnd)" (for nonneg a random nonnegative point of St).
STARTS = ("identity", "random")
#: Iteration cap when none is given: large, so that the time budget decides. (It was 10^6 until the
#: ℓ1 sweep of issue 19 made the compiled OBCD reach that in 1.5-23 s on the paper's randn-500-1000,
#: which cut OBCD, and only OBCD, short of the paper's 40-60 s budgets.)
DEFAULT_MAX_ITER = 10**9
#: Share of the time budget the first method of a warm start "A+B" may use at most.
WARM_START_SHARE = 0.5
#: Nonnegative PCA is also scored by f(X) + 1000 ||min(0, X)||_F (Appendix E, "surrogate").
NONNEG_SURROGATE_WEIGHT = 1000.0


def build_problem(problem: str, C, lam: float = 0.0, scale: float | None = None) -> QuadraticProblem:
    """The paper's problem on C: "l0" -scale tr(X^T C X) + lam ||X||_0, "l1" the same with
    lam ||X||_1, "nonneg" -1/2 tr(X^T C X) s.t. X >= 0 (lam unused). ``scale=None`` takes the text's
    convention: 1 for l0 and l1 (Section 1.1), 1/2 for nonneg (Appendix E.1).

    Parameters
    ----------
    problem : str
        One of :data:`PROBLEMS`.
    C : array_like
        (n, n) covariance.
    lam : float
        The penalty's weight, >= 0 (unused by "nonneg").
    scale : float or None
        1.0 or 0.5 for l0 and l1 (:func:`~obcd_lite.problems.sparse_pca`); None or 0.5 for nonneg.

    Returns
    -------
    QuadraticProblem
        The problem.

    Raises
    ------
    ValueError
        For an unknown problem, a negative lam or a scale the problem does not take.
    """
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}; valid names: {', '.join(PROBLEMS)}")
    lam = check_nonnegative(lam, "lam")
    if problem == "nonneg":
        if scale not in (None, 0.5):
            raise ValueError(f"nonneg PCA is -1/2 tr(X^T C X) (Appendix E.1); got scale = {scale!r}")
        return nonneg_pca(C)
    penalty = L0(lam) if problem == "l0" else L1(lam)
    return sparse_pca(C, penalty, scale=1.0 if scale is None else scale)


def start_point(start: str, n: int, r: int, problem: str, rng=None) -> np.ndarray:
    """X0 on St(n, r): "identity" is I(:, 1:r); "random" is Haar-random, except for "nonneg" where
    it is a random partition of the rows into r groups G_j with X(G_j, j) = 1/sqrt(|G_j|) (the
    arXiv version's start with its 1/|G_j| corrected), so that X0 >= 0 is feasible.

    Parameters
    ----------
    start : str
        One of :data:`STARTS`.
    n, r : int
        The shape of X0.
    problem : str
        One of :data:`PROBLEMS` ("nonneg" changes the random start).
    rng : numpy.random.Generator or int or None
        The random source of a "random" start.

    Returns
    -------
    numpy.ndarray
        (n, r) on St(n, r).

    Raises
    ------
    ValueError
        For an unknown start.
    """
    if start not in STARTS:
        raise ValueError(f"unknown start {start!r}; valid: {', '.join(STARTS)}")
    if start == "identity":
        return identity_init(n, r)
    if problem != "nonneg":
        return random_stiefel(n, r, rng)
    rng = np.random.default_rng(rng)
    groups = np.concatenate([np.arange(r), rng.integers(0, r, size=n - r)])[rng.permutation(n)]
    X = np.zeros((n, r))
    X[np.arange(n), groups] = 1.0
    return X / np.sqrt(X.sum(axis=0))


def parse_method(method: str) -> tuple[str, ...]:
    """"obcd" -> ("obcd",); "manpg+obcd" -> ("manpg", "obcd") (a warm start). Unknown names list
    the registered solvers.

    Parameters
    ----------
    method : str
        A solver name or "A+B".

    Returns
    -------
    tuple of str
        The stages, in order.

    Raises
    ------
    ValueError
        For an empty or unknown name.
    """
    if not isinstance(method, str) or not method:
        raise ValueError(f"a method must be a solver name or 'A+B', got {method!r}")
    stages = tuple(method.split("+"))
    for stage in stages:
        get_solver(stage)
    return stages


def _check_names(values, valid, what: str) -> tuple:
    values = (values,) if isinstance(values, str) else tuple(values)
    if not values:
        raise ValueError(f"no {what} given; valid: {', '.join(valid)}")
    for value in values:
        if value not in valid:
            raise ValueError(f"unknown {what} {value!r}; valid names: {', '.join(valid)}")
    _check_unique(values, what)
    return values


def _check_unique(values: tuple, what: str) -> None:
    """A value twice in a grid gives the same run twice (one identity, :data:`~.records.IDENTITY`)."""
    twice = sorted({repr(v) for i, v in enumerate(values) if v in values[:i]})
    if twice:
        raise ValueError(f"{what} {', '.join(twice)} given twice: a grid runs each combination once")


def _check_seeds(seeds) -> tuple:
    """The grid's seeds: non-negative ints (they seed numpy's generators), each once."""
    seeds = _as_tuple(seeds)
    if not seeds:
        raise ValueError("seeds = () gives no run; give at least one integer seed")
    seeds = tuple(check_count(seed, "seed", minimum=0) for seed in seeds)
    _check_unique(seeds, "seed")
    return seeds


def _as_tuple(values) -> tuple:
    return tuple(np.atleast_1d(values).tolist()) if not isinstance(values, (list, tuple)) else tuple(values)


@one_blas_thread
def run_experiment(*, problems=("l1",), datasets=("randn",), lams=(0.0,), r: int = 5, n: int | None = None,
                   m: int | None = None, methods=("obcd",), starts=("random",), seeds=(0,),
                   time_limit: float = 1.0, max_iter: int = DEFAULT_MAX_ITER, scale=None,
                   options: dict | None = None, progress: bool | None = None,
                   on_unsupported: str = "record", executor: Executor | None = None, resume=None,
                   checkpoint=None) -> Experiment:
    """Run every combination and collect records and histories.

    A run that raises (or whose pool worker dies) does not stop the grid: its row has stop_reason
    :data:`~.records.FAILED` and the exception in ``error`` (method, data set and seed are in its row), and
    every other run is kept; ``resume=`` redoes the failed runs only.

    Parameters
    ----------
    problems : str or sequence of str
        Names in :data:`PROBLEMS`.
    datasets : str or sequence of str
        Names in :data:`~obcd_lite.data.DATASET_NAMES`.
    lams : float or sequence of float
        lam >= 0 for l0/l1 (ignored by nonneg, recorded as NaN).
    r : int
        Columns of X.
    n, m : int or None
        Features and rows passed to :func:`~obcd_lite.data.load_dataset`.
    methods : str or sequence of str
        Solver names of :data:`~obcd_lite.solvers.SOLVERS`, or "A+B" warm starts.
    starts : str or sequence of str
        Names in :data:`STARTS`.
    seeds : int or sequence of int
        Non-negative, each once: each seeds the data draw, the random start and the solvers' ``rng``.
    time_limit : float
        Seconds per run (> 0), the same for every method.
    max_iter : int
        Iteration cap per solver, a positive int (default large: the time decides).
    scale : float or dict or None
        1.0 or 0.5 for l0/l1 (None: 1.0, the paper's text), or a dict problem -> scale (the
        paper's l0 and l1 tables use different ones); see :func:`build_problem`.
    options : dict or None
        Method name -> extra keyword arguments for that solver (e.g. ``{"obcd": {"Q": "scalar"}}``).
    progress : bool or None
        tqdm bar of finished runs (tqdm.auto, shown only once the loop has run for a second);
        None/True show it, False hides it.
    on_unsupported : str
        "record" (a row with stop_reason "unsupported" and the solver's message) or
        "raise" (let :class:`~obcd_lite.validation.UnsupportedProblemError` surface).
    executor : concurrent.futures.Executor or None
        None (run here, one after another) or an executor that runs
        the runs in other processes: ``ProcessPoolExecutor(max_workers <= cores)`` or
        ``dask.distributed.Client(...).get_executor()`` with one thread per worker and no more
        worker threads per host than cores (:func:`.parallel.concurrent_runs` checks and counts;
        at most that many runs are in flight).
    resume : Experiment or str or os.PathLike or None
        A previous :class:`~.records.Experiment` (or the path of one saved by :meth:`~.records.Experiment.save` or
        ``checkpoint``) of the same ``time_limit``, ``max_iter``, ``options``, ``m``, ``n``, ``r`` and data
        (checked before any run): its finished runs (every row but the failed ones) are taken over, renumbered
        in this grid, with their histories and points; only the others run. The grid may grow (more seeds,
        lams, methods), but one that shares no run with it is refused, naming what differs.
    checkpoint : str or os.PathLike or None
        A file the runs so far are merged into every :data:`~.records.CHECKPOINT_EVERY` seconds and at the
        end, so that a grid killed midway resumes from it (:func:`~.records.write_checkpoint`: atomic, under a
        lock; runs other grids of the same settings wrote there are kept). Its folder, and the settings of an
        experiment already in it, are checked before the first run.

    Returns
    -------
    Experiment
        Records, histories and points of every run of the grid.

    Raises
    ------
    ValueError
        Naming the bad value: an unknown name, an empty grid, a value twice, a negative or non-integer seed,
        a max_iter, r, m or n that is not a positive int, r > n, a bad scale, options for methods not in the
        run, a ``resume`` of another budget, other sizes or other data (or sharing no run with this grid), a
        ``checkpoint`` in a missing folder or holding runs of other settings, a corrupt/truncated file.
    """
    problems = _check_names(problems, PROBLEMS, "problem")
    datasets = _check_names(datasets, DATASET_NAMES, "data set")
    starts = _check_names(starts, STARTS, "start")
    methods = (methods,) if isinstance(methods, str) else tuple(methods)
    if not methods:
        raise ValueError(f"no methods given; valid: {', '.join(SOLVERS)}")
    stages = {method: parse_method(method) for method in methods}
    _check_unique(methods, "method")
    lams = tuple(check_nonnegative(lam, "lam") for lam in _as_tuple(lams))
    if not lams and set(problems) != {"nonneg"}:
        raise ValueError(f"lams = () leaves the problems {[p for p in problems if p != 'nonneg']} without a run; "
                         "give at least one lam >= 0")
    _check_unique(lams, "lam")
    seeds = _check_seeds(seeds)
    time_limit = check_nonnegative(time_limit, "time_limit", strict=True)
    max_iter, r = check_count(max_iter, "max_iter"), check_count(r, "r")
    m, n = check_count(m, "m", allow_none=True), check_count(n, "n", allow_none=True)
    scales = _check_scales(scale, problems)
    if on_unsupported not in ("record", "raise"):
        raise ValueError(f"on_unsupported must be 'record' or 'raise', got {on_unsupported!r}")
    options = dict(options or {})
    unknown = set(options) - {s for st in stages.values() for s in st}
    if unknown:
        raise ValueError(f"options given for methods not in the run: {sorted(unknown)}")
    slots = None if executor is None else concurrent_runs(executor)
    settings = dict(time_limit=time_limit, max_iter=max_iter, options=repr(sorted(options.items())), m=m, n=n, r=r)

    data, digests = {}, {}
    for name, seed in itertools.product(datasets, seeds):
        key = (name, m, n, int(seed))
        data[key] = ds = load_dataset(name, m=m, n=n, rng=int(seed))
        if r > ds.n:
            raise ValueError(f"r = {r} > n = {ds.n} (data set {name!r}): St(n, r) needs r <= n")
        digests[key] = _digest(ds)

    settings["digests"] = digests
    combinations = [(p, name, lam, seed, start, method)
                    for p in problems for name in datasets for lam in (lams if p != "nonneg" else (np.nan,))
                    for seed in seeds for start in starts for method in methods]
    grid = []  # each run's identity
    for run, (p, name, lam, seed, start, method) in enumerate(combinations):
        ds = data[name, m, n, seed]
        grid.append(dict(run=run, method=method, problem=p, dataset=name, m=ds.m, n=ds.n, r=r, lam=lam,
                         scale=0.5 if p == "nonneg" else (1.0 if scales[p] is None else scales[p]), seed=seed,
                         start=start))
    # Both checked before the first run: a resume of other settings or data, a checkpoint that cannot be written.
    reusable = reusable_runs(resume, settings, grid)
    if checkpoint is not None:
        checkpoint = prepare_checkpoint(checkpoint, settings)
    specs, call = [], uuid.uuid4().hex
    records, histories, points = {}, {}, {}
    for ident in grid:
        run, p, method = ident["run"], ident["problem"], ident["method"]
        key = (ident["dataset"], m, n, ident["seed"])
        if run_identity(ident) in reusable:  # finished in the resumed experiment: taken over, not redone
            record, history, X = reusable[run_identity(ident)]
            records[run] = {**record, "run": run}
            if history is not None:
                histories[run], points[run] = history.assign(run=run), X
            continue
        specs.append(_Run(ident, call, key, digests[key], scales[p], stages[method], time_limit, max_iter,
                          {s: options[s] for s in stages[method] if s in options}, on_unsupported))
    # Here first, on problems shaped like the runs': compiles and writes the numba cache once, so
    # workers only load it.
    for spec in specs:
        _warm_up(set(spec.stages), (spec.ident["problem"],), spec.scale, spec.options,
                 (spec.ident["n"], spec.ident["r"]))
    if executor is None:
        outcomes = ((spec, _execute(spec, data[spec.data_key]), None) for spec in specs)
    else:
        outcomes = settled(executor, _execute, specs, slots)
    from tqdm.auto import tqdm

    def experiment() -> Experiment:
        return assemble(records, histories, points, data, settings)

    written = time.monotonic()
    with tqdm(total=len(specs), delay=1.0, disable=progress is False, desc="runs", leave=False) as bar:
        for spec, outcome, error in outcomes:  # in the order they finish
            if error is not None:  # raised in the executor (a dead worker), not in the run
                if isinstance(error, UnsupportedProblemError) and spec.on_unsupported == "raise":
                    raise error
                outcome = spec.ident["run"], failed_record(spec.ident, error), None, None
            run, record, history, X = outcome
            records[run] = record
            if history is not None:
                histories[run], points[run] = history, X
            bar.update()
            if checkpoint is not None and time.monotonic() - written >= CHECKPOINT_EVERY:
                write_checkpoint(experiment(), checkpoint)
                written = time.monotonic()
    result = experiment()
    if checkpoint is not None:
        write_checkpoint(result, checkpoint)
    return result


def _check_scales(scale, problems) -> dict:
    """problem -> scale (None: the problem's own convention) from one value or a dict."""
    given = scale if isinstance(scale, dict) else dict.fromkeys(problems, scale)
    unknown = set(given) - set(PROBLEMS)
    if unknown:
        raise ValueError(f"scale given for unknown problems {sorted(unknown)}; valid names: {', '.join(PROBLEMS)}")
    for p, value in given.items():
        if value is not None and value not in SPCA_SCALES:
            raise ValueError(f"scale must be None, 1.0 or 0.5, got scale = {value!r} for {p!r}")
    return {p: given.get(p) for p in problems}


@dataclass(frozen=True)
class _Run:
    """One run of the grid, all a worker needs: small to send (the data set goes by its key and
    the digest of the caller's copy, and is loaded where the run happens)."""

    ident: dict
    call: str  # unique per run_experiment call: dask's default pure=True must never hand back an earlier timing
    data_key: tuple
    digest: str
    scale: float | None
    stages: tuple
    time_limit: float
    max_iter: int
    options: dict
    on_unsupported: str


def _digest(ds: Dataset) -> str:
    return hashlib.blake2b(ds.A.tobytes() + ds.C.tobytes(), digest_size=16).hexdigest()


@functools.lru_cache(maxsize=8)
def _worker_dataset(key: tuple) -> tuple[Dataset, str]:
    name, m, n, seed = key
    ds = load_dataset(name, m=m, n=n, rng=seed)
    return ds, _digest(ds)


@one_blas_thread
def _execute(spec: _Run, ds: Dataset | None = None) -> tuple:
    """Run one spec here or in a worker -> (run, record, history frame or None, X or None).

    Without ``ds`` (in a worker) the data set is loaded from its key and must match the caller's
    digest; the solvers are warmed up in this process before the timed run (once per process)."""
    if ds is None:
        ds, digest = _worker_dataset(spec.data_key)
        if digest != spec.digest:
            raise RuntimeError(f"data set {spec.data_key} loaded in this worker differs from the caller's "
                               "(another CPU or BLAS rounds A^T A differently); run where the data match")
    ident = spec.ident
    p, lam, seed = ident["problem"], ident["lam"], ident["seed"]
    try:
        _warm_up(set(spec.stages), (p,), spec.scale, spec.options, (ds.n, ident["r"]))
        problem = build_problem(p, ds.C, 0.0 if np.isnan(lam) else lam, spec.scale)
        X0 = start_point(ident["start"], ds.n, ident["r"], p, rng=seed)
        row, history, X = _run_one(problem, X0, spec.stages, ds, seed, spec.time_limit, spec.max_iter,
                                   spec.options, spec.on_unsupported)
    except UnsupportedProblemError:
        raise  # only with on_unsupported="raise" (_run_one records it otherwise)
    except Exception as exc:  # noqa: BLE001 (a failing run is recorded; the grid goes on)
        return ident["run"], failed_record(ident, exc), None, None
    if p == "nonneg" and X is not None:  # the paper's score for (possibly) infeasible methods
        row["surrogate"] = problem.f(X) + NONNEG_SURROGATE_WEIGHT * row["negativity"]
    return ident["run"], {**ident, **row}, None if history is None else history.assign(**ident), X


#: (solver, problem, scale, options, shape) already warmed up in this process.
_WARMED: set = set()
#: Largest n of a warm-up instance (the runs' own n up to this).
WARM_UP_N = 64


def _warm_up(solvers, problems, scale, options, shape: tuple = (4, 2)) -> None:
    """Run each solver a few iterations on a small instance of each problem shaped like the runs'
    (n x r with n = min(n, WARM_UP_N): an option such as k = 5 fits it when it fits the runs), so
    that compiling (numba, first calls) is not charged to the first timed run; once per process and
    setting. A warm-up that raises is passed over: the timed run reports the error in its row."""
    n = min(int(shape[0]), WARM_UP_N)
    r = min(int(shape[1]), n)
    C = np.diag(np.linspace(0.4, 0.1, n)) + 0.01
    for name, p in itertools.product(sorted(solvers), problems):
        key = (name, p, scale, repr(options.get(name, {})), n, r)
        if key in _WARMED:
            continue
        try:
            get_solver(name)(build_problem(p, C, 0.01, scale), start_point("identity", n, r, p), max_iter=3,
                             rng=0, **options.get(name, {}))
        except Exception:  # noqa: BLE001 (unsupported penalties, options that do not fit: the run says)
            pass
        _WARMED.add(key)


def _run_one(problem, X0, stages, ds: Dataset, seed: int, time_limit: float, max_iter: int, options: dict,
             on_unsupported: str):
    """Run the stages of one method; return (record fields, history frame or None, X or None).

    In a warm start "A+B", A gets at most :data:`WARM_START_SHARE` of the budget (it usually
    stops earlier on its own tolerance) and B the rest."""
    X, seconds, iterations, parts, reasons = X0, 0.0, 0, [], []
    for index, stage in enumerate(stages):
        left = time_limit - seconds
        if index < len(stages) - 1:
            left = min(left, WARM_START_SHARE * time_limit)
        if left <= 0:
            reasons.append(f"{stage}: no time left")
            break
        try:
            result = get_solver(stage)(problem, X, max_iter=max_iter, time_limit=left, rng=seed,
                                       **options.get(stage, {}))
        except UnsupportedProblemError as exc:
            if on_unsupported == "raise":
                raise
            return (dict(stop_reason="unsupported", error=f"{stage}: {exc}", seconds=np.nan, iterations=0,
                         F=np.nan), None, None)
        history = pd.DataFrame(result.history)[["iteration", "seconds", "F", "feasibility", "nnz"]]
        parts.append(history.assign(iteration=history["iteration"] + iterations,
                                    seconds=history["seconds"] + seconds, stage=stage))
        X, seconds, iterations = result.X, seconds + result.seconds, iterations + result.iterations
        reasons.append(result.stop_reason if len(stages) == 1 else f"{stage}: {result.stop_reason}")
    F = float(problem.F(X))
    counts = sparsity(X, NNZ_TOL)
    row = dict(F=F, feasibility=feasibility(X), nnz=counts["nnz"], density=counts["density"],
               explained_variance=adjusted_explained_variance(X, A=ds.A),
               negativity=float(np.linalg.norm(np.minimum(X, 0.0))), seconds=seconds, iterations=iterations,
               stop_reason="; ".join(reasons), error=None)
    return row, pd.concat(parts, ignore_index=True), X
