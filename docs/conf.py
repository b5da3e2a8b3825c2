"""Sphinx configuration of the course site (``make site`` -> ``build/site/``).

The site is built offline and loads nothing from another host:

* the notebooks (``notebooks/*.ipynb``, found by glob) are copied into ``docs/notebooks/`` (git-ignored;
  a symlink would not do: Sphinx resolves it, and the notebooks' links to each other break) and
  rendered from their stored outputs, never executed (``nb_execution_mode = "off"``); in the
  **student edition** (the default; ``OBCD_SITE_EDITION=instructor``, i.e. ``make site
  EDITION=instructor``, for the full one) without solutions, hidden tests and answers
  (``tools/student_edition.py``); every figure gets an alt text from its caption (:func:`figure_alt_texts`);
* widgets are shown as their stored text fallback and the picture their Output widget held when the
  notebook was recorded (:func:`static_widgets`); no widget manager is loaded;
* math is typeset by the MathJax 2.7 copy of the ``jupyter_server_mathjax`` wheel, copied into
  ``_static/mathjax`` (:func:`copy_mathjax`); the furo theme uses system fonts;
* the API reference has a page per module of ``obcd_lite`` (:func:`write_api_pages`, found by walking
  the package) made by autodoc from the numpydoc docstrings, which write their math as plain text
  (``|x|``, ``c_``): :func:`plain_text_docstring` escapes what reStructuredText would read as markup;
  a reference to a re-exported name resolves where the name is defined (:func:`resolve_reexport`).

``make site`` runs with ``-W --keep-going`` and ``nitpicky``: a broken cross-reference or an unknown role
fails the build (a public name without a docstring fails ``tests/site/test_docstrings.py``).
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import json
import logging
import os
import pkgutil
import re
import shutil
import sys
from pathlib import Path

import jupyter_server_mathjax
from sphinx.pycode import ModuleAnalyzer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # document this checkout, whatever the venv has installed

project = "obcd-lite"
author = "the obcd-lite authors"
copyright = "2026, the obcd-lite authors"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
]

exclude_patterns = ["_build", "**/.ipynb_checkpoints", "notebooks/sanitize.cfg", "generated"]  # generated/: included pages
nitpicky = True
# Docstrings write code as ``x`` and names as `x`: the latter is plain emphasis, never a cross-reference.
default_role = "emphasis"

# --- notebooks: stored outputs only ------------------------------------------------------------------
nb_execution_mode = "off"
nb_ipywidgets_js: dict = {}  # never load the widget manager (it comes from a CDN)
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_dmath_double_inline = True  # $$...$$ inside a paragraph is display math, as in JupyterLab
myst_heading_anchors = 3

# --- API reference -----------------------------------------------------------------------------------
autosummary_generate = False  # the module pages are written by write_api_pages; the tables need no pages
autodoc_typehints = "none"  # numpydoc's Parameters section says it; signatures stay readable
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

# --- offline math: the MathJax 2.7 files of the jupyter_server_mathjax wheel -------------------------
MATHJAX_SOURCE = Path(jupyter_server_mathjax.__file__).parent / "static"
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe"
myst_update_mathjax = False  # myst would write a MathJax 3/4 config, which MathJax 2 does not read
mathjax2_config = {
    "tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                "processEscapes": True, "processEnvironments": True},
    # The web font served from _static/mathjax/fonts (the wheel ships STIX-Web only); no local-font probing,
    # no image fonts. Its blank probe font is url('about:blank') (a CORS error in Chromium's console):
    # a local() that fails the same way, without a request.
    "HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web", "imageFont": None,
                 "styles": {"@font-face": {"font-family": "MathJax_Blank", "src": "local('MathJax_Blank')"}}},
    # The hidden MathML copy for screen readers (AssistiveMML) styles \mathcal & co. with the TeX web fonts,
    # which the wheel does not ship (a 404 per page): their @font-face rules fall back to local fonts.
    "NativeMML": {"styles": {
        f"@font-face /*{i}*/": {"font-family": family, "src": f"local('{family}')", **weight}
        for i, (family, weight) in enumerate([
            ("MathJax_Caligraphic-WEB", {}), ("MathJax_Caligraphic-WEB", {"font-weight": "bold"}),
            ("MathJax_AMS-WEB", {}), ("MathJax_Script-WEB", {}), ("MathJax_Fraktur-WEB", {}),
            ("MathJax_Fraktur-WEB", {"font-weight": "bold"})], start=1)}},
    "messageStyle": "none",
    "menuSettings": {"zoom": "None"},
}

# --- theme --------------------------------------------------------------------------------------------
html_theme = "furo"
html_title = "obcd-lite"
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"  # else the browser asks for /favicon.ico (a 404)
html_css_files = ["site.css"]
html_show_sourcelink = False
html_copy_source = False


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _model_outputs(state: dict, model_id: str, seen: set[str]) -> list[dict]:
    """The outputs stored in every Output widget inside the widget ``model_id`` (depth first, in order)."""
    if model_id in seen or model_id not in state:
        return []
    seen.add(model_id)
    model = state[model_id]
    found = list(model["state"].get("outputs", [])) if model.get("model_name") == "OutputModel" else []

    def children(value):
        if isinstance(value, str) and value.startswith("IPY_MODEL_"):
            yield value.removeprefix("IPY_MODEL_")
        elif isinstance(value, (list, tuple)):
            for item in value:
                yield from children(item)

    for key, value in model["state"].items():
        if key != "layout" and key != "style":
            for child in children(value):
                found += _model_outputs(state, child, seen)
    return found


def static_widgets(notebook: dict) -> dict:
    """Replace, in place, every widget view of the notebook by its text fallback and the outputs it held.

    A widget's live view needs a kernel (or a widget manager from a CDN); the site shows what the
    stored notebook recorded instead: the ``text/plain`` fallback of the view and the figures and text
    of the Output widgets inside it, from the notebook's saved widget state.
    """
    state = notebook.get("metadata", {}).pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for cell in notebook.get("cells", []):
        outputs = []
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                outputs.append(output)
                continue
            data = {key: value for key, value in output["data"].items() if key != WIDGET_VIEW}
            if data:
                outputs.append({**output, "data": data})
            outputs += _model_outputs(state, view.get("model_id", ""), set())
        if "outputs" in cell:
            cell["outputs"] = outputs
    return notebook


#: Which edition of the notebooks the site shows: "student" (default) or "instructor".
EDITION = os.environ.get("OBCD_SITE_EDITION", "student")
_MARKUP = re.compile(r"\*\*|__|`|\$|\\[,;!]|[{}]")
_TEX_WORDS = {"times": "×", "le": "≤", "ge": "≥", "leq": "≤", "geq": "≥", "pm": "±", "ldots": "…", "dots": "…",
              "to": "→", "in": "∈", "subseteq": "⊆", "supseteq": "⊇", "mathrm": "", "operatorname": "",
              "tfrac": "", "frac": "", "left": "", "right": "", "mathcal": "", "mathbf": "", "tilde": ""}
_TITLE_ARGUMENT = re.compile(r"_figure\((?:[^()]|\([^()]*\))*?,\s*(?:title=)?\"([^\"]{8,})\"")


def _plain(text: str) -> str:
    """Markdown and TeX reduced to readable text (emphasis, code marks, dollars and commands dropped)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = re.sub(r"\\([a-zA-Z]+)", lambda m: _TEX_WORDS.get(m[1], m[1]), text)  # \alpha -> alpha
    return " ".join(_MARKUP.sub("", text).split())


def _first_sentence(text: str, limit: int = 240) -> str:
    """The first sentence of a paragraph, after a bold lead-in (``**Check.**``), as plain text."""
    text = _plain(re.sub(r"^\s*\*\*[^*]{1,40}\*\*\s*", "", text))
    end = re.search(r"(?<=[.!?])\s(?=\S)", text[25:])  # a sentence of at least 25 characters
    end = re.search(r"(?<=[.!?])\s", text[:25 + end.start()]) if end else None
    text = text[:end.start()] if end else text
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


def figure_alt_texts(notebook: dict) -> dict:
    """Give every cell with a figure an alt text (myst-nb's ``mystnb.image.alt``), in place.

    The notebooks have no caption field; the caption of a figure is the title its code gives it
    (``fig = convergence_figure(..., "l1-SPCA, ...")``) and the sentence that describes it: the
    following "**Check.**" paragraph, else the last paragraph of the markdown cell before it.
    """
    cells = [c for c in notebook.get("cells", []) if not _is_notes(c)]  # the lecturer's notes describe no figure
    for i, cell in enumerate(cells):
        if not any("image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
            continue
        source = "".join(cell.get("source", ""))
        title = _TITLE_ARGUMENT.search(source)
        after = next((c for c in cells[i + 1:i + 2] if c["cell_type"] == "markdown"), None)
        before = next((c for c in reversed(cells[:i]) if c["cell_type"] == "markdown"), None)
        if after is not None and "".join(after["source"]).lstrip().startswith("**Check"):
            sentence = _first_sentence("".join(after["source"]))
        elif before is not None:
            sentence = _first_sentence("".join(before["source"]).strip().split("\n\n")[-1])
        else:
            sentence = ""
        alt = "Figure: " + "; ".join(part for part in (title[1] if title else "", sentence) if part)
        cell.setdefault("metadata", {}).setdefault("mystnb", {}).setdefault("image", {})["alt"] = alt
    return notebook


@functools.lru_cache(maxsize=None)  # loaded once: _is_notes asks it about every cell of every notebook
def _student_edition():
    spec = importlib.util.spec_from_file_location("student_edition", ROOT / "tools" / "student_edition.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _is_notes(cell: dict) -> bool:
    """A speaker-notes cell (tools/student_edition.py's ``is_notes`` on the notebook's JSON)."""
    import nbformat

    return _student_edition().is_notes(nbformat.from_dict(cell))


def speaker_notes_boxed(notebook: dict) -> dict:
    """In place: every speaker-notes cell becomes a "Speaker notes" box, set apart from the reading text
    (the instructor edition keeps the lecturer's notes; the student edition drops them)."""
    for cell in notebook.get("cells", []):
        if _is_notes(cell):
            cell["source"] = "```{admonition} Speaker notes\n:class: note\n\n" + "".join(cell["source"]) + "\n```"
    return notebook


def site_notebook(notebook: dict, edition: str = EDITION) -> dict:
    """The notebook as the site shows it: the edition's cells, static widgets, alt texts."""
    if edition not in ("student", "instructor"):
        raise ValueError(f"OBCD_SITE_EDITION must be 'student' or 'instructor', not {edition!r}")
    if edition == "student":
        import nbformat

        notebook = json.loads(nbformat.writes(_student_edition().student_notebook(
            nbformat.reads(json.dumps(notebook), as_version=4), keep_outputs=True)))
    return speaker_notes_boxed(figure_alt_texts(static_widgets(notebook)))


def copy_notebooks(source: Path = ROOT / "notebooks", target: Path = Path(__file__).parent / "notebooks") -> None:
    """Copy every ``source/*.ipynb`` as :func:`site_notebook` shows it into ``target`` (only what changed)."""
    target.mkdir(exist_ok=True)
    wanted = {path.name: path for path in sorted(source.glob("*.ipynb"))}
    for stale in set(p.name for p in target.glob("*.ipynb")) - set(wanted):
        (target / stale).unlink()
    for name, path in wanted.items():
        text = json.dumps(site_notebook(json.loads(path.read_text(encoding="utf-8"))), indent=1) + "\n"
        copy = target / name
        if not copy.is_file() or copy.read_text(encoding="utf-8") != text:
            copy.write_text(text, encoding="utf-8")


#: Markup that plain-text math in a docstring triggers by accident: a bar (``|x|``, a substitution) and a
#: word ending in ``_`` (``c_``, a reference). Inline literals and roles are left alone; a literal glued
#: to the next character (````X````^4) gets the escaped space reStructuredText needs there.
_LITERAL = re.compile(r"(``.+?``|:[\w:]+:`[^`]*`|`[^`]*`_{0,2})")
_BAR = re.compile(r"(?<!\\)\|")
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s,.;:)\]]|$)")


def plain_text_docstring(app, what, name, obj, options, lines: list[str]) -> None:
    """Escape plain-text math (bars, trailing underscores) outside literals and literal blocks, in place."""
    literal_indent = None
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if not line.strip() or indent > literal_indent:
                continue
            literal_indent = None
        if line.rstrip().endswith("::"):
            literal_indent = indent
        if line.lstrip().startswith(("..", "+-", "+=")):
            continue
        parts = _LITERAL.split(line)
        for j in range(0, len(parts), 2):  # even parts lie outside literals and roles
            text = _TRAILING_UNDERSCORE.sub(r"\\_", _BAR.sub(r"\\|", parts[j]))
            if j and re.match(r"[\w^]", text):
                text = "\\ " + text
            parts[j] = text
        lines[i] = "".join(parts)


PACKAGE = "obcd_lite"
API_DIR = Path(__file__).parent / "api"


def _write_if_changed(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _module_members(name: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The data with a ``#:`` comment and the (directive, name) of each function and class ``name`` defines."""
    module = importlib.import_module(name)
    documented_data = [attr for (scope, attr) in ModuleAnalyzer.for_module(name).find_attr_docs() if not scope]
    data = [attr for attr in documented_data if not attr.startswith("_") and hasattr(module, attr)]
    # numba's compiled functions (dispatchers) count as functions: their Python function is ``py_func``
    objects = [("autoclass" if inspect.isclass(obj) else "autofunction", member)
               for member, obj in vars(module).items() if not member.startswith("_")
               and (inspect.isclass(obj) or inspect.isfunction(getattr(obj, "py_func", obj)))
               and getattr(obj, "__module__", None) == name]
    return data, objects


def write_api_pages(package: str = PACKAGE, target: Path = API_DIR) -> list[str]:
    """One page per module of ``package`` (found by walking it: new modules need no listing), returned.

    Each page shows the module's docstring, a summary table of the functions and classes it defines
    (not the ones it imports: those are documented where they are defined), then its documented data
    (a ``#:`` comment), functions and classes in the order of the source, and lists its submodules.
    Written here rather than by autosummary's recursion, which imports ``obcd_lite.solvers.obcd`` as
    the function the package re-exports under that name instead of the module.
    """
    target.mkdir(exist_ok=True)
    root = importlib.import_module(package)
    names = [package] + sorted(m.name for m in pkgutil.walk_packages(root.__path__, f"{package}."))
    for stale in {p.stem for p in target.glob("*.rst")} - set(names):
        (target / f"{stale}.rst").unlink()
    for name in names:
        data, objects = _module_members(name)
        children = [n for n in names if n.rpartition(".")[0] == name]
        text = f"{name}\n{'=' * len(name)}\n\n.. automodule:: {name}\n\n"
        if children:
            text += ".. rubric:: Modules\n\n.. toctree::\n   :maxdepth: 1\n\n"
            text += "".join(f"   {child}\n" for child in children) + "\n"
        if objects:
            text += ".. rubric:: Functions and classes\n\n.. autosummary::\n\n"
            text += "".join(f"   {member}\n" for _, member in objects) + "\n"
        text += "".join(f".. autodata:: {attr}\n\n" for attr in data)
        for directive, member in objects:
            text += f".. {directive}:: {member}\n"
            if directive == "autoclass":
                text += "   :members:\n   :undoc-members:\n   :show-inheritance:\n"
            text += "\n"
        _write_if_changed(target / f"{name}.rst", text)
    return names


def write_errata_table(target: Path = Path(__file__).parent / "generated" / "errata_table.md") -> None:
    """The errata of unnumbered text and of numbered statements' proofs as the notebooks show them (the
    rendered table of ``obcd_lite.viz.tables.errata_html``, typeset math, grouped by kind), written
    at build time from ``obcd_lite.teaching.errata.errata_rows()`` so the page cannot drift from the tests.
    The table is one line of HTML: Markdown passes it through untouched (no emphasis out of ``_``)."""
    from obcd_lite.viz.tables import errata_html

    target.parent.mkdir(exist_ok=True)
    _write_if_changed(target, errata_html().html.replace("\n", " ") + "\n")


def _import_object(dotted: str):
    """The object ``dotted`` names (a module, or an attribute path inside one), or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def resolve_reexport(app, env, node, contnode):
    """Resolve a Python reference to a name imported from elsewhere at the place that defines it.

    Docstrings may name ``obcd_lite.data.load_dataset`` (the package re-exports it) or, inside
    ``obcd_lite.solvers``, ``obcd.obcd``; both are documented once, as
    ``obcd_lite.data.datasets.load_dataset`` and ``obcd_lite.solvers.obcd.obcd``.
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    module = node.get("py:module") or ""
    scopes = [".".join(module.split(".")[:cut]) for cut in range(module.count(".") + 1, 0, -1)] if module else []
    domain = env.get_domain("py")
    for scope in scopes + [""]:
        obj = _import_object(f"{scope}.{target}" if scope else target)
        if obj is None:
            continue
        owner, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if owner and qualname:
            candidates = [f"{owner}.{qualname}"]
        else:  # data (a tuple, a dict) knows no home: find the documented name bound to the same object
            last = target.rpartition(".")[2]
            candidates = [name for name in domain.objects if name.rpartition(".")[2] == last
                          and _import_object(name) is obj]
        for canonical in candidates:
            if canonical.startswith(PACKAGE) and canonical in domain.objects:
                return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], canonical,
                                           node, contnode)
    return None


def copy_mathjax(app, exception) -> None:
    """Serve MathJax from the site itself (``_static/mathjax``)."""
    if exception is None and app.builder.format == "html":
        shutil.copytree(MATHJAX_SOURCE, Path(app.outdir) / "_static" / "mathjax", dirs_exist_ok=True)


class _CatchAllGlob(logging.Filter):
    """Drop the one warning that the front page's catch-all toctree entry ``*`` matched nothing.

    ``*`` lists pages added later (``docs/<name>.md``); while every page is listed by name it matches
    nothing, which is not an error (``suppress_warnings`` cannot reach this warning: it has no type).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return "glob pattern '*' didn't match" not in record.getMessage()


def setup(app) -> None:
    logging.getLogger("sphinx.sphinx.directives.other").addFilter(_CatchAllGlob())
    copy_notebooks()
    write_api_pages()
    write_errata_table()
    app.connect("autodoc-process-docstring", plain_text_docstring)
    app.connect("missing-reference", resolve_reexport)
    app.connect("build-finished", copy_mathjax)
