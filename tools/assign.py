"""Hand out and grade the exercises with otter-grader: ``make assign`` and ``make grade``.

    python tools/assign.py assign [--src notebooks] [--out build/assign]
    python tools/assign.py grade SUBMISSIONS [--bundle build/assign/grader] [--out build/grades]
    python tools/assign.py digest QUESTION VALUE      # the digest a self-check compares with

**Markup** (in the instructor notebooks, otter-grader's): each exercise is a question between raw cells
``# BEGIN QUESTION`` (``name: ex03_1``, ``points: 1``) and ``# END QUESTION``; its hidden tests are the
code cells between ``# BEGIN TESTS`` and ``# END TESTS`` (each starts with otter's ``hidden: true``
config and is tagged ``hidden-test``). They hold the expected values; nothing else does.

``assign`` writes ``OUT/student/`` (tools/student_edition.py: answers ``...``, no solutions, no hidden
tests, no outputs) and ``OUT/grader/`` (per notebook with questions, the autograder zip that
``otter assign`` builds: the hidden tests, which never leave the instructor's machine).

``grade`` grades ``SUBMISSIONS/<student>/<NN_name>.ipynb`` (one folder per student) with ``otter run``:
each notebook executed from the top in a fresh kernel, offline, without containers, then the bundle's
hidden tests run against it. Visible check cells play no part: a student who edits them is graded
by the same hidden tests. It writes ``OUT/grades.csv`` (one row per student, the points of every
question and the total) and ``OUT/feedback/<student>.md``, which names each question that lost points
and never shows a test, an expected value or the student's output.
"""
from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
#: otter assign's configuration (prepended at build time): no otter cells in the notebook, no run.
ASSIGNMENT_CONFIG = ("# ASSIGNMENT CONFIG\ninit_cell: false\ncheck_all_cell: false\nexport_cell: false\n"
                     "run_tests: false\nrequirements: null\nenvironment: null\n")
QUESTION = re.compile(r"^# BEGIN QUESTION\s*\nname:\s*(?P<name>\w+)\s*\npoints:\s*(?P<points>[\d.]+)", re.M)


def questions(nb) -> dict[str, float]:
    """Question name -> points, in the notebook's order."""
    found = {}
    for cell in nb.cells:
        match = QUESTION.match(cell.source.strip()) if cell.cell_type == "raw" else None
        if match:
            found[match["name"]] = float(match["points"])
    return found


def assign(src: Path, out: Path) -> dict[str, Path]:
    """The student edition into ``out/student`` and one autograder zip per graded notebook into
    ``out/grader``; returns notebook stem -> zip."""
    sys.path.insert(0, str(ROOT / "tools"))  # student_edition.py, beside this file
    from student_edition import build

    build(src, out / "student")
    grader = out / "grader"
    shutil.rmtree(grader, ignore_errors=True)
    grader.mkdir(parents=True)
    bundles = {}
    for path in sorted(src.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        if not questions(nb):
            continue
        nb.cells.insert(0, nbformat.v4.new_raw_cell(ASSIGNMENT_CONFIG))
        with tempfile.TemporaryDirectory() as tmp:
            master = Path(tmp) / path.name
            nbformat.write(nb, master)
            subprocess.run([sys.executable, "-m", "otter", "assign", "-v", str(master), str(Path(tmp) / "dist")],
                           check=True, cwd=tmp, capture_output=True, text=True)
            (zip_path,) = (Path(tmp) / "dist" / "autograder").glob("*.zip")
            bundles[path.stem] = shutil.copy(zip_path, grader / f"{path.stem}.zip")
            (grader / f"{path.stem}.json").write_text(json.dumps(questions(nb), indent=1) + "\n")
    return {stem: Path(p) for stem, p in bundles.items()}


def grade_one(submission: Path, bundle: Path) -> dict[str, float]:
    """``otter run`` on one submitted notebook: question -> points scored."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / submission.name
        shutil.copy(submission, work)
        run = subprocess.run([sys.executable, "-m", "otter", "run", "--no-logo", "-a", str(bundle.resolve()),
                              "-o", tmp, str(work)], cwd=tmp, capture_output=True, text=True)
        results = Path(tmp) / "results.json"
        if not results.exists():
            raise RuntimeError(f"otter run could not grade {submission}:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
        tests = json.loads(results.read_text())["tests"]
    return {t["name"]: float(t["score"] or 0.0) for t in tests if t.get("max_score") is not None}


def grade(submissions: Path, bundle_dir: Path, out: Path) -> Path:
    """Grade every ``submissions/<student>/<NN_name>.ipynb``; write grades.csv and feedback/."""
    bundles = {p.stem: p for p in sorted(bundle_dir.glob("*.zip"))}
    if not bundles:
        raise FileNotFoundError(f"no autograder zips in {bundle_dir}: run `make assign` first")
    points = {stem: json.loads((bundle_dir / f"{stem}.json").read_text()) for stem in bundles}
    students = sorted(p for p in submissions.iterdir() if p.is_dir())
    if not students:
        raise FileNotFoundError(f"no student folders in {submissions} (expected {submissions}/<student>/NN_name.ipynb)")
    columns = [q for stem in bundles for q in points[stem]]
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    rows = []
    for student in students:
        scores: dict[str, float] = dict.fromkeys(columns, 0.0)
        lines = [f"# Feedback for {student.name}", ""]
        for stem, bundle in bundles.items():
            submitted = student / f"{stem}.ipynb"
            if not submitted.exists():
                lines.append(f"* {stem}: not submitted (0 of {sum(points[stem].values()):g} points)")
                continue
            scores.update({q: s for q, s in grade_one(submitted, bundle).items() if q in scores})
            for q, full in points[stem].items():
                exercise = q.removeprefix("ex").replace("_", ".")
                if scores[q] < full:
                    lines.append(f"* {stem}, exercise {exercise}: not yet ({scores[q]:g} of {full:g} points). "
                                 "Run its check cell again and follow the hint.")
        total = sum(scores.values())
        lines += ["", f"Total: {total:g} of {sum(sum(p.values()) for p in points.values()):g} points."]
        if all(scores[q] == p for stem in bundles for q, p in points[stem].items()):
            lines.insert(2, "Every exercise is right.")
        (out / "feedback" / f"{student.name}.md").write_text("\n".join(lines) + "\n")
        rows.append({"student": student.name, **scores, "total": total})
    with open(out / "grades.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["student", *columns, "total"])
        writer.writeheader()
        writer.writerows(rows)
    return out / "grades.csv"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("assign", help="the student edition and the grader's bundle")
    a.add_argument("--src", type=Path, default=ROOT / "notebooks")
    a.add_argument("--out", type=Path, default=ROOT / "build" / "assign")
    g = sub.add_parser("grade", help="grade SUBMISSIONS/<student>/<NN_name>.ipynb")
    g.add_argument("submissions", type=Path)
    g.add_argument("--bundle", type=Path, default=ROOT / "build" / "assign" / "grader")
    g.add_argument("--out", type=Path, default=ROOT / "build" / "grades")
    d = sub.add_parser("digest", help="the digest of an answer (a Python literal) for a check cell")
    d.add_argument("question")
    d.add_argument("value", help="a Python literal, e.g. 36, True, 0.00614, \"{'obcd'}\"")
    args = parser.parse_args(argv)
    if args.command == "assign":
        for stem, path in assign(args.src, args.out).items():
            print(f"{stem}: {path}")
        print(f"student edition: {args.out / 'student'}")
    elif args.command == "grade":
        print(grade(args.submissions, args.bundle, args.out))
    else:
        import ast

        sys.path.insert(0, str(ROOT))
        from obcd_lite.teaching.exercises import answer_digest

        print(answer_digest(args.question, ast.literal_eval(args.value)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
