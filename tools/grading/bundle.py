"""The grader's bundle: per graded notebook, its questions, points, answer variables and hidden tests (JSON).

Read from the instructor notebooks' markup (otter-grader's syntax, docs/course.md): a raw cell
``# BEGIN QUESTION`` / ``name: ex03_1`` / ``points: 1``, the answer cell(s) (tag ``answer``; each line
``target = value  # answer`` names answer variables), and between raw cells ``# BEGIN TESTS`` and
``# END TESTS`` the hidden tests (tag ``hidden-test``), which read answers with
``obcd_lite.teaching.answers.answer`` and run in the grader's process, never in the student's kernel.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/: student_edition.py
from student_edition import ANSWER_LINE  # noqa: E402

QUESTION = re.compile(r"^# BEGIN QUESTION\s*\nname:\s*(?P<name>\w+)\s*\npoints:\s*(?P<points>[\d.]+)", re.M)
MANUAL = re.compile(r"^manual:\s*true\s*$", re.M | re.I)
TEST_CONFIG = re.compile(r'^""" # BEGIN TEST CONFIG.*?""" # END TEST CONFIG\n?', re.S)


def _marker(cell) -> str:
    return cell.source.strip().splitlines()[0] if cell.cell_type == "raw" and cell.source.strip() else ""


def questions(nb) -> list[dict]:
    """The graded questions of an instructor notebook, in order.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The instructor notebook.

    Returns
    -------
    list of dict
        ``{"name", "points", "answers": [variable, ...], "tests": [source, ...]}`` per question; manual
        (written) questions, ``manual: true``, are not in it.

    Raises
    ------
    ValueError
        If a question has no answer variable or no hidden test, or its markup is not closed.
    """
    found, current, in_tests = [], None, False
    for cell in nb.cells:
        marker = _marker(cell)
        if marker == "# BEGIN QUESTION" and MANUAL.search(cell.source):
            continue  # a written (manual) question: graded by hand, no answer variable or hidden test
        match = QUESTION.match(cell.source.strip()) if marker == "# BEGIN QUESTION" else None
        if match:
            current = {"name": match["name"], "points": float(match["points"]), "answers": [], "tests": []}
        elif marker == "# END QUESTION" and current is not None:
            if not current["answers"] or not current["tests"]:
                raise ValueError(f"question {current['name']}: needs an answer cell and a hidden test")
            found.append(current)
            current = None
        elif marker in ("# BEGIN TESTS", "# END TESTS"):
            in_tests = marker == "# BEGIN TESTS"
        elif current is not None and cell.cell_type == "code":
            tags = cell.metadata.get("tags", [])
            if in_tests and "hidden-test" in tags:
                current["tests"].append(TEST_CONFIG.sub("", cell.source.strip() + "\n"))
            elif "answer" in tags:
                for line in cell.source.splitlines():
                    m = ANSWER_LINE.match(line)
                    if m:
                        current["answers"] += [t.strip() for t in m["targets"].split(",") if t.strip()]
    if current is not None:
        raise ValueError(f"question {current['name']}: no '# END QUESTION'")
    return found


def build_bundle(src: Path, out: Path) -> dict[str, Path]:
    """Write ``out/<stem>.json`` for every ``src/NN_*.ipynb`` with graded questions (mode 0600: the hidden
    tests never leave the instructor); returns stem -> path."""
    out.mkdir(parents=True, exist_ok=True)
    os.chmod(out, 0o700)
    for old in out.glob("*"):
        old.unlink()
    written = {}
    for path in sorted(src.glob("[0-9][0-9]_*.ipynb")):
        found = questions(nbformat.read(path, as_version=4))
        if not found:
            continue
        target = out / f"{path.stem}.json"
        target.write_text(json.dumps({"notebook": path.name, "questions": found}, indent=1) + "\n")
        os.chmod(target, 0o600)
        written[path.stem] = target
    return written


def load_bundle(bundle_dir: Path) -> dict[str, dict]:
    """stem -> bundle of every ``bundle_dir/NN_*.json``."""
    bundles = {p.stem: json.loads(p.read_text()) for p in sorted(bundle_dir.glob("[0-9][0-9]_*.json"))}
    if not bundles:
        raise FileNotFoundError(f"no bundle NN_name.json in {bundle_dir}: run `make assign` first")
    return bundles
