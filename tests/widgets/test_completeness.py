"""The wiring of notebook 03's step slider (obcd_lite.widgets.completeness), driven in-process."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from obcd_lite.teaching.completeness import jacobi_givens_qr, random_orthogonal  # noqa: E402
from obcd_lite.teaching.completeness_steps import step_title  # noqa: E402
from obcd_lite.widgets.completeness import factor_explorer  # noqa: E402


@pytest.fixture
def D_and_factors():
    D = random_orthogonal(6, -1, 0)
    return D, jacobi_givens_qr(D)


def test_slider_redraws_output(D_and_factors):
    D, factors = D_and_factors
    explorer = factor_explorer(D, factors)
    assert explorer.state["value"]["step"] == 0
    first = explorer.out.outputs
    assert len(first) == 1 and "Figure" in first[0]["data"]["text/plain"]
    explorer.controls["step"].value = 7
    assert explorer.state["value"]["step"] == 7 and explorer.state["value"]["pair"] == factors[6][:2]
    assert step_title(explorer.state["value"]).startswith("step 7 of 15")
    # the status under the figure is that line as a typeset sentence (θ, ‖·‖), not a monospace block
    assert explorer.text.value.startswith("<p>step 7 of 15: rows ") and "θ = " in explorer.text.value
    assert "‖remaining − I‖<sub>F</sub>" in explorer.text.value and "<pre" not in explorer.text.value
    assert explorer.out.outputs is not first and len(explorer.out.outputs) == 1
    explorer.controls["step"].value = len(factors)
    assert explorer.state["value"]["error"] <= 1e-12 and explorer.state["value"]["branch"] == "ref"
