"""The reveal.js slides (``make slides``, tools/build_slides.py) in a real browser, like the site.

The decks are built once into a temporary folder (reveal.js from the npm registry at build time), served
on 127.0.0.1 and opened in headless Chromium. For each deck of notebooks 01-03 the test checks that
reveal.js started and shows every tagged cell as a slide, that MathJax (the deck's own copy) typeset
every formula and left no raw ``$``, that every figure loaded and has an alt text from its caption, that
nothing was requested from another host and the console logged no error; and it screenshots the first
slide and the first figure to ``artifacts/screenshots/slides-<deck>-*.png``. Every wait is bounded by
``conftest.LIVENESS`` only (a liveness bound, not a speed check).
"""
from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from .conftest import LIVENESS, TYPESET_JS, VIEWPORT, liveness, served, watched_page

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
DECKS = [p.stem for n in ("01", "02", "03") for p in sorted((ROOT / "notebooks").glob(f"{n}_*.ipynb"))]
LOCAL_HOST = "127.0.0.1"

STATE_JS = """() => ({
    slides: Reveal.getTotalSlides(),
    math: document.querySelectorAll('.MathJax, .MathJax_Display').length,
    mathErrors: document.querySelectorAll('.MathJax .merror').length,
    text: (() => { const b = document.querySelector('.slides').cloneNode(true);
                   b.querySelectorAll('script, .MathJax_Preview, .MJX_Assistive_MathML').forEach(e => e.remove());
                   return b.textContent; })(),
    alts: [...document.images].map(img => img.getAttribute('alt') || ''),
})"""
IMAGES_JS = """() => Promise.all([...document.images].map(img => img.decode().then(
    () => img.naturalWidth, () => 0)))"""


def _tagged_cells(stem: str) -> int:
    cells = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    return sum("slide" in c["metadata"].get("tags", []) for c in cells)


@pytest.fixture(scope="module")
def slides_url(tmp_path_factory):
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: make slides takes reveal.js from the npm registry")
    spec = importlib.util.spec_from_file_location("build_slides", ROOT / "tools" / "build_slides.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path_factory.mktemp("slides")
    tool.build(out)
    with served(out, LOCAL_HOST) as url:
        yield url


@pytest.mark.parametrize("deck", DECKS)
def test_slides_in_a_real_browser(browser, slides_url, deck):
    context = browser.new_context(viewport=VIEWPORT)
    page, outside, failed, errors = watched_page(context, LOCAL_HOST)
    try:
        with liveness(deck):
            page.goto(f"{slides_url}/{deck}.html", wait_until="load")
            page.wait_for_function("() => window.slidesReady === true", timeout=LIVENESS * 1000)
            page.wait_for_function(TYPESET_JS, timeout=LIVENESS * 1000)
            widths = page.evaluate(IMAGES_JS)
            state = page.evaluate(STATE_JS)
            page.wait_for_load_state("networkidle")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"slides-{deck}-title.png"))
            figure = page.locator("section.figure").first
            page.evaluate("(i) => Reveal.slide(i)", page.evaluate(
                "() => [...document.querySelectorAll('.slides > section')]"
                ".findIndex(s => s.classList.contains('figure'))"))
            figure.wait_for(state="visible")
            page.screenshot(path=str(SCREENSHOTS / f"slides-{deck}-figure.png"))
    finally:
        context.close()

    assert outside == [], "requests left the machine"
    assert failed == [] and errors == []
    assert state["slides"] >= _tagged_cells(deck) >= 8
    assert state["math"] > 5 and state["mathErrors"] == 0
    dollars = [part for part in state["text"].split("$")[1::2] if part and len(part) < 200 and "\n" not in part]
    assert dollars == [], f"raw $...$ left in the text: {dollars[:5]}"
    assert widths and 0 not in widths, "figures that did not load"
    assert all(alt.startswith("Figure: ") and len(alt) > 20 for alt in state["alts"])
