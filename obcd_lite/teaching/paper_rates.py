"""Section 4 of the paper measured, in one module: Theorem 4.2 and Lemma 4.4 along OBCD runs
(:mod:`.paper_theory_run`: ``theory_run``, ``gamma_check``, ``lemma44_check``), Lemma 4.4(a), Theorems 4.10 and 4.11 along OBCD
runs with the exact conditional expectations (h = 0), and the witnesses that Lemma 4.4(a) and
Theorem 4.6 fail for h = l1.

The theorems bound conditional expectations E_{xi^t}[.] over the random working set B^t. For a small
n they are computed exactly here: at every iterate all C(n, 2) block subproblems are solved (the
suite's global k = 2 solver) and averaged, then one block is drawn uniformly to take the step, as
Algorithm 1 does. The default problem is sparse PCA without a penalty (f = -tr(X^T C X), h = 0), whose
KL exponent is sigma = 1/2 (a quadratic on St(n, r): Liu, So and Wu 2016), so Theorem 4.11(b)
predicts a linear rate; :func:`rate_run` takes any h = 0 problem (``teaching.paper_kl`` runs one that
converges to a point that is not a global minimizer, for Theorem 4.10(a)'s F_inf against F(X^inf)).
Lemma 4.4(a) for l1: :func:`lemma_4_4_a_witness` (one step), :func:`lemma_4_4_a_scan` (as lam grows) and
:func:`lemma_4_4_a_family` (steps -> 0, left side fixed: no constant phi works).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from ..optimality import block_report, global_minimum
from ..optimality.criticality import residual_details, tangent_part
from ..penalties import L1
from ..problems import procrustes, randn_covariance, sparse_pca
from ..solvers import get_solver
from ..stiefel import random_stiefel
from ..subproblem import block_data, brute_force_2x2, majorizer_value
from .hierarchy import WITNESS_T, bs2_not_critical_witness
from .paper_theory_run import block_residuals


#: Iterates with F(X^t) - F_inf at or below this take no part in the fits and ratios: F is O(1) and
#: known to ~1e-16, so below ~1e-9 the gap (and every ratio built on sqrt of it) is rounding.
GAP_FLOOR = 1e-9


@dataclass
class RateRun:
    """One OBCD run (k = 2, exact Q) with the expectations of Section 4 at every iterate t.

    Per-iterate arrays: ``s`` = F(X^t) - F_inf (``rate_run``'s reference), ``s_limit`` = F(X^t) - F(X^inf), ``e2`` = E||V^t - I||_F^2 and ``e1`` = E||V^t - I||_F
    (over B^t), ``lhs44`` = E dist^2(0, d_M K(I; X^{t+1}, B^{t+1})) (over B^t and B^{t+1}),
    ``sqrt_s_next`` = E sqrt(F(X^{t+1}) - F_inf), ``dist`` = dist(0, d(F + iota_M)(X^t)) = ||P_T grad f||,
    ``err`` = ||X^t - X^inf|| (X^inf: the last iterate). Constants: gamma, phi (Lemma 4.4), kappa
    (Theorem 4.10), the KL constant c of phi(s) = c s^(1/2) (the smallest valid along the run's tail, iterates with F(X^t) - F_inf > GAP_FLOOR).

    Attributes
    ----------
    s, s_limit, e2, e1, lhs44, sqrt_s_next, dist, err : numpy.ndarray
        The per-iterate arrays above.
    gamma, phi, alpha, kappa, c : float
        The constants above (alpha: OBCD's proximal parameter).
    """

    s: np.ndarray
    s_limit: np.ndarray
    e2: np.ndarray
    e1: np.ndarray
    lhs44: np.ndarray
    sqrt_s_next: np.ndarray
    dist: np.ndarray
    err: np.ndarray
    gamma: float
    phi: float
    alpha: float
    kappa: float
    c: float


def rate_run(n: int = 5, r: int = 2, alpha: float = 0.5, iters: int = 120, seed: int = 0,
             tail: int = 5, *, problem=None, X0=None, reference: str = "global") -> RateRun:
    """Run OBCD (k = 2, uniform random blocks, exact Q of eq. (9)) and record the exact conditional
    expectations (module docstring).

    The KL constant c of phi(s) = c s^(1/2) is fitted at the limit for both references (the smallest c
    with dist(0, dF(X^t)) phi'(F(X^t) - F(X^inf)) >= 1 along the tail): the KL inequality is a
    statement about F - F(X^inf), so one c serves both forms of Theorem 4.10(a).

    Parameters
    ----------
    n, r : int
        The shape of the default problem, sparse PCA on randn data (h = 0).
    alpha : float
        OBCD's proximal parameter.
    iters : int
        The number of steps.
    seed : int
        The seed of the default problem and its random start.
    tail : int
        Iterates before it are left out when fitting the KL constant (Proposition 4.9 holds near the
        limit only).
    problem : Problem or None
        Another h = 0 problem (any QuadraticProblem), instead of the default.
    X0 : numpy.ndarray or None
        Its start.
    reference : str
        The F_inf in s = F(X^t) - F_inf and phi_t = phi(s_t): "global" (min F over St(n, r): the
        r smallest eigenvalues for sparse PCA, else the certified global search) as Theorem 4.10(a)
        writes it, or "limit" (F(X^inf), X^inf the last iterate), where the KL inequality is taken.

    Returns
    -------
    RateRun
        The run's expectations and constants.

    Raises
    ------
    ValueError
        If ``reference`` is neither "global" nor "limit", n < 3 or r is not in 1..n-1, or ``problem``
        has h != 0 or D != I.
    """
    if reference not in ("global", "limit"):
        raise ValueError(f"reference must be 'global' or 'limit', got {reference!r}")
    rng = np.random.default_rng(seed)
    if problem is None:
        if n < 3 or not 1 <= r < n:
            raise ValueError(f"need n >= 3 and 1 <= r < n, got n = {n}, r = {r}")
        problem = sparse_pca(randn_covariance(2 * n + 2, n, rng=seed))
        X = random_stiefel(n, r, rng=rng)
    else:
        if not problem.h.is_zero or problem.D is not None:
            raise ValueError(f"rate_run needs h = 0 and D = I (f = 1/2 tr(X^T C X) + <L, X>), got {problem!r}")
        X = np.array(X0, dtype=float)
        n, r = X.shape
    eig = np.linalg.eigvalsh(problem.C)
    gamma = float(math.comb(n, 2))                       # C(n, 2) / C(n - 2, 0)
    L_f = float(np.abs(eig).max())
    L_norm = 0.0 if problem.L is None else float(np.linalg.norm(problem.L))
    C_F = float(np.sqrt(np.sum(np.sort(eig**2)[-r:]))) + L_norm   # >= max over St(n, r) of ||C X + L||_F
    phi = 72.0 * (C_F**2 + alpha**2 + L_f**2)
    rec = {key: [] for key in ("F", "F_next", "e2", "e1", "lhs44", "dist")}
    iterates = [X]
    for _ in range(iters):
        G = problem.grad(X)
        rec["F"].append(problem.F(X))
        rec["dist"].append(float(np.linalg.norm(G - 0.5 * X @ (X.T @ G + G.T @ X))))
        report = block_report(problem, X, 2, alpha=alpha, Q="exact")
        nexts, d2 = [], []
        for B, V in report.minimizers.items():
            Xn = X.copy()
            Xn[list(B)] = V @ X[list(B)]
            nexts.append(Xn)
            d2.append(float(np.sum((V - np.eye(2)) ** 2)))
        # for h = 0: d_M K(I; Y, B) = [A]_BB with A = grad f(Y) Y^T - Y grad f(Y)^T; its mean over the
        # pairs B is ||A||^2 / gamma (Lemma A.4, zero diagonal)
        lhs = [float(np.sum((problem.grad(Y) @ Y.T - Y @ problem.grad(Y).T) ** 2)) / gamma for Y in nexts]
        rec["e2"].append(float(np.mean(d2)))
        rec["e1"].append(float(np.mean(np.sqrt(d2))))
        rec["lhs44"].append(float(np.mean(lhs)))
        rec["F_next"].append([problem.F(Y) for Y in nexts])
        X = nexts[int(rng.integers(len(nexts)))]
        iterates.append(X)
    F_t, F_next = np.array(rec.pop("F")), np.array(rec.pop("F_next"))
    F_limit = problem.F(iterates[-1])
    if reference == "limit":
        F_inf = F_limit
    elif problem.L is None and problem.D is None:
        F_inf = 0.5 * float(np.sum(eig[:r]))             # f = 1/2 tr(X^T C X): the r smallest eigenvalues of C
    else:
        F_inf = global_minimum(problem, r=r, tol=1e-10, rng=0).lower_bound
    arrays = {key: np.array(value) for key, value in rec.items()}
    s = np.maximum(F_t - F_inf, 0.0)
    sqrt_s_next = np.sqrt(np.maximum(F_next - F_inf, 0.0)).mean(axis=1)
    err = np.array([np.linalg.norm(Y - iterates[-1]) for Y in iterates[:-1]])
    live = slice(tail, None)
    s_limit = np.maximum(F_t - F_limit, 0.0)
    ok = (arrays["dist"][live] > 0) & (s_limit[live] > GAP_FLOOR)  # rounding-level gaps fit nothing
    c = float(np.max(2.0 * np.sqrt(s_limit[live][ok]) / arrays["dist"][live][ok]))
    return RateRun(**arrays, s=s, s_limit=s_limit, sqrt_s_next=sqrt_s_next, err=err, gamma=gamma, phi=phi, alpha=alpha,
                   kappa=2.0 * math.sqrt(gamma * phi) / alpha, c=c)


def rate_report(run: RateRun, floor: float = GAP_FLOOR) -> dict:
    """Each Section 4 statement as a ratio along the run (<= 1: the inequality holds at that t).

    ``lemma_4_4a``: E dist^2(0, d_M K(I; X^{t+1}, B^{t+1})) / (phi E||V^t - I||^2).
    ``theorem_4_10a``: (E_{t+1})^2 / (kappa E_t (phi_t - E phi_{t+1})) with E_{t+1} = (E||V^t - I||^2)^(1/2),
    as the proof defines it; ``theorem_4_10a_as_stated``: the same with the statement's
    E_{t+1} = (E||V^t - I||)^(1/2). ``theorem_4_10b``: D_t / (E_t + 2 kappa phi_t).
    ``measured_rate``: the fitted linear rate of ||X^t - X^inf||; ``predicted_rate``: Theorem 4.11(b)'s
    tau = (kk + 1) / (kk + 2), kk = 2 kappa c (c (1 - sigma) sqrt(gamma phi))^((1 - sigma) / sigma), sigma = 1/2.
    Only iterates with F(X^t) - F(X^inf) > ``floor`` count (below it the differences are rounding).

    Parameters
    ----------
    run : RateRun
        The run.
    floor : float
        The smallest F(X^t) - F(X^inf) that counts.

    Returns
    -------
    dict
        The ratios and rates named above, with ``iterations`` (the iterates that count).
    """
    live = np.flatnonzero(run.s_limit > floor)
    live = live[(live >= 1) & (live < len(run.s) - 1)]
    drop = run.c * (np.sqrt(run.s) - run.sqrt_s_next)          # phi_t - E phi_{t+1}
    E = np.sqrt(run.e2)                                        # E[t] is the paper's E_{t+1}
    tails = np.cumsum(E[::-1])[::-1]                           # D_t = sum_{j >= t} E_{j+1}
    ratio_a = run.e2[live] / (run.kappa * E[live - 1] * drop[live])
    ratio_literal = run.e1[live] / (run.kappa * np.sqrt(run.e1[live - 1]) * drop[live])
    ratio_b = tails[live] / (E[live - 1] + 2 * run.kappa * run.c * np.sqrt(run.s[live]))
    fit = np.flatnonzero(run.err > 1e3 * floor)
    slope = np.polyfit(fit, np.log(run.err[fit]), 1)[0]
    kk = 2 * run.kappa * run.c * (run.c * 0.5 * math.sqrt(run.gamma * run.phi))
    return {"iterations": live, "lemma_4_4a": run.lhs44[live] / (run.phi * run.e2[live]),
            "theorem_4_10a": ratio_a, "theorem_4_10a_as_stated": ratio_literal, "theorem_4_10b": ratio_b,
            "measured_rate": float(np.exp(slope)), "predicted_rate": (kk + 1) / (kk + 2)}


def _independent_distance(problem, X) -> float:
    """dist(0, d_M F(X)) for h = lam ||X||_1 by L-BFGS-B over the subgradient box (an exact zero entry may
    take any value in [-lam, lam]; others lam sign(x)): independent of the suite's BVLS."""
    lam = problem.h.lam
    grad = problem.grad(X)
    zero = X == 0.0
    base = grad + lam * np.sign(X)

    def value(t):
        G = base.copy()
        G[zero] += t
        R = tangent_part(X, G)
        # gradient of ||A(G)||^2 in G is 2 (R - X R^T X); keep the zero entries
        return float(np.sum(R * R)), 2.0 * (R - X @ R.T @ X)[zero]

    res = minimize(value, np.zeros(int(zero.sum())), jac=True, method="L-BFGS-B",
                   bounds=[(-lam, lam)] * int(zero.sum()), options={"ftol": 1e-15, "gtol": 1e-12})
    return math.sqrt(res.fun)


def l1_subgradient_bound(problem, r: int, trials: int = 200, rng=0) -> dict:
    """Remark 4.5: for h = lam ||X||_1, every G in dF(X) lies in grad f(X) + lam [-1, 1]^(n x r), so
    ||G||_F <= C_F = ||C||_2 sqrt(r) + ||L||_F + lam sqrt(n r) on St(n, r). Returns C_F and the largest
    ||grad f(X) + lam S|| over random X and random vertices S of the box (a superset of dF(X)).

    Parameters
    ----------
    problem : Problem
        A problem with h = lam ||X||_1 and f = 1/2 tr(XᵀCX) + <L, X>.
    r : int
        The columns of X.
    trials : int
        The random (X, S).
    rng : int or numpy.random.Generator
        Draws them.

    Returns
    -------
    dict
        ``C_F`` and ``largest``.
    """
    rng = np.random.default_rng(rng)
    n, lam = problem.n, problem.h.lam
    L = 0.0 if problem.L is None else float(np.linalg.norm(problem.L))
    C_F = float(np.abs(np.linalg.eigvalsh(problem.C)).max() * math.sqrt(r) + L + lam * math.sqrt(n * r))
    worst = 0.0
    for _ in range(trials):
        X = random_stiefel(n, r, rng=rng)
        S = rng.choice([-1.0, 1.0], size=X.shape)
        worst = max(worst, float(np.linalg.norm(problem.grad(X) + lam * S)))
    return {"C_F": C_F, "largest": worst}


def _constants(problem, r: int, alpha: float) -> tuple[float, float]:
    """(phi, gamma) of Lemma 4.4 for k = 2 and an l1 quadratic problem (C_F: Remark 4.5's bound, >= the true one)."""
    C_F = l1_subgradient_bound(problem, r, trials=1)["C_F"]
    L_f = float(np.abs(np.linalg.eigvalsh(problem.C)).max())
    return 72.0 * (C_F**2 + alpha**2 + L_f**2), float(math.comb(problem.n, 2))


def lemma_4_4_a_witness(lam: float = 1.34, alpha: float = 1e-5, T=None, step_tol: float = 1e-12) -> dict:
    """Lemma 4.4(a) fails for h = l1: one OBCD step from X^0 = the Theorem 3.8(a) witness X_w, with lam
    lowered from 1.35 to ``lam`` (or the target moved to ``T``).

    Every block minimizer is within 1e-3 of I (``step_sq``: ||V_B - I||^2; checked against a brute-force
    minimization over O(2): ``brute_gap`` = K(V_B) - brute-force min, ``theta`` its angle), but the block
    (0, 2) step moves the zero entry X[2, 1] off zero; the subgradient there is then fixed and the pair
    (1, 2) is far from stationary. So E dist^2(0, d_M K(I; X^1, B^1)) (``lhs``, the suite's pair ranges)
    is much larger than phi E||V^0 - I||^2 (``rhs``, with phi from an upper bound of C_F). ``lhs_direct``
    is a lower bound of ``lhs`` computed independently: only the steps without zero entries, where the
    subgradient is unique and the pair residuals are sqrt(2) |[G Y^T - Y G^T]_ij| in closed form.

    ``step_tol``: a block whose gain K(I) - K(V_B) is at most step_tol (1 + |F(X)|) does not move (V_B = I):
    without it a solver's rounding-level "step" (||V - I|| ~ 1e-27, which still moves X[2, 1] off zero)
    would fake the left side at lam between 1.340952 and 1.35, where block (0, 2) has no real step.

    Parameters
    ----------
    lam : float
        The l1 weight.
    alpha : float
        The proximal parameter of eq. (11).
    T : array_like or None
        Another target; None: the witness's.
    step_tol : float
        The relative gain below which a block does not move.

    Returns
    -------
    dict
        The quantities named above.
    """
    X = bs2_not_critical_witness("l1").X
    problem = procrustes(np.asarray(WITNESS_T if T is None else T, dtype=float), L1(lam))
    report = block_report(problem, X, 2, alpha=alpha, Q="exact")
    G0 = problem.grad(X)
    phi, gamma = _constants(problem, X.shape[1], alpha)
    scale = step_tol * (1.0 + abs(problem.F(X)))
    out = {"step_sq": {}, "brute_gap": {}, "theta": {}, "residuals": {}, "direct": {}}
    lhs, direct = [], []
    for B, V in report.minimizers.items():
        V = V if report.gaps[B] > scale else np.eye(2)
        Qt, P, Z = block_data(problem, X, G0, list(B), alpha, "exact")
        brute = brute_force_2x2(Qt, P, Z, problem.h)
        out["brute_gap"][B] = majorizer_value(Qt, P, V, V @ Z, problem.h) - brute.value
        out["theta"][B] = brute.theta
        out["step_sq"][B] = float(np.sum((V - np.eye(2)) ** 2))
        Y = X.copy()
        Y[list(B)] = V @ X[list(B)]
        res = block_residuals(problem, Y)
        out["residuals"][B] = res
        lhs.append(float(np.mean([d * d for d in res.values()])))
        if np.all(Y != 0.0):
            G = problem.grad(Y) + lam * np.sign(Y)
            A = G @ Y.T - Y @ G.T
            out["direct"][B] = {pair: math.sqrt(2.0) * abs(A[pair]) for pair in res}
            direct.append(float(np.mean([d * d for d in out["direct"][B].values()])))
    e2 = float(np.mean(list(out["step_sq"].values())))
    out.update(lhs=float(np.mean(lhs)), lhs_direct=float(np.sum(direct)) / len(lhs), e2=e2, rhs=phi * e2, phi=phi,
               lam=lam, alpha=alpha)
    return out


def lemma_4_4_a_scan(lams=(1.34, 1.3409, 1.341, 1.345, 1.349), alpha: float = 1e-5) -> dict:
    """The witness of :func:`lemma_4_4_a_witness` as lam grows to 1.35: {lam: (E||V - I||^2, left side)}.

    Block (0, 2) moves X[2, 1] off zero only for lam below LAMBDA_02 ~ 1.340952; above it the left side
    drops to ~1e-7 (the lemma holds there), so the refutation is the jump at one lam, and
    :func:`lemma_4_4_a_family` shows that no constant phi can absorb it.

    Parameters
    ----------
    lams : sequence of float
        The l1 weights.
    alpha : float
        The proximal parameter of eq. (11).

    Returns
    -------
    dict
        {lam: (E||V - I||^2, left side)}.
    """
    return {lam: (w["e2"], w["lhs"]) for lam in lams for w in [lemma_4_4_a_witness(lam, alpha)]}


def _moved_target(s: float) -> np.ndarray:
    """T + s D: D the least-norm change of T that changes only the pair (0, 2) entry of the skew part
    A = [grad f X^T - X grad f^T] at X_w (by 2 s D X^T terms; pairs (0, 1), (1, 2) keep their stationarity)."""
    X = bs2_not_critical_witness("l1").X
    n, r = X.shape
    basis = np.eye(n * r).reshape(n * r, n, r)
    M = np.stack([(E @ X.T - X @ E.T).ravel() for E in basis], axis=1)
    S = np.zeros((n, n))
    S[0, 2], S[2, 0] = 1.0, -1.0
    D = np.linalg.lstsq(M, S.ravel(), rcond=None)[0].reshape(n, r)
    return np.asarray(WITNESS_T, dtype=float) + s * D


def lemma_4_4_a_family(deltas=(1e-2, 1e-3, 1e-4), alpha: float = 1e-5, lam: float = 1.35) -> dict:
    """Lemma 4.4(a) fails for every constant phi: at lam = 1.35 move the target along T(s) = T + s D
    (``_moved_target``, private) just past s*, the smallest s at which block (0, 2) starts to move (bisection on
    its gap). At s = s* + delta every step is O(delta) (E||V - I||^2 -> 0 like delta^2), but the
    (0, 2) step still moves X[2, 1] off zero and the left side stays ~0.32.
    Returns {"s_star", "rows": [(delta, E||V - I||^2, left side, left / E||V - I||^2)]}.

    Parameters
    ----------
    deltas : sequence of float
        The distances past s*.
    alpha : float
        The proximal parameter of eq. (11).
    lam : float
        The l1 weight.

    Returns
    -------
    dict
        ``s_star`` and ``rows``.

    Raises
    ------
    RuntimeError
        If block (0, 2) does not rest at s = 0 and move at s = 0.05 (the bisection would not bracket s*).
    """
    X = bs2_not_critical_witness("l1").X

    def moves(s):  # the same rule as lemma_4_4_a_witness: a gain above step_tol (1 + |F|) is a step
        problem = procrustes(_moved_target(s), L1(lam))
        gap = block_report(problem, X, 2, alpha=alpha, Q="exact").gaps[(0, 2)]
        return gap > 1e-12 * (1.0 + abs(problem.F(X)))
    lo, hi = 0.0, 0.05
    if moves(lo) or not moves(hi):
        raise RuntimeError("block (0, 2) must rest at s = 0 and move at s = 0.05")
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if moves(mid) else (mid, hi)
    rows = []
    for delta in deltas:
        w = lemma_4_4_a_witness(lam, alpha, T=_moved_target(hi + delta))
        rows.append((delta, w["e2"], w["lhs"], w["lhs"] / w["e2"]))
    return {"s_star": hi, "rows": rows}


def theorem_4_6_witness(steps: int = 300, rng=3) -> dict:
    """Theorem 4.6 fails for h = l1 (which satisfies its assumption, Remark 4.5).

    Start OBCD at the Theorem 3.8(a) witness X_w (a BS_2-point, alpha = 1e-5). Every block subproblem is
    minimized by I (gaps by brute force over O(2)), so every iterate is X_w (checked by running the
    suite's OBCD ``steps`` steps with random blocks). Hence min_t dist^2(0, d_M F(X^t)) = dist^2(0, d_M F(X_w))
    for every T, while F(X_w) > F_inf makes c~ finite and positive: for eps = dist^2 / 2 and any
    T >= ceil(gamma phi c~ / eps), the theorem's conclusion min_t E dist^2 <= eps fails.
    The distance is computed twice (the suite's BVLS and an independent L-BFGS-B).

    Parameters
    ----------
    steps : int
        OBCD's steps.
    rng : int or numpy.random.Generator
        Draws OBCD's blocks.

    Returns
    -------
    dict
        The witness, its block gaps, how far OBCD moved it, its distances and F's bounds.
    """
    w = bs2_not_critical_witness("l1")
    problem, X = w.problem, w.X
    alpha = 1e-5
    run = get_solver("obcd")(problem, X, max_iter=steps, rng=rng, alpha=alpha)
    g = global_minimum(problem, r=X.shape[1], rng=0)
    phi, gamma = _constants(problem, X.shape[1], alpha)
    c_tilde = 2.0 * (problem.F(X) - g.lower_bound) / alpha   # >= the theorem's c~ (F_inf >= lower bound)
    dist = residual_details(problem, X).value
    eps = dist**2 / 2
    return {"X": X, "block_gaps": w.brute, "moved": float(np.abs(run.X - X).max()), "steps": steps,
            "F": problem.F(X), "F_lower": g.lower_bound, "F_best": g.value, "certified": g.certified,
            "dist": dist, "dist_independent": _independent_distance(problem, X), "eps": eps,
            "T": math.ceil(gamma * phi * c_tilde / eps), "gamma": gamma, "phi": phi, "c_tilde": c_tilde}


__all__ = ["RateRun", "rate_run", "rate_report", "l1_subgradient_bound", "lemma_4_4_a_witness", "lemma_4_4_a_scan",
           "lemma_4_4_a_family", "theorem_4_6_witness"]
