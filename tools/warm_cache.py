"""Compile OBCD's numba kernels once, before JupyterLab opens (``make lab``, a student's install lines, Binder).

The kernels are compiled by the package (:mod:`obcd_lite.experiments.warm_cache`), so that whoever installed
the wheel without this checkout runs the same step: ``python -m obcd_lite.experiments.warm_cache``. It
compiles the kernels of every penalty family (h = 0 / l1 / X >= 0 first: what notebooks 00 and 01 use) and
prints the CPU time of each. Then this script imports the figure and explorer modules the notebooks open
with: an installer that writes no bytecode (uv, ``pip --no-compile``: docs/install.md) leaves Python to
write it at first import, and that is better done here than in notebook 00's first picture.

    python tools/warm_cache.py
"""
from __future__ import annotations

import importlib
import sys
import time

from obcd_lite.experiments.warm_cache import main as compile_kernels

#: What notebook 00's first cells import beyond the kernels (the figures, the one-step view, the explorers).
FIRST_IMPORTS = ("matplotlib.pyplot", "obcd_lite.viz.experiments", "obcd_lite.viz.one_step",
                 "obcd_lite.teaching.one_step", "ipywidgets")


def main() -> int:
    status = compile_kernels()
    started = time.process_time()
    for module in FIRST_IMPORTS:
        importlib.import_module(module)
    print(f"the notebooks' first imports: {time.process_time() - started:.0f} s CPU")
    return status


if __name__ == "__main__":
    sys.exit(main())
