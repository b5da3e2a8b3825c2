"""Input checks shared by the public functions.

Every check raises ``ValueError`` or ``TypeError`` whose message names the
offending argument and value, so that bad input never yields a silent wrong
answer: real matrices only (complex, boolean and text input refused, never cast),
data matrices copied on input and inside :data:`DATA_SCALE_RANGE`, points on
St(n, r), problems with F, grad and a Penalty h, seeds numpy accepts. The
property test ``tests/test_validation.py`` holds the public API to this promise.
"""
from __future__ import annotations

import numbers
import sys

import numpy as np

class UnsupportedProblemError(NotImplementedError, ValueError):
    """A solver declines a problem it cannot handle (e.g. a penalty it has no update for).

    A NotImplementedError (the solver interface) and a ValueError (bad input), so either catches it.
    """


#: Tolerance on ``||X^T X - I||_F`` for a point to count as on St(n, r).
STIEFEL_TOL = 1e-8


#: The range of a data matrix's largest entry (C, D, L, T): outside it the solvers' products (squares and
#: fourth powers of the data's scale in the 2 x 2 solves, 1/L_f^2 in ManPG's tests) leave double
#: precision, so a rescaled problem would come back as NaN, inf or a wrong point. Zero is allowed.
DATA_SCALE_RANGE = (1e-100, 1e100)


def as_matrix(value, name: str, shape: tuple | None = None, *, finite: bool = True) -> np.ndarray:
    """Return ``value`` as a 2-D float array (finite unless ``finite=False``), checking its shape.

    ``shape`` may contain ``None`` for a free dimension. Complex, boolean and non-numeric input is
    refused with a ``TypeError`` naming the argument (NumPy would drop an imaginary part with a
    mere warning).

    Parameters
    ----------
    value : array_like
        The input.
    name : str
        Its name in the error messages.
    shape : tuple of int or None, optional
        The expected shape (None: any; a None entry: any size along that axis).
    finite : bool
        Refuse NaN and inf entries (default True).

    Returns
    -------
    numpy.ndarray
        2-D, float.

    Raises
    ------
    TypeError
        For complex, boolean or non-numeric input.
    ValueError
        For the wrong number of axes, the wrong shape or (``finite``) a non-finite entry.
    """
    raw = value if isinstance(value, np.ndarray) else _as_array(value, name)
    if raw.dtype.kind == "O":  # a list mixing numbers: each must be a real number
        odd = next((v for v in raw.flat if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real)), None)
        if odd is not None:
            raise TypeError(f"{name} must be a real matrix, got an entry {odd!r} of type {type(odd).__name__}")
    elif raw.dtype.kind not in "fiu":
        kind = {"c": "complex", "b": "boolean"}.get(raw.dtype.kind, "non-numeric")
        raise TypeError(f"{name} must be a real matrix, got a {kind} array (dtype {raw.dtype})")
    try:
        arr = np.asarray(raw, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a real matrix, got {type(value).__name__} ({exc})") from exc
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got an array of shape {arr.shape}")
    if shape is not None:
        for got, want in zip(arr.shape, shape):
            if want is not None and got != want:
                raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
    if finite and not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(f"{name} has a non-finite entry {float(arr[tuple(bad)])!r} at index {tuple(int(i) for i in bad)}")
    return arr


def _as_array(value, name: str) -> np.ndarray:
    try:
        return np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged nested lists
        raise TypeError(f"{name} must be a real matrix, got {type(value).__name__} ({exc})") from exc


def as_data(value, name: str, shape: tuple | None = None) -> np.ndarray:
    """A data matrix (C, D, L, T) as a private C-ordered float copy: finite, real, and with its
    largest entry 0 or inside :data:`DATA_SCALE_RANGE`.

    The copy makes a problem independent of the caller's array: changing it afterwards changes
    nothing (and a Fortran-ordered or strided input gives the same arithmetic as a C-ordered one).

    Parameters
    ----------
    value : array_like
        The data matrix.
    name : str
        Its name in the error messages.
    shape : tuple of int or None, optional
        The expected shape, as for :func:`as_matrix`.

    Returns
    -------
    numpy.ndarray
        A C-ordered float64 copy.

    Raises
    ------
    ValueError
        For a bad shape, a non-finite entry or a largest entry outside :data:`DATA_SCALE_RANGE`.
    """
    arr = np.array(as_matrix(value, name, shape), dtype=np.float64, order="C", copy=True)
    largest = float(np.max(np.abs(arr))) if arr.size else 0.0
    low, high = DATA_SCALE_RANGE
    if largest != 0.0 and not low <= largest <= high:
        side = "below" if largest < low else "above"
        raise ValueError(f"{name} has largest entry |{name}_ij| = {largest:.3e}, {side} the supported range "
                         f"[{low:.0e}, {high:.0e}] (the solvers' arithmetic would under/overflow); rescale {name}")
    return arr


def check_symmetric(C: np.ndarray, name: str = "C", rtol: float = 1e-10) -> None:
    """Raise unless ``C`` is square and symmetric (to ``rtol`` relative).

    Relative to ||C||_F, computed on C / max|C_ij| so that it cannot overflow (||C - C^T||_F of
    entries above ~1e154 would be inf, and inf > rtol inf is False).

    Parameters
    ----------
    C : numpy.ndarray
        The matrix.
    name : str
        Its name in the error message.
    rtol : float
        The tolerance on ||C - C^T||_F / ||C||_F.

    Raises
    ------
    ValueError
        If C is not square or not symmetric.
    """
    if C.shape[0] != C.shape[1]:
        raise ValueError(f"{name} must be square, got shape {C.shape}")
    largest = float(np.max(np.abs(C))) if C.size else 0.0
    if largest == 0.0 or not np.isfinite(largest):
        return
    scaled = C / largest
    asym = float(np.linalg.norm(scaled - scaled.T))
    if asym > rtol * float(np.linalg.norm(scaled)):  # relative: a tiny C is not symmetric by its size
        raise ValueError(f"{name} must be symmetric, got ||{name} - {name}^T||_F = {asym * largest:.3e}")


def check_stiefel(X: np.ndarray, name: str = "X0", tol: float = STIEFEL_TOL) -> None:
    """Raise unless ``X`` (n x r, r <= n) satisfies ``||X^T X - I_r||_F <= tol``.

    Parameters
    ----------
    X : numpy.ndarray
        The point.
    name : str
        Its name in the error message.
    tol : float
        The tolerance on ||X^T X - I_r||_F.

    Raises
    ------
    ValueError
        If X is not 2-D, has r > n, has non-finite entries or is off St(n, r).
    """
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n x r), got an array of shape {X.shape}")
    n, r = X.shape
    if r > n:
        raise ValueError(f"{name} has r = {r} columns > n = {n} rows; St(n, r) needs r <= n")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} has non-finite entries, so it is not on the Stiefel manifold")
    err = float(np.linalg.norm(X.T @ X - np.eye(r)))
    if not err <= tol:
        raise ValueError(f"{name} is not on the Stiefel manifold: ||{name}^T {name} - I||_F = {err:.3e} > {tol:.0e}")


def check_problem(problem, X: np.ndarray | None = None, name: str = "X0", solver: str = "the solver") -> None:
    """Raise ``TypeError`` unless ``problem`` has what every solver calls (``F``, ``grad``, a Penalty
    ``h``), and ``ValueError`` when ``X`` has not the problem's number of rows ``problem.n``.

    Parameters
    ----------
    problem : object
        The problem to check (:class:`obcd_lite.protocol.Problem`).
    X : numpy.ndarray or None
        The start point, if any.
    name : str
        The start point's name in the error message.
    solver : str
        The solver's name in the error message.

    Raises
    ------
    TypeError
        If ``problem`` lacks ``F``, ``grad`` or a Penalty ``h``.
    ValueError
        If X does not have ``problem.n`` rows.
    """
    # Penalties sit above this module (penalties -> rounding -> validation), so the base class is looked
    # up, not imported: an object can only be a Penalty once obcd_lite.penalties.base has been loaded.
    base = sys.modules.get(__package__ + ".penalties.base")
    missing = [attr for attr in ("F", "grad") if not callable(getattr(problem, attr, None))]
    if missing or base is None or not isinstance(getattr(problem, "h", None), base.Penalty):
        raise TypeError(f"{solver}: the problem does not follow obcd_lite.protocol.Problem (a QuadraticProblem, or "
                        f"f and grad wrapped in obcd_lite.SmoothProblem; it needs F, grad and a Penalty h), "
                        f"got problem = {problem!r}")
    n = getattr(problem, "n", None)
    if X is not None and n is not None and X.shape[0] != n:
        raise ValueError(f"{solver}: {name} has {X.shape[0]} rows but the problem has n = {n}")


def as_rng(rng, name: str = "rng") -> np.random.Generator:
    """``numpy.random.default_rng(rng)`` for the seeds it accepts (None, a non-negative int, a
    SeedSequence, a BitGenerator or a Generator); anything else is refused naming ``name``.

    Parameters
    ----------
    rng : None, int, numpy.random.SeedSequence, numpy.random.BitGenerator or numpy.random.Generator
        The seed or generator.
    name : str
        Its name in the error message.

    Returns
    -------
    numpy.random.Generator
        ``rng`` itself for a Generator, a new one otherwise.

    Raises
    ------
    TypeError
        For anything else (a bool, a negative int, a float, ...).
    """
    ok = (rng is None or isinstance(rng, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence))
          or (isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)) and rng >= 0))
    if not ok:
        raise TypeError(f"{name} must be None, a non-negative int seed or a numpy.random.Generator, "
                        f"got {name} = {rng!r}")
    return np.random.default_rng(rng)


def check_nonnegative(value: float, name: str, strict: bool = False) -> float:
    """Return ``value`` as a float, raising if it is negative (or zero when ``strict``).

    Parameters
    ----------
    value : float
        The number.
    name : str
        Its name in the error message.
    strict : bool
        Refuse zero as well.

    Returns
    -------
    float
        ``value``.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (a bool included).
    ValueError
        If it is not finite, negative, or zero when ``strict``.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number, got the bool {value!r}")
    if isinstance(value, (str, bytes)):  # float("1e-6") would pass: text is not a number here
        raise TypeError(f"{name} must be a real number, got the text {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a real number, got {value!r}") from exc
    if not np.isfinite(v) or v < 0 or (strict and v == 0):
        rel = "> 0" if strict else ">= 0"
        raise ValueError(f"{name} must be finite and {rel}, got {name} = {value!r}")
    return v


def check_count(value, name: str, minimum: int = 1, *, allow_none: bool = False) -> int | None:
    """Return ``value`` as an int >= ``minimum`` (a size, a budget, a number of starts), or raise naming it.

    Only integers count (Python or NumPy, not bool: ``True`` is not one start, and 2.5 or NaN rows have no
    meaning); the message names the argument and the value.

    Parameters
    ----------
    value : int
        The number.
    name : str
        Its name in the error message.
    minimum : int, default 1
        The least value allowed.
    allow_none : bool, default False
        Accept None (returned as is).

    Returns
    -------
    int or None
        ``value`` as an int (None when ``allow_none`` and it is None).

    Raises
    ------
    TypeError
        For a value that is not a number (a string, None without ``allow_none``, ...).
    ValueError
        For a bool, a non-integer number (2.5, NaN, inf) or an integer below ``minimum``.
    """
    if value is None and allow_none:
        return None
    what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
    what += " or None" if allow_none else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        error = ValueError if isinstance(value, (numbers.Real, np.bool_)) else TypeError
        raise error(f"{name} must be {what}, got {name} = {value!r}")
    return int(value)

