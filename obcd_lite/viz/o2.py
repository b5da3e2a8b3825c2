"""Figures for notebook 01: O(2) as two circles, and F along both circles with its critical points.

Pure drawing: every number comes from :mod:`obcd_lite.teaching.critical_points` and
:mod:`obcd_lite.teaching.o2` (which runs the Cayley method and OBCD); nothing here
computes an algorithm. Colours: :data:`obcd_lite.viz.style.BRANCH_COLORS`. The explorer's text is a
rendered table (:func:`snapshot_table`).
"""
from __future__ import annotations

from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ..rounding import fmt
from ..stiefel import ref, rot
from .style import BRANCH_COLORS, BRANCH_LABELS, apply_style
from ..teaching.o2 import snapshot_row
from .tables import html_table

apply_style()
KIND_MARKERS = {"min": "v", "max": "^", "other": "D", "flat": "s"}


def two_circles_figure(angles: Sequence[float] = (0.0, np.pi / 3, np.pi), figsize=(8.5, 4.0)):
    """O(2) = two disjoint circles (Lemma 2.5), and det along a straight path between them.

    Left: each V in O(2) is drawn by its second column (sin, cos), the same for rot(θ) and
    ref(θ); the two circles are drawn side by side because they are different components.
    Right: det((1 - t) rot(0) + t ref(0)) for t in [0, 1]. det is continuous and equals +-1 on
    O(2), so any path from a rotation to a reflection passes det = 0, i.e. leaves O(2).

    Parameters
    ----------
    angles : sequence of float
        The angles marked on both circles.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, (ax_circles, ax_det) = plt.subplots(1, 2, figsize=figsize, gridspec_kw={"width_ratios": [1.6, 1]})
    t = np.linspace(0.0, 2 * np.pi, 200)
    for offset, branch in ((-1.4, "rot"), (1.4, "ref")):
        ax_circles.plot(offset + np.sin(t), np.cos(t), color=BRANCH_COLORS[branch], lw=2,
                        label=BRANCH_LABELS[branch])
        for theta in angles:
            V = rot(theta) if branch == "rot" else ref(theta)
            x, y = offset + V[0, 1], V[1, 1]
            ax_circles.plot(x, y, "o", color=BRANCH_COLORS[branch])
            ax_circles.annotate(f"{branch}({theta:.2f})\ndet={np.linalg.det(V):+.0f}", (x, y),
                                textcoords="offset points", xytext=(6, 4))
    ax_circles.set_aspect("equal")
    ax_circles.set_xlim(-3.1, 3.4)
    ax_circles.set_ylim(-1.5, 2.4)
    ax_circles.set_xticks([])
    ax_circles.set_yticks([])
    ax_circles.set_title("O(2) = {det = +1} ∪ {det = −1}")
    ax_circles.set_xlabel("each V drawn at its second column (sin θ, cos θ)")
    ax_circles.legend(loc="upper center", ncol=1, frameon=False)
    s = np.linspace(0.0, 1.0, 101)
    dets = [np.linalg.det((1 - si) * rot(0.0) + si * ref(0.0)) for si in s]
    ax_det.plot(s, dets, color="k")
    ax_det.axhline(0.0, color="gray", lw=0.8, ls="--")
    ax_det.set_xlabel("t along (1 − t)·rot(0) + t·ref(0)")
    ax_det.set_ylabel("det")
    ax_det.set_title("a straight path must cross det = 0")
    fig.tight_layout()
    return fig


def landscape_axes(ax, landscape: dict, critical=(), bs2=(), trajectories: dict | None = None,
                   title: str = ""):
    """Draw F(rot θ) and F(ref θ) over θ with marks (the paper's Figure 2, Appendix C.1).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    landscape : dict
        Dict from :func:`obcd_lite.teaching.critical_points.landscape_2x2`.
    critical, bs2 : sequence of CriticalPoint
        The critical points and the BS_2-points; markers: ▼ min, ▲ max, ◆ other, ■ flat arc;
        filled = smooth, hollow = kink of the l1 term; a star rings each BS_2-point. Each point is
        marked once, at its θ in [0, 2π) (a point at θ = 0 is not repeated at 2π, so the marks
        count the points the title names).
    trajectories : dict or None
        {label: (branches, thetas, values)} drawn as connected dots.
    title : str
        The axes' title.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    for branch in ("rot", "ref"):
        ax.plot(landscape["theta"], landscape[branch], color=BRANCH_COLORS[branch], lw=1.6,
                label=BRANCH_LABELS[branch])
    for pt in critical:
        color = BRANCH_COLORS[pt.branch]
        ax.plot([pt.theta], [pt.value], KIND_MARKERS[pt.kind], ms=8, mec=color,
                mfc=color if pt.smooth else "white", mew=1.6, zorder=4, clip_on=False)
    for pt in bs2:
        ax.plot([pt.theta], [pt.value], "*", ms=20, mfc="none", mec="crimson",
                mew=1.6, zorder=5, clip_on=False)
    for (label, (branches, thetas, values)), style in zip((trajectories or {}).items(),
                                                          (("k", "o", "--"), ("green", "s", ":"))):
        color, marker, line = style
        ax.plot(thetas, values, line, color=color, lw=1, alpha=0.8)
        ax.plot(thetas, values, marker, color=color, ms=4, label=label, alpha=0.8)
        ax.plot(thetas[-1], values[-1], marker, color=color, ms=9, mfc="none", mew=1.8)
    # Legend entries for the mark styles, drawn once.
    ax.plot([], [], "v", color="gray", label="local min (filled: smooth, hollow: kink)")
    ax.plot([], [], "^", color="gray", label="local max")
    for kind, label in (("other", "critical, neither min nor max"), ("flat", "flat arc (all critical)")):
        if any(pt.kind == kind for pt in critical):
            ax.plot([], [], KIND_MARKERS[kind], color="gray", label=label)
    if bs2:
        ax.plot([], [], "*", mfc="none", mec="crimson", ms=12, label="BS₂-point")
    ax.set_xlim(0.0, 2 * np.pi)
    ax.set_xticks(np.arange(5) * np.pi / 2, ["0", "π/2", "π", "3π/2", "2π"])
    ax.set_xlabel("θ")
    ax.set_ylabel("F")
    ax.set_title(title)
    # Below the axes: inside, the legend would hide marks wherever the landscape happens to be.
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, frameon=False, columnspacing=1.0,
              handletextpad=0.4)
    return ax


def landscape_figure(landscape: dict, critical=(), bs2=(), trajectories=None, title="",
                     figsize=(7, 4.8)):
    """A one-panel figure around :func:`landscape_axes`.

    Parameters
    ----------
    landscape : dict
        As for :func:`landscape_axes`.
    critical, bs2 : sequence of CriticalPoint
        As for :func:`landscape_axes`.
    trajectories : dict or None
        As for :func:`landscape_axes`.
    title : str
        As for :func:`landscape_axes`.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=figsize)
    landscape_axes(ax, landscape, critical, bs2, trajectories, title)
    fig.tight_layout()
    return fig


def critical_table(points, caption: str = ""):
    """CriticalPoint records as a rendered table (branch, θ, F at 6 decimals, kind, smooth or kink).

    Parameters
    ----------
    points : iterable of CriticalPoint
        The critical points (:func:`obcd_lite.teaching.critical_points.critical_points_2x2`).
    caption : str, default ""
        The table's caption.

    Returns
    -------
    HtmlTable
        The rendered table.
    """
    rows = [{"branch": pt.branch, "theta": fmt(pt.theta, 6, floor=None), "F": fmt(pt.value, 6),
             "kind": {"min": "local min", "max": "local max"}.get(pt.kind, pt.kind),
             "where": "smooth point" if pt.smooth else "kink"} for pt in points]
    return html_table(rows, {"branch": "branch", "theta": "θ", "F": "F", "kind": "kind", "where": "where"},
                      caption=caption)


#: The columns of :func:`snapshot_table`.
SNAPSHOT_COLUMNS = {"cayley": "Cayley ends at", "obcd": "OBCD ends at", "global": "global minimum",
                    "det_q": "Cayley: max |det Q − 1|"}


def snapshot_table(snap):
    """The text under notebook 01's explorer as a rendered one-row table
    (:func:`~obcd_lite.teaching.o2.snapshot_row`): where both runs end, the global minimum and Cayley's
    det Q. One row keeps the explorer as short as its former text (it fits a 1280 x 720 screen).

    Parameters
    ----------
    snap : Snapshot
        The explorer's state.

    Returns
    -------
    HtmlTable
        The table (without the det Q column when the Cayley method took no step).
    """
    row = snapshot_row(snap)
    columns = {key: header for key, header in SNAPSHOT_COLUMNS.items() if key != "det_q" or row["det_q"]}
    return html_table([row], columns)


def snapshot_figure(snap, figsize=(8.5, 4.0)):
    """The explorer's figure for a :class:`~obcd_lite.teaching.o2.Snapshot`.

    The landscape with critical points, BS_2-points and both trajectories.

    Parameters
    ----------
    snap : Snapshot
        The explorer's state.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    paths = {"Cayley (Wen–Yin)": (snap.cayley.branches, snap.cayley.thetas, snap.cayley.values),
             "OBCD k=2": (snap.obcd.branches, snap.obcd.thetas, snap.obcd.values)}
    T = snap.T
    title = (f"T = [[{T[0, 0]:.2f}, {T[0, 1]:.2f}], [{T[1, 0]:.2f}, {T[1, 1]:.2f}]], μ = {snap.mu:.2f}, "
             f"α = {snap.alpha:.2g}: {len(snap.critical)} critical, {len(snap.bs2)} BS₂")
    return landscape_figure(snap.landscape, snap.critical, snap.bs2, paths, title, figsize)


def orbit_figure(orbit: dict, figsize=(4.0, 4.0)):
    """The k rotations of :func:`~obcd_lite.teaching.o2.rotation_orbit` on the rotation circle.

    Parameters
    ----------
    orbit : dict
        What ``rotation_orbit`` returns.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=figsize)
    t = np.linspace(0.0, 2 * np.pi, 200)
    ax.plot(np.sin(t), np.cos(t), color=BRANCH_COLORS["rot"], lw=1.5)
    V = orbit["matrices"]
    ax.plot(V[:, 0, 1], V[:, 1, 1], "o", color=BRANCH_COLORS["rot"], ms=8)
    ax.set_aspect("equal")
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(-1.3, 1.3)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"rot(2πj/{orbit['k']}), j = 0..{orbit['k'] - 1}")
    fig.tight_layout()
    return fig
