"""The penalty interface and the zero rule: the :class:`Penalty` base class, which every coordinate-wise
separable penalty h(X) = sum_ij h(X_ij) (assumption Asm-ii) subclasses, the codes of the compiled sweep,
and the helpers that decide when an entry is zero to rounding (the built-in penalties: :mod:`.builtin`).

Each penalty is a callable ``h(M) -> float``. For the breakpoint search of
``solve_2x2`` each one also describes itself along a line: for
u(t) = (x + t y) / sqrt(1 + t^2), ``pieces(x, y)`` returns the breakpoints in t
and, on every interval between them, (a_h, b_h, h_0) with

    sum_i h(u_i(t)) = (a_h + b_h t) / sqrt(1 + t^2) + h_0,

and, where h is not continuous, ``break_values`` gives sum_i h(u_i(t)) at the
breakpoints themselves. Inputs are batched: x and y have shape (m, n_e);
breakpoints come back as an (m, n_b) array with absent ones at +inf (sorted
ascending unless one set of coefficients holds on the whole line), the coefficients as
(m, n_b + 1) arrays (interval l lies between breakpoints l - 1 and l; the first
and last columns hold as t -> -inf and t -> +inf), or as (m, 1) arrays when one
set of coefficients holds on the whole line.

**The one registry.** A subclass that sets a class attribute ``name`` registers itself under it when
its class statement runs (``__init_subclass__``); :func:`penalty_class` and :func:`registered_name`
read the registry, ``penalties.penalty_by_name`` builds a penalty from it, and code that treats
penalties differently (the SCIP model, the tests) keys its tables by these names, never by an
``isinstance`` chain. A subclass without a ``name`` of its own (``class MyL1(L1)``) is not registered,
and is not taken for its parent. How to add one: ``docs/adding_a_penalty.md``.
"""
from __future__ import annotations

import abc
import inspect

import numpy as np

from ..rounding import EPS, ZERO_ULPS, column_norms, zero_mask
from ..validation import check_nonnegative

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
        (m, n_b).

    Returns
    -------
    numpy.ndarray
        (m, n_b, n_e) booleans.
    """
    size = ZERO_ULPS * EPS * np.hypot(x, y)[:, None, :] * np.hypot(1.0, t)[:, :, None]
    return np.abs(x[:, None, :] + t[:, :, None] * y[:, None, :]) <= size


#: name -> class, in the order the classes were defined (the built-ins: the notebooks' order).
_REGISTRY: dict[str, type] = {}


def penalty_class(name: str) -> type:
    """The penalty class registered under ``name``.

    Parameters
    ----------
    name : str
        A registered name (``registered_names()``).

    Returns
    -------
    type
        The :class:`Penalty` subclass.

    Raises
    ------
    ValueError
        If no class is registered under ``name`` (the registered names listed).
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"penalty must be one of {registered_names()}, got {name!r}")
    return _REGISTRY[name]


def registered_names() -> tuple[str, ...]:
    """Every registered name, in the order the classes were defined.

    Returns
    -------
    tuple of str
        The names.
    """
    return tuple(_REGISTRY)


def registered_name(h) -> str | None:
    """The name under which ``type(h)`` itself is registered; None for an unregistered class.

    A subclass of a registered class that has no ``name`` of its own gets None: tables keyed by the
    name describe the registered class exactly, not a subclass that may change its behaviour.

    Parameters
    ----------
    h : Penalty
        The penalty.

    Returns
    -------
    str or None
        The name.
    """
    name = type(h).__dict__.get("name")
    return name if isinstance(name, str) and _REGISTRY.get(name) is type(h) else None


def build_penalty(name: str, **params) -> "Penalty":
    """The penalty registered under ``name``, given the parameters its constructor names.

    Parameters
    ----------
    name : str
        A registered name.
    **params
        Candidate constructor arguments (e.g. ``lam``, ``tau``); those the constructor does not name
        are ignored (``Zero`` takes none).

    Returns
    -------
    Penalty
        ``penalty_class(name)(**accepted)``.
    """
    cls = penalty_class(name)
    accepted = inspect.signature(cls).parameters
    return cls(**{key: value for key, value in params.items() if key in accepted})


class Penalty(metaclass=abc.ABCMeta):  # (not abc.ABC: the site's API page shows no foreign base)
    """Abstract base class: a separable penalty given by its elementwise value.

    A penalty owns everything the solvers and certificates need of it: its value, its pieces
    along a line (the breakpoint search), its code for the compiled sweep (``sweep_kind``,
    inherited by subclasses), its proximal map, a subgradient, and its limiting subdifferential
    entry by entry as an interval.

    A subclass must implement :meth:`elementwise` (abstract: a class without it cannot be instantiated);
    the breakpoint search needs :meth:`pieces` (and :meth:`break_values` when ``continuous = False``,
    checked when the class is defined), the reference search :meth:`entry_piece`; ``prox``,
    ``prox_jacobian`` and ``subdifferential`` serve the other solvers and certificates. These optional
    ones raise NotImplementedError in the base class, and a method that needs one declines the penalty.
    Setting ``name`` registers the class.
    """

    #: The registry's name of this class (None: not registered).
    name: str | None = None

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

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not cls.continuous and cls.pieces is not Penalty.pieces and cls.break_values is Penalty.break_values:
            raise TypeError(f"{cls.__name__} sets continuous = False, so it must implement break_values")
        name = cls.__dict__.get("name")
        if name is None:
            return
        if not isinstance(name, str) or not name:
            raise TypeError(f"{cls.__name__}.name must be a non-empty str, got {name!r}")
        old = _REGISTRY.get(name)
        if old is not None and (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
            raise ValueError(f"the penalty name {name!r} is taken by {_REGISTRY[name].__qualname__} "
                             f"(registered names: {registered_names()})")
        _REGISTRY[name] = cls  # (the same class defined again, by a module reloaded, replaces itself)

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

    @abc.abstractmethod
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

    def entry_piece(self, u: float, x: float, y: float) -> tuple[float, float, float]:
        """One entry's h on a piece of the line, for the reference search (plain floats, no arrays).

        On a piece (between two consecutive breakpoints) entry i of V Z is u(t) = (x + t y) / rho,
        rho = sqrt(1 + t^2), with x, y the signed entries (sigma x_i, sigma y_i) of eq. (1-D), and
        h(u(t)) = (a + b t) / rho + h_0 there.

        Parameters
        ----------
        u : float
            The entry at a point strictly inside the piece (its sign, and which side of each kink it
            lies on, hold on the whole piece).
        x, y : float
            The signed coefficients of the entry.

        Returns
        -------
        tuple of float
            ``(a, b, h_0)``; ``h_0 = inf`` where h is infinite on the whole piece (X >= 0 violated).

        Raises
        ------
        NotImplementedError
            In the base class: the reference search then declines the penalty.
        """
        raise NotImplementedError(f"{type(self).__name__} does not describe its pieces entry by entry (entry_piece)")

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

        Raises
        ------
        NotImplementedError
            For a penalty without a proximal map (this base method).
        """
        raise NotImplementedError(f"{type(self).__name__} has no proximal map")

    def prox_jacobian(self, M, t: float) -> np.ndarray:
        """The diagonal of one element of the generalized (Clarke) Jacobian of ``prox(., t)`` at M.

        Entry by entry: what a semismooth Newton method on the prox needs, e.g. ManPG's.

        Parameters
        ----------
        M : array_like
            As for :meth:`prox`.
        t : float
            As for :meth:`prox`.

        Returns
        -------
        numpy.ndarray
            The diagonal, the shape of M.

        Raises
        ------
        NotImplementedError
            For a penalty without a generalized Jacobian of its proximal map (this base method).
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
            In the base class.
        ValueError
            Where h(M) = inf, in an indicator such as NonNeg.
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
            ``(breaks, a_h, b_h, h_0)``: the sorted breakpoints t (m, n_b; +inf where absent) and per piece
            (m, n_b + 1) the coefficients of h(u(t)) = (a_h + b_h t) / sqrt(1 + t^2) + h_0.

        Raises
        ------
        NotImplementedError
            In the base class: a penalty without pieces has no breakpoint search (solvers that need one
            decline it).
        """
        raise NotImplementedError(f"{type(self).__name__} does not describe its pieces along a line (pieces)")

    def break_values(self, x, y, breaks, a_h, b_h, h_0) -> np.ndarray:
        """sum_i h(u_i(t)) at every breakpoint t.

        Needed only when h is not continuous (for a continuous h the search takes the limit of the piece's
        formula).

        Parameters
        ----------
        x, y : numpy.ndarray
            (m, n_e), as for :meth:`pieces`.
        breaks, a_h, b_h, h_0 : numpy.ndarray
            What :meth:`pieces` returned.

        Returns
        -------
        numpy.ndarray
            (m, n_b).

        Raises
        ------
        NotImplementedError
            For a continuous penalty (this base method): the search takes its pieces' limits.
        """
        raise NotImplementedError(f"{type(self).__name__} is continuous: the search takes its pieces' limits")

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


def piece_midpoints(breaks: np.ndarray) -> np.ndarray:
    """A point strictly inside each piece of a line, for reading off which side of each kink an entry is.

    Pieces past the last breakpoint (absent ones are +inf) repeat the last real piece, so that column -1
    always describes t -> +inf.

    Parameters
    ----------
    breaks : numpy.ndarray
        (m, n_b), sorted ascending, +inf where absent.

    Returns
    -------
    numpy.ndarray
        (m, n_b + 1): column l inside piece l (between breakpoints l - 1 and l).
    """
    m = breaks.shape[0]
    last = np.max(np.where(np.isfinite(breaks), breaks, -np.inf), axis=1, keepdims=True)
    lo = np.concatenate([np.full((m, 1), -np.inf), np.where(np.isfinite(breaks), breaks, last)], axis=1)
    hi = np.concatenate([breaks, np.full((m, 1), np.inf)], axis=1)
    with np.errstate(invalid="ignore"):
        return np.where(np.isfinite(lo) & np.isfinite(hi), 0.5 * (lo + hi),
                        np.where(np.isfinite(lo), lo + 1.0, np.where(np.isfinite(hi), hi - 1.0, 0.0)))


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

    Raises
    ------
    TypeError
        For a tol that is not a real number (a bool or a string included).
    ValueError
        For a negative, NaN or infinite tol.
    """
    if isinstance(tol, (str, bytes)):  # check_nonnegative would read "1e-6" as a number
        raise TypeError(f"tol must be a real number or None, got {tol!r}")
    if tol is not None:
        tol = check_nonnegative(tol, "tol")  # named "tol" here, not zero_mask's "zero_tol"
    return int(np.count_nonzero(~zero_mask(M, tol)))
