"""The helpers of ``docs/conf.py``: plain-text math in docstrings, widgets shown from their stored state."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def conf():
    spec = importlib.util.spec_from_file_location("site_conf", ROOT / "docs" / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _escaped(conf, lines: list[str]) -> list[str]:
    lines = list(lines)
    conf.plain_text_docstring(None, "function", "f", None, {}, lines)
    return lines


def test_plain_text_math_is_escaped_outside_literals(conf):
    assert _escaped(conf, ["||X||_F and |x_i| at (c_, s_)."]) == [r"\|\|X\|\|_F and \|x_i\| at (c\_, s\_)."]
    # literals and roles stay as written; a literal glued to a character gets reST's escaped space
    assert _escaped(conf, ["``|x|`` and :math:`|x|` with ``W``^4"]) == [r"``|x|`` and :math:`|x|` with ``W``\ ^4"]
    # a literal block (after ::) is left alone, and escaping resumes after it
    block = ["Example::", "", "    |x| = c_", "", "Then |y|."]
    assert _escaped(conf, block) == ["Example::", "", "    |x| = c_", "", r"Then \|y\|."]


def test_widgets_become_their_fallback_and_stored_outputs(conf):
    picture = {"output_type": "display_data", "data": {"image/png": "AAAA", "text/plain": "<Figure>"}, "metadata": {}}
    state = {
        "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_slider", "IPY_MODEL_out"],
                                                      "layout": "IPY_MODEL_layout"}},
        "slider": {"model_name": "IntSliderModel", "state": {"value": 3}},
        "out": {"model_name": "OutputModel", "state": {"outputs": [picture]}},
        "layout": {"model_name": "LayoutModel", "state": {}},
    }
    view = {"output_type": "display_data", "metadata": {},
            "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "box"}, "text/plain": "fallback"}}
    text = {"output_type": "stream", "name": "stdout", "text": "kept"}
    notebook = {"metadata": {"widgets": {conf.WIDGET_STATE: {"state": state}}},
                "cells": [{"cell_type": "code", "outputs": [view, text]}, {"cell_type": "markdown", "source": "x"}]}
    result = conf.static_widgets(notebook)
    assert "widgets" not in result["metadata"]
    outputs = result["cells"][0]["outputs"]
    assert [o.get("data", {}).get("text/plain") for o in outputs] == ["fallback", "<Figure>", None]
    assert outputs[2] == text and "outputs" not in result["cells"][1]


def test_speaker_notes_describe_no_figure_and_stay_out_of_the_student_site(conf):
    """A notes cell between a slide's text and its figure neither becomes the figure's alt text nor reaches
    the student edition; the instructor edition shows it boxed as speaker notes."""
    notes = {"cell_type": "markdown", "metadata": {"tags": ["notes"], "slideshow": {"slide_type": "notes"}},
             "source": "Ask the room which branch wins.", "id": "n"}
    notebook = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "The rotation branch wins on this target.", "id": "m"},
        notes,
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "fig", "id": "c",
         "outputs": [{"output_type": "display_data", "data": {"image/png": "AAAA"}, "metadata": {}}]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    import copy

    student = conf.site_notebook(copy.deepcopy(notebook), "student")
    assert [c["cell_type"] for c in student["cells"]] == ["markdown", "code"]
    alt = student["cells"][1]["metadata"]["mystnb"]["image"]["alt"]
    assert "rotation branch wins" in alt and "Ask the room" not in alt
    instructor = conf.site_notebook(copy.deepcopy(notebook), "instructor")
    boxed = "".join(instructor["cells"][1]["source"])
    assert boxed.startswith("```{admonition} Speaker notes") and "Ask the room" in boxed
    assert "Ask the room" not in instructor["cells"][2]["metadata"]["mystnb"]["image"]["alt"]
