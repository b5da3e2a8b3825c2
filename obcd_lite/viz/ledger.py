"""Figures of notebook 06: the ledger's coverage and verdicts, and Section 4 measured along OBCD runs.

Compute: :mod:`obcd_lite.teaching.ledger` and :mod:`obcd_lite.teaching.paper_rates`.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .style import apply_style

apply_style()

#: One colour per verdict, in every figure of the ledger.
VERDICT_COLORS = {"holds": "tab:green", "corrected": "tab:orange", "false": "tab:red", "definition": "tab:blue",
                  "not checkable": "tab:gray"}


SHORT = {"Theorem": "Thm", "Lemma": "Lem", "Remark": "Rem", "Definition": "Def", "Corollary": "Cor",
         "Proposition": "Prop", "Assumption": "Asm"}


def coverage_figure(cov: dict, figsize=(10, 2.8)):
    """Left: statements with a verdict, checked by a test, and the total. Right: the rows by verdict.

    Parameters
    ----------
    cov : dict
        What ``teaching.ledger.coverage`` returns.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, (ax_c, ax_v) = plt.subplots(1, 2, figsize=figsize, gridspec_kw={"width_ratios": [1, 1.2]})
    names = ["total", "with a verdict", "checked by a test"]
    values = [cov["total"], cov["verdict"], cov["checked"]]
    ax_c.barh(names[::-1], values[::-1], color=["tab:green", "tab:blue", "0.7"])
    for y, v in enumerate(values[::-1]):
        ax_c.text(v + 0.5, y, str(v), va="center")
    ax_c.set_xlim(0, cov["total"] * 1.15)
    ax_c.set_title("numbered statements of the paper")
    verdicts = list(cov["by_verdict"])
    counts = [cov["by_verdict"][v] for v in verdicts]
    ax_v.barh(verdicts[::-1], counts[::-1], color=[VERDICT_COLORS[v] for v in verdicts[::-1]])
    for y, v in enumerate(counts[::-1]):
        ax_v.text(v + 0.3, y, str(v), va="center")
    ax_v.set_xlim(0, max(counts) * 1.15)
    ax_v.set_title(f"verdicts ({cov['rows']} rows: a statement's parts count apart)")
    fig.tight_layout()
    return fig


def verdict_figure(rows: list[dict], title: str = "", figsize=(10, 2.8)):
    """The selected rows counted by verdict (the explorer's figure): one bar per verdict whose length is the
    number of selected rows with it, labelled with the count and the statements (shortened to what fits
    in the panel, the rest counted: "… +k more").

    Parameters
    ----------
    rows : list of dict
        Ledger rows.
    title : str, optional
        The figure's title.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=figsize)
    if not rows:
        ax.text(0.5, 0.5, "no statement matches", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return fig
    verdicts = list(VERDICT_COLORS)
    names = {v: [f"{SHORT[r['label'].split()[0]]} {r['label'].split()[1]}{r['part']}" for r in rows
                 if r["verdict"] == v] for v in verdicts}
    counts = [len(names[v]) for v in verdicts]
    y = np.arange(len(verdicts))[::-1]  # the first verdict on top
    ax.barh(y, counts, color=[VERDICT_COLORS[v] for v in verdicts], height=0.7)
    ax.set_yticks(y, verdicts)
    ax.set_xlim(0, max(counts) * 1.02 + 0.5)
    ax.set_xlabel("statements (rows)")
    ax.set_title(title or f"{len(rows)} rows by verdict")
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    right = ax.get_window_extent(renderer).x1 - 4
    for yv, v, count in zip(y, verdicts, counts):
        if count:
            _fitted_label(ax, renderer, count, yv, f"{count}: ", names[v], right)
    return fig


def _fitted_label(ax, renderer, x, y, head: str, names: list[str], right: float):
    """``head`` and as many of ``names`` as end left of ``right`` (display units), after the bar's end when
    that leaves room, else inside the bar from its start; the names left out are counted."""
    inside = ax.transData.transform((x, y))[0] > (ax.get_window_extent(renderer).x0 + right) / 2
    anchor = (0.15, y) if inside else (x + 0.15, y)
    text = ax.text(*anchor, head, va="center", fontsize=8.5)
    for shown in range(len(names), -1, -1):
        rest = len(names) - shown
        text.set_text(head + ", ".join(names[:shown]) + (f" … +{rest} more" if rest else ""))
        if text.get_window_extent(renderer).x1 <= right:
            return text
    return text


def rates_figure(run, report: dict, figsize=(10, 3.6)):
    """Section 4's rates along a run.

    Left: Lemma 4.4(a) and Theorem 4.10(a) as measured / bound ratios along the run (<= 1 holds),
    with the statement's and the proof's E_{t+1}. Right: Theorem 4.11(b), ||X^t - X^inf|| against the
    fitted rate and the theorem's rate tau (from the same constants).

    Parameters
    ----------
    run : RateRun
        What ``teaching.paper_rates.rate_run`` returns.
    report : dict
        What ``teaching.paper_rates.rate_report`` returns.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, (ax_r, ax_x) = plt.subplots(1, 2, figsize=figsize)
    t = report["iterations"]
    ax_r.semilogy(t, report["lemma_4_4a"], ".", ms=3, label="Lemma 4.4(a)")
    ax_r.semilogy(t, report["theorem_4_10a"], ".", ms=3, label="Thm 4.10(a), proof's E")
    ax_r.semilogy(t, report["theorem_4_10a_as_stated"], ".", ms=3, label="Thm 4.10(a), statement's E")
    ax_r.semilogy(t, report["theorem_4_10b"], ".", ms=3, label="Thm 4.10(b)")
    ax_r.axhline(1.0, color="k", lw=1)
    ax_r.set_xlabel("iteration t")
    ax_r.set_ylabel("measured / bound")
    ax_r.set_title("h = 0: holds where the ratio is below 1")
    ax_r.legend(fontsize=8)
    steps = np.arange(len(run.err))
    live = run.err > 1e-12
    ax_x.semilogy(steps[live], run.err[live], ".", ms=3, label="‖Xᵗ − X^∞‖ measured")
    start = run.err[0]
    ax_x.semilogy(steps, start * report["measured_rate"] ** steps, "--", label="fitted rate")
    ax_x.semilogy(steps, start * report["predicted_rate"] ** steps, "k-", label="Theorem 4.11(b)'s rate τ")
    ax_x.set_xlabel("iteration t")
    ax_x.set_ylim(max(run.err[live].min() / 10, 1e-12), start * 10)
    ax_x.set_title("Theorem 4.11(b): linear rate (σ = 1/2)")
    ax_x.legend(fontsize=8)
    fig.tight_layout()
    return fig
