"""The KL part of Section 4 checked (issue 27): Theorem 4.10(a) at a limit that is not a global
minimizer, Theorem 4.11(a) on an instance with KL exponent 0, and Proposition 4.9's power form of phi,
which holds for semialgebraic functions and fails for a smooth KL function that is not.

* Theorem 4.10(a) writes phi_t = phi(F(X^t) - F_inf); its proof takes the KL inequality (Proposition 4.9)
  at the limit X^inf, i.e. for F - F(X^inf). When OBCD converges to a point that is not a global minimizer
  the two differ: F(X^t) - F_inf stays above F(X^inf) - F_inf > 0, phi_t - phi_{t+1} becomes first order
  in the decrease, and the ratio of (a) grows without bound for every constant c.
  :func:`local_minimum_run` finds such runs on f = 1/2 tr(X^T C X) + <L, X>, h = 0, n = 3, r = 2.
* Theorem 4.11(a): F(x) = <c, x> + lam ||x||_1 on the unit sphere with lam > max |c_i|. On the sphere
  ||x||_1 >= 1, each vertex s e_i is a strict local minimizer with F(y) - F(s e_i) >= (lam - max|c|) sum of
  the other |y_k| - O(|y|^2), and |grad| is bounded below by lam - max|c| off the vertices: F is sharp, its
  KL exponent is 0 (phi(s) = c s). :func:`finite_termination_runs` runs OBCD from random starts.
* Theorem 4.11(c): :func:`sublinear_run`, a quadratic f on the circle whose minimizer has quartic growth
  (sigma = 3/4): OBCD's error decays like t^(-1/2), the theorem's rate, not linearly.
* Proposition 4.9 (phi(s) = c s^(1 - sigma)): for F = exp(-1/(1 - x_1)) on the unit circle (smooth, KL
  with the concave phi(s) = arccos(1 - 1/ln(1/s))) the smallest c that works at angle theta,
  f^sigma / ((1 - sigma) |f'|), grows without bound as theta -> 0 for every sigma in [0, 1);
  for the semialgebraic F = (1 - x_1)^m it stays bounded with sigma = 1 - 1/(2m) (Lojasiewicz).
"""
from __future__ import annotations

import math

import numpy as np

from ..optimality import global_minimum
from ..penalties import L1
from ..problems import QuadraticProblem
from ..solvers import get_solver
from ..stiefel import random_stiefel
from .paper_rates import rate_report, rate_run


def local_minima_problem(seed: int) -> QuadraticProblem:
    """f(X) = 1/2 tr(X^T C X) + <L, X> on St(3, 2), C = (A + A^T)/2 and L standard normal from ``seed``
    (a quadratic plus a linear term: unlike PCA it can have local minima that are not global).

    Parameters
    ----------
    seed : int
        The seed of A and L.

    Returns
    -------
    QuadraticProblem
        On St(3, 2), h = 0.
    """
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((3, 3))
    return QuadraticProblem((A + A.T) / 2, L=rng.standard_normal((3, 2)))


def local_minimum_run(seed: int, starts=range(10), alpha: float = 0.1, iters: int = 300,
                      margin: float = 1e-3) -> dict | None:
    """The first start (X^0 = random_stiefel(3, 2, rng=100 + start), blocks drawn with ``start``) whose OBCD
    run on :func:`local_minima_problem` converges to F(X^inf) > min F + margin, with Theorem 4.10(a) measured
    in both forms: ``limit`` (phi of F(X^t) - F(X^inf), the corrected form) and ``global`` (phi of
    F(X^t) - F_inf, the paper's). The same KL constant c (fitted at X^inf) serves both.
    Returns None when no start converges to a non-global point.

    Parameters
    ----------
    seed : int
        The instance (:func:`local_minima_problem`).
    starts : iterable of int
        The starts tried, in order.
    alpha : float
        OBCD's proximal parameter (eq. (11)).
    iters : int
        OBCD's iterations per run.
    margin : float
        How far above the certified min F the limit must be to count as non-global.

    Returns
    -------
    dict or None
        ``seed``, ``start``, ``F_limit`` = F(X^inf), ``F_min`` (the global minimum) and whether it is
        ``certified``, the KL constant ``c``, the two ``runs`` and their ``reports`` (keys "limit", "global");
        None when no start converges to a non-global point.
    """
    problem = local_minima_problem(seed)
    F_min = global_minimum(problem, r=2, tol=1e-10, rng=0)
    for start in starts:
        X0 = random_stiefel(3, 2, rng=100 + start)
        runs = {ref: rate_run(problem=problem, X0=X0, alpha=alpha, iters=iters, seed=start, reference=ref)
                for ref in ("limit", "global")}
        F_limit = float(problem.F(X0)) - float(runs["limit"].s_limit[0])
        if F_limit > F_min.value + margin:
            reports = {ref: rate_report(run) for ref, run in runs.items()}
            return {"seed": seed, "start": start, "F_limit": F_limit, "F_min": F_min.value,
                    "certified": F_min.certified, "c": runs["limit"].c, "runs": runs, "reports": reports}
    return None


def sharp_sphere_problem(n: int, rng) -> QuadraticProblem:
    """F(x) = <c, x> + lam ||x||_1 on the unit sphere in R^n (r = 1), c uniform in [-1, 1]^n and
    lam = max |c_i| + 0.2: KL exponent 0 (module docstring).

    Parameters
    ----------
    n : int
        The dimension.
    rng : numpy.random.Generator or int or None
        The random source of c.

    Returns
    -------
    QuadraticProblem
        C = 0, L = c, h = ``L1(lam)``.
    """
    rng = np.random.default_rng(rng)
    c = rng.uniform(-1.0, 1.0, size=(n, 1))
    return QuadraticProblem(np.zeros((n, n)), L=c, h=L1(float(np.abs(c).max()) + 0.2))


def finite_termination_runs(runs: int = 30, n: int = 5, alpha: float = 1e-3, max_iter: int = 400, rng=0) -> dict:
    """Theorem 4.11(a) on :func:`sharp_sphere_problem`: OBCD (k = 2, random blocks) from random starts.

    For each run: ``last_move`` = the last iteration whose step changed X (from the callback), whether X
    is then a vertex s e_i of the l1 ball (``vertex``) and whether it stayed bit-identical over the
    remaining ``max_iter - last_move`` iterations (``still``).

    Parameters
    ----------
    runs : int
        The number of runs (each a new instance and start).
    n : int
        The dimension of the sphere's space.
    alpha : float
        OBCD's proximal parameter (eq. (11)).
    max_iter : int
        OBCD's iterations per run.
    rng : numpy.random.Generator or int or None
        The random source of the instances and starts.

    Returns
    -------
    dict
        ``last_move``, ``vertex`` and ``still`` (one entry per run), ``max_iter`` and ``runs``.
    """
    rng = np.random.default_rng(rng)
    obcd = get_solver("obcd")
    last, vertex, still = [], [], []
    for run in range(runs):
        problem = sharp_sphere_problem(n, rng)
        X0 = random_stiefel(n, 1, rng=rng)
        moves = []

        def record(step, moves=moves):
            if step.V is not None and not np.array_equal(step.V, np.eye(len(step.V))):
                moves.append((step.iteration, step.X.copy()))
        result = obcd(problem, X0, max_iter=max_iter, alpha=alpha, rng=run, callback=record, engine="python")
        last.append(moves[-1][0] if moves else 0)
        x = result.X[:, 0]
        vertex.append(int(np.count_nonzero(x)) == 1 and abs(abs(x).max() - 1.0) < 1e-12)
        still.append(not moves or np.array_equal(moves[-1][1], result.X))
    return {"last_move": last, "vertex": vertex, "still": still, "max_iter": max_iter, "runs": runs}


def quartic_problem(A: float = 1.0, n: int = 2, extra: float = 3.0) -> QuadraticProblem:
    """f(x) = A (x_1^2 - x_2^2) - 4 A x_1 (+ extra/2 x_3^2 for n = 3) on the unit sphere (r = 1): on the circle
    f = A cos 2 theta - 4 A cos theta, whose theta^2 terms cancel, so F - F(e_1) = A/2 theta^4 + O(theta^6) and
    |grad F| ~ 2 A theta^3 ~ (F - F(e_1))^(3/4): KL exponent sigma = 3/4 at the minimizer e_1 (the third
    coordinate, for n = 3, adds only quadratic growth).

    Parameters
    ----------
    A : float
        The scale of f.
    n : int
        2 or 3.
    extra : float
        The curvature of the third coordinate (n = 3).

    Returns
    -------
    QuadraticProblem
        On St(n, 1), h = 0.

    Raises
    ------
    ValueError
        If n is not 2 or 3.
    """
    if n not in (2, 3):
        raise ValueError(f"n must be 2 or 3, got n = {n}")
    C = np.zeros((n, n))
    C[0, 0], C[1, 1] = 2.0 * A, -2.0 * A
    if n == 3:
        C[2, 2] = extra
    L = np.zeros((n, 1))
    L[0, 0] = -4.0 * A
    return QuadraticProblem(C, L=L)


def sublinear_run(A: float = 1.0, alpha: float = 1.0, n: int = 2, iters: int = 4000, theta0: float = 0.5) -> dict:
    """Theorem 4.11(c) on :func:`quartic_problem` (sigma = 3/4, predicted E||X^t - X^inf|| <= c t^(-1/2)): OBCD
    (k = 2) from angle ``theta0``; per iteration t = 1.. the error ||X^t - e_1||, F(X^t) - F(e_1) and |grad_M F(X^t)|.

    Parameters
    ----------
    A : float
        The scale of f (:func:`quartic_problem`).
    alpha : float
        OBCD's proximal parameter (eq. (11)).
    n : int
        2 or 3.
    iters : int
        OBCD's iterations.
    theta0 : float
        The start's angle from e_1.

    Returns
    -------
    dict
        Arrays ``t``, ``err``, ``gap`` and ``grad``, one entry per iteration.
    """
    problem = quartic_problem(A, n)
    X0 = np.zeros((n, 1))
    X0[0, 0], X0[1, 0] = math.cos(theta0), math.sin(theta0)
    e1 = np.zeros((n, 1))
    e1[0, 0] = 1.0
    F_star = problem.F(e1)
    err, gap, grad = [], [], []

    def record(step):
        X = np.asarray(step.X)
        G = problem.grad(X)
        err.append(float(np.linalg.norm(X - e1)))
        gap.append(problem.F(X) - F_star)
        grad.append(float(np.linalg.norm(G - X @ (X.T @ G))))
    get_solver("obcd")(problem, X0, max_iter=iters, alpha=alpha, rng=0, callback=record, engine="python")
    return {"t": np.arange(1, len(err) + 1), "err": np.array(err), "gap": np.array(gap), "grad": np.array(grad)}


def _log_required_c(log_f: np.ndarray, log_df: np.ndarray, sigma: float) -> np.ndarray:
    """log of the smallest c with c (1 - sigma) f^(-sigma) |f'| >= 1, i.e. of f^sigma / ((1 - sigma) |f'|)."""
    return sigma * log_f - math.log(1.0 - sigma) - log_df


def kl_power_constants(sigmas=(0.0, 0.5, 0.9, 0.99), thetas=None, m: int = 2) -> dict:
    """Proposition 4.9 on the unit circle x = (cos theta, sin theta), near its minimizer e_1 (theta -> 0).

    ``flat``: for f = exp(-1/(1 - x_1)), log10 of the smallest c in phi(s) = c s^(1 - sigma) that satisfies
    the KL inequality at theta (each sigma, each theta); ``poly``: the same for f = (1 - x_1)^m with
    sigma = 1 - 1/(2m). The flat f is KL all the same, with phi(s) = arccos(1 - 1/ln(1/s)): phi(f(theta)) =
    theta (``inverse_error``), so phi'(f) |f'| = 1, and phi is concave (``concave``: its slopes on a grid
    s in [1e-300, 1e-3] never increase). Everything in logarithms: f(0.005) = exp(-80000) underflows.

    Parameters
    ----------
    sigmas : sequence of float
        The exponents sigma in [0, 1) tried for the flat f.
    thetas : array_like or None
        The angles (default 12 from 0.3 down to 0.005).
    m : int
        The power of the semialgebraic f.

    Returns
    -------
    dict
        ``thetas``, ``flat`` ({sigma: log10 c per theta}), ``poly`` (log10 c per theta), ``sigma_poly``, ``m``,
        ``inverse_error`` (float) and ``concave`` (bool).
    """
    thetas = np.geomspace(0.3, 0.005, 12) if thetas is None else np.asarray(thetas, dtype=float)
    one_minus_cos = 2.0 * np.sin(thetas / 2.0) ** 2                      # 1 - cos theta without cancellation
    log_f = -1.0 / one_minus_cos
    log_df = log_f + np.log(np.sin(thetas)) - 2.0 * np.log(one_minus_cos)  # |f'| = f sin / (1 - cos)^2
    flat = {s: _log_required_c(log_f, log_df, s) / math.log(10.0) for s in sigmas}
    sigma_m = 1.0 - 1.0 / (2 * m)
    log_p = m * np.log(one_minus_cos)
    log_dp = math.log(m) + (m - 1) * np.log(one_minus_cos) + np.log(np.sin(thetas))
    poly = _log_required_c(log_p, log_dp, sigma_m) / math.log(10.0)
    inverse = 2.0 * np.arcsin(np.sqrt(1.0 / -log_f / 2.0))              # arccos(1 - 1/ln(1/f)), stably
    s = np.geomspace(1e-300, 1e-3, 400)
    slope = np.diff(np.arccos(1.0 - 1.0 / np.log(1.0 / s))) / np.diff(s)
    return {"thetas": thetas, "flat": flat, "poly": poly, "sigma_poly": sigma_m, "m": m,
            "inverse_error": float(np.abs(inverse - thetas).max()), "concave": bool(np.all(np.diff(slope) <= 0))}


__all__ = ["local_minima_problem", "local_minimum_run", "sharp_sphere_problem", "finite_termination_runs",
           "quartic_problem", "sublinear_run", "kl_power_constants"]
