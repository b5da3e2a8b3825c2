"""scikit-learn's SparsePCA, the practitioner's peer, scored beside OBCD and ManPG.

SparsePCA solves a *different* problem from the paper's. It is the dictionary-learning form

    min_{U, V}  1/2 ||A - U V||_F^2 + alpha ||V||_{1,1}   s.t.  ||U_k||_2 <= 1   (k = 1..r),

over codes U (m x r) and components V (r x n), on the column-centred data A. The loadings V^T are
sparse but **not orthogonal** (no X^T X = I), and alpha weighs the l1 norm against a
reconstruction error, not against the variance tr(X^T C X). So F values cannot be compared; what
can be compared is what a user sees: adjusted explained variance (ZHT 2006) against sparsity, at
matched sparsity. :func:`sparsity_frontier` sweeps alpha for SparsePCA and lam for the
Stiefel-constrained methods (l1-SPCA) and :func:`at_matched_density` reads every frontier at
the same densities. It is therefore not registered in ``SOLVERS``.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..data import Dataset
from ..validation import as_matrix, check_nonnegative
from .metrics import NNZ_TOL, adjusted_explained_variance, normalize_columns, sparsity
from .runner import DEFAULT_MAX_ITER, build_problem, parse_method, start_point


@dataclass(frozen=True)
class PeerResult:
    """SparsePCA's loadings as an (n, r) matrix with unit (or zero) columns, and its cost.

    Attributes
    ----------
    X : ndarray, shape (n, r)
        The normalised loadings (not orthogonal).
    alpha : float
        SparsePCA's weight of the l1 norm.
    seconds : float
        Wall seconds of the fit.
    iterations : int
        SparsePCA's ``n_iter_``.
    """

    X: np.ndarray
    alpha: float
    seconds: float
    iterations: int


def sklearn_sparse_pca(A, r: int, alpha: float, *, rng=0, max_iter: int = 200, tol: float = 1e-6) -> PeerResult:
    """Fit ``sklearn.decomposition.SparsePCA(n_components=r, alpha=alpha, method="cd")`` to A.

    The components (rows of V) are returned as the columns of X, normalised to unit norm (zero
    components stay zero), so that they can be scored like a point of St(n, r) although they are
    not orthogonal. ``rng`` is its ``random_state``. Timed with ``time.perf_counter`` around fit.

    Parameters
    ----------
    A : array_like, shape (m, n)
        The data.
    r : int
        Components, 1 <= r <= n.
    alpha : float
        The weight of ||V||_{1,1}, >= 0.
    rng : int or numpy.random.Generator, default 0
        Seeds ``random_state``.
    max_iter : int, default 200
        SparsePCA's iteration budget.
    tol : float, default 1e-6
        SparsePCA's tolerance.

    Returns
    -------
    PeerResult
        The loadings, alpha, seconds and iterations.

    Raises
    ------
    ValueError
        If A is not a matrix, r is not an integer in 1..n, or alpha is negative.
    """
    from sklearn.decomposition import SparsePCA

    A = as_matrix(A, "A")
    if isinstance(r, bool) or int(r) != r or not 1 <= r <= A.shape[1]:
        raise ValueError(f"r must be an integer in 1..n = {A.shape[1]}, got r = {r!r}")
    alpha = check_nonnegative(alpha, "alpha")
    seed = rng if isinstance(rng, (int, np.integer)) else np.random.default_rng(rng).integers(2**31)
    model = SparsePCA(n_components=int(r), alpha=alpha, method="cd", max_iter=max_iter, tol=tol,
                      random_state=int(seed))
    begin = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence warnings: the budget is max_iter, recorded below
        model.fit(A)
    seconds = time.perf_counter() - begin
    V = model.components_.T
    norms = np.linalg.norm(V, axis=0)
    X = np.divide(V, norms, out=np.zeros_like(V), where=norms > 0)
    return PeerResult(X=X, alpha=alpha, seconds=seconds, iterations=int(model.n_iter_))


def sparsity_frontier(dataset: Dataset, r: int, *, alphas=(), lams=(), methods=("obcd",), time_limit: float = 1.0,
                      start: str = "identity", rng=0) -> pd.DataFrame:
    """Adjusted explained variance and density along each method's regularisation path.

    Rows: ``method`` ("sklearn" for SparsePCA, or a solver/warm-start name on l1-SPCA with
    scale 1), ``param`` (alpha or lam), ``nnz``, ``density``, ``explained_variance``,
    ``orthogonality`` (||X^T X - I||_F of the normalised loadings), ``seconds``.

    Parameters
    ----------
    dataset : Dataset
        The data (its A for SparsePCA, its C for l1-SPCA).
    r : int
        Components.
    alphas : sequence of float, default ()
        SparsePCA's path.
    lams : sequence of float, default ()
        The path of each method in ``methods``.
    methods : sequence of str, default ("obcd",)
        Solver or warm-start names (``runner.parse_method``).
    time_limit : float, default 1.0
        Seconds per run of a method.
    start : str, default "identity"
        The methods' start point (``runner.start_point``).
    rng : int or numpy.random.Generator, default 0
        Seeds SparsePCA and the start point.

    Returns
    -------
    pandas.DataFrame
        One row per (method, param).
    """
    rows = []
    for alpha in alphas:
        res = sklearn_sparse_pca(dataset.A, r, alpha, rng=rng)
        rows.append(_row("sklearn", alpha, res.X, dataset, res.seconds))
    from .runner import _run_one, _warm_up  # one code path for timing and warm starts

    X0 = start_point(start, dataset.n, r, "l1", rng=rng)
    for method in methods:
        stages = parse_method(method)
        _warm_up(set(stages), ("l1",), None, {}, (dataset.n, r))
        for lam in lams:
            problem = build_problem("l1", dataset.C, lam)
            fields, _, X = _run_one(problem, X0, stages, dataset, int(rng) if np.ndim(rng) == 0 else 0,
                                    time_limit, DEFAULT_MAX_ITER, {}, "raise")
            rows.append(_row(method, lam, X, dataset, fields["seconds"]))
    return pd.DataFrame(rows)


def _row(method: str, param: float, X: np.ndarray, dataset: Dataset, seconds: float) -> dict:
    counts = sparsity(X, NNZ_TOL)
    Xn = normalize_columns(X)
    return dict(method=method, param=float(param), nnz=counts["nnz"], density=counts["density"],
                explained_variance=adjusted_explained_variance(X, A=dataset.A),
                orthogonality=float(np.linalg.norm(Xn.T @ Xn - np.eye(Xn.shape[1]))), seconds=seconds)


def at_matched_density(frontier: pd.DataFrame, densities, max_gap: float = 0.2) -> pd.DataFrame:
    """Each method's adjusted explained variance at the given densities, by linear interpolation
    between the two frontier points around each density; NaN outside the range its path reached
    or where those two points are more than ``max_gap`` apart in density (no reading across a jump).

    Parameters
    ----------
    frontier : pandas.DataFrame
        The rows of :func:`sparsity_frontier`.
    densities : float or sequence of float
        The densities to read at.
    max_gap : float, default 0.2
        The widest gap in density to interpolate across, >= 0.

    Returns
    -------
    pandas.DataFrame
        Index: density; one column per method.

    Raises
    ------
    ValueError
        If max_gap is negative.
    """
    targets = np.atleast_1d(np.asarray(densities, dtype=float))
    max_gap = check_nonnegative(max_gap, "max_gap")
    table = {}
    for method, part in frontier.groupby("method", sort=False):
        part = part.sort_values("density").drop_duplicates("density")
        d, v = part["density"].to_numpy(), part["explained_variance"].to_numpy()
        values = np.interp(targets, d, v, left=np.nan, right=np.nan)
        right = np.clip(np.searchsorted(d, targets), 1, max(len(d) - 1, 1))
        exact = np.isin(targets, d)
        too_far = (d[right] - d[right - 1] > max_gap) if len(d) > 1 else np.ones(len(targets), bool)
        table[method] = np.where(exact, np.interp(targets, d, v), np.where(too_far, np.nan, values))
    return pd.DataFrame(table, index=pd.Index(targets, name="density"))
