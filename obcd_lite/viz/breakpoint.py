"""Figures for notebook 02: the stepper's stages and the quartic's roots on both half circles.

Pure drawing from :mod:`obcd_lite.teaching.breakpoint`; colours from :mod:`.style`; the stepper's text
as rendered tables (:func:`stage_table`).
The x-axis is arctan(t), so the whole line t in R fits and t = +-inf (cos theta = 0) sits at
+-pi/2.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..rounding import fmt
from ..stiefel import BRANCHES
from ..teaching.breakpoint import chosen_index, marker_position, smooth_half_circle, stage_rows
from .style import BRANCH_COLORS, apply_style
from .tables import html_stack, html_table

apply_style()

#: Marker and colour per candidate kind, and the legend text.
KIND_MARKERS = {"break": ("x", "tab:red"), "stationary": ("o", "tab:green"),
                "cos0": ("s", "tab:purple"), "identity": ("D", "tab:gray")}
KIND_LABELS = {"break": "breakpoint", "stationary": "quartic root", "cos0": "cos θ = 0", "identity": "V = I"}
CURVE_LABELS = {1: "p(t) + e + h  (σ = +1)", -1: "p~(t) + e + h  (σ = −1)"}
PI_TICKS = ([-np.pi / 2, -np.pi / 4, 0.0, np.pi / 4, np.pi / 2], ["−π/2", "−π/4", "0", "π/4", "π/2"])


def stepper_figure(state: dict, figsize=(8.5, 4.4)):
    """The figure of ``state``: one panel per branch, every candidate on the curve of problem (3).

    From stage 2 the curves are the full objective (smooth part plus h) along both half
    circles; each candidate is drawn at its exact value. For a discontinuous h (l0) a
    breakpoint's value is the lower one (h is lower semicontinuous: at a zero crossing the
    entry counts as 0), so × may sit below the curve drawn just beside it.

    Parameters
    ----------
    state : dict
        A ``teaching.breakpoint.stepper_state``.
    figsize : tuple of float, default (8.5, 4.4)
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, axes = plt.subplots(1, 2, figsize=figsize, sharey=True)
    cs = state.get("candidates")
    for k, (ax, branch) in enumerate(zip(axes, BRANCHES)):
        ax.set_title(f"{branch}: objective on the half circles", color=BRANCH_COLORS[branch])
        ax.set_xlabel("arctan(t),  t = tan θ")
        ax.set_xlim(-np.pi / 2 - 0.1, np.pi / 2 + 0.1)
        ax.set_xticks(*PI_TICKS)
        if "curves" in state:
            for sigma, style in ((1, "-"), (-1, "--")):
                t, v = state["curves"][(branch, sigma)]
                ax.plot(np.arctan(t), np.where(np.isfinite(v), v, np.nan), style, color=BRANCH_COLORS[branch],
                        label=CURVE_LABELS[sigma], lw=1.4)
        if cs is not None:
            for kind, (marker, colour) in KIND_MARKERS.items():
                pts = [(marker_position(cs, j), cs.value[j]) for j in np.nonzero((cs.kind == kind) & (cs.branch == k))[0]]
                pts = [(u, val) for (_, _, u), val in pts if np.isfinite(val)]
                if pts:
                    u, val = zip(*pts)
                    ax.plot(u, val, marker, color=colour, ls="none", ms=7, mfc="none", mew=1.5)
        if "chosen" in state and state["chosen"]["branch"] == branch:
            j = chosen_index(cs)
            ax.plot(marker_position(cs, j)[2], cs.value[j], "*", color="#7b3294", mec="k", ms=16, label="chosen",
                    zorder=5)
        if "brute" in state:
            ax.axhline(state["brute"].value, color="k", lw=0.8, ls=":", label="brute force")
    axes[0].set_ylabel("objective of (3), h included")
    if cs is None:
        plt.close(fig)
        return coefficients_figure(state, figsize)
    else:
        # One legend for the figure, listing every marker kind (also those absent on one panel).
        handles = [plt.Line2D([], [], marker=m, color=c, ls="none", mfc="none", mew=1.5, ms=7)
                   for m, c in KIND_MARKERS.values()]
        labels = list(KIND_LABELS.values())
        seen = {}
        for ax in axes:
            for handle, label in zip(*ax.get_legend_handles_labels()):
                seen.setdefault(label, handle)
        fig.legend(handles + list(seen.values()), labels + list(seen), loc="lower center", ncol=4,
                   frameon=False)
        fig.tight_layout(rect=(0, 0.17, 1, 1))
        return fig
    fig.tight_layout()
    return fig


#: The columns of the stepper's coefficient table: eq. (1-D) per branch.
COEFFICIENT_COLUMNS = {"branch": "branch", "a": "a", "b": "b", "w": "w", "d": "d", "e": "e"}


def stage_table(state: dict):
    """The text under notebook 02's stepper (:func:`~obcd_lite.teaching.breakpoint.stage_rows`): the
    coefficients of eq. (1-D) per branch, then from stage 1 the candidates and at stage 3 the chosen
    minimum beside brute force, as rendered tables.

    Parameters
    ----------
    state : dict
        A :func:`~obcd_lite.teaching.breakpoint.stepper_state`.

    Returns
    -------
    HtmlTable
        The tables; ``text/plain`` is the caption (seed, h, stage).
    """
    rows = stage_rows(state)
    parts = [html_table(rows["coefficients"], COEFFICIENT_COLUMNS, caption=rows["caption"])]
    if rows["outcome"]:
        parts.append(html_table(rows["outcome"], {"what": "search", "value": "result"}))
    return html_stack(parts, f"<{rows['caption']}>")


def coefficients_figure(state: dict, figsize=(8.5, 4.4)):
    """Stage 0 of the stepper: the five numbers a, b, w, d, e of each branch that define its
    one-dimensional problem (1-D), as labelled bars (one panel per branch, one title for the stage).

    Parameters
    ----------
    state : dict
        The stepper's state; ``state["coefficients"]`` maps each of a, b, w, d, e to its two branch values.
    figsize : tuple of float, default (8.5, 4.4)
        Figure size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    co = state["coefficients"]
    names = ("a", "b", "w", "d", "e")
    fig, axes = plt.subplots(1, 2, figsize=figsize, sharey=True)
    top = max(float(np.max(np.abs([co[name] for name in names]))), 1e-12)
    for k, (ax, branch) in enumerate(zip(axes, BRANCHES)):
        values = [float(co[name][k]) for name in names]
        ax.bar(names, values, color=BRANCH_COLORS[branch], alpha=0.8)
        ax.axhline(0.0, color="k", lw=0.8)
        for x, v in enumerate(values):
            ax.annotate(fmt(v, 2, sign=True), (x, v), xytext=(0, 4 if v >= 0 else -4), textcoords="offset points",
                        ha="center", va="bottom" if v >= 0 else "top", fontsize=9)
        ax.set_ylim(-1.3 * top, 1.3 * top)
        ax.set_title(f"{branch}: the coefficients of (1-D)", color=BRANCH_COLORS[branch])
    axes[0].set_ylabel("value")
    fig.suptitle("stage 0: the five numbers that define p(t) and p̃(t) on each branch\n"
                 "(step on for the candidates)", fontsize=10)
    fig.tight_layout()
    return fig


def quartic_roots_figure(a: float, b: float, w: float, d: float, e: float, roots: np.ndarray, figsize=(8.0, 3.6)):
    """The smooth p(t) + e and p~(t) + e of one branch (h = 0) with the quartic's real ``roots`` on both.

    A root sits at a flat point of exactly one of the two curves (Appendix B's squaring step).

    Parameters
    ----------
    a, b, w, d, e : float
        The coefficients of eq. (1-D) of the branch (w = cq - e).
    roots : array_like
        The quartic's real roots (values of t).
    figsize : tuple of float, default (8.0, 3.6)
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    t = np.tan(np.linspace(-np.pi / 2, np.pi / 2, 801)[1:-1])
    roots = np.asarray(roots, dtype=float)
    fig, ax = plt.subplots(figsize=figsize)
    for sigma, style, label in ((1, "-", "p(t) + e"), (-1, "--", "p~(t) + e")):
        ax.plot(np.arctan(t), smooth_half_circle(a, b, w, d, e, sigma, t), style, color=BRANCH_COLORS["rot"],
                label=label)
        ax.plot(np.arctan(roots), smooth_half_circle(a, b, w, d, e, sigma, roots), "o", mfc="none",
                color="tab:green", ms=8, mew=1.5, label="quartic roots" if sigma == 1 else None)
    ax.set_xlabel("arctan(t),  t = tan θ")
    ax.set_xticks(*PI_TICKS)
    ax.set_ylabel("smooth part of (1-D)")
    ax.set_title("h = 0: the quartic's real roots on both half circles")
    ax.legend()
    fig.tight_layout()
    return fig


def half_circles_figure(x: np.ndarray, y: np.ndarray, branch: str = "rot", figsize=(8.5, 4.4)):
    """Lemma B.1 on one circle: its two half circles, the points cos theta = 0 and the kinks of h.

    The half circles sigma = +1 (cos theta > 0, t = tan theta runs over R) and sigma = -1 (cos theta < 0),
    the two points cos theta = 0 that t never reaches, and the kinks theta where an entry c x_i + s y_i
    of V Z vanishes (t = -x_i / y_i, on both half circles); right: the same points on the t axis of
    each half circle (drawn at arctan t).

    Parameters
    ----------
    x, y : array_like
        One branch's vectors of eq. (1-D) (``branch_coefficients``).
    branch : str, default "rot"
        The branch's name, for the title and colour.
    figsize : tuple of float, default (8.5, 4.4)
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    x, y = np.ravel(x), np.ravel(y)
    fig, (ax, ax_t) = plt.subplots(1, 2, figsize=figsize, gridspec_kw={"width_ratios": [1, 1.4]})
    colour = BRANCH_COLORS[branch]
    th = np.linspace(-np.pi / 2, np.pi / 2, 200)
    ax.plot(np.cos(th), np.sin(th), "-", color=colour, lw=2.5, label="σ = +1: cos θ > 0")
    ax.plot(-np.cos(th), np.sin(th), "--", color=colour, lw=2.5, label="σ = −1: cos θ < 0")
    ax.plot([0, 0], [1, -1], "s", color="tab:purple", mfc="none", ms=10, mew=1.5, label="cos θ = 0 (t = ±∞)")
    kinks = np.arctan2(-x, y)  # c x_i + s y_i = 0 at theta = atan2(-x_i, y_i) and that + pi
    kinks = np.concatenate([kinks, kinks + np.pi])
    ax.plot(np.cos(kinks), np.sin(kinks), "x", color="tab:red", ms=9, mew=2, label="kink: an entry of VZ = 0")
    ax.set_aspect("equal")
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.3, 1.3)
    ax.set_xlabel("cos θ")
    ax.set_ylabel("sin θ")
    ax.set_title(f"{branch}: (cos θ, sin θ)", color=colour)
    fig.legend(*ax.get_legend_handles_labels(), loc="lower center", ncol=2, frameon=False)
    ax_t.set_axis_off()
    nz = y != 0
    ts = -x[nz] / y[nz]
    for row, (sigma, style) in enumerate(((1, "-"), (-1, "--"))):
        level = 0.6 - 0.6 * row
        ax_t.plot([-np.pi / 2, np.pi / 2], [level, level], style, color=colour, lw=2.5)
        ax_t.plot(np.arctan(ts), np.full(ts.size, level), "x", color="tab:red", ms=9, mew=2)
        ax_t.plot([-np.pi / 2, np.pi / 2], [level, level], "s", color="tab:purple", mfc="none", ms=10, mew=1.5)
        ax_t.text(-np.pi / 2, level + 0.12, f"σ = {sigma:+d}: t = tan θ from −∞ (left) to +∞ (right)", ha="left")
    ax_t.set_xlim(-np.pi / 2 - 0.2, np.pi / 2 + 0.2)
    ax_t.set_ylim(-0.3, 1.0)
    ax_t.set_title("the same points on the t axes: kinks at t = −x_i/y_i")
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig
