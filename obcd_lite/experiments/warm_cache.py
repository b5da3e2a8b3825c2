"""Compile OBCD's numba kernels once, before the notebooks run them (``python -m obcd_lite.experiments.warm_cache``).

The first OBCD solve in a fresh environment compiles its kernels (numba, ``cache=True``); the compiled
code is then cached on disk beside the installed package and every later solve, in any notebook and any
process, starts at once. The kernels are compiled per penalty family (``obcd_lite.specialise``): h = 0,
l1 and X >= 0 share one (notebooks 00 and 01 need only it), l0 and capped l1 have their own. This
compiles them in that order, each with one small solve and one 2 x 2 subproblem (``solve_2x2``,
notebooks 02 and 05), and prints the CPU time of each (docs/install.md gives the measured times).

It lives in the package, not only in the checkout's ``tools/``, so that whoever installs the wheel
(JupyterHub, Colab: no checkout) can run the same step; ``tools/warm_cache.py`` (``make lab``, the
student lines, Binder) calls :func:`main`.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from ..penalties import CappedL1, L0, L1, NonNeg
from ..problems import randn_covariance, sparse_pca
from ..solvers import obcd
from ..stiefel import identity_init
from ..subproblem import solve_2x2

#: The penalty families in the order they are compiled (None: h = 0), each one kernel
#: (``obcd_lite.specialise``); the first is the one notebooks 00 and 01 use.
FAMILIES = {"h = 0, l1, X >= 0": (None, L1(0.1), NonNeg()), "l0": (L0(0.05),), "capped l1": (CappedL1(0.1, 0.5),)}


def warm(families: dict | None = None, rng: int = 0) -> dict[str, float]:
    """Compile (or load from numba's disk cache) the kernels of each penalty family.

    Parameters
    ----------
    families : dict or None
        Name -> tuple of penalties (None for h = 0) solved together; default :data:`FAMILIES`.
    rng : int
        Seed of the small problem and of OBCD's working sets (any seed compiles the same kernels).

    Returns
    -------
    dict
        Name -> CPU seconds it took (each is also printed; in a warm cache, about the time of the small
        solves alone).

    Raises
    ------
    TypeError
        If ``families`` is not a dict.
    """
    families = FAMILIES if families is None else families
    if not isinstance(families, dict):
        raise TypeError(f"families must be a dict of name -> penalties, got {type(families).__name__}: {families!r}")
    C = randn_covariance(12, 6, rng=rng)
    X0 = identity_init(6, 2)
    Qt, P, Z = 2.0 * np.eye(4), np.array([[0.3, -0.2], [0.1, 0.4]]), np.array([[0.6, 0.0], [0.8, 1.0]])
    seconds = {}
    for name, penalties in families.items():
        before = time.process_time()
        for penalty in penalties:
            # X >= 0 needs a feasible start; |identity_init| is one
            start = np.abs(X0) if isinstance(penalty, NonNeg) else X0
            obcd(sparse_pca(C) if penalty is None else sparse_pca(C, penalty), start, max_iter=50, rng=rng)
            if penalty is not None:
                solve_2x2(Qt, P, Z, penalty)
        seconds[name] = time.process_time() - before
        print(f"  {name}: {seconds[name]:.0f} s CPU", flush=True)
    return seconds


def main() -> int:
    """Warm every family of :data:`FAMILIES` and print the total CPU time.

    Returns
    -------
    int
        The exit status, 0 (a failed compile raises).
    """
    started = time.process_time()
    warm()
    print(f"numba cache warm ({time.process_time() - started:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
