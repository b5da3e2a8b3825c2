"""ManPG and ManPG-Ada: the manifold proximal gradient method of Chen, Ma, So & Zhang.

Source paper: S. Chen, S. Ma, A. M.-C. So, T. Zhang, "Proximal gradient method for nonsmooth
optimization over the Stiefel manifold", SIAM J. Optim. 30(1), 2020 (arXiv 1811.00980): ManPG
and its adaptive-step variant ManPG-Ada. Reference code (MATLAB R2018b), ported line by line:

* ``chenshixiang/ManPG:manpg_code_share/SPCA/manpg_orth_sparse.m`` (ManPG),
* ``chenshixiang/ManPG:manpg_code_share/SPCA/manpg_orth_sparse_adap.m`` (ManPG-Ada),
* ``chenshixiang/ManPG:manpg_code_share/SSN_subproblem/Semi_newton_matrix.m`` (the subproblem),
* ``chenshixiang/ManPG:manpg_code_share/misc/proximal_l1.m`` (prox and active set),

the same files as ``QinsiWang2022/ManPQN:SPCA/`` (the code behind the published table that
``benchmarks/manpg_anchor.py`` checks).

The iteration, for F = f + h on St(n, r) with t = 1/L (L the Lipschitz constant of grad f):

1. Tangent-space proximal step (ManPG's subproblem):
   D = argmin <grad f(X), D> + ||D||^2 / (2t) + h(X + D)  s.t.  X^T D + D^T X = 0.
   Its KKT conditions give X + D = Z(Lam) = prox_{t h}(X - t grad f(X) + 2t X Lam) for a
   symmetric multiplier Lam that solves X^T Z(Lam) + Z(Lam)^T X = 2 I, a system of r(r+1)/2
   equations solved by the paper's regularized semismooth Newton method, warm-started
   from the previous Lam (:func:`manpg_subproblem`).
2. Stop when ||D||_F / (t S) < tol (the code's ||D||^2 / t^2 test relative to the scale S, below; before
   the line search).
3. Armijo backtracking: alpha = 1, halved while F(polar(X + alpha D)) >= F(X) - alpha ||D||^2 / (2t);
   once alpha < 1e-4 the last trial point is accepted anyway and counted as an inexact step.
4. X <- polar(X + alpha D) (the polar retraction).

ManPG-Ada also adapts t: t <- 1.01 t after a step without backtracking, t <- max(t0, t / 1.01)
after one with backtracking.

Defaults matched to the reference code and its SPCA demos: t = 1/L with L = ||C||_2 ||D||_2 (= 2 lambda_max(C)
for ``sparse_pca``, the code's ``2*abs(eigs(B,1))``); tol = sqrt(1e-8 n r) relative (the code's 1e-8 n r on
||D||^2/t^2); max_iter = 20000 (``demo_compare_SPCA_dimension_n.m``; the ManPQN demo uses 30000); at most 100
Newton steps per subproblem (``inner_iter``); Newton tolerance ||R||^2 <= max(1e-13, min(1e-11, 1e-3 (tol S
t)^2)), tightened to max(5e-16, min(1e-14, 1e-5 (tol S t)^2)) (ManPG-Ada: max(1e-15, min(1e-13, ...))) after
an inexact step or more than ten of them; regularization 0.2 max(min(||R||, 0.1), 1e-11) t; Newton line search
halving while ||R_new||^2 >= (1 - 0.001 s) ||R||^2 and s > 1e-3.

Scale (issue 34): the tolerance is relative to the problem's scale S = L_f
(:func:`~obcd_lite.results.problem_scale`): the run stops when ||D||_F / (t S) < tol, default
tol = sqrt(1e-8 n r), i.e. the code's ||D||^2 / t^2 < 1e-8 n r at S = 1. The Newton regularization
0.2 max(min(||R||, 0.1), 1e-11) is multiplied by t (= 1 at L_f = 1), since the Newton matrix is
4 t X^T diag(a) X. With t = 1/L_f both make the problem s F run the same iterates (the multiplier Lam
s times P's). Until issue 34 the tolerance was absolute (1e-8 n r on ||D||^2/t^2): met at once on data
scaled down (the OBCD paper's ||A||_F = 1 data, ||C||_2 ~ 4e-3, stopped after a handful of
iterations), never met on data scaled up.

Differences from the reference code (all deliberate):

* Scaling: the code minimizes -tr(X^T C X) + mu ||X||_1 (no 1/2); here f is whatever the problem
  says. ``sparse_pca(C, L1(mu))`` is exactly the code's objective (lam = mu).
* The Newton system is always solved directly (LU, ``numpy.linalg.solve``) in the r(r+1)/2
  coordinates of the symmetric multiplier; the code does the same for r < 15 (with an equivalent
  Sherman-Morrison-Woodbury form when nnz(Z) <= r(r+1)/2) but uses conjugate gradients to the
  loose tolerance min(1e-4, 1e-3 ||R||) for r >= 15. Our Newton steps are the exact ones.
* The returned X is not thresholded: the code sets |X_ij| <= 1e-5 to 0 after the run, which
  takes X off St(n, r) and changes F (and it reports F before thresholding). Count sparsity with
  ``count_nonzeros(X, 1e-5)`` to compare with its "sparsity".
* ManPG-Ada: the code has no ||D||^2/t^2 test and stops only when F < F_ManPG + 1e-7 (a value a
  previous ManPG run provides). Here it stops on the same ||D|| / (t S) < tol as ManPG (with the
  current t); ``F_target`` restores the code's test (for either variant).
* The polar factor is taken from the SVD of X + alpha D (``stiefel.polar``) instead of the SVD of
  (X + alpha D)^T (X + alpha D): the same matrix, without squaring the condition number.
* The semismooth Newton loop also stops when the run's time limit is reached (the code checks
  time only between outer iterations); with a 210 x 210 Newton system (r = 20) one outer
  iteration of up to 100 Newton steps can otherwise overshoot a short budget by seconds.
* The smooth part is evaluated with the dense C of the problem (n^2 r per gradient); the code uses
  the data matrix B (C = B^T B, 2 m n r per gradient), which is faster when m << n.

Penalties: Zero and L1 (convex, with a semismooth prox). Declined, before any work:
L0 and CappedL1 (nonconvex: the subproblem is no longer strongly convex, its prox is discontinuous
(L0) and neither ManPG's theory nor its Newton method applies; the paper did not run ManPG on l0);
NonNeg: the projection prox would make the subproblem solvable (same Newton method with active set
{b > 0}), but the polar retraction does not keep X >= 0 (polar(Y) = Y (Y^T Y)^{-1/2} has negative
entries unless the columns of Y >= 0 have disjoint supports), so every trial point has
F = +inf and the Armijo search can never accept a step.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..threads import one_blas_thread
from ..penalties import Penalty
from ..results import Recorder, Result, Step, check_budget, problem_scale
from ..stiefel import polar
from ..validation import (UnsupportedProblemError, as_matrix, as_rng, check_nonnegative, check_problem,
                          check_stiefel)

#: max_iter when none is given (the reference SPCA demo's ``option.maxiter``).
DEFAULT_MAX_ITER = 20_000
#: Newton steps per subproblem (``option.inner_iter``).
DEFAULT_INNER_ITER = 100
#: Armijo step below which a step is accepted anyway (the code's ``t_min``).
ALPHA_MIN = 1e-4
#: The Armijo constant of the code: F(new) < F(X) - ARMIJO / t * alpha * ||D||^2.
ARMIJO = 0.5
#: ManPG-Ada's factor on t (the code's 1.01).
ADA_FACTOR = 1.01
#: ManPG-Ada's test against a known value: F < F_target + TARGET_GAP (the code's 1e-7).
TARGET_GAP = 1e-7


@dataclass(frozen=True)
class TangentProxStep:
    """The solution of ManPG's subproblem at X (see :func:`manpg_subproblem`).

    Attributes
    ----------
    D : numpy.ndarray
        The step, tangent at X (X^T D + D^T X = 0 to the Newton tolerance).
    Lam : numpy.ndarray
        The symmetric multiplier with X + D = prox_{t h}(X - t G + 2 t X Lam).
    iterations : int
        Newton steps taken.
    residual : float
        ||X^T Z + Z^T X - 2 I||_F at the returned Lam (Z = X + D).
    converged : bool
        False when the Newton method stopped at its iteration cap.
    """

    D: np.ndarray
    Lam: np.ndarray
    iterations: int
    residual: float
    converged: bool


def manpg_subproblem(X: np.ndarray, G: np.ndarray, t: float, h: Penalty, *, Lam0: np.ndarray | None = None,
                     tol: float = 1e-13, max_inner: int = DEFAULT_INNER_ITER) -> TangentProxStep:
    """Solve ManPG's subproblem by the paper's regularized semismooth Newton method.

        min_D <G, D> + ||D||_F^2 / (2 t) + h(X + D)   s.t.  X^T D + D^T X = 0,

    via its dual: X + D = Z(Lam) = prox_{t h}(X - t G + 2 t X Lam) with Lam symmetric and
    R(Lam) = X^T Z(Lam) + Z(Lam)^T X - 2 I = 0. Each Newton step solves
    (J + reg I) d = -vech(R), J = 4 t pinv(D_r) blkdiag(X^T diag(a_i) X) D_r (D_r the duplication
    matrix, a_i the generalized Jacobian of the prox on column i), reg = 0.2 max(min(||R||, 0.1),
    1e-11), then halves the step s while ||R_new||^2 >= (1 - 0.001 s) ||R||^2 and s > 1e-3
    (reference: ``Semi_newton_matrix.m``).

    Parameters
    ----------
    X : numpy.ndarray, shape (n, r)
        Point on St(n, r).
    G : numpy.ndarray, shape (n, r)
        Euclidean gradient of the smooth part at X.
    t : float
        Step size > 0.
    h : Penalty
        A convex penalty with ``prox`` and ``prox_jacobian`` (Zero, L1).
    Lam0 : numpy.ndarray, shape (r, r) or None
        Symmetric warm start (default 0).
    tol : float
        Stop when ||R||_F^2 <= tol.
    max_inner : int
        Newton-step cap (the code stops after max_inner + 2 steps; so does this).

    Returns
    -------
    TangentProxStep
        The step D, its multiplier Lam, the Newton steps taken and the residual.

    Raises
    ------
    TypeError
        If ``h`` is not a Penalty.
    ValueError
        If ``Lam0`` is not symmetric or ``max_inner`` is not a non-negative integer.
    """
    X = as_matrix(X, "X")
    check_stiefel(X, "X")
    G = as_matrix(G, "G", X.shape)
    t = check_nonnegative(t, "t", strict=True)
    tol = check_nonnegative(tol, "tol")
    if not isinstance(h, Penalty):
        raise TypeError(f"h must be a Penalty, got {type(h).__name__}")
    _check_supported(h, "manpg_subproblem")
    r = X.shape[1]
    Lam = np.zeros((r, r)) if Lam0 is None else as_matrix(Lam0, "Lam0", (r, r))
    if not np.allclose(Lam, Lam.T):
        raise ValueError("Lam0 must be symmetric")
    if isinstance(max_inner, bool) or not isinstance(max_inner, (int, np.integer)) or max_inner < 0:
        raise ValueError(f"max_inner must be a non-negative integer, got {max_inner!r}")
    return _semismooth_newton(X, X - t * G, t, h, Lam, tol, int(max_inner), _VechIndex(r))


class _VechIndex:
    """Index tables of the r(r+1)/2 coordinates of a symmetric r x r matrix (the code's D_r)."""

    def __init__(self, r: int):
        self.r = r
        self.rows, self.cols = np.tril_indices(r)
        self.of = np.empty((r, r), dtype=np.intp)  # of[p, q]: coordinate of the pair {p, q}
        self.of[self.rows, self.cols] = np.arange(self.rows.size)
        self.of[self.cols, self.rows] = self.of[self.rows, self.cols]
        # 1/c_k of pinv(D_r) = diag(1/c) D_r^T: c_k = 2 positions of vec(S) off the diagonal, 1 on it.
        self.inv_count = np.where(self.rows == self.cols, 1.0, 0.5)
        i, p, q = np.meshgrid(np.arange(r), np.arange(r), np.arange(r), indexing="ij")
        self.k, self.l = self.of[p, i].ravel(), self.of[q, i].ravel()

    def newton_matrix(self, X: np.ndarray, active: np.ndarray, t: float) -> np.ndarray:
        """4 t pinv(D_r) blkdiag(g_1, ..., g_r) D_r with g_i = X^T diag(active[:, i]) X."""
        g = np.matmul((active.T[:, :, None] * X[None, :, :]).transpose(0, 2, 1), X)
        M = np.zeros((self.rows.size, self.rows.size))
        np.add.at(M, (self.k, self.l), g.ravel())
        return (4.0 * t) * self.inv_count[:, None] * M

    def to_matrix(self, v: np.ndarray) -> np.ndarray:
        S = np.empty((self.r, self.r))
        S[self.rows, self.cols] = v
        S[self.cols, self.rows] = v
        return S


def _residual(Z: np.ndarray, X: np.ndarray) -> np.ndarray:
    ZX = Z.T @ X
    return ZX + ZX.T - 2.0 * np.eye(X.shape[1])


def _semismooth_newton(X, B, t, h, Lam, tol, max_inner, vech, out_of_time=None, reg_scale: float = 1.0
                       ) -> TangentProxStep:
    # out_of_time: the run's clock; a Newton step can take 10-100 ms at r = 20, so the inner loop also
    # stops at the time limit (the reference code checks time only between outer iterations).
    XL = B + 2.0 * t * (X @ Lam)
    Z = h.prox(XL, t)
    R = _residual(Z, X)
    res = float(np.linalg.norm(R))
    steps, converged = 0, True
    while res * res > tol:
        reg = 0.2 * max(min(res, 0.1), 1e-11) * reg_scale  # reg_scale = t: relative to J ~ 4 t
        J = vech.newton_matrix(X, h.prox_jacobian(XL, t), t)
        J[np.diag_indices_from(J)] += reg
        try:
            d = vech.to_matrix(np.linalg.solve(J, -R[vech.rows, vech.cols]))
        except np.linalg.LinAlgError:  # J ~ 4t (...) dwarfs its regularization 0.2 min(||R||, 0.1)
            raise ValueError(f"manpg: the semismooth Newton system is singular to rounding at the step t = {t:.3e} "
                             f"with h = {h!r}: the penalty and the curvature L_f ~ 1/t of the data are too many orders "
                             "of magnitude apart; rescale C or lam, or pass a smaller step") from None
        XD = 2.0 * t * (X @ d)
        s = 1.0
        while True:
            XL_new = XL + s * XD
            Z = h.prox(XL_new, t)
            R_new = _residual(Z, X)
            res_new = float(np.linalg.norm(R_new))
            if res_new * res_new < res * res * (1.0 - 0.001 * s) or s <= 1e-3:
                break
            s *= 0.5
        Lam = Lam + s * d
        XL, R, res = XL_new, R_new, res_new
        if steps > max_inner or (out_of_time is not None and out_of_time()):
            converged = False
            break
        steps += 1
    return TangentProxStep(D=Z - X, Lam=Lam, iterations=steps, residual=res, converged=converged)


def _default_step(problem, solver: str) -> float:
    """t0 = 1 / L_f; a problem with L_f = 0 (C = 0: f is linear or constant) has no such step."""
    lipschitz = problem.lipschitz()
    if not lipschitz > 0.0:
        raise ValueError(f"{solver}: the default step t = 1/L_f needs L_f = ||C||_2 ||D||_2 > 0, got L_f = "
                         f"{lipschitz!r} (C = 0?); pass step = t > 0")
    return 1.0 / lipschitz


def _check_supported(h: Penalty, solver: str) -> None:
    if not (h.convex and h.finite):
        raise UnsupportedProblemError(
            f"{solver} does not handle h = {h!r}: it needs a convex h with a semismooth prox (Zero or L1). "
            "L0 and CappedL1 are nonconvex (ManPG's subproblem and its semismooth Newton method do not apply); "
            "for NonNeg the polar retraction does not keep X >= 0, so no Armijo step is ever accepted")


@one_blas_thread
def manpg(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
          callback: Callable[[Step], bool | None] | None = None, log_every: int = 1, adaptive: bool = False,
          tol: float | None = None, step: float | None = None, inner_iter: int = DEFAULT_INNER_ITER,
          F_target: float | None = None, verbose: bool = False, progress: bool = False) -> Result:
    """Run ManPG (Chen, Ma, So, Zhang 2020), or ManPG-Ada with ``adaptive=True``.

    Parameters
    ----------
    problem : QuadraticProblem
        QuadraticProblem (``grad``, ``f_from_grad``, ``F``, ``h``, and ``C``/``D`` for L).
    X0 : numpy.ndarray, shape (n, r)
        On St(n, r).
    max_iter : int or None
        Iteration budget (default 20000, the reference demo's).
    time_limit : float or None
        Seconds (default none).
    rng : int, numpy.random.Generator or None
        Accepted for the common signature; the method draws nothing.
    callback : callable or None
        Called with a :class:`~obcd_lite.results.Step` after every iteration (``info``:
        ``alpha, t, opt_norm, inner``); returning True stops.
    log_every : int
        History row every this many iterations.
    adaptive : bool
        ManPG-Ada's step-size rule (:func:`manpg_ada`).
    tol : float or None
        Stop when the stationarity ||D||_F / (t S) < tol, S = L_f the problem's scale; default
        sqrt(1e-8 n r) (the demo's ||D||^2 / t^2 < 1e-8 n r at S = 1).
    step : float or None
        t0; default 1/L with L = :meth:`QuadraticProblem.lipschitz` (computed inside the timed run,
        as the code's ``tic`` covers its ``eigs``).
    inner_iter : int
        Newton-step cap per subproblem (default 100).
    F_target : float or None
        Also stop when F < F_target + 1e-7 (ManPG-Ada's test in the reference comparison).
    verbose : bool
        Print a table (iteration, F, stationarity) at every log point.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Result
        ``solver = "manpg"`` or ``"manpg_ada"``; history adds ``alpha`` (accepted Armijo step),
        ``t``, ``opt_norm`` (||D||/t of the subproblem solved at the previous iterate) and
        ``inner`` (Newton steps). ``info``: ``opt_norm`` (||D||/t at the last subproblem; at the
        returned X when ``stop_reason == "tol"``), ``t``, ``Lam``, ``inexact_steps`` (Armijo
        gave up), ``backtracks``, ``inner_iterations``, ``inner_not_converged``. ``stationarity``: the
        proximal-gradient residual ||D||_F / (t S) of the last subproblem (at the returned X when
        ``stop_reason == "tol"``, then < tol; at the iterate before the last step otherwise).

    Raises
    ------
    ValueError
        If n or r is 0, ``inner_iter`` is not a non-negative integer or ``F_target`` is not finite.
    """
    name = "manpg_ada" if adaptive else "manpg"
    X = as_matrix(X0, "X0").copy()
    check_problem(problem, X, "X0", name)
    as_rng(rng)  # drawn from by no one here, but a bad rng is still an error
    check_stiefel(X, "X0")
    problem.check_point(X, "X0")
    h = problem.h
    _check_supported(h, name)
    n, r = X.shape
    if n == 0 or r == 0:
        raise ValueError(f"{name} needs n >= 1 and r >= 1 (its step t = 1/L_f and its Newton system of r(r+1)/2 "
                         f"unknowns), got X0 of shape {X.shape}")
    tol = np.sqrt(1e-8 * n * r) if tol is None else check_nonnegative(tol, "tol")
    if step is not None:
        step = check_nonnegative(step, "step", strict=True)
    if isinstance(inner_iter, bool) or not isinstance(inner_iter, (int, np.integer)) or inner_iter < 0:
        raise ValueError(f"inner_iter must be a non-negative integer, got {inner_iter!r}")
    if F_target is not None and not np.isfinite(F_target):
        raise ValueError(f"F_target must be finite, got F_target = {F_target!r}")
    max_iter, time_limit = check_budget(max_iter, time_limit, DEFAULT_MAX_ITER)

    rec = Recorder(name, problem, max_iter=max_iter, time_limit=time_limit, log_every=log_every,
                   callback=callback, columns=("alpha", "t", "opt_norm", "inner"), verbose=verbose,
                   progress=progress)
    t0 = _default_step(problem, name) if step is None else step
    t = t0
    scale = problem_scale(problem)
    tol_d2 = (tol * scale) ** 2  # the code's test ||D||^2 / t^2 < tol_d2, relative to S
    vech = _VechIndex(r)
    G = problem.grad(X)
    F = problem.f_from_grad(X, G) + h(X)
    rec.log(0, X, F, t=t)
    if rec.out_of_time():  # the setup (L_f, the first gradient) used the whole budget
        max_iter, stop_reason = 0, "time_limit"
    else:
        stop_reason = "max_iter"
    Lam = np.zeros((r, r))
    alpha, inexact, backtracks, inner_total, inner_failed = 1.0, 0, 0, 0, 0
    tight = (5e-16, 1e-14) if not adaptive else (1e-15, 1e-13)
    opt_norm = np.nan
    it = 0
    for it in range(1, max_iter + 1):
        if alpha < ALPHA_MIN or inexact > 10:
            inner_tol = max(tight[0], min(tight[1], 1e-5 * tol_d2 * t * t))
        else:
            inner_tol = max(1e-13, min(1e-11, 1e-3 * tol_d2 * t * t))
        sub = _semismooth_newton(X, X - t * G, t, h, Lam, inner_tol, inner_iter, vech, rec.out_of_time, t)
        Lam, D = sub.Lam, sub.D
        inner_total += sub.iterations
        inner_failed += not sub.converged
        norm_d2 = float(np.sum(D * D))
        opt_norm = np.sqrt(norm_d2) / t
        if norm_d2 / (t * t) < tol_d2:
            it -= 1
            stop_reason = "tol"
            break
        alpha, backtracked = 1.0, False
        Y = polar(X + D)
        G_new = problem.grad(Y)
        F_new = problem.f_from_grad(Y, G_new) + h(Y)
        while F_new >= F - ARMIJO / t * alpha * norm_d2:
            alpha *= 0.5
            backtracked = True
            backtracks += 1
            if alpha < ALPHA_MIN:
                # The code keeps the last trial point (at 2 alpha) and counts the step as inexact.
                inexact += 1
                break
            if rec.out_of_time():  # a long line search at large n: stop at X, the last accepted point
                break
            Y = polar(X + alpha * D)
            G_new = problem.grad(Y)
            F_new = problem.f_from_grad(Y, G_new) + h(Y)
        if alpha >= ALPHA_MIN and F_new >= F - ARMIJO / t * alpha * norm_d2:
            it -= 1
            stop_reason = "time_limit"
            break
        F_before = F
        X, G, F = Y, G_new, F_new
        reason = rec.after_step(it, X, F, F_before, alpha=alpha, t=t, opt_norm=opt_norm, inner=sub.iterations,
                                stationarity=opt_norm / scale)
        if adaptive:
            t = max(t0, t / ADA_FACTOR) if backtracked else t * ADA_FACTOR
        if reason is not None:
            stop_reason = reason
            break
        if F_target is not None and F < F_target + TARGET_GAP:
            stop_reason = "F_target"
            break
    info = {"opt_norm": float(opt_norm), "t": t, "Lam": Lam, "inexact_steps": inexact, "backtracks": backtracks,
            "inner_iterations": inner_total, "inner_not_converged": inner_failed}
    return rec.result(X, it, stop_reason, F_tracked=F, info=info, stationarity=opt_norm / scale)


@one_blas_thread
def manpg_ada(problem, X0: np.ndarray, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
              callback: Callable[[Step], bool | None] | None = None, log_every: int = 1, **options) -> Result:
    """ManPG-Ada (Chen, Ma, So, Zhang 2020): ManPG with an adaptive step.

    Reference ``chenshixiang/ManPG:manpg_code_share/SPCA/manpg_orth_sparse_adap.m``: ManPG whose step t
    grows by 1.01 after a step without backtracking and shrinks to max(t0, t/1.01) after one
    with. Same options and differences as :func:`manpg` (which see); in particular the stop is
    ||D|| / (t S) < tol here, where the code only stops at F < F_ManPG + 1e-7 (``F_target``).

    Parameters
    ----------
    problem : QuadraticProblem
        As for :func:`manpg`.
    X0 : numpy.ndarray
        As for :func:`manpg`.
    max_iter : int or None
        As for :func:`manpg`.
    time_limit : float or None
        As for :func:`manpg`.
    rng : int, numpy.random.Generator or None
        As for :func:`manpg`.
    callback : callable or None
        As for :func:`manpg`.
    log_every : int
        As for :func:`manpg`.
    **options
        :func:`manpg`'s options.

    Returns
    -------
    Result
        ``solver = "manpg_ada"``.

    Raises
    ------
    TypeError
        If ``adaptive`` is passed (manpg_ada is ``manpg(adaptive=True)``).
    """
    if "adaptive" in options:
        raise TypeError("manpg_ada is manpg(adaptive=True); do not pass adaptive")
    return manpg(problem, X0, max_iter=max_iter, time_limit=time_limit, rng=rng, callback=callback,
                 log_every=log_every, adaptive=True, **options)
