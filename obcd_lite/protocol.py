"""The problem protocol: what a solver and a certificate may call on a problem F = f + h on St(n, r).

Every solver of :mod:`obcd_lite.solvers` and every certificate of :mod:`obcd_lite.optimality` reads a
problem only through these members (no private attributes). Two layers:

* :class:`Problem` — any smooth f with a separable h (the paper's setting, (Asm-i)): values, the
  Euclidean gradient, a Lipschitz constant of the gradient (a bound, or an estimate that says so) and a
  point check. :class:`~obcd_lite.smooth.SmoothProblem` and
  :class:`~obcd_lite.problems.QuadraticProblem` both conform. OBCD runs on it with the scalar majorizer
  of eq. (10), verified on every step (:mod:`obcd_lite.solvers.obcd_smooth`); the first-order baselines
  (ManPG, ManPG-Ada, RSubGrad, Cayley, RCD, ...) need nothing more.
* :class:`QuadraticStructure` — f(X) = 1/2 tr(X^T C X D) + <X, L> + const, whose Hessian D (x) C is known:
  the exact Q of eq. (9), the O(nrk) gradient update of Appendix C.3 and the compiled k = 2 engines.
  :func:`is_quadratic` tells the two apart; a method that needs the structure declines the others with
  an :class:`~obcd_lite.validation.UnsupportedProblemError` that says why.

``tests/solvers/test_protocol_contract.py`` runs every registered solver against both layers.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from .penalties import Penalty


@runtime_checkable
class Problem(Protocol):
    """min f(X) + h(X) on St(n, r) with f smooth (L-smooth gradient) and h a separable :class:`Penalty`.

    Attributes
    ----------
    n : int or None
        Rows of X (None: not fixed by the problem; ``check_point`` checks what it can).
    r : int or None
        Columns of X (None: free).
    h : Penalty
        The nonsmooth part (``Zero()`` for none).
    lipschitz_is_bound : bool
        True when :meth:`lipschitz` is a proven Lipschitz constant of grad f on St(n, r) (a certificate
        may rely on it), False when it is an estimate (a solver may use it as a first step size only).

    Parameters
    ----------
    *args, **kwargs
        Not used: a protocol is never instantiated; a class conforms by having these members.
    """

    n: int | None
    r: int | None
    h: Penalty
    lipschitz_is_bound: bool

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

    def grad(self, X: np.ndarray) -> np.ndarray:
        """The Euclidean gradient of f at X.

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.

        Returns
        -------
        numpy.ndarray
            (n, r), grad f(X).
        """

    def f_from_grad(self, X: np.ndarray, G: np.ndarray) -> float:
        """f(X) given G = grad(X) (cheaper for a quadratic f; f(X) otherwise).

        Parameters
        ----------
        X : numpy.ndarray
            (n, r), the point.
        G : numpy.ndarray
            (n, r), grad f(X).

        Returns
        -------
        float
            f(X).
        """

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

    def lipschitz(self) -> float:
        """A Lipschitz constant of grad f on St(n, r) (see ``lipschitz_is_bound``).

        Returns
        -------
        float
            L_f, a bound or an estimate.
        """

    def check_point(self, X: np.ndarray, name: str = "X0") -> None:
        """Raise ValueError naming ``name`` if X has the wrong shape or F(X) is not finite.

        Parameters
        ----------
        X : numpy.ndarray
            The point to check.
        name : str
            Its name in the error message.

        Raises
        ------
        ValueError
            Naming ``name``, if X has the wrong shape or F(X) is not finite.
        """


@runtime_checkable
class QuadraticStructure(Problem, Protocol):
    """A :class:`Problem` whose f is 1/2 tr(X^T C X D) + <X, L> + const (Hessian D (x) C).

    Attributes
    ----------
    C : numpy.ndarray
        (n, n), symmetric.
    D : numpy.ndarray or None
        (r, r), symmetric; None for the identity.
    L : numpy.ndarray or None
        (n, r), the linear term; None for none.
    const : float
        The constant term.

    Parameters
    ----------
    *args, **kwargs
        Not used: a protocol is never instantiated; a class conforms by having these members.
    """

    C: np.ndarray
    D: np.ndarray | None
    L: np.ndarray | None
    const: float

    def exact_Q(self, B, Z: np.ndarray) -> np.ndarray:
        """Eq. (9): the exact curvature (Z D Z^T) (x) C_BB of f along the block B.

        Parameters
        ----------
        B : sequence of int
            The k row indices of the block.
        Z : numpy.ndarray
            (k, r), X(B, :).

        Returns
        -------
        numpy.ndarray
            (k^2, k^2), Q of eq. (9).
        """

    def scalar_Q(self, B, Z: np.ndarray) -> float:
        """Eq. (10): varsigma >= ||Q of eq. (9)||_2 for the block B.

        Parameters
        ----------
        B : sequence of int
            The k row indices of the block.
        Z : numpy.ndarray
            (k, r), X(B, :).

        Returns
        -------
        float
            varsigma.
        """

    def apply_step(self, G: np.ndarray, B, dZ: np.ndarray) -> float:
        """Move X by U_B dZ: update G = grad f(X) in place (Appendix C.3 (i)); return the change of f.

        Parameters
        ----------
        G : numpy.ndarray
            (n, r), grad f(X), updated in place to grad f(X + U_B dZ).
        B : sequence of int
            The k row indices of the block.
        dZ : numpy.ndarray
            (k, r), the change of X(B, :).

        Returns
        -------
        float
            f(X + U_B dZ) - f(X).
        """

    def compiled_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(C, D) as C-ordered float64 arrays for the compiled kernels (D = I is a (0, 0) array).

        Returns
        -------
        tuple of numpy.ndarray
            ``(C, D)``.
        """


def is_quadratic(problem) -> bool:
    """Whether ``problem`` carries the quadratic structure (:class:`QuadraticStructure`): the exact Q of
    eq. (9), the O(nrk) gradient update and the compiled engines apply to it.

    Parameters
    ----------
    problem : object
        Any problem.

    Returns
    -------
    bool
        True for a :class:`QuadraticStructure`.
    """
    return isinstance(problem, QuadraticStructure)
