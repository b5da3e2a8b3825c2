"""The explorer of notebook 05: sliders for the problem and the solver, the certificates of its output.

Compute: :func:`obcd_lite.teaching.hierarchy_explorer.explore`; figure:
:func:`obcd_lite.viz.hierarchy.certificate_figure`; wiring: :func:`obcd_lite.widgets.base.explorer`.
"""
from __future__ import annotations

import ipywidgets as widgets

from ..solvers import SOLVERS
from ..penalties import PENALTY_NAMES
from ..teaching.hierarchy_explorer import explore
from ..viz.hierarchy import certificate_figure, explorer_summary
from .base import Explorer, explorer, slider_layout


def build_explorer(n: int = 4, r: int = 1, penalty: str = "l1", lam: float = 0.1, k: int = 2,
                   alpha: float = 1e-5, seed: int = 0, solver: str = "obcd") -> Explorer:
    """Sliders n, r, penalty, lam, k, alpha (log10), seed and the solver.

    Shows the levels its output attains with their certificates.

    Parameters
    ----------
    n, r : int
        The size of St(n, r).
    penalty : str, default "l1"
        One of ``penalties.PENALTY_NAMES``.
    lam : float, default 0.1
        The penalty's weight.
    k : int, default 2
        The block size of the BS_k test.
    alpha : float, default 1e-5
        The proximal parameter.
    seed : int, default 0
        The problem's and the start's seed.
    solver : str, default "obcd"
        A key of ``solvers.SOLVERS``.

    Returns
    -------
    Explorer
        The explorer.
    """
    style = slider_layout()
    controls = {
        "n": widgets.IntSlider(value=n, min=3, max=8, description="n", **style),
        "r": widgets.IntSlider(value=r, min=1, max=3, description="r", **style),
        "penalty": widgets.Dropdown(options=PENALTY_NAMES, value=penalty, description="penalty", **style),
        "lam": widgets.FloatLogSlider(value=lam, base=10, min=-3, max=0, description="λ", **style),
        "k": widgets.IntSlider(value=k, min=2, max=4, description="k", **style),
        "alpha": widgets.FloatLogSlider(value=alpha, base=10, min=-6, max=1, description="α", **style),
        "seed": widgets.IntSlider(value=seed, min=0, max=20, description="seed", **style),
        "solver": widgets.Dropdown(options=sorted(SOLVERS), value=solver, description="solver", **style),
    }
    return explorer(controls, explore, lambda e: certificate_figure(e.classification), summary=explorer_summary)
