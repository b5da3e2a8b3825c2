"""Figures of notebook 04 draw what they are given (lines per run, images per column)."""
import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from obcd_lite.viz.experiments import GAP_FLOOR, convergence_figure, frontier_figure, loadings_figure  # noqa: E402


def test_convergence_curves_one_line_per_run_floored_on_a_log_axis():
    h = pd.DataFrame({"run": [0, 0, 1, 1], "method": ["obcd", "obcd", "manpg+obcd", "manpg+obcd"],
                      "seconds": [0.0, 1.0, 0.0, 1.0], "F": [1.0, -1.0, 0.0, -0.5]})
    fig = convergence_figure(h, F_best=-1.0)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and len(ax.lines) == 2
    np.testing.assert_allclose(ax.lines[0].get_ydata(), [2.0, GAP_FLOOR])
    assert ax.lines[1].get_linestyle() == "--"  # warm starts dashed


def test_loadings_as_images_and_frontier_with_pca_line():
    X = np.zeros((64, 3))
    X[[1, 9], 0] = 1.0
    fig = loadings_figure(X, (8, 8))
    assert len(fig.axes) == 3 and fig.axes[0].images[0].get_array().shape == (8, 8)
    fr = pd.DataFrame({"method": ["sklearn", "obcd"], "density": [0.5, 0.4], "explained_variance": [0.3, 0.2]})
    ax = frontier_figure(fr, pca=0.5).axes[0]
    assert len(ax.lines) == 3 and ax.lines[0].get_ydata()[0] == 0.5
