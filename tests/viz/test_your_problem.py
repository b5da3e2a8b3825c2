"""Notebook 08's figure: one panel per problem, the gap floored at GAP_FLOOR, never rising."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")

from obcd_lite.teaching.your_problem import smooth_runs  # noqa: E402
from obcd_lite.viz.your_problem import GAP_FLOOR, descent_figure  # noqa: E402


def test_descent_figure_draws_each_problem():
    runs = smooth_runs(("quartic", "factorization"))
    fig = descent_figure(runs)
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["quartic", "factorization"]
    for ax, run in zip(axes, runs.values()):
        gap = ax.lines[0].get_ydata()
        assert np.all(gap >= GAP_FLOOR) and np.all(np.diff(gap) <= 0)
        assert len(gap) == len(run.obcd.history["F"])
