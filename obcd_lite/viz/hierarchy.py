"""Figures for notebook 05: the nested sets with counts, a point's certificates, the witness,
alpha sweeps and the convergence theory along a run.

Pure drawing: every number comes from :mod:`obcd_lite.optimality` or
:mod:`obcd_lite.teaching.hierarchy`.
"""
from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np

from ..rounding import equals, fmt
from .style import SOLVER_COLORS, apply_style
from .tables import html_table

apply_style()
#: A certified gap at most this (relative to 1 + |F|) is rounding: the bracket's two ends are values of F
#: computed in double precision through a branch and bound (hundreds of operations, ~1e-13 each), and
#: the tightest closed brackets (Ky Fan floor, exact eigenvectors) end at 1e-12 .. 1e-11.
GLOBAL_ROUNDING = 1e-10
LEVEL_COLORS = {"critical": "#dde8f5", "BS2": "#b7d0ea", "BS3": "#8fb5dd", "BS4": "#6a9bcf", "global": "#f3c67a"}


def nested_sets_figure(counts: dict, title: str = "", figsize=(10, 4.6), *, global_gap: float | None = None,
                       F_scale: float = 1.0):
    """Critical ⊇ BS2 ⊇ BS3 ⊇ ... ⊇ global for each solver label, to scale: each level is a square
    from the same corner whose area is its share of all limits, so a level that is not nested in the
    one before it (BS2 points that are not critical, the erratum of Theorem 3.8(a)) sticks out of it.
    The counts are listed under the squares, never inside a box too small for them.

    Points in BS2 but not critical (the erratum) are drawn in a red box outside "critical".

    Parameters
    ----------
    counts : dict
        {label: {"points": m, "critical": c, "BS2": b2, ..., "global": g, "BS2_not_critical": x}}.
    title : str, optional
        The figure's title.
    figsize : tuple of float, optional
        The figure's size in inches.
    global_gap : float or None, optional
        The width of the certified bracket of min F behind the "global" counts. Unless it is at rounding
        level (:data:`GLOBAL_ROUNDING` (1 + ``F_scale``)) the level is listed as "ε-global" with ε, never
        as "global" (None: the gap is not known, also listed as "ε-global").
    F_scale : float, optional
        |min F|, the scale of the rounding level.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    exact = global_gap is not None and global_gap <= GLOBAL_ROUNDING * (1.0 + abs(F_scale))
    global_name = "global" if exact else "ε-global" + ("" if global_gap is None else
                                                        f" (ε = {fmt(global_gap, 0, style='e')})")
    labels = list(counts)
    fig, axes = plt.subplots(1, len(labels), figsize=figsize, squeeze=False)
    most_lines = max(len(table) for table in counts.values())  # one text line per key: same scale in every panel
    for ax, label in zip(axes[0], labels):
        table = counts[label]
        total = max(int(table["points"]), 1)
        levels = [name for name in table if name not in ("points", "BS2_not_critical")]
        ax.add_patch(plt.Rectangle((0, 0), 1, 1, fc="white", ec="0.3", lw=1.2))
        sides = {name: np.sqrt(table.get(name, 0) / total) for name in levels}
        for name in levels:  # fills first, outlines on top: a level as large as the next stays visible
            if sides[name] > 0:
                ax.add_patch(plt.Rectangle((0, 0), sides[name], sides[name], fc=LEVEL_COLORS.get(name, "#cccccc"),
                                           ec="none"))
        for name in reversed(levels):  # critical's dashed outline last: it shows where a level covers it
            if sides[name] > 0:
                ax.add_patch(plt.Rectangle((0, 0), sides[name], sides[name], fc="none", **_level_edge(name)))
        lines = [("", f"all limits: {table['points']}", "black")]
        lines += [(name, f"{global_name if name == 'global' else name}: {table.get(name, 0)}", "black")
                  for name in levels]
        extra = table.get("BS2_not_critical", 0)
        lines.append(("", f"BS2, not critical: {extra}", "tab:red" if extra else "0.35"))
        for row, (name, text, colour) in enumerate(lines):
            y = -0.12 - 0.13 * row
            if name in LEVEL_COLORS:
                ax.add_patch(plt.Rectangle((0.0, y - 0.045), 0.08, 0.09, fc=LEVEL_COLORS[name], clip_on=False,
                                           **_level_edge(name)))
            ax.text(0.12, y, text, fontsize=9, va="center", color=colour)
        ax.set_title(label, color=SOLVER_COLORS.get(label.split()[0].lower(), "black"))
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.2 - 0.13 * most_lines, 1.02)
        ax.set_aspect("equal")
        ax.axis("off")
    fig.text(0.5, 0.005, "areas to scale: each square's area is its share of all limits", ha="center", fontsize=9,
             color="0.35")
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def _level_edge(name: str) -> dict:
    """The outline of a level's square: critical dashed, the BS levels solid, global thick."""
    return {"critical": dict(ec="navy", lw=2.0, ls="--"), "global": dict(ec="saddlebrown", lw=2.2)}.get(
        name, dict(ec="0.3", lw=1.2))


def global_verdict(classification) -> tuple[str, str, str]:
    """What a view may say about the global level: ``(mark, colour, note)``.

    A certificate brackets min F in [lower_bound, value] with a gap eps (1e-3 by default, SCIP's a few
    1e-6 at best, from its drift term). A point within that gap is only known to be within eps of the
    minimum, so it is called **ε-global** with the bracket, and "global" (mark "yes") only when the gap is
    at the rounding level (:data:`GLOBAL_ROUNDING` relative to 1 + |F|). A point within the gap
    that fails a lower level is ε-global but certainly not global (a global minimizer is critical and
    BS_k, Theorem 3.8(b)).

    Parameters
    ----------
    classification : Classification
        What ``optimality.classify`` returns.

    Returns
    -------
    tuple of str
        The mark ("yes", "ε-global", "ε-global only" (within the gap, a lower level fails), "no", "?"), a
        matplotlib colour, and the certificate's note (empty when no search ran).
    """
    c = classification
    g = c.global_min
    if g is None:
        return "?", "0.6", getattr(c, "global_note", "") or "not searched (the explorer certifies only tiny angle spaces)"
    note = f"min F ∈ [{fmt(g.lower_bound, 4)}, {fmt(g.value, 4)}], ε = {fmt(g.gap, 1, style='e')}"
    if c.eps_global:
        return "ε-global only", "tab:orange", f"F {equals(c.F, 4)} ≤ min F + ε, a lower level fails; {note}"
    if c.is_global:
        if g.gap <= GLOBAL_ROUNDING * (1.0 + abs(c.F)):
            gap = fmt(g.gap, 1, style="e", floor=None)
            return "yes", "tab:green", f"F {equals(c.F, 4)} = min F to rounding (ε = {gap})"
        return "ε-global", "tab:green", f"F {equals(c.F, 4)} ≤ min F + ε; {note}"
    if c.is_global is False:
        # a lower point is known: say by how much, so that equal-looking 4-digit values never seem to
        # contradict the verdict
        return "no", "tab:red", f"F − min F {equals(c.F - g.value, 2, style='e')}; {note}"
    return "?", "0.6", note


def strongest_label(classification) -> str:
    """``classification.strongest``, with "global" said as "ε-global" unless its gap is at rounding level.

    Parameters
    ----------
    classification : obcd_lite.optimality.hierarchy.Classification
        The verdicts of :func:`~obcd_lite.optimality.classify`.

    Returns
    -------
    str
        The strongest level's name.
    """
    c = classification
    if c.strongest == "global" and global_verdict(c)[0] != "yes":
        return "ε-global"
    return c.strongest


def epsilon_summary(text: str, classification) -> str:
    """A classification's text summary (``Classification.summary``, or an explorer's that ends with it) with
    the global level said as :func:`global_verdict` says it: "global: True" and "strongest level: global"
    become "ε-global" unless the certified gap is at rounding level (the bracket and the gap stay on the line).

    Parameters
    ----------
    text : str
        The summary.
    classification : Classification
        The classification it describes.

    Returns
    -------
    str
        The summary, reworded where the gap does not allow "global".
    """
    if classification.global_min is None or not classification.is_global or global_verdict(classification)[0] == "yes":
        return text
    lines = []
    for line in text.split("\n"):
        if line.startswith("global: True"):
            line = "global: ε-global (F ≤ min F + ε, ε the certified gap)" + line[len("global: True"):]
        elif line.startswith("strongest level: global"):
            line = "strongest level: ε-global" + line[len("strongest level: global"):]
        lines.append(line)
    return "\n".join(lines)


def certificates_table(text: str):
    """A certificate summary's lines as a rendered two-column table (what is certified | the verdict
    and its evidence): the text an explorer shows under its figure, never a monospace dump.

    Parameters
    ----------
    text : str
        Lines ``"what: verdict (evidence)"`` (``Classification.summary``, an explorer's summary, after
        :func:`epsilon_summary`); a line without ``": "`` (``"F(X) = 0.12"``) splits at its first space.

    Returns
    -------
    HtmlTable
        One row per line, the values typeset by :func:`obcd_lite.viz.tables.math_text` (long ones wrap
        inside the panel).
    """
    rows = []
    for line in text.split("\n"):
        what, sep, value = line.partition(": ")
        if not sep:
            what, _, value = line.partition(" ")
        if what.startswith("BS_"):  # BS_2 -> BS₂, as the figures write the levels
            what = "BS" + what[3:].translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
        rows.append({"what": what, "value": value})
    return html_table(rows, {"what": "certificate", "value": "verdict and evidence"})


def explorer_summary(exploration) -> str:
    """The HTML under an explorer's certificate figure (notebooks 05 and 08): its summary, the global
    level worded by :func:`epsilon_summary`, as :func:`certificates_table`.

    Parameters
    ----------
    exploration : object
        An explorer's result with ``summary()`` and ``classification``.

    Returns
    -------
    str
        HTML.
    """
    return certificates_table(epsilon_summary(exploration.summary(), exploration.classification)).html


def _fit_row(ax, renderer, label, note, y, *, x_note: float, size: float):
    """The label (bold) at the left and the note after it, the note shrunk and then wrapped onto two lines
    until it ends inside the panel: text never runs into the next panel."""
    ax.text(0.02, y, label, va="center", fontsize=10, weight="bold")
    panel = ax.get_window_extent(renderer)
    text = ax.text(x_note, y, note, va="center", fontsize=size)
    for fontsize in (size, size - 1, size - 1.5):
        for wrapped in (note, _two_lines(note)):
            text.set_text(wrapped)
            text.set_fontsize(fontsize)
            if text.get_window_extent(renderer).x1 <= panel.x1 - 2:
                return text
    return text


def _two_lines(text: str) -> str:
    """text broken at the '; ' nearest its middle (else the ', ')."""
    cuts = [i for i in range(len(text)) if text.startswith("; ", i)] or \
        [i for i in range(len(text)) if text.startswith(", ", i)]
    if not cuts:
        return text
    cut = min(cuts, key=lambda i: abs(i - len(text) / 2))
    return text[:cut + 1] + "\n" + text[cut + 2:]


def certificate_figure(classification, figsize=(10, 3.6)):
    """Left: each level with its verdict and certificate; right: the pair gaps K(I) - min K (k = 2).

    The global level says "ε-global" with the certified bracket unless the gap is at rounding level
    (:func:`global_verdict`); every text ends inside its panel (the notes are shrunk or wrapped).

    Parameters
    ----------
    classification : Classification
        What ``optimality.classify`` returns.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    c = classification
    fig, (ax_levels, ax_gaps) = plt.subplots(1, 2, figsize=figsize, gridspec_kw={"width_ratios": [1.3, 1]})
    names = list(c.levels)
    notes = {"critical": f"dist(0, ∂_M F) {equals(c.residual.value, 1, style='e')}"}
    for k, rep in c.blocks.items():
        notes[f"BS{k}"] = f"largest gap {fmt(rep.largest_gap, 1, style='e')} ({rep.failing}/{len(rep.gaps)} fail)"
    global_mark, global_colour, notes["global"] = global_verdict(c)
    rep = c.blocks[min(c.blocks)]
    n = 1 + max(max(B) for B in rep.gaps)
    M = np.full((n, n), np.nan)
    for B, gap in rep.gaps.items():
        i, j = B[0], B[-1]
        M[i, j] = M[j, i] = max(gap, 1e-16)
    image = ax_gaps.imshow(np.log10(M), cmap="viridis", vmin=-16, vmax=max(0.0, float(np.nanmax(np.log10(M)))))
    fig.colorbar(image, ax=ax_gaps, label="log10 gap")
    ax_gaps.set_title(f"k = {rep.k} block gaps (pairs i, j)")
    ax_gaps.set_xticks(range(n))
    ax_gaps.set_yticks(range(n))
    ax_gaps.set_xlabel("row j")
    ax_gaps.set_ylabel("row i")
    ax_levels.set_xlim(0, 1)
    ax_levels.set_ylim(-0.5, len(names) - 0.5)
    ax_levels.set_yticks([])
    ax_levels.set_xticks([])
    ax_levels.set_title(f"strongest level: {strongest_label(c)}" + ("" if c.nested else " (not nested!)"))
    fig.tight_layout()  # before the texts are fitted: they are fitted to the final panel
    renderer = fig.canvas.get_renderer()
    rows = []
    for row, name in enumerate(names):
        value = c.levels[name]
        color = {True: "tab:green", False: "tab:red", None: "0.6"}[value]
        mark = {True: "yes", False: "no", None: "?"}[value]
        if name == "global":
            mark, color = global_mark, global_colour
        y = len(names) - 1 - row
        ax_levels.barh(y, 1, color=color, alpha=0.25)
        rows.append((f"{name}: {mark}", notes.get(name, ""), y))
    labels = [ax_levels.text(0.02, 0, label, fontsize=10, weight="bold") for label, _, _ in rows]
    panel = ax_levels.get_window_extent(renderer)
    widest = max(t.get_window_extent(renderer).x1 for t in labels)
    for t in labels:
        t.remove()
    x_note = 0.3 if widest <= panel.x0 + 0.28 * panel.width else (widest - panel.x0) / panel.width + 0.02
    for label, note, y in rows:
        _fit_row(ax_levels, renderer, label, note, y, x_note=x_note, size=9)
    return fig


def witness_figure(witness, curves: dict, figsize=(10, 3.8)):
    """The BS2-not-critical witness: why every pair is stationary, and the curves that descend.

    Left: for each pair, the value the shared free subgradient entry must take to make that pair
    stationary, against the interval dh allows. Right: F - F(X) along the curves of ``two_pair_descent``.

    Parameters
    ----------
    witness : Witness
        The witness.
    curves : dict
        What ``teaching.hierarchy_descent.two_pair_descent`` returns.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, (ax_pairs, ax_curves) = plt.subplots(1, 2, figsize=figsize)
    lo, hi = witness.problem.h.subdifferential(witness.X)
    row = 0
    for B, values in witness.pair_values.items():
        for entry, value in values.items():
            ax_pairs.plot([lo[entry], hi[entry]], [row, row], color="0.6", lw=6, solid_capstyle="butt")
            ax_pairs.plot(value, row, "o", color="tab:red", ms=8)
            ax_pairs.text(hi[entry], row + 0.2, f"pair {B}: needs {fmt(value, 3, sign=True)}", ha="right", fontsize=9)
            row += 1
    ax_pairs.set_ylim(-0.6, row)
    ax_pairs.set_yticks([])
    ax_pairs.set_xlabel("subgradient entry of h at the zero X[2, 1] (grey: allowed)")
    ax_pairs.set_title("each pair alone is stationary, not with one G")
    theta = curves["theta"]
    for key, value in curves.items():
        if key != "theta":
            ax_curves.plot(theta, value, label=key, lw=2)
    ax_curves.axhline(0, color="0.5", lw=0.8)
    ax_curves.set_xlabel("angle θ (or step t)")
    ax_curves.set_ylabel("F − F(X)")
    ax_curves.legend(fontsize=8)
    ax_curves.set_title("one pair at a time goes up; two together go down")
    fig.tight_layout()
    return fig


def alpha_figure(alphas, series: dict, figsize=(10, 3.4)):
    """How many candidate points are BS2, for each alpha (log axis); one line per example.

    Parameters
    ----------
    alphas : array_like
        The alphas.
    series : dict
        {label: counts, one per alpha}.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, ax = plt.subplots(figsize=figsize)
    for (label, counts), marker in zip(series.items(), itertools.cycle("osD^v")):
        ax.semilogx(alphas, counts, marker=marker, label=label)
    ax.set_xlabel("α (proximal parameter of eq. (11))")
    ax.set_ylabel("number of BS2 points")
    ax.legend(fontsize=9)
    ax.set_title("the BS2 set grows with α")
    fig.tight_layout()
    return fig


def theory_figure(run: dict, figsize=(10, 3.6)):
    """Theorem 4.2 along a run.

    Left: Theorem 4.2(a) step by step, x_term <= v_term <= decrease. Right: the eps-BS measure,
    its running minimum and the bound c~/(T + 1) of Theorem 4.2(b).

    Parameters
    ----------
    run : dict
        What ``teaching.paper_theory_run.theory_run`` returns.
    figsize : tuple of float, optional
        The figure's size in inches.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=figsize)
    steps = np.arange(1, len(run["decrease"]) + 1)
    floor = 1e-18
    ax_a.semilogy(steps, np.maximum(run["decrease"], floor), ".", ms=3, label="F(Xᵗ) − F(Xᵗ⁺¹)")
    ax_a.semilogy(steps, np.maximum(run["v_term"], floor), ".", ms=3, label="α/2 ‖V̄ − I‖²")
    ax_a.semilogy(steps, np.maximum(run["x_term"], floor), ".", ms=2, label="α/2 ‖Xᵗ⁺¹ − Xᵗ‖²")
    ax_a.set_xlabel("iteration t")
    ax_a.set_title("Theorem 4.2(a): sufficient decrease")
    ax_a.legend(fontsize=8)
    its = run["iterations"]
    ax_b.loglog(its + 1, np.maximum(run["measure"], floor), "o-", label="ε-BS measure at Xᵀ")
    ax_b.loglog(its + 1, np.maximum(run["running_min"], floor), "s--", label="min over t ≤ T")
    ax_b.loglog(its + 1, run["bound"], "k-", label="c̃/(T+1)")
    ax_b.set_xlabel("T + 1")
    ax_b.set_title(f"Theorem 4.2(b), k = {run['k']}, α = {run['alpha']:g}")
    ax_b.legend(fontsize=8)
    fig.tight_layout()
    return fig
