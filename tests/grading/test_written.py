"""Written (manual) questions: the bundle records them without tests, the student edition replaces the model
answer by a placeholder, and ``export-written`` (tools/grading/written.py) writes one PDF per student with
every written question's prompt and that student's answer, read as data, sanitized (a script, a frame or a
``file:`` image in an answer neither runs nor loads), with "no answer" where the placeholder was left."""
from __future__ import annotations

import csv
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from grading import written  # noqa: E402
from grading.bundle import all_questions, build_bundle, manual_questions, questions  # noqa: E402
from student_edition import WRITTEN_PLACEHOLDER, student_notebook  # noqa: E402

MODEL = "The model answer: MODELSECRET, since $\\det Q = -1$."
PROMPT = "**Exercise 2 (written).** Say why $x^2 \\ge 0$ for every real $x$."
#: Each student's answer to ex98_2w (None: the placeholder left); the spoofs are eve's.
ANSWERS = {
    "alice": "Because $x^2 = x \\cdot x$: ALICEMARK.\n\n$$\\sum_i x_i^2 \\ge 0$$",
    "bob": None,
    "eve": ("EVEMARK <script>document.body.setAttribute('data-pwned', 'yes')</script>\n\n"
            "<img src=\"file:///etc/hostname\" onerror=\"document.body.setAttribute('data-pwned', 'img')\">\n\n"
            "<iframe src=\"file:///etc/passwd\"></iframe>\n\n![leak](file:///etc/hostname) "
            "[click](javascript:document.body.setAttribute('data-pwned','link'))\n\n<style>body{display:none}</style>"),
}


def _cell(kind, source, *tags):
    cell = getattr(nbformat.v4, f"new_{kind}_cell")(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def written_question(name, points, prompt, model):
    return [_cell("raw", f"# BEGIN QUESTION\nname: {name}\nmanual: true\npoints: {points}"),
            _cell("markdown", prompt), _cell("markdown", model, "written-answer"), _cell("raw", "# END QUESTION")]


def fixture_notebook():
    """An auto-graded question between two written ones."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    config = '""" # BEGIN TEST CONFIG\nhidden: true\n""" # END TEST CONFIG\n'
    nb.cells = [_cell("markdown", "# 98 · written answers"),
                *written_question("ex98_1w", 1, "**Exercise 1 (written).** Prove it.", "Model one: FIRSTMODEL."),
                _cell("raw", "# BEGIN QUESTION\nname: ex98_3\npoints: 1"), _cell("code", "k = 3  # answer", "answer"),
                _cell("raw", "# BEGIN TESTS"),
                _cell("code", config + "from obcd_lite.teaching.answers import answer\nassert answer('k', 'int') == 3",
                      "hidden-test"),
                _cell("raw", "# END TESTS"), _cell("raw", "# END QUESTION"),
                *written_question("ex98_2w", 2, PROMPT, MODEL)]
    return nb


def test_the_bundle_records_written_questions_without_tests(tmp_path):
    nb = fixture_notebook()
    assert [q["name"] for q in questions(nb)] == ["ex98_3"]
    assert [q["name"] for q in all_questions(nb)] == ["ex98_1w", "ex98_3", "ex98_2w"]
    (first, second) = manual_questions(nb)
    assert second == {"name": "ex98_2w", "points": 2.0, "manual": True, "prompt": PROMPT, "model_answer": MODEL}
    assert "tests" not in first and "answers" not in first
    (tmp_path / "src").mkdir()
    nbformat.write(nb, tmp_path / "src" / "98_written.ipynb")
    import json

    bundle = json.loads(build_bundle(tmp_path / "src", tmp_path / "grader")["98_written"].read_text())
    assert [q["name"] for q in bundle["questions"]] == ["ex98_3"]
    assert [q["name"] for q in bundle["manual"]] == ["ex98_1w", "ex98_2w"]


@pytest.mark.parametrize("change, message", [
    (lambda cells: cells.insert(3, _cell("raw", "# BEGIN TESTS")), "has hidden tests"),
    (lambda cells: cells.pop(3), "one markdown cell tagged 'written-answer'"),
    (lambda cells: cells.__setitem__(1, _cell("raw", "# BEGIN QUESTION\nname: ex98_1w\nmanual: yes\npoints: 1")),
     "'manual' must be true or false, got manual='yes'"),
    (lambda cells: cells.__setitem__(1, _cell("raw", "# BEGIN QUESTION\nname: ex98_1w\npoints: one")),
     "needs 'points: <number>', got points='one'"),
])
def test_malformed_written_markup_is_refused_with_its_reason(change, message):
    nb = fixture_notebook()
    change(nb.cells)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        all_questions(nb)


@pytest.mark.parametrize("keep_outputs", [False, True], ids=["handed-out", "site"])
def test_the_student_edition_has_the_placeholder_not_the_model_answer(keep_outputs):
    student = student_notebook(fixture_notebook(), keep_outputs=keep_outputs)
    text = "\n".join(c.source for c in student.cells)
    assert "MODELSECRET" not in text and "FIRSTMODEL" not in text
    cells = [c for c in student.cells if "written-answer" in c.metadata.get("tags", [])]
    assert [c.source for c in cells] == [WRITTEN_PLACEHOLDER] * 2
    assert [c.metadata["obcd_question"] for c in cells] == ["ex98_1w", "ex98_2w"]
    assert PROMPT in text  # the prompt stays


def _answered(student, answers):
    nb = nbformat.from_dict(student)
    for cell in nb.cells:
        if cell.metadata.get("obcd_question") in answers:
            cell.source = answers[cell.metadata["obcd_question"]]
    return nb


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("written")
    (tmp / "src").mkdir()
    nbformat.write(fixture_notebook(), tmp / "src" / "98_written.ipynb")
    build_bundle(tmp / "src", tmp / "grader")
    student = student_notebook(fixture_notebook())
    subs = tmp / "subs"
    for who, text in ANSWERS.items():
        (subs / who).mkdir(parents=True)
        nb = _answered(student, {"ex98_2w": text} if text else {})
        if who == "alice":  # the order of the cells is not what finds an answer: its question's name is
            nb.cells.reverse()
        nbformat.write(nb, subs / who / "98_written.ipynb")
    (subs / "carol").mkdir()  # submitted nothing
    (subs / "dave").mkdir()
    (subs / "dave" / "98_written.ipynb").write_text("not a notebook")
    (subs / "__MACOSX").mkdir()
    browser = written.chromium()
    manifest = written.export_written(subs, tmp / "grader", tmp / "out", browser=browser)
    with open(manifest) as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    pages = {p.stem: p.read_text() for p in (tmp / "out" / "html").glob("*.html")}
    return {"tmp": tmp, "rows": rows, "pages": pages, "browser": browser}


def test_one_page_per_student_with_their_own_answer_only(exported):
    rows, pages = exported["rows"], exported["pages"]
    assert set(rows) == set(pages) == {"alice", "bob", "carol", "dave", "eve"}
    assert {who: (row["ex98_1w"], row["ex98_2w"]) for who, row in rows.items()} == {
        "alice": ("no answer", "answered"), "bob": ("no answer", "no answer"),
        "carol": ("not submitted", "not submitted"), "dave": ("unreadable", "unreadable"),
        "eve": ("no answer", "answered")}
    assert "ALICEMARK" in pages["alice"] and "EVEMARK" not in pages["alice"]
    assert "EVEMARK" in pages["eve"] and "ALICEMARK" not in pages["eve"]
    for page in pages.values():
        assert "Prove it." in page and "Say why" in page  # every written question's prompt
        assert "MODELSECRET" not in page and "FIRSTMODEL" not in page
    assert pages["bob"].count("no answer: the placeholder was left") == 2
    assert "no answer: this notebook was not submitted" in pages["carol"]
    assert "could not be read" in pages["dave"]


def test_the_pdfs(exported):
    if exported["browser"] is None:
        pytest.skip("no chromium here: HTML pages only (the manifest says so)")
    out = exported["tmp"] / "out"
    for who, row in exported["rows"].items():
        assert row["file"] == f"{who}.pdf"
        assert (out / f"{who}.pdf").read_bytes()[:5] == b"%PDF-"


def test_html_only_without_a_browser(exported, tmp_path):
    manifest = written.export_written(exported["tmp"] / "subs", exported["tmp"] / "grader", tmp_path, browser=None)
    with open(manifest) as handle:
        rows = list(csv.DictReader(handle))
    assert all("not printed" in row["file"] for row in rows) and not list(tmp_path.glob("*.pdf"))


class _Elements(HTMLParser):
    """Every element of a page's body: (tag, attributes)."""

    def __init__(self, page):
        super().__init__()
        self.found, self.inside = [], False
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.inside = self.inside or tag == "body"
        if self.inside:
            self.found.append((tag, dict(attrs)))


def _dangerous(page: str) -> list:
    """The elements of the body that could run or load something."""
    bad = []
    for tag, attrs in _Elements(page).found:
        if tag in ("script", "iframe", "frame", "object", "embed", "style", "link", "meta", "base", "form"):
            bad.append(tag)
        bad += [f"{tag} {name}" for name in attrs if name.startswith("on") or name == "style"]
        if tag == "img" and not str(attrs.get("src", "data:")).startswith("data:"):
            bad.append(f"img src={attrs['src']}")
        if tag == "a" and not str(attrs.get("href", "http:")).startswith(("http:", "https:", "mailto:")):
            bad.append(f"a href={attrs['href']}")
    return bad


def test_the_spoofs_in_an_answer_are_shown_as_text_not_run(exported):
    page = exported["pages"]["eve"]
    assert _dangerous(page) == []
    body = page.split("<body>", 1)[1]
    assert "&lt;script&gt;" in body and "&lt;iframe" in body  # what was typed, visible to the grader
    assert 'http-equiv="Content-Security-Policy"' in page and "default-src 'none'" in page
    assert _dangerous("<body><script>x</script><img src='file:///a' onerror='y'>") == [  # the check can fail
        "script", "img onerror", "img src=file:///a"]


def test_the_rendered_page_runs_no_script_of_the_answer(exported):
    """The page as chromium renders it (the DOM after every script ran): the answer's script did not set
    its attribute, no frame or image from a file was made, the local MathJax typeset the math."""
    if exported["browser"] is None:
        pytest.skip("no chromium here")
    html = exported["tmp"] / "out" / "html"
    dom = {}
    for who in ("eve", "alice"):
        done = subprocess.run([exported["browser"], "--headless", "--no-sandbox", "--disable-gpu",
                               f"--user-data-dir={exported['tmp'] / 'profile'}", "--virtual-time-budget=20000",
                               "--dump-dom", (html / f"{who}.html").as_uri()], capture_output=True, timeout=300)
        dom[who] = done.stdout.decode()
    assert "Written answers: eve" in dom["eve"] and "EVEMARK" in dom["eve"]
    assert "data-pwned" not in str(_Elements(dom["eve"]).found)
    # MathJax adds its own scripts, styles and style attributes: what could load or run from the answer is
    # a frame, an image from a file, an event handler or a link that runs code
    loads = [d for d in _dangerous(dom["eve"]) if d.startswith(("iframe", "frame", "object", "embed", "img src", "a "))
             or " on" in d]
    assert loads == []
    if written._mathjax() is not None:
        assert "MathJax" in dom["alice"] and "Math Processing Error" not in dom["alice"]


def test_the_command_line(exported, tmp_path, capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location("assign", ROOT / "tools" / "assign.py")
    assign = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(assign)
    subs = exported["tmp"] / "subs"
    assert assign.main(["export-written", str(subs), "--bundle", str(exported["tmp"] / "grader"),
                        "--out", str(tmp_path / "w"), "--html-only"]) == 0
    assert (tmp_path / "w" / "html" / "alice.html").exists() and (tmp_path / "w" / "manifest.csv").exists()
    (tmp_path / "src").mkdir()
    nb = fixture_notebook()
    nb.cells = [c for c in nb.cells if c not in nb.cells[1:5] and c not in nb.cells[-4:]]  # the graded one only
    nbformat.write(nb, tmp_path / "src" / "98_written.ipynb")
    build_bundle(tmp_path / "src", tmp_path / "auto")
    assert assign.main(["export-written", str(subs), "--bundle", str(tmp_path / "auto"), "--out",
                        str(tmp_path / "none"), "--if-any"]) == 0
    assert "no written (manual) question" in capsys.readouterr().out and not (tmp_path / "none").exists()
    with pytest.raises(ValueError, match="has no written"):
        written.export_written(subs, tmp_path / "auto", tmp_path / "none")


def test_a_page_that_cannot_be_printed_stays_html_and_stops_nobody(exported, tmp_path):
    manifest = written.export_written(exported["tmp"] / "subs", exported["tmp"] / "grader", tmp_path,
                                      browser="/bin/false")
    with open(manifest) as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 5 and all("not printed: RuntimeError" in row["file"] for row in rows)
    assert len(list((tmp_path / "html").glob("*.html"))) == 5
