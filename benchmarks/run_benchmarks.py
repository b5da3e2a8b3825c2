"""Benchmarks of obcd-lite: the k = 2 subproblem, OBCD throughput, and a profile.

Run with ``.venv/bin/python benchmarks/run_benchmarks.py`` (or ``make bench``);
``--quick`` cuts every count by 10x for a smoke run. Everything runs in this
one process; environment variables (OPENBLAS_NUM_THREADS, ...) are reported,
never changed. Output is plain text with fixed-width columns.

1. ``solve_2x2``: per-call time (median, p90, in microseconds) of the internal
   ``obcd_lite.subproblem.solve_2x2_unchecked`` (no input checks, what the OBCD driver
   calls) and of the public ``obcd_lite.solve_2x2`` (with checks), for every
   penalty x Qt kind at r = 20, and for L1 over r in {1, 5, 20, 50}. Each call
   is timed on its own with ``time.perf_counter_ns`` (garbage collection off
   while timing, as ``timeit`` does), cycling over pre-generated instances.
2. OBCD iterations per second on the paper's "randn" sparse PCA
   (C = A^T A, A 500 x 1000 Gaussian with ||A||_F = 1, r = 20, X0 = identity),
   with the final F, nnz and feasibility, for a fixed number of iterations
   (fixed seed, so F and nnz are comparable from one version of the solver to the next).
   Each case runs three times (the same iterates); the median speed is reported with
   its range, because this VM's speed drifts between runs of the same code.
   The first call of the compiled sweep compiles it (about 10 s, once per checkout:
   numba caches the machine code beside the package); the warm-up calls absorb that.
3. A cProfile breakdown of OBCD (Q = "scalar", L1): the top functions by own time.
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import datetime
import gc
import io
import os
import platform
import pstats
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

import obcd_lite
from obcd_lite import (L0, L1, CappedL1, NonNeg, Zero, count_nonzeros, identity_init, nonneg_pca, obcd,
                       randn_covariance, random_stiefel, solve_2x2, sparse_pca)
from obcd_lite.subproblem import solve_2x2_unchecked
from obcd_lite.threads import blas_threads_report

ALPHA = 1e-5  # OBCD's default proximal parameter, added to the exact SPCA Q as the driver does
SCALAR_SIGMA = 2.0
KINDS = ("scalar", "general", "exact-SPCA")


# --------------------------------------------------------------------------- configuration
@dataclass(frozen=True)
class Config:
    """All sizes and counts of one benchmark run (the default is the full run)."""

    # section 1: solve_2x2
    calls: int = 2000          # timed calls per configuration
    warmup: int = 200          # untimed calls before them
    instances: int = 50        # pre-generated instances cycled over
    r_main: int = 20
    r_sweep: tuple = (1, 5, 20, 50)
    # the data: C = A^T A with A (m x n) Gaussian, ||A||_F = 1; n is also the Stiefel size of the 2x2 instances
    m: int = 500
    n: int = 1000
    data_seed: int = 0
    instance_seed: int = 20240
    # section 2: OBCD
    r_obcd: int = 20
    obcd_iters: int = 8000
    obcd_repeats: int = 3      # runs per case; the table gives the median speed and the range
    l1_lams: tuple = (1e-4, 1e-5)
    l0_lam: float = 3e-6
    # section 3: profile
    profile_iters: int = 3000
    profile_lam: float = 1e-4
    profile_top: int = 12

    def quick(self) -> "Config":
        """Every count cut by 10x (at least 1)."""
        cut = lambda v: max(1, v // 10)  # noqa: E731
        return dataclasses.replace(self, calls=cut(self.calls), warmup=cut(self.warmup),
                                   instances=cut(self.instances), obcd_iters=cut(self.obcd_iters),
                                   profile_iters=cut(self.profile_iters))


def penalties() -> dict[str, Callable[[], object]]:
    """The penalties of section 1, by label (label -> factory)."""
    return {"Zero": Zero, "L1(0.1)": lambda: L1(0.1), "L0(0.1)": lambda: L0(0.1),
            "CappedL1(0.1,0.05)": lambda: CappedL1(0.1, 0.05), "NonNeg": NonNeg}


# --------------------------------------------------------------------------- output helpers
def format_table(headers: Sequence[str], rows: Sequence[Sequence], title: str | None = None) -> str:
    """A fixed-width plain-text table; the first column is left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[_fmt(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()

    out = [] if title is None else [title]
    out += [line(cells[0]), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in cells[1:]]
    return "\n".join(out)


def _fmt(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if v == 0.0:
            return "0"
        if not np.isfinite(v):
            return str(v)
        a = abs(v)
        if a >= 1e5 or a < 1e-3:
            return f"{v:.3e}"
        if a >= 100:
            return f"{v:.1f}"
        return f"{v:.4g}"
    return str(v)


def _run(cmd: list[str]) -> str | None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=10, cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def environment_report() -> str:
    """Date, versions, git state, CPU, core count, BLAS and its thread settings (read only)."""
    lines = [f"date:        {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
             f"python:      {platform.python_version()} ({platform.python_implementation()}, {sys.executable})",
             f"numpy:       {np.__version__}"]
    try:
        import scipy
        lines.append(f"scipy:       {scipy.__version__}")
    except ImportError:
        pass
    head = _run(["git", "rev-parse", "--short", "HEAD"])
    if head is not None:
        dirty = _run(["git", "status", "--porcelain", "--untracked-files=no"])
        lines.append(f"git:         {head}" + (" (uncommitted changes in tracked files)" if dirty else ""))
    lines.append(f"obcd_lite:   {Path(obcd_lite.__file__).resolve().parent}")
    lines.append(f"platform:    {platform.platform()}")
    lines.append(f"load avg:    {load_average()}")
    cpu = None
    try:
        with open("/proc/cpuinfo") as f:
            for row in f:
                if row.lower().startswith("model name"):
                    cpu = row.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    lines.append(f"cpu:         {cpu or platform.processor() or 'unknown'}")
    nproc = _run(["nproc"])
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    lines.append(f"nproc:       {nproc or '?'} (os.cpu_count() = {os.cpu_count()}, affinity = {affinity})")
    env = {k: os.environ[k] for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                      "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS") if k in os.environ}
    lines.append("thread env:  " + (", ".join(f"{k}={v}" for k, v in env.items()) or "(none set)"))
    lines.append(blas_threads_report())
    return "\n".join(lines)


def load_average() -> str:
    """The 1/5/15-minute load averages (other processes on the machine skew the timings)."""
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except (OSError, AttributeError):
        return "unknown"


# --------------------------------------------------------------------------- section 1: solve_2x2
@dataclass
class Instance:
    Z: np.ndarray
    P: np.ndarray
    Qt: dict  # kind -> (4, 4) array


def make_instances(config: Config, r: int, C: np.ndarray) -> list[Instance]:
    """``config.instances`` instances at this r, with a fixed seed (shared by every penalty)."""
    rng = np.random.default_rng([config.instance_seed, r])
    spca = sparse_pca(C)
    out = []
    for _ in range(config.instances):
        X = random_stiefel(config.n, r, rng)
        B = np.sort(rng.choice(config.n, size=2, replace=False))
        Z = X[B]
        P = rng.standard_normal((2, 2))
        A = rng.standard_normal((4, 4))
        Qt = {"scalar": SCALAR_SIGMA * np.eye(4),
              "general": 0.5 * (A + A.T),
              "exact-SPCA": spca.exact_Q(list(B), Z) + ALPHA * np.eye(4)}
        out.append(Instance(Z, P, Qt))
    return out


def time_calls(fns: Sequence[Callable], args: Sequence[tuple], calls: int, warmup: int) -> np.ndarray:
    """Per-call times in ns, shape (len(fns), calls), of ``fn(*args[i % len(args)])``.

    The functions are interleaved call by call (all of them on instance i, then on
    instance i + 1, ...), so a burst of load from elsewhere hits every column alike.
    ``warmup`` untimed rounds come first.
    """
    m = len(args)
    for i in range(warmup):
        for fn in fns:
            fn(*args[i % m])
    times = np.empty((len(fns), calls), dtype=np.int64)
    clock = time.perf_counter_ns
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for i in range(calls):
            a = args[i % m]
            for j, fn in enumerate(fns):
                t0 = clock()
                fn(*a)
                times[j, i] = clock() - t0
    finally:
        if was_enabled:
            gc.enable()
    return times


def _internal(Qt, P, Z, h):
    return solve_2x2_unchecked(Qt, P, Z, h, "both")


def bench_2x2_case(config: Config, instances: list[Instance], penalty_label: str, kind: str) -> dict:
    """Median and p90 (microseconds) of the internal and public solvers on one penalty x Qt kind."""
    h = penalties()[penalty_label]()
    nonneg = isinstance(h, NonNeg)
    args = [(inst.Qt[kind], inst.P, np.abs(inst.Z) if nonneg else inst.Z, h) for inst in instances]
    internal, public = time_calls([_internal, solve_2x2], args, config.calls, config.warmup)
    # the two entry points must agree (same search); checked on the first instance only
    V_int = solve_2x2_unchecked(*args[0], "both").V
    V_pub = solve_2x2(*args[0])
    q = lambda t: np.percentile(t, [50, 90]) / 1e3  # noqa: E731
    (i50, i90), (p50, p90) = q(internal), q(public)
    return {"penalty": penalty_label, "Qt": kind, "r": instances[0].Z.shape[1],
            "int_med": i50, "int_p90": i90, "pub_med": p50, "pub_p90": p90,
            "agree": bool(np.allclose(V_int, V_pub))}


_2X2_HEADERS = ["penalty", "Qt", "r", "internal med", "internal p90", "public med", "public p90",
                "public-internal", "same V"]


def _2x2_row(res: dict) -> list:
    return [res["penalty"], res["Qt"], res["r"], res["int_med"], res["int_p90"], res["pub_med"], res["pub_p90"],
            res["pub_med"] - res["int_med"], res["agree"]]


def section_2x2(config: Config, C: np.ndarray, emit: Callable[[str], None]) -> dict:
    """Tables 1a (all penalties, r = r_main) and 1b (L1 over r_sweep). Returns the result rows."""
    cache: dict = {}
    inst_cache: dict = {}

    def run(label, kind, r):
        if r not in inst_cache:
            inst_cache[r] = make_instances(config, r, C)
        key = (label, kind, r)
        if key not in cache:
            cache[key] = bench_2x2_case(config, inst_cache[r], label, kind)
        return cache[key]

    t0 = time.perf_counter()
    rows_a = [run(label, kind, config.r_main) for label in penalties() for kind in KINDS]
    emit(format_table(_2X2_HEADERS, [_2x2_row(r) for r in rows_a],
                      title=f"Table 1a. solve_2x2 time per call [us], r = {config.r_main}, "
                            f"{config.calls} calls after {config.warmup} warm-up, cycling over "
                            f"{config.instances} instances"))
    rows_b = [run("L1(0.1)", kind, r) for r in config.r_sweep for kind in KINDS]
    emit("")
    emit(format_table(_2X2_HEADERS, [_2x2_row(r) for r in rows_b],
                      title="Table 1b. solve_2x2 time per call [us], L1(0.1), r sweep"))
    emit(f"(Qt kinds: scalar = {SCALAR_SIGMA:g} I; general = random symmetric 4x4 N(0,1); exact-SPCA = "
         f"exact Q of sparse_pca(C) at a random block + {ALPHA:g} I. P ~ N(0,1); Z = 2 rows of a random "
         f"St({config.n}, r) point, |Z| for NonNeg. section time {time.perf_counter() - t0:.1f} s)")
    return {"1a": rows_a, "1b": rows_b}


# --------------------------------------------------------------------------- section 2: OBCD throughput
def obcd_cases(config: Config, C: np.ndarray) -> list[tuple[str, str, Callable]]:
    """(problem label, penalty label, problem factory) for section 2."""
    cases = [("sparse_pca", "h=0", lambda: sparse_pca(C))]
    cases += [("sparse_pca", f"L1({lam:g})", lambda lam=lam: sparse_pca(C, L1(lam))) for lam in config.l1_lams]
    cases += [("sparse_pca", f"L0({config.l0_lam:g})", lambda: sparse_pca(C, L0(config.l0_lam))),
              ("nonneg_pca", "NonNeg", lambda: nonneg_pca(C))]
    return cases


def bench_obcd(problem, X0, Q: str, iters: int, repeats: int = 1) -> dict:
    """``repeats`` identical runs (same seed, so the same iterates): the median speed and its range."""
    runs = [obcd(problem, X0, max_iter=iters, rng=0, Q=Q, log_every=1000) for _ in range(repeats)]
    speeds = sorted(r.iterations / r.seconds for r in runs)
    res = runs[-1]
    hist = res.history
    median = float(np.median(speeds))
    return {"iters": res.iterations, "seconds": res.iterations / median, "it_per_s": median,
            "it_per_s_min": speeds[0], "it_per_s_max": speeds[-1],
            "F0": float(hist["F"][0]), "F": res.F, "F_drift": abs(float(hist["F"][-1]) - res.F),
            "nnz": count_nonzeros(res.X), "feas": float(hist["feasibility"][-1]),
            "feas_max": float(np.max(hist["feasibility"]))}


_OBCD_HEADERS = ["problem", "h", "Q", "iters", "seconds", "iter/s", "us/iter", "iter/s min", "iter/s max",
                 "F(X0)", "F final", "|F_tracked-F|", "nnz", "feas final", "feas max"]


def section_obcd(config: Config, C: np.ndarray, emit: Callable[[str], None]) -> list[dict]:
    t0 = time.perf_counter()
    X0 = identity_init(config.n, config.r_obcd)
    rows = []
    for prob_label, h_label, make in obcd_cases(config, C):
        for Q in ("scalar", "exact"):
            res = bench_obcd(make(), X0, Q, config.obcd_iters, config.obcd_repeats)
            res.update(problem=prob_label, h=h_label, Q=Q)
            rows.append(res)
    table = [[r["problem"], r["h"], r["Q"], r["iters"], r["seconds"], r["it_per_s"], 1e6 / r["it_per_s"],
              r["it_per_s_min"], r["it_per_s_max"], r["F0"], r["F"], r["F_drift"], r["nnz"], r["feas"], r["feas_max"]] for r in rows]
    emit(format_table(_OBCD_HEADERS, table,
                      title=f"Table 2. OBCD on randn-{config.m}-{config.n} (data seed {config.data_seed}), "
                            f"r = {config.r_obcd}, X0 = identity_init, seed = 0, k = 2, alpha = 1e-5, "
                            f"log_every = 1000"))
    emit(f"(median of {config.obcd_repeats} identical runs per row, min and max beside it; "
         f"nnz of X0 = {config.r_obcd}; feas = ||X^T X - I||_F from the history; |F_tracked-F| = "
         f"incrementally tracked F vs recomputed F. section time {time.perf_counter() - t0:.1f} s)")
    return rows


# --------------------------------------------------------------------------- section 3: profile
def profile_obcd(config: Config, C: np.ndarray) -> tuple[list[dict], float, int]:
    """cProfile of OBCD (Q = scalar, L1(profile_lam)): rows sorted by own time, total seconds, iterations."""
    problem = sparse_pca(C, L1(config.profile_lam))
    X0 = identity_init(config.n, config.r_obcd)
    prof = cProfile.Profile()
    prof.enable()
    res = obcd(problem, X0, max_iter=config.profile_iters, rng=0, Q="scalar", log_every=1000,
              engine="python")  # cProfile cannot see inside the compiled engine
    prof.disable()
    stats = pstats.Stats(prof, stream=io.StringIO())
    total = stats.total_tt
    rows = []
    for (path, line, func), (cc, nc, tt, ct, _) in stats.stats.items():
        rows.append({"function": _short_name(path, line, func), "ncalls": nc, "primitive": cc,
                     "tottime": tt, "cumtime": ct})
    rows.sort(key=lambda r: r["tottime"], reverse=True)
    return rows, total, res.iterations


def _short_name(path: str, line: int, func: str) -> str:
    if path == "~":  # a builtin / C function
        return func
    p = Path(path)
    parts = p.parts
    if "obcd_lite" in parts:
        p = Path(*parts[parts.index("obcd_lite"):])
    elif "numpy" in parts:
        p = Path(*parts[parts.index("numpy"):])
    else:
        p = Path(p.name)
    return f"{p}:{line}({func})"


def section_profile(config: Config, C: np.ndarray, emit: Callable[[str], None]) -> list[dict]:
    rows, total, iters = profile_obcd(config, C)
    top = rows[:config.profile_top]
    table = [[r["function"], r["ncalls"], r["tottime"], 100 * r["tottime"] / total,
              1e6 * r["tottime"] / iters, r["cumtime"]] for r in top]
    emit(format_table(["function", "ncalls", "tottime [s]", "% total", "us/iter", "cumtime [s]"], table,
                      title=f"Table 3. cProfile of OBCD, sparse_pca L1({config.profile_lam:g}), Q = scalar, "
                            f"{iters} iterations: top {len(top)} by own time (total {total:.2f} s, "
                            f"{1e6 * total / iters:.0f} us/iter under the profiler)"))
    return top


# --------------------------------------------------------------------------- driver
def run(config: Config, emit: Callable[[str], None] = print) -> dict:
    """Run all three sections; print through ``emit``; return the raw results."""
    t0 = time.perf_counter()
    emit("obcd-lite benchmarks")
    emit(environment_report())
    emit(f"config:      {config}")
    emit("")
    C = randn_covariance(config.m, config.n, rng=config.data_seed)
    out = {"2x2": section_2x2(config, C, emit)}
    emit("")
    out["obcd"] = section_obcd(config, C, emit)
    emit("")
    out["profile"] = section_profile(config, C, emit)
    emit("")
    emit(f"total wall time {time.perf_counter() - t0:.1f} s; load avg now {load_average()} "
         f"(1/5/15 min; above ~1 on this machine means another process competed for the cores)")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="cut every count by 10x (smoke run)")
    args = parser.parse_args(argv)
    config = Config()
    if args.quick:
        config = config.quick()
    run(config, emit=lambda s: print(s, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
