"""No answer before its exercise (issue 35): nothing a student reads above an exercise gives its answer.

For every question of every instructor notebook (otter markup, ``# BEGIN QUESTION``), the *region above
it* is the student edition, with its stored outputs as the site shows them (``keep_outputs=True``), of
every cell before the exercise's prompt: markdown, code and the text of the outputs (streams,
``text/plain``, ``text/html``, ``text/markdown``, ``text/latex``). The prompt is the last markdown cell
before the question's markup that is not inside another question (so a shared "## Exercises" cell counts
as the prompt of every question it states).

What gives an answer away is written down per question in ``tests/grading/reveals/nbNN.py``
(``REVEALS = {"ex02_3": [regex, ...]}``): the sentences, printed lines and formulas that state it. Every
graded question has an entry; every regex matches somewhere in the instructor notebook (its solution,
a later section or an output), so that it describes text that exists and is not a typo; and none
matches the region above its exercise. ``test_the_scan_can_fail`` plants each giveaway above its
exercise and checks that the scan reports it.
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.joinpath("notebooks").glob("0[1-8]_*.ipynb"))
REVEALS_DIR = Path(__file__).resolve().parent / "reveals"
QUESTION_NAME = re.compile(r"name:\s*(\w+)")
TEXT_MIMES = ("text/plain", "text/html", "text/markdown", "text/latex")


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STUDENT_EDITION = _load(ROOT / "tools" / "student_edition.py")


def reveals_of(notebook: Path) -> dict[str, list[str]]:
    """The giveaway regexes of a notebook's questions (an empty dict when its file is missing)."""
    path = REVEALS_DIR / f"nb{notebook.name[:2]}.py"
    return dict(_load(path).REVEALS) if path.exists() else {}


def _is_markup(cell, word: str) -> bool:
    return cell.cell_type == "raw" and cell.source.strip().startswith(word)


def questions(nb) -> list[tuple[str, bool, int]]:
    """(name, manual, index of its prompt cell) of each question, in order."""
    found, inside = [], False
    for i, cell in enumerate(nb.cells):
        if _is_markup(cell, "# BEGIN QUESTION"):
            prompt = next((j for j in range(i - 1, -1, -1) if nb.cells[j].cell_type == "markdown"
                           and not _inside_question(nb, j)), 0)
            manual = bool(re.search(r"manual:\s*true", cell.source, re.IGNORECASE))
            found.append((QUESTION_NAME.search(cell.source)[1], manual, prompt))
            inside = True
        elif _is_markup(cell, "# END QUESTION"):
            inside = False
    assert not inside, "a question's markup is not closed"
    return found


def _inside_question(nb, index: int) -> bool:
    """Whether cell ``index`` lies between a ``# BEGIN QUESTION`` and its ``# END QUESTION``."""
    depth = 0
    for cell in nb.cells[:index]:
        if _is_markup(cell, "# BEGIN QUESTION"):
            depth += 1
        elif _is_markup(cell, "# END QUESTION"):
            depth -= 1
    return depth > 0


def cell_text(cell) -> str:
    """A cell's source and the text of its outputs."""
    parts = [cell.source]
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        for mime in TEXT_MIMES:
            value = out.get("data", {}).get(mime)
            if value:
                parts.append(value if isinstance(value, str) else "".join(value))
    return "\n".join(parts)


def region_above(nb, prompt: int) -> list[tuple[int, str]]:
    """(student-edition position, text) of each cell a student sees above the prompt cell."""
    head = nbformat.from_dict(nb)
    head.cells = head.cells[:prompt]
    student = STUDENT_EDITION.student_notebook(head, keep_outputs=True)
    return [(i, cell_text(c)) for i, c in enumerate(student.cells)]


def scan(nb, name: str, prompt: int, patterns: list[str]) -> list[str]:
    """Where a giveaway of question ``name`` appears above its prompt: one line per (pattern, cell)."""
    found = []
    for pattern in patterns:
        for i, text in region_above(nb, prompt):
            m = re.search(pattern, text, re.DOTALL)
            if m:
                found.append(f"{name}: {pattern!r} matches {m[0]!r} in cell {i} above the exercise")
    return found


def whole_text(nb) -> str:
    return "\n".join(cell_text(c) for c in nb.cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_question_names_its_giveaways(path):
    """Each graded question has giveaways written down; each is real text of the notebook."""
    nb = nbformat.read(path, as_version=4)
    reveals = reveals_of(path)
    names = [name for name, _, _ in questions(nb)]
    graded = [name for name, manual, _ in questions(nb) if not manual]
    assert not set(reveals) - set(names), f"{path.name}: giveaways of unknown questions {set(reveals) - set(names)}"
    missing = [name for name in graded if not reveals.get(name)]
    assert not missing, f"{path.name}: no giveaways written down for {missing} (tests/grading/reveals/)"
    text = whole_text(nb)
    for name, patterns in reveals.items():
        for pattern in patterns:
            assert re.search(pattern, text, re.DOTALL), f"{path.name} {name}: {pattern!r} matches nothing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_answer_above_its_exercise(path):
    nb = nbformat.read(path, as_version=4)
    reveals = reveals_of(path)
    found = [line for name, _, prompt in questions(nb) for line in scan(nb, name, prompt, reveals.get(name, []))]
    assert not found, f"{path.name}:\n" + "\n".join(found)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_scan_can_fail(path):
    """Each giveaway, planted as a markdown cell at the top, is reported for its question."""
    nb = nbformat.read(path, as_version=4)
    text = whole_text(nb)
    prompts = {name: prompt for name, _, prompt in questions(nb)}
    for name, patterns in reveals_of(path).items():
        for pattern in patterns:
            planted = nbformat.from_dict(nb)
            planted.cells.insert(0, nbformat.v4.new_markdown_cell(re.search(pattern, text, re.DOTALL)[0]))
            assert scan(planted, name, prompts[name] + 1, [pattern]), (path.name, name, pattern)
