"""Grade every student of a class in parallel; write grades.csv (atomically) and one feedback file each.

A student is a real folder of SUBMISSIONS (not a symlink, not hidden, not ``__MACOSX``); each of their
notebooks is one task (:func:`grade_task`), run by a process pool over all cores, or by any
``concurrent.futures`` executor that runs in other processes, such as a dask cluster's
(``Client(...).get_executor()``; checked as the experiment runner's, :mod:`obcd_lite.experiments.parallel`).
The notebook's bytes and its bundle travel with the task: a worker needs no copy of either on disk. A
task that fails for any reason (its worker killed included: a broken local pool is replaced, see
:func:`_on_local_pools`) is that notebook's 0 points with the reason, never the end of the run: grades.csv
is always written.

Written (manual) questions have their column in grades.csv, left empty for the hand grader (the PDFs of
:mod:`written`); ``total`` is the sum of the auto-graded points only.
"""
from __future__ import annotations

import csv
import hashlib
import multiprocessing
import os
import socket
import sys
import tempfile
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from pathlib import Path

from . import sandbox
from .bundle import load_bundle
from .grade import grade_submission, refused, submitted


def _uid_base() -> int | None:
    # one user id per task, unique among concurrent graders on a host (their pids differ); None when not root
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


def grade_task(task: tuple) -> dict:
    """One (student, notebook), in whichever process runs it (a pool's, a dask worker's): its own sandbox,
    under a user id of its own where that process is root. ``task`` is ``(student, stem, index, raw, note,
    bundle, limits, use_bwrap)`` (:func:`grade.grade_submission`'s arguments); returns its result."""
    _, _, index, raw, note, bundle, limits, use_bwrap = task
    base = _uid_base()
    return grade_submission(raw, note, bundle, limits, None if base is None else base + index % 1000, use_bwrap)


def fingerprint() -> str:
    """A digest of the grader's code here: every ``.py`` file of ``obcd_lite`` (the hidden tests' verifiers)
    and of this package. Workers of a cluster must give the same (the same checkout)."""
    import obcd_lite

    digest = hashlib.sha256()
    for root in (Path(obcd_lite.__file__).resolve().parent, Path(__file__).resolve().parent):
        for path in sorted(root.rglob("*.py")):
            digest.update(f"{root.name}/{path.relative_to(root)}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def worker_ready() -> dict:
    """Run on each dask worker before grading: its host, the :func:`fingerprint` of its code and whether
    bubblewrap starts there."""
    return {"host": socket.gethostname(), "fingerprint": fingerprint(), "bwrap": sandbox.bwrap_works()}


def cluster_slots(executor: Executor, use_bwrap: bool | None) -> int:
    """How many notebooks may be in flight on ``executor`` (:func:`~obcd_lite.experiments.parallel.concurrent_runs`:
    a thread pool is refused, a dask cluster one per worker thread within each host's cores); on a dask
    cluster, first every worker must run this checkout's code and (unless ``use_bwrap`` is False) bwrap."""
    from obcd_lite.experiments.parallel import concurrent_runs, dask_client

    client = dask_client(executor)
    if client is not None:
        try:
            seen = client.run(worker_ready)
        except Exception as error:  # noqa: BLE001 (whatever the worker raised, named in the message)
            raise RuntimeError(f"the dask workers cannot run the grader ({type(error).__name__}: {error}); start "
                               "them from the same checkout and environment, with PYTHONPATH=<checkout>:"
                               "<checkout>/tools (docs/course.md)") from error
        other = sorted(address for address, found in seen.items() if found["fingerprint"] != fingerprint())
        if other:
            raise ValueError(f"dask workers {other} run other code (obcd_lite or tools/grading) than this "
                             "checkout: their verdicts could differ; update their checkout to this one")
        unsandboxed = sorted(address for address, found in seen.items() if not found["bwrap"])
        if unsandboxed and use_bwrap is not False:
            raise ValueError(f"dask workers {unsandboxed} cannot start a bwrap sandbox: install bubblewrap "
                             "there, or grade in the weaker fallback sandbox knowingly with --no-bwrap "
                             "(use_bwrap=False; docs/course.md)")
    return concurrent_runs(executor)


def grade_class(submissions: Path, bundle_dir: Path, out: Path, limits: sandbox.Limits | None = None,
                workers: int | None = None, use_bwrap: bool | None = None, progress: bool = True,
                executor: Executor | None = None) -> Path:
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
        Parallel notebooks of the local process pool (default: every core); not with ``executor``.
    use_bwrap : bool, optional
        Force the sandbox mode (default: bwrap where it works; on a dask cluster every worker must have it
        unless False).
    progress : bool
        Show a tqdm progress bar.
    executor : concurrent.futures.Executor, optional
        Where the notebooks are graded instead of a local process pool: one that runs in other processes,
        e.g. a dask client's ``Client("tcp://host:8786").get_executor()`` (:func:`cluster_slots`).

    Returns
    -------
    pathlib.Path
        ``out/grades.csv``.

    Raises
    ------
    TypeError
        For an executor that is not one, or a thread pool.
    ValueError
        For ``workers`` below 1 or given with ``executor``, or a dask cluster that cannot grade (see
        :func:`cluster_slots`).
    """
    from obcd_lite.experiments.parallel import settled

    limits = limits or sandbox.Limits()
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if workers is not None and executor is not None:
        raise ValueError(f"workers={workers} sizes the local process pool; with an executor its workers decide "
                         "(leave workers=None)")
    slots = cluster_slots(executor, use_bwrap) if executor is not None else workers or os.cpu_count() or 1
    bundles = load_bundle(bundle_dir)
    students, skipped = students_of(submissions)
    columns = [q["name"] for b in bundles.values() for q in [*b["questions"], *b.get("manual", [])]]
    points = {q["name"]: q["points"] for b in bundles.values() for q in b["questions"]}
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    tasks = [(s.name, stem, s / f"{stem}.ipynb") for s in students for stem in bundles
             if bundles[stem]["questions"]]  # a notebook with written questions only is not run

    def items(indices):  # each notebook read here, as its task is submitted (at most ``slots`` held at once)
        for index in indices:
            name, stem, path = tasks[index]
            yield (name, stem, index, *submitted(path), bundles[stem], limits, use_bwrap)

    results: dict[tuple[str, str], dict] = {}
    if tasks:
        if executor is None:
            done = _on_local_pools(items, len(tasks), slots)
        else:
            done = settled(executor, grade_task, items(range(len(tasks))), slots)
        if progress:
            from tqdm import tqdm

            done = tqdm(done, total=len(tasks), desc="grading", unit="notebook", file=sys.stderr)
        for task, result, error in done:
            results[task[0], task[1]] = result if error is None else _failed(error)
    rows = [_feedback(s.name, bundles, results, points, out) for s in students]
    buffer = _csv(["student", *columns, "total"], rows)  # written questions' cells: empty (restval)
    _write_atomic(out / "grades.csv", buffer)
    _write_atomic(out / "refused.txt", "".join(f"{name}: {why}\n" for name, why in skipped.items()))
    return out / "grades.csv"


class _RecordedPool(ProcessPoolExecutor):
    """A fork pool that records the index of every task it accepted (to tell, when it breaks, the notebooks
    it held from those never sent)."""

    def __init__(self, workers: int):
        super().__init__(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
        self.sent: set[int] = set()

    def submit(self, fn, /, *args, **kwargs):
        future = super().submit(fn, *args, **kwargs)
        self.sent.add(args[0][2])
        return future


def _on_local_pools(items, count: int, slots: int):
    """:func:`~obcd_lite.experiments.parallel.settled` over ``count`` tasks on local process pools, surviving
    a pool worker's death (``BrokenProcessPool``, which fails every task of that pool): the tasks it never
    received go to a fresh pool, those it held are graded again one at a time in a pool of their own, so
    that only the notebook that kills its worker alone is a 0 (as dask retries a killed worker's tasks)."""
    from obcd_lite.experiments.parallel import settled

    sandbox.bwrap_works()  # probe once, before forking
    todo, suspects = list(range(count)), []
    while todo or suspects:
        alone = not todo
        batch, width = (suspects[:1], 1) if alone else (todo, slots)
        pool, unsent = _RecordedPool(width), []
        try:
            for task, result, error in settled(pool, grade_task, items(batch), width):
                if isinstance(error, BrokenExecutor) and not alone:
                    (suspects if task[2] in pool.sent else unsent).append(task[2])
                else:
                    yield task, result, error
        finally:
            pool.shutdown(cancel_futures=True)
        if alone:
            suspects = suspects[1:]
        else:
            todo = unsent  # shorter by the tasks the broken pool held, now suspects


def _failed(error: BaseException) -> dict:
    """The result of a task that raised: one notebook's 0 with the reason, not the class's."""
    name = type(error).__name__
    died = isinstance(error, BrokenExecutor) or name == "KilledWorker"  # a pool's or a dask worker's death
    note = f"could not be graded ({name}{': the process grading it died' if died else ''})"
    return {"scores": {}, "reasons": {}, "note": note}


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
