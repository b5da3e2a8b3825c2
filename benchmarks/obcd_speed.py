"""OBCD speed: the compiled engine against the Python engine, scaling in n and r, compile time.

Run with ``.venv/bin/python benchmarks/obcd_speed.py`` (about 4 min on the project's 2-core VM;
``--quick`` for a smoke run). Everything except the compile-time section runs in this one process;
the compile times are measured in child processes with their own empty (then warm) numba cache
directory (``NUMBA_CACHE_DIR``), so this checkout's cache is not touched.

1. Compile time: the first ``obcd`` call of a fresh process with an empty numba cache (the sweep,
   the block arithmetic and the kernel are compiled), then the same with the cache filled (loaded).
2. Both engines on the paper's "randn" sparse PCA (C = A^T A, A 500 x 1000 Gaussian, ||A||_F = 1,
   r = 20, X0 = identity, rng = 0): h = 0, l1 (two lambdas), l0 and X >= 0, Q = "exact" and
   "scalar". Iterations per second as the median of three identical runs with their range (wall
   clock, the solver's own ``Result.seconds``), the CPU share of the process during the runs
   (below 100 % means other processes took the cores: this VM is shared), the ratio of the
   medians, and max |X_compiled - X_python| after the Python engine's iterations (the same rng).
3. Scaling of the compiled engine: it/s and the cost per iteration at n in {250, 1000, 4000} x
   r in {5, 20, 50} (A is 500 x n) from a dense random X0 (from the identity most pairs of rows are
   zero and a step that moves nothing skips the gradient update) for h = 0 with Q = "scalar" (no sort
   in the sweep: the O(nr) gradient update shows) and l1 with Q = "exact"; ns per (n r) is the cost
   per entry of G. The
   sizes of G (8 n r bytes) and of the two rows of C read per step (16 n bytes) are printed beside
   them to compare with the caches (``lscpu``).

``--l1`` (issue 19, about 2 min) runs only the l1 / h = 0 comparison: n = 1000, r = 20, a dense
random start (``random_stiefel``, rng = 0), l1 with lam = 1e-5 against h = 0, Q = "exact" and
"scalar", runs interleaved in this one process (``--repeats`` rounds of ``--iters`` iterations); it prints
the median it/s with its range, the ratio l1 / h = 0 of the medians per Q (and the median of the
per-round ratios, which pair runs made seconds apart), the share of the sweep in an l1 iteration
(the sweep timed alone on the recorded blocks of a run, against the whole iteration on the same
blocks from the same start), and a hash of X after ``--hash-iters`` steps for every penalty x Q x
start (bit-identical iterates before and after a change of the kernel).

``--penalties`` (issue 28, about 4 min on a quiet machine) prints Table F: every built-in penalty
(l1, l0, capped l1 at tau = 0.05 and 0.5; lam = 1e-5, 1e-4, 1e-3) against h = 0 with the same Q,
n = 1000, r = 20, dense start, in paired runs (h = 0 and the penalty back to back) in this one
process: the median ratio of CPU seconds per iteration with its range over ``--repeats`` rounds,
and the load after every round.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from obcd_lite import (L0, L1, CappedL1, identity_init, nonneg_pca, obcd, randn_covariance, random_stiefel,
                       sparse_pca)

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_run_benchmarks", _HERE / "run_benchmarks.py")
_rb = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _rb  # dataclasses look their module up there
_spec.loader.exec_module(_rb)
format_table, environment_report, load_average = _rb.format_table, _rb.environment_report, _rb.load_average


@dataclass(frozen=True)
class Config:
    m: int = 500
    n: int = 1000
    r: int = 20
    data_seed: int = 0
    python_iters: int = 8000          # Python engine: iterations per run
    compiled_iters: int = 200_000     # compiled engine: iterations per run
    repeats: int = 3
    l1_lams: tuple = (1e-4, 1e-5)
    l0_lam: float = 3e-6
    scaling_n: tuple = (250, 1000, 4000)
    scaling_r: tuple = (5, 20, 50)
    scaling_seconds: float = 1.0      # each scaling run stops at this time limit
    compile_time: bool = True

    def quick(self) -> "Config":
        return dataclasses.replace(self, python_iters=300, compiled_iters=3000, repeats=1, scaling_n=(60, 120),
                                   scaling_r=(3, 6), scaling_seconds=0.05, m=50, n=80, r=4, compile_time=False)


def cases(config: Config, C: np.ndarray) -> list[tuple[str, Callable]]:
    """(penalty label, problem factory) of section 2: the cases of run_benchmarks.py's Table 2."""
    out = [("h=0", lambda: sparse_pca(C))]
    out += [(f"L1({lam:g})", lambda lam=lam: sparse_pca(C, L1(lam))) for lam in config.l1_lams]
    out += [(f"L0({config.l0_lam:g})", lambda: sparse_pca(C, L0(config.l0_lam))), ("X>=0", lambda: nonneg_pca(C))]
    return out


def timed_runs(problem, X0, repeats: int, **kwargs) -> dict:
    """``repeats`` identical runs: median it/s, its range, the CPU share, the last result."""
    speeds, wall, cpu = [], 0.0, 0.0
    for _ in range(repeats):
        t_wall, t_cpu = time.perf_counter(), time.process_time()
        res = obcd(problem, X0, rng=0, log_every=10**9, **kwargs)
        wall += time.perf_counter() - t_wall
        cpu += time.process_time() - t_cpu
        speeds.append(res.iterations / res.seconds)
    speeds.sort()
    return {"median": float(np.median(speeds)), "min": speeds[0], "max": speeds[-1], "cpu": cpu / wall, "res": res}


def section_engines(config: Config, C: np.ndarray, emit) -> list[dict]:
    t0 = time.perf_counter()
    X0 = identity_init(config.n, config.r)
    rows = []
    for label, make in cases(config, C):
        for Q in ("exact", "scalar"):
            problem = make()
            py = timed_runs(problem, X0, config.repeats, max_iter=config.python_iters, Q=Q, engine="python")
            co = timed_runs(problem, X0, config.repeats, max_iter=config.compiled_iters, Q=Q, engine="compiled")
            same = obcd(problem, X0, rng=0, max_iter=config.python_iters, Q=Q, engine="compiled").X
            co_res = co["res"]
            rows.append({"h": label, "Q": Q, "python": py, "compiled": co, "ratio": co["median"] / py["median"],
                         "dX": float(np.max(np.abs(same - py["res"].X))),
                         "feas": float(np.linalg.norm(co_res.X.T @ co_res.X - np.eye(config.r))),
                         "F_drift": abs(float(co_res.history["F"][-1]) - co_res.F)})
    table = [[r["h"], r["Q"], r["python"]["median"], f"{r['python']['min']:.0f}-{r['python']['max']:.0f}",
              r["python"]["cpu"] * 100, r["compiled"]["median"],
              f"{r['compiled']['min']:.0f}-{r['compiled']['max']:.0f}", r["compiled"]["cpu"] * 100,
              1e6 / r["compiled"]["median"], r["ratio"], r["dX"], r["feas"], r["F_drift"]] for r in rows]
    emit(format_table(["h", "Q", "python it/s", "range", "cpu%", "compiled it/s", "range", "cpu%", "us/iter",
                       "ratio", "max|dX|", "feas", "|F_tracked-F|"], table,
                      title=f"Table A. OBCD engines on randn-{config.m}-{config.n} (data seed {config.data_seed}), "
                            f"r = {config.r}, X0 = identity_init, rng = 0, k = 2, alpha = 1e-5"))
    emit(f"(median of {config.repeats} identical runs, min-max beside it; python: {config.python_iters} iterations, "
         f"compiled: {config.compiled_iters}; cpu% = process CPU time / wall time during the runs; ratio = "
         f"compiled / python medians; max|dX| between the engines after {config.python_iters} iterations; "
         f"feas = ||X^T X - I||_F and |F_tracked - F| after the compiled runs. "
         f"section time {time.perf_counter() - t0:.1f} s)")
    return rows


def section_scaling(config: Config, emit) -> list[dict]:
    t0 = time.perf_counter()
    rows = []
    for n in config.scaling_n:
        C = randn_covariance(config.m, n, rng=config.data_seed)
        for r in config.scaling_r:
            X0 = random_stiefel(n, r, rng=0)  # dense: every step moves (from identity most blocks are zero rows)
            for label, problem, Q in (("h=0", sparse_pca(C), "scalar"), ("L1(1e-4)", sparse_pca(C, L1(1e-4)), "exact")):
                obcd(problem, X0, rng=0, max_iter=10, Q=Q)  # first touch of C and the buffers
                run = timed_runs(problem, X0, config.repeats, max_iter=10**9, time_limit=config.scaling_seconds, Q=Q)
                us = 1e6 / run["median"]
                rows.append({"h": label, "Q": Q, "n": n, "r": r, "it/s": run["median"], "us": us,
                             "ns_per_nr": 1e3 * us / (n * r), "cpu": run["cpu"]})
    table = [[row["h"], row["Q"], row["n"], row["r"], row["it/s"], row["us"], row["ns_per_nr"],
              f"{8 * row['n'] * row['r'] / 1024:.0f} KiB", f"{16 * row['n'] / 1024:.0f} KiB",
              f"{8 * row['n'] ** 2 / 2**20:.0f} MiB", row["cpu"] * 100] for row in rows]
    emit(format_table(["h", "Q", "n", "r", "it/s", "us/iter", "ns/(n r)", "G", "2 rows of C", "C", "cpu%"], table,
                      title=f"Table B. Compiled engine scaling, randn-{config.m}-n, X0 = random_stiefel (dense), "
                            f"runs of {config.scaling_seconds:g} s (median of {config.repeats})"))
    emit(f"(section time {time.perf_counter() - t0:.1f} s)")
    return rows


_CHILD = """
import time
t = time.perf_counter()
from obcd_lite import L1, identity_init, obcd, randn_covariance, sparse_pca
t_import = time.perf_counter() - t
problem = sparse_pca(randn_covariance(20, 30, rng=0), L1(1e-3))
t = time.perf_counter()
obcd(problem, identity_init(30, 3), max_iter=10, rng=0, Q="exact", engine="compiled")
obcd(problem, identity_init(30, 3), max_iter=10, rng=0, Q="exact", engine="python")
t_first = time.perf_counter() - t
t = time.perf_counter()
obcd(problem, identity_init(30, 3), max_iter=10, rng=0, Q="exact", engine="compiled")
print(t_import, t_first, time.perf_counter() - t)
"""


def section_compile(emit) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=os.pathsep.join(
            [str(_HERE.parent)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        for label in ("empty cache (compiles)", "warm cache (loads)"):
            out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, check=True)
            t_import, t_first, t_second = (float(v) for v in out.stdout.split())
            rows.append({"cache": label, "import": t_import, "first": t_first, "second": t_second})
    emit(format_table(["numba cache", "import [s]", "first calls [s]", "next call [s]"],
                      [[r["cache"], r["import"], r["first"], r["second"]] for r in rows],
                      title="Table C. First-call cost in a fresh process: import obcd_lite, then the first obcd "
                            "calls (compiled and python engines, 10 iterations each), then one more compiled call"))
    return rows


def run(config: Config, emit: Callable[[str], None] = print) -> dict:
    t0 = time.perf_counter()
    emit("obcd-lite OBCD speed")
    emit(environment_report())
    emit(f"config:      {config}")
    emit("")
    out = {}
    if config.compile_time:
        out["compile"] = section_compile(emit)
        emit("")
    C = randn_covariance(config.m, config.n, rng=config.data_seed)
    obcd(sparse_pca(C, L1(1e-4)), identity_init(config.n, config.r), max_iter=10, rng=0)  # compile / load once
    out["engines"] = section_engines(config, C, emit)
    emit("")
    out["scaling"] = section_scaling(config, emit)
    emit("")
    emit(f"total wall time {time.perf_counter() - t0:.1f} s; load avg now {load_average()} (1/5/15 min)")
    return out


def _sweep_share(problem, X0, Q: str, steps: int, repeats: int) -> dict:
    """Time the compiled sweep alone on the (coef, Z) of ``steps`` recorded iterations (one workspace
    reused, as in the kernel), and the whole compiled iteration on the same blocks from the same
    start: median us per call of each."""
    from numba import njit

    from obcd_lite.block_arithmetic import block_2x2
    from obcd_lite.solvers.obcd import _BlockChunks, _working_set_batches
    from obcd_lite.solvers.obcd_kernel import run_steps
    from obcd_lite.block_arithmetic import coefficients_2x2
    from obcd_lite.subproblem.sweep import sweep_into
    from obcd_lite.subproblem.workspace import sweep_workspace

    @njit
    def sweeps(coefs, Zs, kind, lam, tau):
        total = 0.0
        work, VZ = sweep_workspace(Zs.shape[2]), np.empty((2, Zs.shape[2]))  # one workspace, as the kernel
        for i in range(coefs.shape[0]):
            total += sweep_into(coefs[i], Zs[i], kind, lam, tau, 0, 1, work, VZ)[3]
        return total

    h = problem.h
    kind, (lam, tau), exact = h.sweep_kind, h.sweep_params(), Q == "exact"
    blocks = _BlockChunks(_working_set_batches(X0.shape[0], 2, "random", 0)).take(steps)
    X = np.ascontiguousarray(X0.copy())
    G = np.ascontiguousarray(problem.grad(X))
    Z, ZD, Qt, P = np.empty((2, X.shape[1])), np.empty((2, X.shape[1])), np.empty((4, 4)), np.empty((2, 2))
    coefs, Zs = np.empty((steps, 2, 5)), np.empty((steps, 2, X.shape[1]))
    for i in range(steps):  # record the subproblems of the run, one step at a time
        block_2x2(*problem.compiled_arrays(), X, G, blocks[i, 0], blocks[i, 1], 1e-5, exact, Z, ZD, Qt, P)
        coefficients_2x2(Qt, P, coefs[i])
        Zs[i] = Z
        run_steps(*problem.compiled_arrays(), X, G, blocks[i:i + 1], 1e-5, exact, kind, lam, tau, 0, 1, 0.0, _NO_TRACE)
    sweeps(coefs[:2], Zs[:2], kind, lam, tau)  # compile
    t_sweep, t_iter = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        sweeps(coefs, Zs, kind, lam, tau)
        t_sweep.append((time.perf_counter() - t) / steps * 1e6)
        X = np.ascontiguousarray(X0.copy())
        G = np.ascontiguousarray(problem.grad(X))
        t = time.perf_counter()
        run_steps(*problem.compiled_arrays(), X, G, blocks, 1e-5, exact, kind, lam, tau, 0, 1, 0.0, _NO_TRACE)
        t_iter.append((time.perf_counter() - t) / steps * 1e6)
    sweep_us, iter_us = float(np.median(t_sweep)), float(np.median(t_iter))
    return {"sweep_us": sweep_us, "iter_us": iter_us, "share": sweep_us / iter_us}


_NO_TRACE = np.empty((0, 2))


def x_hash(X: np.ndarray) -> str:
    """The first 12 hex digits of the SHA-256 of X's bytes (equal iterates, to the last bit)."""
    import hashlib
    return hashlib.sha256(np.ascontiguousarray(X).tobytes()).hexdigest()[:12]


def section_l1(C: np.ndarray, n: int, r: int, iters: int, repeats: int, hash_iters: int, emit) -> dict:
    """Issue 19: l1 (lam = 1e-5) against h = 0 per Q, in one process, interleaved runs."""
    t0 = time.perf_counter()
    X0 = random_stiefel(n, r, rng=0)
    problems = {"h=0": sparse_pca(C), "L1(1e-5)": sparse_pca(C, L1(1e-5))}
    speeds = {(h, Q): [] for h in problems for Q in ("exact", "scalar")}
    for problem in problems.values():
        obcd(problem, X0, rng=0, max_iter=100, Q="exact")  # compile / load, first touch
    for _ in range(repeats):
        for (h, Q), runs in speeds.items():
            res = obcd(problems[h], X0, rng=0, max_iter=iters, Q=Q, log_every=10**9)
            runs.append(res.iterations / res.seconds)
    rows, out = [], {}
    for Q in ("exact", "scalar"):
        zero, l1 = np.array(speeds["h=0", Q]), np.array(speeds["L1(1e-5)", Q])
        share = _sweep_share(problems["L1(1e-5)"], X0, Q, steps=min(iters, 20_000), repeats=3)
        out[Q] = {"h0": np.median(zero), "l1": np.median(l1), "ratio": np.median(zero) / np.median(l1), **share}
        rows.append([Q, np.median(zero), f"{zero.min():.0f}-{zero.max():.0f}", np.median(l1),
                     f"{l1.min():.0f}-{l1.max():.0f}", np.median(zero) / np.median(l1), np.median(zero / l1),
                     share["iter_us"], share["sweep_us"], 100 * share["share"]])
    emit(format_table(["Q", "h=0 it/s", "range", "l1 it/s", "range", "h0/l1", "median of round ratios",
                       "l1 us/iter", "sweep us", "sweep %"], rows,
                      title=f"Table D. l1 (lam = 1e-5) against h = 0, randn-500-{n}, r = {r}, X0 = random_stiefel "
                            f"(dense), {repeats} interleaved rounds of {iters} iterations"))
    emit("(h0/l1 = how many times longer an l1 iteration takes than an h = 0 one with the same Q; sweep % = "
         "the compiled sweep alone on the recorded subproblems of 20,000 l1 steps over the whole iteration on "
         f"the same blocks; section time {time.perf_counter() - t0:.1f} s, load {load_average()})")
    penalties = {"h=0": sparse_pca(C), "L1(1e-5)": sparse_pca(C, L1(1e-5)), "L1(1e-4)": sparse_pca(C, L1(1e-4)),
                 "L0(3e-6)": sparse_pca(C, L0(3e-6)), "CappedL1(1e-4,0.05)": sparse_pca(C, CappedL1(1e-4, 0.05)),
                 "X>=0": nonneg_pca(C)}
    hashes = []
    for h, problem in penalties.items():
        for Q in ("exact", "scalar"):
            for start, X in (("dense", X0), ("identity", identity_init(n, r)))[h == "X>=0":]:  # X0 >= 0 only
                hashes.append([h, Q, start, x_hash(obcd(problem, X, rng=0, max_iter=hash_iters, Q=Q).X)])
    emit(format_table(["h", "Q", "start", "sha256(X)[:12]"], hashes,
                      title=f"Table E. Iterates after {hash_iters} compiled steps (rng = 0)"))
    out["hashes"] = hashes
    return out


#: Issue 28's rows: every built-in penalty at the lambdas a student's slider reaches (capped l1 at both
#: taus: 0.05, about the size of a column of Z from the dense start, so both pieces occur; 0.5, above
#: every column, where capped l1 is l1 on every block).
PENALTY_LAMS = (1e-5, 1e-4, 1e-3)
CAPPED_TAUS = (0.05, 0.5)


def penalty_rows(lams: Sequence[float] = PENALTY_LAMS, taus: Sequence[float] = CAPPED_TAUS) -> list[tuple[str, object]]:
    """(label, penalty) for every row of the penalty table: l1, l0, capped l1 (each tau) at every lam."""
    rows = [(f"l1, lam = {lam:g}", L1(lam)) for lam in lams]
    rows += [(f"l0, lam = {lam:g}", L0(lam)) for lam in lams]
    rows += [(f"capped l1, lam = {lam:g}, tau = {tau:g}", CappedL1(lam, tau)) for tau in taus for lam in lams]
    return rows


def section_penalties(C: np.ndarray, n: int, r: int, iters: int, repeats: int, emit,
                      rows: Sequence[tuple[str, object]] | None = None) -> dict:
    """Issue 28: every penalty against h = 0 with the same Q, in one process, runs paired.

    Each round runs, for every penalty and Q ("exact", "scalar"), an h = 0 run and the penalty's
    run back to back (which goes first alternates by round), each ``iters`` compiled iterations from
    the dense start ``random_stiefel(n, r, rng=0)``. A pair's ratio is the penalty's CPU seconds per
    iteration over h = 0's (CPU time of this process: on a shared machine the time other processes
    take the core is not counted; the engine runs on one thread). The table gives the median of the
    rounds' ratios with their range, and the median it/s (wall clock, the solver's ``Result.seconds``)."""
    t0 = time.perf_counter()
    X0 = random_stiefel(n, r, rng=0)
    rows = penalty_rows() if rows is None else rows
    zero = sparse_pca(C)
    problems = {label: sparse_pca(C, h) for label, h in rows}
    for problem in (zero, *problems.values()):
        obcd(problem, X0, rng=0, max_iter=100, Q="exact")  # compile / load, first touch

    def run(problem, Q):
        cpu = time.process_time()
        res = obcd(problem, X0, rng=0, max_iter=iters, Q=Q, log_every=10**9)
        return (time.process_time() - cpu) / res.iterations, res.iterations / res.seconds

    ratios = {(label, Q): [] for label in problems for Q in ("exact", "scalar")}
    speeds = {key: [] for key in ratios}
    zero_speeds = {"exact": [], "scalar": []}
    loads = [load_average()]
    for round_ in range(repeats):
        for (label, Q), pair_ratios in ratios.items():
            first, second = (zero, problems[label]) if round_ % 2 == 0 else (problems[label], zero)
            runs = {id(first): run(first, Q)}
            runs[id(second)] = run(second, Q)
            pair_ratios.append(runs[id(problems[label])][0] / runs[id(zero)][0])
            speeds[label, Q].append(runs[id(problems[label])][1])
            zero_speeds[Q].append(runs[id(zero)][1])
        loads.append(load_average())
    out, table = {}, []
    for label in problems:
        line = [label]
        for Q in ("exact", "scalar"):
            ratio = np.array(ratios[label, Q])
            out[label, Q] = {"ratio": float(np.median(ratio)), "min": float(ratio.min()), "max": float(ratio.max()),
                             "its": float(np.median(speeds[label, Q]))}
            line += [f"{np.median(ratio):.2f} ({ratio.min():.2f}-{ratio.max():.2f})", float(np.median(speeds[label, Q]))]
        table.append(line)
    emit(format_table(["penalty", "exact: x h=0 (range)", "it/s", "scalar: x h=0 (range)", "it/s"], table,
                      title=f"Table F. Every penalty against h = 0 with the same Q, randn-500-{n}, r = {r}, "
                            f"X0 = random_stiefel (dense), compiled, k = 2, {repeats} rounds of paired runs of "
                            f"{iters} iterations"))
    emit(f"(x h=0 = CPU seconds per iteration over h = 0's in the same pair: median of the rounds and range; "
         f"it/s = wall clock, median; h = 0 it/s: exact {np.median(zero_speeds['exact']):.0f}, scalar "
         f"{np.median(zero_speeds['scalar']):.0f}; load (1/5/15 min) before the rounds and after each: "
         f"{' | '.join(loads)}; section time {time.perf_counter() - t0:.1f} s)")
    out["loads"] = loads
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, no compile-time section (smoke run)")
    parser.add_argument("--l1", action="store_true", help="only the l1 / h = 0 ratio, sweep share and hashes")
    parser.add_argument("--iters", type=int, default=40_000, help="--l1: iterations per run")
    parser.add_argument("--repeats", type=int, default=7, help="--l1: interleaved rounds")
    parser.add_argument("--hash-iters", type=int, default=20_000, help="--l1: steps before hashing X")
    parser.add_argument("--penalties", action="store_true",
                        help="only every penalty against h = 0 (issue 28's table), interleaved rounds")
    args = parser.parse_args(argv)
    if args.penalties:
        print(environment_report(), flush=True)
        C = randn_covariance(500, 1000, rng=0)
        section_penalties(C, 1000, 20, args.iters, args.repeats, emit=lambda s: print(s, flush=True))
        return 0
    if args.l1:
        print(environment_report(), flush=True)
        C = randn_covariance(500, 1000, rng=0)
        section_l1(C, 1000, 20, args.iters, args.repeats, args.hash_iters, emit=lambda s: print(s, flush=True))
        return 0
    config = Config().quick() if args.quick else Config()
    run(config, emit=lambda s: print(s, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
