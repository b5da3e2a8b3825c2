"""The picture of ``benchmarks/own_problem.py`` (docs/benchmarks/own_problem.md, notebook 08 §8): pure drawing
from the records :mod:`obcd_lite.experiments.benchmark_records` loads and checks."""
from __future__ import annotations

import matplotlib.pyplot as plt

from ..experiments.benchmark_records import check_records, time_ratio
from .style import apply_style

apply_style()

#: Solvers in the order drawn, with colour and marker (pymanopt's in greys and blues, the suite's in warm colours).
SOLVER_STYLES = {
    "TR": ("black", "o"), "CG": ("tab:gray", "s"), "SD": ("silver", "D"),
    "OBCD one pair, Hessian Q": ("tab:pink", "v"), "OBCD many pairs": ("tab:red", "o"),
    "OBCD many pairs, Hessian Q": ("tab:brown", "P"), "ManPG": ("tab:blue", "^"), "Cayley": ("tab:purple", "X"),
}
#: The issue's targets for many-pairs OBCD: within this many times TR's time at n = 50, and at n >= 200.
TARGETS = {50: 10.0, 200: 3.0}


def own_problem_figure(records: dict, title: str = "") -> plt.Figure:
    """Time to trust regions' final cost over trust regions' time, per problem (panel), size n (x) and solver.

    Log scale. Each point's ``gid`` is "problem|n|solver|reached" (or "not reached"). A solver that reached the cost in every repeat is a filled marker at its median ratio; one that
    did not is an open marker at budget / TR's time (the ratio is at least that) with an upward arrow, and
    named in the legend. The targets of issue 36 for many-pairs OBCD (10x at n = 50,
    3x at n >= 200) are drawn as dashed steps.

    Parameters
    ----------
    records : dict
        As :func:`~obcd_lite.experiments.benchmark_records.load_own_problem` returns (checked again here).
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per problem.

    Raises
    ------
    ValueError, TypeError
        For malformed records (:func:`~obcd_lite.experiments.benchmark_records.check_records`), naming the
        record and key.
    """
    smooth = check_records(records)["smooth"]
    problems = list(dict.fromkeys(rec["problem"] for rec in smooth))
    sizes = sorted({rec["n"] for rec in smooth})
    solvers = [s for s in SOLVER_STYLES if any(rec["solver"] == s for rec in smooth)]
    solvers += [s for s in dict.fromkeys(rec["solver"] for rec in smooth) if s not in solvers]
    fig, axes = plt.subplots(1, len(problems), figsize=(4.2 * len(problems), 4.2), sharey=True, squeeze=False)
    width = 0.8 / max(len(solvers), 1)
    for ax, problem in zip(axes[0], problems):
        for k, solver in enumerate(solvers):
            color, marker = SOLVER_STYLES.get(solver, ("tab:olive", "*"))
            offset = (k - (len(solvers) - 1) / 2) * width
            for rec in smooth:
                if rec["problem"] != problem or rec["solver"] != solver:
                    continue
                ratio, reached = time_ratio(rec)
                x = sizes.index(rec["n"]) + offset
                if reached:
                    (line,) = ax.plot(x, ratio, marker=marker, color=color, linestyle="none", markersize=7)
                else:
                    (line,) = ax.plot(x, ratio, marker=marker, markerfacecolor="white", markeredgecolor=color,
                                      linestyle="none", markersize=7)
                    ax.annotate("", xy=(x, ratio * 1.9), xytext=(x, ratio * 1.05),
                                arrowprops={"arrowstyle": "->", "color": color, "lw": 1})
                # what the point is, for readers of the figure object (the tests)
                line.set_gid(f"{problem}|{rec['n']}|{solver}|{'reached' if reached else 'not reached'}")
        steps = [TARGETS[50] if n <= 50 else TARGETS[200] for n in sizes]
        for i, target in enumerate(steps):
            ax.hlines(target, i - 0.45, i + 0.45, colors="tab:red", linestyles="dashed", linewidth=1)
        ax.axhline(1.0, color="black", linewidth=0.6)
        ax.set_yscale("log")
        ax.set_xticks(range(len(sizes)), [f"n = {n}" for n in sizes])
        ax.set_xlim(-0.5, len(sizes) - 0.5)
        ax.set_title(problem)
        ax.grid(True, axis="y", which="major", alpha=0.3)
    axes[0][0].set_ylabel("time to TR's final cost / TR's time")
    handles = [plt.Line2D([], [], marker=SOLVER_STYLES.get(s, ("tab:olive", "*"))[1], linestyle="none",
                          color=SOLVER_STYLES.get(s, ("tab:olive", "*"))[0], label=s) for s in solvers]
    handles.append(plt.Line2D([], [], color="tab:red", linestyle="dashed", label="target for many pairs"))
    handles.append(plt.Line2D([], [], marker="o", markerfacecolor="white", markeredgecolor="dimgray",
                              linestyle="none", label="open ↑: not reached (at budget / TR's time)"))
    ratios = [time_ratio(rec)[0] for rec in smooth]
    axes[0][0].set_ylim(min(min(ratios), 1.0) / 2, max(max(ratios), 10.0) * 4)
    fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 5), frameon=False,
               bbox_to_anchor=(0.5, -0.02))
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig
