"""The published ManPG anchor: l1-SPCA on normalized random data, against Wang & Yang's Table 4.

Published (Q. Wang, W. H. Yang, "Proximal quasi-Newton method for composite optimization over the
Stiefel manifold", arXiv 2501.09516, Table 4, row n = 1000, r = 5, mu = 0.8; MATLAB, mean of 50
instances): ManPG iterations 947, F* = -53.23, sparsity 0.42, CPU 0.337 s. The table comes from
``QinsiWang2022/ManPQN:SPCA/demo_compare_SPCA.m``, whose setup is reproduced here:

* B = randn(50, n), columns centred (``B - repmat(mean(B,1),m,1)``), then ``normc`` (every column
  scaled to unit norm); C = B^T B; F(X) = -tr(X^T C X) + mu ||X||_1 = ``sparse_pca(C, L1(mu))``;
* start: 500 RSubGrad iterations (``Re_sub_grad_spca.m``, eta_i = 1/i^{3/4}) from a random point
  on St(n, r) (the code's ``svd(randn(n,r),0)``); ManPG starts from the last RSubGrad iterate (the
  code thresholds it at 1e-5 first, which takes it off St(n, r); we do not);
* ManPG: t = 1/(2 sigma_max(B)^2), tol = 1e-8 n r, max_iter = 30000, inner_iter = 100;
  ManPG-Ada is then run with the code's stop F < F_ManPG + 1e-7;
* reported: F at the last iterate (the code prints F before its final thresholding), sparsity =
  fraction of |X_ij| <= 1e-5, ManPG iterations, ManPG seconds (the RSubGrad warm-up excluded).

The gradient is computed as the code does with its data matrix, -2 B^T (B X) (2 m n r flops),
through a QuadraticProblem whose ``grad`` is overridden (``--dense`` uses the dense C, n^2 r).

Run: ``PYTHONPATH=$PWD .venv/bin/python benchmarks/manpg_anchor.py [--instances 10] [--n 1000]``

What we found (seeds 0..49): mean F = -52.72 (per-instance std 0.91), sparsity 0.43, 760 iterations,
against -53.23, 0.42, 947. The gap (1.0 %, about 2.8 standard errors of a difference of two
50-instance means) is not the scaling (with a 1/2 the values would be about halved), nor the
start (no warm-up, 500 or 3000 RSubGrad iterations, or the top eigenvectors give the same mean
F to 0.06 on seeds 0..9: each instance's F is a property of its data), nor centring (uncentred
data give -50.4) nor normc (without it C is ~50 times larger). F is steep in m (m = 48 gives
-56.5), so the published mean sits inside the spread of the instances.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from obcd_lite.penalties import L1, count_nonzeros
from obcd_lite.problems import QuadraticProblem, sparse_pca
from obcd_lite.results import problem_scale
from obcd_lite.solvers import manpg, manpg_ada, rsubgrad
from obcd_lite.stiefel import feasibility, random_stiefel
from obcd_lite.threads import blas_threads_report

#: Wang & Yang (arXiv 2501.09516) Table 4, ManPG, r = 5, mu = 0.8 (read in ``QinsiWang2022/ManPQN:ManPQN.pdf``):
#: n -> (iterations, F*, sparsity, CPU s, line searches, SSN iterations per outer iteration).
PUBLISHED = {100: (271.02, -2.285, 0.89, 0.0267, 1.86, 1.20), 200: (412.32, -5.449, 0.75, 0.0434, 1.94, 1.07),
             500: (667.08, -20.30, 0.56, 0.1017, 0.00, 1.02), 800: (778.82, -39.16, 0.47, 0.2204, 0.00, 1.02),
             1000: (947.26, -53.23, 0.42, 0.3370, 0.00, 1.01), 1500: (1142.60, -89.60, 0.36, 0.4757, 19.04, 1.01)}


class FactoredSPCA(QuadraticProblem):
    """-tr(X^T B^T B X) + h(X) with the gradient -2 B^T (B X) computed from the data matrix B."""

    def __init__(self, B: np.ndarray, h):
        super().__init__(-2.0 * (B.T @ B), h=h)
        self.B = B

    def grad(self, X: np.ndarray) -> np.ndarray:
        return -2.0 * (self.B.T @ (self.B @ X))


def anchor_data(n: int, m: int = 50, rng=None) -> np.ndarray:
    """B = normc(centred randn(m, n)), the reference demo's data matrix."""
    B = np.random.default_rng(rng).standard_normal((m, n))
    B -= B.mean(axis=0)
    return B / np.linalg.norm(B, axis=0)


def run_instance(seed: int, n: int, r: int, mu: float, dense: bool) -> dict:
    rng = np.random.default_rng(seed)
    B = anchor_data(n, rng=rng)
    problem = sparse_pca(B.T @ B, L1(mu)) if dense else FactoredSPCA(B, L1(mu))
    # The reference codes' absolute settings (the library's defaults are relative to S = L_f since issue 34):
    # RSubGrad's first step 1, ManPG's stop ||D||/t < sqrt(1e-8 n r), i.e. tol = sqrt(1e-8 n r) / S.
    tol = np.sqrt(1e-8 * n * r) / problem_scale(problem)
    warm = rsubgrad(problem, random_stiefel(n, r, rng), max_iter=500, log_every=500, step0=1.0)
    X0 = warm.info["X_last"]
    res = manpg(problem, X0, max_iter=30_000, log_every=1000, tol=tol)
    ada = manpg_ada(problem, X0, max_iter=30_000, log_every=1000, F_target=res.F, tol=tol)
    return {"F": res.F, "sparsity": 1.0 - count_nonzeros(res.X, 1e-5) / (n * r), "iterations": res.iterations,
            "seconds": res.seconds, "stop": res.stop_reason, "feas": feasibility(res.X),
            "opt_norm": res.info["opt_norm"], "backtracks": res.info["backtracks"],
            "ssn": res.info["inner_iterations"] / max(res.iterations, 1), "F_warm": warm.info["F_last"], "F_ada": ada.F,
            "it_ada": ada.iterations, "s_ada": ada.seconds}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=10)
    parser.add_argument("--n", type=int, default=1000, help="published rows: " + ", ".join(map(str, PUBLISHED)))
    parser.add_argument("--r", type=int, default=5)
    parser.add_argument("--mu", type=float, default=0.8)
    parser.add_argument("--dense", action="store_true", help="gradient from the dense C (n^2 r) instead of B")
    args = parser.parse_args(argv)
    if args.instances < 1:
        raise SystemExit(f"--instances must be >= 1, got {args.instances}")
    print(f"ManPG anchor: B = normc(centred randn(50, {args.n})), r = {args.r}, mu = {args.mu}, "
          f"start = 500 RSubGrad iterations, {args.instances} instances (seeds 0..{args.instances - 1}), "
          f"gradient from {'dense C' if args.dense else 'B'}")
    print(blas_threads_report())
    print(f"{'seed':>4} {'F_RSubGrad':>11} {'F_ManPG':>10} {'sparsity':>8} {'iter':>6} {'seconds':>8} "
          f"{'||D||/t':>9} {'ls':>4} {'ssn':>5} {'stop':>5} {'F_Ada':>10} {'it_Ada':>6} {'s_Ada':>6}")
    rows = []
    start = time.perf_counter()
    for seed in range(args.instances):
        row = run_instance(seed, args.n, args.r, args.mu, args.dense)
        rows.append(row)
        print(f"{seed:>4} {row['F_warm']:>11.4f} {row['F']:>10.4f} {row['sparsity']:>8.3f} {row['iterations']:>6d} "
              f"{row['seconds']:>8.3f} {row['opt_norm']:>9.2e} {row['backtracks']:>4d} {row['ssn']:>5.2f} "
              f"{row['stop']:>5} {row['F_ada']:>10.4f} {row['it_ada']:>6d} {row['s_ada']:>6.3f}", flush=True)
    mean = {key: float(np.mean([row[key] for row in rows]))
            for key in ("F", "sparsity", "iterations", "seconds", "backtracks", "ssn")}
    std_F = float(np.std([row["F"] for row in rows]))
    pub = PUBLISHED[args.n] if (args.n in PUBLISHED and (args.r, args.mu) == (5, 0.8)) else (np.nan,) * 6
    print()
    print(f"{'ManPG':28} {'iterations':>10} {'F*':>10} {'sparsity':>8} {'seconds':>8} {'#ls':>6} {'SSN':>5}")
    print(f"{'published (MATLAB, 50 inst.)':28} {pub[0]:>10.1f} {pub[1]:>10.3f} {pub[2]:>8.2f} {pub[3]:>8.3f} "
          f"{pub[4]:>6.2f} {pub[5]:>5.2f}")
    print(f"{f'ours (Python, {len(rows)} inst.)':28} {mean['iterations']:>10.1f} {mean['F']:>10.3f} "
          f"{mean['sparsity']:>8.2f} {mean['seconds']:>8.3f} {mean['backtracks']:>6.2f} {mean['ssn']:>5.2f}")
    print(f"std of F over instances: {std_F:.3f}; max ||X^T X - I||_F: {max(r['feas'] for r in rows):.1e}; "
          f"ManPG-Ada mean F {np.mean([r['F_ada'] for r in rows]):.3f}, iterations "
          f"{np.mean([r['it_ada'] for r in rows]):.0f}, seconds {np.mean([r['s_ada'] for r in rows]):.3f}; "
          f"total wall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
