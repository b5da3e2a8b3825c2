"""The instructor's figures (obcd_lite.viz.one_step) draw what the compute gives them."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from obcd_lite import L1, random_stiefel, sparse_pca  # noqa: E402
from obcd_lite.teaching.one_step import majorizer_curves, one_obcd_step, sphere_paths  # noqa: E402
from obcd_lite.viz.one_step import majorizer_figure, one_step_figure, sphere_figure, spread_figure  # noqa: E402


def problem_and_point(n=4, r=2, seed=0):
    g = np.random.default_rng(seed)
    A = g.standard_normal((12, n))
    return sparse_pca(A.T @ A / 12, L1(0.2)), random_stiefel(n, r, g)


def test_one_step_figure_frames_the_two_rows_and_writes_v():
    problem, X = problem_and_point()
    step = one_obcd_step(problem, X, (0, 2))
    fig = one_step_figure(step)
    before, V, after = fig.axes
    assert len(V.texts) == 4 and len(before.texts) == len(after.texts) == X.size
    frames = [p for p in before.patches if p.get_linewidth() == 2.5]
    assert sorted(round(p.get_y() + 0.5) for p in frames) == [0, 2]
    plt.close(fig)


def test_majorizer_figure_has_f_and_each_k_on_both_circles():
    problem, X = problem_and_point(5)
    fig = majorizer_figure(majorizer_curves(problem, X, (1, 4), samples=91))
    rot, ref = fig.axes
    assert len(ref.lines) == 3 and len(rot.lines) == 4  # F, K exact, K scalar (+ the V = I dot)
    assert rot.lines[-1].get_xdata()[0] == 0.0
    # notebook 02's text says B = (2, 5) (rows counted from 1) for the code's B = (1, 4): the title agrees
    assert "B = (2, 5) (rows (1, 4) in code)" in fig._suptitle.get_text()
    plt.close(fig)


def test_sphere_and_spread_figures():
    problem, x0 = problem_and_point(3, 1)
    fig = sphere_figure(sphere_paths(problem, x0, iterations=5))
    assert fig.axes[0].name == "3d" and len(fig.axes[1].lines) == 2
    plt.close(fig)
    spread = {"final": {"obcd": np.array([1.0, 1.5]), "manpg": np.array([1.0, 1.0])}, "best": 1.0,
              "at_best": {"obcd": 1, "manpg": 2}}
    fig = spread_figure(spread)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and "1 of 2 at best" in ax.get_yticklabels()[0].get_text()
    np.testing.assert_allclose(ax.lines[0].get_xdata(), [1e-12, 0.5])
    plt.close(fig)
