"""What an OBCD step costs on a general f, next to a QuadraticProblem step (issue 29).

Run with ``.venv/bin/python benchmarks/smooth_step_cost.py`` (about 1 min; ``--quick`` for a smoke run).
Everything runs in this one process at one BLAS thread (OBCD's decorator), interleaved round by round.

The same sparse PCA (the paper's "randn" C = A^T A, A m x n Gaussian, ||A||_F = 1, m = n / 2, r = 10, a dense
random start, rng = 0) with h = 0 and with l1 (lam = 1e-4), run four ways for the same iterations:

* ``quadratic, compiled`` — the QuadraticProblem, Q = "scalar" (Lemma C.2's block varsigma), the numba engine;
* ``quadratic, python`` — the QuadraticProblem, Q = "scalar", the Python engine: the same subproblem code,
  the gradient updated in O(nrk) (Appendix C.3);
* ``callables`` — ``SmoothProblem(qp.f, qp.grad, L=L_f)`` (varsigma = L_f: the iterates of the QuadraticProblem
  with Q = "lipschitz", to rounding, ``tests/solvers/test_obcd_smooth.py``), but each step evaluates f at the
  trial point (the majorization check) and the full gradient after an accepted step, O(n^2 r) here;
* ``pymanopt`` — the same f and grad written as a pymanopt numpy-backend Problem (``from_pymanopt``): the
  callables plus pymanopt's wrapping.

Per row: microseconds per step (median of ``--repeats`` runs, with the range) and the ratio to the compiled
quadratic step. ``Result.seconds`` is the solver's own clock (logging excluded).
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from obcd_lite import L1, SmoothProblem, Zero, from_pymanopt, obcd, randn_covariance, random_stiefel, sparse_pca
from obcd_lite.threads import blas_threads_report

R = 10


def pymanopt_version(qp, n: int):
    """The quadratic f of ``qp`` written as a pymanopt numpy-backend cost (what a user would write)."""
    import pymanopt

    manifold = pymanopt.manifolds.Stiefel(n, R)
    C = qp.C

    @pymanopt.function.numpy(manifold)
    def cost(X):
        return 0.5 * float(np.sum(X * (C @ X)))

    @pymanopt.function.numpy(manifold)
    def euclidean_gradient(X):
        return C @ X

    return from_pymanopt(pymanopt.Problem(manifold, cost, euclidean_gradient=euclidean_gradient), h=qp.h,
                         L=qp.lipschitz())


def ways(qp, n: int) -> dict:
    """name -> (problem, obcd options) of the four ways of the module docstring."""
    return {
        "quadratic, compiled": (qp, dict(Q="scalar", engine="compiled")),
        "quadratic, python": (qp, dict(Q="scalar", engine="python")),
        "callables": (SmoothProblem(qp.f, qp.grad, h=qp.h, L=qp.lipschitz()), {}),
        "pymanopt": (pymanopt_version(qp, n), {}),
    }


def measure(n: int, h, iters: int, repeats: int) -> list[tuple]:
    """Rows (n, h, way, median us/step, min, max, ratio to the compiled quadratic step)."""
    qp = sparse_pca(randn_covariance(n // 2, n, rng=0), h)
    X0 = random_stiefel(n, R, rng=0)
    table = ways(qp, n)
    for problem, options in table.values():  # warm-up: numba compile/load, caches
        obcd(problem, X0, max_iter=20, rng=0, **options)
    times: dict[str, list[float]] = {name: [] for name in table}
    for _ in range(repeats):
        for name, (problem, options) in table.items():
            run = obcd(problem, X0, max_iter=iters, rng=0, log_every=iters, **options)
            times[name].append(1e6 * run.seconds / run.iterations)
    base = float(np.median(times["quadratic, compiled"]))
    return [(n, repr(h), name, float(np.median(t)), min(t), max(t), float(np.median(t)) / base)
            for name, t in times.items()]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (small n, few iterations)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    sizes, iters = ((60,), 200) if args.quick else ((200, 1000), 2000)
    print(blas_threads_report())
    header = f"{'n':>5}  {'h':<14}  {'way':<20}  {'us/step':>9}  {'range':>17}  {'ratio':>7}"
    print(header)
    print("-" * len(header))
    for n in sizes:
        for h in (Zero(), L1(1e-4)):
            for row in measure(n, h, iters, args.repeats):
                n_, h_, name, med, lo, hi, ratio = row
                print(f"{n_:>5}  {h_:<14}  {name:<20}  {med:>9.1f}  {lo:>8.1f}-{hi:<8.1f}  {ratio:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
