"""The wiring of notebook 01's explorer (obcd_lite.widgets.o2), driven in-process."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from obcd_lite.widgets.base import FALLBACK_TEXT, Explorer  # noqa: E402
from obcd_lite.widgets.o2 import o2_explorer  # noqa: E402


def test_sliders_drive_the_figure_and_the_data():
    ex = o2_explorer()
    controls, out, state = ex.controls, ex.out, ex.state
    assert isinstance(ex, Explorer)
    assert state["redraws"] == 1 and len(state["value"].critical) == 4
    # the text under the figure: a rendered one-row table (where the runs end, the global min, det Q)
    assert ex.text.value.count("<table") == 1 and "<pre" not in ex.text.value
    assert "<th>global minimum</th>" in ex.text.value and "<td>&lt; 1e-12</td>" in ex.text.value
    assert len(out.outputs) == 1 and "text/plain" in out.outputs[0]["data"]
    # Move to the paper's second example, one slider at a time.
    controls["t21"].value = 1.0
    controls["t22"].value = 2.0
    controls["mu"].value = 5.0
    snap = state["value"]
    assert state["redraws"] == 4
    assert np.array_equal(snap.T, [[1.0, 0.0], [1.0, 2.0]]) and snap.mu == 5.0
    assert len(snap.critical) == 16 and len(out.outputs) == 1
    controls["start_branch"].value = "ref"
    assert set(state["value"].cayley.branches) == {"ref"}
    before = state["value"].cayley.thetas[0]
    controls["start_theta"].value = 2.5
    assert state["value"].cayley.thetas[0] == pytest.approx(2.5) != before
    controls["start_theta"].value = 2.5  # same value: no redraw
    assert state["redraws"] == 6


def test_alpha_slider_changes_the_bs2_points():
    """F1 has one BS2-point for small alpha and two once alpha >= sqrt(5) - 1 (notebook 01)."""
    ex = o2_explorer()
    assert len(ex.state["value"].bs2) == 1
    ex.controls["alpha"].value = 2.0
    assert ex.state["value"].alpha == pytest.approx(2.0) and len(ex.state["value"].bs2) == 2


def test_sliders_are_wide_and_the_fallback_is_text():
    ex = o2_explorer()
    for name in ("mu", "alpha", "start_theta"):  # 456 px: a 304 px track beside label and readout (measured)
        width = int(ex.controls[name].layout.width.rstrip("px"))
        label = int(ex.controls[name].style.description_width.rstrip("px"))
        assert width - (label + 8) - 12 - 76 >= 300
    bundle = ex._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"] == FALLBACK_TEXT and "VBox" not in data["text/plain"]


def test_orbit_explorer_redraws_on_the_slider():
    from obcd_lite.widgets.o2 import orbit_explorer

    ex = orbit_explorer(k=3)
    assert ex.state["value"]["k"] == 3 and ex.state["value"]["closes"]
    ex.controls["k"].value = 7
    assert ex.state["redraws"] == 2 and len(ex.state["value"]["thetas"]) == 7 and len(ex.out.outputs) == 1
    assert ex.text.value == "<p>k = 7: rot(2π/7)⁷ = I (to 1e-12): True</p>"  # a typeset sentence, no <pre>


def test_timed_updates_leave_the_explorer_as_its_text_describes():
    """Notebook 01's timing cell moves mu; afterwards the explorer is back at the F1 setting."""
    from obcd_lite.widgets.base import timed_updates

    ex = o2_explorer()
    before = ex.state["value"]
    seconds = timed_updates(ex, "mu", (5.0, 2.5, 1.0))
    assert len(seconds) == 3 and all(s >= 0 for s in seconds)
    assert ex.controls["mu"].value == 0.0 and ex.state["value"].mu == 0.0
    assert len(ex.state["value"].critical) == len(before.critical) == 4
