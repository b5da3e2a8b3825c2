"""The text under an explorer's figure (obcd_lite.widgets.base): a rendered table or a typeset sentence,
never a monospace dump."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from obcd_lite.viz.tables import html_table  # noqa: E402
from obcd_lite.widgets.base import _as_html, explorer  # noqa: E402


def _controls():
    import ipywidgets as widgets

    return {"k": widgets.IntSlider(value=1, min=1, max=3)}


def _figure(_value):
    return plt.figure()


def test_a_table_and_one_line_render_as_html():
    table = html_table([{"x": "alpha"}], {"x": "x"})
    assert _as_html(table) == table.html  # an HtmlTable: its HTML
    assert _as_html("<p>ready</p>") == "<p>ready</p>"  # HTML as it is
    assert _as_html("k = 3: rot(2π/3)^3 = I") == "<p>k = 3: rot(2π/3)³ = I</p>"  # one line: a typeset sentence
    assert _as_html("") == ""


@pytest.mark.parametrize("bad", ["a: 1\nb: 2", "  rot: a=+1\n  ref: a=-1\n"])
def test_several_plain_lines_are_refused(bad):
    with pytest.raises(ValueError, match="one line: several lines are a table"):
        _as_html(bad)


def test_an_explorer_with_a_plain_text_dump_cannot_be_built():
    with pytest.raises(ValueError, match="2 lines"):
        explorer(_controls(), lambda k: k, _figure, summary=lambda k: f"k: {k}\nk + 1: {k + 1}")
    ex = explorer(_controls(), lambda k: k, _figure, summary=lambda k: f"k = {k}")
    assert ex.text.value == "<p>k = 1</p>"
    ex.controls["k"].value = 2
    assert ex.text.value == "<p>k = 2</p>" and "<pre" not in ex.text.value


def test_a_summary_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="summary must be a str or an HtmlTable, got int"):
        _as_html(3)
