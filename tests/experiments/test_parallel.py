"""The runner on an executor: a real dask LocalCluster of 2 fresh worker processes and a process
pool give the records, histories and points of a serial run for an
iteration-bounded grid; slots are checked against the cores; one BLAS thread in the workers."""
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from obcd_lite.experiments import run_experiment
from obcd_lite.experiments import parallel
from obcd_lite.experiments.parallel import available_cores, completed, concurrent_runs, worker_report
from obcd_lite.experiments.runner import _execute, _Run

# Bounded by iterations (the budget never binds), with a warm start, an unsupported pair (cayley on
# l0), random starts and seeds, so that every code path of a run crosses the process boundary.
GRID = dict(problems=("l1", "l0", "nonneg"), lams=(1e-3,), methods=("obcd", "manpg", "cayley+obcd", "rsubgrad"),
            starts=("identity", "random"), seeds=(0, 1), datasets=("randn",), n=12, m=8, r=3, time_limit=60.0,
            max_iter=25, scale={"l0": 1.0, "l1": 0.5}, progress=False)


@pytest.fixture(scope="module")
def serial():
    return run_experiment(**GRID)


@pytest.fixture(scope="module")
def cluster_executor():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client.get_executor()


@pytest.fixture(scope="module")
def pool():
    with ProcessPoolExecutor(2) as executor:  # the platform's default start (the benchmark's)
        yield executor


def _assert_same_as_serial(serial, other):
    supported = other.records["stop_reason"] != "unsupported"
    assert (other.records.loc[supported, "seconds"] > 0).all()  # timed in the worker, by the solver
    pd.testing.assert_frame_equal(serial.records.drop(columns="seconds"), other.records.drop(columns="seconds"))
    pd.testing.assert_frame_equal(serial.histories.drop(columns="seconds"), other.histories.drop(columns="seconds"))
    assert serial.points.keys() == other.points.keys()
    for run, X in serial.points.items():
        assert np.array_equal(X, other.points[run])


def test_dask_cluster_gives_the_serial_records(serial, cluster_executor):
    assert len(serial.records) == 3 * 4 * 2 * 2  # problems x methods x starts x seeds
    unsupported = (serial.records["stop_reason"] == "unsupported").sum()  # e.g. cayley, manpg on l0
    assert 0 < unsupported < len(serial.records)
    first = run_experiment(**GRID, executor=cluster_executor)
    _assert_same_as_serial(serial, first)
    again = run_experiment(**GRID, executor=cluster_executor)  # timed afresh, not dask's cached result
    assert not np.array_equal(first.records["seconds"], again.records["seconds"], equal_nan=True)


def test_process_pool_gives_the_serial_records(serial, pool):
    _assert_same_as_serial(serial, run_experiment(**GRID, executor=pool))


def test_workers_run_with_one_blas_thread(cluster_executor, pool):
    for executor in (cluster_executor, pool):
        report = executor.submit(worker_report).result()
        assert report["blas"] and set(report["blas"].values()) == {1}
        assert report["cores"] >= 1


def test_slots_are_the_workers_within_the_cores(cluster_executor, pool):
    assert concurrent_runs(cluster_executor) == 2 and concurrent_runs(pool) == 2
    too_many = available_cores() + 1
    with ProcessPoolExecutor(too_many) as executor:
        with pytest.raises(ValueError, match=f"max_workers={too_many}.*use max_workers <= {too_many - 1}"):
            run_experiment(**GRID, executor=executor)
    with ThreadPoolExecutor(1) as executor, pytest.raises(TypeError, match="ThreadPoolExecutor"):
        concurrent_runs(executor)
    with pytest.raises(TypeError, match="got int"):
        run_experiment(**GRID, executor=2)


class _FakeClient:
    """What _cluster_slots asks of a dask client: two hosts, one oversubscribed."""

    def nthreads(self):
        return {"tcp://a:1": 1, "tcp://a:2": 2, "tcp://b:1": 4}

    def run(self, function):
        return {"tcp://a:1": ("a", 2), "tcp://a:2": ("a", 2), "tcp://b:1": ("b", 8)}


def test_an_oversubscribed_cluster_host_is_named():
    with pytest.raises(ValueError, match="host a have 3 threads in all .1 \\+ 2. but see 2 cores"):
        parallel._cluster_slots(_FakeClient())


def test_completed_keeps_at_most_slots_in_flight():
    running, peak, lock = [0], [0], threading.Lock()

    def task(x):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.01)
        with lock:
            running[0] -= 1
        return x * x

    with ThreadPoolExecutor(4) as executor:  # 4 threads free, 2 slots
        assert sorted(completed(executor, task, range(12), 2)) == [x * x for x in range(12)]
    assert peak[0] == 2


def test_progress_counts_finished_runs(monkeypatch, pool):
    import tqdm.auto

    bars = []

    class Bar:
        def __init__(self, total, **kwargs):
            self.total, self.n = total, 0
            bars.append(self)

        def update(self):
            self.n += 1

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    ex = run_experiment(**{**GRID, "problems": ("l1",)}, executor=pool)
    assert bars[0].total == bars[0].n == len(ex.records) == 16


def test_a_worker_with_other_data_refuses_to_run(serial):
    spec = _Run(dict(run=0, problem="l1", lam=1e-3, seed=0, start="identity", r=3), "call", ("randn", 8, 12, 0),
                "not the digest", 0.5, ("obcd",), 1.0, 5, {}, "record")
    with pytest.raises(RuntimeError, match="differs from the caller's"):
        _execute(spec)


def test_scale_per_problem(serial):
    scales = serial.records.groupby("problem")["scale"].unique()
    assert list(scales["l0"]) == [1.0] and list(scales["l1"]) == [0.5] and list(scales["nonneg"]) == [0.5]
    with pytest.raises(ValueError, match="unknown problems \\['l2'\\]"):
        run_experiment(**{**GRID, "scale": {"l2": 1.0}})
    with pytest.raises(ValueError, match="scale = 2.0 for 'l0'"):
        run_experiment(**{**GRID, "scale": {"l0": 2.0}})



def _dies_in_a_worker(real):
    """``real`` for the warm-up (max_iter = 3), and a worker process that dies for the timed run."""
    import os

    def solver(problem, X0, **kwargs):
        if kwargs["max_iter"] == 3:
            return real(problem, X0, **kwargs)
        os._exit(1)  # a killed worker: the pool breaks
    return solver


def test_a_killed_pool_worker_loses_no_finished_record(monkeypatch):
    """The workers are forked after the patch, so they run the dying cayley; the grid goes on
    without an exception, every run has a row, the broken ones say so, and resume= on a fresh pool
    redoes those only."""
    from obcd_lite import SOLVERS

    real = SOLVERS["cayley"]
    grid = dict(problems=("l1",), lams=(1e-3,), methods=("obcd", "cayley"), starts=("identity",), seeds=(0, 1),
                datasets=("randn",), n=12, m=8, r=3, time_limit=60.0, max_iter=25, progress=False)
    monkeypatch.setitem(SOLVERS, "cayley", _dies_in_a_worker(real))
    with ProcessPoolExecutor(2) as executor:
        broken = run_experiment(**grid, executor=executor)
    rec = broken.records
    failed = rec["stop_reason"] == "failed"
    assert len(rec) == 4 and failed[rec["method"] == "cayley"].all()
    assert rec.loc[failed, "error"].str.startswith("BrokenProcessPool").all()
    assert np.isfinite(rec.loc[~failed, "F"]).all() and set(broken.points) == set(rec.loc[~failed, "run"])
    monkeypatch.setitem(SOLVERS, "cayley", real)
    with ProcessPoolExecutor(2) as executor:
        resumed = run_experiment(**grid, executor=executor, resume=broken)
    assert (resumed.records["stop_reason"] != "failed").all()
    kept = rec.loc[~failed, "run"]
    pd.testing.assert_frame_equal(resumed.records.loc[kept].drop(columns="error").reset_index(drop=True),
                                  rec.loc[~failed].drop(columns="error").reset_index(drop=True), check_dtype=False)
