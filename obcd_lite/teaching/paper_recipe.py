"""The paper's recipe for problem (3) with k = 2 (Appendix B, Lemma B.1), transcribed in NumPy.

Appendix B reduces problem (3) to eq. (1-D) on the circle, substitutes t = tan(theta) on each
half circle (p(t) for cos theta > 0, p~(t) for cos theta < 0) and minimizes over a candidate set
Theta: the breakpoints of h and the real roots of a quartic. This module follows that recipe
literally, with a switch for each of its errata (the breakpoints' sign, the dropped y_i = 0
entries, the l1 intervals), so that every erratum has a concrete instance where the paper's
recipe and the corrected one differ, and the corrected one can be checked against
``obcd_lite.subproblem.solve_2x2``. The formulas themselves are re-derived with sympy in
:mod:`obcd_lite.teaching.symbolic`; the errata are listed, each with the test that backs it, in
:data:`obcd_lite.teaching.errata.ERRATA`.

Naming as in :mod:`obcd_lite.teaching.symbolic`: ``cq`` is the paper's coefficient c, and
``sigma = +1`` is the half circle cos theta > 0 (the paper's p(t)), ``sigma = -1`` the half
circle cos theta < 0 (the paper's p~(t)).
"""
from __future__ import annotations

import numpy as np

from ..penalties import L1_KIND, NONNEG_KIND, snap_zeros
from ..subproblem import branch_coefficients, quartic_coefficients
from ..subproblem.quartic import quartic_real_roots


def circle_values(coeffs, h, c_, s_, keep=None) -> np.ndarray:
    """Eq. (1-D) at the points (c_, s_) of the circle, for one branch.

    ``coeffs = (a, b, cq, d, e, x, y)`` of one branch (scalars and 1-D x, y); ``keep``
    masks the entries of x, y that enter h (the paper drops the ones with y_i = 0).
    Entries that are zero up to rounding (``penalties.snap_zeros``: |u_i| <= ZERO_ULPS eps
    ||(x_i, y_i)||, the (c_, s_) being on the unit circle) are set to 0.0 first, since the
    recipe aims at them.

    Parameters
    ----------
    coeffs : tuple
        ``(a, b, cq, d, e, x, y)``.
    h : Penalty
        The penalty.
    c_, s_ : numpy.ndarray
        The points.
    keep : numpy.ndarray or None
        The mask.

    Returns
    -------
    numpy.ndarray
        F per point.
    """
    a_, b_, cq_, d_, e_, x, y = coeffs
    c_, s_ = np.atleast_1d(np.asarray(c_, dtype=float)), np.atleast_1d(np.asarray(s_, dtype=float))
    if keep is not None:
        x, y = x[keep], y[keep]
    U = c_[:, None] * x + s_[:, None] * y
    # (x_i, y_i) is a column of Z up to sign and order, so this is the package's one definition of an exact zero.
    U = snap_zeros(U, np.stack([x, y]))
    return a_ * c_ + b_ * s_ + cq_ * c_**2 + d_ * c_ * s_ + e_ * s_**2 + h.row_sums(U)


def real_roots(coeffs, imag_tol: float = 1e-6) -> np.ndarray:
    """The real roots of c4 t^4 + ... + c0, sorted (leading zeros allowed).

    The package's one NumPy quartic solver, ``subproblem.quartic.quartic_real_roots`` (companion
    eigenvalues; a root with |Im| <= imag_tol (1 + |root|) counts as real, so a double root that
    rounding splits into a nearly real pair is kept), with its NaN slots dropped.

    Parameters
    ----------
    coeffs : array_like
        [c4, ..., c0].
    imag_tol : float
        The relative imaginary part that counts as real.

    Returns
    -------
    numpy.ndarray
        The real roots.
    """
    roots = quartic_real_roots(np.asarray(coeffs, dtype=float), imag_tol)
    return np.sort(roots[np.isfinite(roots)])


def paper_candidates(coeffs, h, sigma: int, crossing_sign: int = 1, drop_zero_y: bool = True,
                     l1_intervals: str = "paper") -> np.ndarray:
    """The candidate set Theta in t of Appendix B's recipe for one branch and one half circle.

    Parameters
    ----------
    coeffs : tuple of float
        (a, b, cq, d, e, x, y) of one branch of eq. (1-D).
    h : Penalty
        One of ``obcd_lite.penalties`` L0, L1, NonNeg (the paper's three cases) or Zero.
    sigma : int
        +1 for p(t), -1 for p~(t) (Lemma B.1), which the paper "extends naturally".
    crossing_sign : int
        +1 takes the paper's breakpoints t = x_i / y_i, -1 the correct -x_i / y_i.
    drop_zero_y : bool
        Drop the entries with y_i = 0, as the paper says ("does not affect the minimizer").
    l1_intervals : str
        "paper" splits the line at the 4r points +-x_i/y_i; "kinks" at the true kinks.

    Returns
    -------
    numpy.ndarray
        The candidates t, sorted.
    """
    a_, b_, cq_, d_, e_, x, y = coeffs
    keep = (y != 0) if drop_zero_y else np.ones_like(y, dtype=bool)
    w_ = cq_ - e_
    # p~ is p with (a, b, x, y) -> -(a, b, x, y) (Lemma B.1).
    xs, ys = sigma * x[keep], sigma * y[keep]
    nz = ys != 0
    kinks = -xs[nz] / ys[nz]
    stationary = list(real_roots(quartic_coefficients(sigma * a_, sigma * b_, w_, d_)))
    paper_breaks = -kinks  # the paper's x_i / y_i
    cand = [] if h.sweep_kind == NONNEG_KIND else list(paper_breaks if crossing_sign > 0 else kinks)
    if h.sweep_kind == L1_KIND:
        cuts = np.sort(np.concatenate([kinks, -kinks]) if l1_intervals == "paper" else kinks)
        for mid in _interval_points(cuts):
            o = np.sign(xs + mid * ys)
            shifted_a, shifted_b = sigma * a_ + h.lam * o @ xs, sigma * b_ + h.lam * o @ ys
            stationary += list(real_roots(quartic_coefficients(shifted_a, shifted_b, w_, d_)))
    if h.sweep_kind == NONNEG_KIND:
        lb = np.max(kinks[ys[nz] > 0], initial=-np.inf)
        ub = np.min(kinks[ys[nz] < 0], initial=np.inf)
        if lb > ub:  # "the problem has no solution for this case"
            return np.empty(0)
        cand += [v for v in (lb, ub) if np.isfinite(v)] + list(np.clip(stationary, lb, ub))
        stationary = []
    return np.array(cand + stationary, dtype=float)


def _interval_points(cuts: np.ndarray) -> np.ndarray:
    """One point inside each of the len(cuts) + 1 open intervals cut by the sorted ``cuts``."""
    if cuts.size == 0:
        return np.array([0.0])
    inner = 0.5 * (cuts[:-1] + cuts[1:])
    return np.concatenate([[cuts[0] - 1.0], inner, [cuts[-1] + 1.0]])


def paper_choice(coeffs, h, **recipe) -> tuple[float, float, float]:
    """(c, s, value) that Lemma B.1 with the paper's recipe returns for one branch.

    Per half circle, t_sigma minimizes p_sigma over the recipe's Theta, where p_sigma is
    built from the entries the recipe keeps (y_i = 0 dropped when ``drop_zero_y``); then
    Lemma B.1 compares F(c, s) -- eq. (1-D) with every entry -- at [c1, s1], [c2, s2], [0, +-1].

    Parameters
    ----------
    coeffs : tuple
        ``(a, b, cq, d, e, x, y)`` of one branch.
    h : Penalty
        The penalty.
    **recipe
        The keywords of :func:`paper_candidates` after ``sigma``.

    Returns
    -------
    tuple of float
        (c, s, value).
    """
    keep = (coeffs[6] != 0) if recipe.get("drop_zero_y", True) else None
    finals_c, finals_s = [0.0, 0.0], [1.0, -1.0]
    for sigma in (1, -1):
        t_ = paper_candidates(coeffs, h, sigma, **recipe)
        if t_.size == 0:
            continue
        rho = np.hypot(1.0, t_)
        with np.errstate(invalid="ignore"):
            v = circle_values(coeffs, h, sigma / rho, sigma * t_ / rho, keep)
        j = int(np.argmin(np.where(np.isnan(v), np.inf, v)))
        finals_c.append(sigma / rho[j])
        finals_s.append(sigma * t_[j] / rho[j])
    full = circle_values(coeffs, h, finals_c, finals_s)
    j = int(np.argmin(full))
    return float(finals_c[j]), float(finals_s[j]), float(full[j])


def paper_solve(Qt, P, Z, h, **recipe) -> float:
    """Value of problem (3), k = 2, at the point the paper's recipe picks over both branches.

    ``recipe`` as in ``paper_candidates``; with crossing_sign=-1, drop_zero_y=False,
    l1_intervals="kinks" it is the corrected recipe and must match ``solve_2x2``.

    Parameters
    ----------
    Qt, P, Z : array_like
        The data of problem (3).
    h : Penalty
        The penalty.
    **recipe
        The keywords of :func:`paper_candidates` after ``sigma``.

    Returns
    -------
    float
        The value.
    """
    coeffs = branch_coefficients(np.asarray(Qt, float), np.asarray(P, float), np.asarray(Z, float))
    values = [paper_choice(tuple(m[k] for m in coeffs), h, **recipe)[2] for k in range(2)]
    return float(min(values))


def l1_sign_vectors(x, y, cuts) -> np.ndarray:
    """The sign vector o = sign(x + t y) on each open interval cut by the sorted ``cuts`` (one row each).

    Parameters
    ----------
    x, y : numpy.ndarray
        The entries u = x + t y.
    cuts : array_like
        The interval ends.

    Returns
    -------
    numpy.ndarray
        One sign vector per interval.
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    return np.array([np.sign(x + m * y) for m in _interval_points(np.sort(np.asarray(cuts, float)))])


def paper_l1_cuts(x, y) -> np.ndarray:
    """The paper's 4r interval ends z = {+x_i/y_i, -x_i/y_i} (entries with y_i = 0 dropped).

    Parameters
    ----------
    x, y : numpy.ndarray
        The entries u = x + t y.

    Returns
    -------
    numpy.ndarray
        The cuts, sorted.
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    nz = y != 0
    return np.sort(np.concatenate([x[nz] / y[nz], -x[nz] / y[nz]]))
