"""Notebook 08's figure: OBCD's F along the run on each problem, against pymanopt's trust-region value.

Pure drawing: the runs come from :func:`obcd_lite.teaching.your_problem.runs.smooth_runs`.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import SOLVER_COLORS, apply_style

apply_style()
#: Gaps below this are drawn at it (they are rounding: the two methods end at the same point).
GAP_FLOOR = 1e-12


def descent_figure(runs: dict, figsize=(11, 3.4)):
    """One panel per problem: F(X_t) - F(trust regions) against OBCD's pair steps (log scale, floored at
    :data:`GAP_FLOOR`); the curve never rises (the verified majorization), the dashed line is 1e-6.

    Parameters
    ----------
    runs : dict
        {name: SmoothRun} of :func:`obcd_lite.teaching.your_problem.runs.smooth_runs`.
    figsize : tuple of float
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per problem.
    """
    fig, axes = plt.subplots(1, len(runs), figsize=figsize, squeeze=False)
    for ax, (name, run) in zip(axes[0], runs.items()):
        history = run.obcd.history
        gap = np.maximum(np.asarray(history["F"]) - run.F_trust_regions, GAP_FLOOR)
        ax.semilogy(history["iteration"], gap, color=SOLVER_COLORS.get("obcd", "tab:blue"), label="OBCD")
        ax.axhline(1e-6, color="0.4", ls="--", lw=1, label="1e-6")
        ax.set_title(name)
        ax.set_xlabel("pair steps")
        ax.set_ylim(GAP_FLOOR / 3, None)
    axes[0][0].set_ylabel("F − F(trust regions)")
    axes[0][0].legend(loc="upper right")
    fig.tight_layout()
    return fig
