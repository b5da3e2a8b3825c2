"""tools/build_slides.py without a browser: how a slide cell is cut into slides and notes, the live
(jupyterlab-rise) copies' metadata, and reveal.js from an installed wheel (tests/browser/test_slides.py
shows the decks in Chromium)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_slides", ROOT / "tools" / "build_slides.py")
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


def test_details_and_a_closing_lead_in_go_to_the_notes():
    text = ("## 1. Title\n\n**Math.** A statement.\n\n**Code and check.** The code below:\n\n"
            "<details>\n<summary><b>For the careful reader</b></summary>\n\nThe fine print.\n\n</details>\n")
    slides, notes = tool.split_slide(text)
    assert slides == ["## 1. Title\n\n**Math.** A statement."]
    assert notes == ["**Code and check.** The code below:", "The fine print."]


def test_a_lone_lead_in_ends_in_a_full_stop():
    assert tool.split_slide("**The picture.** The branch used below):")[0] == ["**The picture.** The branch used below)."]
    assert tool.split_slide("**Lemma A.3 symbolically:**")[0] == ["**Lemma A.3 symbolically.**"]


def test_long_cells_are_cut_between_paragraphs_and_list_items():
    items = "\n".join(f"* item {i} " + "x" * 150 for i in range(6))
    text = "## Summary\n\n" + items + "\n\nA closing paragraph."
    slides, notes = tool.split_slide(text, limit=400)
    assert notes == [] and len(slides) >= 3
    assert slides[0].startswith("## Summary\n\n* item 0")  # the heading stays with what follows it
    assert "".join(slides).count("* item") == 6 and slides[-1].endswith("A closing paragraph.")
    assert all(len(s) <= 400 + 160 for s in slides)
    assert "\n* item 1" in slides[0]  # items of one list on consecutive lines, not apart


def _notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Title", metadata={"tags": ["slide"]}),
                nbformat.v4.new_markdown_cell("Say this.", metadata={"tags": ["notes"]}),
                nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_markdown_cell("Also this.", metadata={"slideshow": {"slide_type": "notes"}})]
    return nb


def test_notes_cells_go_to_the_slide_before_them(tmp_path):
    (section,) = tool.slides_of(_notebook(), tmp_path, "nb")
    assert '<aside class="notes"><p>Say this.</p>\n<p>Also this.</p>\n</aside>' in section
    assert section.startswith('<section class="text"><h1>Title</h1>')


def test_live_copies_carry_rise_slide_types():
    nb = _notebook()
    live = tool.live_notebook(nb)
    assert [c["metadata"]["slideshow"]["slide_type"] for c in live["cells"]] == ["slide", "notes", "skip", "notes"]
    assert "slideshow" not in nb.cells[0].metadata  # the notebook itself is not changed


def test_reveal_comes_from_an_installed_wheel_not_npm():
    pytest.importorskip("sphinx_revealjs")
    root = tool.reveal_root()
    assert (root / "dist" / "reveal.js").read_text(encoding="utf-8").lstrip().startswith("/*!\n * reveal.js")
    assert "npm" not in Path(tool.__file__).read_text(encoding="utf-8").split('"""', 2)[2]
