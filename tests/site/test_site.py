"""The course site as built (``tools/build_site.py``, warnings as errors): complete, offline, linked.

The ``built_site`` fixture (tests/conftest.py) builds it once per session; a build warning fails
every test here. What is checked on the built HTML:

* every notebook, every docs page and every module of the package has its page;
* the notebooks are shown from their stored outputs: each figure they store is on their page,
  widgets appear as their text fallback and the picture they stored, and no widget manager or
  widget state is shipped;
* nothing is *loaded* from another host: scripts, style sheets, icons and preloads, images, frames,
  media, and ``url()`` / ``@import`` in style sheets and style attributes (plain links ``<a href>`` to
  papers and repositories are fine);
* every relative link, script, style sheet and image points at a file of the site, and every
  ``#fragment`` at an id of its target page.
"""
from __future__ import annotations

import html as html_text
import json
import pkgutil
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import obcd_lite
from obcd_lite.widgets.base import FALLBACK_TEXT

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: The hand-written pages (docs/api and docs/notebooks are generated at build time).
DOCS_PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md")
                    if p.relative_to(ROOT / "docs").parts[0] not in ("api", "notebooks", "generated"))  # generated/: included, not pages
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: (tag, attribute) pairs whose URL the browser fetches on its own; <link> only for these rel values.
LOADING = {("script", "src"), ("img", "src"), ("img", "srcset"), ("iframe", "src"), ("source", "src"),
           ("source", "srcset"), ("video", "src"), ("video", "poster"), ("audio", "src"), ("embed", "src"),
           ("object", "data"), ("input", "src"), ("link", "href")}
LOADING_REL = {"stylesheet", "preload", "modulepreload", "prefetch", "icon", "shortcut", "apple-touch-icon",
               "manifest", "mask-icon"}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""")


class Page(HTMLParser):
    """The URLs an HTML page loads, the URLs it links to, and its element ids."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.loads: list[str] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self._in_style = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        rel = set((attrs.get("rel") or "").lower().split())
        for (t, attr) in LOADING:
            value = attrs.get(attr)
            if t != tag or not value:
                continue
            if tag == "link" and not rel & LOADING_REL:
                self.links.append(value)
                continue
            urls = [part.split()[0] for part in value.split(",") if part.strip()] if attr == "srcset" else [value]
            self.loads += urls
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        self.loads += [m[0] or m[1] for m in CSS_URL.findall(attrs.get("style") or "")]
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.loads += [m[0] or m[1] for m in CSS_URL.findall(data)]


def _external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.netloc) or parts.scheme not in ("", "data")


@pytest.fixture(scope="module")
def pages(built_site) -> dict[Path, Page]:
    return {path: Page(path.read_text(encoding="utf-8")) for path in sorted(built_site.rglob("*.html"))}


def test_every_notebook_page_and_module_has_a_page(built_site):
    missing = [f"notebooks/{nb.stem}.html" for nb in NOTEBOOKS]
    missing += [str(page.relative_to(ROOT / "docs").with_suffix(".html")) for page in DOCS_PAGES]
    modules = ["obcd_lite"] + [m.name for m in pkgutil.walk_packages(obcd_lite.__path__, "obcd_lite.")]
    missing += [f"api/{name}.html" for name in modules]
    assert len(missing) > len(NOTEBOOKS) + len(modules)  # the docs pages were found
    assert [page for page in missing if not (built_site / page).is_file()] == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_page_shows_the_stored_outputs(built_site, notebook):
    stored = json.loads(notebook.read_text(encoding="utf-8"))
    outputs = [o for cell in stored["cells"] for o in cell.get("outputs", [])]
    figures = sum("image/png" in o.get("data", {}) for o in outputs)
    widgets = sum("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    widget_state = stored["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    widget_figures = sum("image/png" in o.get("data", {}) for m in widget_state.values()
                         if m["model_name"] == "OutputModel" for o in m["state"].get("outputs", []))
    html = (built_site / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
    images = re.findall(r"<img [^>]*src=\"([^\"]+)\"", html)
    # Every stored figure, plus each widget's stored picture (a figure shown twice is stored once).
    assert figures <= len(images) <= figures + widget_figures
    assert html.count(html_text.escape(FALLBACK_TEXT, quote=False)) == widgets
    assert WIDGET_STATE not in html and "widget-view+json" not in html
    assert "embed-amd" not in html and "require.js" not in html.lower()


def test_no_page_loads_anything_from_another_host(built_site, pages):
    external = {f"{page.relative_to(built_site)}: {url}" for page, parsed in pages.items()
                for url in parsed.loads if _external(url)}
    for css in built_site.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        external |= {f"{css.relative_to(built_site)}: {m[0] or m[1]}" for m in CSS_URL.findall(text)
                     if _external(m[0] or m[1])}
    assert sorted(external) == []
    assert sum(len(parsed.loads) for parsed in pages.values()) > len(pages)  # the parser saw the scripts


def test_math_is_typeset_by_the_local_mathjax(built_site):
    index = (built_site / "index.html").read_text(encoding="utf-8")
    script = re.search(r'<script [^>]*src="(_static/mathjax/MathJax\.js[^"]*)"', index)
    assert script, "index.html does not load the site's own MathJax"
    assert (built_site / urlsplit(script[1]).path).is_file()
    assert 'MathJax.Hub.Config' in index  # the MathJax 2 configuration, not a MathJax 3/4 one


def test_every_internal_link_and_anchor_exists(built_site, pages):
    broken = []
    for page, parsed in pages.items():
        for url in parsed.loads + parsed.links:
            parts = urlsplit(url)
            if _external(url) or url.startswith("data:") or url.startswith("mailto:"):
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            where = f"{page.relative_to(built_site)}: {url}"
            if not target.is_file():
                broken.append(f"{where} (no file)")
            elif parts.fragment and target.suffix == ".html" and target in pages \
                    and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{where} (no id {parts.fragment!r})")
    assert broken == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_site_is_the_student_edition(built_site, notebook):
    """``make site`` publishes the student edition: no solution, no hidden test, no grading markup and
    no answer line (each is ``...  # your answer``); the instructor edition needs EDITION=instructor."""
    html = html_text.unescape((built_site / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8"))
    for leak in ("One possible solution", "BEGIN TEST CONFIG", "BEGIN QUESTION", "# answer\n"):
        assert leak not in html
    stored = json.loads(notebook.read_text(encoding="utf-8"))
    answers = sum("answer" in c["metadata"].get("tags", []) for c in stored["cells"])
    assert html.count("# your answer") >= answers


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_has_an_alt_text_from_its_caption(built_site, notebook):
    html = (built_site / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
    for tag in re.findall(r"<img [^>]*>", html):
        alt = re.search(r'alt="([^"]*)"', tag)
        assert alt is not None, tag
        assert alt[1].startswith("Figure: ") and len(alt[1]) > 20 and not re.search(r"[0-9a-f]{32}", alt[1]), tag
