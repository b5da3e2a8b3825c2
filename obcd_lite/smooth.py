"""Bring your own problem: F(X) = f(X) + h(X) on St(n, r) for any smooth f, as callables or a pymanopt Problem.

:class:`SmoothProblem` wraps f(X) -> float and grad(X) -> the Euclidean gradient (an (n, r) array) with a
separable penalty h; :func:`from_pymanopt` builds one from a pymanopt ``Problem`` on ``Stiefel(n, r)``
(its cost and Euclidean gradient, with whichever backend the user wrote it in). Both follow
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

import re
from typing import Callable

import numpy as np

from .penalties import Penalty, Zero
from .stiefel import polar
from .validation import as_matrix, check_nonnegative

#: Step of the secant probes of the Lipschitz estimate (large against rounding, small against the curvature's variation).
SECANT_STEP = 1e-2


class SmoothProblem:
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
        (n, r). Without it the first point checked (a solver's X0) fixes the shape.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.diag([1.0, 2.0, 3.0])
    >>> problem = SmoothProblem(lambda X: 0.5 * np.sum(X * (A @ X)), lambda X: A @ X, L=3.0)
    >>> problem.F(np.eye(3, 1))
    0.5
    """

    def __init__(self, f: Callable[[np.ndarray], float], grad: Callable[[np.ndarray], np.ndarray], *,
                 h: Penalty | None = None, L: float | None = None, shape: tuple[int, int] | None = None):
        if not callable(f):
            raise TypeError(f"f must be callable (X -> float), got {type(f).__name__}")
        if not callable(grad):
            raise TypeError(f"grad must be callable (X -> Euclidean gradient), got {type(grad).__name__}")
        self._f, self._grad = f, grad
        self.h = Zero() if h is None else h
        if not isinstance(self.h, Penalty):
            raise TypeError(f"h must be a Penalty, got {type(self.h).__name__}")
        self._L = None if L is None else check_nonnegative(L, "L")
        self.lipschitz_is_bound = self._L is not None
        self._estimate: float | None = None
        self.n = self.r = None
        if shape is not None:
            if (len(shape) != 2 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in shape)
                    or not 1 <= shape[1] <= shape[0]):
                raise ValueError(f"shape must be (n, r) with integers 1 <= r <= n, got shape = {shape!r}")
            self.n, self.r = int(shape[0]), int(shape[1])

    # --- the smooth part -------------------------------------------------
    def f(self, X: np.ndarray) -> float:
        """The smooth part f(X).

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.

        Returns
        -------
        float
            f(X).
        """
        return float(self._f(X))

    def grad(self, X: np.ndarray) -> np.ndarray:
        """The Euclidean gradient of f at X (a fresh float array).

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.

        Returns
        -------
        numpy.ndarray
            (n, r), grad f(X).
        """
        return np.array(self._grad(X), dtype=float)

    def f_from_grad(self, X: np.ndarray, G: np.ndarray) -> float:
        """f(X) (the gradient gives no shortcut for a general f).

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.
        G : numpy.ndarray
            (n, r), grad f(X) (not used).

        Returns
        -------
        float
            f(X).
        """
        return self.f(X)

    def F(self, X: np.ndarray) -> float:
        """The objective F = f + h.

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.

        Returns
        -------
        float
            F(X) = f(X) + h(X).
        """
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
        """L when given (a bound); otherwise the current estimate (see the module docstring).

        Returns
        -------
        float
            L_f, a bound when ``lipschitz_is_bound``, else the estimate.

        Raises
        ------
        ValueError
            When an estimate is needed but the shape is not known yet.
        """
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
        """Raise ValueError naming ``name`` if X has the wrong shape, f(X) or grad f(X) is not finite or of
        the wrong shape, or h(X) = inf. The first point checked fixes (n, r) when no shape was given.

        Parameters
        ----------
        X : array_like
            The point to check.
        name : str
            Its name in the error message.
        """
        X = as_matrix(X, name)
        if self.n is not None and X.shape != (self.n, self.r):
            raise ValueError(f"{name} has shape {X.shape} but the problem is on St({self.n}, {self.r})")
        value = self._f(X)
        if not np.isscalar(value) and np.ndim(value) != 0 or not np.isfinite(float(value)):
            raise ValueError(f"f({name}) must be a finite number, got {value!r}")
        G = np.asarray(self._grad(X))
        if G.shape != X.shape:
            raise ValueError(f"grad({name}) has shape {G.shape}, but {name} has shape {X.shape}")
        if not np.all(np.isfinite(G)):
            raise ValueError(f"grad({name}) has non-finite entries")
        if not np.isfinite(self.h(X)):
            raise ValueError(f"{name} is infeasible for h = {self.h!r} (h({name}) = inf)")
        if self.n is None:
            self.n, self.r = X.shape

    def __repr__(self) -> str:
        L = f"L={self._L:g}" if self._L is not None else "L estimated"
        return f"SmoothProblem(n={self.n}, r={self.r}, h={self.h!r}, {L})"


def _secant_estimate(problem: SmoothProblem, n: int, r: int) -> float:
    """max ||grad f(Y) - grad f(X)||_F / ||Y - X||_F over fixed pairs (X, Y) of St(n, r): a lower bound on L,
    deterministic (no random draws): X the identity start and a spread point, Y = polar(X + s D) with D
    the gradient's direction and a fixed spread direction."""
    spread = np.cos(1.3 * np.arange(n * r).reshape(n, r) + 0.7)
    best = 0.0
    for X in (np.eye(n, r), polar(spread)):
        G = problem.grad(X)
        for D in (G, spread[::-1]):
            norm = float(np.linalg.norm(D))
            if norm == 0.0:
                continue
            Y = polar(X + SECANT_STEP * D / norm)
            move = float(np.linalg.norm(Y - X))
            if move > 0.0:
                best = max(best, float(np.linalg.norm(problem.grad(Y) - G)) / move)
    return best if best > 0.0 else 1.0


def from_pymanopt(problem, h: Penalty | None = None, L: float | None = None) -> SmoothProblem:
    """A :class:`SmoothProblem` from a pymanopt ``Problem`` on ``Stiefel(n, r)``.

    Parameters
    ----------
    problem : pymanopt.Problem
        Its manifold must be ``pymanopt.manifolds.Stiefel(n, r)`` (one copy); its cost is f, and its
        Euclidean gradient (written by the user with ``@pymanopt.function.numpy``, or derived by an
        autodiff backend the user has installed) is grad f.
    h : Penalty, optional
        The separable nonsmooth part added to the cost (pymanopt has no nonsmooth method).
    L : float, optional
        A Lipschitz constant of the Euclidean gradient on St(n, r), as for :class:`SmoothProblem`.

    Returns
    -------
    SmoothProblem
        With f the cost, grad f the Euclidean gradient and shape (n, r).
    """
    try:
        import pymanopt
    except ImportError as err:  # pragma: no cover - pymanopt is a declared dependency
        raise ImportError("from_pymanopt needs pymanopt (declared in pyproject.toml)") from err
    if not isinstance(problem, pymanopt.Problem):
        raise TypeError(f"from_pymanopt takes a pymanopt.Problem, got {type(problem).__name__}")
    manifold = problem.manifold
    match = re.fullmatch(r"Stiefel manifold St\((\d+),\s*(\d+)\)", str(manifold))
    if not isinstance(manifold, pymanopt.manifolds.Stiefel) or match is None:
        raise ValueError(f"from_pymanopt needs a problem on Stiefel(n, r) (one copy), got {manifold}")
    n, r = int(match.group(1)), int(match.group(2))
    return SmoothProblem(problem.cost, problem.euclidean_gradient, h=h, L=L, shape=(n, r))
