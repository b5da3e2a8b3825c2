"""Checkpoints that cannot be lost and resumes that cannot mix grids: ``run_experiment(checkpoint=, resume=)``.

Two writers on one file (threads, processes) keep both grids' runs; a writer killed in the middle of a
write leaves a loadable file that a resume finishes; a missing folder, a corrupt file and a resume or
checkpoint of other data, sizes or settings are refused by name before any run. No test asserts a wall
time: waiting for another process is a liveness bound of minutes.
"""
import dataclasses
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

import obcd_lite.experiments.runner as runner_module
from obcd_lite import SOLVERS
from obcd_lite.experiments import run_experiment
from obcd_lite.experiments.records import FAILED, load_experiment, merge_experiments
from obcd_lite.threads import blas_threads_limited

ROOT = Path(__file__).resolve().parents[2]
#: Seconds: how long a child process may take (a liveness bound: a loaded 2-core machine is slow, not hung).
LIVENESS = 15 * 60
#: Cheap runs (no compile): one method, iteration-bounded, on a tiny randn set.
GRID = dict(problems=("l1",), datasets=("randn",), lams=(1e-3,), methods=("cayley",), starts=("identity",),
            n=12, m=8, r=3, time_limit=60.0, max_iter=5, progress=False)


def _counting(calls: list, fail_seed=None):
    """The real cayley, counting its timed calls (not the warm-up's 3 iterations) and failing on ``fail_seed``."""
    real = SOLVERS["cayley"]

    def solver(problem, X0, **kwargs):
        if kwargs["max_iter"] != 3:
            calls.append(kwargs["rng"])
        if kwargs["rng"] == fail_seed:
            raise RuntimeError("disk full")
        return real(problem, X0, **kwargs)
    return solver


@pytest.fixture
def calls(monkeypatch):
    """The seeds of the timed cayley runs of this test."""
    seen = []
    monkeypatch.setitem(SOLVERS, "cayley", _counting(seen))
    return seen


def _seeds(path) -> list:
    return sorted(load_experiment(path).records["seed"])


def _consistent(experiment) -> None:
    """Records, histories and points agree run by run (a merge renumbers all three)."""
    runs = list(experiment.records["run"])
    assert runs == list(range(len(runs)))
    assert set(experiment.points) == set(experiment.histories["run"]) == set(runs)
    for row in experiment.records.itertuples():
        history = experiment.histories[experiment.histories["run"] == row.run]
        assert (history["seed"] == row.seed).all() and history["iteration"].max() == row.iterations


# --- a missing folder, a corrupt file ---------------------------------------------------------------------------

def test_a_checkpoint_in_a_missing_folder_is_refused_before_any_run(tmp_path, calls):
    path = tmp_path / "no such folder" / "grid.pkl"
    with pytest.raises(ValueError, match=r"checkpoint = '.*grid\.pkl': its folder '.*no such folder' does not exist"):
        run_experiment(**GRID, seeds=(0, 1), checkpoint=path)
    assert calls == [] and not path.parent.exists()
    with pytest.raises(ValueError, match="is a folder"):
        run_experiment(**GRID, checkpoint=tmp_path)
    with pytest.raises(TypeError, match="checkpoint must be a file path"):
        run_experiment(**GRID, checkpoint=3)
    assert calls == []


def _corrupt_files(tmp_path) -> dict:
    good = tmp_path / "good.pkl"
    run_experiment(**GRID, checkpoint=good)
    data = good.read_bytes()
    files = {"empty": b"", "truncated": data[: len(data) // 2], "garbage": b"not a pickle at all\n" * 10,
             "cut at the end": data[:-1]}
    for name, content in files.items():
        (tmp_path / f"{name}.pkl").write_bytes(content)
    return {name: tmp_path / f"{name}.pkl" for name in files}


def test_a_corrupt_file_is_named_as_such(tmp_path, calls):
    for name, path in _corrupt_files(tmp_path).items():
        message = rf"'{path}' is corrupt/truncated: it is not a whole saved Experiment"
        with pytest.raises(ValueError, match=message):
            load_experiment(path)
        calls.clear()
        before = path.read_bytes()
        with pytest.raises(ValueError, match=message):
            run_experiment(**GRID, resume=path)
        with pytest.raises(ValueError, match=message):
            run_experiment(**GRID, checkpoint=path)
        assert calls == [], name  # refused before any run
        assert path.read_bytes() == before, name  # and left as it was, for whoever looks at it
    with pytest.raises(FileNotFoundError, match=r"resume = '.*absent\.pkl': no such file"):
        run_experiment(**GRID, resume=tmp_path / "absent.pkl")
    (tmp_path / "frame.pkl").write_bytes(pickle.dumps(pd.DataFrame()))
    with pytest.raises(TypeError, match="holds a DataFrame, not an Experiment"):
        load_experiment(tmp_path / "frame.pkl")


# --- other data, other sizes, other settings ---------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    (dict(n=10), "ran with n = 12, this call has n = 10"),
    (dict(m=6), "ran with m = 8, this call has m = 6"),
    (dict(r=2), "ran with r = 3, this call has r = 2"),
    (dict(max_iter=6), "ran with max_iter = 5, this call has max_iter = 6"),
    (dict(time_limit=30.0), "ran with time_limit = 60.0, this call has time_limit = 30.0"),
    (dict(options={"cayley": {"tol": 1e-3}}), r"ran with options = '\[\]', this call has options = \"\[\('cayley'"),
])
def test_other_sizes_or_settings_are_refused_before_any_run(tmp_path, calls, change, message):
    path = tmp_path / "grid.pkl"
    run_experiment(**GRID, seeds=(0, 1), checkpoint=path)
    before, calls[:] = path.read_bytes(), []
    with pytest.raises(ValueError, match="resume: the previous experiment " + message):
        run_experiment(**{**GRID, **change}, seeds=(0, 1), resume=path, checkpoint=path)
    with pytest.raises(ValueError, match=f"checkpoint: the file '{path}' " + message):
        run_experiment(**{**GRID, **change}, seeds=(0, 1), checkpoint=path)
    assert calls == [] and path.read_bytes() == before  # nothing ran, nothing overwritten


def test_another_data_set_or_other_data_are_refused(tmp_path, calls):
    path = tmp_path / "grid.pkl"
    run_experiment(**GRID, seeds=(0, 1), checkpoint=path)
    before, calls[:] = path.read_bytes(), []
    with pytest.raises(ValueError, match=r"resume: none of the previous experiment's 2 finished runs is a run of this "
                                         r"grid \(dataset: it has \['randn'\], this call \['spiked'\]\)"):
        run_experiment(**{**GRID, "datasets": ("spiked",)}, seeds=(0, 1), resume=path, checkpoint=path)
    with pytest.raises(ValueError, match=r"\(seed: it has \['0', '1'\], this call \['2'\]\)"):
        run_experiment(**GRID, seeds=(2,), resume=path)
    assert calls == [] and path.read_bytes() == before
    # the same names and sizes, but data another machine drew differently
    saved = load_experiment(path)
    dataclasses.replace(saved, settings={**saved.settings, "digests": {
        key: "another machine's" for key in saved.settings["digests"]}}).save(path)
    with pytest.raises(ValueError, match=rf"checkpoint: the file '{path}': its data set \('randn', 8, 12, 0\) differs"):
        run_experiment(**GRID, seeds=(0,), checkpoint=path)
    with pytest.raises(ValueError, match=r"resume: the previous experiment: its data set \('randn', 8, 12, 1\) "):
        run_experiment(**GRID, seeds=(1,), resume=path)
    assert calls == []


# --- writers that share one file ---------------------------------------------------------------------------------

def test_grids_of_one_file_keep_each_others_runs(tmp_path, monkeypatch):
    """Grid A (seeds 0, 1), then grid B (seeds 1, 2; its seed 1 fails) on one checkpoint: the file holds
    seeds 0, 1, 2 once each, A's finished seed 1 not replaced by B's failure; a resume of all three runs nothing."""
    path, calls = tmp_path / "grid.pkl", []
    monkeypatch.setitem(SOLVERS, "cayley", _counting(calls))
    a = run_experiment(**GRID, seeds=(0, 1), checkpoint=path)
    monkeypatch.setitem(SOLVERS, "cayley", _counting(calls, fail_seed=1))
    b = run_experiment(**GRID, seeds=(1, 2), checkpoint=path)
    assert list(b.records["stop_reason"] == FAILED) == [True, False]
    saved = load_experiment(path)
    assert _seeds(path) == [0, 1, 2] and (saved.records["stop_reason"] != FAILED).all()
    _consistent(saved)
    kept = saved.records[saved.records["seed"] == 1]
    assert kept["error"].isna().all()
    # (B's failed row made its nnz column float and its missing errors NaN, as in a grid's own records)
    ours = a.records[a.records["seed"] == 1]
    pd.testing.assert_frame_equal(kept.drop(columns=["run", "error"]).reset_index(drop=True),
                                  ours.drop(columns=["run", "error"]).reset_index(drop=True), check_dtype=False)
    calls.clear()
    monkeypatch.setitem(SOLVERS, "cayley", _counting(calls))
    again = run_experiment(**GRID, seeds=(0, 1, 2), resume=path, checkpoint=path)
    assert calls == [] and list(again.records["seed"]) == [0, 1, 2]
    assert sorted(saved.settings["digests"]) == [("randn", 8, 12, s) for s in (0, 1, 2)]


def test_merge_renumbers_and_prefers_finished_runs(tmp_path):
    first = run_experiment(**GRID, seeds=(0, 1))
    failed = first.records.assign(stop_reason=FAILED)
    merged = merge_experiments(first, dataclasses.replace(first, records=failed))
    pd.testing.assert_frame_equal(merged.records, first.records)  # finished runs stay
    second = run_experiment(**GRID, seeds=(2, 1))
    merged = merge_experiments(first, second)
    assert list(merged.records["seed"]) == [0, 1, 2]
    _consistent(merged)
    assert merged.points[1] is second.points[1]  # a run in both: the newer one's


def test_two_threads_on_one_checkpoint_lose_nothing(tmp_path, monkeypatch):
    """Both write after every run (CHECKPOINT_EVERY = 0): each write merges the other's runs under the lock.
    Before: one shared ``.partial``, so one thread's os.replace found it gone and the thread died."""
    monkeypatch.setattr(runner_module, "CHECKPOINT_EVERY", 0.0)
    path, errors, results = tmp_path / "grid.pkl", [], {}
    start = threading.Barrier(2)

    def grid(seeds):
        try:
            start.wait()
            results[seeds] = run_experiment(**{**GRID, "starts": ("identity", "random")}, seeds=seeds, checkpoint=path)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=grid, args=(seeds,)) for seeds in ((0, 1, 2), (3, 4, 5))]
    # run_experiment's BLAS limit (threadpoolctl) is per process: two threads entering and leaving it in
    # turn could leave this process at 1 thread; the outer block restores the setting for later tests.
    with blas_threads_limited(1):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(LIVENESS)
    assert not any(thread.is_alive() for thread in threads), "a writer hung (liveness bound of 15 min)"
    assert errors == []
    saved = load_experiment(path)
    assert sorted(saved.records["seed"]) == sorted(2 * [0, 1, 2, 3, 4, 5])
    assert (saved.records["stop_reason"] != FAILED).all()
    _consistent(saved)
    assert not list(tmp_path.glob("*.tmp"))  # every writer's temporary file renamed or removed


#: A child process: one grid on a shared checkpoint, written after every run. With a kill-after count, the
#: write after that many completes half-written, leaves a marker and hangs, holding the lock, until killed.
CHILD = """
import pickle, sys, time, pathlib
import obcd_lite.experiments.records as records
import obcd_lite.experiments.runner as runner
from obcd_lite.experiments import run_experiment
path, seeds, hang_after, marker = sys.argv[1], tuple(map(int, sys.argv[2].split(","))), int(sys.argv[3]), sys.argv[4]
runner.CHECKPOINT_EVERY = 0.0
writes = []

class HalfWrite:
    def __getattr__(self, name):
        return getattr(pickle, name)

    def dump(self, obj, file):
        writes.append(1)
        if hang_after and len(writes) > hang_after:
            data = pickle.dumps(obj)
            file.write(data[: len(data) // 2])
            file.flush()
            pathlib.Path(marker).touch()
            time.sleep(3600)
        pickle.dump(obj, file)

records.pickle = HalfWrite()
pathlib.Path(marker + ".ready").touch()
while not pathlib.Path(marker + ".go").exists():
    time.sleep(0.05)
run_experiment(problems=("l1",), datasets=("randn",), lams=(1e-3,), methods=("cayley",),
               starts=("identity", "random"), n=12, m=8, r=3, time_limit=60.0, max_iter=5, progress=False,
               seeds=seeds, checkpoint=path)
"""


def _child(path, seeds, marker, hang_after=0) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    return subprocess.Popen([sys.executable, "-c", CHILD, str(path), ",".join(map(str, seeds)), str(hang_after),
                             str(marker)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait_for(files, children) -> None:
    """Until every file exists; a child that exits first fails the test with its output (liveness bound)."""
    deadline = time.monotonic() + LIVENESS
    while not all(Path(f).exists() for f in files):
        for child in children:
            if child.poll() is not None:
                pytest.fail(f"child exited with {child.returncode} before {files}:\n{child.stdout.read()}")
        assert time.monotonic() < deadline, f"no {files} within 15 min (a liveness bound)"
        time.sleep(0.1)


def test_two_processes_on_one_checkpoint_lose_nothing(tmp_path):
    path = tmp_path / "grid.pkl"
    children = [_child(path, seeds, tmp_path / f"child{i}") for i, seeds in enumerate(((0, 1, 2), (3, 4, 5)))]
    try:
        _wait_for([tmp_path / f"child{i}.ready" for i in range(2)], children)  # both imported: start together
        (tmp_path / "child0.go").touch()
        (tmp_path / "child1.go").touch()
        for child in children:
            out, _ = child.communicate(timeout=LIVENESS)
            assert child.returncode == 0, out
    finally:
        for child in children:
            child.kill()
            child.wait()
    saved = load_experiment(path)
    assert sorted(saved.records["seed"]) == sorted(2 * [0, 1, 2, 3, 4, 5])
    assert (saved.records["stop_reason"] != FAILED).all()
    _consistent(saved)


def test_a_writer_killed_mid_write_leaves_a_checkpoint_a_resume_finishes(tmp_path, monkeypatch):
    """The child's 4th write (claim, run 1, run 2, then run 3) stops half-written with the lock held; it is
    killed there. The file holds runs 1 and 2, the lock is free again, and a resume runs only the rest."""
    path, marker = tmp_path / "grid.pkl", tmp_path / "half-written"
    child = _child(path, (0, 1, 2), marker, hang_after=3)
    try:
        _wait_for([f"{marker}.ready"], [child])
        Path(f"{marker}.go").touch()
        _wait_for([marker], [child])
        os.kill(child.pid, signal.SIGKILL)
        child.wait(LIVENESS)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL
    assert list(tmp_path.glob("grid.pkl.*.tmp"))  # the half-written temporary file, never renamed
    saved = load_experiment(path)  # whole: the last complete write
    assert len(saved.records) == 2 and (saved.records["stop_reason"] != FAILED).all()
    _consistent(saved)

    calls = []
    monkeypatch.setitem(SOLVERS, "cayley", _counting(calls))
    grid = {**GRID, "starts": ("identity", "random")}
    done = run_experiment(**grid, seeds=(0, 1, 2), resume=path, checkpoint=path)
    assert len(calls) == 6 - 2 and len(done.records) == 6 and (done.records["stop_reason"] != FAILED).all()
    finished = load_experiment(path)
    assert len(finished.records) == 6
    pd.testing.assert_frame_equal(finished.records, done.records)
    _consistent(finished)
