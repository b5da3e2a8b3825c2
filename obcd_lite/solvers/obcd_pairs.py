"""OBCD with many disjoint row pairs per gradient: ``obcd(problem, X0, working_set="matching")``.

Algorithm 1 spends one gradient on one pair of rows. For a QuadraticProblem the gradient is updated in O(nr)
(Appendix C.3), but for a general f (:class:`~obcd_lite.smooth.SmoothProblem`, ``from_pymanopt``) every step
calls the user's full f and grad f and then uses two rows of them (``benchmarks/smooth_step_cost.py``). Here
one gradient serves n/2 pairs at once. One iteration (one *matching*):

1. G = grad f(X) (kept from the last accepted iteration);
2. a random perfect matching of the rows, drawn with ``rng``: the pairs (perm[q], perm[m + q]), q < m = n // 2,
   of a uniform permutation (each pair sorted; for n odd the row perm[n - 1] sits this matching out);
3. for every pair B = {i, j}, with Z = X(B, :) and M_B = G_B Z^T, the global minimizer V_B over O(2) of the
   scalar majorizer of eq. (10) in eq. (11),

       K_B(V) = <V - I, M_B> + (varsigma + alpha)/2 ||V - I||_F^2 + h(V Z)   (+ const),

   by the breakpoint search of :mod:`obcd_lite.subproblem` for every built-in h, in closed form for h = 0
   (``_closed_form``: Qt = (varsigma + alpha) I makes the quadratic term constant on O(2)),
   all pairs in one compiled loop (a Penalty of the user's own: the vectorized search, pair by pair); a pair
   whose model m_B(V_B) = K_B(V_B) - K_B(I) - alpha/2 ||V_B - I||^2 is not negative keeps V_B = I;
4. X_new = X with every pair's rows replaced by V_B Z, and ONE check for the joint step:
   f(X_new) - f(X) <= sum_B (<V_B - I, M_B> + varsigma/2 ||V_B - I||^2) (up to the rounding of the two
   f values). Accepted: X <- X_new, one gradient, and varsigma shrinks by ``SHRINK``. Failed: varsigma
   doubles and step 3 is redone on the same matching (no new gradient). A check that fails at varsigma above
   a claimed bound L, or ``CURVATURE_LIMIT`` times the curvature estimate, means the oracle is wrong (see
   below): a ValueError says so.

Why F never rises, and why fixed points are BS_2 points (a statement of ours, not the paper's)
------------------------------------------------------------------------------------------------
Separability: the pairs are disjoint, so with D = X_new - X = sum_B U_B (V_B - I) Z_B,
<G, D> = sum_B <V_B - I, M_B>, ||D||_F^2 = sum_B ||(V_B - I) Z_B||_F^2 <= sum_B ||V_B - I||_F^2
(||Z_B||_2 <= 1 on St(n, r)) and h(X_new) - h(X) = sum_B (h(V_B Z_B) - h(Z_B)) (h is separable). The joint
model is therefore the sum of the pairs' models, each a function of its own V_B only, and minimizing each
pair's K_B minimizes the sum. (a) F never rises: a step is taken only when the check holds, and then
F(X_new) - F(X) <= sum_B m_B(V_B) <= -alpha/2 sum_B ||V_B - I||_F^2 <= 0, because K_B(V_B) <= K_B(I) for a
global minimizer (a pair with m_B >= 0 keeps I); when rounding would still raise F the iteration keeps X.
If grad f is L-Lipschitz (on the unit-row ball, which holds the segment from X to X_new), the descent lemma
gives f(X_new) - f(X) <= <G, D> + L/2 ||D||^2 <= the checked sum for varsigma >= L: the doublings stop
before varsigma passes 2 L, so a check that fails at varsigma >= L (a problem that claims L as a bound:
``lipschitz_is_bound``) proves the oracle wrong, and a ValueError says so. (b) Fixed points: X is a fixed
point at varsigma when no matching moves it, i.e. for every pair B (each lies in some matching with positive
probability) V = I minimizes K_B: exactly the BS_2 condition of Definition 3.6 for Q = varsigma I. As
K_B(V) - K_B(I) grows with varsigma for V != I, such a point is BS_2 for every varsigma' >= varsigma too.
``tests/solvers/test_obcd_pairs.py`` checks both: F along every run, and ``classify``'s BS_2 test at the end.

varsigma: ``sigma0`` (a guess: the problem's ``lipschitz()`` when not given), then backtracking both ways:
doubled when the check fails, divided by ``SHRINK`` after an accepted iteration (not below ``VARSIGMA_FLOOR``
times ``problem.lipschitz()``), so it follows the local curvature instead of keeping the worst one seen. A
guess is never stored or used as a bound: at the end the problem's estimate
(``SmoothProblem.raise_lipschitz_estimate``) is raised only to ``varsigma_proven``, the largest varsigma at
which a check failed (which proves L_f above it); a given L is never changed.

The Hessian's Q (``obcd(..., working_set="matching", Q="exact")``, a problem with ``hessvec``): every pair's
Q is Qh_B + varsigma I, Qh_B the exact block Q of eq. (9) from 4 Hessian products
(:func:`~obcd_lite.subproblem.majorizer.hessian_Q`, 2 n products per matching), varsigma starting at
``VARSIGMA_FLOOR`` times the estimate. The argument for (a) is unchanged: the joint model is still the sum of the
pairs' models (the cross-pair terms of the Hessian are what it leaves out), and the check is what lets a step
through. For a non-quadratic f, Qh_B is a second-order model, not a majorizer, and the check guards it too.
||Qh_B||_2 <= L_f, so the check holds once varsigma >= 2 L_f, and a claimed bound is tested against 2 L. In
``benchmarks/own_problem.py`` it loses on time to the scalar rule (docs/benchmarks/own_problem.md), so the
default stays varsigma I.

One iteration = one matching: ``Result.iterations``, ``max_iter``, ``log_every`` and the history count
matchings (n // 2 pair steps each). The callback's :class:`~obcd_lite.results.Step` gets B = the (m, 2) pairs
and V = the (m, 2, 2) factors (I where a pair kept its rows, all I when the iteration kept X).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..penalties import ZERO_KIND
from ..results import Recorder
from ..stiefel import BRANCHES
from ..subproblem.majorizer import hessian_majorizer, hessian_Q, minimize_block, scalar_majorizer
from ..block_arithmetic import coefficients_2x2, rotate_rows
from ..subproblem.sweep import sweep_into
from ..subproblem.workspace import sweep_workspace
from .obcd_kernel import _penalty_value
from .obcd_smooth import MAX_REDOS, ROUNDING_ULPS, SHRINK, VARSIGMA_FLOOR

#: A check that fails at varsigma >= this times ``problem.lipschitz()`` (an estimate: a lower bound of L_f
#: from secants) means f and grad f disagree: with a right gradient the check holds once varsigma >= L_f.
#: Waiting for more doublings would not tell: the steps shrink to rounding level, where every check passes.
CURVATURE_LIMIT = 1e6


def matching(n: int, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random perfect matching of range(n) (n odd: one row, drawn with ``rng``, left out).

    Parameters
    ----------
    n : int
        The number of rows, >= 2.
    rng : numpy.random.Generator
        The random source.

    Returns
    -------
    numpy.ndarray
        (n // 2, 2) int64, the pairs, each sorted (i < j).
    """
    perm = rng.permutation(n)
    m = n // 2
    first, second = perm[:m], perm[m:2 * m]
    return np.ascontiguousarray(np.column_stack((np.minimum(first, second), np.maximum(first, second))),
                                dtype=np.int64)


@njit(cache=True)
def _closed_form(P, first, last):
    """h = 0, Qt = (varsigma + alpha) I: 1/2 vec(V)^T Qt vec(V) is the same on all of O(2), so the subproblem is
    min <V, P>, on each circle a c + b s (``coefficients_2x2``'s a, b), least at (c, s) = -(a, b) / hypot(a, b)
    with value -hypot(a, b) (Lemma 2.3(b) for k = 2). Returns (branch, c, s); rot wins ties (and a = b = 0: V = I)."""
    best, best_branch, best_c, best_s = np.inf, first, 1.0, 0.0
    for branch in range(first, last + 1):
        a = P[1, 1] + P[0, 0] if branch == 0 else P[1, 1] - P[0, 0]
        b = P[0, 1] - P[1, 0] if branch == 0 else P[0, 1] + P[1, 0]
        size = math.hypot(a, b)
        if -size < best:
            best, best_branch = -size, branch
            best_c, best_s = (-a / size, -b / size) if size > 0.0 else (1.0, 0.0)
    return best_branch, best_c, best_s


@njit(cache=True)
def _solve_pairs(X, G, pairs, varsigma, alpha, kind, lam, tau, first, last, X_new, V, models, Qh, hess):
    """Step 3 of the module docstring for every pair: fill the pairs' rows of X_new (a copy of X), V (m, 2, 2)
    and models (m,) with m_B(V_B) (0 where the pair keeps I). ``hess``: pair q's Q is Qh[q] + varsigma I
    (Qh (m, 4, 4), the Hessian's Q of eq. (9)); else varsigma I. Returns the sum of the models."""
    r = X.shape[1]
    Z = np.empty((2, r))
    VZ = np.empty((2, r))
    no_rows = np.empty((2, 0))
    work = sweep_workspace(0 if kind == ZERO_KIND else r)
    Qt = np.zeros((4, 4))
    P = np.empty((2, 2))
    M = np.empty((2, 2))
    coef = np.empty((2, 5))
    dv = np.empty(4)
    shift = varsigma + alpha
    for p in range(4):
        Qt[p, p] = shift   # eq. (10): Q = varsigma I, Lemma 2.3(a): Qt = (varsigma + alpha) I
    total = 0.0
    for q in range(pairs.shape[0]):
        i, j = pairs[q, 0], pairs[q, 1]
        m11 = m12 = m21 = m22 = 0.0   # M_B = G_B Z^T in one pass over the two rows
        for t in range(r):
            zi, zj = X[i, t], X[j, t]
            Z[0, t], Z[1, t] = zi, zj
            m11 += G[i, t] * zi
            m12 += G[i, t] * zj
            m21 += G[j, t] * zi
            m22 += G[j, t] * zj
        M[0, 0], M[0, 1], M[1, 0], M[1, 1] = m11, m12, m21, m22
        P[0, 0], P[0, 1], P[1, 0], P[1, 1] = m11 - shift, m12, m21, m22 - shift   # Lemma 2.3(a)
        if hess:   # Qt = Qh + shift I, P = M - mat(Qh vec(I)) - shift I (vec stacks columns: vec(I) = e_0 + e_3)
            for p in range(4):
                for t in range(4):
                    Qt[p, t] = Qh[q, p, t] + (shift if p == t else 0.0)
            P[0, 0] -= Qh[q, 0, 0] + Qh[q, 0, 3]
            P[1, 0] -= Qh[q, 1, 0] + Qh[q, 1, 3]
            P[0, 1] -= Qh[q, 2, 0] + Qh[q, 2, 3]
            P[1, 1] -= Qh[q, 3, 0] + Qh[q, 3, 3]
        if kind == ZERO_KIND and not hess:
            branch, c, s = _closed_form(P, first, last)
            rotate_rows(Z, branch, c, s, VZ)
            h_change = 0.0
        elif kind == ZERO_KIND:   # a Hessian Q: the sweep over the circles, no rows needed for h = 0
            coefficients_2x2(Qt, P, coef)
            branch, c, s, _ = sweep_into(coef, no_rows, kind, lam, tau, first, last, work, no_rows)
            rotate_rows(Z, branch, c, s, VZ)
            h_change = 0.0
        else:
            coefficients_2x2(Qt, P, coef)
            branch, c, s, _ = sweep_into(coef, Z, kind, lam, tau, first, last, work, VZ)
            h_change = _penalty_value(VZ, kind, lam, tau) - _penalty_value(Z, kind, lam, tau)
        # V = rot(theta) = [[c, s], [-s, c]] or ref(theta) = [[-c, s], [s, c]] (``rotate_rows``)
        v11 = c if branch == 0 else -c
        v21 = -s if branch == 0 else s
        d11, d22 = v11 - 1.0, c - 1.0
        model = (d11 * M[0, 0] + s * M[0, 1] + v21 * M[1, 0] + d22 * M[1, 1]
                 + 0.5 * varsigma * (d11 * d11 + s * s + v21 * v21 + d22 * d22) + h_change)
        if hess:   # + 1/2 vec(V - I)^T Qh vec(V - I), vec(V - I) = (d11, v21, s, d22)
            dv[0], dv[1], dv[2], dv[3] = d11, v21, s, d22
            for p in range(4):
                for t in range(4):
                    model += 0.5 * dv[p] * Qh[q, p, t] * dv[t]
        if model < 0.0:
            for t in range(r):
                X_new[i, t] = VZ[0, t]
                X_new[j, t] = VZ[1, t]
            V[q, 0, 0], V[q, 0, 1], V[q, 1, 0], V[q, 1, 1] = v11, s, v21, c
            models[q] = model
            total += model
        else:   # I is (to rounding) as good: the pair keeps its rows
            for t in range(r):
                X_new[i, t] = Z[0, t]
                X_new[j, t] = Z[1, t]
            V[q, 0, 0], V[q, 0, 1], V[q, 1, 0], V[q, 1, 1] = 1.0, 0.0, 0.0, 1.0
            models[q] = 0.0
    return total


def _solve_pairs_any_h(X, G, pairs, varsigma, alpha, h, branches, X_new, V, models, Qh, hess) -> float:
    """:func:`_solve_pairs` for a Penalty of the user's own (no ``sweep_kind``): pair by pair, the search
    over its pieces (:func:`~obcd_lite.subproblem.majorizer.minimize_block`)."""
    I2 = np.eye(2)
    for q, B in enumerate(pairs):
        Z = X[B]
        M = G[B] @ Z.T
        data = hessian_majorizer(Qh[q], M, varsigma + alpha) if hess else scalar_majorizer(M, varsigma + alpha)
        V_try, VZ = minimize_block(*data, Z, h, branches)
        step = V_try - I2
        model = float(np.vdot(step, M)) + 0.5 * varsigma * float(np.vdot(step, step)) + (h(VZ) - h(Z))
        if hess:
            v = step.reshape(-1, order="F")
            model += 0.5 * float(v @ Qh[q] @ v)
        keep = not model < 0.0
        X_new[B] = Z if keep else VZ
        V[q] = I2 if keep else V_try
        models[q] = 0.0 if keep else model
    return float(models.sum())


def run_matching(problem, X: np.ndarray, rng: np.random.Generator, rec: Recorder, *, alpha: float,
                 branches: str, sigma0: float | None = None, hessian: bool = False):
    """The loop of the module docstring on X in place.

    Parameters
    ----------
    problem : Problem
        Any problem of the protocol (:class:`obcd_lite.protocol.Problem`): only f, grad f, h and
        ``lipschitz()`` are used.
    X : numpy.ndarray
        (n, r), the start on St(n, r); overwritten by the iterates.
    rng : numpy.random.Generator
        Draws the matchings.
    rec : Recorder
        Records each iteration (one matching), holds ``max_iter`` and decides when to stop.
    alpha : float
        The proximal parameter of eq. (11).
    branches : str
        "both", "rot" or "ref": the circles of O(2) searched.
    sigma0 : float, optional
        The first varsigma, a guess (> 0); None starts at ``problem.lipschitz()`` (with ``hessian``: at
        ``VARSIGMA_FLOOR`` times it).
    hessian : bool
        Every pair's Q is the Hessian's block Q of eq. (9) plus varsigma I (4 ``problem.hessvec`` products per
        pair, 2 n per matching; see the module docstring); False: varsigma I.

    Returns
    -------
    tuple
        ``(iterations, stop_reason, F, info)``: the matchings done, why the loop stopped, the tracked F at the
        last X and a dict with the final ``varsigma``, its start ``varsigma_start``, ``varsigma_proven``, the
        doublings ``redos``, the iterations ``kept`` (X left as it was) and ``pairs_per_iteration``.

    Raises
    ------
    ValueError
        When the check fails at varsigma >= a Lipschitz bound the problem claims, or at ``CURVATURE_LIMIT``
        times its estimate, or ``MAX_REDOS`` times in a row (f and grad f do not agree, or the bound is wrong).
    """
    h = problem.h
    n = X.shape[0]
    # with the Hessian Q (||Qh_B||_2 <= L_f) the joint model majorizes f once varsigma >= 2 L_f
    bound = (2.0 if hessian else 1.0) * float(problem.lipschitz()) if problem.lipschitz_is_bound else None
    limit = CURVATURE_LIMIT * float(problem.lipschitz())
    floor = VARSIGMA_FLOOR * float(problem.lipschitz())
    if sigma0 is not None:
        varsigma = float(sigma0)
    else:
        varsigma = floor if hessian else float(problem.lipschitz())
    start, proven = varsigma, 0.0
    kind = h.sweep_kind
    compiled = kind is not None
    if compiled:
        kind = ZERO_KIND if h.is_zero else kind
        lam, tau = h.sweep_params() if not h.is_zero else (0.0, 0.0)
    first, last = (0, 1) if branches == "both" else (BRANCHES.index(branches),) * 2
    G = problem.grad(X)
    f = problem.f(X)
    h_total = h(X)
    F = f + h_total
    m = n // 2
    V = np.empty((m, 2, 2))
    models = np.empty(m)
    Qh = np.zeros((m if hessian else 0, 4, 4))
    redos = kept = 0
    stop_reason, it = "max_iter", 0
    for it in range(1, rec.max_iter + 1):
        pairs = matching(n, rng)
        F_before = F
        accepted = False
        for q in range(m if hessian else 0):
            Qh[q] = hessian_Q(problem.hessvec, X, pairs[q])
        for _ in range(MAX_REDOS + 1):
            X_new = X.copy()
            if compiled:
                model = _solve_pairs(X, G, pairs, varsigma, alpha, kind, lam, tau, first, last, X_new, V, models,
                                     Qh, hessian)
            else:
                model = _solve_pairs_any_h(X, G, pairs, varsigma, alpha, h, branches, X_new, V, models, Qh, hessian)
            if not model < 0.0:  # every pair keeps I: nothing to gain on this matching
                break
            f_new = problem.f(X_new)
            h_new = h(X_new)
            if f_new - f + (h_new - h_total) <= model + ROUNDING_ULPS * np.finfo(float).eps * (abs(f) + abs(f_new)):
                if f_new + h_new <= F:  # the check holds; F does not rise even by rounding
                    X[:] = X_new
                    f, h_total = f_new, h_new
                    F = f + h_total
                    G = problem.grad(X)
                    accepted = True
                    varsigma = max(varsigma / SHRINK, floor)
                else:
                    kept += 1
                break
            if bound is not None and varsigma >= bound:
                raise ValueError(f"the majorization check failed at varsigma = {varsigma:.6g} >= "
                                 f"{'2 L' if hessian else 'L'} = {bound:.6g}, the Lipschitz bound the problem "
                                 "claims: L is not a Lipschitz constant of grad f, or grad is not the gradient of f")
            if bound is None and limit > 0.0 and varsigma >= limit:
                raise ValueError(f"the majorization check failed at varsigma = {varsigma:.3g} >= {CURVATURE_LIMIT:g} "
                                 f"times the curvature estimate {problem.lipschitz():.3g}: grad does not look like "
                                 "the gradient of f (check it with a finite difference)")
            proven = max(proven, varsigma)
            varsigma *= 2.0  # the curvature along this joint step exceeds varsigma
            redos += 1
        else:
            raise ValueError(f"the majorization check failed {MAX_REDOS + 1} times in a row (varsigma up to "
                             f"{varsigma:.3g}): grad does not look like the gradient of f (check it with a finite "
                             "difference)")
        if not accepted:
            V[:] = np.eye(2)
        reason = rec.after_step(it, X, F, F_before, pairs, V.copy(), varsigma=varsigma)
        if reason is not None:
            stop_reason = reason
            break
    # with the Hessian Q a failed check bounds the model's error, not L_f: nothing to raise
    if hasattr(problem, "raise_lipschitz_estimate") and proven > 0.0 and not hessian:
        problem.raise_lipschitz_estimate(proven)
    return it, stop_reason, F, {"varsigma": varsigma, "varsigma_start": start, "varsigma_proven": proven,
                                "redos": redos, "kept": kept, "pairs_per_iteration": m}
