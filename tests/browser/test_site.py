"""The course site in a real browser: typeset math, loaded figures, no console error, nothing fetched from outside.

The site built by the ``built_site`` fixture (tests/conftest.py, warnings as errors) is served by
``http.server`` on 127.0.0.1 (a free port) and opened in headless Debian Chromium (the ``browser``
fixture of this folder; skipped without Chromium except under CI). For the index, every notebook's
page and one API page the test checks that

* every request stayed on 127.0.0.1 (any other host is recorded and aborted);
* MathJax (the site's own copy) typeset every math element, and no raw ``$…$``, ``\\(…\\)`` or
  ``\\[…\\]`` is left in the visible text (code blocks aside);
* every ``<img>`` loaded (natural width > 0);
* the console logged no error and no request failed;

and saves a screenshot of the top of each page to ``artifacts/screenshots/site-<page>.png``
(a notebook page also one of its first explorer, shown as its text fallback and stored picture).

Every wait (loading, MathJax's typesetting, the network going idle) is bounded by ``conftest.LIVENESS``
only, a liveness bound (the long API and errata pages took over 60 s to typeset on a loaded 2-core
machine); math on a page that loads no MathJax fails at once (that wait would never end).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from obcd_lite.widgets.base import FALLBACK_TEXT

from .conftest import LIVENESS, TYPESET_JS, VIEWPORT, liveness, served, watched_page

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
#: The landing page, every notebook's page (found by glob) and an API page.
PAGES = (["index.html"] + [f"notebooks/{nb.stem}.html" for nb in sorted((ROOT / "notebooks").glob("*.ipynb"))]
         + ["api/obcd_lite.stiefel.html", "errata.html", "benchmarks/parallel_grids.html"])  # the widest tables
#: A page known to hold math, figures and an explorer: the checks below are not vacuous.
RICH_PAGE = "notebooks/01_rotation_vs_reflection.html"
LOCAL_HOST = "127.0.0.1"

# The visible text without code blocks and scripts (MathJax keeps each formula's TeX in a script).
VISIBLE_TEXT_JS = """() => {
    const body = document.body.cloneNode(true);
    body.querySelectorAll('pre, code, script, style, .MathJax_Preview, .MJX_Assistive_MathML').forEach(e => e.remove());
    return body.textContent;
}"""
# Sphinx's math elements (MathJax's own inner spans are class "math" too, without "notranslate").
MATH_COUNTS_JS = """() => ({
    math: document.querySelectorAll('.math.notranslate').length,
    typeset: document.querySelectorAll('.math.notranslate').length
        - [...document.querySelectorAll('.math.notranslate')].filter(e => !e.querySelector(
            '.MathJax, .MathJax_Display, .MathJax_SVG, .MathJax_SVG_Display')).length,
    errors: document.querySelectorAll('.MathJax .merror, .mjx-merror, [data-mjx-error]').length,
})"""
HAS_MATHJAX_JS = """() => [...document.scripts].some(s => /mathjax/i.test(s.src || ''))"""
IMAGES_JS = """() => Promise.all([...document.images].map(img => img.decode().then(
    () => [img.getAttribute('src').slice(0, 80), img.naturalWidth],
    () => [img.getAttribute('src').slice(0, 80), 0])))"""


#: Tables whose visible right edge runs past the content column (under the "On this page" panel): a
#: table inside a box that scrolls sideways is visible up to that box's edge (Furo's table wrappers
#: reach 6 px past the column by design, hence the 8 px).
OVERFLOWING_TABLES_JS = """() => { const article = document.querySelector('article');
  if (!article) return [];
  const right = article.getBoundingClientRect().right;
  const visibleRight = (table) => {
    let edge = table.getBoundingClientRect().right;
    for (let e = table.parentElement; e && e !== article; e = e.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX)) {
        edge = Math.min(edge, e.getBoundingClientRect().right);
      }
    }
    return edge;
  };
  return [...article.querySelectorAll('table')].filter(t => visibleRight(t) > right + 8)
    .map(t => t.textContent.trim().slice(0, 60)); }"""


@pytest.fixture(scope="module")
def site_url(built_site):
    """The built site served on 127.0.0.1 at a free port, for this module."""
    with served(built_site, LOCAL_HOST) as url:
        yield url


@pytest.mark.parametrize("page_path", PAGES)
def test_site_page_in_a_real_browser(browser, site_url, page_path):
    context = browser.new_context(viewport=VIEWPORT)
    page, outside, failed, errors = watched_page(context, LOCAL_HOST)
    try:
        with liveness(page_path):
            page.goto(f"{site_url}/{page_path}", wait_until="load")
            counts = page.evaluate(MATH_COUNTS_JS)
            if counts["math"]:
                # Sphinx loads MathJax only on pages with math of their own: math elsewhere (a title in the
                # navigation) would stay raw TeX and the wait below would never end
                assert page.evaluate(HAS_MATHJAX_JS), (
                    f"{page_path}: math on the page but no MathJax loaded (raw TeX)")
                page.wait_for_function(TYPESET_JS, timeout=LIVENESS * 1000)
                counts = page.evaluate(MATH_COUNTS_JS)
            images = page.evaluate(IMAGES_JS)
            text = page.evaluate(VISIBLE_TEXT_JS)
            overflowing = page.evaluate(OVERFLOWING_TABLES_JS)
            page.wait_for_load_state("networkidle")  # MathJax's fonts and extensions arrived (or failed)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = Path(page_path).stem
            page.screenshot(path=str(SCREENSHOTS / f"site-{name}.png"))
            explorer = page.get_by_text(FALLBACK_TEXT).first
            if explorer.count():
                explorer.scroll_into_view_if_needed()
                page.screenshot(path=str(SCREENSHOTS / f"site-{name}-explorer.png"))
    finally:
        context.close()

    assert outside == [], "requests left the machine"
    assert failed == [] and errors == []
    assert counts["typeset"] == counts["math"] and counts["errors"] == 0, counts
    assert page_path != RICH_PAGE or counts["math"] > 10
    assert [src for src, width in images if width == 0] == [], "images that did not load"
    assert overflowing == [], "tables wider than the content column (docs/_static/site.css)"
    assert page_path != RICH_PAGE or len(images) >= 3
    for raw in ("\\(", "\\)", "\\[", "\\]"):
        assert raw not in text, f"raw {raw} left in the text"
    dollars = [part for part in text.split("$")[1::2] if part and len(part) < 200 and "\n" not in part]
    assert dollars == [], f"raw $...$ left in the text: {dollars[:5]}"
