"""The instructor's figures of one OBCD step (compute: :mod:`obcd_lite.teaching.one_step`).

* :func:`one_step_figure` — X before, the 2 x 2 factor V, X after; the two rows that change framed;
* :func:`majorizer_figure` — K(V; X, B) above F(X_B(V)) on both circles, touching at V = I;
* :func:`sphere_figure` — OBCD and Cayley iterates on St(3, 1), the unit sphere, and F along both;
* :func:`spread_figure` — the final F of two solvers over random starts, one dot per run.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..rounding import fmt
from ..stiefel import BRANCHES
from .style import BRANCH_COLORS, BRANCH_LABELS, SOLVER_COLORS, apply_style

apply_style()

#: Floor of F - best on the log axis of the spread (a run at the best value would sit at 0).
SPREAD_FLOOR = 1e-12


def _matrix_axes(ax, M: np.ndarray, title: str, rows=(), vmax: float = 1.0, aspect: str = "auto") -> None:
    """A small matrix as a heatmap with its entries written in (2 decimals), ``rows`` framed."""
    ax.imshow(M, cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect=aspect)
    for (i, j), v in np.ndenumerate(M):
        ax.text(j, i, fmt(v, 2, floor=None), ha="center", va="center", fontsize=9,
                color="white" if abs(v) > 0.6 * vmax else "black")
    for i in rows:
        ax.add_patch(plt.Rectangle((-0.5, i - 0.5), M.shape[1], 1.0, fc="none", ec="k", lw=2.5))
    ax.set_xticks(range(M.shape[1]))
    ax.set_yticks(range(M.shape[0]))
    ax.set_title(title)


def one_step_figure(step: dict, figsize=(9.0, 3.8)) -> plt.Figure:
    """Left: X with the rows B framed; middle: the factor V (its branch and angle); right: V applied
    to rows B — every other row is unchanged.

    Parameters
    ----------
    step : dict
        A result of :func:`obcd_lite.teaching.one_step.one_obcd_step`.
    figsize : tuple of float, default (9.0, 3.8)
        Figure size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    X0, X1, V, B = step["X_before"], step["X_after"], step["V"], step["B"]
    fig, axes = plt.subplots(1, 3, figsize=figsize, gridspec_kw={"width_ratios": [1.0, 1.2, 1.0]})
    _matrix_axes(axes[0], X0, f"X before: F = {fmt(step['F_before'], 4)}", B)
    _matrix_axes(axes[1], V, f"V = {step['branch']}({fmt(step['theta'], 2, floor=None)})", aspect="equal")
    axes[1].set_xlabel(f"acts on rows {B[0]} and {B[1]}")
    for spine in axes[1].spines.values():
        spine.set_edgecolor(BRANCH_COLORS[step["branch"]])
        spine.set_linewidth(3)
    _matrix_axes(axes[2], X1, f"X after: F = {fmt(step['F_after'], 4)}", B)
    for ax in (axes[0], axes[2]):
        ax.set_ylabel("row i")
        ax.set_xlabel("column j")
    fig.suptitle(f"one OBCD step: rows {B} ← V · rows {B}; the other rows stay", fontsize=11)
    fig.tight_layout()
    return fig


#: Line style of each majorizer.
_Q_STYLE = {"exact": ("tab:green", "--", "K(V), exact Q (eq. 9)"), "scalar": ("tab:purple", ":", "K(V), scalar Q (eq. 10)")}


def majorizer_figure(curves: dict, figsize=(9.0, 3.6)) -> plt.Figure:
    """One panel per circle: F(X_B(V)) (the branch colour) and K(V; X, B) for each Q; the dot marks
    V = I (θ = 0 on the rotation circle), where K and F agree. The title names B counted from 1, as the
    notebooks' text and the paper do, with the code's 0-based rows beside it.

    Parameters
    ----------
    curves : dict
        A result of :func:`obcd_lite.teaching.one_step.majorizer_curves`.
    figsize : tuple of float, default (9.0, 3.6)
        Figure size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    theta = curves["theta"]
    fig, axes = plt.subplots(1, 2, figsize=figsize, sharey=True)
    for ax, branch in zip(axes, BRANCHES):
        ax.plot(theta, curves["F"][branch], color=BRANCH_COLORS[branch], lw=2, label="F(X_B(V))")
        for Q, values in curves["K"].items():
            colour, style, label = _Q_STYLE[Q]
            ax.plot(theta, values[branch], style, color=colour, lw=1.8, label=label)
        ax.set_title(BRANCH_LABELS[branch], color=BRANCH_COLORS[branch])
        ax.set_xlim(0, 2 * np.pi)
        ax.set_xticks(np.arange(5) * np.pi / 2, ["0", "π/2", "π", "3π/2", "2π"])
        ax.set_xlabel("θ")
        ax.grid(alpha=0.3)
    axes[0].plot([0.0], [curves["F_X"]], "o", color="k", ms=8, clip_on=False, zorder=5, label="V = I: K = F")
    axes[0].set_ylabel("value")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, frameon=False)
    # rows as the notebooks' text counts them (from 1, as the paper), the code's 0-based indices beside them
    B = tuple(int(i) for i in curves["B"])
    fig.suptitle(f"the majorizer of block B = {tuple(i + 1 for i in B)} (rows {B} in code): K ≥ F on both circles, "
                 "equal at V = I", fontsize=11)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def _arc(p: np.ndarray, q: np.ndarray, samples: int = 24) -> np.ndarray:
    """Points on the great-circle arc from p to q (unit vectors)."""
    angle = np.arccos(np.clip(p @ q, -1.0, 1.0))
    if angle < 1e-9:
        return np.array([p, q])
    t = np.linspace(0.0, 1.0, samples)[:, None]
    return (np.sin((1 - t) * angle) * p + np.sin(t * angle) * q) / np.sin(angle)


def sphere_figure(paths: dict, figsize=(9.0, 4.4)) -> plt.Figure:
    """Left: the unit sphere St(3, 1) with both methods' iterates joined by great-circle arcs (each
    OBCD step turns the point in one coordinate plane); right: F along both runs.

    Parameters
    ----------
    paths : dict
        A result of :func:`obcd_lite.teaching.one_step.sphere_paths`.
    figsize : tuple of float, default (9.0, 4.4)
        Figure size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig = plt.figure(figsize=figsize)
    ax = fig.add_subplot(1, 2, 1, projection="3d")
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 37), np.linspace(0, np.pi, 19))
    ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.8", lw=0.5)
    names = {"obcd": "OBCD (k = 2)", "cayley": "Cayley (Wen & Yin)"}
    for name, label in names.items():
        pts = paths[name]
        line = np.concatenate([_arc(p, q) for p, q in zip(pts[:-1], pts[1:])]) if len(pts) > 1 else pts
        ax.plot(*line.T, color=SOLVER_COLORS[name], lw=2, label=label)
        ax.plot(*pts.T, "o", color=SOLVER_COLORS[name], ms=4)
    ax.plot(*paths["obcd"][0], "k*", ms=12, label="start")
    ax.set_box_aspect((1, 1, 1))
    ax.set_xticks([-1, 0, 1])
    ax.set_yticks([-1, 0, 1])
    ax.set_zticks([-1, 0, 1])
    ax.set_title("iterates on the sphere St(3, 1)")
    ax.legend(loc="upper left", fontsize=9)
    ax_f = fig.add_subplot(1, 2, 2)
    for name, label in names.items():
        ax_f.plot(paths["F"][name], "o-", color=SOLVER_COLORS[name], ms=3, label=label)
    ax_f.set_xlabel("iteration")
    ax_f.set_ylabel("F")
    ax_f.grid(alpha=0.3)
    ax_f.legend()
    ax_f.set_title("F along the runs")
    fig.tight_layout()
    return fig


def spread_figure(spread: dict, figsize=(7.0, 3.4)) -> plt.Figure:
    """One dot per run: final F minus the best F seen (log scale, floored at 1e-12), a row per solver,
    with how many runs reach the best.

    Parameters
    ----------
    spread : dict
        A result of :func:`obcd_lite.teaching.one_step.final_values_over_starts`.
    figsize : tuple of float, default (7.0, 3.4)
        Figure size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=figsize)
    names = list(spread["final"])
    for row, name in enumerate(names):
        gap = np.maximum(spread["final"][name] - spread["best"], SPREAD_FLOOR)
        offsets = np.linspace(-0.18, 0.18, gap.size)  # spread the dots vertically, deterministically
        ax.plot(gap, row + offsets, "o", color=SOLVER_COLORS.get(name, "k"), ms=6, alpha=0.8)
    ax.set_xscale("log")
    ax.set_yticks(range(len(names)), [f"{name}\n{spread['at_best'][name]} of {spread['final'][name].size} at best"
                                      for name in names])
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.set_xlabel("final F − best F over all runs (log; 1e-12 = at the best)")
    ax.grid(alpha=0.3, axis="x")
    ax.set_title("where each random start ends")
    fig.tight_layout()
    return fig
