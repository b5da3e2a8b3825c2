"""The student edition (tools/student_edition.py): answers become placeholders, solutions go, and
executed top to bottom exactly the exercise check cells fail, each with its hint."""
from __future__ import annotations

import importlib.util
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


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    return _tool().build(ROOT / "notebooks", out)


def test_student_edition_hides_answers_and_solutions(student):
    assert [p.name for p in student] == [p.name for p in NOTEBOOKS]
    for path in student:
        nb = nbformat.read(path, as_version=4)
        assert not any("solution" in c.metadata.get("tags", []) for c in nb.cells)
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
        assert error["ename"] == "NotSolvedYet" and "Hint:" in error["evalue"]
