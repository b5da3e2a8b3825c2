"""The wiring of notebook 02's stepper (obcd_lite.widgets.breakpoint), driven in-process."""
import matplotlib

matplotlib.use("Agg")

from obcd_lite import NonNeg  # noqa: E402
from obcd_lite.teaching.breakpoint import STAGES  # noqa: E402
from obcd_lite.widgets.breakpoint import breakpoint_stepper, step_button  # noqa: E402


def test_widget_step_and_seed_change():
    ex = breakpoint_stepper(rng=4, penalty="l0", stage=0)
    button = step_button(ex)
    assert ex.state["value"]["stage"] == 0 and len(ex.out.outputs) == 1
    for want in (1, 2, 3, 0):
        button.click()
        assert ex.state["value"]["stage"] == want
    button.click()
    ex.controls["rng"].value = 7
    assert ex.state["value"]["seed"] == 7 and ex.state["value"]["stage"] == 1  # the stage is kept
    ex.controls["penalty"].value = "nonneg"
    assert ex.state["value"]["h"].__class__ is NonNeg
    text = ex.text.value  # rendered tables (the coefficients, then the candidates), never a <pre> dump
    assert "<p><b>seed 7, h = NonNeg(), stage 1: candidates</b></p>" in text
    assert text.count("<table") == 2 and "<pre" not in text and "<td>candidates</td>" in text
    assert "text/plain" in ex.out.outputs[0]["data"]


def test_stepper_starts_with_everything_drawn():
    ex = breakpoint_stepper()
    assert ex.state["value"]["stage"] == len(STAGES) - 1 and "chosen" in ex.state["value"]
    assert "<td>chosen</td>" in ex.text.value and "<td>brute force</td>" in ex.text.value
