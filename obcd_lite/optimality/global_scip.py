"""min F over St(n, r) as a nonconvex MIQCQP, solved by SCIP (PySCIPOpt): the raw search behind
``global_minimum(..., backend="scip")``.

This module builds and solves the model; :mod:`.global_search` turns SCIP's answer into a certificate
(its dual bound minus the drift of :func:`relaxation_drift`, an exactly feasible point from
:func:`feasible_from_relaxed` polished by OBCD). F = 1/2 tr(X^T C X) + <L, X> + const + h(X), D = I.

The model (the formulation is the work: without the redundant constraints and the Ky Fan floor SCIP does
not close h = 0 at (4, 2) in minutes):

* X^T X = I as r(r + 1)/2 quadratic equalities, entries in [-1, 1] ([0, 1] for X >= 0);
* h: l1 as |x| <= t with lam sum t; l0 as binaries z with -z <= x <= z and lam sum z; capped-l1
  lam min(|x|, tau) as s >= |x| - (1 - tau) b, s >= tau b with b binary; X >= 0 as bounds, with binaries
  z, x <= z and sum_j z_ij <= 1 (nonnegative orthonormal columns have disjoint supports: each row belongs
  to one column);
* valid redundant constraints, all convex: ||X (e_j +- e_k)||^2 <= 2 (column pairs, = 2 on St),
  row norms ||X^T e_i||^2 <= 1 and row pairs ||X^T (e_i +- e_l)||^2 <= 2 (from X X^T <= I);
  sum_i t_ij >= 1 (||x_j||_1 >= ||x_j||_2 = 1) for l1, sum_i z_ij >= 1 for l0 and X >= 0,
  sum_i s_ij >= tau for capped-l1 (min(|x|, tau) >= tau x^2 on [-1, 1]);
* the smooth part f in one of two models:

  - "direct": f <= phi with phi >= f(X) (nonconvex), phi >= its Ky Fan floor 1/2 sum of the r smallest
    eigenvalues of C (plus <L, X>'s least value), and the convex shifted copy
    phi >= 1/2 tr(X^T (C - mu I) X) + mu r / 2 + <L, X> + const (mu = lambda_min(C); equal on St);
  - "eigen": with C = V diag(lambda) V^T, U = V^T X (linear), rho_k = ||row k of U||^2 in [0, 1],
    sum_k rho_k = r and f = 1/2 sum_k lambda_k rho_k + <L, X> + const (linear in rho: Ky Fan is the LP
    bound); the Stiefel, row and pair constraints are stated on U;

* symmetry broken where F has it: with D = I and no L, permuting columns leaves F unchanged, and for an
  even h so does flipping a column's sign; then w^T x_1 >= w^T x_2 >= ... >= w^T x_r (>= 0 for an even h),
  w the eigenvector of the smallest eigenvalue of C; for X >= 0 instead the columns are ordered by their
  first row (z_ij <= sum_{l < i} z_l,j-1).

Scale: SCIP takes coefficients above 1e20 as infinite ("SCIP: error in input data!" for C >= 1e25 or
lam >= 1e20) and below 1e-9 as zero, and its tolerances are absolute. :func:`solve` therefore hands SCIP
F / sigma without its constant, sigma = ||C||_2 + ||L||_F + lam (:func:`scip_scaled`), and scales the
bound back: any data the package accepts (``validation.DATA_SCALE_RANGE``) gives a model with
coefficients of at most 1, and the certificate is the same for s F as for F.

Settings: one thread, SCIP's fixed default seed, no output, a node limit (deterministic) and optionally a
time limit (wall seconds; then the answer depends on the machine and its load). SCIP works in floating
point and accepts a point with |(X^T X - I)_jk| <= its feasibility tolerance: its dual bound bounds F on
that relaxed set, and it prunes by comparisons within the same tolerance. The certificate therefore
subtracts :func:`relaxation_drift`, the most F can gain across the tolerance, so that it does not rest on
which side of the tolerance a comparison fell.
"""
from __future__ import annotations

import copy
import math
from typing import NamedTuple

import numpy as np

from ..protocol import is_quadratic
from ..penalties import penalty_class, registered_name
from ..stiefel import polar

#: SCIP's feasibility tolerance (numerics/feastol), kept at its default and used in the drift bound.
FEASTOL = 1e-6


class PenaltyModel(NamedTuple):
    """How the SCIP model states one registered penalty (a row of :data:`PENALTY_MODELS`).

    Attributes
    ----------
    smooth_model : str
        The default model of the smooth part, "eigen" or "direct".
    lipschitz : bool
        h is lam-Lipschitz entry by entry (l1, capped-l1): the relaxation's drift includes lam's share.
    nonneg : bool
        h is the indicator of X >= 0: the entries' lower bound is 0 and the columns are ordered by their
        first row (in ``terms``) instead of by ``_break_symmetry``.
    terms : callable or None
        ``terms(M, X, h, lam, n, r, has_symmetry_order) -> list``: h's variables and constraints, and
        its terms of the objective (None: h = 0).
    """

    smooth_model: str
    lipschitz: bool
    nonneg: bool
    terms: object


class ScipAnswer(NamedTuple):
    """SCIP's raw answer: the dual bound (on the relaxed set), its best point (relaxed feasible, or None),
    its status, nodes and seconds, and the model used.

    Attributes
    ----------
    dual_bound : float
        SCIP's dual bound, a lower bound of F on the relaxed set.
    X : ndarray of shape (n, r) or None
        Its best point (relaxed feasible), None when it found none.
    status : str
        SCIP's status ("optimal", "nodelimit", "timelimit", ...).
    nodes : int
        Nodes of the branch-and-bound tree.
    seconds : float
        SCIP's solving time.
    model : str
        "eigen" or "direct".
    """

    dual_bound: float
    X: np.ndarray | None
    status: str
    nodes: int
    seconds: float
    model: str


def unsupported_reason(problem) -> str | None:
    """Why SCIP cannot take ``problem`` (None when it can): a quadratic f with D None (= I), h a built-in penalty.

    Parameters
    ----------
    problem : Problem
        The problem.

    Returns
    -------
    str or None
        The reason, or None.
    """
    if not is_quadratic(problem):
        return "the SCIP model needs a quadratic f (a QuadraticProblem)"
    if problem.D is not None:
        return "the SCIP model needs D = I (D is None)"
    if type(problem.h) not in MODEL_FOR:
        return f"the SCIP model knows h in {{0, l1, l0, capped-l1, X >= 0}}, not {type(problem.h).__name__}"
    return None


def scip_scaled(problem):
    """(F / sigma without its constant, sigma), sigma = ||C||_2 + ||L||_F + lam (1 for F = const): the problem
    SCIP is given, whose coefficients are at most 1 whatever the scale of F (module docstring).

    Parameters
    ----------
    problem : QuadraticProblem
        A problem :func:`unsupported_reason` accepts.

    Returns
    -------
    tuple
        ``(scaled, sigma)``: a QuadraticProblem with C / sigma, L / sigma, lam / sigma, const 0, and sigma.
    """
    from ..problems import QuadraticProblem

    h = problem.h
    lam = float(getattr(h, "lam", 0.0))
    sigma = float(np.max(np.abs(np.linalg.eigvalsh(problem.C)))) + lam
    if problem.L is not None:
        sigma += float(np.linalg.norm(problem.L))
    sigma = sigma if sigma > 0.0 else 1.0
    if hasattr(h, "lam"):  # the same penalty (its tau and the rest kept) with its weight lam / sigma
        h = copy.copy(h)
        h.lam = lam / sigma
    L = None if problem.L is None else problem.L / sigma
    return QuadraticProblem(problem.C / sigma, None, L, h), sigma


def has_symmetry(problem) -> tuple[bool, bool]:
    """(column order, column sign): F(X P) = F(X) for permutations P when D = I and no L; F(X S) = F(X)
    for S = diag(+-1) when moreover h is even.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem.

    Returns
    -------
    tuple of bool
        (column order, column sign).
    """
    order = problem.D is None and problem.L is None
    return order, order and bool(problem.h.symmetric)


def relaxation_drift(problem, r: int, eps: float = FEASTOL) -> float:
    """How much lower F can be on SCIP's relaxed set than on St(n, r), a priori.

    For X with |(X^T X - I)_jk| <= eps and its polar factor Q = X P^-1, P = (X^T X)^(1/2):
    ||P^2 - I||_F <= r eps, so f(X) - f(Q) = 1/2 <Q^T C Q, P^2 - I> >= -1/2 ||C||_2 sqrt(r) r eps;
    ||X - Q||_F = ||P - I||_F <= r eps / (1 + sqrt(1 - r eps)) (about r eps / 2) bounds the l1 /
    capped-l1 part (lam sqrt(nr) per unit of Frobenius norm) and <L, X> (||L||_F). SCIP's own tolerance
    on the objective row (phi >= f(X), |x| <= t) adds eps (1 + |F| scale) and lam n r eps.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem (D = I).
    r : int
        Columns.
    eps : float, default FEASTOL
        SCIP's feasibility tolerance.

    Returns
    -------
    float
        The drift, >= 0.

    Raises
    ------
    ValueError
        If r eps >= 1 (the bound does not hold).
    """
    if r * eps >= 1.0:
        raise ValueError(f"the feasibility tolerance eps = {eps:g} is too large for r = {r}")
    scaled, sigma = scip_scaled(problem)  # what SCIP solves: its tolerances are in these units
    return sigma * _drift(scaled, r, eps)


def _drift(problem, r: int, eps: float) -> float:
    """:func:`relaxation_drift` of the problem as SCIP is given it (scaled, without its constant)."""
    n = problem.n
    C2 = float(np.max(np.abs(np.linalg.eigvalsh(problem.C))))
    moved = r * eps / (1.0 + math.sqrt(1.0 - r * eps))
    drift = 0.5 * C2 * math.sqrt(r) * r * eps
    lam = float(getattr(problem.h, "lam", 0.0))
    if _penalty_model(problem.h).lipschitz:
        drift += lam * math.sqrt(n * r) * moved + lam * n * r * eps
    if problem.L is not None:
        drift += float(np.linalg.norm(problem.L)) * moved
    return drift + eps * (1.0 + C2 * r + abs(problem.const) + lam * n * r)


def _quad(terms):
    """Sum of expressions (PySCIPOpt's quicksum)."""
    from pyscipopt import quicksum
    return quicksum(terms)


def build_model(problem, r: int, model: str):
    """The PySCIPOpt model of min F over St(n, r) (see the module docstring); returns (model, X vars).

    Parameters
    ----------
    problem : QuadraticProblem
        A problem :func:`unsupported_reason` accepts.
    r : int
        Columns.
    model : {"eigen", "direct"}
        The model of the smooth part.

    Returns
    -------
    M : pyscipopt.Model
        The model.
    X : list of list
        The variables x_ij, X[i][j].

    Raises
    ------
    ValueError
        If ``model`` is not "eigen" or "direct".
    """
    from pyscipopt import Model
    n, C, h = problem.n, problem.C, problem.h
    nonneg = _penalty_model(h).nonneg
    lam, eigvals, V = float(getattr(h, "lam", 0.0)), *np.linalg.eigh(C)
    M = Model("stiefel")
    M.hideOutput()
    M.setParam("parallel/maxnthreads", 1)
    M.setParam("numerics/feastol", FEASTOL)
    X = [[M.addVar(f"x{i}_{j}", lb=0.0 if nonneg else -1.0, ub=1.0) for j in range(r)] for i in range(n)]
    objective = []
    # the Stiefel constraints live on U = V^T X in the eigenbasis model, on X otherwise (same Gram matrix)
    if model == "eigen":
        Y = [[M.addVar(f"u{k}_{j}", lb=-1.0, ub=1.0) for j in range(r)] for k in range(n)]
        for i in range(n):
            for j in range(r):
                M.addCons(X[i][j] == _quad(float(V[i, k]) * Y[k][j] for k in range(n)))
        rho = [M.addVar(f"rho{k}", lb=0.0, ub=1.0) for k in range(n)]
        for k in range(n):
            M.addCons(rho[k] == _quad(Y[k][j] * Y[k][j] for j in range(r)))
        M.addCons(_quad(rho) == r)
        objective += [0.5 * float(eigvals[k]) * rho[k] for k in range(n)]
        _add_row_constraints(M, X, n, r)  # X's rows too: cheap and convex
    elif model == "direct":
        Y = X
        phi = M.addVar("phi", lb=0.5 * float(np.sum(eigvals[:r])) - _linear_range(problem, r), ub=None)
        quad = _quad(0.5 * float(C[i, l]) * X[i][j] * X[l][j] for j in range(r) for i in range(n) for l in range(n))
        M.addCons(phi >= quad + _linear(problem, X, r))
        mu = float(eigvals[0])
        shifted = _quad(0.5 * float(C[i, l] - (mu if i == l else 0.0)) * X[i][j] * X[l][j]
                        for j in range(r) for i in range(n) for l in range(n))
        M.addCons(phi >= shifted + 0.5 * mu * r + _linear(problem, X, r))
        objective.append(phi)
    else:
        raise ValueError(f"model must be 'eigen' or 'direct', got {model!r}")
    if model == "eigen" and problem.L is not None:
        objective.append(_linear(problem, X, r))
    m = len(Y)
    for j in range(r):
        for k in range(j, r):
            M.addCons(_quad(Y[i][j] * Y[i][k] for i in range(m)) == (1.0 if j == k else 0.0))
            if k > j:
                for s in (1.0, -1.0):
                    M.addCons(_quad((Y[i][j] + s * Y[i][k]) * (Y[i][j] + s * Y[i][k]) for i in range(m)) <= 2.0)
    _add_row_constraints(M, Y, m, r)
    objective += _penalty_terms(M, X, h, lam, n, r, has_symmetry(problem)[0])
    _break_symmetry(M, problem, X, Y, V, model, n, r)
    M.setObjective(_quad(objective) + problem.const, "minimize")
    return M, X


def _linear(problem, X, r: int):
    L = problem.L
    return 0.0 if L is None else _quad(float(L[i, j]) * X[i][j] for i in range(problem.n) for j in range(r))


def _linear_range(problem, r: int) -> float:
    """max |<L, X>| over ||X||_F = sqrt(r): the linear term's part of the floor of phi."""
    return 0.0 if problem.L is None else float(np.linalg.norm(problem.L)) * math.sqrt(r)


def _add_row_constraints(M, Y, m: int, r: int) -> None:
    """Row norms <= 1 and row pairs ||y_i +- y_l||^2 <= 2 (from Y Y^T <= I)."""
    for i in range(m):
        M.addCons(_quad(Y[i][j] * Y[i][j] for j in range(r)) <= 1.0)
        for l in range(i + 1, m):
            for s in (1.0, -1.0):
                M.addCons(_quad((Y[i][j] + s * Y[l][j]) * (Y[i][j] + s * Y[l][j]) for j in range(r)) <= 2.0)


def _l1_terms(M, X, h, lam: float, n: int, r: int, has_symmetry_order: bool) -> list:
    """l1: |x| <= t, lam sum t, and sum_i t_ij >= 1 (||x_j||_1 >= ||x_j||_2 = 1)."""
    t = [[M.addVar(f"t{i}_{j}", lb=0.0, ub=1.0) for j in range(r)] for i in range(n)]
    for i in range(n):
        for j in range(r):
            M.addCons(t[i][j] >= X[i][j])
            M.addCons(t[i][j] >= -X[i][j])
    for j in range(r):
        M.addCons(_quad(t[i][j] for i in range(n)) >= 1.0)
        M.addCons(_quad(t[i][j] for i in range(n)) <= math.sqrt(n))
    return [lam * t[i][j] for i in range(n) for j in range(r)]


def _l0_terms(M, X, h, lam: float, n: int, r: int, has_symmetry_order: bool) -> list:
    """l0: binaries z with -z <= x <= z, lam sum z, and sum_i z_ij >= 1."""
    z = [[M.addVar(f"z{i}_{j}", vtype="B") for j in range(r)] for i in range(n)]
    for i in range(n):
        for j in range(r):
            M.addCons(X[i][j] <= z[i][j])
            M.addCons(-X[i][j] <= z[i][j])
    for j in range(r):
        M.addCons(_quad(z[i][j] for i in range(n)) >= 1.0)
    return [lam * z[i][j] for i in range(n) for j in range(r)]


def _capped_l1_terms(M, X, h, lam: float, n: int, r: int, has_symmetry_order: bool) -> list:
    """capped-l1: s >= |x| - (1 - tau) b, s >= tau b with b binary, lam sum s, and sum_i s_ij >= tau."""
    tau = min(float(h.tau), 1.0)  # |x| <= 1: a cap at tau >= 1 never binds
    s = [[M.addVar(f"s{i}_{j}", lb=0.0, ub=tau) for j in range(r)] for i in range(n)]
    for i in range(n):
        for j in range(r):
            a = M.addVar(f"a{i}_{j}", lb=0.0, ub=1.0)
            b = M.addVar(f"b{i}_{j}", vtype="B")
            M.addCons(a >= X[i][j])
            M.addCons(a >= -X[i][j])
            M.addCons(s[i][j] >= a - (1.0 - tau) * b)
            M.addCons(s[i][j] >= tau * b)
    for j in range(r):  # min(|x|, tau) >= tau x^2, so a unit column pays at least tau
        M.addCons(_quad(s[i][j] for i in range(n)) >= tau)
    return [lam * s[i][j] for i in range(n) for j in range(r)]


def _nonneg_terms(M, X, h, lam: float, n: int, r: int, has_symmetry_order: bool) -> list:
    """X >= 0: z_ij = 1 when row i may be nonzero in column j; one column per row. With column-order
    symmetry the columns are ordered by their first nonzero row (and not by :func:`_break_symmetry`)."""
    z = [[M.addVar(f"z{i}_{j}", vtype="B") for j in range(r)] for i in range(n)]
    for i in range(n):
        M.addCons(_quad(z[i]) <= 1.0)
        for j in range(r):
            M.addCons(X[i][j] <= z[i][j])
    for j in range(r):
        M.addCons(_quad(z[i][j] for i in range(n)) >= 1.0)
    if has_symmetry_order:
        # columns ordered by their first row: row i enters column j > 0 only after an earlier row
        # entered column j - 1
        for j in range(1, r):
            for i in range(n):
                M.addCons(z[i][j] <= _quad(z[l][j - 1] for l in range(i)))
    return []


#: The model of each penalty SCIP takes, keyed by its registered name (``penalties.registered_name``);
#: the smooth-part model: the eigenbasis is 3-25x faster for l1 but 4-7x slower for l0 at r = 3 (measured
#: on ``benchmarks/global_reach.py``'s instances).
PENALTY_MODELS = {
    "zero": PenaltyModel("eigen", lipschitz=False, nonneg=False, terms=None),
    "l1": PenaltyModel("eigen", lipschitz=True, nonneg=False, terms=_l1_terms),
    "nonneg": PenaltyModel("direct", lipschitz=False, nonneg=True, terms=_nonneg_terms),
    "capped_l1": PenaltyModel("eigen", lipschitz=True, nonneg=False, terms=_capped_l1_terms),
    "l0": PenaltyModel("direct", lipschitz=False, nonneg=False, terms=_l0_terms),
}
#: The smooth-part model per penalty class (the registered classes of :data:`PENALTY_MODELS`).
MODEL_FOR = {penalty_class(name): row.smooth_model for name, row in PENALTY_MODELS.items()}


def _penalty_model(h) -> PenaltyModel:
    """The row of :data:`PENALTY_MODELS` for ``h`` (a penalty :func:`unsupported_reason` accepts)."""
    row = PENALTY_MODELS.get(registered_name(h))
    if row is None:
        raise ValueError(f"the SCIP model has no row for h = {h!r}: it knows the registered penalties "
                         f"{tuple(PENALTY_MODELS)} (a subclass is not its parent)")
    return row


def _penalty_terms(M, X, h, lam: float, n: int, r: int, has_symmetry_order: bool) -> list:
    """Variables and constraints of h; returns its terms of the objective (:data:`PENALTY_MODELS`)."""
    terms = _penalty_model(h).terms
    return [] if terms is None else terms(M, X, h, lam, n, r, has_symmetry_order)


def _break_symmetry(M, problem, X, Y, V, model: str, n: int, r: int) -> None:
    """w^T x_1 >= ... >= w^T x_r (>= 0 for an even h): valid when F is invariant under column order (and
    sign); w the eigenvector of C's smallest eigenvalue (row 0 of U in the eigenbasis), ones for X >= 0."""
    order, sign = has_symmetry(problem)
    if not order or _penalty_model(problem.h).nonneg:  # X >= 0: ordered by first row in _penalty_terms
        return
    if model == "eigen":
        score = [Y[0][j] for j in range(r)]
    else:
        score = [_quad(float(V[i, 0]) * X[i][j] for i in range(n)) for j in range(r)]
    for j in range(r - 1):
        M.addCons(score[j] >= score[j + 1])
    if sign:
        M.addCons(score[r - 1] >= 0.0)


def solve(problem, r: int, *, model: str | None = None, node_limit: int = 1_000_000,
          time_limit: float | None = None, gap: float = 0.0) -> ScipAnswer:
    """Build the model of the scaled problem (:func:`scip_scaled`; ``model``: "eigen" / "direct", None: per
    penalty, :data:`MODEL_FOR`) and solve it with SCIP; ``gap``: SCIP stops once its primal - dual gap is
    below this (absolute, in F's units). The dual bound is returned in F's units (scaled back, const added).

    Parameters
    ----------
    problem : Problem
        As for :func:`build_model`.
    r : int
        As for :func:`build_model`.
    model : {"eigen", "direct"} or None, default None
        The model of the smooth part (None: :data:`MODEL_FOR`).
    node_limit : int, default 1_000_000
        SCIP's node limit.
    time_limit : float or None, default None
        SCIP's time limit in wall seconds (None: none).
    gap : float, default 0.0
        The absolute gap at which SCIP stops.

    Returns
    -------
    ScipAnswer
        SCIP's raw answer.

    Raises
    ------
    ValueError
        If SCIP cannot take the problem (:func:`unsupported_reason`).
    """
    reason = unsupported_reason(problem)
    if reason is not None:
        raise ValueError(reason)
    model = MODEL_FOR[type(problem.h)] if model is None else model
    scaled, sigma = scip_scaled(problem)  # coefficients <= 1: SCIP's infinity (1e20) and epsilons stay out of reach
    M, X = build_model(scaled, r, model)
    M.setParam("limits/nodes", int(node_limit))
    M.setParam("limits/absgap", float(gap) / sigma)
    if time_limit is not None:
        M.setParam("limits/time", float(time_limit))
    M.optimize()
    X_best = None
    if M.getNSols() > 0:
        sol = M.getBestSol()
        X_best = np.array([[sol[X[i][j]] for j in range(r)] for i in range(problem.n)])
    return ScipAnswer(sigma * float(M.getDualbound()) + problem.const, X_best, str(M.getStatus()), int(M.getNNodes()),
                      float(M.getSolvingTime()), model)


def feasible_from_relaxed(X: np.ndarray, zero_tol: float = 10 * FEASTOL) -> np.ndarray:
    """A point exactly on St(n, r) (to rounding) near SCIP's relaxed X that keeps its zeros.

    Entries with |x| <= zero_tol become 0 (a polar factor would leave tiny nonzeros, each costing lam
    under l0); then column by column, x_j restricted to its support is projected off the earlier columns
    restricted to that support (so <x_j, x_k> = 0 exactly: x_j vanishes elsewhere) and normalized.
    Falls back to the polar factor when a column would vanish.

    Parameters
    ----------
    X : ndarray, shape (n, r)
        SCIP's relaxed point.
    zero_tol : float, default 10 FEASTOL
        Entries with |x| <= zero_tol become 0.

    Returns
    -------
    ndarray, shape (n, r)
        A point of St(n, r).
    """
    Y = np.where(np.abs(X) <= zero_tol, 0.0, X)
    n, r = Y.shape
    for j in range(r):
        support = Y[:, j] != 0.0
        if j:
            B = Y[support][:, :j]
            coef = np.linalg.lstsq(B, Y[support, j], rcond=None)[0]
            Y[support, j] -= B @ coef
        norm = float(np.linalg.norm(Y[:, j]))
        if norm < 0.5 * float(np.linalg.norm(X[:, j])):  # far from X: give up the zeros
            return polar(X)
        Y[:, j] /= norm
    return Y
