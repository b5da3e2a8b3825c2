"""Figures for notebook 02: the stepper's stages and the quartic's roots on both half circles.

Pure drawing from :mod:`obcd_lite.teaching.breakpoint_stages`; colours from :mod:`.style`.
The x-axis is arctan(t), so the whole line t in R fits and t = +-inf (cos theta = 0) sits at
+-pi/2.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..stiefel import BRANCHES
from ..teaching.breakpoint_stages import chosen_index, marker_position, smooth_half_circle
from .style import BRANCH_COLORS, apply_style

apply_style()

#: Marker and colour per candidate kind, and the legend text.
KIND_MARKERS = {"break": ("x", "tab:red"), "stationary": ("o", "tab:green"),
                "cos0": ("s", "tab:purple"), "identity": ("D", "tab:gray")}
KIND_LABELS = {"break": "× breakpoint", "stationary": "○ quartic root", "cos0": "□ cos θ = 0",
               "identity": "◇ V = I"}
CURVE_LABELS = {1: "p(t) + e + h  (σ = +1)", -1: "p~(t) + e + h  (σ = −1)"}
PI_TICKS = ([-np.pi / 2, -np.pi / 4, 0.0, np.pi / 4, np.pi / 2], ["−π/2", "−π/4", "0", "π/4", "π/2"])


def stepper_figure(state: dict, figsize=(8.5, 4.4)):
    """The figure of ``state``: one panel per branch, every candidate on the curve of problem (3).

    From stage 2 the curves are the full objective (smooth part plus h) along both half
    circles; each candidate is drawn at its exact value. For a discontinuous h (l0) a
    breakpoint's value is the lower one (h is lower semicontinuous: at a zero crossing the
    entry counts as 0), so × may sit below the curve drawn just beside it.
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
            ax.plot(marker_position(cs, j)[2], cs.value[j], "*", color="gold", mec="k", ms=16, label="chosen",
                    zorder=5)
        if "brute" in state:
            ax.axhline(state["brute"].value, color="k", lw=0.8, ls=":", label="brute force")
    axes[0].set_ylabel("objective of (3), h included")
    if cs is None:
        for ax in axes:
            ax.text(0.5, 0.5, f"stage {state['stage']}: {state['stage_name']}\n(see the text below; "
                    "step on for the candidates and curves)", ha="center", va="center", transform=ax.transAxes)
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


def quartic_roots_figure(a: float, b: float, w: float, d: float, e: float, roots: np.ndarray, figsize=(8.0, 3.6)):
    """The smooth p(t) + e and p~(t) + e of one branch (h = 0) with the quartic's real ``roots`` on both.

    A root sits at a flat point of exactly one of the two curves (Appendix B's squaring step).
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
