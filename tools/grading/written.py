"""The written answers of a class, one PDF per student for hand grading (``tools/assign.py export-written``).

For every written (manual) question of the bundle (:mod:`bundle`), each student's answer is read from the
submitted notebook **as data** (the JSON of the cell tagged ``written-answer``; the notebook is never
executed, never followed through a symlink), its markdown rendered to HTML with its math, and the HTML
**sanitized** (bleach, an allow-list of tags and attributes: a ``<script>``, ``<iframe>``, ``<style>``,
event handler or ``<img src=file:...>`` is shown as text or dropped, images only as inline ``data:``).
The page also carries a Content-Security-Policy (scripts: only the local MathJax, by nonce; images: only
``data:``; nothing else loads) and is printed by ``chromium --headless --print-to-pdf`` with its network
pointed nowhere. MathJax 2 comes from the local ``jupyter_server_mathjax`` package (its ``Safe`` extension
on; it typesets before chromium prints, within ``--virtual-time-budget``; that package ships no TeX web
fonts, so the glyphs are the system's serif); without it the math is shown as its TeX source. Without chromium the HTML pages are written and the
manifest says so.

Writes ``OUT/<student>.pdf`` (or only ``OUT/html/<student>.html``), ``OUT/html/<student>.html`` (kept:
what was printed) and ``OUT/manifest.csv`` (per student the file and per question ``answered``, ``no
answer``, ``not submitted`` or ``unreadable``). A page chromium fails to print stays HTML, with the reason
in the manifest; the other students' PDFs are still written.
"""
from __future__ import annotations

import csv
import html
import io
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path

from .bundle import load_bundle
from .classroom import _exercise, _write_atomic, students_of
from .grade import MAX_NOTEBOOK, read_regular

PLACEHOLDER = "_Type your answer here, replacing this text._"
CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
#: Tags and attributes a rendered answer may keep (markdown's own output); everything else is escaped.
TAGS = {"p", "br", "hr", "em", "strong", "del", "code", "pre", "blockquote", "ul", "ol", "li", "dl", "dt", "dd",
        "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "a", "img", "span", "div",
        "sub", "sup", "input"}
IMAGE_DATA = ("data:image/png;base64,", "data:image/jpeg;base64,", "data:image/gif;base64,",
              "data:image/svg+xml;base64,")
STATUS_TEXT = {"no answer": "no answer: the placeholder was left (or the cell is empty)",
               "not submitted": "no answer: this notebook was not submitted",
               "unreadable": "no answer: the notebook could not be read as a notebook"}


def _attribute_allowed(tag: str, name: str, value: str) -> bool:
    if tag == "img":
        return name == "alt" or (name == "src" and value.startswith(IMAGE_DATA))
    if tag == "a":
        return name == "href" and value.lower().startswith(("http://", "https://", "mailto:"))
    if tag in ("td", "th"):
        return name == "align"
    if tag == "input":  # a task list's check box, shown, never active
        return name in ("type", "checked", "disabled") and (name != "type" or value == "checkbox")
    return False


def render_markdown(source: str, attachments: dict | None = None) -> str:
    """Sanitized HTML of a markdown text (math left as ``$...$`` for MathJax; raw HTML shown as text).

    Parameters
    ----------
    source : str
        The markdown (a student's answer or a prompt).
    attachments : dict, optional
        The cell's attachments (``attachment:name`` images become inline ``data:`` images).

    Returns
    -------
    str
        HTML holding only :data:`TAGS`, no script, frame, style, event handler or external source.
    """
    import bleach
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    try:
        raw = MarkdownWithMath(renderer=IPythonRenderer(escape=False, attachments=attachments or {})).render(source)
    except Exception:  # noqa: BLE001 (a missing attachment or a parser failure: the text as it was typed)
        raw = f"<pre>{html.escape(source)}</pre>"
    return bleach.clean(raw, tags=TAGS, attributes=_attribute_allowed, protocols=["http", "https", "mailto", "data"],
                        strip=False, strip_comments=True)


def answers_of(notebook: Path, written: list[dict]) -> dict[str, tuple[str, str | None, dict]]:
    """Per written question of one notebook: ``(status, markdown, attachments)``, read as JSON, never run.

    The answer cell is the markdown cell tagged ``written-answer`` whose metadata ``obcd_question`` names
    the question (the student edition writes it), else the k-th such cell for the k-th question.
    """
    import nbformat

    if not notebook.exists() and not notebook.is_symlink():
        return {q["name"]: ("not submitted", None, {}) for q in written}
    try:
        if notebook.is_symlink():
            raise ValueError("a symlink")
        nb = nbformat.reads(read_regular(notebook, MAX_NOTEBOOK).decode("utf-8"), as_version=4)
        cells = [c for c in nb.cells if "written-answer" in (c.get("metadata", {}).get("tags") or [])]
    except Exception:  # noqa: BLE001 (any malformed file: unreadable, for every question of it)
        return {q["name"]: ("unreadable", None, {}) for q in written}
    by_name = {c.metadata.get("obcd_question"): c for c in cells if c.metadata.get("obcd_question")}
    found = {}
    for k, question in enumerate(written):
        cell = by_name.get(question["name"]) or (cells[k] if k < len(cells) and not by_name else None)
        text = str(cell.get("source", "")) if cell is not None else ""
        if not text.strip() or text.strip() == PLACEHOLDER:
            found[question["name"]] = ("no answer", None, {})
        else:
            found[question["name"]] = ("answered", text, dict(cell.get("attachments") or {}))
    return found


def _mathjax() -> Path | None:
    try:
        import jupyter_server_mathjax
    except ImportError:
        return None
    path = Path(jupyter_server_mathjax.__file__).parent / "static" / "MathJax.js"
    return path if path.exists() else None


def page(student: str, sections: list[str], mathjax: Path | None) -> str:
    """The HTML page of one student (sections already sanitized), with its CSP and local MathJax."""
    nonce = secrets.token_hex(16)
    csp = (f"default-src 'none'; script-src 'nonce-{nonce}' 'strict-dynamic'; style-src 'unsafe-inline'; "
           "img-src data:; font-src file:; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'")
    math = ""
    if mathjax is not None:  # the configuration as an object (MathJax's text/x-mathjax-config needs eval)
        config = ('window.MathJax = {tex2jax: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]], processEscapes: true}, '
                  '"HTML-CSS": {availableFonts: ["STIX-Web"], preferredFont: "STIX-Web", webFont: "STIX-Web", '
                  'imageFont: null}, messageStyle: "none", showMathMenu: false, showProcessingMessages: false};')
        math = (f'<script nonce="{nonce}">{config}</script>\n'
                f'<script nonce="{nonce}" src="{mathjax.as_uri()}?config=TeX-AMS-MML_HTMLorMML-full,Safe"></script>')
    note = "" if mathjax else "<p class='note'>Math is shown as its TeX source (no local MathJax).</p>"
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>Written answers: {html.escape(student)}</title>
<style>
body {{ font-family: serif; max-width: 46em; margin: 2em auto; line-height: 1.4; }}
section {{ break-inside: auto; border-top: 1px solid #888; margin-top: 1.5em; }}
.prompt {{ color: #333; }} .answer {{ border-left: 4px solid #36c; padding-left: 1em; }}
.missing {{ border-left: 4px solid #c33; padding-left: 1em; font-weight: bold; }}
.grade {{ margin-top: 1em; }} pre {{ white-space: pre-wrap; }} img {{ max-width: 100%; }}
</style>
{math}
</head><body>
<h1>Written answers: {html.escape(student)}</h1>
{note}
{''.join(sections)}
</body></html>
"""


def section(stem: str, question: dict, status: str, text: str | None, attachments: dict) -> str:
    """One question: its prompt, the student's answer (or why there is none) and a line for the points."""
    head = (f"<h2>{html.escape(stem)}, exercise {html.escape(_exercise(question['name']))} "
            f"({question['points']:g} point{'s' if question['points'] != 1 else ''})</h2>")
    prompt = f"<div class='prompt'>{render_markdown(question['prompt'])}</div>"
    if status == "answered":
        body = f"<h3>Answer</h3><div class='answer'>{render_markdown(text, attachments)}</div>"
    else:
        body = f"<h3>Answer</h3><div class='missing'>{html.escape(STATUS_TEXT[status])}</div>"
    grade = f"<p class='grade'>Points: ____ of {question['points']:g}</p>"
    return f"<section>{head}{prompt}{body}{grade}</section>\n"


def chromium() -> str | None:
    """The chromium executable, or None."""
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    return None


def print_pdf(html_path: Path, pdf_path: Path, browser: str, timeout: float = 180.0) -> None:
    """``html_path`` printed to ``pdf_path`` by headless chromium, offline (a proxy and resolver that go
    nowhere; the page's CSP already forbids every load but the local MathJax)."""
    import os

    with tempfile.TemporaryDirectory(prefix="obcd-pdf-") as profile:
        command = [browser, "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                   "--disable-extensions", "--disable-background-networking", "--disable-sync",
                   "--disable-component-update", "--disable-default-apps", f"--user-data-dir={profile}",
                   "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
                   "--host-resolver-rules=MAP * ~NOTFOUND", "--virtual-time-budget=20000",
                   "--run-all-compositor-stages-before-draw", "--no-pdf-header-footer",
                   f"--print-to-pdf={pdf_path}", html_path.resolve().as_uri()]
        if os.geteuid() == 0:
            command.insert(1, "--no-sandbox")  # chromium's own sandbox refuses root
        done = subprocess.run(command, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL,
                              start_new_session=True)
    if done.returncode != 0 or not pdf_path.exists() or not pdf_path.read_bytes()[:5] == b"%PDF-":
        raise RuntimeError(f"chromium could not print {html_path} (exit {done.returncode}): "
                           f"{done.stderr.decode(errors='replace')[-300:]}")


def export_written(submissions: Path, bundle_dir: Path, out: Path, browser: str | None = "auto") -> Path:
    """Write one PDF per student with every written question's prompt and that student's answer.

    Parameters
    ----------
    submissions : pathlib.Path
        One folder per student, ``<student>/<NN_name>.ipynb`` (as for grading).
    bundle_dir : pathlib.Path
        The grader's bundle (``tools/assign.py assign``).
    out : pathlib.Path
        Receives ``<student>.pdf``, ``html/<student>.html`` and ``manifest.csv``.
    browser : str or None
        A chromium executable, ``"auto"`` (found on PATH) or None (HTML only).

    Returns
    -------
    pathlib.Path
        ``out/manifest.csv``.

    Raises
    ------
    ValueError
        If the bundle has no written question.
    """
    bundles = load_bundle(bundle_dir)
    written = {stem: b.get("manual", []) for stem, b in bundles.items() if b.get("manual")}
    if not written:
        raise ValueError(f"the bundle {bundle_dir} has no written (manual) question: nothing to export")
    browser = chromium() if browser == "auto" else browser
    mathjax = _mathjax()
    students, _ = students_of(submissions)
    (out / "html").mkdir(parents=True, exist_ok=True)
    names = [q["name"] for qs in written.values() for q in qs]
    rows = []
    for folder in students:
        sections, row = [], {"student": folder.name}
        for stem, qs in written.items():
            found = answers_of(folder / f"{stem}.ipynb", qs)
            for question in qs:
                status, text, attachments = found[question["name"]]
                sections.append(section(stem, question, status, text, attachments))
                row[question["name"]] = status
        html_path = out / "html" / f"{folder.name}.html"
        _write_atomic(html_path, page(folder.name, sections, mathjax))
        if browser is not None:
            try:
                print_pdf(html_path, out / f"{folder.name}.pdf", browser)
                row["file"] = f"{folder.name}.pdf"
            except (OSError, RuntimeError, subprocess.SubprocessError) as error:  # this student's page only
                row["file"] = f"html/{folder.name}.html (not printed: {type(error).__name__})"
        else:
            row["file"] = f"html/{folder.name}.html (no chromium: not printed)"
        rows.append(row)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["student", "file", *names])
    writer.writeheader()
    writer.writerows(rows)
    _write_atomic(out / "manifest.csv", buffer.getvalue())
    return out / "manifest.csv"
