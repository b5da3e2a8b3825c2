"""reveal.js slides from the cells of notebooks 01-03 tagged ``slide`` (``make slides``).

    python tools/build_slides.py build/slides [--notebooks 01 02 03]

Each tagged markdown cell gives one slide per idea: its text before ``<details>`` (math typeset by
MathJax), cut at paragraph boundaries where it is longer than ``SLIDE_CHARS``; each tagged code cell
is one slide with the figure it stored, as large as the slide allows (alt text from its caption, as on
the site). The slides follow the 90-minute lecture path of the Teaching page (docs/course.md); an
instructor adds a slide by adding the tag ``slide`` to a cell.

**Speaker notes** (reveal.js's notes plugin: press ``s`` for the speaker view): the body of a slide
cell's ``<details>`` block, a closing paragraph that ends in a colon (it introduces code the slide
does not show, so the speaker says it rather than leave the slide dangling), and every markdown cell
tagged ``notes`` (or with ``slideshow.slide_type`` "notes"), which go to the slide before them.

**Live slides in JupyterLab** (jupyterlab-rise, installed with the student extra): ``build/slides/
live/NN_*.ipynb`` are copies of the notebooks whose cells carry ``slideshow.slide_type``: "slide" for
the tagged cells, "notes" for notes, "skip" for the rest. Open one in JupyterLab and press
``Alt+R`` (or the RISE button): the same lecture path, live, with a running kernel.

reveal.js and its notes plugin come from the ``sphinx-revealjs`` wheel (docs extra) and MathJax from
the ``jupyter_server_mathjax`` wheel, both copied into the output folder: the build needs only Python
(no npm) and the slides load nothing from outside when they are shown (open ``build/slides/index.html``,
no server needed). ``tests/browser/test_slides.py`` checks them in Chromium.
"""
from __future__ import annotations

import argparse
import base64
import html
import importlib.util
import json
import re
import copy
import shutil
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
TAG = "slide"
NOTES = "notes"
#: A markdown slide longer than this (characters of source) is cut at paragraph boundaries.
SLIDE_CHARS = 700
DEFAULT_NOTEBOOKS = ("01", "02", "03")
MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^$\n]+?\$", re.S)


def _site_conf():
    """docs/conf.py as a module: its MathJax configuration and figure alt texts, shared with the site."""
    spec = importlib.util.spec_from_file_location("site_conf", ROOT / "docs" / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reveal_root() -> Path:
    """reveal.js as the ``sphinx-revealjs`` wheel ships it: ``dist/`` (reveal.js, its CSS and themes) and
    ``plugin/notes/`` (the speaker view)."""
    try:
        import sphinx_revealjs
    except ImportError as error:
        raise SystemExit("make slides takes reveal.js from the sphinx-revealjs wheel: pip install -e '.[docs]' "
                         "(make install does)") from error
    root = Path(sphinx_revealjs.__file__).parent / "_static" / "revealjs"
    needed = ("dist/reveal.js", "dist/reveal.css", "plugin/notes/notes.js")
    missing = [name for name in needed if not (root / name).is_file()]
    if missing:
        raise FileNotFoundError(f"sphinx-revealjs at {root} lacks {missing}: not the layout this tool reads")
    return root


def is_notes(cell: dict) -> bool:
    """A speaker-notes cell: markdown tagged ``notes`` or with ``slideshow.slide_type`` "notes"."""
    meta = cell.get("metadata", {})
    return cell["cell_type"] == "markdown" and (
        NOTES in meta.get("tags", []) or meta.get("slideshow", {}).get("slide_type") == "notes")


def _joined(units: list[tuple[str, bool]]) -> str:
    """Paragraphs apart by a blank line, the items of one list on consecutive lines."""
    out = units[0][0]
    for (_, before_item), (text, item) in zip(units, units[1:]):
        out += ("\n" if item and before_item else "\n\n") + text
    return out


def split_slide(text: str, limit: int = SLIDE_CHARS) -> tuple[list[str], list[str]]:
    """A slide cell's markdown as (slides, notes): the text before ``<details>`` cut into slides of at
    most about ``limit`` characters at paragraph boundaries (a heading stays with what follows it); the
    details' body and a closing paragraph that ends in a colon go to the notes (a slide of one such
    paragraph keeps it, ending in a full stop)."""
    shown, _, details = text.partition("<details>")
    notes = []
    if details:
        body = re.sub(r"<summary>.*?</summary>", "", details.split("</details>")[0], flags=re.S).strip()
        notes.append(body)
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", shown) if p.strip()]
    while paragraphs and paragraphs[-1].rstrip("*_ )").endswith(":") and len(paragraphs) > 1:
        notes.insert(0, paragraphs.pop())
    # a list is cut between its items (each item with its continuation lines), never inside one
    units: list[tuple[str, bool]] = []  # (text, is a list item)
    for paragraph in paragraphs:
        items = re.split(r"\n(?=[*-] |\d+\. )", paragraph)
        is_list = len(items) > 1 and re.match(r"[*-] |\d+\. ", items[0]) is not None
        units += [(item, True) for item in items] if is_list else [(paragraph, False)]
    slides, current = [], []
    for text, item in units:
        size = sum(len(u) for u, _ in current)
        heading = current and (current[-1][0].startswith("#") or re.fullmatch(r"\*\*[^*]+\*\*", current[-1][0]))
        if current and size + len(text) > limit and not heading:
            slides.append(_joined(current))
            current = []
        current.append((text, item))
    if current:
        slides.append(_joined(current))
    if slides:  # a lone lead-in ("... below:") whose code is not on the slide: the figure follows next
        slides[-1] = re.sub(r":([*_)\s]*)$", r".\1", slides[-1])
    return slides, notes


def markdown_html(text: str) -> str:
    """Markdown to HTML with the math left for MathJax, untouched by the markdown parser."""
    from markdown_it import MarkdownIt

    formulas: list[str] = []

    def hold(match: re.Match) -> str:
        formulas.append(match[0])
        return f"MATHPLACEHOLDER{len(formulas) - 1}X"

    rendered = MarkdownIt("commonmark", {"html": False}).enable("table").render(MATH.sub(hold, text))
    return re.sub(r"MATHPLACEHOLDER(\d+)X", lambda m: html.escape(formulas[int(m[1])], quote=False), rendered)


NOTES_JOIN = "\n\n"  # each note its own paragraph


def _section(kind: str, body: str, notes: list[str]) -> str:
    aside = f'<aside class="notes">{markdown_html(NOTES_JOIN.join(notes))}</aside>' if notes else ""
    return f'<section class="{kind}">{body}{aside}</section>'


def slides_of(notebook: dict, images: Path, stem: str) -> list[str]:
    """The ``<section>`` of every tagged cell (one or more per markdown cell, see :func:`split_slide`),
    with its speaker notes; figures are written into ``images``."""
    slides: list[tuple[str, str, list[str]]] = []  # (class, html, notes)
    for index, cell in enumerate(notebook["cells"]):
        if is_notes(cell):
            if slides:  # notes before the first slide have no slide to go to
                slides[-1][2].append("".join(cell["source"]))
            continue
        if TAG not in cell.get("metadata", {}).get("tags", []):
            continue
        if cell["cell_type"] == "markdown":
            texts, notes = split_slide("".join(cell["source"]))
            for number, text in enumerate(texts):
                slides.append(("text", markdown_html(text), notes if number == len(texts) - 1 else []))
            continue
        alt = cell["metadata"].get("mystnb", {}).get("image", {}).get("alt", "Figure")
        pictures = [o["data"]["image/png"] for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        if not pictures:
            raise ValueError(f"{stem}: cell {index} is tagged {TAG!r} but stores no figure")
        for number, picture in enumerate(pictures):
            name = f"{stem}-{index}-{number}.png"
            (images / name).write_bytes(base64.b64decode(picture))
            slides.append(("figure", f'<img src="img/{name}" alt="{html.escape(alt)}">', []))
    return [_section(kind, body, notes) for kind, body, notes in slides]


def live_notebook(notebook: dict) -> dict:
    """A copy of ``notebook`` for live slides (jupyterlab-rise): ``slideshow.slide_type`` "slide" on the
    cells tagged ``slide``, "notes" on notes cells, "skip" on every other cell."""
    live = copy.deepcopy(notebook)
    for cell in live["cells"]:
        slide_type = ("notes" if is_notes(cell) else
                      "slide" if TAG in cell.get("metadata", {}).get("tags", []) else "skip")
        cell.setdefault("metadata", {})["slideshow"] = {"slide_type": slide_type}
    return live


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="stylesheet" href="reveal/reveal.css">
<link rel="stylesheet" href="reveal/theme/white.css">
<style>
.reveal {{ font-size: 26px; }}
.reveal section.text {{ text-align: left; height: 100%; overflow-y: auto; }}
.reveal section.text h1 {{ font-size: 1.6em; }} .reveal section.text h2 {{ font-size: 1.3em; }}
.reveal section.figure {{ height: 100%; }}
.reveal section.figure img {{ width: 100%; height: 780px; max-width: 100%; max-height: 780px; object-fit: contain;
  margin: 0 auto; }}
.reveal table {{ font-size: 0.7em; }}
</style>
<script>window.MathJax = {mathjax_config};</script>
<script src="mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"></script>
</head>
<body>
<div class="reveal"><div class="slides">
{sections}
</div></div>
<script src="reveal/reveal.js"></script>
<script src="reveal/plugin/notes/notes.js"></script>
<script>
Reveal.initialize({{hash: true, center: false, width: 1280, height: 800, transition: 'none',
                   plugins: [RevealNotes]}}).then(() => {{
  window.slidesReady = true;
}});
</script>
</body>
</html>
"""


def build(out: Path, numbers=DEFAULT_NOTEBOOKS) -> list[Path]:
    """Write one deck per notebook and an index into ``out``; returns the decks."""
    conf = _site_conf()
    reveal = reveal_root()
    shutil.rmtree(out, ignore_errors=True)
    (out / "img").mkdir(parents=True)
    (out / "live").mkdir()
    shutil.copytree(reveal / "dist", out / "reveal", ignore=shutil.ignore_patterns("*.d.ts", "*.mjs", "*.map"))
    shutil.copytree(reveal / "plugin" / "notes", out / "reveal" / "plugin" / "notes",
                    ignore=shutil.ignore_patterns("*.esm.js", "*.map"))
    shutil.copy(reveal / "LICENSE", out / "reveal" / "LICENSE")
    shutil.copytree(conf.MATHJAX_SOURCE, out / "mathjax")
    config = {**conf.mathjax2_config,
              "tex2jax": {"inlineMath": [["$", "$"]], "displayMath": [["$$", "$$"]], "processEscapes": True}}
    decks, links = [], []
    for number in numbers:
        (path,) = sorted((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
        original = nbformat.read(path, as_version=4)
        nbformat.write(nbformat.from_dict(live_notebook(original)), out / "live" / path.name)
        notebook = json.loads(nbformat.writes(original))
        # alt texts from the text a reader sees, not the speaker notes between a slide and its figure
        # (figure_alt_texts sets them in place, on the cells both lists share)
        conf.figure_alt_texts({"cells": [c for c in notebook["cells"] if not is_notes(c)]})
        sections = slides_of(notebook, out / "img", path.stem)
        if not sections:
            raise ValueError(f"{path.name} has no cell tagged {TAG!r}")
        title = notebook["cells"][0]["source"]
        title = "".join(title).splitlines()[0].lstrip("# ").strip()
        deck = out / f"{path.stem}.html"
        deck.write_text(PAGE.format(title=html.escape(title), mathjax_config=json.dumps(config),
                                    sections="\n".join(sections)), encoding="utf-8")
        decks.append(deck)
        links.append(f'<li><a href="{deck.name}">{html.escape(title)}</a> ({len(sections)} slides)</li>')
    (out / "index.html").write_text(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>obcd-lite slides</title></head>\n'
        f'<body><h1>obcd-lite: slides</h1><ul>\n{chr(10).join(links)}\n</ul></body></html>\n', encoding="utf-8")
    return decks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--notebooks", nargs="+", default=list(DEFAULT_NOTEBOOKS))
    args = parser.parse_args(argv)
    for deck in build(args.out.resolve(), args.notebooks):
        print(deck)
    return 0


if __name__ == "__main__":
    sys.exit(main())
