"""The paper's Tables (l0, l1, X >= 0 on randn, r = 20) with every registered method, plus
informative lam, convergence figures and time-to-target. Not run in CI.

Run from the repository root::

    .venv/bin/python benchmarks/paper_tables.py                 # the paper's setting, 10 s per run
    .venv/bin/python benchmarks/paper_tables.py --time-limit 1  # a short run
    .venv/bin/python benchmarks/paper_tables.py --workers 2     # on 2 worker processes
    .venv/bin/python benchmarks/paper_tables.py --scheduler tcp://scheduler:8786  # on a dask cluster

Setting (Section 5, Appendix E): A is randn-500-1000 scaled to ||A||_F = 1, r = 20, lam in
{10, 50, 100, 500}; the l0 table at -tr(X^T C X), the l1 table at -1/2 tr(X^T C X) (the scaling its
OBCD entries fit, see ``obcd_lite.experiments.paper_tables``), nonnegative PCA at -1/2 tr. Every method
starts from I(:, 1:r) ("id") and from a seeded random point ("rnd"), with the same time limit
(the paper: 40 s for l0, 60 s for l1 and NN; default here 10 s). At these lam the optimum is a
coordinate selection, so the script also prints F* = lam r - s (sum of the r largest C_ii) and
runs ``--informative`` lam (default 1e-4 and 1e-3: below the proven threshold, where loadings
are dense-to-sparse rather than trivial).

The grid is one ``run_experiment`` call: serial by default, on a process pool with ``--workers N``
(N <= the cores) or on a dask cluster with ``--scheduler`` (workers started with ``--nthreads 1``);
see docs/benchmarks/parallel_grids.md. The SparsePCA peer comparison (``--peer``) runs here, serially.

Output: the tables on stdout (F as in the paper, nnz, time-to-target), the records as CSV and one
convergence figure (F - F_best against seconds) per problem and lam in ``--out`` (git-ignored), and
``paper_comparison.md`` there: F (nnz, seconds to the best F) per method and start beside the paper's
randn-500-1000 entries.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from obcd_lite import SOLVERS  # noqa: E402
from obcd_lite.experiments import (PAPER_LAMS, Experiment, coordinate_threshold, coordinate_value,  # noqa: E402
                                   paper_table, run_experiment, time_to_target)
from obcd_lite.experiments.paper_tables import PAPER_METHOD_NAMES, PAPER_RANDN  # noqa: E402
from obcd_lite.experiments.parallel import worker_report  # noqa: E402
from obcd_lite.rounding import fmt  # noqa: E402
from obcd_lite.threads import blas_threads_report  # noqa: E402

#: Scaling of each table (see the module docstring).
TABLE_SCALES = {"l0": 1.0, "l1": 0.5, "nonneg": None}


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per run (default 10)")
    parser.add_argument("--m", type=int, default=500)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--r", type=int, default=20)
    parser.add_argument("--lams", type=float, nargs="+", default=list(PAPER_LAMS))
    parser.add_argument("--informative", type=float, nargs="*", default=[1e-4, 1e-3])
    parser.add_argument("--problems", nargs="+", default=["l0", "l1", "nonneg"])
    parser.add_argument("--methods", nargs="+", default=None, help="default: every registered solver")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--workers", type=int, default=None,
                        help="run the grid on a process pool of this many workers (at most the cores)")
    parser.add_argument("--own-sessions", action="store_true",
                        help="start each --workers process in its own session (os.setsid): with Linux autogroup "
                             "scheduling the processes of one session share one CPU share, so on a busy machine "
                             "N workers get no more CPU than one serial run (see docs/benchmarks/parallel_grids.md)")
    parser.add_argument("--scheduler", default=None,
                        help="run the grid on the dask cluster at this address (tcp://host:8786)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "output")
    parser.add_argument("--manpg-inner", type=int, default=None,
                        help="cap on ManPG's semismooth Newton steps per subproblem (default: its own, 100)")
    parser.add_argument("--peer", nargs="*", default=["digits", "breast_cancer"],
                        help="real data sets for the SparsePCA comparison at matched density (none: skip)")
    return parser.parse_args(argv)


def main(argv=None) -> dict:
    args = parse_args(argv)
    methods = tuple(args.methods or SOLVERS)
    options = {name: {"inner_iter": args.manpg_inner} for name in ("manpg", "manpg_ada")
               if args.manpg_inner is not None and name in methods}
    args.out.mkdir(parents=True, exist_ok=True)
    import matplotlib

    matplotlib.use("Agg")
    print(f"randn-{args.m}-{args.n}, r = {args.r}, time limit {args.time_limit:g} s per run, "
          f"methods: {', '.join(methods)}")
    print(blas_threads_report())
    lams = tuple(args.lams) + tuple(args.informative)
    with _executor(args) as executor:
        begin = time.perf_counter()
        ex = run_experiment(problems=tuple(args.problems), datasets=("randn",), m=args.m, n=args.n, r=args.r,
                            lams=lams, methods=methods, starts=("identity", "random"), seeds=tuple(args.seeds),
                            time_limit=args.time_limit, scale={p: TABLE_SCALES[p] for p in args.problems},
                            progress=True, options=options, executor=executor)
        grid_seconds = time.perf_counter() - begin
        if executor is not None:  # asked after the grid, so that it does not start a worker before the warm-up
            print("a worker:", worker_report_text(executor.submit(worker_report).result()))
    print(f"grid: {len(ex.records)} runs in {grid_seconds:.1f} s wall "
          f"({'serial' if executor is None else args.scheduler or f'{args.workers} workers'})")
    frames = {problem: _part(ex, problem) for problem in args.problems}
    for problem, part in frames.items():
        _report(problem, part, args)
    frames["grid_seconds"] = grid_seconds
    comparison = paper_comparison(ex)
    (args.out / "paper_comparison.md").write_text(comparison)
    print("\n" + comparison)
    for name in args.peer:
        frames[f"peer_{name}"] = peer_comparison(name, methods, args)
    print(f"\nfigures and CSV in {args.out}")
    return frames


def _executor(args):
    """The executor of ``--workers`` / ``--scheduler``, or a null context (serial)."""
    if args.workers is not None and args.scheduler is not None:
        raise SystemExit("give --workers or --scheduler, not both")
    if args.workers is not None:
        return ProcessPoolExecutor(args.workers, initializer=os.setsid if args.own_sessions else None)
    if args.scheduler is not None:
        from dask.distributed import Client

        client = Client(args.scheduler)
        return _client_executor(client)
    return contextlib.nullcontext()


@contextlib.contextmanager
def _client_executor(client):
    with client:
        yield client.get_executor()


def worker_report_text(report: dict) -> str:
    return f"{report['cores']} cores, BLAS threads in a run: " + ", ".join(f"{k} {v}" for k, v in report["blas"].items())


def _part(ex: Experiment, problem: str) -> Experiment:
    """The runs of one problem."""
    runs = ex.records.loc[ex.records["problem"] == problem, "run"]
    return Experiment(records=ex.records[ex.records["problem"] == problem].reset_index(drop=True),
                      histories=ex.histories[ex.histories["problem"] == problem].reset_index(drop=True),
                      points={run: ex.points[run] for run in runs if run in ex.points}, datasets=ex.datasets)


def _report(problem: str, ex: Experiment, args) -> None:
    """Print one problem's tables and save its convergence figures and records."""
    import matplotlib

    from obcd_lite.viz.experiments import convergence_figure

    rec = ex.records
    ok = rec.dropna(subset=["F"])
    scale = TABLE_SCALES[problem]
    print(f"\n=== {problem} (scale {scale if scale else 0.5}) ===")
    if problem != "nonneg":
        C = next(iter(ex.datasets.values())).C
        print(f"coordinate selection optimal for lam >= {coordinate_threshold(C, args.r, problem, scale):.4g}; "
              "F* there: " + ", ".join(f"lam={lam:g}: {coordinate_value(C, args.r, lam, scale):.3f}"
                                       for lam in args.lams))
    with pd.option_context("display.width", 250, "display.max_columns", 40):
        print("F (mean over seeds):")
        print(paper_table(ok, "F").T.to_string())
        print("nnz:")
        print(paper_table(ok, "nnz", 0).T.to_string())
        if problem == "nonneg":
            print("surrogate f + 1000 ||min(0, X)||_F and negativity:")
            print(ok.assign(surrogate=ok["F"] + 1000 * ok["negativity"])[
                ["method", "start", "F", "negativity", "surrogate", "feasibility"]].to_string(index=False))
        ttt = time_to_target(ex)
        print("seconds to reach F_best within 1e-6 (relative); NaN = never:")
        print(ttt.pivot_table(index=["lam"] if problem != "nonneg" else ["problem"],
                              columns=["method", "start"], values="seconds_to_target",
                              aggfunc="mean", dropna=False).round(3).to_string())
    unsupported = rec[rec["stop_reason"] == "unsupported"]["method"].unique()
    if len(unsupported):
        print("unsupported:", ", ".join(unsupported))
    for lam, part in ex.histories.groupby("lam", dropna=False):
        runs = rec[rec["run"].isin(part["run"].unique())]
        F_best = runs["F"].min()
        label = "nonneg" if problem == "nonneg" else f"{problem}_lam{lam:g}"
        fig = convergence_figure(part.assign(method=part["method"] + "(" + part["start"] + ")"), F_best,
                                 f"{problem}, randn-{args.m}-{args.n}, r = {args.r}" +
                                 ("" if problem == "nonneg" else f", λ = {lam:g}"))
        fig.savefig(args.out / f"convergence_{label}.png", dpi=100, bbox_inches="tight")
        matplotlib.pyplot.close(fig)
    rec.to_csv(args.out / f"records_{problem}.csv", index=False)


def paper_comparison(ex: Experiment) -> str:
    """Markdown, one table per problem: for each method and start, at each lam of the paper, our
    "F (nnz, seconds to the best F)" beside the paper's randn-500-1000 entry for that method and
    start (its budgets: 40 s for l0, 60 s for l1 and X >= 0); below, the pairs a method declines and
    the paper's methods without a counterpart here."""
    ttt = time_to_target(ex).set_index("run")["seconds_to_target"]
    ours = set(PAPER_METHOD_NAMES.values())
    lines = []
    for problem, rec in ex.records.groupby("problem", sort=False):
        keys = [None] if problem == "nonneg" else [lam for lam in rec["lam"].unique()
                                                     if any(k[:2] == (problem, lam) for k in PAPER_RANDN)]
        style = "e" if problem == "nonneg" else "f"
        heads = ["X >= 0"] if problem == "nonneg" else [f"lam = {lam:g}" for lam in keys]
        lines += [f"**{problem}** (ours: F (nnz, s to best F); paper: F)", "",
                  "| method (start) | " + " | ".join(f"{h} ours | paper" for h in heads) + " |",
                  "|---|" + "---|---|" * len(heads)]
        supported = rec[rec["stop_reason"] != "unsupported"]
        for (method, start), rows in supported.groupby(["method", "start"], sort=False):
            cells = []
            for key in keys:
                row = rows.iloc[0] if key is None else rows[rows["lam"] == key].iloc[0]
                t = ttt[row["run"]]
                paper = PAPER_RANDN.get((problem, key, PAPER_METHOD_NAMES.get(method), start))
                cells += [f"{fmt(row['F'], 3, style=style)} ({int(row['nnz'])}, "
                          f"{'never' if np.isnan(t) else fmt(t, 2) + ' s'})",
                          "" if paper is None else fmt(paper, 3, style=style)]
            lines.append(f"| {method} ({'id' if start == 'identity' else 'rnd'}) | " + " | ".join(cells) + " |")
        declined = sorted(set(rec.loc[rec["stop_reason"] == "unsupported", "method"]))
        others = sorted({(m, s) for (p, _, m, s) in PAPER_RANDN if p == problem and m not in ours})
        lines += [""] + ([f"Unsupported here: {', '.join(declined)}."] if declined else []) + (
            ["The paper's methods without a counterpart here: " + ", ".join(
                f"{m} ({'id' if s == 'identity' else 'rnd'}): " + ", ".join(
                    fmt(PAPER_RANDN[(problem, key, m, s)], 3, style=style) for key in keys
                    if (problem, key, m, s) in PAPER_RANDN) for m, s in others) + "."] if others else []) + [""]
    return "\n".join(lines)


def peer_comparison(name: str, methods, args) -> pd.DataFrame:
    """scikit-learn's SparsePCA against the l1-SPCA methods on a real data set (r = 4):
    adjusted explained variance at matched density."""
    import matplotlib.pyplot as plt

    from obcd_lite.data import load_dataset
    from obcd_lite.experiments.sklearn_peer import at_matched_density, sparsity_frontier
    from obcd_lite.viz.experiments import frontier_figure

    ds = load_dataset(name, rng=args.seeds[0])
    l1_methods = [m for m in ("obcd", "manpg", "manpg_ada") if m in methods]
    frontier = sparsity_frontier(ds, 4, alphas=(1e-4, 1e-3, 3e-3, 1e-2, 3e-2), lams=(1e-3, 3e-3, 1e-2, 3e-2, 1e-1),
                                 methods=l1_methods, time_limit=args.time_limit, start="identity", rng=args.seeds[0])
    print(f"\n=== SparsePCA peer: {name}-{ds.m}-{ds.n}, r = 4 ===")
    with pd.option_context("display.width", 200):
        print(frontier.round(4).to_string(index=False))
        print("adjusted explained variance at matched density:")
        print(at_matched_density(frontier, [0.2, 0.3, 0.4, 0.5, 0.6, 0.7]).round(3).to_string())
    pca = float(np.linalg.eigvalsh(ds.C)[-4:].sum())
    print(f"dense PCA, r = 4: {pca:.4f}")
    fig = frontier_figure(frontier, f"{name}-{ds.m}-{ds.n}, r = 4", pca=pca)
    fig.savefig(args.out / f"frontier_{name}.png", dpi=100)
    plt.close(fig)
    frontier.to_csv(args.out / f"frontier_{name}.csv", index=False)
    return frontier


if __name__ == "__main__":
    main()
