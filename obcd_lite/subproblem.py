"""The exact k = 2 subproblem by breakpoint search (paper, Section 2 and Appendix B).

Problem (3) with k = 2:

    min_{V in O(2)}  1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z),

with Qt 4x4 symmetric, P 2x2, Z 2xr; vec stacks columns. By Lemma 2.4,
V = rot(theta) = [[c, s], [-s, c]] or V = ref(theta) = [[-c, s], [s, c]] with
(c, s) = (cos theta, sin theta), and the objective becomes (eq. (14))

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
    """Coefficients of eq. (14) for both branches (index 0: rot, 1: ref).

    Returns ``a, b, cq, d, e`` of shape (2,) and ``x, y`` of shape (2, 2r), with
    a = P22 +- P11, b = P12 -+ P21, cq = (Q11 + Q44)/2 +- Q14,
    d = -Q12 +- Q13 -+ Q24 + Q34, e = (Q22 + Q33)/2 -+ Q23 (upper sign: rot),
    x = [+-Z(1,:), Z(2,:)], y = [Z(2,:), -+Z(1,:)]; indices are the paper's (1-based).
    """
    sg = np.array([1.0, -1.0])
    a = P[1, 1] + sg * P[0, 0]
    b = P[0, 1] - sg * P[1, 0]
    cq = 0.5 * (Qt[0, 0] + Qt[3, 3]) + sg * Qt[0, 3]
    d = -Qt[0, 1] + sg * Qt[0, 2] - sg * Qt[1, 3] + Qt[2, 3]
    e = 0.5 * (Qt[1, 1] + Qt[2, 2]) - sg * Qt[1, 2]
    z1, z2 = Z[0], Z[1]
    x = np.stack([np.concatenate([z1, z2]), np.concatenate([-z1, z2])])
    y = np.stack([np.concatenate([z2, -z1]), np.concatenate([z2, z1])])
    return a, b, cq, d, e, x, y


def quartic_coefficients(a, b, w, d):
    """[c4, c3, c2, c1, c0] of the squared stationarity equation of p(t) (Appendix B).

    p'(t) = 0  <=>  (b - a t) sqrt(1 + t^2) = -(d (1 + t^2) - 2 t (w + d t)); squaring gives
    c4 = d^2 - a^2, c3 = 4dw + 2ab, c2 = 4w^2 - 2d^2 - a^2 - b^2, c1 = 2ab - 4dw, c0 = d^2 - b^2.
    Broadcasts over its arguments; the last axis of the result indexes the coefficient.
    """
    a, b, w, d = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, w, d)))
    return np.stack([d * d - a * a, 4 * d * w + 2 * a * b, 4 * w * w - 2 * d * d - a * a - b * b,
                     2 * a * b - 4 * d * w, d * d - b * b], axis=-1)


def quartic_real_parts(coeffs: np.ndarray) -> np.ndarray:
    """Real parts of the four roots of each quartic in ``coeffs`` (shape (..., 5)).

    Every real root is returned (complex ones contribute their real parts, which are
    harmless extra candidates). When |c0| > |c4| the reversed polynomial in s = 1/t is
    solved instead, so a vanishing leading coefficient (a root at t = infinity, i.e.
    cos theta = 0) never divides by zero. Roots at infinity come back as NaN.
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
    monic = cf[:, 1:] / lead[:, None]
    comp = np.zeros((cf.shape[0], 4, 4))
    comp[:, 0, :] = -monic
    comp[:, 1, 0] = comp[:, 2, 1] = comp[:, 3, 2] = 1.0
    roots = np.linalg.eigvals(comp).real
    with np.errstate(divide="ignore"):
        roots = np.where(flip[:, None], np.where(roots != 0, 1.0 / roots, np.nan), roots)
    return roots.reshape(*shape, 4)


# Rows of the search: (branch, sigma) = (rot, +), (rot, -), (ref, +), (ref, -).
_ROW_BRANCH = np.array([0, 0, 1, 1])
_ROW_SIGMA = np.array([1.0, -1.0, 1.0, -1.0])
_KINDS = ("break", "stationary", "cos0", "identity")


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


class _Search:
    """One breakpoint search; the fields are what the notebooks display."""

    def __init__(self, Qt, P, Z, h: Penalty, branches: str = "both", prune: bool = True):
        self.Z, self.h = Z, h
        a, b, cq, d, e, x, y = branch_coefficients(Qt, P, Z)
        self.x, self.y = x, y
        w = cq - e
        sig = _ROW_SIGMA
        # Row-wise data of p(t) = (A + B t)/rho + (W + D t)/rho^2 + E + h-part, rho = sqrt(1+t^2).
        self.A, self.B = sig * a[_ROW_BRANCH], sig * b[_ROW_BRANCH]
        self.W, self.D, self.E = w[_ROW_BRANCH], d[_ROW_BRANCH], e[_ROW_BRANCH]
        if h.symmetric:  # h(-u) = h(u): the sigma = -1 rows share the pieces of sigma = +1
            pieces = h.pieces(x, y)
            self.breaks, self.alpha, self.beta, self.gamma = (m[_ROW_BRANCH] for m in pieces)
            xs, ys = x[_ROW_BRANCH], y[_ROW_BRANCH]
        else:
            xs, ys = sig[:, None] * x[_ROW_BRANCH], sig[:, None] * y[_ROW_BRANCH]
            self.breaks, self.alpha, self.beta, self.gamma = h.pieces(xs, ys)
        masked = np.zeros(4, dtype=bool) if branches == "both" else (_ROW_BRANCH != _BRANCHES.index(branches))

        # 1. breakpoints
        br = self.breaks
        finite = np.isfinite(br)
        self.break_value = np.where(finite & ~masked[:, None],
                                    self._smooth(br) + h.break_values(xs, ys, br, self.alpha, self.beta, self.gamma),
                                    np.inf)
        # 2. cos theta = 0 (s = +-1) on each branch, and V = I (rot, theta = 0)
        special_U = np.stack([y[0], -y[0], y[1], -y[1], x[0]])
        self.special_branch = np.array([0, 0, 1, 1, 0])
        self.special_c = np.array([0.0, 0.0, 0.0, 0.0, 1.0])
        self.special_s = np.array([1.0, -1.0, 1.0, -1.0, 0.0])
        self.special_value = (b[self.special_branch] * self.special_s + e[self.special_branch] * self.special_s**2
                              + np.append(np.zeros(4), a[0] + cq[0]) + h.row_sums(special_U))
        if branches != "both":
            self.special_value[self.special_branch != _BRANCHES.index(branches)] = np.inf
        self.special_value[np.isnan(self.special_value)] = np.inf
        # 3. stationary points of every smooth piece
        a_eff = self.A[:, None] + self.alpha
        b_eff = self.B[:, None] + self.beta
        if not (np.any(w) or np.any(d)):
            # w = d = 0 (Qt = varsigma I): the quartic is -(a t - b)^2 (1 + t^2), root t = b / a.
            t = (b_eff / a_eff)[:, :, None]
        else:
            t = np.full(a_eff.shape + (4,), np.nan)
            todo = np.ones(a_eff.shape, dtype=bool)
            if prune:
                # On a piece, (a + b t)/rho >= -hypot(a, b) and (w + d t)/rho^2 >= (w - hypot(w, d))/2,
                # so pieces whose bound cannot beat the best value so far need no quartic.
                best = min(np.min(self.break_value, initial=np.inf), np.min(self.special_value))
                bound = (-np.hypot(a_eff, b_eff) + (0.5 * (self.W - np.hypot(self.W, self.D)) + self.E)[:, None]
                         + self.gamma)
                todo = bound < best
            todo &= ~masked[:, None] & np.isfinite(self.gamma)
            if np.any(todo):
                rows = np.nonzero(todo)[0]
                t[todo] = quartic_real_parts(quartic_coefficients(a_eff[todo], b_eff[todo], self.W[rows], self.D[rows]))
        self.stationary_t = t
        L = self.alpha.shape[1]
        if L == 1:
            inside = np.ones(t.shape, dtype=bool)
        else:
            lo = np.concatenate([np.full((4, 1), -np.inf), br], axis=1)[:, :, None]
            hi = np.concatenate([br, np.full((4, 1), np.inf)], axis=1)[:, :, None]
            inside = (lo <= t) & (t <= hi)
        rho = np.hypot(1.0, t)
        value = (self._smooth(t) + (self.alpha[:, :, None] + self.beta[:, :, None] * t) / rho
                 + self.gamma[:, :, None])
        self.stationary_value = np.where(inside & np.isfinite(value) & ~masked[:, None, None], value, np.inf)

    def _smooth(self, t):
        """(A + B t)/rho + (W + D t)/rho^2 + E for every row (t has the rows on axis 0)."""
        rho = np.hypot(1.0, t)
        shape = (4,) + (1,) * (t.ndim - 1)
        A, B, W, D, E = (v.reshape(shape) for v in (self.A, self.B, self.W, self.D, self.E))
        return (A + B * t) / rho + (W + D * t) / (rho * rho) + E

    def best(self):
        """(branch, c, s) of the lowest candidate."""
        groups = (self.break_value, self.stationary_value, self.special_value)
        mins = [np.min(g) if g.size else np.inf for g in groups]
        g = int(np.argmin(mins))
        if g == 2:
            j = int(np.argmin(self.special_value))
            return self.special_branch[j], self.special_c[j], self.special_s[j]
        idx = np.unravel_index(np.argmin(groups[g]), groups[g].shape)
        row = idx[0]
        t = self.breaks[idx] if g == 0 else self.stationary_t[idx]
        rho = np.hypot(1.0, t)
        sig = _ROW_SIGMA[row]
        return _ROW_BRANCH[row], sig / rho, sig * t / rho

    def candidates(self) -> CandidateSet:
        rows_b = np.broadcast_to(np.arange(4)[:, None], self.breaks.shape).ravel()
        rows_s = np.broadcast_to(np.arange(4)[:, None, None], self.stationary_t.shape).ravel()
        t_b, t_s = self.breaks.ravel(), self.stationary_t.ravel()
        keep_b = np.isfinite(t_b)
        keep_s = np.isfinite(self.stationary_value.ravel())
        rows = np.concatenate([rows_b[keep_b], rows_s[keep_s]])
        t = np.concatenate([t_b[keep_b], t_s[keep_s]])
        rho = np.hypot(1.0, t)
        sig = _ROW_SIGMA[rows]
        n_b, n_s, n_x = keep_b.sum(), keep_s.sum(), len(self.special_c)
        return CandidateSet(
            branch=np.concatenate([_ROW_BRANCH[rows], self.special_branch]),
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


def _objective(Qt, P, V, VZ, h: Penalty) -> float:
    """Problem (3) evaluated directly from V."""
    v = V.T.reshape(-1)  # vec stacks columns
    return float(0.5 * v @ Qt @ v + np.vdot(V, P) + h(VZ))


def _solve_2x2(Qt, P, Z, h: Penalty, branches: str = "both") -> TwoByTwoSolution:
    """The breakpoint search without input checks (the OBCD driver calls this)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        search = _Search(Qt, P, Z, h, branches)
        k, c, s = search.best()
    V = np.array([[c, s], [-s, c]]) if k == 0 else np.array([[-c, s], [s, c]])
    VZ = V @ Z
    if not h.is_zero:
        # The zeros the search aimed at (crossings, ties included) become exact.
        VZ = snap_zeros(VZ, Z)
    value = _objective(Qt, P, V, VZ, h)
    if branches != "ref":
        # Safety net for rounding at the boundary of a constraint: never worse than V = I.
        stay = _objective(Qt, P, np.eye(2), Z, h)
        if value > stay:
            V, VZ, value, k, c, s = np.eye(2), Z.copy(), stay, 0, 1.0, 0.0
    return TwoByTwoSolution(V, VZ, value, _BRANCHES[k], float(np.arctan2(s, c) % (2 * np.pi)))
