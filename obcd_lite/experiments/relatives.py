"""OBCD against its nearest relatives (issue 20, notebook 07): what the global solve and the
reflections buy, measured.

Two measurements, pure compute (figures in :mod:`obcd_lite.viz.relatives`; the third, Procrustes on O(p)
and its det-mismatch floor, is :mod:`obcd_lite.experiments.procrustes`):

1. **The ablation grid**: OBCD against itself with one ingredient removed (:data:`ABLATION`), on PCA,
   l0/l1-SPCA and nonnegative PCA, same starts and budgets (:func:`ablation_grid`).
2. **Do solvers agree?** Limits of several solvers on one instance compared up to a signed permutation
   of the columns (:func:`signed_permutation_distance`, the distance of Frerix & Bruna's
   ``util.symmetrized_norm``, here by linear assignment) and classified (:func:`classify_limit`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from ..optimality import block_report, riemannian_residual
from ..penalties import L0, L1, count_nonzeros
from ..problems import QuadraticProblem, nonneg_pca, sparse_pca
from ..solvers import get_solver, manpg_subproblem
from ..data import load_dataset
from ..validation import UnsupportedProblemError, as_matrix, check_nonnegative
from .procrustes import _warm_up
from .runner import start_point

# --------------------------------------------------------------------------- 1. the ablation grid

#: The ablation: label -> (registry name, options). Each row changes one ingredient of OBCD: one
#: gradient step instead of the global solve, rotations only, and k = 3 (which needs h = 0 and the
#: scalar Q of eq. (10), so "k = 2, scalar Q" is its like-for-like reference; k = 3 runs in the
#: Python engine, k = 2 compiled: compare its F and iterations, its seconds only with that in mind).
ABLATION = {"OBCD": ("obcd", {}), "one step": ("obcd_step", {}), "rotations only": ("obcd_rot", {}),
            "k = 2, scalar Q": ("obcd", {"Q": "scalar"}), "k = 3": ("obcd", {"k": 3})}
#: Problems of the grid: PCA (h = 0), l0/l1-SPCA (Section 1.1, scale 1) and nonnegative PCA (App. E.1).
ABLATION_PROBLEMS = ("pca", "l0", "l1", "nonneg")
#: lam per (problem, data set): where the loadings are sparse but not one entry per column.
ABLATION_LAMS = {("l1", "spiked"): 0.03, ("l0", "spiked"): 1e-3, ("l1", "digits"): 0.02, ("l0", "digits"): 1e-3}
#: Relative tolerance of "time to target" (as :data:`obcd_lite.experiments.records.TARGET_RTOL`).
TARGET_RTOL = 1e-6
#: Criticality is judged at this relative residual (a limit reached to finite accuracy).
CRITICAL_RTOL = 1e-6
#: Sampled BS_2 test: the number of pairs.
BS2_SAMPLE = 400
#: Sampled BS_2 test: the relative gap tolerance.
BS2_RTOL = 1e-9


def ablation_problem(problem: str, C, lam: float = 0.0) -> QuadraticProblem:
    """"pca": -tr(X^T C X); "l0"/"l1": plus lam ||X||_0 / lam ||X||_1; "nonneg": -1/2 tr(X^T C X), X >= 0.

    Parameters
    ----------
    problem : str
        "pca", "l0", "l1" or "nonneg".
    C : numpy.ndarray, shape (n, n)
        The (n, n) Gram matrix.
    lam : float
        The weight of l0 or l1 (>= 0).

    Returns
    -------
    QuadraticProblem
        The problem on C.

    Raises
    ------
    ValueError
        If the problem is unknown or lam is negative.
    """
    if problem == "pca":
        return sparse_pca(C)
    if problem in ("l0", "l1"):
        return sparse_pca(C, (L0 if problem == "l0" else L1)(check_nonnegative(lam, "lam")))
    if problem == "nonneg":
        return nonneg_pca(C)
    raise ValueError(f"unknown problem {problem!r}; valid: {', '.join(ABLATION_PROBLEMS)}")


def criticality_measure(problem, X, method: str = "residual", zero_tol: float | None = 1e-8) -> float:
    """How far X is from critical (Definition 3.4), relative to 1 + ||grad f(X)||_F.

    "residual": dist(0, d_M F(X)), exact (:func:`~obcd_lite.optimality.riemannian_residual`, a
    bounded least-squares problem in the zero entries: for small n r). "prox": ||D||_F / t for
    ManPG's tangent proximal step D at X with t = 1/L (Chen et al. 2020: for convex h, D = 0 exactly
    at the critical points; one semismooth Newton solve, so it scales to n = 1500).
    ``zero_tol``: entries with |x| <= zero_tol count as zeros for "residual" (ManPG's polar
    retraction leaves its zeros at ~1e-10, OBCD's are exact).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X : numpy.ndarray, shape (n, r)
        A point of St(n, r).
    method : str
        "residual" or "prox".
    zero_tol : float or None
        As above.

    Returns
    -------
    float
        The relative measure (0 at a critical point).

    Raises
    ------
    ValueError
        If the method is unknown.
    """
    scale = 1.0 + float(np.linalg.norm(problem.grad(X)))
    if method == "residual":
        return riemannian_residual(problem, X, zero_tol=zero_tol) / scale
    if method == "prox":
        t = 1.0 / problem.lipschitz()
        return float(np.linalg.norm(manpg_subproblem(X, problem.grad(X), t, problem.h).D)) / t / scale
    raise ValueError(f"method must be 'residual' or 'prox', got {method!r}")


def classify_limit(problem, X, *, sample: int = BS2_SAMPLE, rng=0, critical: str = "residual",
                   critical_rtol: float = CRITICAL_RTOL) -> dict:
    """Where X sits in the hierarchy, as far as cheap tests tell: :func:`criticality_measure`
    ("critical" at <= ``critical_rtol``: a solver stopped on a tolerance is only that close), and the BS_2 test of Definition 3.6 on ``sample``
    random pairs (largest gap; "BS2" when no sampled gap exceeds :data:`BS2_RTOL` (1 + |F|)).

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X : numpy.ndarray, shape (n, r)
        A point of St(n, r).
    sample : int
        How many random pairs the BS_2 test draws.
    rng : int or numpy.random.Generator
        Draws them.
    critical : str
        The method of :func:`criticality_measure`.
    critical_rtol : float
        Its tolerance.

    Returns
    -------
    dict
        ``residual``, ``critical``, ``bs2_gap``, ``bs2``.
    """
    measure = criticality_measure(problem, X, critical)
    report = block_report(problem, X, 2, sample=sample, rng=rng, tol=BS2_RTOL)
    return {"residual": measure, "critical": measure <= critical_rtol, "bs2_gap": report.largest_gap,
            "bs2": report.stationary}


def ablation_grid(*, problems=ABLATION_PROBLEMS, datasets=("spiked", "digits"), variants=None, r: int = 3,
                  n: int | None = None, seeds=(0,), time_limit: float | None = 0.5, max_iter: int = 10**9,
                  sample: int = BS2_SAMPLE, lams: dict | None = None) -> pd.DataFrame:
    """Every variant of :data:`ABLATION` on every (problem, data set, seed), from one random start per
    seed and with the same budget (``time_limit`` seconds and/or ``max_iter`` steps; an iteration
    budget alone gives the same table on every machine, except its seconds). Rows: problem, dataset, seed, variant, F, F - F_best, nnz,
    seconds_to_target (first logged F <= F_best + rtol |F_best|, rtol = :data:`TARGET_RTOL`, over
    the variants' logged iterates), iterations, residual, critical, bs2_gap, bs2. A variant that
    declines the problem (k = 3 with h != 0) gets a row with ``declined = True``.

    Parameters
    ----------
    problems : sequence of str
        The grid's problems (:func:`ablation_problem`).
    datasets : sequence of str
        The grid's data sets.
    variants : dict or None
        The grid's variants, label -> (registry name, options); None: :data:`ABLATION`.
    r : int
        Columns.
    n : int or None
        The data sets' size (None: their default).
    seeds : sequence of int
        The seeds.
    time_limit : float or None
        The budget in seconds.
    max_iter : int
        The budget in iterations.
    sample : int
        The BS_2 test's pairs (:func:`classify_limit`).
    lams : dict or None
        Overrides of :data:`ABLATION_LAMS`.

    Returns
    -------
    pandas.DataFrame
        One row per (problem, data set, seed, variant).
    """
    variants = ABLATION if variants is None else variants
    lams = {**ABLATION_LAMS, **(lams or {})}
    _warm_up(variants)
    rows = []
    for dataset in datasets:
        for seed in seeds:
            ds = load_dataset(dataset, n=n, rng=int(seed))
            for name in problems:
                problem = ablation_problem(name, ds.C, lams.get((name, dataset), 0.0))
                X0 = start_point("random", ds.n, r, "nonneg" if name == "nonneg" else "l1", rng=int(seed))
                rows.extend(_ablation_instance(problem, X0, variants, time_limit, max_iter, sample, int(seed),
                                               dict(problem=name, dataset=dataset, seed=int(seed))))
    table = pd.DataFrame(rows)
    keys = ["problem", "dataset", "seed"]
    table["F_best"] = table.groupby(keys)["F_found"].transform("min")
    table["F - F_best"] = table["F"] - table["F_best"]
    target = table["F_best"] + TARGET_RTOL * table["F_best"].abs()
    table["seconds_to_target"] = [_first_below(h, t) for h, t in zip(table.pop("history"), target)]
    return table.drop(columns=["F_found"])



def _ablation_instance(problem, X0, variants, time_limit, max_iter, sample, seed, ident) -> list[dict]:
    rows = []
    for label, (name, options) in variants.items():
        try:
            res = get_solver(name)(problem, X0, time_limit=time_limit, max_iter=max_iter, rng=seed,
                                   log_every=max(1, X0.shape[0]), **options)
        except UnsupportedProblemError:
            rows.append({**ident, "variant": label, "declined": True, "F": np.nan, "F_found": np.nan,
                         "history": None})
            continue
        h = res.history
        rows.append({**ident, "variant": label, "declined": False, "F": res.F,
                     "F_found": min(res.F, float(np.min(h["F"]))), "nnz": count_nonzeros(res.X),
                     "iterations": res.iterations, **classify_limit(problem, res.X, sample=sample, rng=seed),
                     "history": (np.asarray(h["seconds"]), np.asarray(h["F"]))})
    return rows


def _first_below(history, target: float) -> float:
    if history is None:
        return np.nan
    seconds, F = history
    hit = np.flatnonzero(F <= target)
    return float(seconds[hit[0]]) if len(hit) else np.nan


def ingredient_values(table: pd.DataFrame) -> pd.DataFrame:
    """What each ingredient is worth, per instance: F(variant) - F(OBCD) (positive: OBCD lower) and
    the ratio of times to target (variant / OBCD; inf when the variant never reaches the target).

    Parameters
    ----------
    table : pandas.DataFrame
        The rows of :func:`ablation_grid`.

    Returns
    -------
    pandas.DataFrame
        One row per instance and variant other than OBCD.
    """
    base = table[table["variant"] == "OBCD"].set_index(["problem", "dataset", "seed"])
    rows = []
    for (prob, ds, seed), sub in table[table["variant"] != "OBCD"].groupby(["problem", "dataset", "seed"]):
        ref = base.loc[(prob, ds, seed)]
        for row in sub.itertuples():
            if row.declined:
                continue
            ratio = (row.seconds_to_target / ref.seconds_to_target if np.isfinite(row.seconds_to_target)
                     else np.inf)
            rows.append({"problem": prob, "dataset": ds, "seed": seed, "variant": row.variant,
                         "F - F_OBCD": row.F - ref.F, "time ratio": ratio})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- k = 3 per update and per flop

#: The k = 3 comparison: k = 3 and its like-for-like k = 2 (both h = 0 and the scalar Q of eq. (10)).
K3_VARIANTS = {"k = 2, scalar Q": ("obcd", {"Q": "scalar"}), "k = 3": ("obcd", {"k": 3})}


def obcd_flops_per_iteration(n: int, r: int, k: int) -> int:
    """Flops of one OBCD iteration with h = 0 and the scalar Q of eq. (10) on a quadratic f with D = I
    (PCA), counted as RCD's are (the arithmetic the update needs):

    * the block data: [grad f(X) X^T]_BB = G_B Z^T, 2 k^2 r;
    * the k x k solve, V = -polar(P) (Lemma 2.3(b); for k = 2 with h = 0 and this Q it is the same
      problem), counted as an SVD with both factors, 21 k^3 (Golub & Van Loan's count);
    * V Z, 2 k^2 r, and the change of f, <dZ, G_B> + 1/2 <dZ, (C dZ)_B>, 3 k r;
    * the gradient update G += C(:, B) dZ (Appendix C.3 (i)), 2 n k r, the term that dominates.

    Parameters
    ----------
    n, r, k : int
        X is n x r; the block size.

    Returns
    -------
    int
        2 n k r + 4 k^2 r + 3 k r + 21 k^3.

    Raises
    ------
    ValueError
        If n, r or k is not positive.
    """
    if min(n, r, k) < 1:
        raise ValueError(f"n, r and k must be positive, got n = {n}, r = {r}, k = {k}")
    return 2 * n * k * r + 4 * k * k * r + 3 * k * r + 21 * k ** 3


def k3_by_updates(*, datasets=("spiked",), seeds=(0, 1, 2), r: int = 3, n: int | None = None,
                  sweeps: float = 40.0) -> pd.DataFrame:
    """k = 3 against k = 2 (both h = 0, scalar Q) at an equal flop budget: per iteration and per flop,
    which do not depend on the engine (k = 3 runs in the Python engine, k = 2 compiled), and seconds
    beside them. The budget is ``sweeps`` sweeps of k = 2 pair updates (sweeps n (n - 1) / 2
    iterations); k = 3 gets the iterations that cost the same flops (:func:`obcd_flops_per_iteration`).
    Rows: dataset, seed, variant, engine, iterations, flops, F - F_best (F_best: the smaller final F
    of the two), and the iterations, flops and seconds to the target F_best + rtol |F_best|
    (rtol = :data:`TARGET_RTOL`; NaN where never reached), seconds.

    Parameters
    ----------
    datasets : sequence of str
        The instances' data sets.
    seeds : sequence of int
        Their seeds.
    r : int
        Columns.
    n : int or None
        The data sets' size (None: their default).
    sweeps : float
        The budget in k = 2 sweeps.

    Returns
    -------
    pandas.DataFrame
        One row per (data set, seed, variant).
    """
    rows = []
    _warm_up(K3_VARIANTS)
    for dataset in datasets:
        for seed in seeds:
            ds = load_dataset(dataset, n=n, rng=int(seed))
            problem = sparse_pca(ds.C)
            X0 = start_point("random", ds.n, r, "l1", rng=int(seed))
            budget = sweeps * ds.n * (ds.n - 1) / 2 * obcd_flops_per_iteration(ds.n, r, 2)
            runs = {}
            for label, (name, options) in K3_VARIANTS.items():
                per_iteration = obcd_flops_per_iteration(ds.n, r, options.get("k", 2))
                iterations = int(budget // per_iteration)
                runs[label] = (per_iteration, get_solver(name)(problem, X0, max_iter=iterations, rng=int(seed),
                                                               log_every=ds.n, **options))
            F_best = min(res.F for _, res in runs.values())
            for label, (per_iteration, res) in runs.items():
                hit = np.flatnonzero(np.asarray(res.history["F"]) <= F_best + TARGET_RTOL * abs(F_best))
                to_target = int(res.history["iteration"][hit[0]]) if len(hit) else np.nan
                rows.append({"dataset": dataset, "seed": int(seed), "variant": label, "engine": res.info["engine"],
                             "iterations": res.iterations, "flops": res.iterations * per_iteration,
                             "F - F_best": res.F - F_best, "iterations to target": to_target,
                             "flops to target": to_target * per_iteration,
                             "seconds to target": float(res.history["seconds"][hit[0]]) if len(hit) else np.nan,
                             "seconds": res.seconds})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- 2. do solvers agree?

#: Two limits are "different points" when their signed-permutation distance is at least this.
AGREEMENT_TOL = 1e-2


def signed_permutation_distance(X, Y) -> float:
    """min ||X - Y P S||_F over permutations P and signs S of the columns.

    SPCA's F is invariant under signed column permutations, so two solvers that return the same
    loadings in another order or sign found the same point. Cost of matching column i of X to
    column j of Y: min(||x_i - y_j||^2, ||x_i + y_j||^2); the best matching is a linear assignment
    (``scipy.optimize.linear_sum_assignment``), the same distance as Frerix & Bruna's
    ``util.symmetrized_norm``.

    Parameters
    ----------
    X, Y : array_like, shape (n, r)
        The two points.

    Returns
    -------
    float
        The distance.

    Raises
    ------
    ValueError
        If X or Y is not a matrix or their shapes differ.
    """
    X = as_matrix(X, "X")
    Y = as_matrix(Y, "Y")
    if X.shape != Y.shape:
        raise ValueError(f"X and Y must have the same shape, got {X.shape} and {Y.shape}")
    sq_x = np.sum(X * X, axis=0)[:, None]
    sq_y = np.sum(Y * Y, axis=0)[None, :]
    cross = np.abs(X.T @ Y)
    cost = np.maximum(sq_x + sq_y - 2.0 * cross, 0.0)
    rows, cols = linear_sum_assignment(cost)
    return float(np.sqrt(cost[rows, cols].sum()))


def limit_clusters(points: dict, tol: float = AGREEMENT_TOL) -> dict:
    """Group labelled points into distinct limits: a point joins the first earlier group whose
    first member is within ``tol`` (signed-permutation distance). Returns label -> group index
    (0, 1, ...; in the order of ``points``).

    Parameters
    ----------
    points : dict
        Label -> (n, r) array.
    tol : float
        The distance below which two points are one limit.

    Returns
    -------
    dict
        Label -> group index.
    """
    heads, group = [], {}
    for label, X in points.items():
        for g, head in enumerate(heads):
            if signed_permutation_distance(X, points[head]) < tol:
                group[label] = g
                break
        else:
            group[label] = len(heads)
            heads.append(label)
    return group


def agreement_census(problem, X0, solvers: dict, *, time_limit: float | None = None, sample: int = BS2_SAMPLE,
                     rng=0, tol: float = AGREEMENT_TOL, critical: str = "residual") -> pd.DataFrame:
    """Run ``solvers`` (label -> (registry name, options, start label or None)) on one instance and
    compare their limits. A start label runs the solver from that earlier solver's point (e.g.
    OBCD from ManPG's point). Rows: solver, F, nnz (|x| > 1e-5, the reference codes' count),
    iterations, seconds, distance to the first solver's point, group (:func:`limit_clusters`),
    lowest (F within 1e-9 |F| of the smallest), and :func:`classify_limit`'s columns.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.
    X0 : numpy.ndarray, shape (n, r)
        The common start.
    solvers : dict
        Label -> (registry name, options, start label or None).
    time_limit : float or None
        Seconds per solver (None: none).
    sample : int
        As for :func:`classify_limit`.
    rng : int or numpy.random.Generator
        As for :func:`classify_limit`.
    tol : float
        As :func:`limit_clusters`.
    critical : str
        As :func:`classify_limit`.

    Returns
    -------
    pandas.DataFrame
        One row per solver.
    """
    points, rows = {}, []
    for label, (name, options, start) in solvers.items():
        X_start = X0 if start is None else points[start]
        res = get_solver(name)(problem, X_start, time_limit=time_limit, rng=rng, log_every=10**6, **options)
        points[label] = res.X
        rows.append({"solver": label, "F": res.F, "nnz": count_nonzeros(res.X, 1e-5),
                     "iterations": res.iterations, "seconds": res.seconds,
                     **classify_limit(problem, res.X, sample=sample, rng=rng, critical=critical)})
    table = pd.DataFrame(rows)
    first = next(iter(points.values()))
    table["distance"] = [signed_permutation_distance(X, first) for X in points.values()]
    table["group"] = list(limit_clusters(points, tol).values())
    F_min = table["F"].min()
    table["lowest"] = table["F"] <= F_min + 1e-9 * abs(F_min)
    return table
