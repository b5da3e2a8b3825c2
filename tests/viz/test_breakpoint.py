"""Figures of notebook 02 (obcd_lite.viz.breakpoint)."""
import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402

from obcd_lite.teaching.breakpoint import stepper_state  # noqa: E402
from obcd_lite.teaching.instances import random_instance  # noqa: E402
from obcd_lite.subproblem import branch_coefficients, quartic_coefficients  # noqa: E402
from obcd_lite.teaching.paper_recipe import real_roots  # noqa: E402
from obcd_lite.viz.breakpoint import KIND_LABELS, quartic_roots_figure, stage_table, stepper_figure  # noqa: E402


def test_figure_has_both_branches_and_the_chosen_star():
    fig = stepper_figure(stepper_state(2, "l1", 3))
    assert [ax.get_title().split(":")[0] for ax in fig.axes] == ["rot", "ref"]
    labels = [ln.get_label() for ax in fig.axes for ln in ax.get_lines()]
    assert labels.count("chosen") == 1 and "brute force" in labels and "p~(t) + e + h  (σ = −1)" in labels
    matplotlib.pyplot.close(fig)




def test_legend_lists_every_marker_and_axes_are_labelled():
    fig = stepper_figure(stepper_state(0, "l0", 3))
    texts = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert all(label in texts for label in KIND_LABELS.values()) and "V = I" in texts
    assert fig.axes[0].get_ylabel()
    matplotlib.pyplot.close(fig)
    Qt, P, Z = random_instance(0)
    a, b, cq, d, e, *_ = branch_coefficients(Qt, P, Z)
    w = cq - e
    fig = quartic_roots_figure(a[0], b[0], w[0], d[0], e[0], real_roots(quartic_coefficients(a[0], b[0], w[0], d[0])))
    assert fig.axes[0].get_ylabel() and fig.axes[0].get_xlabel()
    matplotlib.pyplot.close(fig)


def test_half_circles_figure_marks_both_kinks_of_each_entry():
    from obcd_lite.subproblem import branch_coefficients
    from obcd_lite.viz.breakpoint import half_circles_figure

    *_, x, y = branch_coefficients(*random_instance(0))
    fig = half_circles_figure(x[0], y[0])
    kinks = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("kink")]
    (line,) = kinks
    c, s = line.get_data()
    assert len(c) == 2 * x.shape[1]
    entries = np.outer(c, x[0]) + np.outer(s, y[0])  # c x_i + s y_i at each marked angle
    assert np.all(np.min(np.abs(entries), axis=1) < 1e-12)
    matplotlib.pyplot.close(fig)


def test_stage_0_draws_the_coefficients_not_empty_axes():
    """Stage 0 shows each branch's five coefficients as labelled bars (issue 30: it was empty axes
    with text running across both panels)."""
    state = stepper_state(0, "l1", 0)
    fig = stepper_figure(state)
    axes = [ax for ax in fig.axes if ax.patches]
    assert len(axes) == 2
    for k, ax in enumerate(axes):
        heights = [p.get_height() for p in ax.patches]
        np.testing.assert_allclose(heights, [state["coefficients"][name][k] for name in "abwde"])
        assert len(ax.texts) == 5
    assert "stage 0" in fig.texts[0].get_text()
    matplotlib.pyplot.close(fig)


def test_stage_table_is_the_coefficients_then_the_search():
    first = stage_table(stepper_state(0, "l1", 0))
    assert first.html.count("<table") == 1 and first.html.count("<tr>") == 1 + 2  # header, rot, ref
    assert "<b>seed 0, h = L1(λ=0.5), stage 0: coefficients</b>" in first.html  # lam typeset as λ
    assert repr(first) == "<seed 0, h = L1(lam=0.5), stage 0: coefficients>"
    last = stage_table(stepper_state(0, "l1", 3))
    assert last.html.count("<table") == 2 and "<pre" not in last.html
    assert "<td>chosen</td><td>ref, σ = −1, break, value 0.805794</td>" in last.html
    assert "<td>brute force</td><td>ref, θ = 2.7028, value 0.805794 (|gap| &lt; 1e-7: True)</td>" in last.html
