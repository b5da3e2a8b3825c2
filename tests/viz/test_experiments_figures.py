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


def _panel_pixels(X):
    """The rendered pixels inside the sparsity panel of X (RGB in [0, 1])."""
    import matplotlib.pyplot as plt

    from obcd_lite.viz.experiments import sparsity_axes

    fig, ax = plt.subplots(figsize=(2, 3), dpi=50)
    sparsity_axes(ax, X)
    fig.canvas.draw()
    rgb = np.asarray(fig.canvas.buffer_rgba())[..., :3] / 255.0
    (x0, y0), (x1, y1) = ax.get_window_extent().get_points()
    h = rgb.shape[0]
    inner = rgb[int(h - y1) + 3:int(h - y0) - 3, int(x0) + 3:int(x1) - 3]
    plt.close(fig)
    return inner


def test_sparsity_panel_draws_dense_black_empty_white_and_half_half():
    """A dense X is a black panel, an empty X a white one, a half-filled X half of each (issue 30:
    a dense X used to be drawn as white as an empty one)."""
    dense = _panel_pixels(np.ones((6, 2)))
    empty = _panel_pixels(np.zeros((6, 2)))
    half = np.zeros((6, 2))
    half[:3] = 1.0
    half_pixels = _panel_pixels(half)
    assert dense.mean() < 0.05 and empty.mean() > 0.95
    assert 0.4 < (half_pixels.mean(axis=2) < 0.5).mean() < 0.6
    top, bottom = half_pixels[: half_pixels.shape[0] // 3], half_pixels[-half_pixels.shape[0] // 3:]
    assert top.mean() < 0.05 and bottom.mean() > 0.95  # rows 0-2 nonzero: black on top


def test_explorer_figure_stays_readable_with_every_method():
    """All 11 methods: the curves across the top, the patterns in rows of at most PANELS_PER_ROW, each
    panel at least half an inch wide in a figure of at most 9 inches, which JupyterLab shows unscaled
    (the old layout put 12 columns in one row of a 21-inch figure, shown shrunk to a third)."""
    from obcd_lite.experiments import compare
    from obcd_lite.solvers import SOLVERS
    from obcd_lite.viz.experiments import PANELS_PER_ROW, comparison_figure

    c = compare(methods=tuple(SOLVERS), time_budget=0.05, n=20)
    fig = comparison_figure(c)
    ran = len(c.experiment.points)
    assert ran > PANELS_PER_ROW
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == ran
    rows = {round(ax.get_position().y0, 3) for ax in panels}
    assert len(rows) == -(-ran // PANELS_PER_ROW)
    assert fig.get_figwidth() <= 9.0
    assert min(ax.get_position().width * fig.get_figwidth() for ax in panels) > 0.5


def test_first_picture_draws_the_history_and_both_patterns():
    from obcd_lite.viz.experiments import first_picture

    X0 = np.eye(4, 2)
    X1 = np.full((4, 2), 0.5)
    fig = first_picture([3.0, 2.0, 1.5], X0, X1)
    curve, start, end = fig.axes
    np.testing.assert_allclose(curve.lines[0].get_ydata(), [3.0, 2.0, 1.5])
    assert "nnz = 2" in start.get_title() and "nnz = 8" in end.get_title()


def test_paper_grid_as_a_heatmap_with_ties_that_print_alike():
    from obcd_lite.viz.experiments import paper_grid_figure

    rec = pd.DataFrame({"method": ["obcd", "obcd", "soc", "soc", "psm", "psm"],
                        "start": ["identity"] * 6, "lam": [10.0, 50.0] * 3,
                        "F": [199.74, 999.74, 19999.31, 99999.30, 19999.3049, 99999.9]})
    fig = paper_grid_figure(rec)
    ax = fig.axes[0]
    ranks = ax.images[0].get_array()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["obcd (identity)", "psm (identity)", "soc (identity)"]
    assert ranks[0, 0] == 0.0 and ranks[1, 0] == ranks[2, 0]  # 19999.3 and 19999.3: equal, not ranked by noise
    assert "19999.3" in [t.get_text() for t in ax.texts] and len(ax.texts) == 6
    import pytest

    with pytest.raises(ValueError, match="no records"):
        paper_grid_figure(rec.iloc[:0])
