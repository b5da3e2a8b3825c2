"""The grader's bundle: per graded notebook, its questions, points, answer variables and hidden tests (JSON).

Read from the instructor notebooks' markup (otter-grader's syntax, docs/course.md): a raw cell
``# BEGIN QUESTION`` / ``name: ex03_1`` / ``points: 1``, the answer cell(s) (tag ``answer``; each line
``target = value  # answer`` names answer variables), and between raw cells ``# BEGIN TESTS`` and
``# END TESTS`` the hidden tests (tag ``hidden-test``), which read answers with
``obcd_lite.teaching.answers.answer`` and run in the grader's process, never in the student's kernel.

A **written** (manual) question has ``manual: true`` in its ``# BEGIN QUESTION`` cell, one or more markdown
cells with its prompt, one markdown cell tagged ``written-answer`` (the instructor's model answer; the
student edition replaces its text) and no tests: it is graded by hand from the PDFs of
:mod:`written` (docs/course.md).
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

CONFIG_LINE = re.compile(r"^(?P<key>\w+):\s*(?P<value>.*?)\s*$")
TEST_CONFIG = re.compile(r'^""" # BEGIN TEST CONFIG.*?""" # END TEST CONFIG\n?', re.S)


def _marker(cell) -> str:
    return cell.source.strip().splitlines()[0] if cell.cell_type == "raw" and cell.source.strip() else ""


def _config(source: str) -> dict[str, str]:
    """The ``key: value`` lines of a ``# BEGIN QUESTION`` cell (otter's YAML, flat)."""
    lines = [CONFIG_LINE.match(line.strip()) for line in source.strip().splitlines()[1:] if line.strip()]
    if not all(lines):
        raise ValueError(f"a '# BEGIN QUESTION' cell has a line that is not 'key: value':\n{source}")
    return {m["key"]: m["value"] for m in lines}


def _new_question(source: str) -> dict:
    config = _config(source)
    name, points, manual = config.get("name", ""), config.get("points", ""), config.get("manual", "false")
    if not re.fullmatch(r"\w+", name):
        raise ValueError(f"a '# BEGIN QUESTION' cell needs 'name: <identifier>', got name={name!r}")
    if not re.fullmatch(r"\d+(\.\d*)?", points):
        raise ValueError(f"question {name}: needs 'points: <number>', got points={points!r}")
    if manual.lower() not in ("true", "false"):
        raise ValueError(f"question {name}: 'manual' must be true or false, got manual={manual!r}")
    if manual.lower() == "true":
        return {"name": name, "points": float(points), "manual": True, "prompt": [], "model_answer": None}
    return {"name": name, "points": float(points), "answers": [], "tests": []}


def all_questions(nb) -> list[dict]:
    """Every question of an instructor notebook, in order: graded ones and written (manual) ones.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The instructor notebook.

    Returns
    -------
    list of dict
        A graded question: ``{"name", "points", "answers": [variable, ...], "tests": [source, ...]}``;
        a written one: ``{"name", "points", "manual": True, "prompt": markdown, "model_answer": markdown}``.

    Raises
    ------
    ValueError
        If a graded question has no answer variable or no hidden test, a written one no prompt, exactly one
        ``written-answer`` cell or has hidden tests, or the markup is not closed.
    """
    found, current, in_tests = [], None, False
    for cell in nb.cells:
        marker = _marker(cell)
        tags = cell.metadata.get("tags", [])
        if marker == "# BEGIN QUESTION":
            if current is not None:
                raise ValueError(f"question {current['name']}: no '# END QUESTION' before the next question")
            current = _new_question(cell.source)
        elif marker == "# END QUESTION" and current is not None:
            if current.get("manual"):
                if not current["prompt"] or current["model_answer"] is None:
                    raise ValueError(f"written question {current['name']}: needs a markdown prompt and one "
                                     "markdown cell tagged 'written-answer'")
                current["prompt"] = "\n\n".join(current["prompt"])
            elif not current["answers"] or not current["tests"]:
                raise ValueError(f"question {current['name']}: needs an answer cell and a hidden test")
            found.append(current)
            current = None
        elif marker in ("# BEGIN TESTS", "# END TESTS"):
            if current is not None and current.get("manual"):
                raise ValueError(f"written question {current['name']}: has hidden tests (graded by hand: none)")
            in_tests = marker == "# BEGIN TESTS"
        elif current is not None and current.get("manual"):
            if cell.cell_type != "markdown" or "solution" in tags:
                continue
            if "written-answer" in tags:
                if current["model_answer"] is not None:
                    raise ValueError(f"written question {current['name']}: more than one 'written-answer' cell")
                current["model_answer"] = cell.source
            elif current["model_answer"] is None:  # the prompt: the markdown before the answer cell
                current["prompt"].append(cell.source)
        elif current is not None and cell.cell_type == "code":
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


def questions(nb) -> list[dict]:
    """The auto-graded questions of an instructor notebook, in order (:func:`all_questions` without the
    written ones)."""
    return [q for q in all_questions(nb) if not q.get("manual")]


def manual_questions(nb) -> list[dict]:
    """The written (manual) questions of an instructor notebook, in order."""
    return [q for q in all_questions(nb) if q.get("manual")]


def build_bundle(src: Path, out: Path) -> dict[str, Path]:
    """Write ``out/<stem>.json`` for every ``src/NN_*.ipynb`` with questions (mode 0600: the hidden tests
    and model answers never leave the instructor); returns stem -> path. ``"questions"`` holds the graded
    questions, ``"manual"`` the written ones (name, points, prompt, model answer; no tests)."""
    out.mkdir(parents=True, exist_ok=True)
    os.chmod(out, 0o700)
    for old in out.glob("*"):
        old.unlink()
    written = {}
    for path in sorted(src.glob("[0-9][0-9]_*.ipynb")):
        found = all_questions(nbformat.read(path, as_version=4))
        if not found:
            continue
        target = out / f"{path.stem}.json"
        graded, manual = [q for q in found if not q.get("manual")], [q for q in found if q.get("manual")]
        target.write_text(json.dumps({"notebook": path.name, "questions": graded, "manual": manual}, indent=1) + "\n")
        os.chmod(target, 0o600)
        written[path.stem] = target
    return written


def load_bundle(bundle_dir: Path) -> dict[str, dict]:
    """stem -> bundle of every ``bundle_dir/NN_*.json``."""
    bundles = {p.stem: json.loads(p.read_text()) for p in sorted(bundle_dir.glob("[0-9][0-9]_*.json"))}
    if not bundles:
        raise FileNotFoundError(f"no bundle NN_name.json in {bundle_dir}: run `make assign` first")
    return bundles
