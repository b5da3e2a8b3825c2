"""The student edition (tools/student_edition.py): answers become placeholders, solutions and hidden
tests go, no answer of an exercise is stated anywhere in it, and executed top to bottom exactly the
exercise check cells fail, each asking for an answer (no hint before a wrong attempt)."""
from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(ROOT.joinpath("notebooks").glob("[0-9][0-9]_*.ipynb"))


def _tool():
    spec = importlib.util.spec_from_file_location("student_edition", ROOT / "tools" / "student_edition.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_placeholder_line():
    tool = _tool()
    assert tool.placeholder_line("my_count = 36  # answer") == "my_count = ...  # your answer"
    assert tool.placeholder_line("    a, b = 1, (2, 3)  # answer") == "    a, b = ..., ...  # your answer"
    assert tool.placeholder_line("x == 3  # answer") == "x == 3  # answer"  # not an assignment
    assert tool.placeholder_line("y = 2  # the answer is elsewhere") == "y = 2  # the answer is elsewhere"


def test_instructor_notebooks_mark_every_exercise():
    """Every check cell follows an answer cell, and every answer cell has a marked line."""
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        for i, cell in enumerate(cells):
            tags = cell.metadata.get("tags", [])
            if "check" in tags:
                assert "answer" in cells[i - 1].metadata.get("tags", []), (path.name, i)
            if "answer" in tags:
                assert any(line.rstrip().endswith("# answer") for line in cell.source.splitlines()), (path.name, i)


EXERCISE_NOTEBOOKS = [p for p in NOTEBOOKS if p.name[:2] in {"01", "02", "03", "04", "05", "06", "07", "08"}]
DIGEST = re.compile(r"'[0-9a-f]{16}'")


def _questions(path):
    """Each auto-graded otter question of a notebook: (name, its cells); written (``manual: true``) ones are
    left to :func:`test_no_model_answer_reaches_the_student_edition`."""
    cells = nbformat.read(path, as_version=4).cells
    out, current = [], None
    for cell in cells:
        text = cell.source.strip()
        if cell.cell_type == "raw" and text.startswith("# BEGIN QUESTION") and re.search(r"manual:\s*true", text):
            current = None
        elif cell.cell_type == "raw" and text.startswith("# BEGIN QUESTION"):
            current = (re.search(r"name:\s*(\w+)", text)[1], [])
        elif cell.cell_type == "raw" and text.startswith("# END QUESTION"):
            if current is not None:
                out.append(current)
            current = None
        elif current is not None:
            current[1].append(cell)
    return out


def _answer_values(cells) -> list[str]:
    """The right-hand sides of a question's ``# answer`` lines whose check compares with a digest (a fixed
    answer; an open answer, checked by a verifier, has many right values)."""
    lines = {}
    for cell in cells:
        if "answer" in cell.metadata.get("tags", []):
            for line in cell.source.splitlines():
                if line.rstrip().endswith("# answer"):
                    target, value = line.split("=", 1)
                    lines[target.strip()] = value.rsplit("#", 1)[0].strip()
    (check_cell,) = [c for c in cells if "check" in c.metadata.get("tags", [])]
    call = ast.parse(check_cell.source).body[0].value
    (expect,) = [k.value for k in call.keywords if k.arg == "expect"]
    return [lines[arg.id] for arg, entry in zip(call.args[1:], expect.elts)
            if isinstance(arg, ast.Name) and arg.id in lines and isinstance(entry, ast.Constant)]


@pytest.mark.parametrize("path", EXERCISE_NOTEBOOKS, ids=[p.stem for p in EXERCISE_NOTEBOOKS])
def test_every_exercise_has_a_check_that_knows_no_answer(path):
    """Every exercise is an otter question with an answer cell, a self-check (digests or verifiers only)
    and hidden tests; neither the check cell nor its hints contain the answer's text."""
    questions = _questions(path)
    assert questions, f"{path.name} has no exercise with a check"
    for name, cells in questions:
        tags = [c.metadata.get("tags", []) for c in cells]
        assert any("answer" in t for t in tags) and any("hidden-test" in t for t in tags), (path.name, name)
        (check_cell,) = [c for c, t in zip(cells, tags) if "check" in t]
        assert check_cell.source.startswith(f'check("{name.removeprefix("ex").replace("_", ".")}"'), (path.name, name)
        visible = DIGEST.sub("", check_cell.source)
        for value in _answer_values(cells):
            if len(value) >= 2 and value not in ("True", "False"):
                assert value not in visible, (path.name, name, value)
        call = ast.parse(check_cell.source).body[0].value
        (expect,) = [k.value for k in call.keywords if k.arg == "expect"]
        for entry in expect.elts:  # a digest string, or a verifier (a name, a call or a lambda): no literal value
            assert not isinstance(entry, ast.Constant) or DIGEST.fullmatch(repr(entry.value)), (path.name, name)


def test_speaker_notes_are_not_in_the_student_edition():
    """Notes for the lecturer (tag or RISE slide type) go; the slide they annotate stays."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A slide", metadata={"tags": ["slide"]}),
                nbformat.v4.new_markdown_cell("Ask the room.", metadata={"tags": ["notes"]}),
                nbformat.v4.new_markdown_cell("Pitfall.", metadata={"slideshow": {"slide_type": "notes"}}),
                nbformat.v4.new_markdown_cell("Read on.", metadata={"slideshow": {"slide_type": "skip"}})]
    for keep in (False, True):
        assert [c.source for c in _tool().student_notebook(nb, keep_outputs=keep).cells] == ["# A slide", "Read on."]


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    return _tool().build(ROOT / "notebooks", out)


def test_student_edition_hides_answers_and_solutions(student):
    assert [p.name for p in student] == [p.name for p in NOTEBOOKS]
    for path in student:
        nb = nbformat.read(path, as_version=4)
        assert not any({"solution", "hidden-test"} & set(c.metadata.get("tags", [])) for c in nb.cells)
        assert not any(c.cell_type == "raw" and "BEGIN" in c.source for c in nb.cells)
        assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
        assert "widgets" not in nb.metadata
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert "# answer" not in cell.source.replace("# your answer", "")
        assert sum("# your answer" in c.source for c in nb.cells if c.cell_type == "code") == sum(
            "answer" in c.metadata.get("tags", []) for c in nb.cells)


@pytest.mark.parametrize("index", range(len(NOTEBOOKS)), ids=[p.stem for p in NOTEBOOKS])
def test_only_the_checks_fail_with_their_hints(student, index):
    from nbclient import NotebookClient

    nb = nbformat.read(student[index], as_version=4)
    # run where the instructor notebooks live, so that notebook 00 finds pyproject.toml
    NotebookClient(nb, kernel_name="python3", timeout=300, allow_errors=True,
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    failed = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
              and any(o.get("output_type") == "error" for o in c.outputs)]
    checks = [i for i, c in enumerate(nb.cells) if "check" in c.metadata.get("tags", [])]
    assert failed == checks
    for i in checks:
        (error,) = [o for o in nb.cells[i].outputs if o.get("output_type") == "error"]
        assert error["ename"] == "NotSolvedYet" and error["evalue"].startswith("replace each ... with your answer")
        assert "Hint" not in error["evalue"]  # a hint only after a wrong attempt
        assert not [o for o in nb.cells[i].outputs if o.get("output_type") == "stream"]


@pytest.mark.parametrize("index", range(len(NOTEBOOKS)), ids=[p.stem for p in NOTEBOOKS])
def test_the_student_edition_states_no_answer(student, index):
    """No answer of an exercise appears anywhere in the student edition: not in a prompt, a hint, a
    summary or a solution (which are gone); the short ones (True, 1) are covered by the check test."""
    text = "\n".join(c.source for c in nbformat.read(student[index], as_version=4).cells)
    for name, cells in _questions(NOTEBOOKS[index]):
        for value in _answer_values(cells):
            if len(value) >= 3 and value not in ("True", "False"):
                assert value not in text, (NOTEBOOKS[index].name, name, value)


@pytest.mark.parametrize("keep_outputs", [False, True], ids=["handed-out", "site"])
def test_no_model_answer_reaches_the_student_edition(keep_outputs):
    """Every written question's model answer (the markdown cell tagged ``written-answer``) is replaced by the
    placeholder in both student editions; the tag stays, so the grader finds the student's answer."""
    tool = _tool()
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        models = [c.source for c in nb.cells if "written-answer" in c.metadata.get("tags", [])]
        student = tool.student_notebook(nb, keep_outputs=keep_outputs)
        cells = [c for c in student.cells if "written-answer" in c.metadata.get("tags", [])]
        assert [c.source for c in cells] == [tool.WRITTEN_PLACEHOLDER] * len(models), path.name
        text = "\n".join(c.source for c in student.cells)
        for model in models:
            assert model.strip() not in text, path.name
