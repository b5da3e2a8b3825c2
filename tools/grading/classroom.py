"""Grade every student of a class in parallel; write grades.csv (atomically) and one feedback file each.

A student is a real folder of SUBMISSIONS (not a symlink, not hidden, not ``__MACOSX``); each of their
notebooks is one task (:func:`grade.grade_notebook`), run by a process pool over all cores. A task that
fails for any reason is that notebook's 0 points with the reason, never the end of the run: grades.csv
is always written.

Written (manual) questions have their column in grades.csv, left empty for the hand grader (the PDFs of
:mod:`written`); ``total`` is the sum of the auto-graded points only.
"""
from __future__ import annotations

import concurrent.futures as cf
import csv
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path

from . import sandbox
from .bundle import load_bundle
from .grade import grade_notebook, refused


def _uid_base() -> int | None:
    # one user id per task, unique among concurrent graders (their pids differ); None when not root
    return 1_000_000 + (os.getpid() % 100_000) * 1000 if os.geteuid() == 0 else None


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", newline="") as handle:
        handle.write(text)
    os.replace(tmp, path)


def students_of(submissions: Path) -> tuple[list[Path], dict[str, str]]:
    """The student folders of ``submissions`` (sorted) and the refused entries with their reasons."""
    students, skipped = [], {}
    for entry in sorted(submissions.iterdir()):
        why = refused(entry)
        if why is None:
            students.append(entry)
        else:
            skipped[entry.name] = why
    return students, skipped


def grade_class(submissions: Path, bundle_dir: Path, out: Path, limits: sandbox.Limits | None = None,
                workers: int | None = None, use_bwrap: bool | None = None, progress: bool = True) -> Path:
    """Grade ``submissions/<student>/<NN_name>.ipynb`` against the bundle; returns the path of grades.csv.

    Parameters
    ----------
    submissions : pathlib.Path
        One folder per student.
    bundle_dir : pathlib.Path
        The grader's bundle (``tools/assign.py assign``).
    out : pathlib.Path
        Receives ``grades.csv``, ``feedback/<student>.md`` and ``refused.txt``.
    limits : sandbox.Limits, optional
        The budget per notebook.
    workers : int, optional
        Parallel notebooks (default: every core).
    use_bwrap : bool, optional
        Force the sandbox mode (default: bwrap where it works).
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    pathlib.Path
        ``out/grades.csv``.
    """
    limits = limits or sandbox.Limits()
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    bundles = load_bundle(bundle_dir)
    students, skipped = students_of(submissions)
    columns = [q["name"] for b in bundles.values() for q in [*b["questions"], *b.get("manual", [])]]
    points = {q["name"]: q["points"] for b in bundles.values() for q in b["questions"]}
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    base = _uid_base()
    tasks = [(s.name, stem, s / f"{stem}.ipynb") for s in students for stem in bundles
             if bundles[stem]["questions"]]  # a notebook with written questions only is not run
    results: dict[tuple[str, str], dict] = {}
    if students and tasks:
        sandbox.bwrap_works()  # probe once, before forking
        context = multiprocessing.get_context("fork")
        with cf.ProcessPoolExecutor(max_workers=workers or os.cpu_count(), mp_context=context) as pool:
            futures = {pool.submit(grade_notebook, name, stem, path, bundles[stem], limits,
                                   None if base is None else base + i % 1000, use_bwrap): (name, stem)
                       for i, (name, stem, path) in enumerate(tasks)}
            done = cf.as_completed(futures)
            if progress:
                from tqdm import tqdm

                done = tqdm(done, total=len(futures), desc="grading", unit="notebook", file=sys.stderr)
            for future in done:
                key = futures[future]
                try:
                    results[key] = future.result()
                except Exception as error:  # noqa: BLE001 (one notebook's failure is its 0, not the class's)
                    note = f"could not be graded ({type(error).__name__})"
                    results[key] = {"scores": {}, "reasons": {}, "note": note}
    rows = [_feedback(s.name, bundles, results, points, out) for s in students]
    buffer = _csv(["student", *columns, "total"], rows)  # written questions' cells: empty (restval)
    _write_atomic(out / "grades.csv", buffer)
    _write_atomic(out / "refused.txt", "".join(f"{name}: {why}\n" for name, why in skipped.items()))
    return out / "grades.csv"


def _csv(fields: list[str], rows: list[dict]) -> str:
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=fields)
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def _feedback(student: str, bundles: dict, results: dict, points: dict, out: Path) -> dict:
    """One row of grades.csv; writes ``feedback/<student>.md`` (no test, expected value or output in it)."""
    scores, lines = {}, [f"# Feedback for {student}", ""]
    written = [q for bundle in bundles.values() for q in bundle.get("manual", [])]
    for stem, bundle in bundles.items():
        result = results.get((student, stem), {"scores": {}, "reasons": {}, "note": "could not be graded"})
        if result.get("note") and bundle["questions"]:
            lines.append(f"* {stem}: {result['note']}")
        for q in bundle["questions"]:
            name, full = q["name"], q["points"]
            scores[name] = float(result["scores"].get(name, 0.0))
            if scores[name] < full and result["reasons"]:
                reason = result["reasons"].get(name) or "not yet"
                lines.append(f"* {stem}, exercise {_exercise(name)}: {scores[name]:g} of {full:g} points ({reason}).")
    total = sum(scores.values())
    if all(scores[q] == p for q, p in points.items()):
        lines.insert(2, "Every auto-graded exercise is right." if written else "Every exercise is right.")
    lines += ["", f"Total: {total:g} of {sum(points.values()):g} auto-graded points."]
    if written:
        lines += ["", f"Written answers ({sum(q['points'] for q in written):g} points, graded by hand, not in this "
                  "total): " + ", ".join(f"exercise {_exercise(q['name'])} ({q['points']:g})" for q in written) + "."]
    _write_atomic(out / "feedback" / f"{student}.md", "\n".join(lines) + "\n")
    return {"student": student, **scores, "total": total}


def _exercise(name: str) -> str:
    """``ex02_1w`` -> ``02.1w`` (the numbering the notebooks show)."""
    return name.removeprefix("ex").replace("_", ".")
