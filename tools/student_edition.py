"""Build the student edition of the notebooks: answers become placeholders, solutions go.

    python tools/student_edition.py [--src notebooks] [--out build/student]

In the instructor notebooks (``notebooks/NN_*.ipynb``, stored with outputs and checked by nbval):

* a code cell tagged ``answer`` holds the exercise's answer lines, each ending in ``# answer``;
  in the student edition every such line ``target = value  # answer`` becomes
  ``target = ...  # your answer`` (one ``...`` per target of a tuple assignment);
* a cell tagged ``check`` runs the exercise's check: with a placeholder it fails with its hint;
* a markdown cell tagged ``written-answer`` (a written question's model answer) keeps its tag, so that
  the grader finds the student's answer there, but its text becomes :data:`WRITTEN_PLACEHOLDER` and its
  attachments go (the model answer never reaches a student, the site's student edition included); its
  metadata gains ``obcd_question: <name>`` (the question it answers);
* cells tagged ``solution`` and the speaker notes (markdown tagged ``notes``) are removed, and so is the
  grading markup of otter-grader (raw cells
  ``# BEGIN QUESTION`` ... ``# END QUESTION`` and every cell between ``# BEGIN TESTS`` and ``# END TESTS``:
  the hidden tests, which know the answers; ``tools/assign.py`` builds the grader's bundle from them).

Every output, execution count and the stored widget state are cleared (outputs would show the
answers). Needs only the standard library and nbformat.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ANSWER_LINE = re.compile(r"^(?P<indent>\s*)(?P<targets>[A-Za-z_][\w\s,]*?)\s*=(?!=)\s*(?P<value>.+?)\s*#\s*answer\s*$")
PLACEHOLDER_COMMENT = "# your answer"
WRITTEN_PLACEHOLDER = "_Type your answer here, replacing this text._"
QUESTION_NAME = re.compile(r"^name:\s*(\w+)\s*$", re.M)


def placeholder_line(line: str) -> str:
    """``a, b = 1, 2  # answer`` -> ``a, b = ..., ...  # your answer``; other lines unchanged."""
    m = ANSWER_LINE.match(line)
    if m is None:
        return line
    targets = [t.strip() for t in m["targets"].split(",") if t.strip()]
    dots = ", ".join("..." for _ in targets)
    return f"{m['indent']}{', '.join(targets)} = {dots}  {PLACEHOLDER_COMMENT}"


OTTER_MARKUP = re.compile(r"^#\s*(BEGIN|END)\s+(QUESTION|TESTS|SOLUTION|PROMPT)\b")


def is_markup(cell) -> bool:
    """A raw cell of otter-grader's assignment markup (``# BEGIN TESTS``, ``# END QUESTION``, ...)."""
    return cell.cell_type == "raw" and bool(OTTER_MARKUP.match(cell.source.strip()))


def is_notes(cell) -> bool:
    """A lecturer's speaker-notes cell (tag ``notes`` or ``slideshow.slide_type`` "notes", as
    tools/build_slides.py reads them): not part of what a student reads."""
    return cell.cell_type == "markdown" and (
        "notes" in cell.metadata.get("tags", []) or cell.metadata.get("slideshow", {}).get("slide_type") == "notes")


def student_notebook(nb, keep_outputs: bool = False):
    """The student edition of one notebook (a new object; ``nb`` is not changed).

    ``keep_outputs`` (the site's student edition): the stored outputs stay, except those of the
    answer and check cells; the widget state stays too (the site draws explorers from it).
    """
    nb = nbformat.from_dict(nb)  # a deep copy
    cells = []
    in_tests, question = False, None
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if is_markup(cell):
            marker = cell.source.strip()
            in_tests = marker.startswith("# BEGIN TESTS")
            if marker.startswith("# BEGIN QUESTION"):
                name = QUESTION_NAME.search(marker)
                question = name[1] if name else None
            continue
        if in_tests or "solution" in tags or "hidden-test" in tags or is_notes(cell):
            continue
        if "written-answer" in tags:
            cell.source = WRITTEN_PLACEHOLDER
            cell.pop("attachments", None)
            if question is not None:
                cell.metadata["obcd_question"] = question
        if "answer" in tags:
            lines = cell.source.splitlines()
            new = [placeholder_line(line) for line in lines]
            if new == lines:
                raise ValueError(f"a cell tagged 'answer' has no line ending in '# answer':\n{cell.source}")
            cell.source = "\n".join(new)
        if cell.cell_type == "code" and (not keep_outputs or {"answer", "check"} & set(tags)):
            cell.outputs = []
            cell.execution_count = None
        cells.append(cell)
    nb.cells = cells
    if not keep_outputs:
        nb.metadata.pop("widgets", None)
    return nb


def build(src: Path, out: Path) -> list[Path]:
    """Write the student edition of every ``src/NN_*.ipynb`` into ``out``; returns the written paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(src.glob("[0-9][0-9]_*.ipynb")):
        target = out / path.name
        nbformat.write(student_notebook(nbformat.read(path, as_version=4)), target)
        written.append(target)
    if not written:
        raise FileNotFoundError(f"no notebooks NN_*.ipynb in {src}")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = Path(__file__).resolve().parents[1]
    parser.add_argument("--src", type=Path, default=root / "notebooks")
    parser.add_argument("--out", type=Path, default=root / "build" / "student")
    args = parser.parse_args(argv)
    for path in build(args.src, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
