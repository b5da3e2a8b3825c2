"""Solvers and the runner run their small dense work at one BLAS thread and restore the caller's setting."""
import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from obcd_lite import L1, SOLVERS, get_solver, identity_init, sparse_pca
from obcd_lite.threads import blas_threads, blas_threads_limited, blas_threads_report
from obcd_lite.validation import UnsupportedProblemError


def _blas_counts():
    return sorted(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_solver_runs_at_one_blas_thread_and_restores(name):
    seen = []
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_counts()
        for h in (L1(0.01), None):  # smooth-only solvers (rcd, obcd_step) decline l1: then h = 0
            try:
                get_solver(name)(sparse_pca(np.diag([3.0, 2.0, 1.0, 0.5]), h), identity_init(4, 2), max_iter=3,
                                 callback=lambda step: seen.append(_blas_counts()))
                break
            except UnsupportedProblemError:
                assert h is not None
        assert _blas_counts() == before == [2] * len(before)
    if seen:  # solvers that call back: inside, every BLAS library has one thread
        assert all(counts == [1] * len(counts) for counts in seen)


def test_limit_inside_and_restored_after_an_exception():
    with threadpool_limits(limits=2, user_api="blas"):
        with pytest.raises(RuntimeError):
            with blas_threads_limited(1):
                assert set(blas_threads().values()) == {1}
                raise RuntimeError("boom")
        assert set(blas_threads().values()) == {2}


def test_bad_limit_is_named():
    with pytest.raises(ValueError, match="limit must be a positive int; got 0"):
        with blas_threads_limited(0):
            pass


def test_report_names_each_blas_library_and_its_threads():
    text = blas_threads_report()
    assert text.startswith("BLAS threads: ")
    assert text.endswith("(caller's setting; every solver and run_experiment use 1)")
    for name, threads in blas_threads().items():
        assert f"{name}: {threads}" in text
    with blas_threads_limited(1):
        assert all(threads == 1 for threads in blas_threads().values())
        assert ": 1" in blas_threads_report()
