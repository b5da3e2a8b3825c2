"""The exact k = 2 subproblem by breakpoint search (paper, Section 2 and Appendix B).

Problem (3) with k = 2:

    min_{V in O(2)}  1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z),

with Qt 4x4 symmetric, P 2x2, Z 2xr; vec stacks columns. By Lemma 2.4,
V = rot(theta) = [[c, s], [-s, c]] or V = ref(theta) = [[-c, s], [s, c]] with
(c, s) = (cos theta, sin theta), and the objective becomes the one-dimensional problem of
Appendix B (label eq:one:dim:t; "(1-D)" in this package)

    a c + b s + cq c^2 + d c s + e s^2 + h(c x + s y).

Lemma B.1 substitutes t = tan theta on the two half circles c > 0 (sigma = +1)
and c < 0 (sigma = -1), (c, s) = sigma (1, t) / sqrt(1 + t^2); the points with
c = 0 are separate candidates. On every interval between breakpoints of h the
objective is smooth, (a' + b' t) / sqrt(1 + t^2) + (w + d t) / (1 + t^2) + const,
and its stationary points are roots of a quartic (``quartic_coefficients``).
The global minimizer is among the breakpoints, the quartic roots, c = 0 and
V = I; every candidate is scored with the exact objective.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .penalties import ZERO_ULPS, Penalty, Zero
from .validation import as_matrix, check_symmetric

_EPS = np.finfo(float).eps
_BRANCHES = ("rot", "ref")


class TwoByTwoSolution(NamedTuple):
    """A global minimizer of problem (3) for k = 2, with its value and the new rows V Z."""

    V: np.ndarray
    VZ: np.ndarray
    value: float
    branch: str
    theta: float


def branch_coefficients(Qt: np.ndarray, P: np.ndarray, Z: np.ndarray):
    """Coefficients of eq. (1-D) for both branches (index 0: rot, 1: ref).

    Returns ``a, b, cq, d, e`` of shape (2,) and ``x, y`` of shape (2, 2r), with
    a = P22 +- P11, b = P12 -+ P21, cq = (Q11 + Q44)/2 +- Q14,
    d = -Q12 +- Q13 -+ Q24 + Q34, e = (Q22 + Q33)/2 -+ Q23 (upper sign: rot),
    x = [+-Z(1,:), Z(2,:)], y = [Z(2,:), -+Z(1,:)]; indices are the paper's (1-based).
    """
    a, b, cq, d, e = np.array(_scalar_coefficients(Qt, P)).T
    x, y = _branch_xy(Z)
    return a, b, cq, d, e, x, y


def _scalar_coefficients(Qt, P):
    """[(a, b, cq, d, e) of rot, (a, b, cq, d, e) of ref] as Python floats (cheap for 2x2 data)."""
    (p11, p12), (p21, p22) = P.tolist()
    q = Qt.tolist()
    half_c, half_e = 0.5 * (q[0][0] + q[3][3]), 0.5 * (q[1][1] + q[2][2])
    d_even, d_odd = q[2][3] - q[0][1], q[0][2] - q[1][3]
    return [(p22 + p11, p12 - p21, half_c + q[0][3], d_even + d_odd, half_e - q[1][2]),
            (p22 - p11, p12 + p21, half_c - q[0][3], d_even - d_odd, half_e + q[1][2])]


_SIGN_CACHE: dict = {}


def _branch_xy(Z):
    """x = [+-Z1, Z2] and y = [Z2, -+Z1] for (rot, ref), shape (2, 2r) each."""
    r = Z.shape[1]
    if r not in _SIGN_CACHE:
        plus, minus = np.ones(r), -np.ones(r)
        _SIGN_CACHE[r] = (np.array([np.r_[plus, plus], np.r_[minus, plus]]),
                          np.array([np.r_[plus, minus], np.r_[plus, plus]]))
    sx, sy = _SIGN_CACHE[r]
    return Z.reshape(-1) * sx, Z[::-1].reshape(-1) * sy


def quartic_coefficients(a, b, w, d):
    """[c4, c3, c2, c1, c0] of the squared stationarity equation of p(t) (Appendix B).

    p'(t) = 0  <=>  (b - a t) sqrt(1 + t^2) = -(d (1 + t^2) - 2 t (w + d t)); squaring gives
    c4 = d^2 - a^2, c3 = 4dw + 2ab, c2 = 4w^2 - 2d^2 - a^2 - b^2, c1 = 2ab - 4dw, c0 = d^2 - b^2.
    Broadcasts over its arguments; the last axis of the result indexes the coefficient.
    """
    a, b, w, d = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, w, d)))
    return np.stack([d * d - a * a, 4 * d * w + 2 * a * b, 4 * w * w - 2 * d * d - a * a - b * b,
                     2 * a * b - 4 * d * w, d * d - b * b], axis=-1)


def quartic_real_roots(coeffs: np.ndarray, imag_tol: float = 1e-6) -> np.ndarray:
    """The real roots of each quartic in ``coeffs`` (shape (..., 5)); NaN fills the other slots.

    Roots are eigenvalues of the companion matrix. When |c0| > |c4| the reversed
    polynomial in s = 1/t is solved instead, so a vanishing leading coefficient (a root
    at t = infinity, i.e. cos theta = 0, covered by its own candidate) never divides by
    zero. A root counts as real when |Im t| <= imag_tol (1 + |t|): loose enough for the
    double root t = b / a that rounding splits into a pair with Im ~ sqrt(eps).
    """
    coeffs = np.asarray(coeffs, dtype=float)
    shape = coeffs.shape[:-1]
    cf = coeffs.reshape(-1, 5)
    flip = np.abs(cf[:, 0]) < np.abs(cf[:, 4])
    cf = np.where(flip[:, None], cf[:, ::-1], cf)
    scale = np.max(np.abs(cf), axis=1)
    scale = np.where(scale > 0, scale, 1.0)
    lead = cf[:, 0]
    tiny = 1e-14 * scale
    lead = np.where(np.abs(lead) < tiny, np.where(lead < 0, -tiny, tiny), lead)
    comp = np.zeros((cf.shape[0], 4, 4))
    comp[:, 0, :] = -cf[:, 1:] / lead[:, None]
    comp[:, 1, 0] = comp[:, 2, 1] = comp[:, 3, 2] = 1.0
    roots = np.linalg.eigvals(comp).astype(complex)
    with np.errstate(divide="ignore", invalid="ignore"):
        roots = np.where(flip[:, None], 1.0 / roots, roots)
    real = np.abs(roots.imag) <= imag_tol * (1.0 + np.abs(roots))
    return np.where(real & np.isfinite(roots.real), roots.real, np.nan).reshape(*shape, 4)


def stationarity_residuals(a, b, w, d, t):
    """(g, g~) at t: p'(t) (1 + t^2)^2 = g = (b - a t) rho + d (1 + t^2) - 2 t (w + d t), and g~
    with the first term's sign flipped. Squaring merges the roots of both; a root of the
    quartic is a stationary point of p when |g| <= |g~| (of the other half circle otherwise)."""
    rho = np.hypot(1.0, t)
    first = (b - a * t) * rho
    rest = d * (1.0 + t * t) - 2.0 * t * (w + d * t)
    return first + rest, rest - first


_KINDS = ("break", "stationary", "cos0", "identity")
_SIGMA = np.array([1.0, -1.0])[None, :, None]  # axis 1 of the search arrays: sigma = +1, -1


class CandidateSet(NamedTuple):
    """The candidates of the breakpoint search, as equal-length 1-D arrays.

    ``branch``: 0 rot, 1 ref; ``sigma``: +1 (cos theta > 0, p(t)), -1 (cos theta < 0,
    the paper's p~(t)), 0 for the cos theta = 0 and identity candidates; ``kind``:
    "break", "stationary", "cos0" or "identity"; ``t`` (NaN where cos theta = 0),
    ``c``, ``s``; ``value``: the objective of problem (3) there.
    """

    branch: np.ndarray
    sigma: np.ndarray
    kind: np.ndarray
    t: np.ndarray
    c: np.ndarray
    s: np.ndarray
    value: np.ndarray


def snap_zeros(VZ: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """V Z with entries zero to rounding (|.| <= ZERO_ULPS eps ||Z[:, j]||) set to exactly 0.0."""
    return np.where(np.abs(VZ) <= ZERO_ULPS * _EPS * np.hypot(Z[0], Z[1]), 0.0, VZ)


def _linear_on_arc(a, b, t):
    """(a + b t) / sqrt(1 + t^2), with its limits +-b at t = +-inf."""
    finite = np.isfinite(t)
    tf = np.where(finite, t, 0.0)
    return np.where(finite, (a + b * tf) / np.hypot(1.0, tf), np.sign(t) * b)


class _Search:
    """One breakpoint search (Lemma B.1 and Appendix B, corrected).

    Arrays have shape (2, 2, ...): axis 0 the branch (rot, ref), axis 1 the half
    circle sigma = +1 (cos theta > 0) or -1 (cos theta < 0), on which
    p(t) = (A + B t)/rho + (W + D t)/rho^2 + E + h-part with rho = sqrt(1 + t^2).
    """

    def __init__(self, Qt, P, Z, h: Penalty, branches: str = "both", prune: bool = True):
        self.h = h
        coef = _scalar_coefficients(Qt, P)
        self.coef = coef
        x, y = _branch_xy(Z)
        self.x, self.y = x, y
        rows = np.array(coef).T[:, :, None, None]  # (5, 2, 1, 1): a, b, cq, d, e per branch
        a, b, cq, d, e = rows
        self.A, self.B = _SIGMA * a, _SIGMA * b            # (2, 2, 1)
        self.W, self.D, self.E = cq - e, d, e              # (2, 1, 1)
        if h.symmetric:  # h(-u) = h(u): both half circles share the pieces
            xs, ys = x, y
            pieces = h.pieces(x, y)
            self.breaks, self.alpha, self.beta, self.gamma = (m[:, None, :] for m in pieces)
        else:
            xs = (_SIGMA * x[:, None, :]).reshape(4, -1)
            ys = (_SIGMA * y[:, None, :]).reshape(4, -1)
            self.breaks, self.alpha, self.beta, self.gamma = (m.reshape(2, 2, -1) for m in h.pieces(xs, ys))
        keep = np.array([branches != "ref", branches != "rot"])[:, None, None]  # branches searched

        # 1. breakpoints
        br = self.breaks
        a_eff = self.A + self.alpha                         # (2, 2, L)
        b_eff = self.B + self.beta
        K = br.shape[-1]
        quadratic = bool(np.any(self.W) or np.any(self.D))
        if h.continuous:
            # absent breakpoints (+inf) give NaN here and are masked below
            value = (a_eff[..., :K] + b_eff[..., :K] * br) / np.hypot(1.0, br) + self.gamma[..., :K] + self.E
            if quadratic:
                value = value + self._quadratic(br)
        else:
            hb = h.break_values(xs, ys, br.reshape(xs.shape[0], -1), *(m.reshape(xs.shape[0], -1) for m in
                                                                         (self.alpha, self.beta, self.gamma)))
            value = _linear_on_arc(self.A, self.B, br) + self.E + hb.reshape(br.shape)
            if quadratic:
                value = value + self._quadratic(br)
        self.break_value = np.where(np.isfinite(br) & keep, value, np.inf)

        # 2. cos theta = 0 (s = +-1) on each branch, and V = I (rot, theta = 0)
        self.special_branch = np.array([0, 0, 1, 1, 0])
        self.special_c = np.array([0.0, 0.0, 0.0, 0.0, 1.0])
        self.special_s = np.array([1.0, -1.0, 1.0, -1.0, 0.0])
        U = np.concatenate([y[:1], -y[:1], y[1:], -y[1:], x[:1]])
        (a0, b0, c0, _, e0), (_, b1, _, _, e1) = coef
        self.special_value = np.array([b0 + e0, e0 - b0, b1 + e1, e1 - b1, a0 + c0]) + h.row_sums(U)
        if branches != "both":
            self.special_value[self.special_branch != _BRANCHES.index(branches)] = np.inf
        self.special_value[np.isnan(self.special_value)] = np.inf

        # 3. stationary points of every smooth piece
        pad = np.full(br.shape[:-1] + (1,), np.inf)
        edges = np.concatenate([-pad, br, pad], axis=-1)
        lo, hi = edges[..., :-1], edges[..., 1:]            # piece l lies in [lo_l, hi_l]
        if a_eff.shape[-1] == 1:
            lo, hi = -pad, pad
        if not quadratic:
            # w = d = 0 (Qt = varsigma I): the quartic is -(a t - b)^2 (1 + t^2); on a piece the
            # minimum of (a + b t)/rho is -hypot(a, b) at t = b / a when a < 0.
            t = b_eff / a_eff
            inside = (a_eff < 0) & (lo <= t) & (t <= hi) & keep
            self.stationary_t = t[..., None]
            self.stationary_value = np.where(inside, self.E - np.hypot(a_eff, b_eff) + self.gamma, np.inf)[..., None]
            return
        t = np.full(a_eff.shape + (4,), np.nan)
        todo = np.broadcast_to(keep & np.isfinite(self.gamma) & (lo <= hi), a_eff.shape).copy()
        if prune:
            # Lower bound of each piece: the linear part's minimum over the piece's arc plus the
            # global minimum (w - hypot(w, d))/2 of the quadratic part; skip hopeless pieces.
            best = min(np.min(self.break_value, initial=np.inf), np.min(self.special_value))
            t_lin = b_eff / a_eff
            on_arc = (a_eff < 0) & (lo <= t_lin) & (t_lin <= hi)
            arc_min = np.where(on_arc, -np.hypot(a_eff, b_eff),
                               np.minimum(_linear_on_arc(a_eff, b_eff, lo), _linear_on_arc(a_eff, b_eff, hi)))
            bound = arc_min + 0.5 * (self.W - np.hypot(self.W, self.D)) + self.E + self.gamma
            todo &= bound < best
        if np.any(todo):
            W, D = (np.broadcast_to(m, todo.shape)[todo] for m in (self.W, self.D))
            a_t, b_t = a_eff[todo], b_eff[todo]
            roots = quartic_real_roots(quartic_coefficients(a_t, b_t, W, D))
            args = (a_t[:, None], b_t[:, None], W[:, None], D[:, None])
            g, g_other = stationarity_residuals(*args, roots)
            slack = 1e-9 * (sum(np.abs(v) for v in args)) * (1.0 + roots * roots)
            t[todo] = np.where(np.abs(g) <= np.abs(g_other) + slack, roots, np.nan)
        inside = (lo[..., None] <= t) & (t <= hi[..., None])
        value = (_linear_on_arc(a_eff[..., None], b_eff[..., None], t) + self._quadratic(t)
                 + (self.E + self.gamma)[..., None])
        self.stationary_t = t
        self.stationary_value = np.where(inside & np.isfinite(value), value, np.inf)

    def _quadratic(self, t):
        """(W + D t) / rho^2, 0 at t = +-inf."""
        extra = (1,) * (t.ndim - 3)
        W, D = self.W.reshape(self.W.shape + extra), self.D.reshape(self.D.shape + extra)
        finite = np.isfinite(t)
        tf = np.where(finite, t, 0.0)
        return np.where(finite, (W + D * tf) / (1.0 + tf * tf), 0.0)

    def best(self):
        """(branch, c, s, value) of the lowest candidate."""
        groups = (self.break_value, self.stationary_value, self.special_value)
        mins = [g.min(initial=np.inf) for g in groups]
        g = int(np.argmin(mins))
        if g == 2:
            j = int(np.argmin(self.special_value))
            return int(self.special_branch[j]), float(self.special_c[j]), float(self.special_s[j]), mins[2]
        idx = np.unravel_index(np.argmin(groups[g]), groups[g].shape)
        source = self.breaks if g == 0 else self.stationary_t
        t = float(np.broadcast_to(source, groups[g].shape)[idx])
        sig = 1.0 if idx[1] == 0 else -1.0
        rho = np.hypot(1.0, t)
        return int(idx[0]), sig / rho, sig * t / rho, mins[g]

    def candidates(self) -> CandidateSet:
        breaks = np.broadcast_to(self.breaks, self.break_value.shape)
        sig_b = np.broadcast_to(_SIGMA, breaks.shape)
        br_b = np.broadcast_to(np.arange(2)[:, None, None], breaks.shape)
        t_s = np.broadcast_to(self.stationary_t, self.stationary_value.shape)
        sig_s = np.broadcast_to(_SIGMA[..., None], t_s.shape)
        br_s = np.broadcast_to(np.arange(2)[:, None, None, None], t_s.shape)
        keep_b = np.isfinite(breaks).ravel()
        keep_s = np.isfinite(self.stationary_value).ravel()
        t = np.concatenate([breaks.ravel()[keep_b], t_s.ravel()[keep_s]])
        sig = np.concatenate([sig_b.ravel()[keep_b], sig_s.ravel()[keep_s]])
        rho = np.hypot(1.0, t)
        n_b, n_s, n_x = keep_b.sum(), keep_s.sum(), len(self.special_c)
        return CandidateSet(
            branch=np.concatenate([br_b.ravel()[keep_b], br_s.ravel()[keep_s], self.special_branch]),
            sigma=np.concatenate([sig, np.zeros(n_x)]),
            kind=np.array(["break"] * n_b + ["stationary"] * n_s + ["cos0"] * 4 + ["identity"]),
            t=np.concatenate([t, np.full(n_x, np.nan)]),
            c=np.concatenate([sig / rho, self.special_c]),
            s=np.concatenate([sig * t / rho, self.special_s]),
            value=np.concatenate([self.break_value.ravel()[keep_b], self.stationary_value.ravel()[keep_s],
                                  self.special_value]))


def candidate_set(Qt, P, Z, h: Penalty | None = None, prune: bool = False) -> CandidateSet:
    """Every candidate of the breakpoint search for problem (3), k = 2, with its value.

    With ``prune=False`` the quartic of every smooth piece is solved; the solver itself
    prunes pieces whose lower bound cannot beat the best breakpoint (same minimum).
    Stationary points outside their own piece are dropped.
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
    Qt : (4, 4) symmetric array, the quadratic term on vec(V).
    P : (2, 2) array, the linear term.
    Z : (2, r) array, the rows X(B, :) that V multiplies.
    h : Penalty, default ``Zero()``.
    branches : "both" (OBCD), or "rot" / "ref" to search one circle of O(2) only.

    Returns
    -------
    TwoByTwoSolution
        ``V``, ``VZ`` (with the zeros created by a breakpoint exactly 0.0), ``value``,
        ``branch`` and ``theta`` (V = rot(theta) or ref(theta)).
    """
    Qt, P, Z, h = _checked(Qt, P, Z, h)
    if branches not in ("both", *_BRANCHES):
        raise ValueError(f"branches must be 'both', 'rot' or 'ref', got {branches!r}")
    return _solve_2x2(Qt, P, Z, h, branches)


def solve_2x2(Qt: np.ndarray, P: np.ndarray, Z: np.ndarray, h: Penalty | None = None) -> np.ndarray:
    """A global minimizer V in O(2) of 1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z) (eq. (3), k = 2)."""
    return solve_2x2_full(Qt, P, Z, h).V


def _solve_2x2(Qt, P, Z, h: Penalty, branches: str = "both") -> TwoByTwoSolution:
    """The breakpoint search without input checks (the OBCD driver calls this)."""
    if h.is_zero and branches == "both":
        coef = _scalar_coefficients(Qt, P)
        if all(cq == e and d == 0 for _, _, cq, d, e in coef):
            return _solve_linear_2x2(coef, Z)
        return _solve_smooth_2x2(coef, Z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        search = _Search(Qt, P, Z, h, branches)
        k, c, s, _ = search.best()
    V = np.array([[c, s], [-s, c]] if k == 0 else [[-c, s], [s, c]])
    VZ = V @ Z
    a, b, cq, d, e = search.coef[k]
    value = a * c + b * s + cq * c * c + d * c * s + e * s * s
    if not h.is_zero:
        VZ = snap_zeros(VZ, Z)  # the zeros the search aimed at (crossings, ties included) become exact
        value += h(VZ)
        stay = search.special_value[-1]  # V = I
        if branches != "ref" and value > stay:  # a rounding tie at a constraint boundary: keep X
            V, VZ, value, k, c, s = np.eye(2), Z.copy(), float(stay), 0, 1.0, 0.0
    return TwoByTwoSolution(V, VZ, float(value), _BRANCHES[k], float(np.arctan2(s, c) % (2 * np.pi)))


def _solve_linear_2x2(coef, Z) -> TwoByTwoSolution:
    """h = 0 and Qt = varsigma I (Lemma 2.3(b)): min over each circle of a c + b s is -hypot(a, b)
    at (c, s) = -(a, b) / hypot(a, b); this is -polar(P) in closed form."""
    best = min(range(2), key=lambda k: coef[k][4] - math.hypot(coef[k][0], coef[k][1]))
    a, b, _, _, e = coef[best]
    norm = math.hypot(a, b)
    c, s = (-a / norm, -b / norm) if norm > 0 else (1.0, 0.0)
    V = np.array([[c, s], [-s, c]] if best == 0 else [[-c, s], [s, c]])
    return TwoByTwoSolution(V, V @ Z, e - norm, _BRANCHES[best], float(math.atan2(s, c) % (2 * math.pi)))


def _solve_smooth_2x2(coef, Z) -> TwoByTwoSolution:
    """h = 0, general Qt: no breakpoints, so the minimizer is a root of one quartic per
    (branch, sigma) or a cos theta = 0 point; each candidate is scored exactly."""
    a, b, cq, d, e = (np.repeat(v, 2) for v in np.array(coef).T)  # rows: rot+, rot-, ref+, ref-
    sigma = np.array([1.0, -1.0, 1.0, -1.0])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = quartic_real_roots(quartic_coefficients(sigma * a, sigma * b, cq - e, d))
        rho = np.hypot(1.0, t)
        c = np.concatenate([sigma[:, None] / rho, np.zeros((4, 1))], axis=1)
        s = np.concatenate([sigma[:, None] * t / rho, sigma[:, None]], axis=1)  # c = 0, s = +-1
        value = a[:, None] * c + b[:, None] * s + cq[:, None] * c * c + d[:, None] * c * s + e[:, None] * s * s
    row, j = np.unravel_index(np.argmin(np.where(np.isnan(value), np.inf, value)), value.shape)
    k, cb, sb = int(row) // 2, float(c[row, j]), float(s[row, j])
    V = np.array([[cb, sb], [-sb, cb]] if k == 0 else [[-cb, sb], [sb, cb]])
    return TwoByTwoSolution(V, V @ Z, float(value[row, j]), _BRANCHES[k], float(math.atan2(sb, cb) % (2 * math.pi)))
