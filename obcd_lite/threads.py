"""BLAS threads for small dense work.

NumPy's and SciPy's bundled OpenBLAS start one thread per core. The solvers' dense work is small
(an n x r SVD, an r x r solve, a k x k block) and runs in a loop, where threads fight over the cores
instead of helping: measured on a 2-core machine under load, a ManPG run (n = 1000, r = 20) took 342 s
with 2 BLAS threads and 34 s with one. Every registered solver and the experiment runner therefore run
with one BLAS thread (threadpoolctl) and restore the caller's setting when they return.
"""
from __future__ import annotations

import functools
import os
from contextlib import contextmanager

from threadpoolctl import ThreadpoolController

_CONTROLLER: ThreadpoolController | None = None


def _controller() -> ThreadpoolController:
    # Created on first use, after NumPy and SciPy have loaded their BLAS libraries; re-created if a
    # BLAS library was loaded since (scikit-learn, a second OpenBLAS).
    global _CONTROLLER
    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER


def blas_threads() -> dict[str, int]:
    """The BLAS libraries loaded now and their thread counts (printed by the benchmarks).

    Returns
    -------
    dict
        {library: number of threads}.
    """
    return {f"{info['internal_api']} ({os.path.basename(info['filepath'])})": info["num_threads"]
            for info in ThreadpoolController().info() if info["user_api"] == "blas"}


def blas_threads_report() -> str:
    """One line for a benchmark's header.

    The BLAS libraries and their thread counts in the caller, and the solvers' own setting (they run with
    one, :func:`one_blas_thread`).

    Returns
    -------
    str
        The line.
    """
    found = ", ".join(f"{name}: {threads}" for name, threads in blas_threads().items()) or "no BLAS library found"
    return f"BLAS threads: {found} (caller's setting; every solver and run_experiment use 1)"


@contextmanager
def blas_threads_limited(limit: int = 1):
    """Run the block with at most ``limit`` BLAS threads, restoring the previous setting afterwards.

    Parameters
    ----------
    limit : int, default 1
        The most threads, >= 1.

    Yields
    ------
    None
        The block runs inside.

    Raises
    ------
    ValueError
        If ``limit`` is not a positive int.
    """
    if not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a positive int; got {limit!r}")
    with _controller().limit(limits=limit, user_api="blas"):
        yield


def one_blas_thread(function):
    """Decorator: ``function`` runs with one BLAS thread (see the module docstring).

    Parameters
    ----------
    function : callable
        The function to wrap.

    Returns
    -------
    callable
        The wrapped function.
    """
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with blas_threads_limited(1):
            return function(*args, **kwargs)
    return wrapper
