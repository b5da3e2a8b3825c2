"""Every notebook with graded questions, graded by its real hidden tests (tools/grading).

In the grader's process, on plain data: the instructor's answers (the answer cells run after the
notebook's setup cell) score full points, placeholders zero, and each question's deliberately wrong
answer loses exactly that question. End to end, through the sandbox: a reduced notebook per graded
notebook — its setup cell, a few cheap definitions the answer cells read (``STUBS``, the notebook's own
lines) and every graded question's cells verbatim — scores full points as the instructor's edition and
zero as the untouched student edition. (The full notebooks end to end: ``OBCD_GRADE_FULL=1``.)
"""
from __future__ import annotations

import csv
import importlib.util
import json
import os
from pathlib import Path

import nbformat
import numpy as np
import pytest
import sympy as sp

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("assign", ROOT / "tools" / "assign.py")
assign_tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(assign_tool)
from grading import sandbox  # noqa: E402
from grading.bundle import questions  # noqa: E402
from grading.grade import run_tests  # noqa: E402

from obcd_lite.teaching.answers import encode  # noqa: E402

NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").glob("0[1-9]_*.ipynb")
                   if questions(nbformat.read(p, as_version=4)))
#: What the answer cells read from the notebook besides the setup cell (the notebook's own definitions).
STUBS = {
    "03_completeness": "",
    "04_sparse_pca": 'spiked = load_dataset("spiked", rng=SEED)\nfrom obcd_lite.teaching.exercises import check, form',
    "05_optimality_hierarchy": "alphas = np.logspace(-5, 2, 15)\nfrom obcd_lite.teaching.exercises import check, form",
    "07_relatives": "inst = procrustes_instance(20, mismatch=True, rng=0)\np = inst.M.shape[0]",
}
#: Per question, one answer variable and a wrong value of the right form.
WRONG = {
    "ex01_1": ("T_exercise", np.eye(2)), "ex01_2": ("Q_exercise", sp.Matrix([[0, 1], [1, 0]])),
    "ex01_3": ("mu_exercise", 0.5), "ex02_1": ("lost_root_kind", "stationary"),
    "ex02_2": ("a_shift", sp.Integer(0)), "ex02_3": ("sigmas_of_rot_roots", [1, 1]),
    "ex02_4": ("Z_infeasible", np.array([[1.0, 0.5], [0.0, 1.0]])), "ex03_1": ("my_count", 35),
    "ex03_2": ("my_rows", (4, 5)), "ex03_3": ("my_swap_theta", 0.0), "ex03_4": ("smallest_F_rotations_only", 2.0),
    "ex04_1": ("my_nnz", 34), "ex04_2": ("my_manpg_mu", 100.0),
    "ex04_3": ("scalar_q_moves_from_identity", True),
    "ex05_1": ("bs2_without_zeros_is_critical", False), "ex05_2": ("my_alpha_star", 10.0), "ex05_3": ("my_gamma", 4),
    "ex06_1": ("my_false_count", 5), "ex06_2": ("my_index_count", 3), "ex06_3": ("my_ratio", 1.0),
    "ex07_1": ("my_gap", 0.1), "ex07_2": ("my_names", {"obcd", "rcd"}), "ex07_3": ("floor_is_critical_answer", False),
    "ex08_1": ("my_density_gradient", lambda X: X), "ex08_2": ("my_density_L", 1.0),
    "ex08_3": ("nonneg_must_be_critical", False),
}


def setup_cell(nb) -> str:
    """The notebook's first code cell that imports from obcd_lite, without IPython magics."""
    cell = next(c for c in nb.cells if c.cell_type == "code" and "from obcd_lite" in c.source)
    return "\n".join(line for line in cell.source.splitlines() if not line.startswith("%"))


def reduced(nb, stem: str):
    """The setup cell, the stubs and the graded questions' cells (markup, answers, checks, hidden tests)."""
    out = nbformat.v4.new_notebook(metadata=nb.metadata)
    out.cells = [nbformat.v4.new_code_cell(setup_cell(nb) + "\n" + STUBS.get(stem, ""))]
    inside = False
    for cell in nb.cells:
        marker = cell.source.strip().splitlines()[0] if cell.cell_type == "raw" and cell.source.strip() else ""
        if marker == "# BEGIN QUESTION":
            inside = True
        if inside:
            out.cells.append(cell)
        if marker == "# END QUESTION":
            inside = False
    return out


def instructor_answers(nb, stem: str) -> dict:
    """The answer variables after the setup cell, the stubs and the answer cells ran here, as exported data."""
    namespace: dict = {}
    exec(setup_cell(nb) + "\n" + STUBS.get(stem, ""), namespace)  # noqa: S102 (the repository's own notebook)
    for cell in nb.cells:
        if "answer" in cell.metadata.get("tags", []):
            exec(cell.source, namespace)  # noqa: S102
    names = [name for q in questions(nb) for name in q["answers"]]
    return json.loads(json.dumps({name: encode(namespace[name]) for name in names}))


@pytest.fixture(scope="module", params=NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def notebook(request):
    nb = nbformat.read(request.param, as_version=4)
    return request.param.stem, nb, questions(nb), instructor_answers(nb, request.param.stem)


def test_every_graded_question_has_a_wrong_answer_here():
    names = {q["name"] for p in NOTEBOOKS for q in questions(nbformat.read(p, as_version=4))}
    assert names == set(WRONG)


def test_the_instructor_answers_score_full_points(notebook):
    _, _, found, data = notebook
    assert {q["name"]: run_tests(q, data) for q in found} == {q["name"]: (q["points"], "") for q in found}


def test_placeholders_and_missing_answers_score_zero(notebook):
    _, _, found, data = notebook
    for empty in ({name: {"t": "ellipsis"} for name in data}, {}):
        assert [run_tests(q, empty)[0] for q in found] == [0.0] * len(found)


def test_each_wrong_answer_loses_exactly_its_question(notebook):
    _, _, found, data = notebook
    for question in found:
        variable, value = WRONG[question["name"]]
        wrong = {**data, variable: json.loads(json.dumps(encode(value)))}
        lost = [q["name"] for q in found if run_tests(q, wrong)[0] < q["points"]]
        assert lost == [question["name"]], (question["name"], lost)


@pytest.mark.skipif(not sandbox.bwrap_works() and not os.environ.get("CI"),
                                 reason="bubblewrap (bwrap) cannot start a sandbox here (under CI this fails instead)")
def test_end_to_end_the_instructor_edition_scores_full_points_and_the_student_edition_zero(tmp_path):
    full = os.environ.get("OBCD_GRADE_FULL") == "1"
    (tmp_path / "src").mkdir()
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        nbformat.write(nb if full else reduced(nb, path.stem), tmp_path / "src" / path.name)
    assign_tool.assign(tmp_path / "src", tmp_path / "assign")
    for who, folder in (("instructor", tmp_path / "src"), ("student", tmp_path / "assign" / "student")):
        (tmp_path / "subs" / who).mkdir(parents=True)
        for path in NOTEBOOKS:
            (tmp_path / "subs" / who / path.name).write_bytes((folder / path.name).read_bytes())
    table = assign_tool.grade(tmp_path / "subs", tmp_path / "assign" / "grader", tmp_path / "grades", progress=False)
    with open(table) as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    total = sum(q["points"] for p in NOTEBOOKS for q in questions(nbformat.read(p, as_version=4)))
    feedback = (tmp_path / "grades" / "feedback" / "instructor.md").read_text()
    assert float(rows["instructor"]["total"]) == total, feedback
    assert float(rows["student"]["total"]) == 0.0
