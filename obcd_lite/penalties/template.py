"""A template for a penalty of your own: the asymmetric l1 penalty, every method a solver may ask for.

    h(X) = sum_ij lam max(X_ij, 0) + neg_weight lam max(-X_ij, 0),    lam >= 0, neg_weight >= 0,

an l1 that charges negative entries ``neg_weight`` times as much as positive ones (neg_weight = 1 is
``L1(lam)``). Copy this module, rename the class and its ``name``, and change the formulas; the guide is
``docs/adding_a_penalty.md`` and ``tests/penalties/test_template.py`` holds this class to the brute force
(copy that test too). This module is not imported by ``obcd_lite.penalties``: importing it registers
the class (``penalty_by_name("asymmetric_l1", lam)`` then builds one).

What each method is for:

* ``elementwise`` (required, abstract): the value entry by entry; ``h(M)`` sums it.
* ``pieces``: h along the line u(t) = (x + t y) / sqrt(1 + t^2), piece by piece (the breakpoint search
  ``solve_2x2`` and so OBCD: without a ``sweep_kind`` it searches these pieces, vectorized).
* ``entry_piece``: one entry's share of a piece in plain floats (the reference search ``reference_2x2``).
* ``kink_levels``: the values of an entry where h is not smooth (the breakpoints; the brute force
  samples them).
* ``prox`` / ``prox_jacobian``: the proximal map and its generalized Jacobian (ManPG, the splitting
  methods); ``subdifferential``: the limiting subdifferential (the certificates of ``optimality``).
* the class attributes: ``symmetric`` (h(-u) = h(u)? not here), ``continuous``, ``convex`` (yes),
  ``finite``, ``subgradient_informative``.
"""
from __future__ import annotations

import numpy as np

from ..validation import check_nonnegative
from .base import Penalty, piece_midpoints, zero_crossings


class AsymmetricL1(Penalty):
    """h(X) = lam sum_ij (max(X_ij, 0) + neg_weight max(-X_ij, 0)): the template penalty.

    Parameters
    ----------
    lam : float
        The weight of a positive entry, lam >= 0.
    neg_weight : float, default 0.5
        A negative entry costs neg_weight lam per unit, neg_weight >= 0.
    """

    name = "asymmetric_l1"   # registers the class: penalty_by_name("asymmetric_l1", lam)
    symmetric = False        # h(-u) != h(u): the search may not reuse one half circle's pieces
    convex = True

    def __init__(self, lam: float, neg_weight: float = 0.5):
        self.lam = check_nonnegative(lam, "lam")
        self.neg_weight = check_nonnegative(neg_weight, "neg_weight")

    def _slopes(self, U):
        """h(u) = slope * u entry by entry: lam where u > 0, -neg_weight lam where u < 0, 0 at 0."""
        return np.where(U > 0, self.lam, np.where(U < 0, -self.neg_weight * self.lam, 0.0))

    def elementwise(self, U):
        return self._slopes(U) * U

    def kink_levels(self) -> tuple[float, ...]:
        return (0.0,)

    def entry_piece(self, u, x, y):
        # On a piece u keeps its sign, so h(u) = slope u = slope (x + t y) / rho: a = slope x, b = slope y.
        slope = self.lam if u > 0 else -self.neg_weight * self.lam if u < 0 else 0.0
        return slope * x, slope * y, 0.0

    def pieces(self, x, y):
        # The breakpoints are the zero crossings; inside each piece every entry keeps its sign, read
        # off at a point inside the piece.
        breaks = np.sort(zero_crossings(x, y), axis=1)
        mid = piece_midpoints(breaks)
        slope = self._slopes(x[:, None, :] + mid[:, :, None] * y[:, None, :])
        a_h = np.sum(slope * x[:, None, :], axis=2)
        b_h = np.sum(slope * y[:, None, :], axis=2)
        return breaks, a_h, b_h, np.zeros_like(a_h)

    def prox(self, M, t: float) -> np.ndarray:
        M = np.asarray(M, dtype=float)
        t = check_nonnegative(t, "t", strict=True)
        return np.where(M > self.lam * t, M - self.lam * t,
                        np.where(M < -self.neg_weight * self.lam * t, M + self.neg_weight * self.lam * t, 0.0))

    def prox_jacobian(self, M, t: float) -> np.ndarray:
        M = np.asarray(M, dtype=float)
        t = check_nonnegative(t, "t", strict=True)
        return ((M > self.lam * t) | (M < -self.neg_weight * self.lam * t)).astype(float)

    def subdifferential(self, M):
        M = np.asarray(M, dtype=float)
        lo = np.where(M == 0, -self.neg_weight * self.lam, self._slopes(M))
        hi = np.where(M == 0, self.lam, self._slopes(M))
        return lo, hi

    def __repr__(self) -> str:
        return f"AsymmetricL1(lam={self.lam:g}, neg_weight={self.neg_weight:g})"
