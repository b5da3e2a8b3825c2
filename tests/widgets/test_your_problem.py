"""Notebook 08's explorer driven in-process: redraws, messages for declines, the cache."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")

from obcd_lite.widgets.your_problem import build_explorer  # noqa: E402


def test_widget_redraws_and_reports_declines():
    ex = build_explorer(problem="factorization", penalty_name="nonneg", max_iter=1000)
    assert ex.state["redraws"] == 1 and ex.state["error"] is None
    text_before = ex.state["value"].summary()
    ex.controls["lam"].value = 0.001  # unused with X >= 0: cached run, new text
    assert ex.state["redraws"] == 2 and ex.state["value"].summary() != text_before
    ex.controls["solver"].value = "rsubgrad"
    assert "rsubgrad declines" in ex.state["error"]
    ex.controls["penalty_name"].value = "l1"
    assert ex.state["error"] is None and ex.state["value"].solver == "rsubgrad"
    ex.controls["problem"].value = "quartic"
    ex.controls["penalty_name"].value = "nonneg"  # the quartic's random start has negative entries
    assert "infeasible" in ex.state["error"]
