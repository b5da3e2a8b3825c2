"""One rule for rounding, used everywhere: when an entry is zero, how ties are broken, how numbers print.

Floating-point results differ in their last bits between CPUs (AVX-512 or AVX2 kernels of NumPy and
OpenBLAS, FMA or not, Apple Silicon). Nothing the suite decides or stores may depend on those bits:

* **Zero entries.** An entry of a product V Z (V with unit rows) is zero when
  |(V Z)_ij| <= ZERO_ULPS eps ||Z[:, j]||: its rounding level (``penalties.snap_zeros``, the sweep).
  A point X on St(n, r) has unit columns, so an entry is zero when |X_ij| <= ZERO_ULPS eps ||X[:, j]||
  (about 7e-15): :func:`zero_mask`. cos(pi/2) = 6e-17 is zero; a genuine 1e-6 is not. The optimality
  layer (criticality, block tests, classify) and nonzero counts judge zeros by this rule by default;
  ``zero_tol=0`` judges exact zeros only, a positive ``zero_tol`` any coarser threshold.
* **Ties.** Among values equal to within a tolerance, the first in the caller's order wins
  (:func:`first_minimizer`), never the one that happens to compare lower on this CPU.
* **Printing.** :func:`fmt` prints a value with a stated number of digits, a value below the rounding
  level of its quantity as a bound (``< 1e-12``), and never a signed zero. Every notebook and explorer
  text prints through it.
"""
from __future__ import annotations

import numpy as np

from .validation import check_nonnegative

#: An entry is zero to rounding when |entry| <= ZERO_ULPS * eps * (the norm of its column).
ZERO_ULPS = 32.0
EPS = float(np.finfo(float).eps)
#: The default floor of :func:`fmt`: an O(1) quantity computed in double precision through a few
#: dozen operations is known to about 1e-13; below 1e-12 its digits are rounding, printed as a bound.
ROUNDING_FLOOR = 1e-12
#: The default tie tolerance of :func:`first_minimizer` (relative to 1 + |min|).
TIE_TOL = 1e-12


def zero_mask(X, zero_tol: float | None = None) -> np.ndarray:
    """Which entries of X count as zero.

    Parameters
    ----------
    X : numpy.ndarray, shape (n, r)
        (a point on St(n, r), or any matrix).
    zero_tol : float or None
        None (default): the package's rounding rule, |X_ij| <= ZERO_ULPS eps ||X[:, j]||;
        0: exact zeros only; a positive number: |X_ij| <= zero_tol.

    Returns
    -------
    numpy.ndarray
        Booleans, the shape of X.
    """
    X = np.asarray(X, dtype=float)
    if zero_tol is None:
        level = ZERO_ULPS * EPS * column_norms(X)
    else:
        level = check_nonnegative(zero_tol, "zero_tol")
    return np.abs(X) <= level


def column_norms(X: np.ndarray) -> np.ndarray:
    """||X[:, j]||_2 of each column without overflow or underflow: sqrt(sum x^2) of entries above
    ~1e154 is inf (and the zero rule would call every entry zero), of entries below ~1e-162 is 0.
    Such columns (only) are scaled by their largest |entry| first (``numpy.linalg.norm`` does not).

    Parameters
    ----------
    X : array_like
        (n, r), or a vector (taken as one column).

    Returns
    -------
    numpy.ndarray
        (r,), the 2-norm of each column.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim < 2:
        X = X.reshape(-1, 1)
    with np.errstate(over="ignore", under="ignore"):
        norms = np.sqrt((X * X).sum(axis=0))
    # inf from an overflow (finite entries), or 0 / subnormal from an underflow of nonzero entries
    suspect = (np.isinf(norms) | (norms < 1e-150)) & np.isfinite(X).all(axis=0) & X.any(axis=0)
    if suspect.any():
        largest = np.max(np.abs(X), axis=0)
        safe = np.where(suspect, largest, 1.0)
        norms = np.where(suspect, safe * np.sqrt(((X / safe) ** 2).sum(axis=0)), norms)
    return norms


def snap_point(X, zero_tol: float | None = None) -> np.ndarray:
    """X with the entries :func:`zero_mask` calls zero set to exactly 0.0 (a copy).

    Parameters
    ----------
    X : array_like
        (n, r).
    zero_tol : float or None
        As for :func:`zero_mask`.

    Returns
    -------
    numpy.ndarray
        The copy.
    """
    X = np.asarray(X, dtype=float)
    return np.where(zero_mask(X, zero_tol), 0.0, X)


def first_minimizer(values, tol: float = TIE_TOL) -> int:
    """The index of the first value within tol (1 + |min|) of the minimum.

    The documented tie rule: values that agree to rounding are ties, and the caller's order (block
    order, candidate order) decides between them, never which one compares lower on this CPU.

    Parameters
    ----------
    values : array_like
        The values (NaN and infinities never win while a finite value exists).
    tol : float, default TIE_TOL
        The relative tie tolerance.

    Returns
    -------
    int
        The index (0 when no value is finite).

    Raises
    ------
    ValueError
        If ``values`` is empty.
    """
    values = np.asarray(values, dtype=float).ravel()
    if values.size == 0:
        raise ValueError("first_minimizer needs at least one value; got an empty sequence")
    finite = np.isfinite(values)
    if not finite.any():
        return 0
    low = float(values[finite].min())
    return int(np.flatnonzero(finite & (values <= low + check_nonnegative(tol, "tol") * (1.0 + abs(low))))[0])


def first_maximizer(values, tol: float = TIE_TOL) -> int:
    """As :func:`first_minimizer`, for the largest value.

    Parameters
    ----------
    values : array_like
        The values (NaN and infinities never win while a finite value exists).
    tol : float, default TIE_TOL
        Values within tol (1 + |max|) of the maximum are ties.

    Returns
    -------
    int
        The index of the first of them.
    """
    return first_minimizer(-np.asarray(values, dtype=float), tol)


def fmt(x, digits: int = 4, *, style: str = "f", floor: float | None = ROUNDING_FLOOR,
        sign: bool = False) -> str:
    """x printed so that the text is the same on every CPU.

    Parameters
    ----------
    x : float or None
        A real number (None, nan and +-inf print as such).
    digits : int
        digits after the point (style "f"), significant digits - 1 (style "e"), or significant
        digits (style "g", for table cells of mixed sizes).
    style : str
        "f" (fixed point), "e" (scientific) or "g" (general).
    floor : float or None
        |x| below floor prints as ``< floor`` (e.g. ``< 1e-12``): its digits are rounding.
        None prints every value (for quantities whose size is not rounding, e.g. an exact zero count).
    sign : bool
        Print a + on nonnegative values (never on a zero: ``+0.0000`` for -0.0 or -1e-17 too).

    Returns
    -------
    str
        The text.

    Raises
    ------
    ValueError
        If ``style`` is not "f", "e" or "g".

    Examples
    --------
    >>> fmt(7.9e-16), fmt(-0.0, sign=True), fmt(-3e-17, 4, floor=None), fmt(0.5, 2, style="e")
    ('< 1e-12', '< 1e-12', '0.0000', '5.00e-01')
    """
    if x is None:
        return "None"
    x = float(x)
    if not np.isfinite(x):
        return str(x) if not sign or x < 0 or np.isnan(x) else f"+{x}"
    if style not in ("f", "e", "g"):
        raise ValueError(f"style must be 'f', 'e' or 'g'; got {style!r}")
    if floor is not None and abs(x) < floor:
        return f"< {floor:.0e}".replace("e-0", "e-")
    text = f"{x:.{digits}{style}}"
    if float(text) == 0.0:  # no signed zeros: -0.0000 is printed 0.0000
        text = text.lstrip("-")
        return ("+" if sign else "") + text
    return f"{x:+.{digits}{style}}" if sign else text


def equals(x, digits: int = 4, **options) -> str:
    """``"= " + fmt(x, ...)``, or just the bound when x is at rounding level: a sentence reads
    "residual < 1e-12", never "residual = < 1e-12".

    Parameters
    ----------
    x : float
        The value.
    digits : int, default 4
        As for :func:`fmt`.
    **options
        Passed to :func:`fmt` (``floor``, ``sign``, ``style``).

    Returns
    -------
    str
        ``"= <value>"``, or ``"< <floor>"`` at rounding level.

    Examples
    --------
    >>> equals(0.25, 2), equals(3e-17, 2)
    ('= 0.25', '< 1e-12')
    """
    text = fmt(x, digits, **options)
    return text if text.startswith("<") else f"= {text}"


def fmt_interval(lo, hi, digits: int = 4, *, floor: float | None = ROUNDING_FLOOR) -> str:
    """[lo, hi] with both ends through :func:`fmt` (signed).

    Parameters
    ----------
    lo, hi : float
        The ends.
    digits : int, default 4
        As for :func:`fmt`.
    floor : float or None, default 1e-12
        As for :func:`fmt`.

    Returns
    -------
    str
        ``"[lo, hi]"``.
    """
    return f"[{fmt(lo, digits, floor=floor, sign=True)}, {fmt(hi, digits, floor=floor, sign=True)}]"


def fmt_array(A, digits: int = 4, *, floor: float | None = ROUNDING_FLOOR) -> str:
    """A small matrix printed row by row through :func:`fmt` (aligned), e.g. a point X.

    Parameters
    ----------
    A : array_like
        The matrix (or vector).
    digits : int, default 4
        As for :func:`fmt`.
    floor : float or None, default 1e-12
        As for :func:`fmt`.

    Returns
    -------
    str
        One line per row.
    """
    A = np.atleast_2d(np.asarray(A, dtype=float))
    cells = [[fmt(v, digits, floor=floor, sign=True) for v in row] for row in A]
    width = max(len(c) for row in cells for c in row)
    return "\n".join("[" + "  ".join(c.rjust(width) for c in row) + "]" for row in cells)
