"""OBCD against its relatives, the full grids behind notebook 07 (issue 20).

1. Procrustes on O(p) (RCD's test_procrustes setting, ``obcd_lite.experiments.procrustes``): p in
   {20, 50}, seeds 0..S-1, det X0 matched / mismatched to the solution; RCD (the reference's tuned
   stepsize 1.1 of example 1, cyclic, linearized), the rotations-only exact search obcd_rot, the
   one-step block method obcd_step and OBCD (all cyclic), each for the same number of sweeps of C(p, 2)
   pair updates. Reported per case: how many runs reach a relative gap of 1e-5 (RCD's minoptgaptol),
   the median pair updates, flops (RCD 10 p per update as its code counts, OBCD variants 14 p) and
   seconds to it, and the median final gap against the floor 2 s_min / (p |F*|). Then ``floor_census``:
   is the floor point BS_2, and does OBCD (random pairs) escape the start's component, p in {6, 10, 20}.
2. The ablation grid (``ablation_grid``): PCA, l0/l1-SPCA, nonnegative PCA on spiked and digits,
   r = 3, seeds 0..S-1, the same random start and time budget for every variant.
3. k = 3 per update and per flop (``k3_by_updates``): k = 3 against k = 2 with the scalar Q (both h = 0,
   PCA) at an equal flop budget of ``--k3-sweeps`` sweeps of pair updates, spiked and digits, r = 3,
   seeds 0..S-1: iterations and flops to the better final F, with the seconds and the engine beside.

Run: ``PYTHONPATH=$PWD .venv/bin/python benchmarks/relatives_grid.py [--seeds 3] [--sweeps 200]
[--seconds 1.0] [--k3-sweeps 40] [--parts procrustes floor ablation k3]``. Prints Markdown tables (docs/benchmarks/relatives.md holds one run's output).
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from obcd_lite.experiments.procrustes import (floor_census, procrustes_flops_per_update, procrustes_instance,
                                              procrustes_runs, to_target)
from obcd_lite.experiments.relatives import ablation_grid, ingredient_values, k3_by_updates

#: label -> (registry name, options) of the Procrustes comparison.
PROCRUSTES_METHODS = {"RCD (stepsize 1.1)": ("rcd", {"stepsize": 1.1}),
                      "obcd_rot": ("obcd_rot", {"working_set": "cyclic"}),
                      "obcd_step": ("obcd_step", {"working_set": "cyclic"}),
                      "OBCD": ("obcd", {"working_set": "cyclic"})}


def procrustes_table(ps, seeds, sweeps: int) -> pd.DataFrame:
    rows = []
    for p in ps:
        for mismatch in (True, False):
            for seed in seeds:
                inst = procrustes_instance(p, mismatch=mismatch, rng=seed)
                floor = (inst.F_floor - inst.F_star) / abs(inst.F_star)
                for label, res in procrustes_runs(inst, PROCRUSTES_METHODS, sweeps=sweeps, rng=seed).items():
                    name = PROCRUSTES_METHODS[label][0]
                    hit = to_target(res, inst.F_star, procrustes_flops_per_update(name, p))
                    rows.append({"p": p, "det X0": "mismatch" if mismatch else "matched", "seed": seed,
                                 "method": label, "floor": floor, **hit, "seconds total": res.seconds})
    return pd.DataFrame(rows)


def procrustes_summary(table: pd.DataFrame) -> pd.DataFrame:
    out = []
    for (p, det, method), sub in table.groupby(["p", "det X0", "method"], sort=False):
        out.append({"p": p, "det X0": det, "method": method, "reached 1e-5": f"{sub['updates'].notna().sum()}/{len(sub)}",
                    "median updates": sub["updates"].median(), "median Mflops": sub["flops"].median() / 1e6,
                    "median seconds": sub["seconds"].median(), "median final gap": sub["final_gap"].median(),
                    "median floor": sub["floor"].median()})
    return pd.DataFrame(out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sweeps", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per ablation run")
    parser.add_argument("--k3-sweeps", type=float, default=40.0, help="flop budget of the k = 3 comparison, in sweeps")
    parser.add_argument("--parts", nargs="+", default=["procrustes", "floor", "ablation", "k3"],
                        choices=["procrustes", "floor", "ablation", "k3"])
    args = parser.parse_args(argv)
    start = time.perf_counter()
    seeds = range(args.seeds)
    fmt = {"floatfmt": ".3g"}
    if "procrustes" in args.parts:
        proc = procrustes_table((20, 50), seeds, args.sweeps)
        print(f"## Procrustes on O(p): {args.sweeps} sweeps, seeds 0..{args.seeds - 1}\n")
        print(procrustes_summary(proc).to_markdown(index=False, **fmt))
        print(f"\n[{time.perf_counter() - start:.0f} s]\n", flush=True)
    if "floor" in args.parts:
        floors = pd.concat([floor_census(p, range(8), sweeps=100) for p in (6, 10, 20)], ignore_index=True)
        print("## Is the floor point BS2, and does OBCD escape? (random pairs, 100 sweeps, seeds 0..7)\n")
        print(floors.groupby("p").agg(instances=("seed", "size"), floor_point_BS2=("floor point BS2", "sum"),
                                      OBCD_below_floor=("OBCD below floor", "sum"),
                                      OBCD_reached_F_star=("OBCD reached F*", "sum")).to_markdown(**fmt))
        print(f"\n[{time.perf_counter() - start:.0f} s]\n", flush=True)
    if "k3" in args.parts:
        k3 = k3_by_updates(datasets=("spiked", "digits"), seeds=tuple(seeds), r=3, sweeps=args.k3_sweeps)
        print(f"## k = 3 against k = 2 (scalar Q, PCA, r = 3) at an equal flop budget: {args.k3_sweeps:g} sweeps\n")
        print(k3.to_markdown(index=False, **fmt))
        print(f"\n[{time.perf_counter() - start:.0f} s]\n", flush=True)
    if "ablation" not in args.parts:
        return
    grid = ablation_grid(seeds=tuple(seeds), time_limit=args.seconds)
    cols = ["problem", "dataset", "seed", "variant", "F", "F - F_best", "nnz", "iterations", "seconds_to_target",
            "residual", "critical", "bs2_gap", "bs2"]
    print(f"## Ablation grid: r = 3, {args.seconds} s per run, seeds 0..{args.seeds - 1}\n")
    print(grid[~grid["declined"]][cols].to_markdown(index=False, **fmt))
    values = ingredient_values(grid)
    print("\n## What each ingredient is worth (variant minus OBCD; time ratio variant / OBCD to the instance's best F within 1e-6)\n")
    summary = values.groupby(["variant", "problem"]).agg(
        instances=("seed", "size"), median_dF=("F - F_OBCD", "median"), worst_dF=("F - F_OBCD", "max"),
        best_dF=("F - F_OBCD", "min"), never_reached=("time ratio", lambda s: int(np.isinf(s).sum())),
        median_time_ratio=("time ratio", "median")).reset_index()
    print(summary.to_markdown(index=False, **fmt))
    print(f"\ntotal wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
