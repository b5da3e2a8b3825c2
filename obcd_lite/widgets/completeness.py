"""Wiring of notebook 03's step slider: step -> :func:`obcd_lite.teaching.completeness_steps.step_state`
-> :func:`obcd_lite.viz.completeness.step_figure` (the pattern of :mod:`obcd_lite.widgets.base`)."""
from __future__ import annotations

from typing import Sequence

from ..teaching.completeness import Factor
from ..teaching.completeness_steps import step_state, step_title
from .base import Explorer, explorer, slider_layout


def factor_explorer(D, factors: Sequence[Factor], initial_step: int = 0) -> Explorer:
    """A slider over the steps 0..len(factors) of D = W_m ... W_1 (Theorem 3.1(a)).

    ``controls["step"]`` is the slider; ``state["value"]`` the latest :func:`step_state`; the text under
    the figure is :func:`step_title` as a typeset sentence (one line: no table needed).

    Parameters
    ----------
    D : numpy.ndarray
        The orthogonal matrix factored.
    factors : sequence of Factor
        Its factors.
    initial_step : int, default 0
        The first step shown.

    Returns
    -------
    Explorer
        The explorer.
    """
    import ipywidgets as widgets

    from ..viz.completeness import step_figure

    controls = {"step": widgets.IntSlider(value=int(initial_step), min=0, max=len(factors), step=1,
                                          description="step", continuous_update=False, **slider_layout())}
    return explorer(controls, lambda step: step_state(D, factors, step), step_figure, summary=step_title)
