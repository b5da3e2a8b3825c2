"""Coordinate-wise separable penalties h(X) = sum_ij h(X_ij) (assumption Asm-ii).

Each penalty is a callable ``h(M) -> float``. For the breakpoint search of
``solve_2x2`` each one also describes itself along a line: for
u(t) = (x + t y) / sqrt(1 + t^2), ``pieces(x, y)`` returns the breakpoints in t
and, on every interval between them, (alpha, beta, gamma) with

    sum_i h(u_i(t)) = (alpha + beta t) / sqrt(1 + t^2) + gamma,

and, where h is not continuous, ``break_values`` gives sum_i h(u_i(t)) at the
breakpoints themselves. Inputs are batched: x and y have shape (m, n_e);
breakpoints come back as an (m, K) array with absent ones at +inf (sorted
ascending unless one set of coefficients holds on the whole line), the coefficients as
(m, K + 1) arrays (interval l lies between breakpoints l - 1 and l; the first
and last columns hold as t -> -inf and t -> +inf), or as (m, 1) arrays when one
set of coefficients holds on the whole line.
"""
from __future__ import annotations

import numpy as np

from .rounding import EPS, ZERO_ULPS, column_norms, zero_mask
from .validation import check_nonnegative

# An entry of V Z counts as exactly zero when |(V Z)_ij| <= ZERO_ULPS * eps * ||Z[:, j]||: that is
# the rounding level of the product (V has unit rows), whatever the angle (the one rule: rounding.py).

# The compiled sweep's codes for the penalties it knows (``subproblem.sweep``); None: use pieces().
ZERO_KIND = 0
L1_KIND = 1
L0_KIND = 2
CAPPED_KIND = 3
NONNEG_KIND = 4


def snap_zeros(VZ: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """V Z with the entries that are zero to rounding set to exactly 0.0.

    An entry is zero to rounding when |.| <= ZERO_ULPS eps ||Z[:, j]|| (for any V with unit rows).

    Parameters
    ----------
    VZ : numpy.ndarray
        (k, r) or batched (..., k, r).
    Z : numpy.ndarray
        (k, r), the rows before the step.

    Returns
    -------
    numpy.ndarray
        VZ with its zeros exact (a new array).
    """
    return np.where(np.abs(VZ) <= ZERO_ULPS * EPS * column_norms(Z), 0.0, VZ)  # (no overflow at 1e200)


def zero_at(x: np.ndarray, y: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Which entries of u(t) = (x + t y)/sqrt(1+t^2) are zero (to rounding) at each t.

    Parameters
    ----------
    x, y : numpy.ndarray
        (m, n_e).
    t : numpy.ndarray
        (m, K).

    Returns
    -------
    numpy.ndarray
        (m, K, n_e) booleans.
    """
    size = ZERO_ULPS * EPS * np.hypot(x, y)[:, None, :] * np.hypot(1.0, t)[:, :, None]
    return np.abs(x[:, None, :] + t[:, :, None] * y[:, None, :]) <= size


class Penalty:
    """Base class: a separable penalty given by its elementwise value.

    A penalty owns everything the solvers and certificates need of it: its value, its pieces
    along a line (the breakpoint search), its code for the compiled sweep (``sweep_kind``,
    inherited by subclasses), its proximal map, a subgradient, and its limiting subdifferential
    entry by entry as an interval.
    """

    #: h(-u) == h(u) for every u; the breakpoint search then reuses its pieces.
    symmetric = True
    #: h(u / rho) is continuous in t, so a breakpoint's value is its left piece's limit.
    continuous = True
    #: The compiled sweep's code for this penalty, or None (then the search uses ``pieces``).
    sweep_kind: int | None = None
    #: h is finite everywhere (False for an indicator: a method that leaves its domain cannot use it).
    finite = True
    #: A subgradient carries information (False for l0: it is 0 wherever h is differentiable).
    subgradient_informative = True
    #: h is convex (proximal-gradient theory such as ManPG's needs it).
    convex = False

    def kink_levels(self) -> tuple[float, ...]:
        """The values u where the elementwise h is not smooth (a brute force samples them).

        Returns
        -------
        tuple of float
            (0.0,) unless a subclass says otherwise.
        """
        return (0.0,)

    def sweep_params(self) -> tuple[float, float]:
        """``(lam, tau)`` as the compiled sweep reads them.

        Returns
        -------
        tuple of float
            The weight and the cap (0.0 where the penalty has none).
        """
        return float(getattr(self, "lam", 0.0)), float(getattr(self, "tau", 0.0))

    def elementwise(self, U: np.ndarray) -> np.ndarray:
        """h entry by entry: an array of U's shape whose sum is h(U) (inf where U is infeasible).

        Parameters
        ----------
        U : numpy.ndarray
            Any shape.

        Returns
        -------
        numpy.ndarray
            The shape of U.
        """
        raise NotImplementedError

    def prox(self, M, t: float) -> np.ndarray:
        """argmin_U h(U) + ||U - M||_F^2 / (2 t), entry by entry (t > 0).

        Parameters
        ----------
        M : array_like
            The point.
        t : float
            The step, t > 0.

        Returns
        -------
        numpy.ndarray
            The proximal point, the shape of M.
        """
        raise NotImplementedError(f"{type(self).__name__} has no proximal map")

    def prox_jacobian(self, M, t: float) -> np.ndarray:
        """The diagonal of one element of the generalized (Clarke) Jacobian of ``prox(., t)`` at M.

        Entry by entry: what a semismooth Newton method on the prox needs, e.g. ManPG's.

        Parameters
        ----------
        M, t
            As for :meth:`prox`.

        Returns
        -------
        numpy.ndarray
            The diagonal, the shape of M.
        """
        raise NotImplementedError(f"{type(self).__name__} has no generalized Jacobian of its proximal map")

    def subgradient(self, M) -> np.ndarray:
        """One element of the limiting subdifferential of h at M (the one of least norm).

        Parameters
        ----------
        M : array_like
            The point (h(M) finite).

        Returns
        -------
        numpy.ndarray
            The shape of M.
        """
        lo, hi = self.subdifferential(M)
        return np.clip(0.0, lo, hi)

    def subdifferential(self, M) -> tuple[np.ndarray, np.ndarray]:
        """The limiting subdifferential of h at M, entry by entry, as intervals (infinite ends allowed).

        Parameters
        ----------
        M : array_like
            The point (h(M) finite).

        Returns
        -------
        tuple of numpy.ndarray
            ``(lo, hi)``, the shape of M: (dh(M))_ij = [lo_ij, hi_ij].

        Raises
        ------
        NotImplementedError
            In the base class (an indicator such as NonNeg raises ValueError where h(M) = inf).
        """
        raise NotImplementedError(f"{type(self).__name__} has no subdifferential")

    def two_point_entries(self, M) -> np.ndarray:
        """Where the limiting subdifferential is the two-point set {lo, hi} of ``subdifferential``.

        Rather than the interval between (a concave kink, as capped-l1 at |u| = tau); False elsewhere.

        Parameters
        ----------
        M : array_like
            The point.

        Returns
        -------
        numpy.ndarray
            Booleans, the shape of M.
        """
        return np.zeros(np.shape(M), dtype=bool)

    def __call__(self, M) -> float:
        return float(self.elementwise(np.asarray(M, dtype=float)).sum())

    def row_sums(self, U: np.ndarray) -> np.ndarray:
        """Penalty of each row of ``U`` summed over the last axis.

        Parameters
        ----------
        U : numpy.ndarray
            (..., n_e).

        Returns
        -------
        numpy.ndarray
            (...,).
        """
        return np.sum(self.elementwise(U), axis=-1)

    def pieces(self, x: np.ndarray, y: np.ndarray):
        """h along u(t) = (x + t y) / sqrt(1 + t^2), piece by piece (the breakpoint search).

        Parameters
        ----------
        x, y : numpy.ndarray
            (m, n_e): the vectors of eq. (1-D), one row per line u(t) = (x + t y) / sqrt(1 + t^2).

        Returns
        -------
        tuple of numpy.ndarray
            ``(breaks, alpha, beta, gamma)``: the sorted breakpoints t (m, K; +inf where absent) and per piece
            (m, K + 1) the coefficients of h(u(t)) = (alpha + beta t) / sqrt(1 + t^2) + gamma (the glossary's
            a_h, b_h, h_0).
        """
        raise NotImplementedError

    def break_values(self, x, y, breaks, alpha, beta, gamma) -> np.ndarray:
        """sum_i h(u_i(t)) at every breakpoint t.

        Needed only when h is not continuous (for a continuous h the search takes the limit of the piece's
        formula).

        Parameters
        ----------
        x, y : numpy.ndarray
            (m, n_e), as for :meth:`pieces`.
        breaks, alpha, beta, gamma : numpy.ndarray
            What :meth:`pieces` returned.

        Returns
        -------
        numpy.ndarray
            (m, K).
        """
        raise NotImplementedError

    @property
    def is_zero(self) -> bool:
        """Whether h is identically 0 (only `Zero`): the solvers then skip the nonsmooth part."""
        return False


def zero_crossings(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """t with x_i + t y_i = 0, +inf where y_i = 0 (the paper writes x_i / y_i: the sign is off).

    Parameters
    ----------
    x, y : numpy.ndarray
        (m, n_e): the vectors of eq. (1-D), one row per line u(t) = (x + t y) / sqrt(1 + t^2).

    Returns
    -------
    numpy.ndarray
        The shape of x.
    """
    return np.divide(-x, y, out=np.full_like(x, np.inf), where=y != 0)


def _constant(m: int, gamma=0.0):
    zeros = np.zeros((m, 1))
    return zeros, zeros, zeros + gamma


class Zero(Penalty):
    """h = 0: the smooth problem."""

    sweep_kind = ZERO_KIND
    convex = True

    def elementwise(self, U):
        return np.zeros_like(U)

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

    continuous = False
    sweep_kind = L0_KIND
    subgradient_informative = False

    def __init__(self, lam: float):
        self.lam = check_nonnegative(lam, "lam")

    def elementwise(self, U):
        return self.lam * (U != 0)

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

    def break_values(self, x, y, breaks, alpha, beta, gamma):
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

    sweep_kind = L1_KIND
    convex = True

    def __init__(self, lam: float):
        self.lam = check_nonnegative(lam, "lam")

    def elementwise(self, U):
        return self.lam * np.abs(U)

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
        # One array holds the crossings and the jumps of (alpha, beta) at them, so a single
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

    sweep_kind = CAPPED_KIND

    def __init__(self, lam: float, tau: float):
        self.lam = check_nonnegative(lam, "lam")
        self.tau = check_nonnegative(tau, "tau", strict=True)

    def elementwise(self, U):
        return self.lam * np.minimum(np.abs(U), self.tau)

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
        A = y * y - self.tau**2
        B = 2.0 * x * y
        C = x * x - self.tau**2
        # B^2 - 4AC = 4 tau^2 (x^2 + y^2 - tau^2): the factored form does not cancel when |x|, |y| >> tau
        disc = 4.0 * self.tau**2 * (x * x + y * y - self.tau**2)
        real = disc >= 0
        sq = np.sqrt(np.where(real, disc, 0.0))
        q = -0.5 * (B + np.where(B >= 0, sq, -sq))  # stable quadratic formula
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = np.where(real & (A != 0), q / A, np.inf)
            t2 = np.where(real & (q != 0), C / q, np.inf)
            t_lin = np.where((A == 0) & (B != 0), -C / np.where(B != 0, B, 1.0), np.inf)
        t1 = np.where(A == 0, t_lin, t1)
        return np.concatenate([t1, t2], axis=1)

    def pieces(self, x, y):
        breaks = np.sort(np.concatenate([zero_crossings(x, y), self.cap_crossings(x, y)], axis=1), axis=1)
        m = x.shape[0]
        # Pieces past the last breakpoint (absent ones are +inf) repeat the last real piece, so
        # that column -1 always describes t -> +inf.
        last = np.max(np.where(np.isfinite(breaks), breaks, -np.inf), axis=1, keepdims=True)
        lo = np.concatenate([np.full((m, 1), -np.inf), np.where(np.isfinite(breaks), breaks, last)], axis=1)
        hi = np.concatenate([breaks, np.full((m, 1), np.inf)], axis=1)
        with np.errstate(invalid="ignore"):
            mid = np.where(np.isfinite(lo) & np.isfinite(hi), 0.5 * (lo + hi),
                           np.where(np.isfinite(lo), lo + 1.0, np.where(np.isfinite(hi), hi - 1.0, 0.0)))
        # A point inside each interval tells which entries are capped there.
        u = x[:, None, :] + mid[:, :, None] * y[:, None, :]
        capped = np.abs(u) >= self.tau * np.sqrt(1.0 + mid * mid)[:, :, None]
        live = np.where(capped, 0.0, np.sign(u))
        alpha = self.lam * np.sum(live * x[:, None, :], axis=2)
        beta = self.lam * np.sum(live * y[:, None, :], axis=2)
        gamma = self.lam * self.tau * np.count_nonzero(capped, axis=2)
        return breaks, alpha, beta, gamma

    def __repr__(self) -> str:
        return f"CappedL1(lam={self.lam:g}, tau={self.tau:g})"


class NonNeg(Penalty):
    """Indicator of X >= 0: 0 when every entry is >= 0, +inf otherwise.

    ``prox`` is the projection onto X >= 0, with ``prox_jacobian`` 1 where M_ij > 0 and 0 elsewhere;
    ``subdifferential`` is the normal cone, {0} where M > 0 and (-inf, 0] where M = 0, and raises
    ValueError at a negative entry (h = inf there).
    """

    symmetric = False
    continuous = False
    sweep_kind = NONNEG_KIND
    convex = True
    finite = False

    def elementwise(self, U):
        return np.where(U >= 0, 0.0, np.inf)

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
        gamma = np.full((x.shape[0], 3), np.inf)
        gamma[feasible, 1] = 0.0
        zeros = np.zeros_like(gamma)
        return breaks, zeros, zeros, gamma

    def break_values(self, x, y, breaks, alpha, beta, gamma):
        # Feasible where every entry is >= 0 or zero to rounding (lb may exceed ub by rounding
        # when the feasible set is the single point lb = ub).
        finite = np.where(np.isfinite(breaks), breaks, 0.0)
        u = x[:, None, :] + finite[:, :, None] * y[:, None, :]
        ok = np.all((u >= 0) | zero_at(x, y, finite), axis=2) & np.isfinite(breaks)
        ok &= np.all((y != 0) | (x >= 0), axis=1, keepdims=True)
        return np.where(ok, 0.0, np.inf)

    def __repr__(self) -> str:
        return "NonNeg()"


def _check_step(t) -> float:
    t = check_nonnegative(t, "t", strict=True)
    return t


def count_nonzeros(M, tol: float | None = None) -> int:
    """Number of entries that are not zero.

    Parameters
    ----------
    M : array_like
        The matrix.
    tol : float or None
        None (default): the package's rounding rule (``rounding.zero_mask``: |M_ij| <= 32 eps ||M[:, j]||
        is a zero); 0 counts exact nonzeros; a positive tol counts |M_ij| > tol (the paper reports
        tol = 1e-6, ManPG's code 1e-5).

    Returns
    -------
    int
        The count.
    """
    return int(np.count_nonzero(~zero_mask(M, tol)))


#: The penalties by name, in the order the notebooks' controls list them.
PENALTY_NAMES = ("zero", "l0", "l1", "capped_l1", "nonneg")


def penalty_by_name(name: str, lam: float = 0.1, tau: float = 0.2) -> Penalty:
    """The penalty called ``name`` with weight ``lam`` (and cap ``tau`` for capped-l1).

    Parameters
    ----------
    name : str
        One of :data:`PENALTY_NAMES`: "zero", "l0", "l1", "capped_l1" or "nonneg".
    lam : float, default 0.1
        The weight of l0, l1 and capped-l1 (ignored by the others).
    tau : float, default 0.2
        The cap of capped-l1.

    Returns
    -------
    Penalty
        ``Zero()``, ``L0(lam)``, ``L1(lam)``, ``CappedL1(lam, tau)`` or ``NonNeg()``.
    """
    table = {"zero": Zero, "l0": lambda: L0(lam), "l1": lambda: L1(lam), "capped_l1": lambda: CappedL1(lam, tau),
             "nonneg": NonNeg}
    if name not in table:
        raise ValueError(f"penalty must be one of {PENALTY_NAMES}, got {name!r}")
    return table[name]()
