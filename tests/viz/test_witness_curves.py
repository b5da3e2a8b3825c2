"""Notebook 05 §2's witness figure: the retraction curve is F along polar(X - t R) at signed t.

Issue 35: the curve was evaluated at |t|, a mirror image that goes down on both sides of t = 0: at a convex
l1 kink F cannot do that along a line through X and its mirror. Each point of the curve is checked against
a direct evaluation at +t and at -t, and the figure draws those values.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from obcd_lite.optimality.criticality import residual_details, tangent_part  # noqa: E402
from obcd_lite.stiefel import polar  # noqa: E402
from obcd_lite.teaching.hierarchy import bs2_not_critical_witness  # noqa: E402
from obcd_lite.teaching.hierarchy_descent import two_pair_descent  # noqa: E402
from obcd_lite.viz.hierarchy import witness_figure  # noqa: E402


def test_the_retraction_curve_is_evaluated_at_signed_t():
    w = bs2_not_critical_witness()
    problem, X = w.problem, w.X
    t = np.linspace(-0.05, 0.05, 21)
    curve = two_pair_descent(w, t)["polar(X - t R)"]
    R = tangent_part(X, residual_details(problem, X).G)
    direct = np.array([problem.F(polar(X - s * R)) - problem.F(X) for s in t])
    np.testing.assert_allclose(curve, direct, atol=1e-14)
    # not a mirror image: F goes down along -R and up along +R (R is the least-norm subgradient, ||R|| > 0)
    assert np.all(curve[t > 0] < 0) and np.all(curve[t < 0] > 0)
    assert np.max(np.abs(curve - curve[::-1])) > 1e-2
    # at first order the slope at 0 is -||R||^2 from both sides (a descent direction of the smooth curve)
    slope = (curve[11] - curve[9]) / (t[11] - t[9])
    assert slope < 0


def test_the_figure_draws_the_signed_curve():
    w = bs2_not_critical_witness()
    t = np.linspace(-0.05, 0.05, 11)
    curves = two_pair_descent(w, t)
    fig = witness_figure(w, curves)
    (line,) = [ln for ln in fig.axes[1].lines if ln.get_label() == "polar(X - t R)"]
    np.testing.assert_array_equal(line.get_xdata(), t)
    np.testing.assert_array_equal(line.get_ydata(), curves["polar(X - t R)"])
    plt.close(fig)
