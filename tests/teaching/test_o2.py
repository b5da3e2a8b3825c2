"""The pure compute of notebook 01's explorer (obcd_lite.teaching.o2)."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.teaching.o2 import compute, orbit_summary, rotation_orbit, snapshot_row

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
    with pytest.raises(ValueError, match="alpha"):
        compute(*PAPER_F1, 0.0, "rot", alpha=0.0)


def test_summary_names_the_global_minimum():
    snap = compute(*PAPER_F2, 1.0, "ref")
    row = snapshot_row(snap)
    assert row["global"] == "rot, theta = 0.0000, F = 12.000000"
    branch, theta, value = snap.obcd.final  # the runs' cells are their last iterates, rounded by rounding.fmt
    assert row["obcd"] == f"{branch}, theta = {theta:.4f}, F = {value:.6f}"
    assert row["det_q"] == "< 1e-12"  # det Q = 1 exactly; its rounding prints as a bound


def test_det_q_is_empty_without_a_cayley_step():
    snap = compute(*PAPER_F2, 1.0, "ref")
    stalled = type(snap)(**{**snap.__dict__, "cayley_det_Q": np.array([])})
    assert snapshot_row(stalled)["det_q"] == "" and snapshot_row(snap)["det_q"]


@pytest.mark.parametrize("k", [1, 5, 12])
def test_orbit_summary_is_one_line(k):
    text = orbit_summary(rotation_orbit(k))
    assert text == f"k = {k}: rot(2π/{k})^{k} = I (to 1e-12): True" and "\n" not in text


def test_summary_ties_go_to_the_first_critical_point():
    """T = 0, mu = 0: F = 2 on all of O(2); the critical points tie and the first (rot) is named, on every CPU."""
    snap = compute(0.0, 0.0, 0.0, 0.0, 0.0, 1.0, "ref")
    assert snapshot_row(snap)["global"].startswith("rot, ")
