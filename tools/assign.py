"""Hand out and grade the exercises: ``make assign`` and ``make grade`` (docs/course.md).

    python tools/assign.py assign [--src notebooks] [--out build/assign]
    python tools/assign.py grade SUBMISSIONS [--bundle build/assign/grader] [--out build/grades]
                                 [--workers N | --scheduler tcp://HOST:8786] [--wall S] [--cell S] [--no-bwrap]
    python tools/assign.py export-written SUBMISSIONS [--bundle build/assign/grader] [--out build/grades/written]
                                          [--html-only] [--if-any]
    python tools/assign.py digest QUESTION VALUE      # a practice question's digest (never a graded one's)

**Markup** (in the instructor notebooks; otter-grader's syntax): each exercise is a question between raw
cells ``# BEGIN QUESTION`` (``name: ex03_1``, ``points: 1``) and ``# END QUESTION``; its hidden tests are
the code cells between ``# BEGIN TESTS`` and ``# END TESTS`` (tagged ``hidden-test``). A hidden test reads
each answer with ``obcd_lite.teaching.answers.answer(name, kind)`` and imports what it checks from
``obcd_lite``: it runs in the grader's process on plain data, never in the student's kernel.

``assign`` writes ``OUT/student/`` (tools/student_edition.py: answers ``...``, no solutions, no hidden
tests, no outputs) and ``OUT/grader/`` (per graded notebook a JSON bundle: questions, points, answer
variables, hidden tests; mode 0600, it never leaves the instructor).

``grade`` grades ``SUBMISSIONS/<student>/<NN_name>.ipynb`` (tools/grading/): each notebook executed in a
sandbox (bubblewrap where it works), its answers exported as JSON, graded here by the bundle's tests, all
notebooks in parallel (a local process pool over every core, or with ``--scheduler`` the workers of
a dask cluster: docs/course.md). It writes ``OUT/grades.csv`` (one row per student, the points of every question
and the total; always, atomically), ``OUT/feedback/<student>.md`` (each question that lost points and
why, never a test or an expected value) and ``OUT/refused.txt`` (entries that are not students).
Written (manual) questions (``manual: true``, a markdown cell tagged ``written-answer``) have their
column in grades.csv left empty; ``export-written`` writes per student ONE PDF with every written
question's prompt and the student's answer, read from the notebook's JSON (never executed), rendered
with its math and sanitized, plus ``manifest.csv`` (tools/grading/written.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # the grading package and student_edition.py, beside this file

from grading import sandbox  # noqa: E402
from grading.bundle import build_bundle, load_bundle, questions  # noqa: E402,F401 (questions: re-exported)
from grading.classroom import grade_class  # noqa: E402


def assign(src: Path, out: Path) -> dict[str, Path]:
    """The student edition into ``out/student`` and one bundle per graded notebook into ``out/grader``;
    returns notebook stem -> bundle path."""
    from student_edition import build

    build(src, out / "student")
    return build_bundle(src, out / "grader")


def grade(submissions: Path, bundle_dir: Path, out: Path, **options) -> Path:
    """Grade every ``submissions/<student>/<NN_name>.ipynb``; returns the path of grades.csv
    (options: those of ``grading.classroom.grade_class``)."""
    return grade_class(submissions, bundle_dir, out, **options)


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
    g.add_argument("--workers", type=int, default=None, help="notebooks graded at once (default: every core)")
    g.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="grade on the workers of this dask scheduler (tcp://host:8786) instead of a local pool")
    g.add_argument("--wall", type=float, default=sandbox.Limits.wall, help="seconds per notebook before it is stopped")
    g.add_argument("--cell", type=float, default=sandbox.Limits.cell, help="seconds per cell before it is interrupted")
    g.add_argument("--no-bwrap", action="store_true", help="the fallback sandbox even where bwrap works")
    g.add_argument("--no-warm", action="store_true", help="skip compiling numba's kernels before grading")
    w = sub.add_parser("export-written", help="one PDF per student of the written answers, for hand grading")
    w.add_argument("submissions", type=Path)
    w.add_argument("--bundle", type=Path, default=ROOT / "build" / "assign" / "grader")
    w.add_argument("--out", type=Path, default=ROOT / "build" / "grades" / "written")
    w.add_argument("--html-only", action="store_true", help="write the HTML pages, do not print them with chromium")
    w.add_argument("--if-any", action="store_true", help="no written question in the bundle: say so, exit 0")
    d = sub.add_parser("digest", help="the digest of an answer (a Python literal) for a PRACTICE question's check")
    d.add_argument("question")
    d.add_argument("value", help="a Python literal, e.g. 36, True, 0.00614, \"{'obcd'}\"")
    args = parser.parse_args(argv)
    if args.command == "assign":
        for stem, path in assign(args.src, args.out).items():
            print(f"{stem}: {path}")
        print(f"student edition: {args.out / 'student'}")
        return 0
    if args.command == "digest":
        import ast

        sys.path.insert(0, str(ROOT))
        from obcd_lite.teaching.exercises import answer_digest

        print(answer_digest(args.question, ast.literal_eval(args.value)))
        return 0
    if args.command == "export-written":
        from grading.written import chromium, export_written

        if args.if_any and not any(b.get("manual") for b in load_bundle(args.bundle).values()):
            print("no written (manual) question in the bundle: nothing to export")
            return 0
        browser = None if args.html_only else chromium()
        if browser is None and not args.html_only:
            print("chromium not found: writing the HTML pages only (print them from a browser)", file=sys.stderr)
        print(export_written(args.submissions, args.bundle, args.out, browser=browser))
        return 0
    limits = sandbox.Limits(wall=args.wall, cell=args.cell, cpu=int(args.wall) + 60)
    options = {"limits": limits, "use_bwrap": False if args.no_bwrap else None}
    if args.scheduler is not None:
        if args.workers is not None:
            parser.error("--workers sizes the local pool; with --scheduler the cluster's workers decide")
        client = connect(args.scheduler, parser)
        with client:  # each worker sandboxes with its own bwrap and numba cache (checked before grading)
            print(grade(args.submissions, args.bundle, args.out, executor=client.get_executor(), **options))
        return 0
    if not sandbox.bwrap_works() and not args.no_bwrap:
        print("bubblewrap (bwrap) is not available: grading in the fallback sandbox (docs/course.md)", file=sys.stderr)
    if not args.no_warm:  # compiled once here, in the grader's process; each sandbox gets a copy of the cache
        import warm_cache

        warm_cache.main()
    print(grade(args.submissions, args.bundle, args.out, workers=args.workers, **options))
    return 0


def connect(address: str, parser: argparse.ArgumentParser, timeout: float = 20.0):
    """A dask client of the scheduler at ``address``; an unreachable or malformed address exits through
    ``parser.error`` with a message naming it."""
    try:
        from dask.distributed import Client
    except ImportError:
        parser.error(f"--scheduler {address}: dask.distributed is not installed (pip install '.[cluster]')")
    try:
        return Client(address, timeout=timeout)
    except (OSError, ValueError, TypeError) as error:  # TimeoutError is an OSError
        parser.error(f"--scheduler {address}: cannot connect to a dask scheduler there "
                     f"({type(error).__name__}: {error})")


if __name__ == "__main__":
    sys.exit(main())
