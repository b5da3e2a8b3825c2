"""Block-k stationarity (Definition 3.6) and the eps-BS_k measure (Definition 4.1).

A point X is a block-k stationary point (BS_k) when, for every working set B of size k, V = I_k
is a global minimizer of the majorizer K(V; X, B) of eq. (11). The test solves each block
subproblem globally (the breakpoint search for k = 2; the SVD of Lemma 2.3(b) for k > 2, which
needs h = 0 and a scalar Q of eq. (10); for k = 3, h = 0 and the exact Q of eq. (9) the certified
branch and bound over O(3) of :func:`~obcd_lite.subproblem.global_3x3.solve_3x3`) and reports the gap
K(I; X, B) - min_V K(V; X, B) >= 0. Q = "lipschitz" is eq. (10) with the block-independent
varsigma = L_f, under which Theorem 3.8(c) holds (with Lemma C.2's block-dependent varsigma it fails).

All C(n, k) blocks are tested by default, within a budget (:data:`BLOCK_BUDGET`, in units of one k = 2
block; :func:`block_cost`): a test that would exceed it is refused before any work with a
:class:`BlockBudgetError` that states the count and the cost (C(30, 15) = 1.6e8 blocks would otherwise
run for hours and hold every block in memory). For large n, ``sample=m`` draws m distinct blocks
uniformly with ``rng`` (Remark after Theorem 3.8: "BS_k in expectation"); the report then gives
the fraction of the sample that fails and the largest gap seen, which certify "not BS_k" when a
block fails but only estimate "BS_k" when none does.

A block fails when its gap exceeds tol (|F(X)| + S), S the problem's scale L_f + ||L||_F + lam
(:func:`~obcd_lite.optimality.criticality.verdict_scale`): the verdict is the same for s F as for F.

Theorem 3.8(a) (BS_2 => critical) does not hold for every h: it holds for h = 0 and X >= 0, and
fails for l1 and l0 (see :mod:`obcd_lite.optimality.hierarchy` and notebook 05 for the witnesses).
"""
from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np

from ..protocol import is_quadratic
from ..rounding import TIE_TOL, first_maximizer
from ..subproblem import MAJORIZER_Q, block_data, solve_2x2_unchecked, solve_kxk
from ..subproblem.majorizer import majorizer_value_unchecked as majorizer_value  # block_data's own output
from ..subproblem.global_3x3 import solve_3x3
from ..validation import (UnsupportedProblemError, as_matrix, as_rng, check_count, check_nonnegative, check_problem,
                          check_stiefel)
from .criticality import verdict_scale


#: The most work one BS_k test (or one ``classify`` over all its ks) may do unasked, in units of one k = 2
#: block (the breakpoint search: 50-110 us measured at n = 30 on a 2-core machine under a load of 9, so
#: the budget is about 5-10 s there); pass ``max_cost`` to allow more, or ``sample`` to test fewer blocks.
BLOCK_BUDGET = 100_000
#: The cost of one block in units of a k = 2 block, measured with the k = 2 block at n = 30: a k > 2 block
#: with a scalar Q (one k x k SVD, Lemma 2.3(b)) about 5; a k = 3 block with the exact Q (the certified
#: branch and bound over O(3)) about 2,500 (0.27 s).
BLOCK_UNITS = {"svd": 5, "o3": 2_500}


class BlockBudgetError(ValueError):
    """A BS_k test that would examine more blocks than its budget allows (refused before any work).

    Parameters
    ----------
    message : str
        What was refused and how to proceed.
    count, cost, budget : int
        As the attributes.

    Attributes
    ----------
    count : int
        The blocks it would examine.
    cost : int
        Their cost in units of one k = 2 block (:func:`block_cost`).
    budget : int
        The budget it exceeds.
    """

    def __init__(self, message: str, count: int, cost: int, budget: int):
        super().__init__(message)
        self.count, self.cost, self.budget = count, cost, budget


def block_cost(n: int, k: int, Q: str = "exact", sample: int | None = None) -> tuple[int, int]:
    """How many blocks a BS_k test examines and what they cost, in units of one k = 2 block.

    Parameters
    ----------
    n, k : int
        The number of rows and the block size.
    Q : str, default "exact"
        The Q choice (k = 3 with "exact" is a branch and bound over O(3): :data:`BLOCK_UNITS`).
    sample : int or None
        The sample size (None: all C(n, k) blocks).

    Returns
    -------
    tuple of int
        ``(count, cost)``: min(sample, C(n, k)) blocks and their cost.
    """
    total = math.comb(n, k)
    count = total if sample is None else min(int(sample), total)
    unit = 1 if k == 2 else BLOCK_UNITS["o3" if Q == "exact" else "svd"]
    return count, count * unit


def check_block_budget(n: int, ks, Q: str, sample: int | None, max_cost) -> int:
    """Raise :class:`BlockBudgetError` when testing the block sizes ``ks`` would cost more than ``max_cost``.

    Parameters
    ----------
    n : int
        The number of rows.
    ks : iterable of int
        The block sizes (validated already).
    Q : str
        The Q choice.
    sample : int or None
        The sample size per k.
    max_cost : int
        The budget in units of one k = 2 block (a positive integer).

    Returns
    -------
    int
        The total cost, when within the budget.

    Raises
    ------
    BlockBudgetError
        When testing ``ks`` would cost more than ``max_cost``.
    """
    max_cost = check_count(max_cost, "max_cost")  # in units of one k = 2 block
    sample = check_count(sample, "sample", allow_none=True)
    costs = {k: block_cost(n, k, Q, sample) for k in ks}
    count, cost = sum(c for c, _ in costs.values()), sum(u for _, u in costs.values())
    if cost > max_cost:
        parts = ", ".join(f"k = {k}: {c:,} blocks" for k, (c, _) in costs.items())
        raise BlockBudgetError(
            f"testing {count:,} blocks ({parts}; n = {n}, Q = {Q!r}) would cost {cost:,} units of one k = 2 block "
            f"(about {cost * 1e-4:.3g} s at 0.1 ms per unit), over the budget max_cost = {max_cost:,}: test fewer "
            f"block sizes (ks), a sample of blocks (sample=m), or raise max_cost", count, cost, int(max_cost))
    return cost


class BlockReport(NamedTuple):
    """The BS_k test of X (Definition 3.6) over the blocks tested.

    Attributes
    ----------
    k, alpha, Q, tol
        The block size, the proximal parameter, the Q choice and the absolute tolerance used
        (the relative tol times |F(X)| + S, S = ``verdict_scale``).
    gaps : dict
        {B: K(I; X, B) - min_V K(V; X, B)}.
    minimizers : dict
        {B: a global minimizer V of K}.
    total : int
        C(n, k).
    sampled : bool
        Whether only a sample of the blocks was tested.
    failing : list
        The blocks with gap > the tolerance.
    largest_gap, worst_block
        The largest gap and its block (the first in lexicographic order among gaps equal to the largest
        to rounding, ``rounding.first_maximizer``).
    stationary : bool
        No tested block fails.
    """

    k: int
    alpha: float
    Q: str
    gaps: dict
    minimizers: dict
    total: int
    sampled: bool
    failing: int
    largest_gap: float
    worst_block: tuple
    tol: float
    stationary: bool

    @property
    def fraction_failing(self) -> float:
        """The share of the tested blocks whose gap exceeds the tolerance."""
        return self.failing / len(self.gaps)


def _check_block_args(problem, X, k, alpha, Q):
    X = as_matrix(X, "X")
    check_stiefel(X, "X")
    problem.check_point(X, "X")
    n = X.shape[0]
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 2 <= k <= n:
        raise ValueError(f"k must be an integer with 2 <= k <= n = {n}, got k = {k!r}")
    alpha = check_nonnegative(alpha, "alpha", strict=True)
    if Q not in MAJORIZER_Q:
        raise ValueError(f"Q must be one of {MAJORIZER_Q}, got {Q!r}")
    if Q == "exact" and not is_quadratic(problem):
        raise UnsupportedProblemError(f"Q = 'exact' (eq. (9)) needs the Hessian of a quadratic f; the "
                                      f"{type(problem).__name__} gives f and grad f only: use Q = 'scalar' (eq. (10))")
    h = problem.h
    if k > 2 and not (h.is_zero and (Q != "exact" or k == 3)):
        raise ValueError(f"k = {k} > 2 needs h = Zero() and a scalar Q (Lemma 2.3(b)), or k = 3 with h = Zero() "
                         f"(the branch and bound over O(3)); got h = {h!r}, Q = {Q!r}")
    if k == 3 and Q == "exact" and X.shape[1] < 2:
        # r = 1: K depends on V through V Z and alpha/2 ||V - I||^2 only, so its minimizers form a curve
        # up to alpha: the branch and bound cannot certify it at a useful tolerance
        raise ValueError("k = 3 with Q = 'exact' needs r >= 2 (with r = 1 the minimizers are not isolated), got r = 1")
    return X, int(k), alpha


def sample_blocks(n: int, k: int, sample: int | None, rng=None) -> tuple[list[tuple], bool]:
    """The working sets to test: all C(n, k), or ``sample`` distinct ones drawn uniformly.

    Parameters
    ----------
    n, k : int
        The number of rows and the block size.
    sample : int or None
        None (or >= C(n, k)): every block.
    rng : int or numpy.random.Generator, optional
        The draw.

    Returns
    -------
    tuple
        ``(blocks, sampled)``: a list of sorted index tuples and whether it is a sample.
    """
    total = math.comb(n, k)
    sample = check_count(sample, "sample", allow_none=True)
    if sample is None or sample >= total:
        return list(itertools.combinations(range(n), k)), False
    rng = as_rng(rng)
    if 2 * sample >= total:  # dense: pick among all
        every = list(itertools.combinations(range(n), k))
        return [every[i] for i in np.sort(rng.choice(total, size=sample, replace=False))], True
    chosen: set = set()
    while len(chosen) < sample:
        chosen.add(tuple(int(i) for i in np.sort(rng.choice(n, size=k, replace=False))))
    return sorted(chosen), True


def block_report(problem, X, k: int = 2, *, alpha: float = 1e-5, Q: str = "exact", tol: float = 1e-10,
                 sample: int | None = None, rng=None, max_cost: int = BLOCK_BUDGET) -> BlockReport:
    """Test X for BS_k (Definition 3.6): solve every (or a sample of the) block subproblem(s) globally.

    Parameters
    ----------
    problem : obcd_lite.protocol.Problem
        The problem (Q = "exact" needs a quadratic f).
    X : numpy.ndarray
        (n, r), a point on St(n, r).
    k : int, default 2
        The block size (k > 2 needs h = 0 and a scalar Q (an SVD) or k = 3 (a branch and bound over O(3))).
    alpha : float, default 1e-5
        The proximal parameter of eq. (11) (the BS_k set depends on it).
    Q : str, default "exact"
        "exact" (eq. (9)), "scalar" (eq. (10), Lemma C.2's varsigma) or "lipschitz" (varsigma = L_f).
    tol : float, default 1e-10
        A block fails when its gap exceeds tol (|F(X)| + S), S = L_f + ||L||_F + lam
        (:func:`~obcd_lite.optimality.criticality.verdict_scale`): scale-invariant.
    sample : int, optional
        Test this many blocks drawn uniformly (:func:`sample_blocks`); None tests all C(n, k).
    rng : int or numpy.random.Generator, optional
        The draw of the sample.
    max_cost : int, default BLOCK_BUDGET
        The budget in units of one k = 2 block (:func:`block_cost`: C(n, k) blocks, or ``sample``, times
        1 for k = 2, 5 for a k > 2 SVD, 2,500 for the O(3) branch and bound).

    Returns
    -------
    BlockReport
        The gaps, the minimizers and the verdict.

    Raises
    ------
    BlockBudgetError
        Before any work, when the blocks would cost more than ``max_cost``.
    RuntimeError
        If the O(3) search for a block does not certify within its budget.
    """
    X, k, alpha = _check_block_args(problem, X, k, alpha, Q)
    tol = check_nonnegative(tol, "tol")
    check_block_budget(X.shape[0], (k,), Q, sample, max_cost)
    blocks, sampled = sample_blocks(X.shape[0], k, sample, rng)
    h = problem.h
    G = problem.grad(X)
    gaps, minimizers = {}, {}
    scale = abs(problem.F(X)) + verdict_scale(problem, G)  # scales with F: the same verdict for s F
    abs_tol = tol * scale
    for B in blocks:
        Qt, P, Z = block_data(problem, X, G, list(B), alpha, Q)
        stay = majorizer_value(Qt, P, np.eye(k), Z, h)
        if k == 2:
            sol = solve_2x2_unchecked(Qt, P, Z, h)
            V, best = sol.V, sol.value
        elif Q == "exact":  # k = 3, h = 0: certified to a quarter of the tolerance
            sol = solve_3x3(Qt, P, tol=max(0.25 * abs_tol, 1e-13))
            if not sol.certified:
                raise RuntimeError(f"the O(3) search for block {B} did not certify within its budget "
                                   f"(gap {sol.value - sol.lower_bound:.3g})")
            V, best = sol.V, sol.value
        else:
            V = solve_kxk(P)
            best = majorizer_value(Qt, P, V, V @ Z, h)
        if best >= stay:  # I itself is a minimizer: report it (the distance of Definition 4.1 is 0)
            V, best = np.eye(k), stay
        gaps[B], minimizers[B] = stay - best, V
    # The tie rule (rounding.first_maximizer): gaps equal to rounding (e.g. every gap of a BS_k point,
    # ~1e-16) go to the first block in lexicographic order, never to whichever compares higher on this CPU.
    worst = blocks[first_maximizer([gaps[B] for B in blocks], TIE_TOL * scale)]
    failing = sum(g > abs_tol for g in gaps.values())
    return BlockReport(k, alpha, Q, gaps, minimizers, math.comb(X.shape[0], k), sampled, failing,
                       float(gaps[worst]), worst, abs_tol, failing == 0)


def block_gaps(problem, X, k: int = 2, *, alpha: float = 1e-5, Q: str = "exact", sample: int | None = None,
               rng=None) -> dict:
    """K(I; X, B) - min_V K(V; X, B) for every working set B of size k (or a sample).

    Every gap is >= 0 up to rounding; all are 0 exactly when X is a BS_k point (Definition 3.6).

    Parameters
    ----------
    problem : Problem
        As for :func:`block_report`.
    X : numpy.ndarray
        As for :func:`block_report`.
    k : int
        As for :func:`block_report`.
    alpha : float
        As for :func:`block_report`.
    Q : str
        As for :func:`block_report`.
    sample : int or None
        As for :func:`block_report`.
    rng : int, numpy.random.Generator or None
        As for :func:`block_report`.

    Returns
    -------
    dict
        {B: gap}.
    """
    return block_report(problem, X, k, alpha=alpha, Q=Q, sample=sample, rng=rng).gaps


def is_block_stationary(problem, X, k: int = 2, *, alpha: float = 1e-5, Q: str = "exact",
                        tol: float = 1e-10, sample: int | None = None, rng=None) -> bool:
    """Whether X is a BS_k point: every block gap <= tol (|F(X)| + S) (Definition 3.6; S as in :func:`block_report`).

    Parameters
    ----------
    problem : Problem
        As for :func:`block_report`.
    X : numpy.ndarray
        As for :func:`block_report`.
    k : int
        As for :func:`block_report`.
    alpha : float
        As for :func:`block_report`.
    Q : str
        As for :func:`block_report`.
    tol : float
        As for :func:`block_report`.
    sample : int or None
        As for :func:`block_report`.
    rng : int, numpy.random.Generator or None
        As for :func:`block_report`.

    Returns
    -------
    bool
        The verdict.
    """
    return block_report(problem, X, k, alpha=alpha, Q=Q, tol=tol, sample=sample, rng=rng).stationary


def eps_bs_measure(problem, X, k: int = 2, *, alpha: float = 1e-5, Q: str = "exact", tol: float = 1e-10,
                   sample: int | None = None, rng=None) -> float:
    """The measure of Definition 4.1: (1/C(n, k)) sum_B dist(I_k, argmin_V K(V; X, B))^2.

    X is an eps-BS_k point when this is <= eps. For each block the distance is 0 when I attains
    the minimum (gap <= tol (|F| + S), as in :func:`block_report`) and ||V* - I||_F^2 for the global minimizer V* the solver
    returns otherwise (exact when the minimizer is unique, an upper bound on a tie). With
    ``sample`` the mean runs over the sampled blocks (an unbiased estimate).

    Parameters
    ----------
    problem : Problem
        As for :func:`block_report`.
    X : numpy.ndarray
        As for :func:`block_report`.
    k : int
        As for :func:`block_report`.
    alpha : float
        As for :func:`block_report`.
    Q : str
        As for :func:`block_report`.
    tol : float
        As for :func:`block_report`.
    sample : int or None
        As for :func:`block_report`.
    rng : int, numpy.random.Generator or None
        As for :func:`block_report`.

    Returns
    -------
    float
        The measure.
    """
    report = block_report(problem, X, k, alpha=alpha, Q=Q, tol=tol, sample=sample, rng=rng)
    k = report.k
    dists = [0.0 if report.gaps[B] <= report.tol else float(np.sum((V - np.eye(k)) ** 2))
             for B, V in report.minimizers.items()]
    return float(np.mean(dists))


def riemannian_gradient_norm(problem, X) -> float:
    """||grad f(X) - X grad f(X)^T X||_F, zero exactly at the critical points of a smooth problem.

    Definition 3.4 with h = 0; :func:`~obcd_lite.optimality.criticality.riemannian_residual` is the general one.

    Parameters
    ----------
    problem : QuadraticProblem
        The problem (its ``grad``).
    X : numpy.ndarray
        (n, r), a point on St(n, r).

    Returns
    -------
    float
        The norm.

    Raises
    ------
    ValueError
        If h is not ``Zero()``.
    """
    X = as_matrix(X, "X")
    check_problem(problem, X, "X", "riemannian_gradient_norm")
    if not problem.h.is_zero:
        raise ValueError(f"riemannian_gradient_norm is for h = Zero(); got h = {problem.h!r} "
                         "(with a nonsmooth h use riemannian_residual)")
    check_stiefel(X, "X")  # the formula is the Riemannian gradient only on St(n, r)
    G = problem.grad(X)
    return float(np.linalg.norm(G - X @ G.T @ X))
