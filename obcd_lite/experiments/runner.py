"""The experiment runner: problems x data sets x lam x methods x starts x seeds -> records.

Every method of a comparison gets the same problem, the same start X0, the same time budget and
is timed the same way (``Result.seconds`` of :class:`~obcd_lite.results.Recorder`: the solver's
own iterations, logging excluded). A method written "A+B" is a warm start, the paper's ManPG+OBCD
and LADMM+OBCD pattern: A runs from X0 within the budget, then B from A's X for what is left of it.

Records hold the returned point's honest F (``Result.F``: +inf for nonneg PCA if X has a negative
entry), ``||X^T X - I||_F``, nnz (|X_ij| > 1e-6), adjusted explained variance, ``||min(0, X)||_F``,
for nonneg PCA the paper's surrogate f(X) + 1000 ||min(0, X)||_F, seconds, iterations and stop reason;
histories hold the solvers' rows (iteration, seconds, F, feasibility, nnz) for curves.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..threads import one_blas_thread
from ..data import DATASET_NAMES, Dataset, load_dataset
from ..penalties import L0, L1
from ..problems import SPCA_SCALES, QuadraticProblem, nonneg_pca, sparse_pca
from ..solvers import SOLVERS, get_solver
from ..stiefel import feasibility, identity_init, random_stiefel
from ..validation import UnsupportedProblemError, check_nonnegative
from .metrics import NNZ_TOL, adjusted_explained_variance, sparsity

#: Problem names: l0-SPCA, l1-SPCA (Section 1.1) and nonnegative PCA (Appendix E.1).
PROBLEMS = ("l0", "l1", "nonneg")
#: Starts: the paper's "(id)" I(:, 1:r) and "(rnd)" (for nonneg a random nonnegative point of St).
STARTS = ("identity", "random")
#: Iteration cap when none is given: large, so that the time budget decides.
DEFAULT_MAX_ITER = 1_000_000
#: Relative tolerance of :func:`time_to_target`.
TARGET_RTOL = 1e-6
#: Share of the time budget the first method of a warm start "A+B" may use at most.
WARM_START_SHARE = 0.5
#: Nonnegative PCA is also scored by f(X) + 1000 ||min(0, X)||_F (Appendix E, "surrogate").
NONNEG_SURROGATE_WEIGHT = 1000.0

#: The columns of the table :func:`run_experiment` returns, one row per run.
RECORD_COLUMNS = ("run", "method", "problem", "dataset", "m", "n", "r", "lam", "scale", "seed", "start", "F",
                  "feasibility", "nnz", "density", "explained_variance", "negativity", "surrogate", "seconds",
                  "iterations", "stop_reason", "error")


@dataclass
class Experiment:
    """What :func:`run_experiment` returns.

    records : one row per run (columns :data:`RECORD_COLUMNS`).
    histories : the solvers' history rows, long format, with the run's identifying columns.
    points : run -> the returned X.
    datasets : (name, m, n, seed) -> the :class:`~obcd_lite.data.Dataset` used.
    """

    records: pd.DataFrame
    histories: pd.DataFrame
    points: dict = field(default_factory=dict, repr=False)
    datasets: dict = field(default_factory=dict, repr=False)


def build_problem(problem: str, C, lam: float = 0.0, scale: float | None = None) -> QuadraticProblem:
    """The paper's problem on C: "l0" -scale tr(X^T C X) + lam ||X||_0, "l1" the same with
    lam ||X||_1, "nonneg" -1/2 tr(X^T C X) s.t. X >= 0 (lam unused). ``scale=None`` takes the text's
    convention: 1 for l0 and l1 (Section 1.1), 1/2 for nonneg (Appendix E.1)."""
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
    arXiv version's start with its 1/|G_j| corrected), so that X0 >= 0 is feasible."""
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
    the registered solvers."""
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
    return values


def _as_tuple(values) -> tuple:
    return tuple(np.atleast_1d(values).tolist()) if not isinstance(values, (list, tuple)) else tuple(values)


@one_blas_thread
def run_experiment(*, problems=("l1",), datasets=("randn",), lams=(0.0,), r: int = 5, n: int | None = None,
                   m: int | None = None, methods=("obcd",), starts=("random",), seeds=(0,),
                   time_limit: float = 1.0, max_iter: int = DEFAULT_MAX_ITER, scale: float | None = None,
                   options: dict | None = None, progress: bool | None = None,
                   on_unsupported: str = "record") -> Experiment:
    """Run every combination and collect records and histories.

    Parameters
    ----------
    problems : names in :data:`PROBLEMS`. datasets : names in :data:`~obcd_lite.data.DATASET_NAMES`.
    lams : lam >= 0 for l0/l1 (ignored by nonneg, recorded as NaN).
    r, n, m : columns of X; features and rows passed to :func:`~obcd_lite.data.load_dataset`.
    methods : solver names of :data:`~obcd_lite.solvers.SOLVERS`, or "A+B" warm starts.
    starts : names in :data:`STARTS`; seeds : ints, each seeds the data draw, the random start and
        the solvers' ``rng``.
    time_limit : seconds per run (> 0), the same for every method.
    max_iter : iteration cap per solver (default large: the time decides).
    scale : 1.0 or 0.5 for l0/l1 (None: 1.0, the paper's text); see :func:`build_problem`.
    options : method name -> extra keyword arguments for that solver (e.g. ``{"obcd": {"Q": "scalar"}}``).
    progress : tqdm bar (tqdm.auto, shown only once the loop has run for a second); None/True show
        it, False hides it.
    on_unsupported : "record" (a row with stop_reason "unsupported" and the solver's message) or
        "raise" (let :class:`~obcd_lite.validation.UnsupportedProblemError` surface).
    """
    problems = _check_names(problems, PROBLEMS, "problem")
    datasets = _check_names(datasets, DATASET_NAMES, "data set")
    starts = _check_names(starts, STARTS, "start")
    methods = (methods,) if isinstance(methods, str) else tuple(methods)
    if not methods:
        raise ValueError(f"no methods given; valid: {', '.join(SOLVERS)}")
    stages = {method: parse_method(method) for method in methods}
    lams = tuple(check_nonnegative(lam, "lam") for lam in _as_tuple(lams))
    seeds = _as_tuple(seeds)
    for seed in seeds:
        if isinstance(seed, bool) or int(seed) != seed:
            raise ValueError(f"seeds must be integers, got {seed!r}")
    time_limit = check_nonnegative(time_limit, "time_limit", strict=True)
    if isinstance(r, bool) or int(r) != r or r < 1:
        raise ValueError(f"r must be a positive integer, got r = {r!r}")
    if scale is not None and scale not in SPCA_SCALES:
        raise ValueError(f"scale must be None, 1.0 or 0.5, got scale = {scale!r}")
    if on_unsupported not in ("record", "raise"):
        raise ValueError(f"on_unsupported must be 'record' or 'raise', got {on_unsupported!r}")
    options = dict(options or {})
    unknown = set(options) - {s for st in stages.values() for s in st}
    if unknown:
        raise ValueError(f"options given for methods not in the run: {sorted(unknown)}")

    data = {}
    for name, seed in itertools.product(datasets, seeds):
        ds = load_dataset(name, m=m, n=n, rng=int(seed))
        if r > ds.n:
            raise ValueError(f"r = {r} > n = {ds.n} (data set {name!r}): St(n, r) needs r <= n")
        data[(name, m, n, int(seed))] = ds

    _warm_up({s for st in stages.values() for s in st}, problems, scale, options)
    grid = [(p, name, lam, seed, start, method)
            for p in problems for name in datasets for lam in (lams if p != "nonneg" else (np.nan,))
            for seed in seeds for start in starts for method in methods]
    records, histories, points = [], [], {}
    from tqdm.auto import tqdm

    bar = tqdm(total=len(grid), delay=1.0, disable=progress is False, desc="runs", leave=False)
    try:
        for run, (p, name, lam, seed, start, method) in enumerate(grid):
            ds = data[(name, m, n, int(seed))]
            problem = build_problem(p, ds.C, 0.0 if np.isnan(lam) else lam, scale)
            X0 = start_point(start, ds.n, int(r), p, rng=int(seed))
            ident = dict(run=run, method=method, problem=p, dataset=name, m=ds.m, n=ds.n, r=int(r), lam=lam,
                         scale=0.5 if p == "nonneg" else (1.0 if scale is None else scale), seed=int(seed),
                         start=start)
            row, history, X = _run_one(problem, X0, stages[method], ds, int(seed), time_limit, max_iter,
                                       options, on_unsupported)
            if p == "nonneg" and X is not None:  # the paper's score for (possibly) infeasible methods
                row["surrogate"] = problem.f(X) + NONNEG_SURROGATE_WEIGHT * row["negativity"]
            records.append({**ident, **row})
            if history is not None:
                histories.append(history.assign(**ident))
                points[run] = X
            bar.update()
    finally:
        bar.close()
    columns = list(RECORD_COLUMNS)
    history_frame = (pd.concat(histories, ignore_index=True) if histories
                     else pd.DataFrame(columns=["run", "iteration", "seconds", "F", "feasibility", "nnz"]))
    return Experiment(records=pd.DataFrame(records, columns=columns), histories=history_frame, points=points,
                      datasets=data)


def _warm_up(solvers, problems, scale, options) -> None:
    """Run each solver a few iterations on a 4 x 2 instance of each problem, so that compiling
    (numba, first calls) is not charged to the first timed run."""
    C = np.diag([4.0, 3.0, 2.0, 1.0]) / 10.0 + 0.01
    for name, p in itertools.product(sorted(solvers), problems):
        try:
            get_solver(name)(build_problem(p, C, 0.01, scale), start_point("identity", 4, 2, p), max_iter=3,
                             rng=0, **options.get(name, {}))
        except UnsupportedProblemError:
            pass


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


def time_to_target(experiment: Experiment, rtol: float = TARGET_RTOL, feasibility_tol: float = 1e-8) -> pd.DataFrame:
    """Seconds each run needs to come within ``rtol`` (relative) of the best F of its instance.

    An instance is (problem, dataset, m, n, r, lam, seed). Its best F is the smallest F found by
    any method: at a returned point (the records) or at a logged iterate with
    ``||X^T X - I||_F <= feasibility_tol`` (the histories; an infeasible iterate cannot set the
    target). A run reaches the target at its first such history row with
    F <= F_best + rtol |F_best| (NaN if never).
    """
    rtol = check_nonnegative(rtol, "rtol")
    keys = ["problem", "dataset", "m", "n", "r", "lam", "seed"]
    rec = experiment.records.copy()
    rec["lam"] = rec["lam"].fillna(-1.0)  # NaN lam (nonneg) must still group
    hist = experiment.histories
    feasible = hist[hist["feasibility"] <= feasibility_tol]
    best_logged = feasible.groupby("run")["F"].min()
    rec["F_found"] = np.fmin(rec["F"].to_numpy(), rec["run"].map(best_logged).to_numpy(dtype=float))
    rec["F_best"] = rec.groupby(keys)["F_found"].transform("min")
    rec["target"] = rec["F_best"] + rtol * rec["F_best"].abs()
    times = []
    for row in rec.itertuples():
        h = feasible[feasible["run"] == row.run]
        hit = h[h["F"] <= row.target]
        times.append(float(hit["seconds"].iloc[0]) if len(hit) else np.nan)
    rec["seconds_to_target"] = times
    rec["lam"] = rec["lam"].replace(-1.0, np.nan)
    return rec[["run", "method", "start", *keys, "F", "F_best", "seconds_to_target"]]
