"""Tests of obcd_lite.completeness_widget: the step state, the figures and the slider wiring."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from obcd_lite.teaching.completeness import jacobi_givens_qr, random_orthogonal  # noqa: E402
from obcd_lite.completeness_widget import (  # noqa: E402
    build_step_explorer,
    diagonal_signs_figure,
    frame_figure,
    reachability_figure,
    reachability_runs,
    step_figure,
    step_state,
    step_title,
)
from obcd_lite.stiefel import identity_init  # noqa: E402


@pytest.fixture
def D_and_factors():
    D = random_orthogonal(6, -1, 0)
    return D, jacobi_givens_qr(D)


def test_step_state_endpoints_and_invariant(D_and_factors):
    D, factors = D_and_factors
    m = len(factors)
    start = step_state(D, factors, 0)
    assert np.array_equal(start["product"], np.eye(6)) and np.allclose(start["remaining"], D)
    assert start["pair"] is None and start["branch"] is None
    end = step_state(D, factors, m)
    assert np.max(np.abs(end["product"] - D)) <= 1e-12 and end["error"] <= 1e-12
    for step in range(m + 1):
        s = step_state(D, factors, step)
        assert np.max(np.abs(s["remaining"] @ s["product"] - D)) <= 1e-12  # D = remaining @ product
        if step:
            assert s["pair"] == factors[step - 1][:2]
    assert end["branches"] == ["rot"] * (m - 1) + ["ref"]


def test_remaining_is_listing_1_R_transposed(D_and_factors):
    """Listing 1 run on D^T: after all steps of column 0, row 0 of R is e_0, i.e. column 0 of remaining."""
    D, factors = D_and_factors
    s = step_state(D, factors, 5)  # paper order: column 0 takes the first n - 1 = 5 steps
    assert np.allclose(s["remaining"][:, 0], np.eye(6)[:, 0], atol=1e-12)


def test_step_state_rejects_bad_step(D_and_factors):
    D, factors = D_and_factors
    for bad in (-1, len(factors) + 1, 1.5):
        with pytest.raises(ValueError, match="step"):
            step_state(D, factors, bad)


def test_step_title_and_figure(D_and_factors):
    D, factors = D_and_factors
    s = step_state(D, factors, len(factors))
    assert step_title(s).startswith("step 15 of 15: rows (4, 5), ref(theta = ")
    fig = step_figure(s)
    assert len(fig.axes) == 3
    plt.close(fig)


def test_slider_redraws_output(D_and_factors):
    D, factors = D_and_factors
    explorer = build_step_explorer(D, factors)
    assert explorer.state["step"] == 0
    first = explorer.out.outputs
    assert len(first) == 1 and "Figure" in first[0]["data"]["text/plain"]
    explorer.slider.value = 7
    assert explorer.state["step"] == 7 and explorer.state["pair"] == factors[6][:2]
    assert explorer.label.value.startswith("step 7 of 15")
    assert explorer.out.outputs is not first and len(explorer.out.outputs) == 1
    explorer.slider.value = len(factors)
    assert explorer.state["error"] <= 1e-12 and explorer.state["branch"] == "ref"


def test_frame_figure_n3():
    factors = jacobi_givens_qr(random_orthogonal(3, -1, 1))
    fig = frame_figure(factors)
    titles = [ax.get_title() for ax in fig.axes]
    assert len(titles) == 4 and "right-handed" in titles[0] and "LEFT-handed" in titles[-1]
    plt.close(fig)
    with pytest.raises(ValueError, match="n = 3"):
        frame_figure(jacobi_givens_qr(np.eye(4)))


def test_diagonal_signs_figure():
    fig = diagonal_signs_figure(np.diag([-1.0, -1.0, -1.0]), np.diag([1.0, 1.0, -1.0]), -1.0)
    assert "3 entries -1" in fig.axes[0].get_title() and "1 entries -1" in fig.axes[1].get_title()
    plt.close(fig)


@pytest.mark.parametrize("n, seed", [(3, 1), (5, 4), (6, 2024)])
def test_reachability_needs_reflections(n, seed):
    """OBCD reaches a det -1 target from I; the rotations-only loop stalls at F >= 4."""
    T = random_orthogonal(n, -1, seed)
    runs = reachability_runs(T, identity_init(n, n), max_iter=200, seed=seed)
    assert np.all(runs["rot"].history["F"] >= 4 - 1e-9)
    assert runs["both"].F <= 1e-10
    assert np.linalg.det(runs["both"].X) < 0
    assert runs["rot"].F >= 4 - 1e-9
    assert np.linalg.det(runs["rot"].X) > 0
    fig = reachability_figure(runs, 4.0)
    assert len(fig.axes[0].lines) == 3
    plt.close(fig)
