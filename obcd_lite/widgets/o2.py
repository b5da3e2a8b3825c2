"""Wiring of notebook 01's explorer: sliders -> :func:`obcd_lite.teaching.o2.compute`
-> :func:`obcd_lite.viz.o2.snapshot_figure` (the pattern of :mod:`obcd_lite.widgets.base`)."""
from __future__ import annotations

import numpy as np

from ..teaching.o2 import DEFAULT_ALPHA, DEFAULT_TARGET, compute
from ..validation import as_matrix
from .base import Explorer, explorer, slider_layout

#: The alpha slider's values: log10(alpha) from -5 to 1 (alpha = 1e-5 ... 10).
LOG_ALPHA_RANGE = (-5.0, 1.0)


def o2_explorer(target=DEFAULT_TARGET, mu: float = 0.0, start_theta: float = 1.0, start_branch: str = "rot",
                alpha: float = DEFAULT_ALPHA) -> Explorer:
    """The explorer of notebook 01: T in number boxes; mu, alpha and the start point on sliders.

    ``controls`` maps "t11", "t12", "t21", "t22", "mu", "alpha", "start_theta", "start_branch" to
    widgets; ``state["value"]`` is the latest :class:`~obcd_lite.teaching.o2.Snapshot`; the text beside
    the figure is :func:`obcd_lite.viz.o2.snapshot_table`.

    Parameters
    ----------
    target : sequence of sequence of float
        2 x 2, the target T.
        The first target T.
    mu : float, default 0.0
        The l1 weight.
    start_theta : float, default 1.0
        The start angle.
    start_branch : str, default "rot"
        The start circle.
    alpha : float, default 1e-5
        The proximal parameter.

    Returns
    -------
    Explorer
        The explorer.
    """
    import ipywidgets as widgets

    from ..viz.o2 import snapshot_figure, snapshot_table

    T = as_matrix(target, "target", (2, 2))
    # The target's entries in a 2 x 2 grid of number boxes (arrow keys step by 0.1): it reads as a
    # matrix and leaves the width of the row to the sliders, whose tracks stay >= 300 px.
    entry = dict(min=-3.0, max=3.0, step=0.1, layout=widgets.Layout(width="128px"),
                 style={"description_width": "32px"})
    controls = {name: widgets.BoundedFloatText(value=float(T[i, j]), description=label, **entry)
                for name, label, (i, j) in (("t11", "T₁₁", (0, 0)), ("t12", "T₁₂", (0, 1)),
                                            ("t21", "T₂₁", (1, 0)), ("t22", "T₂₂", (1, 1)))}
    controls["mu"] = widgets.FloatSlider(value=float(mu), min=0.0, max=8.0, step=0.25, description="μ",
                                         continuous_update=False, **slider_layout())
    controls["alpha"] = widgets.FloatLogSlider(value=float(alpha), base=10, min=LOG_ALPHA_RANGE[0],
                                               max=LOG_ALPHA_RANGE[1], step=0.1, description="α",
                                               readout_format=".2g", continuous_update=False, **slider_layout())
    controls["start_theta"] = widgets.FloatSlider(value=float(start_theta), min=0.0, max=round(2 * np.pi, 2),
                                                  step=0.05, description="start θ", continuous_update=False,
                                                  **slider_layout())
    controls["start_branch"] = widgets.ToggleButtons(options=["rot", "ref"], value=start_branch,
                                                     description="start on")
    return explorer(controls, compute, snapshot_figure, summary=snapshot_table, layout=_compact_layout)


def _compact_layout(controls: dict, out, text):
    """T as a 2 x 2 grid beside the sliders, rows that wrap, the summary beside the figure when
    there is room: the whole explorer fits a 1280 x 720 laptop screen (measured: see the README)."""
    import ipywidgets as widgets

    wrap = widgets.Layout(display="flex", flex_flow="row wrap", align_items="center")
    target = widgets.VBox([widgets.HBox([controls["t11"], controls["t12"]]),
                           widgets.HBox([controls["t21"], controls["t22"]])])
    rest = [controls[name] for name in ("mu", "alpha", "start_theta", "start_branch")]
    return widgets.VBox([widgets.Box([target, *rest], layout=wrap), widgets.Box([out, text], layout=wrap)])


def orbit_explorer(k: int = 3, max_k: int = 12) -> Explorer:
    """Notebook 00's widget check: a slider k redraws the k rotations rot(2 pi j / k); the text under
    the figure is :func:`obcd_lite.teaching.o2.orbit_summary` as a typeset sentence.

    Parameters
    ----------
    k : int, default 3
        The first k.
    max_k : int, default 12
        The slider's maximum.

    Returns
    -------
    Explorer
        The explorer.
    """
    import ipywidgets as widgets

    from ..teaching.o2 import orbit_summary, rotation_orbit
    from ..viz.o2 import orbit_figure

    controls = {"k": widgets.IntSlider(value=int(k), min=1, max=max_k, description="k", continuous_update=False,
                                       **slider_layout())}
    return explorer(controls, rotation_orbit, orbit_figure, summary=orbit_summary)
