"""The exact k = 2 subproblem by breakpoint search (paper, Section 2 and Appendix B).

Problem (3) with k = 2:

    min_{V in O(2)}  1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z),

with Qt 4x4 symmetric, P 2x2, Z 2xr; vec stacks columns. By Lemma 2.5,
V = rot(theta) = [[c, s], [-s, c]] or V = ref(theta) = [[-c, s], [s, c]] with
(c, s) = (cos theta, sin theta), and the objective becomes the one-dimensional problem of
Appendix B (label eq:one:dim:t; "(1-D)" in this package)

    a c + b s + cq c^2 + d c s + e s^2 + h(c x + s y).

Lemma B.1 substitutes t = tan theta on the two half circles c > 0 (sigma = +1)
and c < 0 (sigma = -1), (c, s) = sigma (1, t) / sqrt(1 + t^2); the points with
c = 0 are separate candidates. On every interval between breakpoints of h the
objective is smooth, (a' + b' t) / sqrt(1 + t^2) + (w + d t) / (1 + t^2) + const,
and its stationary points are roots of a quartic (``quartic_coefficients``).
The global minimizer is among the breakpoints, the quartic roots and c = 0
(plus V = I where h jumps); every candidate gets its exact value in closed form
from its piece.

Three implementations of this search live in the package. To learn it, read
:func:`.reference.reference_2x2` first: the paper's steps in plain loops (corrections included),
the one notebook 02 steps through. ``solve_2x2`` (here) calls the compiled sweep of :mod:`.sweep`
(the same candidates in the angle theta, one pass around each circle, with pruning and tie rules):
that is what OBCD runs. ``candidate_set`` (here, vectorized over pieces with NumPy, in the paper's
t = tan theta form) lists every candidate and serves a penalty of the user's own (its ``pieces``).
The tests hold all three to the brute force and to each other.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..penalties import Penalty, Zero, snap_zeros
from ..stiefel import BRANCHES, branch_from_cos_sin
from ..validation import as_matrix, check_symmetric
from ..block_arithmetic import coefficients_2x2, rotate_rows
from .quartic import quartic_coefficients, quartic_real_roots, stationarity_residuals
from .sweep import sweep_2x2


class TwoByTwoSolution(NamedTuple):
    """A global minimizer of problem (3) for k = 2, with its value and the new rows V Z.

    Attributes
    ----------
    V : numpy.ndarray
        (2, 2), rot(theta) or ref(theta).
    VZ : numpy.ndarray
        (2, r), the new rows, with the zeros the search aimed at exactly 0.0.
    value : float
        The objective of problem (3) at V.
    branch : str
        "rot" or "ref".
    theta : float
        The angle in [0, 2 pi).
    """

    V: np.ndarray
    VZ: np.ndarray
    value: float
    branch: str
    theta: float


def branch_coefficients(Qt: np.ndarray, P: np.ndarray, Z: np.ndarray):
    """Coefficients of eq. (1-D) for both branches (index 0: rot, 1: ref).

    a = P22 +- P11, b = P12 -+ P21, cq = (Q11 + Q44)/2 +- Q14, d = -Q12 +- Q13 -+ Q24 + Q34,
    e = (Q22 + Q33)/2 -+ Q23 (upper sign: rot), x = [+-Z(1,:), Z(2,:)], y = [Z(2,:), -+Z(1,:)];
    indices are the paper's (1-based).

    Parameters
    ----------
    Qt, P, Z : array_like
        The data of problem (3): (4, 4) symmetric, (2, 2), (2, r).

    Returns
    -------
    tuple of numpy.ndarray
        ``a, b, cq, d, e`` of shape (2,) and ``x, y`` of shape (2, 2r).
    """
    Qt, P, Z, _ = _checked(Qt, P, Z, None)
    a, b, cq, d, e = np.array(_scalar_coefficients(Qt, P)).T
    x, y = _branch_xy(Z)
    return a, b, cq, d, e, x, y


def _scalar_coefficients(Qt, P):
    """[(a, b, cq, d, e) of rot, (a, b, cq, d, e) of ref] as Python floats (``block_arithmetic.coefficients_2x2``)."""
    coef = np.empty((2, 5))
    coefficients_2x2(np.ascontiguousarray(Qt, dtype=float), np.ascontiguousarray(P, dtype=float), coef)
    return coef.tolist()


_SIGN_CACHE: dict = {}
_NO_ROWS = np.empty((2, 0))  # h = 0: the sweep needs no entries of V Z


def _branch_xy(Z):
    """x = [+-Z1, Z2] and y = [Z2, -+Z1] for (rot, ref), shape (2, 2r) each."""
    r = Z.shape[1]
    if r not in _SIGN_CACHE:
        plus, minus = np.ones(r), -np.ones(r)
        _SIGN_CACHE[r] = np.array([[np.r_[plus, plus], np.r_[minus, plus]], [np.r_[plus, minus], np.r_[plus, plus]]])
    # rows [Z1, Z2] and [Z2, Z1], signed per branch: xy[0] = x, xy[1] = y
    xy = np.concatenate((Z, Z[::-1])).reshape(2, 1, 2 * r) * _SIGN_CACHE[r]
    return xy[0], xy[1]


_SIGMA = np.array([1.0, -1.0])[None, :, None]  # axis 1 of the search arrays: sigma = +1, -1


class CandidateSet(NamedTuple):
    """The candidates of the breakpoint search, as equal-length 1-D arrays.

    Attributes
    ----------
    branch : numpy.ndarray
        0 rot, 1 ref.
    sigma : numpy.ndarray
        +1 (cos theta > 0, p(t)), -1 (cos theta < 0, the paper's p~(t)), 0 for the cos theta = 0 and
        identity candidates.
    kind : numpy.ndarray
        "break", "stationary", "cos0" or "identity".
    t : numpy.ndarray
        tan theta (NaN where cos theta = 0).
    c, s : numpy.ndarray
        cos theta and sin theta.
    value : numpy.ndarray
        The objective of problem (3) there.
    """

    branch: np.ndarray
    sigma: np.ndarray
    kind: np.ndarray
    t: np.ndarray
    c: np.ndarray
    s: np.ndarray
    value: np.ndarray


def _linear_on_arc(a, b, t):
    """(a + b t) / sqrt(1 + t^2), with its limits +-b at t = +-inf."""
    finite = np.isfinite(t)
    tf = np.where(finite, t, 0.0)
    return np.where(finite, (a + b * tf) / np.hypot(1.0, tf), np.sign(t) * b)


class _Search:
    """One breakpoint search (Lemma B.1 and Appendix B, corrected), vectorized over the pieces.

    Not what OBCD runs (that is the compiled sweep): it serves ``candidate_set`` and a Penalty of the
    user's own. To read the search, read :mod:`.reference` (the same candidates in plain loops).

    Arrays have shape (2, 2, ...): axis 0 the branch (rot, ref), axis 1 the half
    circle sigma = +1 (cos theta > 0) or -1 (cos theta < 0), on which
    p(t) = (a_s + b_s t)/rho + (W + D t)/rho^2 + E + h-part with rho = sqrt(1 + t^2), a_s = sigma a, b_s = sigma b.
    Every candidate gets its exact value in closed form from its piece; the penalty is
    evaluated entrywise only where it is not continuous (l0 and X >= 0 at breakpoints).
    """

    def __init__(self, Qt, P, Z, h: Penalty, branches: str = "both", prune: bool = True):
        self.coef = coef = _scalar_coefficients(Qt, P)
        self.x, self.y = x, y = _branch_xy(Z)
        cf = np.array(coef)[:, :, None, None]              # (2, 5, 1, 1): a, b, cq, d, e per branch
        a, b, e = cf[:, 0], cf[:, 1], cf[:, 4]             # (2, 1, 1)
        a_s, b_s = _SIGMA * a, _SIGMA * b                  # (2, 2, 1)
        quadratic = any(cq != ee or d != 0 for _, _, cq, d, ee in coef)
        self.W, self.D = cf[:, 2] - e, cf[:, 3]
        if h.symmetric:  # h(-u) = h(u): both half circles share the pieces
            xs, ys = x, y
            br, a_h, b_h, h_0 = (m[:, None, :] for m in h.pieces(x, y))
        else:
            xs = (_SIGMA * x[:, None, :]).reshape(4, -1)
            ys = (_SIGMA * y[:, None, :]).reshape(4, -1)
            br, a_h, b_h, h_0 = (m.reshape(2, 2, -1) for m in h.pieces(xs, ys))
        self.breaks = br
        n_breaks = br.shape[-1]
        a_eff, b_eff = a_s + a_h, b_s + b_h                # the linear part on each piece
        gE = h_0 + e                                       # the constant part on each piece

        # 1. breakpoints (absent ones are +inf: their NaN values are masked)
        rho = np.hypot(1.0, br)
        if h.continuous:  # the value of a piece's formula at its right end
            value = (a_eff[..., :n_breaks] + b_eff[..., :n_breaks] * br) / rho + gE[..., :n_breaks]
        else:
            hb = h.break_values(xs, ys, br.reshape(len(xs), n_breaks), a_h, b_h, h_0)
            value = (a_s + b_s * br) / rho + e + hb.reshape(br.shape)
        if quadratic:
            value = value + (self.W + self.D * br) / (rho * rho)
        self.break_value = np.where(np.isfinite(br), value, np.inf)

        # 2. cos theta = 0, s = +-1, per branch, and V = I (rot, theta = 0)
        special = np.empty(5)
        if h.continuous:  # the limits t -> +-inf of the first and last sigma = +1 pieces
            special[0:4:2] = b_eff[:, 0, -1] + gE[:, 0, -1]
            special[1:4:2] = gE[:, 0, 0] - b_eff[:, 0, 0]
        else:
            U = np.concatenate([y[:1], -y[:1], y[1:], -y[1:]])
            (_, b0, _, _, e0), (_, b1, _, _, e1) = coef
            special[:4] = np.array([e0 + b0, e0 - b0, e1 + b1, e1 - b1]) + h.row_sums(U)
        # V = I is inside a piece, so only l0 / X >= 0 need it as a candidate (and as a fallback)
        special[4] = coef[0][0] + coef[0][2] + h(x[0]) if not h.continuous else np.inf
        self.special_value = special

        # 3. stationary points of every smooth piece
        if n_breaks and a_eff.shape[-1] > 1:
            pad = np.full(br.shape[:-1] + (1,), np.inf)
            edges = np.concatenate([-pad, br, pad], axis=-1)
            lo, hi = edges[..., :-1], edges[..., 1:]       # piece l is [lo_l, hi_l]
        else:
            lo, hi = -np.inf, np.inf
        if not quadratic:
            # w = d = 0 (Qt = varsigma I): the quartic is -(a t - b)^2 (1 + t^2); on a piece the
            # minimum of (a + b t)/rho is -hypot(a, b) at t = b / a when a < 0.
            t = b_eff / a_eff
            inside = (a_eff < 0) & (lo <= t) & (t <= hi)
            self.stationary_t = t[..., None]
            self.stationary_value = np.where(inside, gE - np.hypot(a_eff, b_eff), np.inf)[..., None]
        else:
            self._quartic_candidates(a_eff, b_eff, gE, lo, hi, prune)

        if branches != "both":
            off = 1 - BRANCHES.index(branches)
            for values in (self.break_value, self.stationary_value):
                values[off] = np.inf
            self.special_value[2 * off:2 * off + 2] = np.inf
            if off == 0:
                self.special_value[-1] = np.inf
        self.special_value[np.isnan(self.special_value)] = np.inf

    def _quartic_candidates(self, a_eff, b_eff, gE, lo, hi, prune: bool) -> None:
        """Stationary points of the pieces by the quartic, skipping pieces that cannot win."""
        W, D = self.W, self.D
        shape = np.broadcast_shapes(a_eff.shape, gE.shape)
        todo = np.broadcast_to(np.isfinite(gE) & (lo <= hi), shape).copy()
        if prune:
            # Lower bound of each piece: the linear part's minimum over the piece's arc plus the
            # global minimum (w - hypot(w, d))/2 of the quadratic part; skip hopeless pieces.
            best = min(np.min(self.break_value, initial=np.inf), np.min(self.special_value))
            t_lin = b_eff / a_eff
            on_arc = (a_eff < 0) & (lo <= t_lin) & (t_lin <= hi)
            arc_min = np.where(on_arc, -np.hypot(a_eff, b_eff),
                               np.minimum(_linear_on_arc(a_eff, b_eff, lo), _linear_on_arc(a_eff, b_eff, hi)))
            todo &= arc_min + 0.5 * (W - np.hypot(W, D)) + gE < best
        t = np.full(shape + (4,), np.nan)
        if np.any(todo):
            W_t, D_t = (np.broadcast_to(m, shape)[todo] for m in (W, D))
            a_t, b_t = np.broadcast_to(a_eff, shape)[todo], np.broadcast_to(b_eff, shape)[todo]
            roots = quartic_real_roots(quartic_coefficients(a_t, b_t, W_t, D_t))
            args = (a_t[:, None], b_t[:, None], W_t[:, None], D_t[:, None])
            g, g_other = stationarity_residuals(*args, roots)
            slack = 1e-9 * sum(np.abs(v) for v in args) * (1.0 + roots * roots)
            t[todo] = np.where(np.abs(g) <= np.abs(g_other) + slack, roots, np.nan)
        lo4 = lo[..., None] if np.ndim(lo) else lo
        hi4 = hi[..., None] if np.ndim(hi) else hi
        inside = (lo4 <= t) & (t <= hi4)
        rho = np.hypot(1.0, t)
        value = ((a_eff[..., None] + b_eff[..., None] * t) / rho + (W[..., None] + D[..., None] * t) / (rho * rho)
                 + gE[..., None])
        self.stationary_t = t
        self.stationary_value = np.where(inside & np.isfinite(value), value, np.inf)

    def best(self):
        """(branch, c, s, value) of the lowest candidate."""
        bv, sv, xv = self.break_value, self.stationary_value, self.special_value
        flat = np.concatenate([bv.ravel(), sv.ravel(), xv])
        j = int(flat.argmin())
        value = float(flat[j])
        nb, ns = bv.size, sv.size
        if j >= nb + ns:
            j -= nb + ns
            if j == 4:
                return 0, 1.0, 0.0, value
            return j // 2, 0.0, 1.0 - 2.0 * (j % 2), value
        if j < nb:
            n_breaks = bv.shape[2]
            branch, sig, l = j // (2 * n_breaks), (j // n_breaks) % 2, j % n_breaks
            t = float(self.breaks[branch, sig if self.breaks.shape[1] == 2 else 0, l])
        else:
            j -= nb
            L, M = sv.shape[2], sv.shape[3]
            branch, sig = j // (2 * L * M), (j // (L * M)) % 2
            t = float(self.stationary_t.reshape(2, 2, -1)[branch, sig, j % (L * M)])
        sigma = 1.0 - 2.0 * sig
        rho = math.hypot(1.0, t)
        return branch, sigma / rho, sigma * t / rho, value

    def candidates(self) -> CandidateSet:
        breaks = np.broadcast_to(self.breaks, self.break_value.shape)
        t_s = np.broadcast_to(self.stationary_t, self.stationary_value.shape)
        parts = []
        for t_all, values in ((breaks, self.break_value), (t_s, self.stationary_value)):
            grid = np.indices(values.shape)
            keep = np.isfinite(t_all) & np.isfinite(values)
            parts.append((grid[0][keep], 1.0 - 2.0 * grid[1][keep], t_all[keep], values[keep]))
        (br_b, sig_b, t_b, v_b), (br_s, sig_s, t_st, v_s) = parts
        t = np.concatenate([t_b, t_st])
        sig = np.concatenate([sig_b, sig_s])
        rho = np.hypot(1.0, t)
        n_b, n_s = len(t_b), len(t_st)
        # cos theta = 0 (s = +-1) per branch and V = I; dropped where infeasible or not needed
        keep = np.isfinite(self.special_value)
        kinds = np.array(["break"] * n_b + ["stationary"] * n_s + (["cos0"] * 4 + ["identity"]))
        return CandidateSet(
            branch=np.concatenate([br_b, br_s, np.array([0, 0, 1, 1, 0])[keep]]).astype(int),
            sigma=np.concatenate([sig, np.zeros(keep.sum())]),
            kind=kinds[np.concatenate([np.ones(n_b + n_s, dtype=bool), keep])],
            t=np.concatenate([t, np.full(keep.sum(), np.nan)]),
            c=np.concatenate([sig / rho, np.array([0.0, 0.0, 0.0, 0.0, 1.0])[keep]]),
            s=np.concatenate([sig * t / rho, np.array([1.0, -1.0, 1.0, -1.0, 0.0])[keep]]),
            value=np.concatenate([v_b, v_s, self.special_value[keep]]))


def candidate_set(Qt, P, Z, h: Penalty | None = None, prune: bool = False) -> CandidateSet:
    """Every candidate of the breakpoint search for problem (3), k = 2, with its value.

    Stationary points outside their own piece are dropped.

    Parameters
    ----------
    Qt, P, Z : array_like
        The data of problem (3): (4, 4) symmetric, (2, 2), (2, r).
    h : Penalty, optional
        Default ``Zero()``.
    prune : bool, default False
        With False the quartic of every smooth piece is solved; the solver itself prunes pieces whose
        lower bound cannot beat the best breakpoint (same minimum).

    Returns
    -------
    CandidateSet
        The candidates.
    """
    Qt, P, Z, h = _checked(Qt, P, Z, h)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _Search(Qt, P, Z, h, prune=prune).candidates()


def _checked(Qt, P, Z, h):
    Qt = as_matrix(Qt, "Qt", (4, 4))
    check_symmetric(Qt, "Qt")
    P = as_matrix(P, "P", (2, 2))
    Z = as_matrix(Z, "Z", (2, None))
    if h is None:
        h = Zero()
    if not isinstance(h, Penalty):
        raise TypeError(f"h must be a Penalty (Zero, L0, L1, CappedL1, NonNeg), got {type(h).__name__}")
    return Qt, P, Z, h


def solve_2x2_full(Qt: np.ndarray, P: np.ndarray, Z: np.ndarray, h: Penalty | None = None,
                   branches: str = "both") -> TwoByTwoSolution:
    """Global minimizer of problem (3) for k = 2 with its value and new rows V Z.

    Parameters
    ----------
    Qt : numpy.ndarray, shape (4, 4)
        Symmetric the quadratic term on vec(V).
    P : numpy.ndarray, shape (2, 2)
        The linear term.
    Z : numpy.ndarray, shape (2, r)
        The rows X(B, :) that V multiplies.
    h : Penalty
        Default ``Zero()``.
    branches : str
        "both" (OBCD), or "rot" / "ref" to search one circle of O(2) only.

    Returns
    -------
    TwoByTwoSolution
        ``V``, ``VZ`` (with the zeros created by a breakpoint exactly 0.0), ``value``,
        ``branch`` and ``theta`` (V = rot(theta) or ref(theta)).

    Raises
    ------
    ValueError
        If ``branches`` is not "both", "rot" or "ref".
    """
    Qt, P, Z, h = _checked(Qt, P, Z, h)
    if branches not in ("both", *BRANCHES):
        raise ValueError(f"branches must be 'both', 'rot' or 'ref', got {branches!r}")
    return solve_2x2_unchecked(Qt, P, Z, h, branches)


def solve_2x2(Qt: np.ndarray, P: np.ndarray, Z: np.ndarray, h: Penalty | None = None) -> np.ndarray:
    """A global minimizer V in O(2) of 1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z) (problem (3), k = 2).

    Parameters
    ----------
    Qt : numpy.ndarray, shape (4, 4)
        Symmetric, Q + alpha I of Lemma 2.3(a); vec stacks columns.
    P : numpy.ndarray, shape (2, 2)
        The linear term of Lemma 2.3(a).
    Z : numpy.ndarray, shape (2, r)
        The rows X(B, :) that V multiplies.
    h : Penalty or None
        The penalty; None: ``Zero()``.

    Returns
    -------
    numpy.ndarray, shape (2, 2)
        V, the orthogonal rot(theta) or ref(theta). ``solve_2x2_full`` also returns
        the new rows V Z (with exact zeros), the value, the branch and theta.
    """
    return solve_2x2_full(Qt, P, Z, h).V


def _solution(branch: int, c: float, s: float, VZ: np.ndarray, value: float) -> TwoByTwoSolution:
    theta = math.atan2(s, c) % (2 * math.pi)
    return TwoByTwoSolution(branch_from_cos_sin(branch, c, s), VZ, float(value), BRANCHES[branch], theta)


def solve_2x2_unchecked(Qt, P, Z, h: Penalty, branches: str = "both") -> TwoByTwoSolution:
    """The breakpoint search without input checks (the OBCD driver and the certificates call this).

    The package's penalties go to the compiled sweep (``sweep.sweep_2x2``, chosen by ``h.sweep_kind`` so
    subclasses keep it; for h = 0 it sees no entries, so only the smooth candidates remain); a Penalty
    subclass of the user's own goes to the vectorized search over its ``pieces``.

    Parameters
    ----------
    Qt, P, Z : numpy.ndarray
        The data of problem (3), already checked: (4, 4) symmetric, (2, 2), (2, r).
    h : Penalty
        The penalty.
    branches : str, default "both"
        "both", or "rot" / "ref" to search one circle.

    Returns
    -------
    TwoByTwoSolution
        As :func:`solve_2x2_full`.
    """
    coef = _scalar_coefficients(Qt, P)
    first, last = (0, 1) if branches == "both" else (BRANCHES.index(branches),) * 2
    kind = h.sweep_kind
    if h.is_zero:
        branch, c, s, value, _ = sweep_2x2(np.array(coef), _NO_ROWS, kind, 0.0, 0.0, first, last)
        VZ = np.empty(Z.shape)
        rotate_rows(np.ascontiguousarray(Z, dtype=float), branch, c, s, VZ)
        return _solution(branch, c, s, VZ, value)
    if kind is not None:
        lam, tau = h.sweep_params()
        branch, c, s, _, VZ = sweep_2x2(np.array(coef), np.ascontiguousarray(Z), kind, lam, tau, first, last)
    else:  # a Penalty of the user's own, described by its pieces()
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            branch, c, s, _ = _Search(Qt, P, Z, h, branches).best()
        VZ = snap_zeros(branch_from_cos_sin(branch, c, s) @ Z, Z)
    # The zeros the search aimed at (crossings, ties included) are exact in VZ.
    # Report the objective of the rows actually returned (the piece formulas lose digits
    # to cancellation when |Z| >> tau, and l0 / X >= 0 jump at zeros).
    a, b, cq, d, e = coef[branch]
    value = a * c + b * s + cq * c * c + d * c * s + e * s * s + h(VZ)
    if kind is None and not h.continuous and first == 0:
        # V = I where h jumps (the sweep scores it itself): its rows are Z with the zeros to rounding
        # made exact, which can beat every candidate of the vectorized search, and a rounding tie at
        # a constraint boundary can make the rows it found worse than staying
        stay = coef[0][0] + coef[0][2]  # the smooth part at V = I; h >= 0 is added only if it can matter
        if value > stay:
            rows = snap_zeros(Z, Z)
            stay += h(rows)
            if value > stay:
                VZ, value, branch, c, s = rows, stay, 0, 1.0, 0.0
    return _solution(branch, c, s, VZ, value)
