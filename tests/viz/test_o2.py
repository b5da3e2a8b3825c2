"""Figures of notebook 01 (obcd_lite.viz.o2)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from obcd_lite.teaching.critical_points import critical_points_2x2  # noqa: E402
from obcd_lite.teaching.o2 import compute, snapshot_row  # noqa: E402
from obcd_lite.viz.o2 import landscape_figure, snapshot_figure, snapshot_table, two_circles_figure  # noqa: E402
from obcd_lite.viz.style import BRANCH_COLORS  # noqa: E402

PAPER_F2 = (1.0, 0.0, 1.0, 2.0, 5.0)


def test_summary_and_figures_render():
    snap = compute(*PAPER_F2, 1.0, "ref")
    for fig in (snapshot_figure(snap), landscape_figure(snap.landscape, critical_points_2x2(np.eye(2))),
                two_circles_figure()):
        assert fig.axes
        plt.close(fig)


def test_branches_use_the_one_palette_and_text_is_readable():
    snap = compute(*PAPER_F2, 1.0, "ref")
    fig = snapshot_figure(snap)
    ax = fig.axes[0]
    colours = {line.get_label(): line.get_color() for line in ax.get_lines()}
    assert colours["rotations rot(θ), det = +1"] == BRANCH_COLORS["rot"]
    assert colours["reflections ref(θ), det = −1"] == BRANCH_COLORS["ref"]
    assert 8.0 <= fig.get_size_inches()[0] <= 9.0
    sizes = [t.get_fontsize() for t in ax.get_legend().get_texts()] + [ax.title.get_fontsize()]
    assert min(sizes) >= 10
    plt.close(fig)


def test_a_bs2_point_at_theta_0_gets_one_star():
    """F2's BS2-point is rot(0): one star (at θ = 0), not a second at 2π under the title '1 BS₂-point'."""
    from obcd_lite.teaching.critical_points import bs2_points_2x2, landscape_2x2

    T = np.array([[1.0, 0.0], [1.0, 2.0]])
    bs2 = bs2_points_2x2(T, 5.0, alpha=1e-5)
    assert len(bs2) == 1 and bs2[0].theta == 0.0
    critical = critical_points_2x2(T, 5.0)
    fig = landscape_figure(landscape_2x2(T, 5.0), critical, bs2)
    stars = [line for line in fig.axes[0].lines if line.get_marker() == "*" and len(line.get_xdata())]
    assert len(stars) == 1 and list(stars[0].get_xdata()) == [0.0]
    marks = [line for line in fig.axes[0].lines if line.get_marker() in ("v", "^") and len(line.get_xdata())]
    assert sum(len(line.get_xdata()) for line in marks) == len(critical) == 16
    plt.close(fig)


def test_critical_points_as_a_rendered_table():
    from obcd_lite.viz.o2 import critical_table

    points = critical_points_2x2(np.array([[1.0, 0.0], [1.0, 2.0]]), 5.0)
    table = critical_table(points, caption="F2")
    assert repr(table) == "<table: 16 rows: F2>" and table.html.count("<tr>") == 17
    assert "12.000000" in table.html and table.html.count("kink") == 8 and "θ" in table.html


def test_snapshot_table_is_one_typeset_row():
    snap = compute(*PAPER_F2, 1.0, "ref")
    table = snapshot_table(snap)
    assert table.html.count("<tr>") == 2 and "<pre" not in table.html  # the header and one row: a short explorer
    assert "<th>global minimum</th>" in table.html and "<td>rot, θ = 0.0000, F = 12.000000</td>" in table.html
    assert table.html.endswith("<td>&lt; 1e-12</td></tr></tbody></table>")  # Cayley's det Q, last
    stalled = type(snap)(**{**snap.__dict__, "cayley_det_Q": np.array([])})
    assert "det Q" in table.html and "det Q" not in snapshot_table(stalled).html
    assert snapshot_row(snap)["obcd"].replace("theta", "θ") in table.html
