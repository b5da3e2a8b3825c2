"""Compile OBCD's numba kernels once, before JupyterLab opens (``make lab``, a student's install lines).

The first OBCD solve in a fresh environment compiles its kernels (numba, ``cache=True``); the compiled
code is then cached on disk and every later solve, in any notebook, starts at once. The kernels are
compiled per penalty family (``obcd_lite.specialise``): h = 0, l1 and X >= 0 share one (notebooks 00
and 01 need only it: about 20 s of CPU, docs/install.md), l0 and capped l1 have their own. This compiles
them in that order, each with one small solve and one 2 x 2 subproblem (``solve_2x2``, notebooks 02 and
05), and prints the CPU time of each, so that the students' first cells do not stall.

    python tools/warm_cache.py
"""
from __future__ import annotations

import sys
import time

import numpy as np


def main() -> int:
    from obcd_lite import CappedL1, L0, L1, NonNeg, identity_init, obcd, randn_covariance, solve_2x2, sparse_pca

    C = randn_covariance(12, 6, rng=0)
    X0 = identity_init(6, 2)
    Qt, P, Z = 2.0 * np.eye(4), np.array([[0.3, -0.2], [0.1, 0.4]]), np.array([[0.6, 0.0], [0.8, 1.0]])
    families = {"h = 0, l1, X >= 0": [None, L1(0.1), NonNeg()], "l0": [L0(0.05)], "capped l1": [CappedL1(0.1, 0.5)]}
    started = time.process_time()
    for name, penalties in families.items():
        before = time.process_time()
        for penalty in penalties:
            start = np.abs(X0) if isinstance(penalty, NonNeg) else X0
            obcd(sparse_pca(C) if penalty is None else sparse_pca(C, penalty), start, max_iter=50, rng=0)
            if penalty is not None:
                solve_2x2(Qt, P, Z, penalty)
        print(f"  {name}: {time.process_time() - before:.0f} s CPU", flush=True)
    print(f"numba cache warm ({time.process_time() - started:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
