"""The built-in penalties: h = 0, l0, l1, capped-l1 and the indicator of X >= 0, each registered under
its ``name`` (the one registry, :mod:`obcd_lite.penalties.base`; :data:`PENALTY_NAMES`, :func:`penalty_by_name`). Each owns its value, its pieces along a line, its
proximal map, a subgradient and its limiting subdifferential (the interface: :class:`~.base.Penalty`).
"""
from __future__ import annotations

import math

import numpy as np

from ..validation import check_nonnegative
from .base import (CAPPED_KIND, L0_KIND, L1_KIND, NONNEG_KIND, ZERO_KIND, Penalty, build_penalty, piece_midpoints,
                   registered_names, zero_at, zero_crossings)


def _constant(m: int, h_0=0.0):
    zeros = np.zeros((m, 1))
    return zeros, zeros, zeros + h_0


def _check_step(t) -> float:
    t = check_nonnegative(t, "t", strict=True)
    return t


class Zero(Penalty):
    """h = 0: the smooth problem."""

    name = "zero"
    sweep_kind = ZERO_KIND
    convex = True

    def elementwise(self, U):
        return np.zeros_like(U)

    def entry_piece(self, u, x, y):
        return 0.0, 0.0, 0.0

    def __call__(self, M) -> float:
        return 0.0

    def row_sums(self, U):
        return np.zeros(U.shape[:-1])

    def pieces(self, x, y):
        return np.empty((x.shape[0], 0)), *_constant(x.shape[0])

    def kink_levels(self) -> tuple[float, ...]:
        return ()

    def prox(self, M, t: float) -> np.ndarray:
        _check_step(t)
        return np.array(M, dtype=float)

    def prox_jacobian(self, M, t: float) -> np.ndarray:
        _check_step(t)
        return np.ones(np.shape(M))

    def subdifferential(self, M):
        zeros = np.zeros(np.shape(M))
        return zeros, zeros.copy()

    @property
    def is_zero(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "Zero()"


class L0(Penalty):
    """h(X) = lam * ||X||_0, counting entries that are exactly nonzero.

    ``prox`` is hard thresholding: it keeps M_ij where M_ij^2 > 2 lam t (a tie keeps 0).

    Parameters
    ----------
    lam : float
        The weight, lam >= 0.
    """

    name = "l0"
    continuous = False
    sweep_kind = L0_KIND
    subgradient_informative = False

    def __init__(self, lam: float):
        self.lam = check_nonnegative(lam, "lam")

    def elementwise(self, U):
        return self.lam * (U != 0)

    def entry_piece(self, u, x, y):
        return 0.0, 0.0, (self.lam if u != 0 else 0.0)  # a count: constant on the piece

    def prox(self, M, t: float) -> np.ndarray:
        M = np.asarray(M, dtype=float)
        return np.where(M * M > 2.0 * self.lam * _check_step(t), M, 0.0)

    def subdifferential(self, M):
        # Away from 0 h is locally constant; at 0 the limiting subdifferential is the whole line
        # (lam > 0; for lam = 0 it is {0}).
        M = np.asarray(M, dtype=float)
        free = (M == 0) & (self.lam > 0)
        return np.where(free, -np.inf, 0.0), np.where(free, np.inf, 0.0)

    def __call__(self, M) -> float:
        return float(self.lam * np.count_nonzero(M))

    def pieces(self, x, y):
        # Off the crossings ||x + t y||_0 counts every entry that is not identically zero, so one
        # piece covers the line and the crossings need no sorting.
        breaks = zero_crossings(x, y)
        live = np.count_nonzero((x != 0) | (y != 0), axis=1)[:, None]
        return breaks, *_constant(x.shape[0], self.lam * live)

    def break_values(self, x, y, breaks, a_h, b_h, h_0):
        # At a crossing every entry that vanishes there drops out, ties included.
        finite = np.where(np.isfinite(breaks), breaks, 0.0)
        return self.lam * (x.shape[1] - np.count_nonzero(zero_at(x, y, finite), axis=2))

    def __repr__(self) -> str:
        return f"L0(lam={self.lam:g})"


class L1(Penalty):
    """h(X) = lam * ||X||_1.

    ``prox`` is soft thresholding by lam t; its ``prox_jacobian`` is 1 where |M_ij| > lam t (soft
    thresholding moves M_ij by a constant) and 0 where it gives 0.

    Parameters
    ----------
    lam : float
        The weight, lam >= 0.
    """

    name = "l1"
    sweep_kind = L1_KIND
    convex = True

    def __init__(self, lam: float):
        self.lam = check_nonnegative(lam, "lam")

    def elementwise(self, U):
        return self.lam * np.abs(U)

    def entry_piece(self, u, x, y):
        o = math.copysign(1.0, u) if u != 0 else 0.0
        return self.lam * o * x, self.lam * o * y, 0.0    # lam |u| = lam o (x + t y) / rho

    def prox(self, M, t: float) -> np.ndarray:
        M = np.asarray(M, dtype=float)
        return np.sign(M) * np.maximum(np.abs(M) - self.lam * _check_step(t), 0.0)

    def prox_jacobian(self, M, t: float) -> np.ndarray:
        return (np.abs(np.asarray(M, dtype=float)) > self.lam * _check_step(t)).astype(float)

    def subdifferential(self, M):
        M = np.asarray(M, dtype=float)
        return np.where(M == 0, -self.lam, self.lam * np.sign(M)), np.where(M == 0, self.lam, self.lam * np.sign(M))

    def __call__(self, M) -> float:
        return self.lam * float(np.abs(M).sum())

    def pieces(self, x, y):
        m, n = x.shape
        # One array holds the crossings and the jumps of (a_h, b_h) at them, so a single
        # fancy index sorts all three: crossing t_i flips sign_i from -sign(y_i) to +sign(y_i),
        # which adds 2 sign(y_i) (x_i, y_i).
        table = np.empty((3, m, n))
        np.divide(-x, y, out=table[0], where=y != 0)
        table[0][y == 0] = np.inf
        sy = np.sign(y)
        np.multiply(2.0 * sy, (x, y), out=table[1:])
        # Row indices for any batch size m (a table of them once had only m = 1, 2, 4: KeyError for 3).
        table = table[:, np.arange(m)[:, None], np.argsort(table[0], axis=1)]
        # As t -> -inf, sign(x_i + t y_i) = -sign(y_i); entries with y_i = 0 keep sign(x_i)
        # for every t (the paper drops them, but lam |x_i| / sqrt(1+t^2) still depends on t).
        o_left = np.where(y != 0, -sy, np.sign(x))
        coef = np.empty((2, m, n + 1))
        coef[:, :, 0] = (o_left * (x, y)).sum(axis=2)
        np.cumsum(table[1:], axis=2, out=coef[:, :, 1:])
        coef[:, :, 1:] += coef[:, :, :1]
        coef *= self.lam
        return table[0], coef[0], coef[1], np.zeros_like(coef[0])

    def __repr__(self) -> str:
        return f"L1(lam={self.lam:g})"


class CappedL1(Penalty):
    """h(X) = lam * sum_ij min(|X_ij|, tau), tau > 0.

    ``prox`` takes the better of the two pieces' minimizers: soft thresholding kept inside |u| <= tau, and
    M pushed out to |u| >= tau (where h is the constant lam tau); a tie keeps the inner one.
    ``subdifferential``: inside the cap lam sign(u) ([-lam, lam] at 0), outside 0; at |u| = tau the
    limiting subdifferential is the two-point set {0, lam sign(u)} (``two_point_entries``, lam > 0), and its
    hull [min, max] is returned there (the Clarke subdifferential), so a distance computed from it is a
    lower bound.

    Parameters
    ----------
    lam : float
        The weight, lam >= 0.
    tau : float
        The cap, tau > 0.
    """

    name = "capped_l1"
    sweep_kind = CAPPED_KIND

    def __init__(self, lam: float, tau: float):
        self.lam = check_nonnegative(lam, "lam")
        self.tau = check_nonnegative(tau, "tau", strict=True)

    def elementwise(self, U):
        return self.lam * np.minimum(np.abs(U), self.tau)

    def entry_piece(self, u, x, y):
        if abs(u) >= self.tau:
            return 0.0, 0.0, self.lam * self.tau          # at the cap: a constant
        o = math.copysign(1.0, u) if u != 0 else 0.0
        return self.lam * o * x, self.lam * o * y, 0.0

    def kink_levels(self) -> tuple[float, ...]:
        return (0.0, self.tau, -self.tau)

    def prox(self, M, t: float) -> np.ndarray:
        M = np.asarray(M, dtype=float)
        t = _check_step(t)
        inner = np.sign(M) * np.minimum(np.maximum(np.abs(M) - self.lam * t, 0.0), self.tau)
        outer = np.sign(M) * np.maximum(np.abs(M), self.tau)
        outer = np.where(M == 0, self.tau, outer)

        def cost(U):
            return self.elementwise(U) + (U - M) ** 2 / (2.0 * t)

        return np.where(cost(outer) < cost(inner), outer, inner)

    def subdifferential(self, M):
        M = np.asarray(M, dtype=float)
        A = np.abs(M)
        sg = self.lam * np.sign(M)
        lo = np.where(A < self.tau, sg, 0.0)
        hi = lo.copy()
        at_zero = M == 0
        lo[at_zero], hi[at_zero] = -self.lam, self.lam
        kink = A == self.tau
        lo[kink], hi[kink] = np.minimum(sg[kink], 0.0), np.maximum(sg[kink], 0.0)
        return lo, hi

    def two_point_entries(self, M) -> np.ndarray:
        return (np.abs(np.asarray(M, dtype=float)) == self.tau) & (self.lam > 0)

    def cap_crossings(self, x, y) -> np.ndarray:
        """t with |x_i + t y_i| = tau sqrt(1 + t^2): roots of (y^2 - tau^2) t^2 + 2xy t + x^2 - tau^2.

        Parameters
        ----------
        x, y : numpy.ndarray
            (m, n_e): the vectors of eq. (1-D), one row per line u(t) = (x + t y) / sqrt(1 + t^2).

        Returns
        -------
        numpy.ndarray
            (m, 2 n_e): both roots of each entry, +inf where an entry never reaches the cap.
        """
        qa = y * y - self.tau**2
        qb = 2.0 * x * y
        qc = x * x - self.tau**2
        # B^2 - 4AC = 4 tau^2 (x^2 + y^2 - tau^2): the factored form does not cancel when |x|, |y| >> tau
        disc = 4.0 * self.tau**2 * (x * x + y * y - self.tau**2)
        real = disc >= 0
        sq = np.sqrt(np.where(real, disc, 0.0))
        q = -0.5 * (qb + np.where(qb >= 0, sq, -sq))  # stable quadratic formula
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = np.where(real & (qa != 0), q / qa, np.inf)
            t2 = np.where(real & (q != 0), qc / q, np.inf)
            t_lin = np.where((qa == 0) & (qb != 0), -qc / np.where(qb != 0, qb, 1.0), np.inf)
        t1 = np.where(qa == 0, t_lin, t1)
        return np.concatenate([t1, t2], axis=1)

    def pieces(self, x, y):
        breaks = np.sort(np.concatenate([zero_crossings(x, y), self.cap_crossings(x, y)], axis=1), axis=1)
        mid = piece_midpoints(breaks)
        # A point inside each interval tells which entries are capped there.
        u = x[:, None, :] + mid[:, :, None] * y[:, None, :]
        capped = np.abs(u) >= self.tau * np.sqrt(1.0 + mid * mid)[:, :, None]
        live = np.where(capped, 0.0, np.sign(u))
        a_h = self.lam * np.sum(live * x[:, None, :], axis=2)
        b_h = self.lam * np.sum(live * y[:, None, :], axis=2)
        h_0 = self.lam * self.tau * np.count_nonzero(capped, axis=2)
        return breaks, a_h, b_h, h_0

    def __repr__(self) -> str:
        return f"CappedL1(lam={self.lam:g}, tau={self.tau:g})"


class NonNeg(Penalty):
    """Indicator of X >= 0: 0 when every entry is >= 0, +inf otherwise.

    ``prox`` is the projection onto X >= 0, with ``prox_jacobian`` 1 where M_ij > 0 and 0 elsewhere;
    ``subdifferential`` is the normal cone, {0} where M > 0 and (-inf, 0] where M = 0, and raises
    ValueError at a negative entry (h = inf there).
    """

    name = "nonneg"
    symmetric = False
    continuous = False
    sweep_kind = NONNEG_KIND
    convex = True
    finite = False

    def elementwise(self, U):
        return np.where(U >= 0, 0.0, np.inf)

    def entry_piece(self, u, x, y):
        return 0.0, 0.0, (math.inf if u < 0 else 0.0)

    def prox(self, M, t: float) -> np.ndarray:
        _check_step(t)
        return np.maximum(np.asarray(M, dtype=float), 0.0)

    def prox_jacobian(self, M, t: float) -> np.ndarray:
        _check_step(t)
        return (np.asarray(M, dtype=float) > 0).astype(float)

    def subdifferential(self, M):
        M = np.asarray(M, dtype=float)
        if np.any(M < 0):
            bad = tuple(int(i) for i in np.argwhere(M < 0)[0])
            raise ValueError(f"h = NonNeg() is +inf at M (entry {bad} = {M[bad]:.3e} < 0): no subdifferential")
        return np.where(M == 0, -np.inf, 0.0), np.zeros_like(M)

    def pieces(self, x, y):
        # x + t y >= 0  <=>  lb <= t <= ub, lb = max_{y_i>0} -x_i/y_i, ub = min_{y_i<0} -x_i/y_i;
        # an entry with y_i = 0 and x_i < 0 makes the whole line infeasible.
        crossings = zero_crossings(x, y)
        lb = np.max(np.where(y > 0, crossings, -np.inf), axis=1)
        ub = np.min(np.where(y < 0, crossings, np.inf), axis=1)
        feasible = (lb <= ub) & np.all((y != 0) | (x >= 0), axis=1)
        breaks = np.stack([lb, ub], axis=1)
        h_0 = np.full((x.shape[0], 3), np.inf)
        h_0[feasible, 1] = 0.0
        zeros = np.zeros_like(h_0)
        return breaks, zeros, zeros, h_0

    def break_values(self, x, y, breaks, a_h, b_h, h_0):
        # Feasible where every entry is >= 0 or zero to rounding (lb may exceed ub by rounding
        # when the feasible set is the single point lb = ub).
        finite = np.where(np.isfinite(breaks), breaks, 0.0)
        u = x[:, None, :] + finite[:, :, None] * y[:, None, :]
        ok = np.all((u >= 0) | zero_at(x, y, finite), axis=2) & np.isfinite(breaks)
        ok &= np.all((y != 0) | (x >= 0), axis=1, keepdims=True)
        return np.where(ok, 0.0, np.inf)

    def __repr__(self) -> str:
        return "NonNeg()"


#: The built-in penalties' names, in the order the notebooks' controls list them (their registration order).
PENALTY_NAMES = registered_names()


def penalty_by_name(name: str, lam: float = 0.1, tau: float = 0.2) -> Penalty:
    """The penalty registered as ``name`` with weight ``lam`` (and cap ``tau`` for capped-l1).

    Parameters
    ----------
    name : str
        A registered name: "zero", "l0", "l1", "capped_l1", "nonneg" (:data:`PENALTY_NAMES`) or the
        ``name`` of a penalty class of your own.
    lam : float, default 0.1
        The weight, passed when the class's constructor takes ``lam`` (l0, l1, capped-l1).
    tau : float, default 0.2
        The cap, passed when the constructor takes ``tau`` (capped-l1).

    Returns
    -------
    Penalty
        ``Zero()``, ``L0(lam)``, ``L1(lam)``, ``CappedL1(lam, tau)``, ``NonNeg()``, or your class's.

    Raises
    ------
    ValueError
        If ``name`` is not registered (the registered names listed).
    """
    return build_penalty(name, lam=lam, tau=tau)
