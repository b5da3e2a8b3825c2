"""The grader (tools/assign.py, tools/grading/) on a small fixture class: ``assign`` then ``grade``.

Honest students: a full solution scores full points, the untouched student edition zero, one wrong
answer loses exactly that question's points, rewritten check cells change nothing. Then the spoof
library (tests/grading/spoofs/, one cell per attack) and the malformed submissions: each scores nothing it
did not earn, harms no other student's row (two honest students, graded in the same run before and after
the spoofers alphabetically, keep full points, their notebooks and feedback untouched), nothing is planted
in the bundle, grades.csv is not rewritten afterwards, and no process of the run is left behind.
"""
from __future__ import annotations

import csv
import hashlib
import importlib.util
import os
import time
from pathlib import Path

import nbformat
import psutil
import pytest

ROOT = Path(__file__).resolve().parents[1]
SPOOFS = Path(__file__).with_name("grading") / "spoofs"
# answers that appear nowhere else, so that a leak into feedback would be found
RIGHT = {"fx_count": "4217", "fx_name": "'tangent cone'", "fx_Z": "[[1.0, -1.0], [0.0, 0.0]]"}
WRONG = {"fx_count": "4218", "fx_name": "'normal cone'", "fx_Z": "[[1.0, 0.0], [0.0, 1.0]]"}
POINTS = {"ex99_1": 1.0, "ex99_2": 2.0, "ex99_3": 1.0}
MARKERS = ("obcd-spoof-daemon", "obcd-spoof-pipe", "611.4217")


def _tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


assign_tool = _tool("assign")
from grading import sandbox  # noqa: E402 (tools/ is on sys.path once assign.py is loaded)

pytestmark = pytest.mark.skipif(not sandbox.bwrap_works() and not os.environ.get("CI"),
                                 reason="bubblewrap (bwrap) cannot start a sandbox here (under CI this fails instead)")


def _code(source, *tags):
    cell = nbformat.v4.new_code_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def _question(number, variable, value, points, test):
    raw = nbformat.v4.new_raw_cell
    config = '""" # BEGIN TEST CONFIG\nhidden: true\n""" # END TEST CONFIG\n'
    return [raw(f"# BEGIN QUESTION\nname: ex99_{number}\npoints: {points}"),
            _code(f"{variable} = {value}  # answer", "answer"),
            _code(f"print(type({variable}).__name__)", "check"),
            raw("# BEGIN TESTS"),
            _code(config + "from obcd_lite.teaching.answers import answer\n" + test, "hidden-test"),
            raw("# END TESTS"), raw("# END QUESTION")]


def fixture_notebook():
    """A three-question assignment: an integer, a string and an open answer checked by a verifier."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# 99 · A fixture assignment"), _code("import numpy as np")]
    nb.cells += _question(1, "fx_count", RIGHT["fx_count"], 1, 'assert answer("fx_count", "int") == 4217')
    nb.cells += _question(2, "fx_name", RIGHT["fx_name"], 2, 'assert answer("fx_name", "str") == "tangent cone"')
    nb.cells += _question(3, "fx_Z", RIGHT["fx_Z"], 1,
                          "from obcd_lite.teaching.exercises import rotations_cannot_make_nonnegative\n"
                          'assert rotations_cannot_make_nonnegative(answer("fx_Z", "matrix"))')
    model = nbformat.v4.new_markdown_cell("Because the tangent cone is a cone.")
    model.metadata["tags"] = ["written-answer"]
    nb.cells += [nbformat.v4.new_raw_cell("# BEGIN QUESTION\nname: ex99_4w\nmanual: true\npoints: 3"),
                 nbformat.v4.new_markdown_cell("**Exercise 4 (written).** Say why."), model,
                 nbformat.v4.new_raw_cell("# END QUESTION")]
    return nb


def with_answers(nb, edits, fake_checks=False, extra=None):
    """A copy of ``nb`` with answer lines replaced (variable -> value), check cells faked, a cell appended."""
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "answer" in tags:
            variable = cell.source.split("=")[0].strip()
            if variable in edits:
                cell.source = f"{variable} = {edits[variable]}  # your answer"
        if "check" in tags and fake_checks:
            cell.source = 'print("correct")'
    if extra is not None:
        nb.cells.append(_code(extra))
    return nb


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _leftovers() -> list[str]:
    found = []
    for proc in psutil.process_iter(["cmdline", "uids"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if any(m in cmdline for m in MARKERS) or (proc.info["uids"] and proc.info["uids"].real >= 1_000_000):
            found.append(f"{proc.pid}: {cmdline[:80]}")
    return found


def assigned(tmp: Path):
    """``assign`` run on the fixture notebook in ``tmp/src``: its bundles, the instructor and student editions."""
    (tmp / "src").mkdir()
    instructor = fixture_notebook()
    nbformat.write(instructor, tmp / "src" / "99_fixture.ipynb")
    bundles = assign_tool.assign(tmp / "src", tmp / "assign")
    return bundles, instructor, nbformat.read(tmp / "assign" / "student" / "99_fixture.ipynb", as_version=4)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grading")
    bundles, instructor, student = assigned(tmp)
    subs = tmp / "subs"
    notebooks = {
        "a_full": instructor, "zz_full": instructor, "untouched": student,
        "one_wrong": with_answers(student, {**RIGHT, "fx_name": WRONG["fx_name"]}),
        "faked_checks": with_answers(student, WRONG, fake_checks=True),
        "looping_then_right": with_answers(student, RIGHT),
    }
    # a looping cell before the answers: it is interrupted and the notebook goes on
    notebooks["looping_then_right"].cells.insert(2, _code("while True:\n    pass"))
    for spoof in sorted(SPOOFS.glob("*.py")):
        notebooks[f"spoof_{spoof.stem}"] = with_answers(student, WRONG, extra=spoof.read_text())
    for who, nb in notebooks.items():
        (subs / who).mkdir(parents=True)
        nbformat.write(nb, subs / who / "99_fixture.ipynb")
    malformed = {"not_json": b"this is not a notebook", "unknown_kernel": None, "symlinked_notebook": None}
    for who in malformed:
        (subs / who).mkdir()
    (subs / "not_json" / "99_fixture.ipynb").write_bytes(malformed["not_json"])
    other = nbformat.from_dict(instructor)
    other.metadata["kernelspec"] = {"name": "ir", "display_name": "R", "language": "R"}
    nbformat.write(other, subs / "unknown_kernel" / "99_fixture.ipynb")
    os.symlink(tmp / "src" / "99_fixture.ipynb", subs / "symlinked_notebook" / "99_fixture.ipynb")
    for folder in ("__MACOSX", ".hidden"):
        (subs / folder).mkdir()
        nbformat.write(instructor, subs / folder / "99_fixture.ipynb")
    os.symlink(subs / "a_full", subs / "symlinked_student")
    victims = {p: _digest(p) for p in (subs / "a_full" / "99_fixture.ipynb", subs / "zz_full" / "99_fixture.ipynb")}
    limits = sandbox.Limits(wall=240.0, cell=30.0, nproc=96)
    table = assign_tool.grade(subs, tmp / "assign" / "grader", tmp / "grades", limits=limits, progress=False)
    with open(table) as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    feedback = {p.stem: p.read_text() for p in (tmp / "grades" / "feedback").glob("*.md")}
    return {"bundles": bundles, "rows": rows, "feedback": feedback, "tmp": tmp, "victims": victims,
            "table": table, "csv": table.read_bytes(), "spoofs": [w for w in notebooks if w.startswith("spoof_")]}


def points(row) -> dict[str, float]:
    return {q: float(row[q]) for q in POINTS}


def test_assign_writes_the_student_edition_and_a_private_bundle(graded):
    tmp = graded["tmp"]
    assert set(graded["bundles"]) == {"99_fixture"}
    assert oct(os.stat(graded["bundles"]["99_fixture"]).st_mode & 0o777) == "0o600"
    student = nbformat.read(tmp / "assign" / "student" / "99_fixture.ipynb", as_version=4)
    text = "\n".join(c.source for c in student.cells)
    assert "hidden" not in text and "BEGIN" not in text and "4217" not in text and "tangent cone" not in text


def test_written_questions_have_an_empty_column_and_are_not_in_the_total(graded):
    """grades.csv keeps a column for the hand grader; the total is the auto-graded points; feedback says so."""
    rows = graded["rows"]
    assert list(rows["a_full"]) == ["student", *POINTS, "ex99_4w", "total"]
    assert {row["ex99_4w"] for row in rows.values()} == {""}
    assert float(rows["a_full"]["total"]) == sum(POINTS.values())
    feedback = graded["feedback"]["a_full"]
    assert "Every auto-graded exercise is right." in feedback and "graded by hand" in feedback
    assert "exercise 99.4w (3)" in feedback


def test_honest_students(graded):
    rows = graded["rows"]
    assert points(rows["a_full"]) == POINTS and points(rows["zz_full"]) == POINTS
    assert points(rows["untouched"]) == dict.fromkeys(POINTS, 0.0)
    assert points(rows["one_wrong"]) == {**POINTS, "ex99_2": 0.0}  # exactly question 2's points lost
    assert points(rows["faked_checks"]) == dict.fromkeys(POINTS, 0.0)  # rewritten check cells change nothing


def test_a_looping_cell_is_interrupted_and_the_rest_graded(graded):
    assert points(graded["rows"]["looping_then_right"]) == POINTS
    assert "interrupted" in graded["feedback"]["looping_then_right"]


@pytest.mark.parametrize("spoof", sorted(p.stem for p in SPOOFS.glob("*.py")))
def test_a_spoof_scores_nothing_it_did_not_earn(graded, spoof):
    row = graded["rows"][f"spoof_{spoof}"]
    assert float(row["total"]) == 0.0, (spoof, row)


def test_the_uninterruptible_loop_is_stopped_with_its_reason(graded):
    # the interrupt is ignored, so this cell and the export after it run out of time: nothing to grade
    assert "ran over 30 s and were interrupted" in graded["feedback"]["spoof_uninterruptible_loop"]


def test_the_wall_clock_budget_stops_a_notebook_and_what_it_did_not_reach_scores_zero(graded, tmp_path):
    """A loop that ignores the interrupt, before the last question's answer: the notebook is stopped, the
    questions answered before the loop are graded (their answers as set), the last one scores 0."""
    student = nbformat.read(graded["tmp"] / "assign" / "student" / "99_fixture.ipynb", as_version=4)
    looping = with_answers(student, RIGHT)
    last_answer = max(i for i, c in enumerate(looping.cells) if "answer" in c.metadata.get("tags", []))
    looping.cells.insert(last_answer, _code((SPOOFS / "uninterruptible_loop.py").read_text()))
    (tmp_path / "subs" / "looping").mkdir(parents=True)
    nbformat.write(looping, tmp_path / "subs" / "looping" / "99_fixture.ipynb")
    table = assign_tool.grade(tmp_path / "subs", graded["tmp"] / "assign" / "grader", tmp_path / "grades",
                              limits=sandbox.Limits(wall=60.0, cell=600.0), progress=False)
    with open(table) as handle:
        (row,) = csv.DictReader(handle)
    assert points(row) == {**POINTS, "ex99_3": 0.0}
    feedback = (tmp_path / "grades" / "feedback" / "looping.md").read_text()
    assert "did not finish within 60 s" in feedback and "as they were when their cells ran" in feedback
    assert _leftovers() == []


def test_spoofs_harm_no_other_student(graded):
    rows, feedback = graded["rows"], graded["feedback"]
    for who in ("a_full", "zz_full"):
        assert points(rows[who]) == POINTS and "Every auto-graded exercise is right." in feedback[who]
    assert all(_digest(p) == d for p, d in graded["victims"].items())
    assert sorted(p.name for p in (graded["tmp"] / "assign" / "grader").iterdir()) == ["99_fixture.json"]
    time.sleep(3)  # a daemon that survived would rewrite grades.csv by now
    assert graded["table"].read_bytes() == graded["csv"]


def test_no_process_is_left_behind(graded):
    assert _leftovers() == []


def test_malformed_submissions_score_zero_with_a_reason_and_stop_nobody(graded):
    rows, feedback = graded["rows"], graded["feedback"]
    for who, reason in (("not_json", "not a readable notebook"), ("unknown_kernel", "another kernel"),
                        ("symlinked_notebook", "a symlink")):
        assert float(rows[who]["total"]) == 0.0 and reason in feedback[who], who
    assert not {"__MACOSX", ".hidden", "symlinked_student"} & set(rows)
    refused = (graded["tmp"] / "grades" / "refused.txt").read_text()
    assert "__MACOSX" in refused and ".hidden" in refused and "symlinked_student: a symlink" in refused


def test_feedback_names_the_failed_questions_and_no_expected_value(graded):
    feedback = graded["feedback"]
    assert "exercise 99.2: 0 of 2 points" in feedback["one_wrong"] and "99.1" not in feedback["one_wrong"]
    for text in feedback.values():
        for value in (*RIGHT.values(), *WRONG.values(), "tangent", "assert", "1.0, -1.0"):
            assert value.strip("'") not in text


def test_limits_and_workers_are_validated():
    with pytest.raises(ValueError, match="Limits.wall must be positive, got 0"):
        sandbox.Limits(wall=0)
    with pytest.raises(ValueError, match="workers must be at least 1, got 0"):
        assign_tool.grade(Path("."), Path("."), Path("."), workers=0)


def test_the_fallback_sandbox_grades_the_same(graded, tmp_path):
    """Without bwrap (forced): own session, rlimits, scratch folder; the same points for honest work."""
    for who in ("a_full", "untouched", "one_wrong"):
        (tmp_path / "subs" / who).mkdir(parents=True)
        (tmp_path / "subs" / who / "99_fixture.ipynb").write_bytes(
            (graded["tmp"] / "subs" / who / "99_fixture.ipynb").read_bytes())
    table = assign_tool.grade(tmp_path / "subs", graded["tmp"] / "assign" / "grader", tmp_path / "grades",
                              use_bwrap=False, progress=False)
    with open(table) as handle:
        rows = {row["student"]: points(row) for row in csv.DictReader(handle)}
    assert rows == {"a_full": POINTS, "untouched": dict.fromkeys(POINTS, 0.0), "one_wrong": {**POINTS, "ex99_2": 0.0}}
