"""One style for every figure of the suite: the branch palette and readable text sizes.

Rotations and reflections have one colour each, everywhere (circles, curves, factor strips).
Figures are drawn at widths that JupyterLab shows near 100 %, so text stays >= 9 pt as displayed.
"""
from __future__ import annotations

#: Rotations rot(θ) (det = +1) and reflections ref(θ) (det = −1), everywhere in the suite.
BRANCH_COLORS = {"rot": "tab:blue", "ref": "tab:orange"}
BRANCH_LABELS = {"rot": "rotations rot(θ), det = +1", "ref": "reflections ref(θ), det = −1"}
#: Solvers in comparison plots (OBCD first; baselines keep their colour in every figure). Every colour
#: has a contrast of at least 3:1 against white (WCAG for graphics), so a label in it stays readable:
#: no yellow, olive or cyan text on white (tests/viz/test_style.py).
SOLVER_COLORS = {"obcd": "tab:red", "cayley": "tab:purple", "manpg": "tab:blue", "manpg_ada": "teal",
                 "rsubgrad": "darkolivegreen", "soc": "tab:green", "radmm": "tab:brown", "psm": "mediumvioletred",
                 "obcd_rot": "black", "obcd_step": "darkmagenta", "rcd": "saddlebrown",
                 "sklearn": "tab:gray"}
#: Smallest font size on figures, in points: at figure.dpi = 90 a 10 pt glyph is 12.5 px, i.e. >= 9 pt as
#: displayed (12 CSS px) when JupyterLab shows the figure unscaled (figures are <= 9 in = 810 px wide;
#: the output area is 848 px at 1280 px with the file browser open).
FONT_SIZE = 10
LEGEND_SIZE = 10


def apply_style() -> None:
    """Set the suite's matplotlib defaults (called by every viz module at import)."""
    import matplotlib as mpl

    mpl.rcParams.update({"font.size": FONT_SIZE, "legend.fontsize": LEGEND_SIZE, "axes.titlesize": FONT_SIZE + 1,
                         "axes.labelsize": FONT_SIZE, "xtick.labelsize": LEGEND_SIZE, "ytick.labelsize": LEGEND_SIZE,
                         "figure.dpi": 90})
