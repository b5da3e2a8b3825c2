"""OBCD for any smooth f (Algorithm 1 with the scalar majorizer of eq. (10), verified on every step).

:func:`~.obcd.obcd` runs this loop for a problem without the quadratic structure (a
:class:`~obcd_lite.smooth.SmoothProblem`, :func:`~obcd_lite.smooth_pymanopt.from_pymanopt`). One step on the rows B:

1. M = [grad f(X) X^T]_BB = G_B Z^T, Z = X(B, :);
2. Q = varsigma I (eq. (10)), Qt = (varsigma + alpha) I, P = M - (varsigma + alpha) I (Lemma 2.3(a));
   V = the global minimizer of K(V; X, B) over O(k) (the breakpoint search for k = 2, Lemma 2.3(b) for
   k > 2, h = 0) — the same subproblem code as the quadratic path;
3. the check: with m(V) = <V - I, M> + varsigma/2 ||V - I||_F^2 + h(V Z) - h(Z) (= K(V) - K(I) -
   alpha/2 ||V - I||_F^2), the step is accepted when F(X_B(V)) - F(X) <= m(V) (up to the rounding of the two
   f values). Since K(V) <= K(I) = F(X), acceptance gives F(X_B(V)) <= F(X) - alpha/2 ||V - I||_F^2, the
   sufficient decrease behind eq. (11). When it fails, K(V) < F(X_B(V)): varsigma is below the block's
   curvature, so varsigma doubles and the step is redone; after ``MAX_REDOS`` doublings, or when the
   accepted F would still be above F(X) by rounding, X stays (V = I). F never rises.
4. X(B, :) <- V Z, then f and grad f at the new X (one f per try, one gradient per accepted step: the
   cost a QuadraticProblem avoids with its O(nrk) update, see ``benchmarks/smooth_step_cost.py``).

With ``Q="exact"`` and a Hessian (``problem.hessvec``, e.g. ``SmoothProblem(..., hessvec=)`` or ``from_pymanopt``
of a problem with a Euclidean Hessian) and k = 2, Q of step 2 is instead the Hessian's block Q of eq. (9) plus varsigma I,
Qh from 4 Hessian-vector products (:func:`~obcd_lite.subproblem.majorizer.hessian_Q`), and the model is
m(V) = <V - I, M> + 1/2 vec(V - I)^T (Qh + varsigma I) vec(V - I) + h(V Z) - h(Z). For a quadratic f, Qh is the
exact Q of eq. (9) and the model is f's change exactly; **for any other f it is a second-order model, not a
majorizer** (f's curvature moves along the step): the check of step 3 and varsigma guard it, so F never rises
all the same. varsigma then starts at ``VARSIGMA_FLOOR`` times the curvature estimate (or ``sigma0``), doubles
on a failed check and shrinks by ``SHRINK`` after an accepted step: it only covers the model's error. Whatever Q, a
problem with ``grad_rows`` (the gradient's rows) gives M from the block's two rows, and no whole gradient is
taken after an accepted step (the iterates are the same; only the cost changes).

Without a Hessian, varsigma starts at ``problem.lipschitz()`` (a given L, or the problem's estimate) and only grows; at the end
the problem's estimate is raised to it (``SmoothProblem.raise_lipschitz_estimate``), so the BS_2
certificate of :func:`~obcd_lite.optimality.classify` uses the curvature the run needed.
With ``obcd(..., sigma0=s)`` varsigma starts at the guess s instead; a guess is never stored: the estimate is
then raised only to the largest varsigma at which a check failed (a failed check proves L_f above it), and
never when L is a given bound. ``working_set="matching"`` (many disjoint pairs per gradient, a varsigma that
also shrinks) is :mod:`.obcd_pairs`.
"""
from __future__ import annotations

import numpy as np

from ..results import Recorder
from ..subproblem.majorizer import hessian_majorizer, hessian_Q, minimize_block, scalar_majorizer

#: Doublings of varsigma tried on one block before the block is left as it is.
MAX_REDOS = 60
#: Rounding allowance of the check, in units of eps (|f(X)| + |f(X_new)|).
ROUNDING_ULPS = 16
#: varsigma is divided by this after every accepted step of the adapting rules (the Hessian Q here, every
#: iteration of ``working_set="matching"``) and doubled on a failed check.
SHRINK = 1.5
#: The adapting varsigma never goes below this times ``problem.lipschitz()``: where the curvature left over is
#: negative every check holds and varsigma would shrink to denormals, and the doublings back up would then take
#: many failed checks. It is also where the Hessian rule starts (for a quadratic f the Hessian Q is exact).
VARSIGMA_FLOOR = 1e-6


def run_smooth(problem, X: np.ndarray, blocks, rec: Recorder, *, alpha: float, branches: str,
               sigma0: float | None = None, hessian: bool = False):
    """The loop of the module docstring on X in place.

    Parameters
    ----------
    problem : Problem
        Any problem of the protocol (:class:`obcd_lite.protocol.Problem`); its optional ``grad_rows`` (the
        gradient's rows, :class:`~obcd_lite.smooth.SmoothProblem`) replaces the whole gradient of every step.
    X : numpy.ndarray
        (n, r), the start on St(n, r); overwritten by the iterates.
    blocks : iterator
        Yields the row indices B of each step.
    rec : Recorder
        Records each step, holds ``max_iter`` and decides when to stop.
    alpha : float
        The proximal parameter of eq. (11).
    branches : str
        "both", "rot" or "ref", passed to :func:`minimize_block`.
    sigma0 : float, optional
        The first varsigma, a guess (> 0); None starts at ``problem.lipschitz()`` (the paper's rule), or with
        ``hessian`` at ``VARSIGMA_FLOOR`` times it.
    hessian : bool
        Q = the Hessian's block Q of eq. (9) (:func:`~obcd_lite.subproblem.majorizer.hessian_Q`, 4
        ``problem.hessvec`` products per step) plus varsigma I, varsigma adapting both ways (see the module
        docstring); False: Q = varsigma I (eq. (10)).

    Returns
    -------
    tuple
        ``(iterations, stop_reason, F, info)``: the steps taken, why the loop stopped, the tracked F at the last
        X and a dict with the final ``varsigma``, its start ``varsigma_start``, the doublings ``redos`` and the
        steps ``kept`` (X left as it was); with ``sigma0`` or ``hessian``, also ``varsigma_proven`` (the
        largest varsigma at which a check failed, 0.0 if none).
    """
    h = problem.h
    floor = VARSIGMA_FLOOR * float(problem.lipschitz())
    if sigma0 is not None:
        varsigma = float(sigma0)
    else:
        varsigma = floor if hessian else float(problem.lipschitz())
    start = varsigma
    proven = 0.0
    grad_rows = getattr(problem, "grad_rows", None)
    G = None if grad_rows is not None else problem.grad(X)
    f = problem.f(X)
    h_total = h(X)
    F = f + h_total
    redos = kept = 0
    stop_reason, it = "max_iter", 0
    for it in range(1, rec.max_iter + 1):
        B = next(blocks)
        k = len(B)
        Z = X[B]
        M = (grad_rows(X, B) if G is None else G[B]) @ Z.T
        Qh = hessian_Q(problem.hessvec, X, B) if hessian else None
        F_before = F
        V = np.eye(k)
        for _ in range(MAX_REDOS + 1):
            if hessian:
                V_try, VZ = minimize_block(*hessian_majorizer(Qh, M, varsigma + alpha), Z, h, branches)
            else:
                V_try, VZ = minimize_block(*scalar_majorizer(M, varsigma + alpha), Z, h, branches)
            step = V_try - np.eye(k)
            h_change = h(VZ) - h(Z)
            model = float(np.vdot(step, M)) + 0.5 * varsigma * float(np.vdot(step, step)) + h_change
            if hessian:
                v = step.reshape(-1, order="F")
                model += 0.5 * float(v @ Qh @ v)
            if not model < 0.0:  # K(V) >= K(I): I is a minimizer, nothing to gain
                break
            X_new = X.copy()
            X_new[B] = VZ
            f_new = problem.f(X_new)
            actual = f_new - f + h_change
            if actual <= model + ROUNDING_ULPS * np.finfo(float).eps * (abs(f) + abs(f_new)):
                h_new = h_total + h_change
                if f_new + h_new <= F:  # the check holds; F does not rise even by rounding (the F tracked below)
                    V = V_try
                    X[B] = VZ
                    f, h_total = f_new, h_new
                    F = f + h_total
                    if G is not None:
                        G = problem.grad(X)
                    if hessian:  # the Hessian model tracks the curvature; varsigma only covers its error
                        varsigma = max(varsigma / SHRINK, floor)
                else:
                    kept += 1
                break
            proven = max(proven, varsigma)
            varsigma *= 2.0  # K(V) < F(X_B(V)): the curvature along this block exceeds varsigma
            redos += 1
        else:
            kept += 1
        reason = rec.after_step(it, X, F, F_before, B, V, varsigma=varsigma)
        if reason is not None:
            stop_reason = reason
            break
    info = {"varsigma": varsigma, "varsigma_start": start, "redos": redos, "kept": kept}
    if sigma0 is not None or hessian:  # a guess (or a Hessian model's margin): only what a failed check proved is kept
        info["varsigma_proven"] = proven
        varsigma = 0.0 if hessian else proven  # with Q = Hessian + varsigma I, varsigma bounds nothing about L_f
    if hasattr(problem, "raise_lipschitz_estimate") and varsigma > 0.0:
        problem.raise_lipschitz_estimate(varsigma)
    return it, stop_reason, F, info
