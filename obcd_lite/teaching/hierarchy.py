"""Compute behind notebook 05: witnesses for each gap of the optimality hierarchy, censuses of
solver limits, and alpha sweeps of the BS_2 set. The witnesses taken apart (pair and three-row descents,
the scalar-Q search) are in :mod:`.hierarchy_descent`. Theorem 4.2 and Lemma 4.4 along OBCD runs (Section 4) are in
:mod:`.paper_rates`, the instance factories in :mod:`.instances`.

Everything here calls :mod:`obcd_lite.optimality` for the certificates; nothing draws.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from ..optimality import block_report, classify, global_minimum
from ..optimality.criticality import residual_details
from ..optimality.global_search import GlobalMinimum
from ..penalties import L0, L1, CappedL1, penalty_by_name
from ..problems import nonneg_pca, procrustes
from ..rounding import fmt, fmt_interval, snap_point
from ..solvers import get_solver
from ..stiefel import random_start, random_stiefel
from ..subproblem import block_data, brute_force_2x2, majorizer_value
from .critical_points import bs2_points_2x2
from .instances import tiny_problem

#: The BS_2-but-not-critical witness (h = l1, n = 3, r = 2): Procrustes target and weight. Found by
#: running OBCD (k = 2, cyclic) from random starts on random targets and classifying each limit;
#: this one is rounded to short decimals.
WITNESS_T = ((1.5, -1.25), (1.5, 1.35), (0.8, 0.25))
WITNESS_LAM = 1.35
#: The capped-l1 witness (tau = 0.3 < 1, where capped-l1 differs from l1 on St(n, r)): target, lam, tau.
#: Found the same way (OBCD limits on random rounded targets, lam in [0.5, 2]).
WITNESS_CAPPED = (((-0.05, 0.24), (-0.73, 0.89), (1.05, 0.93)), 1.81, 0.3)
# --- the BS_2-not-critical witness ---------------------------------------------------------------

@dataclass
class Witness:
    """A point with its certificates: ``brute`` {B: K(I) - brute-force min over O(2)} (independent
    of the breakpoint search), ``residual`` (Definition 3.4), ``pair_ranges`` {B: [lo, hi]} the
    values of [G X^T - X G^T]_ij over the G the pair may pick (0 inside: the pair alone is stationary),
    ``pair_values`` {B: the free-entry value(s) that zero the pair's condition} for the shared entries.

    Attributes
    ----------
    problem : Problem
        The problem.
    X : numpy.ndarray
        The point.
    brute, pair_ranges, pair_values : dict
        The certificates above, per pair B.
    residual : float
        The criticality residual.
    """

    problem: object
    X: np.ndarray
    brute: dict
    residual: float
    pair_ranges: dict
    pair_values: dict = field(default_factory=dict)


def pair_conditions(problem, X) -> tuple[dict, dict]:
    """For each pair B = (i, j): the range of A_ij = [G X^T - X G^T]_ij over G in grad f + dh
    restricted to rows i and j, and, for each free entry of those rows, the value that alone
    zeroes A_ij (others at their least-norm subgradient). A pair's condition holds iff 0 is in range.
    Entries of X zero to rounding are zeros (``rounding.snap_point``, the rule of ``residual_details``).

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    X : numpy.ndarray
        The point, on St(n, r).

    Returns
    -------
    tuple of dict
        {B: (lo, hi)} and {B: the zeroing values}.
    """
    X = snap_point(X)
    grad = problem.grad(X)
    lo, hi = problem.h.subdifferential(X)
    fixed = np.where(lo < hi, np.clip(0.0, lo, hi), lo)
    G0 = grad + fixed
    ranges, values = {}, {}
    for i, j in itertools.combinations(range(X.shape[0]), 2):
        a0 = float(G0[i] @ X[j] - X[i] @ G0[j])
        low = high = a0
        solo = {}
        for row, other, sign in ((i, j, 1.0), (j, i, -1.0)):
            for col in np.flatnonzero(lo[row] < hi[row]):
                c = sign * X[other, col]  # d A_ij / d G[row, col]
                if c == 0:
                    continue
                base = fixed[row, col]
                ends = (c * (lo[row, col] - base), c * (hi[row, col] - base))
                low, high = low + min(ends), high + max(ends)
                solo[(row, int(col))] = float(base - a0 / c)
        ranges[(i, j)] = (low, high)
        values[(i, j)] = solo
    return ranges, values


def certify_witness(problem, X, alpha: float = 1e-5, grid: int = 40_001) -> Witness:
    """Both halves, independently: every 2-row block by brute force over O(2) (dense grid, kink
    angles, Brent refinement), and non-criticality by the least-squares distance.

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    X : numpy.ndarray
        The point, on St(n, r).
    alpha : float
        The proximal parameter of eq. (11).
    grid : int
        The brute force's angles per circle.

    Returns
    -------
    Witness
        The point with its certificates.
    """
    G = problem.grad(X)
    brute = {}
    for B in itertools.combinations(range(X.shape[0]), 2):
        Qt, P, Z = block_data(problem, X, G, list(B), alpha, "exact")
        stay = majorizer_value(Qt, P, np.eye(2), Z, problem.h)
        brute[B] = stay - brute_force_2x2(Qt, P, Z, problem.h, grid=grid).value
    ranges, values = pair_conditions(problem, X)
    return Witness(problem, X, brute, residual_details(problem, X).value, ranges, values)


def bs2_not_critical_witness(penalty: str = "l1", tau: float | None = None) -> Witness:
    """The witness of the Theorem 3.8(a) erratum: OBCD's limit on a fixed l1, l0 or capped-l1 Procrustes problem.

    h = lam ||X||_1 with T = WITNESS_T, lam = WITNESS_LAM, X = the limit of 900 cyclic OBCD steps
    from random_stiefel(3, 2, rng=1). For "l0" the same target with lam = 0.3. For "capped_l1"
    (lam sum min(|X_ij|, tau)): with ``tau`` >= 1 the l1 witness itself (on St(n, r) every |X_ij| <= 1,
    so capped-l1 equals l1 there); with ``tau`` None the problem of WITNESS_CAPPED (tau = 0.3).

    Parameters
    ----------
    penalty : str
        "l1", "l0" or "capped_l1".
    tau : float or None
        The cap of "capped_l1".

    Returns
    -------
    Witness
        The certified witness.

    Raises
    ------
    ValueError
        If ``penalty`` is not one of the three, or ``tau`` is below 1 and not None.
    """
    T = WITNESS_T
    if penalty == "l1":
        h = L1(WITNESS_LAM)
    elif penalty == "l0":
        h = L0(0.3)
    elif penalty == "capped_l1":
        if tau is None:
            T, lam, tau = WITNESS_CAPPED
            h = CappedL1(lam, tau)
        elif tau >= 1.0:
            h = CappedL1(WITNESS_LAM, tau)
        else:
            raise ValueError(f"the capped-l1 witness is for tau >= 1 or tau = None (WITNESS_CAPPED), got tau = {tau!r}")
    else:
        raise ValueError(f"penalty must be 'l1', 'l0' or 'capped_l1', got {penalty!r}")
    problem = procrustes(np.array(T), h)
    X = get_solver("obcd")(problem, random_stiefel(3, 2, rng=1), working_set="cyclic", max_iter=900).X
    return certify_witness(problem, X)


# --- searches and censuses -------------------------------------------------------------------------

def solver_limits(problem, r: int, solvers: dict, starts: int, rng=0) -> list[tuple[str, np.ndarray]]:
    """(label, X) for each solver configuration from ``starts`` shared random starts.
    ``solvers`` maps a label to (registry name, options).

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    r : int
        The columns of X.
    solvers : dict
        {label: (registry name, options)}.
    starts : int
        The random starts.
    rng : int or numpy.random.Generator
        Draws the starts.

    Returns
    -------
    list of tuple
        (label, X) per run.
    """
    rng = np.random.default_rng(rng)
    X0s = [random_start(problem.n, r, rng, problem.h) for _ in range(starts)]
    out = []
    for label, (name, options) in solvers.items():
        solver = get_solver(name)
        for s, X0 in enumerate(X0s):
            try:
                out.append((label, solver(problem, X0, rng=s, **options).X))
            except NotImplementedError:
                break
    return out



def teaching_ks(problem, Q: str | None = None) -> tuple[int, ...]:
    """The block sizes the teaching views test: every k = 2..n for h = 0 with a scalar Q (the notebooks'
    instances are small, n <= 6, so all 2^n blocks are cheap and BS_3, BS_4, ... can be shown), else k = 2
    (classify's own default, which keeps large problems within its block budget).

    Parameters
    ----------
    problem : obcd_lite.protocol.Problem
        The problem (its ``n`` and penalty ``h``).
    Q : str or None
        classify's Q; "exact" tests k = 2 only.

    Returns
    -------
    tuple of int
        The block sizes k to test.
    """
    return tuple(range(2, problem.n + 1)) if (problem.h.is_zero and Q != "exact") else (2,)

def census(problem, r: int, solvers: dict, starts: int = 10, *, alpha: float = 1e-5, rng=0,
           global_min: GlobalMinimum | None = None, zero_tol: float = 1e-10) -> dict:
    """Classify every solver limit (one global search shared): {"rows": [...], "counts": {label: {level: count}},
    "global_min": ...}. Each row: label, F, the levels dict, strongest, nested. Entries with
    |X_ij| <= zero_tol count as zeros (see ``classify``).

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    r : int
        The columns of X.
    solvers : dict
        {label: (registry name, options)}.
    starts : int
        The random starts.
    alpha : float
        The proximal parameter of eq. (11).
    rng : int or numpy.random.Generator
        Draws the starts.
    global_min : GlobalMinimum or None
        The global search's result; None: computed.
    zero_tol : float
        Entries at most zero_tol in absolute value are zeros.

    Returns
    -------
    dict
        ``rows``, ``counts`` and ``global_min``.
    """
    if global_min is None:
        global_min = global_minimum(problem, r=r, rng=0)
    rows = []
    for label, X in solver_limits(problem, r, solvers, starts, rng):
        c = classify(problem, X, alpha=alpha, global_min=global_min, zero_tol=zero_tol, ks=teaching_ks(problem))
        rows.append({"solver": label, "F": c.F, "levels": c.levels, "strongest": c.strongest, "nested": c.nested,
                     "X": X})
    counts = {}
    for row in rows:
        table = counts.setdefault(row["solver"], {"points": 0})
        table["points"] += 1
        for level, value in row["levels"].items():
            table[level] = table.get(level, 0) + bool(value)
    return {"rows": rows, "counts": counts, "global_min": global_min}


def search_gaps(penalty: str, trials: int, *, n: int = 3, r: int = 2, lam: float = 0.5, max_iter: int = 240,
                alpha: float = 1e-5, rng=0) -> dict:
    """Run OBCD (k = 2, cyclic, exact Q) on random tiny Procrustes problems with the named penalty
    (nonneg: nonneg PCA) and test each limit: {"searched": (problems, points), "bs2": how many
    limits are BS_2, "bs2_not_critical": [(problem, X, residual)], "critical_not_bs2": [...]}.

    Parameters
    ----------
    penalty : str
        The penalty's name.
    trials : int
        The random problems.
    n, r : int
        The shape of St(n, r).
    lam : float
        The penalty's weight.
    max_iter : int
        OBCD's iterations.
    alpha : float
        The proximal parameter of eq. (11).
    rng : int or numpy.random.Generator
        Draws the problems and starts.

    Returns
    -------
    dict
        The counts and the gaps found, as above.
    """
    rng = np.random.default_rng(rng)
    found = {"searched": (trials, trials), "bs2": 0, "bs2_not_critical": [], "critical_not_bs2": []}
    for _ in range(trials):
        if penalty == "nonneg":
            A = rng.standard_normal((2 * n, n))
            problem = nonneg_pca(A.T @ A / n)
        else:
            problem = procrustes(rng.standard_normal((n, r)), penalty_by_name(penalty, lam * rng.uniform(0.3, 2.0)))
        X0 = random_start(n, r, rng, problem.h)
        X = get_solver("obcd")(problem, X0, working_set="cyclic", max_iter=max_iter, alpha=alpha).X
        bs2 = block_report(problem, X, 2, alpha=alpha).stationary
        residual = residual_details(problem, X).value
        critical = residual <= 1e-8 * (1.0 + np.linalg.norm(problem.grad(X)))
        found["bs2"] += bs2
        if bs2 and not critical:
            found["bs2_not_critical"].append((problem, X, residual))
        if critical and not bs2:
            found["critical_not_bs2"].append((problem, X, residual))
    return found


def eigen_critical_points(C, r: int) -> list[tuple[tuple, np.ndarray]]:
    """The critical points of -tr(X^T C X) on St(n, r) spanned by eigenvectors (all of them when the
    eigenvalues are distinct, up to X -> X Q, Q in O(r)): (eigen-indices, X) for each r-subset.

    Parameters
    ----------
    C : array_like
        The symmetric n x n matrix.
    r : int
        The columns of X.

    Returns
    -------
    list of tuple
        (eigen-indices, X) per r-subset.
    """
    _, U = np.linalg.eigh(C)
    U = U[:, ::-1]
    return [(S, U[:, list(S)]) for S in itertools.combinations(range(C.shape[0]), r)]


def bs2_not_global(penalties=("l1", "l0", "nonneg"), *, n: int = 4, r: int = 2, lam: float = 0.1, seed: int = 0,
                   starts: int = 12, alpha: float = 1e-5) -> list[dict]:
    """BS_2 points that are not global, certified at sizes the angle search cannot reach (n = 4, r = 2).

    For each penalty: the certified global minimum of ``tiny_problem(n, penalty, lam, seed)`` (SCIP,
    ``global_minimum(..., backend="scip")``) and OBCD's limits (k = 2, cyclic, exact Q) from ``starts``
    random starts, each classified. Returns one row per penalty: the certified interval [lower, value] of
    min F, how many limits are BS_2, how many of those are certified not global (F above the value of a
    known point), and the worst one ("witness": its F, F - value, whether it is critical; "none found"
    when every BS_2 limit is global), with the problem and the point under "problem" and "X".

    Parameters
    ----------
    penalties : sequence of str
        The penalties' names.
    n, r : int
        The shape of St(n, r).
    lam : float
        The penalties' weight.
    seed : int
        The problems' seed.
    starts : int
        OBCD's random starts.
    alpha : float
        The proximal parameter of eq. (11).

    Returns
    -------
    list of dict
        One row per penalty.
    """
    rows = []
    for penalty in penalties:
        problem = tiny_problem(n, penalty, lam, seed)
        g = global_minimum(problem, r=r, rng=0, backend="scip")
        limits = solver_limits(problem, r, {"obcd": ("obcd", {"working_set": "cyclic", "alpha": alpha,
                                                               "max_iter": 400})}, starts, seed)
        found = [(X, classify(problem, X, alpha=alpha, global_min=g, ks=teaching_ks(problem))) for _, X in limits]
        bs2 = [(X, c) for X, c in found if c.bs[2]]
        stuck = [(X, c) for X, c in bs2 if c.is_global is False]
        X, c = max(stuck, key=lambda item: item[1].F) if stuck else (None, None)
        rows.append({"h": penalty, "certified min F": fmt_interval(g.lower_bound, g.value),
                     "certified": g.certified, "BS2 limits": f"{len(bs2)} of {len(found)}",
                     "BS2, not global": len(stuck), "witness F": "none found" if c is None else fmt(c.F),
                     "F - min F": "" if c is None else fmt(c.F - g.value, 2, style="e"),
                     "witness critical": "" if c is None else ("yes" if c.critical else "no"),
                     "problem": problem, "X": X})
    return rows


# --- alpha matters ---------------------------------------------------------------------------------

def alpha_sweep_2x2(T, mu: float, alphas) -> list[int]:
    """How many critical points of ||V - T||^2 + mu ||V||_1 on O(2) are BS_2, for each alpha.

    Parameters
    ----------
    T : array_like
        The 2 x 2 target.
    mu : float
        The l1 weight.
    alphas : sequence of float
        The proximal parameters of eq. (11).

    Returns
    -------
    list of int
        The count per alpha.
    """
    return [len(bs2_points_2x2(T, mu, alpha)) for alpha in alphas]


def alpha_sweep_points(problem, points, alphas, Q: str = "exact") -> np.ndarray:
    """BS_2 verdict (rows: points, columns: alphas) for each candidate point.

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    points : sequence of numpy.ndarray
        The candidate points.
    alphas : sequence of float
        The proximal parameters of eq. (11).
    Q : str
        The majorizer's Q.

    Returns
    -------
    numpy.ndarray
        The boolean verdicts.
    """
    return np.array([[block_report(problem, X, 2, alpha=a, Q=Q).stationary for a in alphas] for X in points])


__all__ = ["WITNESS_T", "WITNESS_LAM", "WITNESS_CAPPED", "Witness", "alpha_sweep_2x2", "alpha_sweep_points",
           "bs2_not_critical_witness", "bs2_not_global", "census", "certify_witness", "eigen_critical_points", "pair_conditions",
           "search_gaps", "solver_limits", "teaching_ks"]
