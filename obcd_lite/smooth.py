"""Bring your own problem: F(X) = f(X) + h(X) on St(n, r) for any smooth f, as callables or a pymanopt Problem.

:class:`SmoothProblem` wraps f(X) -> float and grad(X) -> the Euclidean gradient (an (n, r) array) with a
separable penalty h; :func:`from_pymanopt` (:mod:`obcd_lite.smooth_pymanopt`) builds one from a pymanopt
``Problem`` on ``Stiefel(n, r)``, ``Sphere(n)``, ``SpecialOrthogonalGroup(n)`` or ``Grassmann(n, r)`` (its cost
and Euclidean gradient, given or derived by its autodiff backend). The user's f and grad are checked on
every call and at every start (:mod:`obcd_lite.smooth_oracles`). Both follow
:class:`obcd_lite.protocol.Problem`, so OBCD (the scalar majorizer of eq. (10), verified on every step),
the first-order baselines and the hierarchy's certificates run on them.

The Lipschitz constant L of grad f on St(n, r) is what eq. (10) needs (varsigma <= L_f): when the user
knows a bound, ``L=`` makes it a bound (``lipschitz_is_bound``), and the certificates that need one (the
global level of :func:`~obcd_lite.optimality.classify`) may use it. Without it, :meth:`SmoothProblem.lipschitz`
is an estimate: the largest secant ||grad f(Y) - grad f(X)|| / ||Y - X|| over a few fixed pairs of points,
raised by OBCD whenever a step shows it too small (a majorization K(V) < F(X_B(V)) proves the curvature
larger). An estimate is never used as a certificate.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .penalties import Penalty, Zero
from .protocol import Problem
from .smooth_oracles import (ON_STIEFEL, call_oracle, check_array, check_hessvec, check_lipschitz,
                             check_oracles_at_start, check_value, read_only_copy)
from .stiefel import polar
from .validation import as_matrix, as_rng

#: The seed of the derivative check's directions when no rng is given: fixed (a failing check is reproducible)
#: and not a seed users pick for their starts (a start drawn with the same seed is a normal direction).
CHECK_SEED = 0x5EED0BCD

#: Step of the secant probes of the Lipschitz estimate (large against rounding, small against the curvature's variation).
SECANT_STEP = 1e-2


class SmoothProblem(Problem):
    """F(X) = f(X) + h(X) on St(n, r) with f given by callables (:class:`obcd_lite.protocol.Problem`).

    Parameters
    ----------
    f : callable
        X -> f(X), a float.
    grad : callable
        X -> the Euclidean gradient of f at X, an array of X's shape.
    h : Penalty, optional
        The separable nonsmooth part (default ``Zero()``).
    L : float, optional
        A Lipschitz constant of grad f on St(n, r) (a proven bound). Without it OBCD estimates the
        curvature and verifies the majorization of eq. (11) on every step.
    shape : (int, int), optional
        (n, r). Without it the first point checked (a solver's X0) fixes the shape; the infeasible methods
        (radmm, psm) need it given.
    hessvec : callable, optional
        (X, V) -> the Euclidean Hessian of f at X applied to V (any (n, r) direction V, not only tangent
        ones), an array of X's shape (kept as the ``hessvec`` attribute, checked like grad and at every start
        against a difference of grad; None: ``hessvec`` is None). OBCD then builds the exact block Q of
        eq. (9) from 4 products per pair (:func:`~obcd_lite.subproblem.majorizer.hessian_Q`).
    grad_rows : callable, optional
        (X, rows) -> grad f(X)[rows], the gradient's rows for an int array ``rows`` (len(rows), r), for an f
        whose rows cost less than the whole gradient (kept as the ``grad_rows`` attribute, checked like grad
        and at every start against grad; None: ``grad_rows`` is None). The one-pair OBCD then reads two rows
        per step instead of a whole gradient.
    rotations_only : bool
        The problem lives on SO(n) (square X, det X = +1), e.g. :func:`from_pymanopt` of
        ``SpecialOrthogonalGroup(n)``: ``check_point`` refuses a start with det X = -1 and :func:`~obcd_lite.obcd`
        searches rotations only (``branches="rot"``), since a reflection would leave SO(n).
    check_derivatives : bool
        Run the directional-derivative check of grad against f at every start (default True; 2 f calls,
        see :mod:`obcd_lite.smooth_oracles`). Turn it off for an f that is noisy at the scale 1e-4.
    rng : None, int or numpy.random.Generator
        Draws the check's random tangent directions (None: the fixed seed :data:`CHECK_SEED`, so a failing
        check is reproducible).

    Attributes
    ----------
    n, r : int or None
        The shape, once known.
    h : Penalty
        The nonsmooth part.
    lipschitz_is_bound : bool
        Whether :meth:`lipschitz` is the given bound L.
    rotations_only : bool
        As given.
    hessvec : callable or None
        The checked Hessian-vector product, or None.
    grad_rows : callable or None
        The checked row-block gradient, or None.

    Notes
    -----
    Every value of f and grad is checked (:mod:`obcd_lite.smooth_oracles`): a complex, non-finite,
    non-numeric or wrongly shaped value, a magnitude outside
    :data:`~obcd_lite.validation.DATA_SCALE_RANGE`, an oracle writing into its (read-only) argument and a
    gradient that disagrees with f at the start are refused with an error naming the oracle and the call.

    The members of :class:`~obcd_lite.protocol.Problem` keep its docstrings; what this class adds to them:

    * ``f`` and ``grad`` call the user's f and grad on a read-only copy of X and check the value (f: a
      finite real number; grad: a fresh float array of X's shape; both finite and inside the supported
      range). The first ``grad`` on St(n, r) of a problem no solver has checked (``check_point``) runs
      the start checks there. ``f_from_grad`` is f(X): the gradient gives no shortcut for a general f.
    * ``lipschitz`` is L when given (a bound), otherwise the current estimate (see the module docstring);
      it raises ValueError when an estimate is needed before the shape is known.
    * ``check_point`` checks a start: X's shape, f(X) and grad f(X) (as every call is checked), h(X) <
      inf, and the once-per-start checks of :func:`~obcd_lite.smooth_oracles.check_oracles_at_start` (the
      scale of f and grad, and unless ``check_derivatives=False`` grad against a central difference of f
      along a random tangent direction, 2 more f calls). The first point checked fixes (n, r) when no
      shape was given. A ``rotations_only`` problem (SO(n)) needs a square X with det X = +1. It raises
      ValueError naming the point and what is wrong, and TypeError for an f or grad whose value is not
      real (complex, None, a str, an object array).

    Examples
    --------
    >>> import numpy as np
    >>> A = np.diag([1.0, 2.0, 3.0])
    >>> problem = SmoothProblem(lambda X: 0.5 * np.sum(X * (A @ X)), lambda X: A @ X, L=3.0)
    >>> problem.F(np.eye(3, 1))
    0.5
    """

    def __init__(self, f: Callable[[np.ndarray], float], grad: Callable[[np.ndarray], np.ndarray], *,
                 h: Penalty | None = None, L: float | None = None, shape: tuple[int, int] | None = None,
                 hessvec: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
                 grad_rows: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
                 rotations_only: bool = False, check_derivatives: bool = True, rng=None):
        if not callable(f):
            raise TypeError(f"f must be callable (X -> float), got {type(f).__name__}")
        if not callable(grad):
            raise TypeError(f"grad must be callable (X -> Euclidean gradient), got {type(grad).__name__}")
        if hessvec is not None and not callable(hessvec):
            raise TypeError(f"hessvec must be callable ((X, V) -> Euclidean Hessian of f at X applied to V) or None, "
                            f"got {type(hessvec).__name__}")
        if grad_rows is not None and not callable(grad_rows):
            raise TypeError(f"grad_rows must be callable ((X, rows) -> grad f(X)[rows]) or None, "
                            f"got {type(grad_rows).__name__}")
        for flag, value in (("rotations_only", rotations_only), ("check_derivatives", check_derivatives)):
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{flag} must be True or False, got {flag} = {value!r}")
        self._f, self._grad, self._hessvec, self._grad_rows = f, grad, hessvec, grad_rows
        self.h = Zero() if h is None else h
        if not isinstance(self.h, Penalty):
            raise TypeError(f"h must be a Penalty, got {type(self.h).__name__}")
        self._L = check_lipschitz(L)
        self.lipschitz_is_bound = self._L is not None
        self.rotations_only = bool(rotations_only)
        self.hessvec = None if hessvec is None else self._checked_hessvec
        self.grad_rows = None if grad_rows is None else self._checked_grad_rows
        self._hessvec_checked = False
        self._rng = as_rng(CHECK_SEED if rng is None else rng) if check_derivatives else None
        self._estimate: float | None = None
        self._calls = {"f": 0, "grad": 0, "hessvec": 0, "grad_rows": 0}
        self._started = False  # the once-per-start checks ran at least once
        self.n = self.r = None
        if shape is not None:
            if (not isinstance(shape, (tuple, list)) or len(shape) != 2
                    or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in shape)
                    or not 1 <= shape[1] <= shape[0]):
                raise ValueError(f"shape must be (n, r) with integers 1 <= r <= n, got shape = {shape!r}")
            self.n, self.r = int(shape[0]), int(shape[1])
            if self.rotations_only and self.n != self.r:
                raise ValueError(f"rotations_only (SO(n)) needs a square shape (n, n), got shape = {shape!r}")

    # --- the smooth part: the user's oracles, checked ---------------------
    def _where(self, which: str, name: str | None) -> str:
        """The call's name in a message: ``name`` (a start, e.g. "X0") or "X, call k"."""
        self._calls[which] += 1
        return name if name is not None else f"X, call {self._calls[which]}"

    def _eval_f(self, X: np.ndarray, name: str | None = None) -> float:
        """f(X), checked (:func:`~obcd_lite.smooth_oracles.check_value`), on a read-only copy of X."""
        X = read_only_copy(X)
        where = self._where("f", name)
        return check_value(call_oracle(self._f, (X,), "f", where), "f", where, X)

    def _eval_grad(self, X: np.ndarray, name: str | None = None) -> np.ndarray:
        """grad f(X), checked (:func:`~obcd_lite.smooth_oracles.check_array`), on a read-only copy of X."""
        X = read_only_copy(X)
        where = self._where("grad", name)
        return check_array(call_oracle(self._grad, (X,), "grad", where), "grad", where, X)

    def _start(self, X: np.ndarray, f0: float, G: np.ndarray, name: str) -> None:
        """The once-per-start checks (:func:`~obcd_lite.smooth_oracles.check_oracles_at_start`): scale and
        derivative, and grad_rows and hessvec when given."""
        check_oracles_at_start(self._eval_f, f0, G, X, name, self._rng, grad=self._eval_grad,
                               hessvec=None if self._hessvec is None else self._eval_hessvec,
                               grad_rows=None if self._grad_rows is None else self._eval_grad_rows)
        self._hessvec_checked = self._hessvec is not None and self._rng is not None and bool(
            np.linalg.norm(X.T @ X - np.eye(X.shape[1])) <= ON_STIEFEL)
        self._started = True

    def f(self, X: np.ndarray) -> float:
        return self._eval_f(X)

    def grad(self, X: np.ndarray) -> np.ndarray:
        G = self._eval_grad(X)
        if (not self._started and self.n in (None, X.shape[0])  # a solver that never called check_point:
                and np.linalg.norm(X.T @ X - np.eye(X.shape[1])) <= ON_STIEFEL):  # its first point on St(n, r)
            self._start(np.asarray(X, dtype=float), self._eval_f(X), G, "X (the first point seen)")
        return G

    def _checked_hessvec(self, X: np.ndarray, V: np.ndarray) -> np.ndarray:
        """The Euclidean Hessian of f at X applied to V (the ``hessvec`` attribute when one was given), checked
        like grad: real, of X's shape, finite; the first call (on St(n, r)) also compares it with a central
        difference of grad (:func:`~obcd_lite.smooth_oracles.check_hessvec`, 2 gradient calls).

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.
        V : numpy.ndarray
            (n, r), the direction.

        Returns
        -------
        numpy.ndarray
            (n, r), the Hessian-vector product.
        """
        X = read_only_copy(X)
        V = read_only_copy(V)
        if V.shape != X.shape:
            raise ValueError(f"hessvec: V has shape {V.shape} but X has shape {X.shape}")
        if not self._hessvec_checked and self._rng is not None:  # no start checked it: at the first call
            self._hessvec_checked = True
            check_hessvec(self._eval_grad, self._eval_hessvec, X, self._rng)
        return self._eval_hessvec(X, V)

    def _eval_hessvec(self, X: np.ndarray, V: np.ndarray) -> np.ndarray:
        """The user's hessvec on read-only copies, checked like grad."""
        where = self._where("hessvec", None)
        return check_array(call_oracle(self._hessvec, (read_only_copy(X), read_only_copy(V)), "hessvec", where),
                           "hessvec", where, X)

    def _checked_grad_rows(self, X: np.ndarray, rows) -> np.ndarray:
        """The rows ``rows`` of grad f(X) (the ``grad_rows`` attribute when one was given): the user's grad_rows
        on read-only copies, checked like grad (real, (len(rows), r), finite); checked against grad at every
        start (:func:`~obcd_lite.smooth_oracles.check_grad_rows`).

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.
        rows : array_like of int
            Distinct row indices in [0, n).

        Returns
        -------
        numpy.ndarray
            (len(rows), r), grad f(X)[rows].

        Raises
        ------
        ValueError
            For rows that are not distinct integers in [0, n), or a value of the wrong shape.
        """
        X = read_only_copy(X)
        index = np.asarray(rows)
        n = X.shape[0]
        if (index.ndim != 1 or index.size == 0 or index.dtype.kind not in "iu" or np.any(index < 0)
                or np.any(index >= n) or len(np.unique(index)) != index.size):
            raise ValueError(f"grad_rows: rows must be distinct integers in [0, n = {n}), got rows = {rows!r}")
        return self._eval_grad_rows(X, index)

    def _eval_grad_rows(self, X: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The user's grad_rows on read-only copies, checked like grad, of shape (len(rows), r)."""
        where = self._where("grad_rows", None)
        rows = np.array(rows, dtype=np.int64)  # a read-only copy, as X is
        rows.flags.writeable = False
        return check_array(call_oracle(self._grad_rows, (read_only_copy(X), rows), "grad_rows", where),
                           "grad_rows", where, X, shape=(len(rows), X.shape[1]))

    def f_from_grad(self, X: np.ndarray, G: np.ndarray) -> float:
        return self.f(X)

    def F(self, X: np.ndarray) -> float:
        return self.f(X) + self.h(X)

    def scalar_Q(self, B, Z: np.ndarray) -> float:
        """Eq. (10) with varsigma = L_f (:meth:`lipschitz`), the same for every block: ||Q of eq. (9)||_2 <= L_f
        because ||Z||_2 <= 1 for rows of a point of St(n, r).

        Parameters
        ----------
        B : sequence of int
            The k row indices of the block (not used: varsigma is the same for every block).
        Z : numpy.ndarray
            (k, r), X(B, :) (not used).

        Returns
        -------
        float
            varsigma = L_f.
        """
        return self.lipschitz()

    # --- the curvature ---------------------------------------------------
    def lipschitz(self) -> float:
        if self._L is not None:
            return self._L
        if self._estimate is None:
            if self.n is None:
                raise ValueError("the Lipschitz estimate needs the shape: pass shape=(n, r) or L=, or check a "
                                 "point first (problem.check_point(X0))")
            self._estimate = _secant_estimate(self, self.n, self.r)
        return self._estimate

    def raise_lipschitz_estimate(self, value: float) -> None:
        """Raise the estimate to ``value`` (a step proved the curvature at least this large); a given L
        is a bound and is never changed.

        Parameters
        ----------
        value : float
            A lower bound on the curvature that a step proved.
        """
        if self._L is None:
            self._estimate = max(self.lipschitz(), float(value))

    # --- checks ----------------------------------------------------------
    def check_point(self, X: np.ndarray, name: str = "X0") -> None:
        X = as_matrix(X, name)
        if self.n is not None and X.shape != (self.n, self.r):
            raise ValueError(f"{name} has shape {X.shape} but the problem is on St({self.n}, {self.r})")
        if self.rotations_only:
            if X.shape[0] != X.shape[1]:
                raise ValueError(f"the problem is on SO(n) (rotations_only) but {name} has shape {X.shape}, not square")
            det = float(np.linalg.det(X))
            if not det > 0:
                raise ValueError(f"the problem is on SO(n) (rotations_only) but det {name} = {det:.3g}: {name} is a "
                                 f"reflection; flip one column's sign to start in SO(n)")
        f0 = self._eval_f(X, name)
        G = self._eval_grad(X, name)
        if not np.isfinite(self.h(X)):
            raise ValueError(f"{name} is infeasible for h = {self.h!r} (h({name}) = inf)")
        self._start(X, f0, G, name)
        if self.n is None:
            self.n, self.r = X.shape

    def __repr__(self) -> str:
        L = f"L={self._L:g}" if self._L is not None else "L estimated"
        so = ", rotations_only" if self.rotations_only else ""
        return f"SmoothProblem(n={self.n}, r={self.r}, h={self.h!r}, {L}{so})"


def _secant_estimate(problem: SmoothProblem, n: int, r: int) -> float:
    """max ||grad f(Y) - grad f(X)||_F / ||Y - X||_F over fixed pairs (X, Y) of St(n, r): a lower bound on L,
    deterministic (no random draws): X the identity start and a spread point, Y = polar(X + s D) with D
    the gradient's direction and a fixed spread direction."""
    spread = np.cos(1.3 * np.arange(n * r).reshape(n, r) + 0.7)
    best = 0.0
    # The checked oracle without the start hook: these fixed points are the estimate's, not a solver's start,
    # and np.eye(n, r) may be stationary, where the once-per-start derivative check could tell nothing.
    grad = problem._eval_grad
    for X in (np.eye(n, r), polar(spread)):
        G = grad(X)
        for D in (G, spread[::-1]):
            norm = float(np.linalg.norm(D))
            if norm == 0.0:
                continue
            Y = polar(X + SECANT_STEP * D / norm)
            move = float(np.linalg.norm(Y - X))
            if move > 0.0:
                best = max(best, float(np.linalg.norm(grad(Y) - G)) / move)
    return best if best > 0.0 else 1.0

