"""The measured reach of ``optimality.global_minimum``: which (n, r, h) each backend certifies within a time budget.

The instance is ``teaching.instances.tiny_problem(n, h, lam, seed)`` (sparse PCA on randn data, nonneg PCA for
X >= 0: the instances of notebook 05 and its explorer), searched with tol 1e-3 and ``--time-limit`` seconds.

* ``--backend angles`` (the branch and bound over Givens angles): every n <= ``--n-max``, r = 1..n,
  h in {0, l1, l0, X >= 0};
* ``--backend scip`` (SCIP on the MIQCQP model, ``optimality.global_scip``): every (n, r) with n r <= 12 or
  n <= 6, r <= 3 (the issue's targets), h in {0, l1, l0, capped-l1, X >= 0}.

Printed as a Markdown table: certified?, seconds and CPU seconds of this process (the whole call: SCIP or the
boxes, the OBCD starts and the polish; after one call that compiles OBCD), boxes or SCIP nodes, final gap
(value - lower bound), and the 1-minute load average when the row finished (the machine is shared: seconds
grow with the load; the verdicts do not, unless a run ends at its time limit).

Run: ``PYTHONPATH=$PWD .venv/bin/python benchmarks/global_reach.py --backend scip --time-limit 60``
(the tables of ``docs/global_search.md`` came from this command on the project's 2-core machine).
"""
from __future__ import annotations

import argparse
import os
import time

from obcd_lite.optimality import global_minimum
from obcd_lite.teaching.instances import tiny_problem

PENALTIES = {"angles": ("zero", "l1", "l0", "nonneg"), "scip": ("zero", "l1", "l0", "capped_l1", "nonneg")}


def grid(backend: str, n_max: int) -> list[tuple[int, int]]:
    """The (n, r) measured: all r <= n <= n_max for the angles; the issue's targets for SCIP."""
    if backend == "angles":
        return [(n, r) for n in range(2, n_max + 1) for r in range(1, n + 1)]
    return [(n, r) for n in range(2, 13) for r in range(1, min(n, 3) + 1) if n * r <= 12 or n <= 6]


def measure(n: int, r: int, penalty: str, *, backend: str, lam: float, seed: int, time_limit: float) -> dict:
    """One search: its certificate, time, boxes (nodes) and gap."""
    problem = tiny_problem(n, penalty, lam, seed)
    started, cpu = time.perf_counter(), time.process_time()
    g = global_minimum(problem, r=r, rng=0, time_limit=time_limit, max_boxes=10**10, max_nodes=10**9,
                       backend=backend)
    return {"n": n, "r": r, "h": penalty, "certified": g.certified, "seconds": time.perf_counter() - started,
            "cpu": time.process_time() - cpu,
            "boxes": g.boxes, "gap": g.gap}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=sorted(PENALTIES), default="scip")
    parser.add_argument("--n-max", type=int, default=4, help="largest n (angles backend)")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--lam", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    unit = "boxes" if args.backend == "angles" else "nodes"
    measure(3, 2, "l1", backend=args.backend, lam=args.lam, seed=args.seed, time_limit=args.time_limit)  # compiles
    print(f"| n | r | h | certified | seconds | CPU seconds | {unit} | final gap | load |\n"
          f"|---|---|---|---|---|---|---|---|---|", flush=True)
    for n, r in grid(args.backend, args.n_max):
        for penalty in PENALTIES[args.backend]:
            m = measure(n, r, penalty, backend=args.backend, lam=args.lam, seed=args.seed,
                        time_limit=args.time_limit)
            print(f"| {n} | {r} | {penalty} | {'yes' if m['certified'] else 'no'} | {m['seconds']:.1f} | "
                  f"{m['cpu']:.1f} | {m['boxes']:,} | {m['gap']:.2g} | {os.getloadavg()[0]:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
