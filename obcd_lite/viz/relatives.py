"""Figures for notebook 07: OBCD against its relatives (pure drawing from
:mod:`obcd_lite.experiments.procrustes` and :mod:`obcd_lite.experiments.relatives`). Methods keep their colours
of :data:`.style.SOLVER_COLORS`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, MaxNLocator

from .style import SOLVER_COLORS, apply_style

apply_style()

#: Colours of the relatives and the ablation variants (OBCD keeps its red).
RELATIVE_COLORS = {**SOLVER_COLORS, "rcd": "tab:green", "obcd_rot": "tab:blue", "obcd_step": "tab:purple"}
VARIANT_COLORS = {"OBCD": SOLVER_COLORS["obcd"], "one step": RELATIVE_COLORS["obcd_step"],
                  "rotations only": RELATIVE_COLORS["obcd_rot"], "k = 3": "tab:orange",
                  "k = 2, scalar Q": "tab:gray"}


def _thousands(x: float, _position=None) -> str:
    """A tick label: 12500 -> "12.5k", 3000 -> "3k", 500 -> "500"."""
    if abs(x) < 1000:
        return f"{x:g}"
    return f"{x / 1000:g}k"


def procrustes_figure(runs: dict, names: dict, F_star: float, F_floor: float, title: str = "") -> plt.Figure:
    """Relative gap (F - F*)/|F*| against pair updates (left) and seconds (right), one curve per run.

    The floor of the start's component is drawn dashed when it is above F*.

    Parameters
    ----------
    runs : dict
        {label: Result}.
    names : dict
        {label: registry name} (for the colour).
    F_star : float
        The optimum.
    F_floor : float
        The floor of the start's component.
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, axes = plt.subplots(1, 2, figsize=(9.0, 4.2), sharey=True)
    for label, res in runs.items():
        h = res.history
        gap = np.maximum((np.asarray(h["F"]) - F_star) / abs(F_star), 1e-16)  # log axis: exact 0 at the bottom
        color = RELATIVE_COLORS.get(names[label])
        axes[0].semilogy(h["iteration"], gap, color=color, label=label)
        axes[1].semilogy(h["seconds"], gap, color=color, label=label)
    for ax in axes:
        if F_floor > F_star:
            ax.axhline((F_floor - F_star) / abs(F_star), color="k", ls="--", lw=0.8,
                       label="floor of det X = det X0: 2 s_min / (p |F*|)")
        ax.grid(alpha=0.3)
    # counts of 10^4 printed in full ran into each other (issue 35): at most 6 ticks, in thousands
    axes[0].xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    axes[0].xaxis.set_major_formatter(FuncFormatter(_thousands))
    axes[0].set_xlabel("pair updates")
    axes[1].set_xlabel("seconds")
    axes[0].set_ylabel("(F - F*) / |F*|")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=9)  # below the axes: no curve hidden
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig


def ablation_figure(table: pd.DataFrame, title: str = "") -> plt.Figure:
    """F - F_best per instance (problem, data set) and variant, log scale.

    Exact ties with the best sit at the bottom; declined variants are left out.

    Parameters
    ----------
    table : pandas.DataFrame
        The ablation table.
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    ok = table[~table["declined"]].copy()
    ok["instance"] = ok["problem"] + " / " + ok["dataset"]
    instances = list(dict.fromkeys(ok["instance"]))
    variants = list(dict.fromkeys(ok["variant"]))
    width = 0.8 / len(variants)
    fig, ax = plt.subplots(figsize=(9.0, 3.6))
    floor = 1e-12
    for v, variant in enumerate(variants):
        sub = ok[ok["variant"] == variant].set_index("instance")
        x = [i + (v - (len(variants) - 1) / 2) * width for i, inst in enumerate(instances) if inst in sub.index]
        y = [max(float(sub.loc[inst, "F - F_best"]), floor) for inst in instances if inst in sub.index]
        ax.bar(x, y, width=width, bottom=floor / 10, color=VARIANT_COLORS.get(variant), label=variant)
    ax.set_yscale("log")
    ax.set_ylim(top=ax.get_ylim()[1] * 1e3)  # room for the legend above the bars
    ax.set_xticks(range(len(instances)))
    ax.set_xticklabels(instances, rotation=20)
    ax.set_ylabel("F - F_best (<= 1e-12 at the floor)")
    ax.legend(fontsize=9, ncol=len(variants))
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig
