"""A :class:`~obcd_lite.smooth.SmoothProblem` from a pymanopt ``Problem`` (:func:`from_pymanopt`).

The manifolds OBCD can run on, and how each maps to St(n, r):

========================================  ===========  ==========================================================
pymanopt manifold                         St(n, r)     note
========================================  ===========  ==========================================================
``Stiefel(n, r)``                         St(n, r)     as is
``Sphere(n)`` (points of shape (n,))      St(n, 1)     the cost sees ``X[:, 0]``; its gradient (n,) becomes (n, 1)
``Sphere(n, 1)``                          St(n, 1)     as is
``SpecialOrthogonalGroup(n)``             St(n, n)     ``rotations_only``: OBCD searches rotations only (a
                                                       reflection has det -1 and would leave SO(n))
``Grassmann(n, r)``                       St(n, r)     for a cost invariant under X -> X Q, Q in O(r) (pymanopt's
                                                       representation of a subspace): OBCD optimizes on St(n, r),
                                                       whose minimizers span the same subspaces
========================================  ===========  ==========================================================

Anything else (products with k > 1, ``Sphere(m, k)`` with k > 1 — the unit Frobenius sphere, not St(m, k) —,
the complex manifolds, Euclidean, ...) is refused with a hint naming these.

The gradient: the problem's Euclidean gradient as given, or derived by the cost's autodiff backend
(``pymanopt.function.autograd``, ``jax``, ``pytorch``, ``tensorflow``: a cost-only problem works when its
backend is installed). A NumPy cost without a Euclidean gradient is refused, also when a Riemannian gradient
is given: on St(n, r) the Riemannian gradient is the projection G - X sym(X^T G) of the Euclidean G, and the
component X sym(X^T G) it drops is part of OBCD's block matrix M = [G X^T]_BB (eq. (10)); it cannot be
recovered from the projection.

The Hessian: when the problem has a Euclidean Hessian (given, or derived by the backend), it becomes the
problem's ``hessvec(X, V)`` (the Euclidean Hessian of f at X applied to any (n, r) direction V), checked against
the gradient at every start; ``obcd`` (one pair per step by default, many pairs with ``Q="exact"``) then
builds the exact block Q of eq. (9) from it.
"""
from __future__ import annotations

import re

import numpy as np

from .penalties import Penalty
from .smooth import SmoothProblem

#: The manifolds :func:`from_pymanopt` accepts, for the messages.
SUPPORTED = "Stiefel(n, r), Sphere(n) or Sphere(n, 1), SpecialOrthogonalGroup(n), Grassmann(n, r) (one copy each)"


def _shape(pymanopt, manifold) -> tuple[str, int, int, bool]:
    """(kind, n, r, vector): how ``manifold`` maps to St(n, r); ``vector`` when its points are of shape (n,).

    pymanopt keeps the sizes in private attributes; its names (``str(manifold)``) are public and name the
    product manifolds differently, so they are read instead."""
    manifolds = pymanopt.manifolds
    name = str(manifold)
    forms = [("stiefel", manifolds.Stiefel, r"Stiefel manifold St\((\d+),\s*(\d+)\)"),
             ("grassmann", manifolds.Grassmann, r"Grassmann manifold Gr\((\d+),\s*(\d+)\)"),
             ("so", manifolds.SpecialOrthogonalGroup, r"Special orthogonal group SO\((\d+)\)"),
             ("sphere", manifolds.Sphere, r"Sphere manifold of (\d+)-vectors"),
             ("sphere", manifolds.Sphere, r"Sphere manifold of (\d+)x(\d+) matrices")]
    for kind, cls, pattern in forms:
        match = re.fullmatch(pattern, name)
        if not isinstance(manifold, cls) or match is None:
            continue
        sizes = [int(v) for v in match.groups()]
        if kind == "so":
            return kind, sizes[0], sizes[0], False
        if kind == "sphere" and len(sizes) == 1:
            return kind, sizes[0], 1, True
        if kind == "sphere" and sizes[1] != 1:
            raise ValueError(f"from_pymanopt: {name} is the unit sphere of {sizes[0]} x {sizes[1]} matrices in the "
                             f"Frobenius norm, not St({sizes[0]}, {sizes[1]}); use Stiefel({sizes[0]}, {sizes[1]}) for "
                             f"orthonormal columns. Supported: {SUPPORTED}")
        n, r = sizes
        if not 1 <= r <= n:
            raise ValueError(f"from_pymanopt: {name} needs 1 <= r <= n")
        return kind, n, r, False
    raise ValueError(f"from_pymanopt needs a problem on one of {SUPPORTED}, got {name} "
                     f"({type(manifold).__name__}): OBCD moves on St(n, r) only")


def _euclidean_gradient(problem):
    """The problem's Euclidean gradient, given or derived by its cost's backend; a NumPy cost without one is
    refused by name (with or without a Riemannian gradient)."""
    try:
        return problem.euclidean_gradient
    except NotImplementedError as exc:  # pymanopt's NumPy backend: "No autodiff support available"
        hint = ("give euclidean_gradient= (a @pymanopt.function.numpy function), or write the cost with "
                "@pymanopt.function.autograd(manifold) and autograd.numpy (pip install autograd) so that "
                "pymanopt derives it")
        # pymanopt has no public way to ask whether a Riemannian gradient was given
        if getattr(problem, "_riemannian_gradient", None) is not None:
            raise ValueError(f"from_pymanopt needs the Euclidean gradient, but the problem gives a Riemannian gradient "
                             f"only and its cost's backend (NumPy) derives none. The Euclidean gradient G is not "
                             f"recoverable from it: the Riemannian gradient is the tangent projection "
                             f"G - X sym(X^T G), and OBCD's block matrix M = [G X^T]_BB (eq. (10)) needs the part "
                             f"it drops; {hint}") from exc
        raise ValueError(f"from_pymanopt needs the Euclidean gradient: the problem gives only a cost, and its backend "
                         f"(NumPy) derives none ({exc}); {hint}") from exc


def _euclidean_hessian(problem):
    """The problem's Euclidean Hessian operator (point, tangent vector in pymanopt's representation), or None."""
    try:
        return problem.euclidean_hessian
    except NotImplementedError:  # a NumPy cost without one: the problem has no hessvec
        return None


def from_pymanopt(problem, h: Penalty | None = None, L: float | None = None, *, rng=None,
                  check_derivatives: bool = True) -> "SmoothProblem":
    """A :class:`~obcd_lite.smooth.SmoothProblem` from a pymanopt ``Problem`` (the manifolds of the module
    docstring: Stiefel, Sphere, SpecialOrthogonalGroup, Grassmann).

    Parameters
    ----------
    problem : pymanopt.Problem
        Its cost is f; its Euclidean gradient (given with ``euclidean_gradient=``, or derived by the cost's
        autodiff backend, e.g. ``@pymanopt.function.autograd(manifold)``) is grad f; its Euclidean Hessian,
        when it has one, becomes ``hessvec``. On ``Grassmann(n, r)`` the cost must be invariant under
        X -> X Q (Q orthogonal): OBCD then optimizes it on St(n, r).
    h : Penalty, optional
        The separable nonsmooth part added to the cost (pymanopt has no nonsmooth method).
    L : float, optional
        A Lipschitz constant of the Euclidean gradient on St(n, r), as for :class:`~obcd_lite.smooth.SmoothProblem`.
    rng : None, int or numpy.random.Generator
        The directions of the derivative check (:class:`~obcd_lite.smooth.SmoothProblem`'s ``rng``).
    check_derivatives : bool
        Run the derivative check at each start (default True).

    Returns
    -------
    SmoothProblem
        Of shape (n, r) (St(n, 1) for a sphere, St(n, n) with ``rotations_only`` for SO(n)).

    Raises
    ------
    TypeError
        When ``problem`` is not a pymanopt ``Problem``.
    ValueError
        For another manifold, or a problem without a Euclidean gradient its backend can derive.
    ImportError
        If pymanopt is not installed.
    """
    try:
        import pymanopt
    except ImportError as err:  # pragma: no cover - pymanopt is a declared dependency
        raise ImportError("from_pymanopt needs pymanopt (declared in pyproject.toml)") from err
    if not isinstance(problem, pymanopt.Problem):
        raise TypeError(f"from_pymanopt takes a pymanopt.Problem, got {type(problem).__name__}")
    kind, n, r, vector = _shape(pymanopt, problem.manifold)
    cost, egrad, ehess = problem.cost, _euclidean_gradient(problem), _euclidean_hessian(problem)
    if vector:  # Sphere(n): pymanopt's points are vectors of shape (n,), OBCD's are (n, 1)
        def f(X):
            return cost(X[:, 0])

        def grad(X):
            return _as_column(egrad(X[:, 0]))

        def hessvec(X, V):
            return _as_column(ehess(X[:, 0], V[:, 0]))
    else:
        f, grad = cost, egrad
        if kind == "so":  # pymanopt's tangent vectors of SO(n) are X^T V (it embeds them as X (X^T V) = V)
            def hessvec(X, V):
                return ehess(X, X.T @ V)
        else:
            hessvec = ehess
    return SmoothProblem(f, grad, h=h, L=L, shape=(n, r), hessvec=None if ehess is None else hessvec,
                         rotations_only=kind == "so", check_derivatives=check_derivatives, rng=rng)


def _as_column(value):
    """A vector of shape (n,) as (n, 1); anything else unchanged (the problem's checks name a wrong shape)."""
    array = np.asarray(value)
    return array[:, None] if array.ndim == 1 else array
