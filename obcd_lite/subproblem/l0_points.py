"""The l0 subproblem on a branch from its candidate points directly, without sorting the crossings
(for :mod:`.sweep`).

With h = lam ||.||_0, h is lam * (number of live entries) on every arc, so problem (3) on a branch is
the smooth part plus a constant away from the zeros of the entries, and drops by lam per entry
that vanishes at a point. Appendix B's candidates are then (i) the zeros of the entries and
theta = pi and (ii) the smooth part's stationary points, each scored with the entries that vanish
there. A zero of entry i sits at (c, s) = +-(-y_i, x_i) / R_i: its value needs no angle, no atan2 and
no sort. Only the count of entries that vanish at it needs care: it is 1 unless another entry's
zero lies within rounding of it, and that can only happen when two columns of Z lie on lines within
``_TIE_TOL`` of each other modulo pi / 2 (a column's two entries are a quarter turn apart, so its
four zeros are phi_j + k pi / 2). The columns are sorted by a pseudo-angle of their line modulo
pi / 2 (monotone in the angle, with slope between 1/2 and 1); columns closer than the tolerance form
a tie group, whose zeros (and the midpoints of zeros within twice the zero tolerance of each other,
where several entries' windows of rounding overlap, as in the sweep) are scored entry by entry.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .crossings import _ZERO_TOL

# Two columns whose lines (mod pi/2) are closer than this in pseudo-angle are a tie group: their zeros
# may coincide to rounding (a zero to rounding is |sin(angle gap)| <= _ZERO_TOL, far inside).
_TIE_TOL = 1e-9


@njit(cache=True)
def line_keys(Z, size, key, column):
    """Sort the live columns of Z by the pseudo-angle of their line modulo pi / 2, in [0, 1):
    key[:count] ascending, column[:count] the columns (size[j] = ||Z_j||).

    Parameters
    ----------
    Z : ndarray, shape (2, r)
        The rows B of X.
    size : ndarray
        size[j] = ||Z_j|| for j < r (0: a dead column, skipped).
    key : ndarray, shape (r,)
        Receives the sorted pseudo-angles.
    column : ndarray of int, shape (r,)
        Receives the columns in the same order.

    Returns
    -------
    int
        ``count``, the number of live columns.
    """
    count = 0
    for j in range(Z.shape[1]):
        if size[j] == 0.0:
            continue
        z1, z2 = Z[0, j], Z[1, j]
        if z1 > 0.0 and z2 >= 0.0:   # turn (z1, z2) by a multiple of pi/2 into the first quadrant
            p, q = z1, z2
        elif z1 <= 0.0 and z2 > 0.0:
            p, q = z2, -z1
        elif z1 < 0.0 and z2 <= 0.0:
            p, q = -z1, -z2
        else:
            p, q = -z2, z1
        value = q / (p + q)
        slot = count
        while slot > 0 and key[slot - 1] > value:
            key[slot], column[slot] = key[slot - 1], column[slot - 1]
            slot -= 1
        key[slot], column[slot] = value, j
        count += 1
    return count


@njit(cache=True)
def _tied(key, count, t):
    """Whether sorted column t has a neighbour within _TIE_TOL (on the circle of keys, 1 = 0)."""
    if count < 2:
        return False
    before = key[t] - key[t - 1] if t > 0 else key[0] + 1.0 - key[count - 1]
    after = key[t + 1] - key[t] if t < count - 1 else key[0] + 1.0 - key[count - 1]
    return before <= _TIE_TOL or after <= _TIE_TOL


@njit(cache=True)
def _zero_points(x, y, size, j, r, out):
    """The four zeros of column j's entries (j and r + j) as (cos, sin) rows of out: entry j's at
    +-(-y_j, x_j)/R_j, entry r + j's at +-(-y_{r+j}, x_{r+j})/R_j (the sweep's doubles)."""
    for row, i in enumerate((j, r + j)):
        c_phi, s_phi = x[i] / size[i], y[i] / size[i]
        out[2 * row, 0], out[2 * row, 1] = -s_phi, c_phi
        out[2 * row + 1, 0], out[2 * row + 1, 1] = s_phi, -c_phi


@njit(cache=True)
def _count_zeros(x, y, size, c, s):
    """How many entries that are not identically zero vanish at (c, s), to rounding (as snap_zeros)."""
    count = 0
    for i in range(x.size):
        if size[i] > 0.0 and abs(x[i] * c + y[i] * s) <= _ZERO_TOL * size[i]:
            count += 1
    return count


@njit(cache=True)
def l0_zeros_min(a, b, w, d, e, x, y, size, live, lam, key, column, count, points, best):
    """The best zero of any entry (and midpoints of nearly equal zeros) on a branch, if below best:
    (value, c, s), or (best, nan, nan) when none is. Columns outside tie groups have one entry
    zero at each of their zeros; a tie group's zeros are scored entry by entry, and only where
    the smooth part there plus lam for every live entry outside the group can beat best.

    Parameters
    ----------
    a, b, w, d, e : float
        The smooth part e + a c + b s + w c^2 + d c s of the branch (eq. (1-D)).
    x, y : ndarray, shape (2 r,)
        The entries of V Z are x c + y s.
    size : ndarray, shape (2 r,)
        hypot(x, y), entry by entry.
    live : int
        The number of entries that are not identically zero.
    lam : float
        The weight of lam ||.||_0.
    key, column : ndarray
        The sorted pseudo-angles and columns of :func:`line_keys`.
    count : int
        The number of live columns (:func:`line_keys`'s return value).
    points : ndarray, shape (4, 2)
        Work space for a column's four zeros.
    best : float
        The value to beat.

    Returns
    -------
    tuple of float
        (value, c, s) of the best zero, or (best, nan, nan) when none is below ``best``.
    """
    r = x.size // 2
    best_c = best_s = np.nan
    single = lam * (live - 1)
    last_c = last_s = np.nan
    for pos in range(count):
        j = column[pos]
        _zero_points(x, y, size, j, r, points)
        tied = _tied(key, count, pos)
        for z in range(4):
            c, s = points[z, 0], points[z, 1]
            smooth = e + a * c + b * s + c * (w * c + d * s)
            if not tied:
                value = smooth + single
            elif smooth + lam * (live - count) >= best or (c == last_c and s == last_s):
                continue      # even every column's zero here cannot win; or just scored
            else:
                value = smooth + lam * (live - _count_zeros(x, y, size, c, s))
                last_c, last_s = c, s
            if value < best:
                best, best_c, best_s = value, c, s
        if tied:
            best, best_c, best_s = _tie_midpoints(a, b, w, d, e, x, y, size, live, lam, key, column, count, pos,
                                                  points, best, best_c, best_s)
    return best, best_c, best_s


@njit(cache=True)
def _tie_midpoints(a, b, w, d, e, x, y, size, live, lam, key, column, count, t, points, best, best_c, best_s):
    """Where two zeros of tied columns t and a later one lie within 2 _ZERO_TOL (but not on each
    other), several entries can be zero to rounding between them although neither zero has them
    all: score the midpoint entry by entry (as the sweep does for tied crossings)."""
    r = x.size // 2
    for u in range(t + 1, t + count):
        other = u % count
        gap = key[other] - key[t] if u < count else key[other] + 1.0 - key[t]
        if gap > _TIE_TOL:
            break
        for z in range(4):
            c1, s1 = points[z, 0], points[z, 1]
            j = column[other]
            for row, i in enumerate((j, r + j)):
                for sign in (-1.0, 1.0):
                    c2, s2 = -sign * y[i] / size[i], sign * x[i] / size[i]
                    if c1 * c2 + s1 * s2 <= 0.0 or abs(c1 * s2 - s1 * c2) > 2.0 * _ZERO_TOL:
                        continue
                    if c1 == c2 and s1 == s2:
                        continue      # the same point: scored as a zero
                    c_mid, s_mid = c1 + c2, s1 + s2
                    norm = math.hypot(c_mid, s_mid)
                    c_mid, s_mid = c_mid / norm, s_mid / norm
                    value = (e + a * c_mid + b * s_mid + c_mid * (w * c_mid + d * s_mid)
                             + lam * (live - _count_zeros(x, y, size, c_mid, s_mid)))
                    if value < best:
                        best, best_c, best_s = value, c_mid, s_mid
    return best, best_c, best_s
