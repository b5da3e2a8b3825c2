"""OBCD on a researcher's own problem: pymanopt's Stiefel examples against pymanopt's solvers (issue 36).

Run with ``PYTHONPATH=$PWD .venv/bin/python benchmarks/own_problem.py [--sizes 50 200 1000] [--repeats 2]
[--max-budget 10]`` (about 15 min at the defaults on a loaded 2-core machine; ``--quick`` for a smoke run).
Everything runs in this one process at one BLAS thread, the solvers interleaved round by round, and the
1-minute load average is printed on every row (other work on the shared machine stretches every time).

Problems, each written once as a pymanopt numpy-backend ``Problem`` on ``Stiefel(n, r)`` (cost, Euclidean
gradient and Hessian, as a pymanopt user writes them; the suite reads cost and gradient through
``from_pymanopt``, without a Lipschitz bound: OBCD estimates the curvature):

* ``subspace`` — pymanopt's dominant invariant subspace: f(X) = -tr(X^T A X), A = (G + G^T)/2, G n x n
  Gaussian, r = 5 (pymanopt states it on the Grassmannian; the cost is the same on St(n, r));
* ``eigenvector`` — pymanopt's dominant eigenvector, the same A on St(n, 1);
* ``pca`` — pymanopt's PCA: f(W) = ||Y - Y W W^T||_F^2 on St(n, r), r = 10, Y = 1000 samples of
  N(0, diag(s)^2), s falling linearly from 3 to 1 (pymanopt's example has diag(3, 2, 1)), centred.

Solvers, all from one random start (``random_stiefel(n, r, rng=0)``): pymanopt's ``TrustRegions`` (the
reference), ``ConjugateGradient`` and ``SteepestDescent`` (defaults, cost-evaluation cap lifted); OBCD with one
random pair per step (the paper's rule, ``working_set="random"``) with the Hessian's block Q of eq. (9) from 4
Hessian products per step (``Q="exact"``: ``from_pymanopt`` passes the problem's Hessian), with
many pairs per gradient (``working_set="matching"``, the scalar Q of eq. (10), its default) and with many pairs
and the Hessian's Q (``Q="exact"``, 2 n Hessian products per matching); ManPG and the Cayley method of the suite. The target is TR's final cost f*:
a solver reaches it at f <= f* + 1e-6 |f*|; its time to the target is wall time from the call (setup
included: the suite's curvature estimate, pymanopt's problem wrapping), read from pymanopt's log
(the time of its first gradient call at a point at the target: pymanopt's solvers take one gradient per
accepted iterate, and TrustRegions keeps no per-iteration log) or from the suite's callback, which stops
the run there. Each run gets min(max(20 x TR's time, 1 s), ``--max-budget``) seconds. Per row: the median
time with its range over the repeats, its ratio to TR's median, the iterations (OBCD: one pair step, or
one matching of n/2 pairs), the final f relative to f*, and the stationarity at the end: the Riemannian
gradient's norm ||grad f - X sym(X^T grad f)||_F relative to its value at X0 (relative to ||grad f||_F it
says nothing for PCA, whose Euclidean gradient vanishes at the optimum too). A target 1e-6 |f*| above f* is
loose where f* carries a large constant (PCA: f = ||Y||^2 - tr(W^T Y^T Y W)): read that column with it.

``--json PATH`` stores every row as a record (``obcd_lite.experiments.benchmark_records`` loads and checks them;
``obcd_lite.viz.benchmark.own_problem_figure`` draws them); ``--figure PATH`` draws a stored file and exits.

Then l1-PCA: the ``pca`` cost at n = 50, r = 5 plus h = lam ||X||_1 (lam = 300) through ``from_pymanopt``:
ManPG run to its own stop (its default since issue 34: ||D||_F / (t L) < sqrt(1e-8 n r), the demo's
||D||^2 / t^2 < 1e-8 n r relative to the scale L; the reference; an absolute tol= here would stop it at once) against OBCD (one pair, many pairs) with 10 x ManPG's time: the time each needs to reach
ManPG's F (F <= F_ManPG + 1e-9 |F_ManPG|), the final F and the stationarity dist(0, d_M F)
(``optimality.residual_details``) relative to its value at X0.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from obcd_lite import L1, from_pymanopt, obcd, random_stiefel
from obcd_lite.optimality.criticality import residual_details
from obcd_lite.solvers import cayley_method, manpg
from obcd_lite.threads import blas_threads_report, one_blas_thread

#: Relative distance to TR's final cost that counts as reaching it.
TARGET_REL = 1e-6
#: Samples of the PCA data.
SAMPLES = 1000
#: The l1-PCA instance of the last table.
L1_PCA = dict(n=50, r=5, lam=300.0)


#: While a pymanopt solver runs: (time.time(), X) of every gradient call (pymanopt's solvers take one gradient
#: per accepted iterate; TrustRegions keeps no per-iteration log), else None.
_TRACE: list | None = None


def _traced(X):
    if _TRACE is not None:
        _TRACE.append((time.time(), X.copy()))


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def subspace_matrix(n: int, rng) -> np.ndarray:
    """pymanopt's example matrix: (G + G^T) / 2, G n x n standard Gaussian."""
    G = np.random.default_rng(rng).standard_normal((n, n))
    return 0.5 * (G + G.T)


def pca_data(n: int, rng) -> np.ndarray:
    """SAMPLES rows of N(0, diag(s)^2), s = linspace(3, 1, n), centred."""
    Y = np.random.default_rng(rng).standard_normal((SAMPLES, n)) * np.linspace(3.0, 1.0, n)
    return Y - Y.mean(axis=0)


def trace_problem(A: np.ndarray, r: int):
    """pymanopt Problem: f(X) = -tr(X^T A X) on Stiefel(n, r) (dominant invariant subspace; r = 1: eigenvector)."""
    import pymanopt

    manifold = pymanopt.manifolds.Stiefel(len(A), r)

    @pymanopt.function.numpy(manifold)
    def cost(X):
        return -float(np.sum(X * (A @ X)))

    @pymanopt.function.numpy(manifold)
    def euclidean_gradient(X):
        _traced(X)
        return -2.0 * A @ X

    @pymanopt.function.numpy(manifold)
    def euclidean_hessian(X, H):
        return -2.0 * A @ H

    return pymanopt.Problem(manifold, cost, euclidean_gradient=euclidean_gradient, euclidean_hessian=euclidean_hessian)


def pca_problem(Y: np.ndarray, r: int):
    """pymanopt Problem: f(W) = ||Y - Y W W^T||_F^2 on Stiefel(n, r), its gradient and Hessian in C = Y^T Y."""
    import pymanopt

    C = Y.T @ Y
    manifold = pymanopt.manifolds.Stiefel(Y.shape[1], r)

    @pymanopt.function.numpy(manifold)
    def cost(W):
        E = Y - (Y @ W) @ W.T
        return float(np.sum(E * E))

    @pymanopt.function.numpy(manifold)
    def euclidean_gradient(W):
        _traced(W)
        CW = C @ W
        return -2.0 * (2.0 * CW - CW @ (W.T @ W) - W @ (W.T @ CW))

    @pymanopt.function.numpy(manifold)
    def euclidean_hessian(W, H):
        CW, CH = C @ W, C @ H
        return -2.0 * (2.0 * CH - CH @ (W.T @ W) - CW @ (H.T @ W) - CW @ (W.T @ H)
                       - H @ (W.T @ CW) - W @ (H.T @ CW) - W @ (W.T @ CH))

    return pymanopt.Problem(manifold, cost, euclidean_gradient=euclidean_gradient, euclidean_hessian=euclidean_hessian)


def build(name: str, n: int):
    """(pymanopt problem, X0) of the module docstring's ``name`` at size n."""
    if name == "subspace":
        problem, r = trace_problem(subspace_matrix(n, 0), 5), 5
    elif name == "eigenvector":
        problem, r = trace_problem(subspace_matrix(n, 0), 1), 1
    elif name == "pca":
        problem, r = pca_problem(pca_data(n, 0), 10), 10
    else:
        raise ValueError(f"unknown problem {name!r}")
    return problem, random_stiefel(n, r, rng=0)


def riemannian_gradient_norm(problem, X: np.ndarray) -> float:
    """||grad f - X sym(X^T grad f)||_F, the Riemannian gradient's norm on St(n, r) (h = 0)."""
    G = np.asarray(problem.euclidean_gradient(X))
    S = X.T @ G
    return float(np.linalg.norm(G - X @ (0.5 * (S + S.T))))


def stationarity(problem, X: np.ndarray, X0: np.ndarray) -> float:
    """The Riemannian gradient's norm at X relative to X0's."""
    return riemannian_gradient_norm(problem, X) / riemannian_gradient_norm(problem, X0)


def l1_stationarity(smooth, X: np.ndarray, X0: np.ndarray) -> float:
    """dist(0, d_M F(X)) (``optimality.residual_details``) relative to its value at X0."""
    return residual_details(smooth, X).value / residual_details(smooth, X0).value


def run_pymanopt(kind: str, problem, X0, budget: float, target: float | None):
    """(seconds to the target or None, iterations there (or in all), final point, final cost) of a pymanopt solver."""
    from pymanopt.optimizers import ConjugateGradient, SteepestDescent, TrustRegions

    global _TRACE
    cls = {"TR": TrustRegions, "CG": ConjugateGradient, "SD": SteepestDescent}[kind]
    optimizer = cls(verbosity=0, max_time=budget, max_iterations=10 ** 6, max_cost_evaluations=10 ** 9)
    _TRACE = []
    start = time.time()
    try:
        result = optimizer.run(problem, initial_point=X0.copy())
    finally:
        trace, _TRACE = _TRACE, None
    hit = None
    if target is not None:  # the first gradient call at a point at the target (costs evaluated after the run)
        hit = next((i for i, (_, X) in enumerate(trace) if problem.cost(X) <= target), None)
    seconds = None if hit is None else trace[hit][0] - start
    iterations = hit if hit is not None else result.iterations
    return seconds, iterations, result.point, float(result.cost)


def run_suite(kind: str, problem, X0, budget: float, target: float, h=None):
    """The same for the suite's solvers on ``from_pymanopt(problem, h)``, stopped at the target by the callback."""
    smooth = from_pymanopt(problem, h=h)
    hit = []
    start = time.perf_counter()

    def stop(step):
        if step.F <= target:
            hit.append((time.perf_counter() - start, step.iteration))
            return True
        return False

    if kind == "OBCD one pair, Hessian Q":
        res = obcd(smooth, X0, time_limit=budget, max_iter=10 ** 9, rng=0, callback=stop, log_every=10 ** 9,
                   Q="exact")
    elif kind == "OBCD many pairs":
        res = obcd(smooth, X0, time_limit=budget, max_iter=10 ** 9, rng=0, callback=stop, log_every=10 ** 9,
                   working_set="matching")
    elif kind == "OBCD many pairs, Hessian Q":
        res = obcd(smooth, X0, time_limit=budget, max_iter=10 ** 9, rng=0, callback=stop, log_every=10 ** 9,
                   working_set="matching", Q="exact")
    elif kind == "ManPG":
        res = manpg(smooth, X0, time_limit=budget, max_iter=10 ** 9, callback=stop, log_every=10 ** 9, tol=0.0)
    elif kind == "Cayley":
        res = cayley_method(smooth, X0, time_limit=budget, max_iter=10 ** 9, callback=stop, log_every=10 ** 9,
                            tol=0.0)
    else:
        raise ValueError(f"unknown solver {kind!r}")
    seconds, iterations = hit[0] if hit else (None, res.iterations)
    return seconds, iterations, res.X, float(res.F)


PYMANOPT = ("TR", "CG", "SD")
SUITE = ("OBCD one pair, Hessian Q", "OBCD many pairs", "OBCD many pairs, Hessian Q", "ManPG", "Cayley")
#: The records of the run (``--json``): the h = 0 rows and the l1-PCA rows.
RECORDS: dict = {"smooth": [], "l1": []}


def _summary(values):
    reached = [v for v in values if v is not None]
    if len(reached) < len(values):
        return None, f"{len(reached)}/{len(values)} reached"
    return float(np.median(reached)), f"{min(reached):.3g}-{max(reached):.3g}"


def smooth_table(sizes, repeats: int, max_budget: float) -> list[str]:
    """The markdown rows of the h = 0 table."""
    rows = []
    for name in ("subspace", "eigenvector", "pca"):
        for n in sizes:
            problem, X0 = build(name, n)
            tr = [run_pymanopt("TR", problem, X0, max_budget * 10, None) for _ in range(repeats)]
            f_star = tr[0][3]
            target = f_star + TARGET_REL * abs(f_star)
            tr_times = [run_pymanopt("TR", problem, X0, max_budget * 10, target)[0] for _ in range(repeats)]
            tr_median, tr_range = _summary(tr_times)
            budget = min(max(20 * (tr_median or max_budget), 1.0), max_budget)
            runs: dict[str, list] = {kind: [] for kind in (*PYMANOPT[1:], *SUITE)}
            for _ in range(repeats):
                for kind in runs:
                    runner = run_pymanopt if kind in PYMANOPT else run_suite
                    runs[kind].append(runner(kind, problem, X0, budget, target))
            r = X0.shape[1]
            tr_row = ("TR", tr_median, tr_range, tr[0][1], tr[0][3], tr[0][2])
            seconds = {"TR": tr_times, **{kind: [v[0] for v in vals] for kind, vals in runs.items()}}
            for kind, median, spread, iterations, cost, X in [tr_row] + [
                    (kind, *_summary([v[0] for v in vals]), vals[-1][1], vals[-1][3], vals[-1][2])
                    for kind, vals in runs.items()]:
                ratio = "" if median is None or tr_median is None else f"{median / tr_median:.2g}"
                time_text = f"not in {budget:.3g} s" if median is None else f"{median:.3g}"
                gap = (cost - f_star) / abs(f_star)
                load = _load()
                station = stationarity(problem, X, X0)
                row = (f"| {name} | {n} | {r} | {kind} | {time_text} | {spread} | {ratio} | {iterations} | "
                       f"{gap:.1e} | {station:.1e} | {load} |")
                print(row, flush=True)
                rows.append(row)
                RECORDS["smooth"].append({
                    "problem": name, "n": n, "r": r, "solver": kind, "seconds": seconds[kind],
                    "tr_median": tr_median, "budget": budget, "iterations": int(iterations), "gap": float(gap),
                    "stationarity": station, "load": float(load)})
    return rows


def l1_pca_table(repeats: int, factor: float = 10.0) -> list[str]:
    """The markdown rows of the l1-PCA table (OBCD gets ``factor`` x ManPG's time)."""
    n, r, lam = L1_PCA["n"], L1_PCA["r"], L1_PCA["lam"]
    problem = pca_problem(pca_data(n, 0), r)
    X0 = random_stiefel(n, r, rng=0)
    h = L1(lam)
    ref = []
    for _ in range(repeats):
        smooth = from_pymanopt(problem, h=h)
        start = time.perf_counter()
        res = manpg(smooth, X0, time_limit=120.0)  # its default stop: the demo's, relative to S = L_f
        ref.append((time.perf_counter() - start, res))
    t_manpg = float(np.median([t for t, _ in ref]))
    F_manpg = ref[0][1].F
    target = F_manpg + 1e-9 * abs(F_manpg)
    rows = []
    smooth = from_pymanopt(problem, h=h)
    rows.append(f"| ManPG (own stop) | {t_manpg:.3g} | {min(t for t, _ in ref):.3g}-{max(t for t, _ in ref):.3g} | 1 | "
                f"{ref[0][1].iterations} | {F_manpg:.10g} | {l1_stationarity(smooth, ref[0][1].X, X0):.1e} | {_load()} |")
    print(rows[-1], flush=True)
    RECORDS["l1"].append({"solver": "ManPG (own stop)", "seconds": [t for t, _ in ref], "manpg_median": t_manpg,
                          "budget": None, "iterations": int(ref[0][1].iterations), "F": float(F_manpg),
                          "load": float(_load())})
    for kind in ("OBCD one pair, Hessian Q", "OBCD many pairs"):
        vals = [run_suite(kind, problem, X0, factor * t_manpg, target, h=h) for _ in range(repeats)]
        median, spread = _summary([v[0] for v in vals])
        # the final F and stationarity of a run that goes on for the whole budget (no stop at the target)
        many = kind == "OBCD many pairs"
        full = obcd(from_pymanopt(problem, h=h), X0, time_limit=factor * t_manpg, max_iter=10 ** 9, rng=0,
                    working_set="matching" if many else "random", Q="scalar" if many else "exact")
        ratio = "" if median is None else f"{median / t_manpg:.2g}"
        time_text = f"not in {factor * t_manpg:.3g} s" if median is None else f"{median:.3g}"
        rows.append(f"| {kind} | {time_text} | {spread} | {ratio} | {vals[-1][1]} | {full.F:.10g} | "
                    f"{l1_stationarity(smooth, full.X, X0):.1e} | {_load()} |")
        print(rows[-1], flush=True)
        RECORDS["l1"].append({"solver": kind, "seconds": [v[0] for v in vals], "manpg_median": t_manpg,
                              "budget": factor * t_manpg, "iterations": int(vals[-1][1]), "F": float(full.F),
                              "load": float(_load())})
    return rows


@one_blas_thread
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 1000])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--max-budget", type=float, default=10.0, help="seconds per run at most")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run (n = 20, one repeat, 1 s budgets, l1-PCA with 1 x ManPG's time)")
    parser.add_argument("--json", default=None, help="store the records here (e.g. docs/benchmarks/own_problem.json)")
    parser.add_argument("--figure", default=None,
                        help="draw the records of --json (a stored file) into this image file and exit")
    args = parser.parse_args(argv)
    if args.figure is not None:
        return draw(args.json, args.figure)
    if args.quick:
        args.sizes, args.repeats, args.max_budget = [20], 1, 1.0
    print(blas_threads_report())
    warm, X_warm = build("subspace", 12)  # numba loads the compiled subproblem code once, before any clock runs
    for kind in SUITE:
        run_suite(kind, warm, X_warm, 0.5, -np.inf)
    load_start = list(os.getloadavg())
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in load_start)}")
    print("| problem | n | r | solver | s to TR's f* | range | / TR | iterations | (f - f*)/abs(f*) | "
          "stationarity / X0's | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    smooth_table(args.sizes, args.repeats, args.max_budget)
    print()
    print(f"l1-PCA: n = {L1_PCA['n']}, r = {L1_PCA['r']}, lam = {L1_PCA['lam']:g}")
    print("| solver | s to ManPG's F | range | / ManPG | iterations | final F | stationarity / X0's | load |")
    print("|---|---|---|---|---|---|---|---|")
    l1_pca_table(args.repeats, 1.0 if args.quick else 10.0)
    if args.json is not None:
        RECORDS["meta"] = {"sizes": list(args.sizes), "repeats": args.repeats, "max_budget": args.max_budget,
                           "target_rel": TARGET_REL, "load_start": load_start, "load_end": list(os.getloadavg()),
                           "threads": blas_threads_report(), "l1_pca": L1_PCA}
        with open(args.json, "w") as handle:
            json.dump(RECORDS, handle, indent=1)
            handle.write("\n")
        print(f"records written to {args.json}")
    return 0


def draw(source: str | None, target: str) -> int:
    """Draw the stored records ``source`` (None: the committed ``docs/benchmarks/own_problem.json``) into ``target``."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "own_problem"  # the same SVG from the same records (no random ids)
    from obcd_lite.experiments.benchmark_records import load_own_problem
    from obcd_lite.viz.benchmark import own_problem_figure

    fig = own_problem_figure(load_own_problem(source))
    fig.savefig(target, metadata={"Date": None} if target.endswith(".svg") else None, bbox_inches="tight")
    print(f"figure written to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
