"""The measured reach of ``optimality.global_minimum``: which (n, r, h) it certifies within a time budget.

For every n <= ``--n-max``, every r = 1..n and h in {0, l1, l0, X >= 0}, the instance is
``teaching.instances.tiny_problem(n, h, lam, seed)`` (sparse PCA on randn data, nonneg PCA for X >= 0:
the instances of notebook 05 and its explorer), searched with tol 1e-3 and ``--time-limit`` seconds.
Printed as a Markdown table: certified?, seconds, boxes bounded, final gap (value - lower bound).

Run: ``PYTHONPATH=$PWD .venv/bin/python benchmarks/global_reach.py [--n-max 4] [--time-limit 60]``
(the table of ``docs/global_search.md`` came from this command on the project's 2-core machine).
"""
from __future__ import annotations

import argparse
import time

from obcd_lite.optimality import global_minimum
from obcd_lite.teaching.instances import tiny_problem

PENALTIES = ("zero", "l1", "l0", "nonneg")


def measure(n: int, r: int, penalty: str, *, lam: float, seed: int, time_limit: float) -> dict:
    """One search: its certificate, time, boxes and gap."""
    problem = tiny_problem(n, penalty, lam, seed)
    started = time.perf_counter()
    g = global_minimum(problem, r=r, rng=0, time_limit=time_limit, max_boxes=10**10)
    return {"n": n, "r": r, "h": penalty, "certified": g.certified, "seconds": time.perf_counter() - started,
            "boxes": g.boxes, "gap": g.gap}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-max", type=int, default=4)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--lam", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(f"| n | r | h | certified | seconds | boxes | final gap |\n|---|---|---|---|---|---|---|", flush=True)
    for n in range(2, args.n_max + 1):
        for r in range(1, n + 1):
            for penalty in PENALTIES:
                m = measure(n, r, penalty, lam=args.lam, seed=args.seed, time_limit=args.time_limit)
                print(f"| {n} | {r} | {penalty} | {'yes' if m['certified'] else 'no'} | {m['seconds']:.1f} | "
                      f"{m['boxes']:,} | {m['gap']:.2g} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
