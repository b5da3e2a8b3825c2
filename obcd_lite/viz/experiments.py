"""Figures of notebook 04: convergence curves, sparsity patterns, digits loadings, sparsity frontiers.

Every number comes from :mod:`obcd_lite.experiments`; these functions only draw.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.colors import ListedColormap
import numpy as np
import pandas as pd

from ..experiments.metrics import NNZ_TOL
from ..rounding import fmt
from .style import SOLVER_COLORS, apply_style

apply_style()

#: Floor of F - F_best on the log axis (the best run itself would be at 0).
GAP_FLOOR = 1e-12


def _color(method: str):
    """The solver's colour; "A+B" (warm start) takes B's, "name(start)" the name's."""
    base = method.split("(")[0]
    return SOLVER_COLORS.get(base if base in SOLVER_COLORS else base.split("+")[-1])


def _linestyle(method: str) -> str:
    """Solid; dashed for a warm start "A+B"; dotted for a "(random)" start label."""
    return ":" if method.endswith("(random)") else "--" if "+" in method else "-"


def convergence_axes(ax, histories: pd.DataFrame, F_best: float, label_by=("method",)) -> None:
    """F - F_best (floored at 1e-12) against seconds, log scale, one line per run.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    histories : pandas.DataFrame
        Logged iterates with columns run, method, seconds, F (and the columns of ``label_by``).
    F_best : float
        The best F, subtracted.
    label_by : tuple of str, default ("method",)
        The columns whose values label a run.
    """
    for _, run in histories.groupby("run", sort=True):
        label = " ".join(str(run[key].iloc[0]) for key in label_by)
        gap = np.maximum(run["F"].to_numpy() - F_best, GAP_FLOOR)
        method = str(run["method"].iloc[0])
        ax.plot(run["seconds"], gap, color=_color(method), label=label, lw=1.5, ls=_linestyle(method))
    ax.set_yscale("log")
    ax.set_xlabel("seconds")
    ax.set_ylabel("F − F_best")
    ax.grid(alpha=0.3)
    if len(histories):
        many = histories["run"].nunique() > 6
        ax.legend(loc="upper left" if many else "upper right", bbox_to_anchor=(1.01, 1.0) if many else None,
                  fontsize=8 if many else None, ncol=1)


def sparsity_axes(ax, X: np.ndarray, title: str = "", tol: float = NNZ_TOL) -> None:
    """The pattern |X_ij| > tol (black) of an n x r loading matrix.

    The colour scale is pinned to [0, 1] (zero white, nonzero black): left to matplotlib, an image
    that is all True (dense X) would be scaled to its own single value and drawn white, like an
    empty one.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    X : ndarray, shape (n, r)
        The loadings.
    title : str, default ""
        The title ("": the count of nonzeros).
    tol : float, default NNZ_TOL
        Entries with |X_ij| <= tol count as zero.
    """
    ax.imshow((np.abs(X) > tol).astype(float), cmap="Greys", vmin=0.0, vmax=1.0, aspect="auto",
              interpolation="nearest")
    ax.set_xlabel("column j")
    r = X.shape[1]  # ticks on whole columns only
    ax.set_xticks(range(r) if r <= 10 else np.linspace(0, r - 1, 5).round())
    ax.set_ylabel("row i")
    ax.set_title(title or f"nnz = {int(np.count_nonzero(np.abs(X) > tol))}")


def loadings_figure(X: np.ndarray, image_shape=(8, 8), title: str = "") -> plt.Figure:
    """Each column of X as an image (digits: 8 x 8), a diverging colour map centred at 0.

    Parameters
    ----------
    X : ndarray, shape (n, r)
        The loadings; n is the product of ``image_shape``.
    image_shape : tuple of int, default (8, 8)
        The shape of one image.
    title : str, default ""
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    r = X.shape[1]
    fig, axes = plt.subplots(1, r, figsize=(1.6 * r + 0.6, 2.0), squeeze=False)
    vmax = float(np.max(np.abs(X))) or 1.0
    for j, ax in enumerate(axes[0]):
        ax.imshow(X[:, j].reshape(image_shape), cmap="RdBu_r", vmin=-vmax, vmax=vmax)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(f"x{j + 1}: {int(np.count_nonzero(np.abs(X[:, j]) > NNZ_TOL))} px", fontsize=9)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def convergence_figure(histories: pd.DataFrame, F_best: float, title: str = "") -> plt.Figure:
    """A figure of `convergence_axes`: F - F_best against seconds for every run of ``histories``.

    Parameters
    ----------
    histories : pandas.DataFrame
        As for :func:`convergence_axes`.
    F_best : float
        The best F, subtracted.
    title : str, default ""
        The axes' title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    convergence_axes(ax, histories, F_best)
    ax.set_title(title)
    fig.tight_layout()
    return fig


#: Sparsity panels per row of the explorer's figure; more methods wrap onto further rows.
PANELS_PER_ROW = 6


def comparison_figure(comparison) -> plt.Figure:
    """The explorer's figure: the curves across the top, below them the sparsity pattern of each
    method's X in rows of :data:`PANELS_PER_ROW` (any number of methods stays readable), and for
    the full digits the first method's loadings as images.

    Parameters
    ----------
    comparison : Comparison
        A result of :func:`obcd_lite.experiments.sparse_pca.compare`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    points = comparison.experiment.points
    records = comparison.experiment.records
    ran = [(m, run) for m, run in zip(records["method"], records["run"]) if run in points]
    images = comparison.image_shape is not None and ran
    ncols = max(min(len(ran), PANELS_PER_ROW), 3)
    pattern_rows = -(-len(ran) // PANELS_PER_ROW)
    heights = [3.2] + [2.4] * pattern_rows + ([1.6] if images else [])
    fig = plt.figure(figsize=(9.0, sum(heights) + 0.4))
    grid = fig.add_gridspec(len(heights), ncols, height_ratios=heights)
    ax = fig.add_subplot(grid[0, :])
    convergence_axes(ax, comparison.histories, comparison.F_best)
    ax.set_title(f"{comparison.problem}, {comparison.dataset}, λ = {comparison.lam:.3g}")
    for i, (method, run) in enumerate(ran):
        sparsity_axes(fig.add_subplot(grid[1 + i // PANELS_PER_ROW, i % PANELS_PER_ROW]), points[run],
                      f"{method}\nnnz = {int(np.count_nonzero(np.abs(points[run]) > NNZ_TOL))}")
    if images:
        method, run = ran[0]
        X = points[run]
        inner = grid[-1, :].subgridspec(1, X.shape[1])
        vmax = float(np.max(np.abs(X))) or 1.0
        for j in range(X.shape[1]):
            axj = fig.add_subplot(inner[0, j])
            axj.imshow(X[:, j].reshape(comparison.image_shape), cmap="RdBu_r", vmin=-vmax, vmax=vmax)
            axj.set_xticks([])
            axj.set_yticks([])
            axj.set_title(f"{method} x{j + 1}", fontsize=9)
    fig.tight_layout()
    return fig


def frontier_figure(frontier: pd.DataFrame, title: str = "", pca: float | None = None) -> plt.Figure:
    """Adjusted explained variance against density, one path per method (SparsePCA in grey);
    ``pca``: the dense PCA value (sum of the top r eigenvalues / tr C), drawn as a dashed line.

    Parameters
    ----------
    frontier : pandas.DataFrame
        The rows of :func:`obcd_lite.experiments.sklearn_peer.sparsity_frontier`.
    title : str, default ""
        The axes' title.
    pca : float or None, default None
        The dense PCA value (None: no line).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    if pca is not None:
        ax.axhline(pca, color="k", ls="--", lw=1, label="PCA (dense)")
    for method, part in frontier.groupby("method", sort=False):
        part = part.sort_values("density")
        ax.plot(part["density"], part["explained_variance"], "o-", color=_color(method), label=method)
    ax.set_xlabel("density (fraction of |X_ij| > 1e-6)")
    ax.set_ylabel("adjusted explained variance")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig


def first_picture(F_history, X_start: np.ndarray, X_end: np.ndarray, title: str = "") -> plt.Figure:
    """Notebook 00's first picture of OBCD: F along the run (every step changes two rows and never
    increases F), and the loading matrix before and after as sparsity patterns.

    Parameters
    ----------
    F_history : array_like
        F at the logged steps, in order.
    X_start, X_end : ndarray, shape (n, r)
        The start and OBCD's answer.
    title : str, default ""
        The curve's title ("": "F never increases").

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    F_history = np.asarray(F_history, dtype=float)
    fig = plt.figure(figsize=(8.5, 3.2))
    grid = fig.add_gridspec(1, 3, width_ratios=[3.0, 1.0, 1.0])
    ax = fig.add_subplot(grid[0, 0])
    ax.plot(np.arange(F_history.size), F_history, color=SOLVER_COLORS["obcd"], lw=1.8)
    ax.set_xlabel("OBCD step (one pair of rows each)")
    ax.set_ylabel("F(X)")
    ax.grid(alpha=0.3)
    ax.set_title(title or "F never increases")
    for col, (X, name) in enumerate(((X_start, "start"), (X_end, "OBCD's answer")), start=1):
        sparsity_axes(fig.add_subplot(grid[0, col]), X, f"{name}\nnnz = {int(np.count_nonzero(np.abs(X) > NNZ_TOL))}")
    fig.tight_layout()
    return fig


def paper_grid_figure(records: pd.DataFrame, value: str = "F", title: str = "", decimals: int = 1) -> plt.Figure:
    """A paper table (one data set, every method(start) x lam) as a heatmap a student can read: a
    row per method and start, a column per lam, each cell's ``value`` written in (``decimals``
    after the point, the paper's precision) and coloured by its rank within the column (dark =
    lowest), since F spans orders of magnitude across lam. Ranks are taken on the printed values,
    so rounding never decides between two cells that print alike. The full wide table is on the
    site's Experiment grids page.

    Parameters
    ----------
    records : pandas.DataFrame
        One row per run, with columns method, start, lam and ``value`` (one data set).
    value : str, default "F"
        The column to average and show.
    title : str, default ""
        The title ("": one naming ``value``).
    decimals : int, default 1
        Decimals of each cell.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If ``records`` is empty.
    """
    if records.empty:
        raise ValueError("no records to draw")
    frame = records.assign(lam=records["lam"].fillna(0.0), row=records["method"] + " (" + records["start"] + ")")
    grid = frame.pivot_table(index="row", columns="lam", values=value, aggfunc="mean").round(decimals)
    ranks = grid.rank(axis=0, method="min").sub(1).div(max(len(grid) - 1, 1))
    cmap = ListedColormap(plt.get_cmap("Blues_r")(np.linspace(0.0, 0.75, 256)))  # the worst cell stays legible
    fig, ax = plt.subplots(figsize=(min(2.4 + 1.6 * grid.shape[1], 9.0), 0.9 + 0.34 * len(grid)))
    image = ax.imshow(ranks.to_numpy(), cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
    for (i, j), v in np.ndenumerate(grid.to_numpy()):
        ax.text(j, i, fmt(v, decimals, floor=None), ha="center", va="center", fontsize=9,
                color="white" if ranks.iat[i, j] < 0.5 else "black")
    ax.set_xticks(range(grid.shape[1]), [f"λ = {lam:g}" for lam in grid.columns])
    ax.set_yticks(range(len(grid)), grid.index)
    ax.set_title(title or f"{value} by method and λ (darker = lower within the column)")
    fig.colorbar(image, ax=ax, label="rank within λ (0 = lowest)", fraction=0.04, pad=0.02, ticks=[0.0, 0.5, 1.0])
    fig.tight_layout()
    return fig
