"""Where a point sits in the optimality hierarchy of Section 3, with a certificate for each level.

The paper's chain (Theorem 3.8) is critical ⊇ BS_2 ⊇ BS_3 ⊇ ... ⊇ BS_n ⊇ global. What holds:

* (b) global => BS_k, and (c) BS_{k+1} => BS_k with the exact Q of eq. (9): the quadratic term of
  K(V; X, B) is then ||X_B(V) - X||_H^2 (Lemma 2.2(a)), which does not see whether V acts on k or
  k + 1 rows. With the scalar Q of eq. (10), varsigma_B grows with the block, K gets looser, and (c)
  FAILS: for h = 0, r = 1 at an eigenvector x (eigenvalue lam) BS_k reduces to lam <= ||C_BB|| on
  every block meeting supp(x), easier for larger blocks; notebook 05 shows BS_3 points that are
  not BS_2 (a random 4 x 4 C).
* (a) BS_2 => critical holds for h = 0 and for X >= 0, and FAILS for h = l1 and h = l0. The
  proof (Appendix, eq. (necessary)) gets, for each block B, some G_B in grad f(X) + dh(X) with
  [G_B X^T - X G_B^T]_BB = 0, and then treats G_B as one G for all blocks. For h = 0, G = grad f
  is unique and the n(n-1)/2 pair conditions are the entries of G X^T - X G^T, so (a) holds. For
  X >= 0 the pair conditions give grad f proportional to each column on its support and
  grad f >= 0 on the rows outside every support, which is criticality (the free normal-cone
  entries then fit one G). For l1 and l0 the free entries of dh at a zero X_ij enter the pairs
  (i, j') for every j': each pair can pick its own value, one G cannot. Witness (n = 3, r = 2,
  l1): notebook 05 and ``teaching.hierarchy.bs2_not_critical_witness``.

:func:`classify` reports every level it can decide, so a broken inclusion is visible
(``nested`` is False then), and the strongest level attained.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..protocol import is_quadratic
from ..rounding import equals, fmt, snap_point
from ..validation import as_matrix, check_nonnegative, check_stiefel
from .block_stationarity import BLOCK_BUDGET, block_report, check_block_budget
from .criticality import Residual, critical_tolerance, verdict_scale, residual_details
from .global_search import MAX_N, GlobalMinimum, global_minimum



@dataclass(frozen=True)
class Classification:
    """The certificates of X at every level (see :func:`classify`).

    Attributes
    ----------
    F : float
        F(X).
    residual : Residual
        dist(0, d_M F(X)) with its subgradient (Definition 3.4).
    critical : bool
        The criticality verdict.
    blocks : dict
        {k: BlockReport} (Definition 3.6).
    bs : dict
        {k: bool}.
    global_min : GlobalMinimum or None
        The certified global search.
    within_gap : bool or None
        F(X) <= the certified lower bound + gap_tol S and no point with lower F known (F(X) <= its value +
        tol (|F| + S)); None when not searched (S: ``tolerances["scale"]``).
    is_global : bool or None
        True when X is within the gap and critical and BS_k for every k tested (a global minimizer is all
        of these: Theorem 3.8(b) and the first-order condition), False when a point with lower F is known
        or X fails a lower level, else None (undecided).
    eps_global : bool
        Within the gap but failing a lower level: not a global minimizer, only as good as one up to gap_tol.
    levels : dict
        {name: bool or None} in the paper's order.
    strongest : str
        The last level attained.
    nested : bool
        False when X attains a level but not one the paper puts below it (a genuine counterexample to an
        inclusion of Theorem 3.8: "global" is never attained without the levels below).
    global_note : str
        Why the global level is "not decided" for a non-quadratic f ("" otherwise).
    tolerances : dict
        The absolute tolerances every verdict used, all relative to the problem's scale S
        (:func:`~obcd_lite.optimality.criticality.verdict_scale`), so that s F gets the same verdicts
        as F: "scale" S; "critical" tol (S + ||grad f(X)||_F) (the residual's bound); "block"
        block_tol (|F| + S) (a block's gap); "value" tol (|F| + S) (F(X) against the best value found); "gap" gap_tol S (F(X) against the
        certified lower bound, and the gap the search was asked for); "alpha" the proximal parameter used.
    """

    F: float
    residual: Residual
    critical: bool
    blocks: dict
    bs: dict
    global_min: GlobalMinimum | None
    within_gap: bool | None
    is_global: bool | None
    eps_global: bool
    levels: dict
    strongest: str
    nested: bool
    global_note: str = ""
    tolerances: dict = field(default_factory=dict)

    @property
    def blocks_examined(self) -> int:
        """How many block subproblems the BS_k tests solved (over every k tested)."""
        return sum(len(rep.gaps) for rep in self.blocks.values())

    def summary(self) -> str:
        """A text report of every certificate, the same on every CPU.

        Numbers go through ``rounding.fmt``: certificates at rounding level print as ``< 1e-12``.

        Returns
        -------
        str
            The report.
        """
        lines = [f"F(X) {equals(self.F, 6)}",
                 f"critical: {self.critical}  (dist(0, d_M F(X)) {equals(self.residual.value, 2, style='e')}, "
                 f"{self.residual.free} free subgradient entries)"]
        for k, rep in self.blocks.items():
            kind = f"{len(rep.gaps)} of {rep.total} blocks (sampled)" if rep.sampled else f"all {rep.total} blocks"
            lines.append(f"BS_{k}: {self.bs[k]}  ({kind}; {rep.failing} fail; largest gap "
                         f"{fmt(rep.largest_gap, 2, style='e')} at B = {rep.worst_block}; alpha = {fmt(rep.alpha, 2, style='e', floor=None)}, Q = {rep.Q})")
        if self.global_min is None:
            lines.append(f"global: {self.global_note or 'not searched'}")
        else:
            g = self.global_min
            verdict = "False, eps-global (within the gap, but a global minimizer is critical and BS_k)" \
                if self.eps_global else self.is_global
            lines.append(f"global: {verdict}  (min F in [{fmt(g.lower_bound, 6)}, {fmt(g.value, 6)}], "
                         f"certified gap {fmt(g.gap, 2, style='e')}, {g.boxes} boxes)")
        if self.tolerances:
            t = self.tolerances
            e = {name: fmt(value, 2, style="e", floor=None) for name, value in self.tolerances.items()}
            lines.append(f"tolerances (relative to the scale S = L_f + ||L||_F + lam = {e['scale']}): "
                         f"residual <= {e['critical']}, block gap <= {e['block']}, F - lower bound <= {e['gap']}, "
                         f"F - best value <= {e['value']}")
        lines.append(f"strongest level: {self.strongest}" + ("" if self.nested else
                     "  (NOT nested: a level the paper puts below this one fails)"))
        return "\n".join(lines)


def classify(problem, X, *, alpha: float | None = None, Q: str | None = None, ks=(2,), global_search: bool = True,
             global_min: GlobalMinimum | None = None, tol: float = 1e-6, block_tol: float = 1e-13,
             gap_tol: float = 1e-3, sample: int | None = None, rng=None, zero_tol: float | None = None,
             max_cost: int = BLOCK_BUDGET) -> Classification:
    """The levels X attains: critical, BS_2, BS_3, ..., global, each with its certificate.

    Cost: the residual is one bounded least squares over nr unknowns; BS_k solves C(n, k) block
    subproblems per k in ``ks`` (the default ks = (2,): n(n - 1)/2 breakpoint searches, 435 at n = 30);
    the global level runs :func:`global_minimum` for n <= 5 (seconds; its reach is in
    docs/global_search.md). Testing every k = 2..n would be 2^n - n - 1 blocks (10^9 at n = 30), so the
    block tests together may cost at most ``max_cost`` units of one k = 2 block; more is refused before
    any work with a :class:`~obcd_lite.optimality.block_stationarity.BlockBudgetError` stating the count
    and the cost (pass ``sample`` to test a uniform sample of blocks instead).

    Parameters
    ----------
    problem : obcd_lite.protocol.Problem
        Any smooth f: Q defaults to "scalar" without the quadratic structure; the global level needs
        n <= 5 and a quadratic f or a proven Lipschitz bound, otherwise it is "not decided" (``global_note``
        says why).
    X : numpy.ndarray, shape (n, r)
        A point on St(n, r).
    alpha : float or None
        The proximal parameter of eq. (11) (the BS_k sets depend on it), absolute as given. None
        (default): 1e-5 S, S = L_f + ||L||_F + lam (``verdict_scale``), so that s F gets the BS_k sets
        of F (with a fixed alpha a tiny F would be BS_k everywhere: alpha/2 ||V - I||^2 outweighs every
        gain). The value used is in
        ``tolerances["alpha"]`` and in each ``BlockReport``.
    Q : str or None
        "exact", "scalar" or "lipschitz" (varsigma = L_f); None takes "scalar" for h = 0 (so every k can be
        tested, Lemma 2.3(b)) and "exact" otherwise (k = 2 only: the breakpoint search).
    ks : sequence of int or None
        The block sizes to test, distinct integers 2 <= k <= n; default (2,). k > 2 needs h = 0: with a
        scalar Q any k (one SVD per block, Lemma 2.3(b)), e.g. ``ks=range(2, n + 1)`` for the whole chain
        on a small n; with Q = "exact" k = 3 (a branch and bound over O(3), r >= 2).
    global_search : bool
        Run :func:`global_minimum` (n <= 5 only) unless ``global_min`` is given.
    global_min : GlobalMinimum or None
        A :class:`GlobalMinimum` already computed for this problem (reused, not recomputed).
    tol : float
        Criticality tolerance: the residual must be <= tol (S + ||grad f(X)||_F), S = L_f + ||L||_F + lam
        (:func:`~obcd_lite.optimality.criticality.verdict_scale`; the residual is first order). Every
        tolerance here is relative to S, so s F gets the verdicts of F for any s > 0; the absolute values
        used are in the result's ``tolerances``.
    block_tol : float
        A block fails when its gap exceeds block_tol (|F| + S). A gap is second order in the
        distance to stationarity (about residual^2 / (2 (varsigma + alpha))) and a residual first
        order, so block_tol ~ tol^2 keeps the two tests consistent on approximate points; exact
        points (the witnesses) have gaps at rounding level, ~1e-15.
    gap_tol : float
        The gap the global search certifies, relative: gap_tol S (absolute) is passed to
        :func:`global_minimum` and X is within the gap when F(X) <= its lower bound + gap_tol S.
    sample : int or None
        Test a uniform sample of ``sample`` blocks per k (large n).
    rng : int, numpy.random.Generator or None
        Draws the sample.
    zero_tol : float or None
        Which entries are zeros; they are set to 0 before every test. None (default): the
        package's rounding rule (``rounding.zero_mask``, |X_ij| <= 32 eps ||X[:, j]||); 0: exact zeros
        only (X judged as given); a positive number: |X_ij| <= zero_tol (a proximal method leaves zeros
        at 1e-16 .. 1e-10).
    max_cost : int
        The budget of the block tests in units of one k = 2 block (default
        :data:`~obcd_lite.optimality.block_stationarity.BLOCK_BUDGET` = 100,000, about 5-10 s measured;
        a k > 2 SVD block counts 5, an O(3) branch-and-bound block 2,500).

    Returns
    -------
    Classification
        Every certificate and the levels X attains.
    """
    X = as_matrix(X, "X")
    check_stiefel(X, "X")
    problem.check_point(X, "X")
    tol = check_nonnegative(tol, "tol")
    X = snap_point(X, zero_tol)  # every level is judged at the snapped point
    n, r = X.shape
    h = problem.h
    if Q is None:
        Q = "scalar" if h.is_zero or not is_quadratic(problem) else "exact"
    ks = _check_ks(ks, n)
    check_block_budget(n, ks, Q, sample, max_cost)  # refused before any work
    residual = residual_details(problem, X, zero_tol=0)  # X is snapped already
    F = float(problem.F(X))
    # every tolerance scales with F (s F: residuals, gaps and S times s), so the verdicts are scale-free
    G = problem.grad(X)
    scale = verdict_scale(problem, G)
    tolerances = {"scale": scale, "critical": critical_tolerance(problem, G, tol),
                  "block": block_tol * (abs(F) + scale), "value": tol * (abs(F) + scale), "gap": gap_tol * scale}
    if alpha is None:
        alpha = 1e-5 * (scale or 1.0)  # 1.0: F constant, any alpha will do
    tolerances["alpha"] = check_nonnegative(alpha, "alpha", strict=True)
    critical = residual.value <= tolerances["critical"]
    blocks = {int(k): block_report(problem, X, k, alpha=alpha, Q=Q, tol=block_tol, sample=sample, rng=rng) for k in ks}
    bs = {k: rep.stationary for k, rep in blocks.items()}
    global_note = ""
    if global_min is None and global_search:
        global_note = global_level_note(problem, n)
        if not global_note and n <= MAX_N:
            # S = 0 only for a constant F: every point is a global minimizer, any positive tol certifies it
            global_min = global_minimum(problem, r=r, tol=tolerances["gap"] if scale > 0 else gap_tol, rng=0)
    within_gap = is_global = None
    if global_min is not None:
        # as good as any point found, within the certified gap; a better point known: certified not global
        above_best = F > global_min.value + tolerances["value"]
        within_gap = not above_best and F <= global_min.lower_bound + tolerances["gap"]
        if not within_gap and above_best:
            is_global = False
        elif within_gap:
            is_global = critical and all(bs.values())  # a global minimizer is critical and BS_k (Theorem 3.8(b))
    eps_global = bool(within_gap) and not is_global
    levels = {"critical": critical, **{f"BS{k}": v for k, v in bs.items()}, "global": is_global}
    names = list(levels)
    attained = [name for name in names if levels[name]]
    strongest = attained[-1] if attained else "none"
    nested = all(levels[name] for name in names[:names.index(strongest)]) if attained else True
    return Classification(F, residual, critical, blocks, bs, global_min, within_gap, is_global, eps_global, levels,
                          strongest, nested, global_note, tolerances)


def _check_ks(ks, n: int) -> tuple:
    """``ks`` as a tuple of distinct ints in [2, n], or a TypeError/ValueError naming the bad value."""
    if isinstance(ks, (str, bytes)) or not hasattr(ks, "__iter__"):
        raise TypeError(f"ks must be a sequence of block sizes (e.g. ks=(2,) or ks=range(2, n + 1)), got ks = {ks!r}")
    ks = tuple(ks)
    if not ks:
        raise ValueError("ks must name at least one block size, got ks = ()")
    for k in ks:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or not 2 <= k <= n:
            raise ValueError(f"ks must hold integers k with 2 <= k <= n = {n}, got k = {k!r} in ks = {ks!r}")
    if len(set(ks)) != len(ks):
        raise ValueError(f"ks must not repeat a block size, got ks = {ks!r}")
    return tuple(int(k) for k in ks)


def global_level_note(problem, n: int) -> str:
    """Why the global level of a non-quadratic ``problem`` cannot be certified at size n ("" when it can:
    n <= MAX_N and a Lipschitz bound of grad f); the level is then "not decided", never guessed. (A
    quadratic f is searched for n <= MAX_N; above, its summary says "not searched".)

    Parameters
    ----------
    problem : Problem
        The problem (any object of the problem protocol); a quadratic one always gets "".
    n : int
        The number of rows of X.

    Returns
    -------
    str
        "not decided (...)" with the reason, or "" when the global level can be certified.
    """
    if is_quadratic(problem):
        return ""
    if n > MAX_N:
        return f"not decided (the certified search reaches n <= {MAX_N}; n = {n})"
    if not problem.lipschitz_is_bound:
        return "not decided (no Lipschitz bound of grad f: give L= for a certificate)"
    return ""
