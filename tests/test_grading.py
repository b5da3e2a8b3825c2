"""The grading round trip (tools/assign.py, otter-grader): ``assign`` then ``grade`` on a tiny fixture
assignment written in the notebooks' markup, plus one real notebook (03, the lightest with exercises).

A full solution scores full points, the untouched student edition zero, one wrong answer loses exactly
that question's points, a student who rewrites a visible check cell is still graded by the hidden
tests, and no feedback file shows an expected value.
"""
from __future__ import annotations

import csv
import importlib.util
import shutil
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("otter", reason="otter-grader (the grading extra) is not installed")

# answers that appear nowhere else, so that a leak into feedback would be found
RIGHT = {"fx_count": "4217", "fx_name": "'tangent cone'"}
WRONG = {"fx_count": "4218", "fx_name": "'normal cone'"}


def _tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _code(source, *tags):
    cell = nbformat.v4.new_code_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def _question(number, variable, value, points, digest):
    raw = nbformat.v4.new_raw_cell
    name = f"ex99_{number}"
    return [raw(f"# BEGIN QUESTION\nname: {name}\npoints: {points}"),
            _code(f"{variable} = {value}  # answer", "answer"),
            _code(f'check("99.{number}", {variable}, expect=({digest!r},), hint="count again")', "check"),
            raw("# BEGIN TESTS"),
            _code(f'""" # BEGIN TEST CONFIG\nhidden: true\n""" # END TEST CONFIG\nassert {variable} == {value}',
                  "hidden-test"),
            raw("# END TESTS"), raw("# END QUESTION")]


def _fixture_notebook():
    from obcd_lite.teaching.exercises import answer_digest

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# 99 · A fixture assignment"),
                _code("from obcd_lite.teaching.exercises import check")]
    nb.cells += _question(1, "fx_count", RIGHT["fx_count"], 1, answer_digest("99.1", 4217))
    nb.cells += _question(2, "fx_name", RIGHT["fx_name"], 2, answer_digest("99.2", "tangent cone"))
    return nb


def _with(nb, edits, drop_checks=False, fake_checks=False):
    """A copy of ``nb`` with answer lines replaced (variable -> value) and check cells dropped or faked."""
    nb = nbformat.from_dict(nb)
    cells = []
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "answer" in tags:
            variable = cell.source.split("=")[0].strip()
            if variable in edits:
                cell.source = f"{variable} = {edits[variable]}  # your answer"
        if "check" in tags and drop_checks:
            continue
        if "check" in tags and fake_checks:
            cell.source = 'print("correct")'
        cells.append(cell)
    nb.cells = cells
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """assign + grade once: fixture submissions of five students, and notebook 03 submitted in full."""
    tmp = tmp_path_factory.mktemp("grading")
    src = tmp / "src"
    src.mkdir()
    instructor = _fixture_notebook()
    nbformat.write(instructor, src / "99_fixture.ipynb")
    shutil.copy(ROOT / "notebooks" / "03_completeness.ipynb", src)
    assign = _tool("assign")
    bundles = assign.assign(src, tmp / "assign")
    student = nbformat.read(tmp / "assign" / "student" / "99_fixture.ipynb", as_version=4)
    submissions = {
        "full": instructor,
        "untouched": student,
        "one_wrong": _with(student, {"fx_count": RIGHT["fx_count"], "fx_name": WRONG["fx_name"]}),
        "faked_checks": _with(student, WRONG, fake_checks=True),
        "no_checks_right": _with(student, RIGHT, drop_checks=True),
    }
    for who, nb in submissions.items():
        (tmp / "subs" / who).mkdir(parents=True)
        nbformat.write(nb, tmp / "subs" / who / "99_fixture.ipynb")
    shutil.copy(ROOT / "notebooks" / "03_completeness.ipynb", tmp / "subs" / "full")
    table = assign.grade(tmp / "subs", tmp / "assign" / "grader", tmp / "grades")
    with open(table) as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    feedback = {p.stem: p.read_text() for p in (tmp / "grades" / "feedback").glob("*.md")}
    return bundles, rows, feedback, tmp


def test_assign_builds_the_student_edition_and_a_bundle_per_graded_notebook(graded):
    bundles, _, _, tmp = graded
    assert set(bundles) == {"03_completeness", "99_fixture"}
    student = nbformat.read(tmp / "assign" / "student" / "99_fixture.ipynb", as_version=4)
    text = "\n".join(c.source for c in student.cells)
    assert "hidden" not in text and "BEGIN" not in text and "4217" not in text and "tangent cone" not in text


def test_points_per_question(graded):
    _, rows, _, _ = graded
    points = {who: {q: float(v) for q, v in row.items() if q.startswith("ex99")} for who, row in rows.items()}
    assert points["full"] == {"ex99_1": 1.0, "ex99_2": 2.0}
    assert points["untouched"] == {"ex99_1": 0.0, "ex99_2": 0.0}
    assert points["one_wrong"] == {"ex99_1": 1.0, "ex99_2": 0.0}  # exactly question 2's points lost
    assert points["faked_checks"] == {"ex99_1": 0.0, "ex99_2": 0.0}  # a rewritten check cell changes nothing
    assert points["no_checks_right"] == {"ex99_1": 1.0, "ex99_2": 2.0}


def test_a_real_notebook_in_full_scores_full_points(graded):
    _, rows, _, _ = graded
    assert [float(rows["full"][f"ex03_{k}"]) for k in range(1, 5)] == [1.0, 1.0, 1.0, 1.0]
    assert float(rows["full"]["total"]) == 7.0
    assert float(rows["untouched"]["total"]) == 0.0  # 03 not submitted: its questions score 0


def test_feedback_names_the_failed_questions_and_no_expected_value(graded):
    _, _, feedback, _ = graded
    assert set(feedback) == {"full", "untouched", "one_wrong", "faked_checks", "no_checks_right"}
    assert "exercise 99.2: not yet (0 of 2 points)" in feedback["one_wrong"]
    assert "99.1" not in feedback["one_wrong"]
    assert "Every exercise is right." in feedback["full"]
    for text in feedback.values():
        for value in (*RIGHT.values(), *WRONG.values(), "tangent", "assert", "Expecting", "36", "(4, 5)"):
            assert value.strip("'") not in text
