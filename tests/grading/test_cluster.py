"""Grading on a dask cluster (``grade_class(executor=...)``, ``tools/assign.py grade --scheduler``).

The small fixture class of tests/test_grading.py, graded on a real LocalCluster of 2 worker processes,
gives the same grades.csv as the local process pool; a task that raises, or whose worker is killed
(every time dask retries it), is that notebook's 0 with its reason while the others are graded; an
unreachable scheduler is named in the error; thread pools, ``workers`` with an executor and workers
running other code are refused before anything is graded.
"""
from __future__ import annotations

import csv
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from test_grading import POINTS, RIGHT, WRONG, assign_tool, assigned, points, with_answers  # noqa: E402

from grading import classroom, sandbox  # noqa: E402 (tools/ is on sys.path once assign.py is loaded)

distributed = pytest.importorskip("dask.distributed")
pytestmark = pytest.mark.skipif(not sandbox.bwrap_works() and not __import__("os").environ.get("CI"),
                                 reason="bubblewrap (bwrap) cannot start a sandbox here (under CI this fails instead)")
LIMITS = sandbox.Limits(wall=240.0, cell=60.0, nproc=96)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The fixture assignment's bundle and a class: full marks, untouched, one wrong, not JSON, a symlink."""
    tmp = tmp_path_factory.mktemp("cluster")
    _, instructor, student = assigned(tmp)
    subs = tmp / "subs"
    notebooks = {"a_full": instructor, "untouched": student, "faked_checks": with_answers(student, WRONG, True),
                 "one_wrong": with_answers(student, {**RIGHT, "fx_name": WRONG["fx_name"]})}
    for who, nb in notebooks.items():
        (subs / who).mkdir(parents=True)
        nbformat.write(nb, subs / who / "99_fixture.ipynb")
    (subs / "not_json").mkdir()
    (subs / "not_json" / "99_fixture.ipynb").write_bytes(b"this is not a notebook")
    (subs / "symlinked").mkdir()
    (subs / "symlinked" / "99_fixture.ipynb").symlink_to(tmp / "src" / "99_fixture.ipynb")
    (subs / "__MACOSX").mkdir()
    return {"tmp": tmp, "subs": subs, "bundle": tmp / "assign" / "grader"}


@pytest.fixture(scope="module")
def cluster_executor():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client.get_executor()


def _rows(table: Path) -> dict[str, dict]:
    with open(table) as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


@pytest.fixture(scope="module")
def local_csv(course):
    table = assign_tool.grade(course["subs"], course["bundle"], course["tmp"] / "local", limits=LIMITS, progress=False)
    return table.read_bytes()


def test_the_cluster_grades_as_the_local_pool(course, cluster_executor, local_csv, capsys):
    out = course["tmp"] / "on_cluster"
    table = assign_tool.grade(course["subs"], course["bundle"], out, limits=LIMITS, executor=cluster_executor)
    assert table.read_bytes() == local_csv
    rows = _rows(table)
    assert points(rows["a_full"]) == POINTS and points(rows["one_wrong"]) == {**POINTS, "ex99_2": 0.0}
    assert points(rows["untouched"]) == points(rows["faked_checks"]) == dict.fromkeys(POINTS, 0.0)
    assert "not a readable notebook" in (out / "feedback" / "not_json.md").read_text()
    assert "a symlink" in (out / "feedback" / "symlinked.md").read_text()
    assert "__MACOSX" in (out / "refused.txt").read_text()
    assert "grading" in capsys.readouterr().err  # the progress bar
    for name in ("a_full", "one_wrong"):
        local = course["tmp"] / "local" / "feedback" / f"{name}.md"
        assert (out / "feedback" / f"{name}.md").read_text() == local.read_text()


@pytest.mark.parametrize("sabotage", ["raise", "kill"])
def test_a_failed_task_or_a_killed_worker_is_one_zero_and_the_others_are_graded(course, cluster_executor, local_csv,
                                                                                monkeypatch, tmp_path, sabotage):
    """The task of ``a_full`` raises, or kills its worker process on every attempt (dask retries it on
    other workers, then gives up with KilledWorker): a 0 with the reason; every other row as graded locally."""
    def sabotaged(task):  # defined here, so pickled by value; the worker's own grading.classroom is untouched
        import os
        import signal

        from grading.classroom import grade_task

        if task[0] == "a_full":
            if sabotage == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("sabotaged")
        return grade_task(task)

    monkeypatch.setattr(classroom, "grade_task", sabotaged)
    table = assign_tool.grade(course["subs"], course["bundle"], tmp_path, limits=LIMITS, progress=False,
                              executor=cluster_executor)
    rows, local = _rows(table), _rows(course["tmp"] / "local" / "grades.csv")
    assert points(rows["a_full"]) == dict.fromkeys(POINTS, 0.0)
    reason = "KilledWorker: the process grading it died" if sabotage == "kill" else "could not be graded (RuntimeError)"
    assert reason in (tmp_path / "feedback" / "a_full.md").read_text()
    assert {k: v for k, v in rows.items() if k != "a_full"} == {k: v for k, v in local.items() if k != "a_full"}


def test_an_unreachable_scheduler_is_named(course, capsys):
    with pytest.raises(SystemExit) as stopped:
        assign_tool.main(["grade", str(course["subs"]), "--scheduler", "tcp://127.0.0.1:9", "--no-warm"])
    assert stopped.value.code == 2
    assert "--scheduler tcp://127.0.0.1:9: cannot connect to a dask scheduler there" in capsys.readouterr().err


def test_thread_pools_and_workers_with_an_executor_are_refused(course, tmp_path):
    with ThreadPoolExecutor(1) as threads, pytest.raises(TypeError, match="a ThreadPoolExecutor runs every run"):
        assign_tool.grade(course["subs"], course["bundle"], tmp_path, executor=threads)
    with pytest.raises(TypeError, match="executor must be a concurrent.futures.Executor.*got str"):
        assign_tool.grade(course["subs"], course["bundle"], tmp_path, executor="tcp://127.0.0.1:8786")
    with ThreadPoolExecutor(1) as threads, pytest.raises(ValueError, match="workers=2 sizes the local process pool"):
        assign_tool.grade(course["subs"], course["bundle"], tmp_path, workers=2, executor=threads)
    assert not (tmp_path / "grades.csv").exists()


def test_workers_running_other_code_are_refused(course, cluster_executor, monkeypatch, tmp_path):
    monkeypatch.setattr(classroom, "fingerprint", lambda: "this checkout, edited")  # only here, not on the workers
    with pytest.raises(ValueError, match=r"dask workers \['tcp://.*'\] run other code"):
        assign_tool.grade(course["subs"], course["bundle"], tmp_path, executor=cluster_executor)
    assert not (tmp_path / "grades.csv").exists()


def test_a_hidden_test_is_stopped_in_a_worker_thread(monkeypatch):
    """A dask worker runs tasks in a thread, where SIGALRM cannot be set: a looping hidden test is still
    stopped (0 points with the reason), and a run that ends in time is untouched afterwards."""
    import threading
    import time

    from grading import grade

    monkeypatch.setattr(grade, "TEST_SECONDS", 1)
    looping = {"name": "ex99_1", "points": 1.0, "tests": ["while True:\n    pass"]}
    passing = {"name": "ex99_1", "points": 1.0, "tests": ["assert 1 + 1 == 2"]}
    outcomes = []

    def in_a_thread():
        outcomes.append(grade.run_tests(looping, {}))
        outcomes.append(grade.run_tests(passing, {}))
        time.sleep(2)  # past the second test's alarm: it must not land here
        outcomes.append("no late alarm")

    worker = threading.Thread(target=in_a_thread)
    worker.start()
    worker.join(timeout=120)  # a liveness bound, not a latency claim
    assert outcomes == [(0.0, "not yet: checking the answer took over 1 s"), (1.0, ""), "no late alarm"]


GRADE_TASK = classroom.grade_task


def _kills_a_full(task):
    """A pool's task (pickled by reference: the forked worker has this module) that kills its worker
    for the student ``a_full``."""
    import os
    import signal

    if task[0] == "a_full":
        os.kill(os.getpid(), signal.SIGKILL)
    return GRADE_TASK(task)


def test_a_killed_local_pool_worker_is_one_zero_and_the_others_are_graded(course, local_csv, monkeypatch, tmp_path):
    """The local pool breaks when a worker dies (BrokenProcessPool for every notebook it held): the notebooks
    it held are graded again one at a time, those it never received on a fresh pool; only ``a_full`` is 0."""
    monkeypatch.setattr(classroom, "grade_task", _kills_a_full)
    table = assign_tool.grade(course["subs"], course["bundle"], tmp_path, limits=LIMITS, progress=False, workers=2)
    rows, local = _rows(table), _rows(course["tmp"] / "local" / "grades.csv")
    assert points(rows["a_full"]) == dict.fromkeys(POINTS, 0.0)
    reason = "could not be graded (BrokenProcessPool: the process grading it died)"
    assert reason in (tmp_path / "feedback" / "a_full.md").read_text()
    assert {k: v for k, v in rows.items() if k != "a_full"} == {k: v for k, v in local.items() if k != "a_full"}
