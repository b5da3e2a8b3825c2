"""Figures for notebook 03: the factors of Theorem 3.1(a) one at a time, the frame for n = 3,
Lemma A.5's diagonal signs, and OBCD with and without reflections.

Pure drawing from :mod:`obcd_lite.teaching.completeness` and
:mod:`obcd_lite.teaching.completeness_steps`; rotations and reflections in
:data:`obcd_lite.viz.style.BRANCH_COLORS` (blue and orange), as everywhere in the suite.
Steps of the slider as a rendered table: :func:`steps_table`.
"""
from __future__ import annotations

from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgba

from ..teaching.completeness import Factor, compose, describe_factors
from ..teaching.completeness_steps import step_row, step_title
from .style import BRANCH_COLORS, apply_style
from .tables import html_table

apply_style()


def step_figure(state: dict) -> plt.Figure:
    """Heatmaps of the running product and the remaining matrix, and the branch strip.

    Parameters
    ----------
    state : dict
        A ``teaching.completeness_steps.step_state``.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig = plt.figure(figsize=(9.0, 4.6))
    grid = fig.add_gridspec(2, 3, height_ratios=[10, 1], width_ratios=[1, 1, 0.06], hspace=0.35)
    for col, (key, label) in enumerate([("product", "running product  W_l ... W_1"),
                                        ("remaining", "remaining  W_m ... W_(l+1)")]):
        ax = fig.add_subplot(grid[0, col])
        image = ax.imshow(state[key], cmap="RdBu_r", vmin=-1, vmax=1)
        ax.set_title(label)
        ax.set_xticks([])
        ax.set_yticks([])
        if state["pair"] is not None:  # mark the two rows the current factor touched
            for row in state["pair"]:
                ax.axhline(row, color="k", lw=0.8, ls=":")
    fig.colorbar(image, cax=fig.add_subplot(grid[0, 2]), label="matrix entry")  # both maps share -1 .. 1
    strip = fig.add_subplot(grid[1, :2])
    # applied factors solid, the rest faded (bar takes one alpha, so fold it into the colour)
    colours = [to_rgba(BRANCH_COLORS[b], 1.0 if pos < state["step"] else 0.25)
               for pos, b in enumerate(state["branches"])]
    positions = np.arange(1, len(colours) + 1)
    strip.bar(positions, np.ones(len(colours)), color=colours, width=1.0, edgecolor="white", linewidth=0.5)
    strip.set_xlim(0.5, len(colours) + 0.5)
    strip.set_yticks([])
    strip.set_xlabel("factor (blue: rotation, orange: reflection; faded: not yet applied)")
    fig.suptitle(step_title(state))
    return fig


#: The columns of :func:`steps_table`.
STEP_COLUMNS = {"step": "step", "pair": "rows", "factor": "factor", "error": "‖remaining − I‖ (Frobenius)"}


def steps_table(states: Sequence[dict], caption: str = ""):
    """Steps of notebook 03's slider as a rendered table: one row per state
    (:func:`~obcd_lite.teaching.completeness_steps.step_row`).

    Parameters
    ----------
    states : sequence of dict
        :func:`~obcd_lite.teaching.completeness_steps.step_state` results.
    caption : str, default ""
        The table's caption.

    Returns
    -------
    HtmlTable
        The table.
    """
    return html_table([step_row(state) for state in states], STEP_COLUMNS, caption=caption)


def frame_figure(factors: Sequence[Factor]) -> plt.Figure:
    """n = 3: the frame (columns of W_l ... W_1) after each of the 3 factors, in 3-D, two panels a row.

    Parameters
    ----------
    factors : sequence of Factor
        The three factors.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    ValueError
        If the factors touch rows beyond the third (n = 3 only).
    """
    if any(max(f[0], f[1]) > 2 for f in factors):
        raise ValueError("frame_figure draws n = 3 only; the factors touch rows beyond 2")
    described = describe_factors(factors)
    panels = len(factors) + 1
    cols = min(panels, 2)  # two panels a row, each 4 inches: the frames read at JupyterLab's width
    rows = -(-panels // cols)
    fig = plt.figure(figsize=(4.2 * cols, 4.0 * rows))
    for step in range(panels):
        frame = compose(factors[:step], 3)
        ax = fig.add_subplot(rows, cols, step + 1, projection="3d")
        for col, colour in zip(range(3), ("tab:red", "tab:green", "tab:blue")):
            ax.quiver(0, 0, 0, *frame[:, col], color=colour, lw=2, arrow_length_ratio=0.15)
        ax.set_xlim(-1, 1)
        ax.set_ylim(-1, 1)
        ax.set_zlim(-1, 1)
        ax.set_xticks([-1, 0, 1])
        ax.set_yticks([-1, 0, 1])
        ax.set_zticks([-1, 0, 1])
        hand = "right-handed" if np.linalg.det(frame) > 0 else "LEFT-handed"
        if step == 0:
            title = f"start: I ({hand})"
        else:
            i, j, branch, theta = described[step - 1]
            title = f"{step}: rows ({i},{j}) {branch}({theta:.2f})\n{hand}"
        ax.set_title(title)
    return fig


def diagonal_signs_figure(R_classical: np.ndarray, R_fixed: np.ndarray, det: float) -> plt.Figure:
    """Lemma A.5 side by side: the diagonal R left by classical and sign-fixed Givens QR.

    Parameters
    ----------
    R_classical, R_fixed : numpy.ndarray
        The two triangular factors.
    det : float
        det of the matrix factored.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 2.6), sharey=True)
    for ax, R, name in zip(axes, (R_classical, R_fixed), ("classical Givens QR", "with Listing 1's -I fixes")):
        diag = np.diag(R)
        ax.bar(np.arange(len(diag)), diag, color=["tab:red" if v < 0 else "tab:gray" for v in diag])
        ax.set_title(f"{name}: {int(np.sum(diag < 0))} entries -1")
        ax.set_xlabel("diagonal index")
        ax.set_ylim(-1.2, 1.2)
    axes[0].set_ylabel("R[i, i]")
    fig.suptitle(f"rotations only, det D = {det:+.0f}")
    fig.tight_layout()
    return fig


def reachability_figure(runs: dict, floor: float) -> plt.Figure:
    """F per iteration for both runs, with the floor 4 of rotations-only when det differs.

    Parameters
    ----------
    runs : dict
        What ``teaching.completeness_steps.reachability_runs`` returns.
    floor : float
        The rotations-only floor.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=(8.0, 3.6))
    labels = {"both": "OBCD: rotations and reflections", "rot": "rotations only (branches='rot')"}
    for key, result in runs.items():
        F = np.maximum(result.history["F"], 1e-16)  # log axis: show exact zeros at the bottom
        ax.semilogy(result.history["iteration"], F, label=labels[key])
    ax.axhline(floor, color="k", ls="--", lw=0.8, label=f"min over det +1 matrices = {floor:.0f}")
    ax.set_xlabel("iteration")
    ax.set_ylabel("||X - T||_F^2")
    ax.legend()
    fig.tight_layout()
    return fig
