"""Experiment runs on a ``concurrent.futures.Executor``: a process pool here, or a dask cluster.

The runs of a grid are independent, so :func:`~obcd_lite.experiments.run_experiment` can hand them
to an executor. Timing stays fair only if no two runs share a core, so before anything is submitted
:func:`concurrent_runs` decides how many runs may be in flight at once, and :func:`completed` never
submits more than that:

* ``ProcessPoolExecutor(max_workers=w)``: w runs at once; w larger than this machine's cores
  (:func:`available_cores`) is an error.
* a dask.distributed client's executor (``Client(...).get_executor()``): one run per worker
  thread; on each host the workers' threads must not outnumber the cores they see (ask the
  workers for ``nthreads=1``, e.g. ``dask worker tcp://scheduler:8786 --nthreads 1 --nworkers 8``
  on an 8-core host).
* ``ThreadPoolExecutor``: refused, threads of one process share the interpreter lock and one BLAS
  setting, so their times would not be comparable.
* any other executor: at most :func:`available_cores` runs in flight (the rule of this machine).

:func:`settled` reports each run's result or exception and goes on (the runner records a failed run
as a row and keeps the others; a killed pool worker fails the runs in flight and those not yet
submitted, with ``BrokenProcessPool``); :func:`completed` raises at the first failure.

Dask is the scheduler; this module only counts slots and keeps the number of pending futures
within them.
"""
from __future__ import annotations

import os
import socket
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor, wait
from typing import Callable, Iterable, Iterator

from ..threads import blas_threads, one_blas_thread


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS tells it, else ``os.cpu_count()``).

    Returns
    -------
    int
        At least 1.
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no sched_getaffinity
        return os.cpu_count() or 1


@one_blas_thread
def worker_report() -> dict:
    """Where a task runs and how: ``pid``, ``cores`` it may use, and ``blas``, the BLAS libraries
    and their thread counts under the runs' one-BLAS-thread rule (submit it to an executor to see
    a worker's; the benchmarks print it).

    Returns
    -------
    dict
        ``{"pid": int, "cores": int, "blas": ...}``, ``blas`` as :func:`obcd_lite.threads.blas_threads` gives it.
    """
    return {"pid": os.getpid(), "cores": available_cores(), "blas": blas_threads()}


def dask_client(executor: Executor):
    """The dask.distributed client behind ``executor`` (``Client(...).get_executor()``), else None.

    Parameters
    ----------
    executor : concurrent.futures.Executor
        Any executor.

    Returns
    -------
    distributed.Client or None
        Its client, for asking the workers (``client.run``) before anything is submitted.
    """
    # distributed.cfexecutor.ClientExecutor keeps its client in ``_client``; checked by module name so
    # that importing obcd_lite never imports dask.
    if type(executor).__module__.startswith("distributed.") and hasattr(executor, "_client"):
        return executor._client
    return None


def _host_and_cores() -> tuple[str, int]:
    """Run on each dask worker: its host name and the cores it may use."""
    return socket.gethostname(), available_cores()


def _cluster_slots(client) -> int:
    """Worker threads of a dask cluster, checked host by host against the cores its workers see."""
    threads = client.nthreads()
    if not threads:
        raise ValueError("the dask cluster has no workers; start some (dask worker tcp://... --nthreads 1) "
                         "or wait for them (client.wait_for_workers(n))")
    seen = client.run(_host_and_cores)
    per_host: dict[str, list[int]] = {}
    for address, count in threads.items():
        per_host.setdefault(seen[address][0], []).append(count)
    for host, counts in per_host.items():
        host_cores = max(cores for name, cores in seen.values() if name == host)
        if sum(counts) > host_cores:
            raise ValueError(f"dask workers on host {host} have {sum(counts)} threads in all "
                             f"({' + '.join(map(str, counts))}) but see {host_cores} cores: runs would share cores "
                             f"and their times would not be comparable; start them with --nthreads 1 and at most "
                             f"{host_cores} workers per host (LocalCluster(n_workers={host_cores}, "
                             "threads_per_worker=1))")
    return sum(threads.values())


def concurrent_runs(executor: Executor) -> int:
    """How many runs may be in flight on ``executor`` without two sharing a core (see the module
    docstring for the rule of each kind); raises ``TypeError`` or ``ValueError`` naming the problem.

    Parameters
    ----------
    executor : concurrent.futures.Executor
        A ProcessPoolExecutor, a dask client's executor or another non-thread executor.

    Returns
    -------
    int
        The number of runs that may be in flight at once.

    Raises
    ------
    TypeError
        For a non-executor or a ThreadPoolExecutor.
    ValueError
        For more pool workers than cores, or a dask cluster with no workers or with more threads than cores
        on a host.
    """
    if not isinstance(executor, Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor (a ProcessPoolExecutor or "
                        f"dask's Client.get_executor()), got {type(executor).__name__}")
    if isinstance(executor, ThreadPoolExecutor):
        raise TypeError("a ThreadPoolExecutor runs every run in one process (one interpreter lock, one BLAS "
                        "setting), so times are not comparable; use ProcessPoolExecutor or a dask client's executor")
    client = dask_client(executor)
    if client is not None:
        return _cluster_slots(client)
    cores = available_cores()
    if isinstance(executor, ProcessPoolExecutor):
        workers = executor._max_workers
        if workers > cores:
            raise ValueError(f"ProcessPoolExecutor(max_workers={workers}) would run {workers} runs at once on "
                             f"{cores} cores, so runs would share cores and their times would not be comparable; "
                             f"use max_workers <= {cores}")
        return workers
    return cores


def settled(executor: Executor, function: Callable, items: Iterable, slots: int) -> Iterator[tuple]:
    """``(item, result, None)`` or ``(item, None, exception)`` for every item run on ``executor``, as
    each finishes (any order), with never more than ``slots`` submitted and unfinished. A failing run
    is reported and the others go on; when the executor breaks (a killed pool worker:
    ``BrokenProcessPool``), every run in flight or not yet submitted is reported with that error.

    Parameters
    ----------
    executor : concurrent.futures.Executor
        Where the runs go.
    function : callable
        Called as ``function(item)`` on the executor (picklable for a process pool).
    items : iterable
        The runs' arguments.
    slots : int
        The most runs submitted and unfinished at once (:func:`concurrent_runs`).

    Yields
    ------
    tuple
        ``(item, result, None)`` for a run that returned, ``(item, None, exception)`` for one that raised.
    """
    pending: dict = {}
    items = iter(items)
    broken = None
    try:
        while True:
            for item in items:
                if broken is not None:
                    yield item, None, broken
                    continue
                try:
                    pending[executor.submit(function, item)] = item
                except BrokenExecutor as exc:
                    broken = exc
                    yield item, None, exc
                    continue
                if len(pending) >= slots:
                    break
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                item = pending.pop(future)
                try:
                    yield item, future.result(), None
                except Exception as exc:  # noqa: BLE001 (reported to the caller as the run's error)
                    if isinstance(exc, BrokenExecutor):
                        broken = exc
                    yield item, None, exc
    finally:
        for future in pending:
            future.cancel()


def completed(executor: Executor, function: Callable, items: Iterable, slots: int) -> Iterator:
    """``function(item)`` for every item on ``executor``, yielded as each finishes (any order), with
    never more than ``slots`` submitted and unfinished (:func:`settled`). A failing run raises here;
    the runs still in flight are cancelled where the executor can.

    Parameters
    ----------
    executor : concurrent.futures.Executor
        Where the runs go.
    function : callable
        Called as ``function(item)`` on the executor (picklable for a process pool).
    items : iterable
        The runs' arguments.
    slots : int
        The most runs submitted and unfinished at once (:func:`concurrent_runs`).

    Yields
    ------
    object
        ``function(item)``, as each run finishes.
    """
    outcomes = settled(executor, function, items, slots)
    try:
        for _, result, error in outcomes:
            if error is not None:
                raise error
            yield result
    finally:
        outcomes.close()  # cancels the runs in flight now, not when the traceback is collected
