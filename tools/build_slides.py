"""reveal.js slides from the cells of notebooks 01-03 tagged ``slide`` (``make slides``).

    python tools/build_slides.py build/slides [--notebooks 01 02 03]

Each tagged markdown cell is one slide (its markdown rendered, math typeset by MathJax); each tagged
code cell is one slide with the figure it stored (alt text from its caption, as on the site). The
slides follow the 90-minute lecture path of the Teaching page (docs/course.md); an instructor adds a
slide by adding the tag ``slide`` to a cell.

reveal.js comes from the npm registry at build time (``npm pack reveal.js@REVEAL_VERSION``, kept in
``build/npm/`` for the next build) and MathJax from the ``jupyter_server_mathjax`` wheel, both copied
into the output folder: the slides load nothing from outside when they are shown (open
``build/slides/index.html``, no server needed). ``tests/browser/test_slides.py`` checks them in Chromium.
"""
from __future__ import annotations

import argparse
import base64
import html
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
REVEAL_VERSION = "6.0.2"
TAG = "slide"
DEFAULT_NOTEBOOKS = ("01", "02", "03")
MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^$\n]+?\$", re.S)


def _site_conf():
    """docs/conf.py as a module: its MathJax configuration and figure alt texts, shared with the site."""
    spec = importlib.util.spec_from_file_location("site_conf", ROOT / "docs" / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reveal_dist(cache: Path) -> Path:
    """reveal.js's ``dist`` folder from the npm registry (``npm pack``; the tarball kept in ``cache``)."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"reveal.js-{REVEAL_VERSION}.tgz"
    if not tarball.is_file():
        subprocess.run(["npm", "pack", f"reveal.js@{REVEAL_VERSION}", "--silent"], cwd=cache, check=True,
                       capture_output=True)
    unpacked = cache / f"reveal.js-{REVEAL_VERSION}"
    if not (unpacked / "package" / "dist" / "reveal.js").is_file():
        with tarfile.open(tarball) as archive:
            archive.extractall(unpacked, filter="data")
    return unpacked / "package" / "dist"


def markdown_html(text: str) -> str:
    """Markdown to HTML with the math left for MathJax, untouched by the markdown parser."""
    from markdown_it import MarkdownIt

    formulas: list[str] = []

    def hold(match: re.Match) -> str:
        formulas.append(match[0])
        return f"MATHPLACEHOLDER{len(formulas) - 1}X"

    rendered = MarkdownIt("commonmark", {"html": False}).enable("table").render(MATH.sub(hold, text))
    return re.sub(r"MATHPLACEHOLDER(\d+)X", lambda m: html.escape(formulas[int(m[1])], quote=False), rendered)


def slides_of(notebook: dict, images: Path, stem: str) -> list[str]:
    """The ``<section>`` of every tagged cell; figures are written into ``images``."""
    sections = []
    for index, cell in enumerate(notebook["cells"]):
        if TAG not in cell.get("metadata", {}).get("tags", []):
            continue
        if cell["cell_type"] == "markdown":
            sections.append(f'<section class="text">{markdown_html("".join(cell["source"]))}</section>')
            continue
        alt = cell["metadata"].get("mystnb", {}).get("image", {}).get("alt", "Figure")
        pictures = [o["data"]["image/png"] for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        if not pictures:
            raise ValueError(f"{stem}: cell {index} is tagged {TAG!r} but stores no figure")
        for number, picture in enumerate(pictures):
            name = f"{stem}-{index}-{number}.png"
            (images / name).write_bytes(base64.b64decode(picture))
            sections.append(f'<section class="figure"><img src="img/{name}" alt="{html.escape(alt)}"></section>')
    return sections


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
.reveal section.figure img {{ width: 92%; max-height: 720px; object-fit: contain; margin: 0 auto; }}
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
<script>
Reveal.initialize({{hash: true, center: false, width: 1280, height: 800, transition: 'none'}}).then(() => {{
  window.slidesReady = true;
}});
</script>
</body>
</html>
"""


def build(out: Path, numbers=DEFAULT_NOTEBOOKS) -> list[Path]:
    """Write one deck per notebook and an index into ``out``; returns the decks."""
    conf = _site_conf()
    dist = reveal_dist(ROOT / "build" / "npm")
    shutil.rmtree(out, ignore_errors=True)
    (out / "img").mkdir(parents=True)
    shutil.copytree(dist, out / "reveal", ignore=shutil.ignore_patterns("*.d.ts", "*.mjs", "*.map"))
    shutil.copytree(conf.MATHJAX_SOURCE, out / "mathjax")
    config = {**conf.mathjax2_config,
              "tex2jax": {"inlineMath": [["$", "$"]], "displayMath": [["$$", "$$"]], "processEscapes": True}}
    decks, links = [], []
    for number in numbers:
        (path,) = sorted((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
        notebook = conf.figure_alt_texts(json.loads(nbformat.writes(nbformat.read(path, as_version=4))))
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
