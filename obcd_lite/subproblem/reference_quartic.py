"""The reference search's own arithmetic: the quartic of Appendix B, its real roots, the level crossings
of a line, the objective of problem (3) and the tie rule, in plain scalar code.

:mod:`.reference` judges the compiled search (``sweep``, ``breakpoint``); to be an independent judge it
shares none of their code: this module and the reference import nothing from the package (only NumPy
and the standard library), so a bug in a production helper cannot hide in both. The package's rules are
restated here by value, and ``tests/test_imports.py`` holds them equal to ``rounding``'s
(:data:`ZERO_ULPS`, :data:`TIE_TOL`).
"""
from __future__ import annotations

import math

import numpy as np

#: An entry of V Z is zero when |(V Z)_ij| <= ZERO_ULPS eps ||Z[:, j]|| (the package's zero rule).
ZERO_ULPS = 32
#: Values within TIE_TOL (1 + |min|) of the minimum are ties; the first wins (the package's tie rule).
TIE_TOL = 1e-12


def as_float_matrix(value, name: str, rows: int, cols: int | None) -> np.ndarray:
    """``value`` as a finite 2-D float array of shape (rows, cols) (cols None: any), else ValueError.

    Parameters
    ----------
    value : array_like
        The input.
    name : str
        Its name in the error message.
    rows : int
        The number of rows.
    cols : int or None
        The number of columns, or None for any.

    Returns
    -------
    numpy.ndarray
        The array.

    Raises
    ------
    TypeError
        If ``value`` is not a real matrix.
    ValueError
        If its shape is not (rows, cols) or it has non-finite entries.
    """
    try:
        M = np.array(value, dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be a real matrix, got {value!r}") from err
    if M.ndim != 2 or M.shape[0] != rows or (cols is not None and M.shape[1] != cols):
        want = f"({rows}, {cols if cols is not None else 'any'})"
        raise ValueError(f"{name} must have shape {want}, got {M.shape}")
    if not np.all(np.isfinite(M)):
        raise ValueError(f"{name} has non-finite entries")
    return M


def rotation_or_reflection(branch: str, c: float, s: float) -> np.ndarray:
    """rot(theta) = [[c, s], [-s, c]] or ref(theta) = [[-c, s], [s, c]] (Lemma 2.5).

    Parameters
    ----------
    branch : str
        "rot" or "ref".
    c, s : float
        cos theta and sin theta.

    Returns
    -------
    numpy.ndarray
        (2, 2).
    """
    return np.array([[c, s], [-s, c]]) if branch == "rot" else np.array([[-c, s], [s, c]])


def problem3_value(Qt, P, Z, h, V) -> float:
    """1/2 vec(V)^T Qt vec(V) + <V, P> + h(V Z), the entries of V Z zero to rounding counted as 0.

    Parameters
    ----------
    Qt, P, Z : numpy.ndarray
        The data of problem (3), k = 2.
    h : Penalty
        The penalty (called on V Z).
    V : numpy.ndarray
        (2, 2).

    Returns
    -------
    float
        The value.
    """
    v = V.T.ravel()                                   # vec stacks columns
    value = 0.5 * float(v @ Qt @ v) + float(np.sum(V * P))
    VZ = V @ Z
    for j in range(Z.shape[1]):
        size = ZERO_ULPS * np.finfo(float).eps * math.hypot(Z[0, j], Z[1, j])
        for i in range(2):
            if abs(VZ[i, j]) <= size:
                VZ[i, j] = 0.0
    return value + float(h(VZ))


def lowest_first(values) -> int:
    """The index of the first value within TIE_TOL (1 + |min|) of the finite minimum (0 if none is finite).

    Parameters
    ----------
    values : sequence of float
        The candidates' values, in the candidates' order.

    Returns
    -------
    int
        The index.
    """
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return 0
    low = min(finite)
    return next(i for i, v in enumerate(values) if math.isfinite(v) and v <= low + TIE_TOL * (1.0 + abs(low)))


def level_crossings(x: float, y: float, level: float) -> list[float]:
    """The t where |x + t y| = level sqrt(1 + t^2) (level > 0): an entry of u(t) reaching +-level.

    Squared: (y^2 - level^2) t^2 + 2 x y t + x^2 - level^2 = 0, solved in the stable form (the
    discriminant written as 4 level^2 (x^2 + y^2 - level^2), which does not cancel for |x|, |y| >> level).

    Parameters
    ----------
    x, y : float
        One entry's coefficients of eq. (1-D).
    level : float
        The level, > 0.

    Returns
    -------
    list of float
        The real roots (none, one or two).
    """
    qa, qb, qc = y * y - level**2, 2.0 * x * y, x * x - level**2
    disc = 4.0 * level**2 * (x * x + y * y - level**2)
    if disc < 0:
        return []
    sq = math.sqrt(disc)
    q = -0.5 * (qb + (sq if qb >= 0 else -sq))          # no cancellation between B and the square root
    roots = [q / qa] if qa != 0 else ([-qc / qb] if qb != 0 else [])   # A = 0: the equation is linear
    return roots + ([qc / q] if q != 0 else [])


def quartic(a_eff: float, b_eff: float, w: float, d: float) -> list[float]:
    """[c4, c3, c2, c1, c0] of Appendix B's quartic on a piece with linear part (a_eff, b_eff), w = cq - e, d.

    With (A, B) = (a_eff, b_eff): p'(t) = 0  <=>  (B - A t) sqrt(1 + t^2) = -(d (1 + t^2) - 2 t (w + d t));
    squared: c4 = d^2 - A^2, c3 = 4 d w + 2 A B, c2 = 4 w^2 - 2 d^2 - A^2 - B^2, c1 = 2 A B - 4 d w,
    c0 = d^2 - B^2.

    Parameters
    ----------
    a_eff, b_eff : float
        The piece's linear part (sigma a + a_h, sigma b + b_h).
    w, d : float
        The quadratic part of eq. (1-D).

    Returns
    -------
    list of float
        The five coefficients, highest degree first.
    """
    return [d * d - a_eff * a_eff, 4 * d * w + 2 * a_eff * b_eff, 4 * w * w - 2 * d * d - a_eff * a_eff - b_eff * b_eff,
            2 * a_eff * b_eff - 4 * d * w, d * d - b_eff * b_eff]


def real_roots(coeffs: list[float], imag_tol: float = 1e-6) -> list[float]:
    """The real roots of a quartic (highest degree first), as eigenvalues of its companion matrix.

    When |c0| > |c4| the reversed polynomial in s = 1/t is solved, so a vanishing leading coefficient (a
    root at t = infinity: cos theta = 0, a candidate of its own) never divides by zero; a root counts as
    real when |Im t| <= imag_tol (1 + |t|) (rounding splits a double root into a pair with Im ~ sqrt(eps)).

    Parameters
    ----------
    coeffs : list of float
        c4, ..., c0, not all zero.
    imag_tol : float, default 1e-6
        The tolerance on the imaginary part.

    Returns
    -------
    list of float
        The real roots, finite ones only.
    """
    flip = abs(coeffs[0]) < abs(coeffs[4])
    cf = list(reversed(coeffs)) if flip else list(coeffs)
    scale = max(abs(c) for c in cf)
    tiny = 1e-14 * scale
    lead = cf[0] if abs(cf[0]) >= tiny else math.copysign(tiny, cf[0]) if cf[0] < 0 else tiny
    companion = np.zeros((4, 4))
    companion[0, :] = [-c / lead for c in cf[1:]]
    companion[1, 0] = companion[2, 1] = companion[3, 2] = 1.0
    roots = []
    for z in np.linalg.eigvals(companion).astype(complex):
        if flip:
            if z == 0:
                continue                              # s = 0: t = infinity
            z = 1.0 / z
        if abs(z.imag) <= imag_tol * (1.0 + abs(z)) and math.isfinite(z.real):
            roots.append(float(z.real))
    return roots
