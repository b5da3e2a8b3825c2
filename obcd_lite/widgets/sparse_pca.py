"""Notebook 04's explorer: problem, data set, lam, r, n, methods, time budget, start and seed.

Wiring only (:func:`~obcd_lite.widgets.base.explorer`): the compute is
:func:`obcd_lite.experiments.compare`, the figure :func:`obcd_lite.viz.experiments.comparison_figure`.
"""
from __future__ import annotations

import ipywidgets as widgets

from ..data import DATASET_NAMES
from ..experiments.sparse_pca import DEFAULTS, compare, default_methods
from ..rounding import fmt
from ..experiments.runner import PROBLEMS, STARTS
from ..solvers import SOLVERS
from ..viz.experiments import comparison_figure
from ..viz.tables import frame_html
from .base import Explorer, explorer, slider_layout

#: Slider ranges: lam on a log scale from 1e-5 to 10 (the paper's tables sit at 10..500, far right).
LAM_RANGE = (-5.0, 1.0)
N_RANGE = (2, 200)
R_RANGE = (1, 10)


def build_explorer(**overrides) -> Explorer:
    """The explorer with :data:`~obcd_lite.experiments.sparse_pca.DEFAULTS` (keywords override them).

    Parameters
    ----------
    **overrides
        Values for the keys of ``DEFAULTS``.

    Returns
    -------
    Explorer
        The explorer.
    """
    values = {**DEFAULTS, "methods": default_methods(), "start": "random", **overrides}
    controls = {
        "problem": widgets.Dropdown(options=PROBLEMS, value=values["problem"], description="problem"),
        "dataset": widgets.Dropdown(options=DATASET_NAMES, value=values["dataset"], description="data set"),
        "lam": widgets.FloatLogSlider(value=values["lam"], base=10, min=LAM_RANGE[0], max=LAM_RANGE[1], step=0.1,
                                      description="λ", readout_format=".2e", continuous_update=False,
                                      **slider_layout()),
        "r": widgets.IntSlider(value=values["r"], min=R_RANGE[0], max=R_RANGE[1], description="r",
                               continuous_update=False, **slider_layout()),
        "n": widgets.IntSlider(value=values["n"], min=N_RANGE[0], max=N_RANGE[1], description="n",
                               continuous_update=False, **slider_layout()),
        "methods": widgets.SelectMultiple(options=tuple(SOLVERS), value=tuple(values["methods"]),
                                          description="methods", rows=min(len(SOLVERS), 6)),
        "time_budget": widgets.FloatSlider(value=values["time_budget"], min=0.05, max=2.0, step=0.05,
                                           description="seconds", continuous_update=False, **slider_layout()),
        "start": widgets.Dropdown(options=STARTS, value=values["start"], description="start"),
        "seed": widgets.IntSlider(value=values["seed"], min=0, max=20, description="seed", continuous_update=False,
                                  **slider_layout()),
    }
    return explorer(controls, compare, comparison_figure, summary=table_summary)


def table_summary(comparison) -> str:
    """The explorer's table as rendered HTML, every number through ``rounding.fmt`` (4 significant
    digits; a feasibility at rounding level reads ``< 1e-12``).

    Parameters
    ----------
    comparison : Comparison
        The result of the explorer's compute (its ``table`` is a DataFrame, one row per solver).

    Returns
    -------
    str
        The table's HTML.
    """
    return frame_html(comparison.table, lambda v: fmt(v, 4, style="g")).html
