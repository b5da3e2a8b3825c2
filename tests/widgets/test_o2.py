"""The explorer of notebook 01: the pure ``compute`` and the slider wiring, driven in-process."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from obcd_lite.teaching.critical_points import critical_points_2x2  # noqa: E402
from obcd_lite.o2_plots import landscape_figure, two_circles_figure  # noqa: E402
from obcd_lite.o2_widget import build_widget, compute, snapshot_figure, snapshot_summary  # noqa: E402

PAPER_F1 = (1.0, 0.0, -1.0, -1.0, 0.0)
PAPER_F2 = (1.0, 0.0, 1.0, 2.0, 5.0)


def test_compute_on_the_paper_examples():
    snap = compute(*PAPER_F1, 1.0, "rot")
    assert len(snap.critical) == 4 and len(snap.bs2) == 1
    assert set(snap.cayley.branches) == {"rot"} and snap.cayley.final[2] == pytest.approx(3.0, abs=1e-9)
    assert snap.obcd.final[0] == "ref" and snap.obcd.final[2] == pytest.approx(5 - 2 * np.sqrt(5), abs=1e-6)
    assert np.allclose(snap.cayley_det_Q, 1.0, atol=1e-12)
    snap = compute(*PAPER_F2, 1.0, "ref")
    assert len(snap.critical) == 16 and len(snap.bs2) == 1
    assert set(snap.cayley.branches) == {"ref"} and snap.cayley.final[2] >= 16.0 - 1e-6
    assert snap.obcd.final[2] == pytest.approx(12.0, abs=1e-6)


def test_compute_is_pure_and_deterministic():
    first, second = compute(*PAPER_F2, 2.0, "rot"), compute(*PAPER_F2, 2.0, "rot")
    assert np.array_equal(first.cayley.thetas, second.cayley.thetas)
    assert np.array_equal(first.obcd.values, second.obcd.values)
    assert [pt.theta for pt in first.critical] == [pt.theta for pt in second.critical]
    assert np.array_equal(first.landscape["rot"], second.landscape["rot"])


def test_trajectory_values_lie_on_the_landscape():
    snap = compute(0.5, -1.5, 2.0, 0.3, 1.5, 4.0, "ref")
    for traj in (snap.cayley, snap.obcd):
        for branch, theta, value in zip(traj.branches, traj.thetas, traj.values):
            V = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]]) if branch == "rot" \
                else np.array([[-np.cos(theta), np.sin(theta)], [np.sin(theta), np.cos(theta)]])
            assert value == pytest.approx(np.sum((V - snap.T) ** 2) + snap.mu * np.sum(np.abs(V)))


def test_compute_rejects_bad_values():
    with pytest.raises(ValueError, match="mu"):
        compute(*PAPER_F1[:4], -1.0, 0.0, "rot")
    with pytest.raises(ValueError, match="branch"):
        compute(*PAPER_F1, 0.0, "det")
    with pytest.raises(ValueError, match="T"):
        compute(np.nan, 0, 0, 0, 0.0, 0.0, "rot")


def test_sliders_drive_the_figure_and_the_data():
    box, controls, out, state = build_widget()
    assert state["redraws"] == 1 and len(state["snapshot"].critical) == 4
    assert len(out.outputs) == 1 and "text/plain" in out.outputs[0]["data"]
    # Move to the paper's second example, one slider at a time.
    controls["t21"].value = 1.0
    controls["t22"].value = 2.0
    controls["mu"].value = 5.0
    snap = state["snapshot"]
    assert state["redraws"] == 4
    assert np.array_equal(snap.T, [[1.0, 0.0], [1.0, 2.0]]) and snap.mu == 5.0
    assert len(snap.critical) == 16 and len(out.outputs) == 1
    controls["start_branch"].value = "ref"
    assert set(state["snapshot"].cayley.branches) == {"ref"}
    before = state["snapshot"].cayley.thetas[0]
    controls["start_theta"].value = 2.5
    assert state["snapshot"].cayley.thetas[0] == pytest.approx(2.5) != before
    controls["start_theta"].value = 2.5  # same value: no redraw
    assert state["redraws"] == 6


def test_summary_and_figures_render():
    snap = compute(*PAPER_F2, 1.0, "ref")
    text = snapshot_summary(snap)
    assert "global min: rot at theta = 0.0000, F = 12.000000" in text
    for fig in (snapshot_figure(snap), landscape_figure(snap.landscape, critical_points_2x2(np.eye(2))),
                two_circles_figure()):
        assert fig.axes
        matplotlib.pyplot.close(fig)
