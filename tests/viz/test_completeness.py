"""Figures of notebook 03 (obcd_lite.viz.completeness)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from obcd_lite.stiefel import identity_init  # noqa: E402
from obcd_lite.teaching.completeness import jacobi_givens_qr, random_orthogonal  # noqa: E402
from obcd_lite.teaching.completeness_steps import reachability_runs, step_row, step_state  # noqa: E402
from obcd_lite.viz.completeness import (diagonal_signs_figure, frame_figure, reachability_figure,  # noqa: E402
                                        step_figure, steps_table)
from obcd_lite.viz.style import BRANCH_COLORS  # noqa: E402


@pytest.fixture
def D_and_factors():
    D = random_orthogonal(6, -1, 0)
    return D, jacobi_givens_qr(D)


def test_step_figure(D_and_factors):
    D, factors = D_and_factors
    s = step_state(D, factors, len(factors))
    fig = step_figure(s)
    product, remaining, bar, strip = fig.axes
    assert remaining.images[0].colorbar is not None and bar.get_ylabel() == "matrix entry"  # a colour bar: -1 .. 1
    assert bar.get_ylim() == (-1.0, 1.0) and strip.patches
    plt.close(fig)


def test_strip_uses_the_one_palette(D_and_factors):
    """Rotations blue and reflections orange, as in every figure of the suite (was red here)."""
    D, factors = D_and_factors
    fig = step_figure(step_state(D, factors, len(factors)))
    bars = fig.axes[3].patches
    assert to_hex(bars[0].get_facecolor()) == to_hex(BRANCH_COLORS["rot"])
    assert to_hex(bars[-1].get_facecolor()) == to_hex(BRANCH_COLORS["ref"])
    assert "orange: reflection" in fig.axes[3].get_xlabel()
    plt.close(fig)


def test_reachability_figure():
    T = random_orthogonal(3, -1, 1)
    runs = reachability_runs(T, identity_init(3, 3), max_iter=50, rng=1)
    fig = reachability_figure(runs, 4.0)
    assert len(fig.axes[0].lines) == 3
    plt.close(fig)


def test_frame_figure_n3():
    factors = jacobi_givens_qr(random_orthogonal(3, -1, 1))
    fig = frame_figure(factors)
    titles = [ax.get_title() for ax in fig.axes]
    assert len(titles) == 4 and "right-handed" in titles[0] and "LEFT-handed" in titles[-1]
    width, height = fig.get_size_inches()
    assert min(ax.get_position().width * width for ax in fig.axes) > 2.5  # panels large enough to read (were 1.7 in)
    assert width <= 9.0
    plt.close(fig)
    with pytest.raises(ValueError, match="n = 3"):
        frame_figure(jacobi_givens_qr(np.eye(4)))


def test_diagonal_signs_figure():
    fig = diagonal_signs_figure(np.diag([-1.0, -1.0, -1.0]), np.diag([1.0, 1.0, -1.0]), -1.0)
    assert "3 entries -1" in fig.axes[0].get_title() and "1 entries -1" in fig.axes[1].get_title()
    plt.close(fig)


def test_steps_table_has_one_row_per_state(D_and_factors):
    D, factors = D_and_factors
    states = [step_state(D, factors, k) for k in (0, 3, len(factors))]
    table = steps_table(states, caption="three steps")
    assert table.html.count("<tr>") == 1 + 3 and repr(table) == "<table: 3 rows: three steps>"
    for state in states:
        row = step_row(state)
        assert f"<td>{row['step']}</td><td>{row['pair']}</td>" in table.html
    assert "<td>&lt; 1e-12</td>" in table.html and "θ = " in table.html  # the last step: rounding, as a bound
