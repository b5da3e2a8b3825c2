"""The explorer of notebook 05: its compute from pytest, and the wiring driven in-process."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from obcd_lite.teaching.hierarchy import explore  # noqa: E402
from obcd_lite.widgets.hierarchy import build_explorer  # noqa: E402


def test_compute_classifies_a_solver_output():
    e = explore(n=3, r=1, penalty="zero", k=2, seed=1)
    assert e.classification.levels["critical"] and e.classification.levels["BS2"]
    assert e.classification.global_min is not None  # 2 angles: searched
    assert "strongest level" in e.summary()
    e = explore(n=5, r=2, penalty="l1", seed=0)
    assert e.classification.global_min is None and "BS2" in e.classification.levels


def test_widget_redraws_and_reports_errors():
    ex = build_explorer(n=3, r=1, penalty="zero")
    assert ex.state["redraws"] == 1 and ex.state["error"] is None
    ex.controls["seed"].value = 2
    assert ex.state["redraws"] == 2
    ex.controls["penalty"].value = "l1"
    ex.controls["k"].value = 3  # OBCD k = 3 needs h = 0: shown as a message, not a crash
    assert "needs h = Zero()" in ex.state["error"]
    ex.controls["k"].value = 2
    assert ex.state["error"] is None


def test_the_relatives_in_the_explorer():
    """rcd / obcd_step decline l1 as a message; on h = 0 every relative runs and is classified."""
    ex = build_explorer(n=3, r=1, penalty="l1")
    for name in ("rcd", "obcd_step"):
        ex.controls["solver"].value = name
        assert "handles smooth f only" in ex.state["error"]
    ex.controls["penalty"].value = "zero"
    for name in ("rcd", "obcd_step", "obcd_rot"):
        ex.controls["solver"].value = name
        assert ex.state["error"] is None
    e = explore(n=4, r=1, penalty="zero", k=3, solver="obcd_step")
    assert e.solver == "obcd_step (k = 3)" and e.result.solver == "obcd_step"
    assert explore(n=4, r=1, penalty="l1", solver="obcd_rot").result.solver == "obcd_rot"


def test_bad_r():
    with pytest.raises(ValueError, match="r must be an integer with 1 <= r <= n = 3"):
        explore(n=3, r=4)


def test_an_invalid_combination_clears_the_figure_and_says_why():
    """k = 3 with l0: no figure of the earlier k = 2 setting stays; the text names the reason."""
    ex = build_explorer(n=3, r=1, penalty="l0")
    assert len(ex.out.outputs) == 1
    ex.controls["k"].value = 3
    assert ex.out.outputs == () and ex.state["value"] is None
    text = ex.text.value
    assert "cannot be shown" in text and "needs h = Zero()" in text
    ex.controls["k"].value = 2
    assert len(ex.out.outputs) == 1 and ex.state["error"] is None
