"""Compile OBCD's numba kernels once, before JupyterLab opens (``make lab``).

The first OBCD solve in a fresh environment compiles its kernels (numba, ``cache=True``): measured
66-70 s on a shared 2-core machine under load (about 12 s on an idle one, docs/install.md); the
compiled code is then cached on disk and every later solve, in any notebook, starts at once. This
runs one small solve per penalty of the notebooks, so that the students' first cell does not stall.

    python tools/warm_cache.py
"""
from __future__ import annotations

import sys
import time

import numpy as np


def main() -> int:
    from obcd_lite import CappedL1, L0, L1, NonNeg, identity_init, obcd, randn_covariance, sparse_pca

    started = time.monotonic()
    C = randn_covariance(12, 6, rng=0)
    X0 = identity_init(6, 2)
    for penalty in (None, L1(0.1), L0(0.05), CappedL1(0.1, 0.5)):
        obcd(sparse_pca(C) if penalty is None else sparse_pca(C, penalty), X0, max_iter=50, rng=0)
    obcd(sparse_pca(C, NonNeg()), np.abs(identity_init(6, 2)), max_iter=50, rng=0)
    print(f"numba cache warm ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
