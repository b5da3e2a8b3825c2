"""Where on a branch the l1 subproblem's minimum can lie, found before any crossing is computed (for :mod:`.sweep`).

On a branch problem (3) is g(theta) = e + a c + b s + w c^2 + d c s + lam sum_i |x_i c + y_i s|. The
circle is cut into ``SECTORS`` equal sectors. On each, g is at least the smooth part's lower bound
(the smaller end value minus M L^2 / 8 with M = hypot(a, b) + 2 hypot(w, d) >= |g''| of the smooth
part and L the sector's length) plus h's least value on the circle, lam sum_j ||Z_j|| (the two
entries of column j of V Z satisfy |u| + |u'| >= ||Z_j||, as in ``sweep._branch_floor``). g at the
best grid point of the smooth part is a value the branch attains; a sector whose lower bound is
above it (or above the other branch's best), by more than a margin far above rounding, holds no
point that can win. The sweep then computes, sorts and sweeps only the crossings of the surviving
sectors, widened by ``SLACK`` on each side so that every crossing within the tie window of a
scored one is swept too, and scores only crossings within half that slack of a surviving sector.
The crossings it keeps are the same doubles as the whole-circle sweep's and none that can win is
dropped; the l1 state on each kept stretch is evaluated afresh instead of carried around the circle
(which changes it in the last bits only).

Entries are screened before their atan2 by two dot products per band (a surviving stretch widened
by ``_BAND``): a zero direction (-y_i, x_i) or (y_i, -x_i) lies in the band [alpha, beta]
(beta - alpha <= pi) when it is on the left of alpha's direction and on the right of beta's.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .crossings import _HALF_PI, _THREE_HALF_PI, _TWO_PI, _insertion_sort, _wrap

SECTORS = 64
_SECTOR = _TWO_PI / SECTORS
# Half-width of the margin swept around the surviving sectors: far above the tie window (1e-9, see
# sweep._TIE_WINDOW) and atan2's rounding, far below a sector (0.098 rad).
SLACK = 1e-6
# The bands of the screen: a surviving stretch widened by this angle on each side (far above SLACK,
# far below a sector), so that every zero of the stretch passes the screen despite rounding.
_BAND = 1e-3
_BAND_COS, _BAND_SIN = math.cos(_BAND), math.sin(_BAND)
_GRID_COS = np.array([math.cos(k * _SECTOR) for k in range(SECTORS)] + [1.0])
_GRID_SIN = np.array([math.sin(k * _SECTOR) for k in range(SECTORS)] + [0.0])


@njit(cache=True)
def window_workspace():
    """Scratch of ``l1_window``: smooth-part values at the grid points, the surviving mask, the
    stretches (lo, hi, scored lo, scored hi) and the bands (cos, sin of their first and last angle)."""
    return (np.empty(SECTORS + 1), np.empty(SECTORS, np.bool_), np.empty((SECTORS + 2, 4)),
            np.empty((SECTORS, 4)))


@njit(cache=True)
def l1_window(a, b, w, d, e, x, y, size, lam, cap, work):
    """The stretches of the circle the l1 sweep must cover on this branch.

    Parameters
    ----------
    a, b, w, d, e : the branch's coefficients (w = cq - e, eq. (1-D)).
    x, y, size : the entries of V Z as x c + y s and their sizes hypot(x, y) (2 r each, rows 1, 2).
    lam : the l1 weight. cap : the best value found on the other branch (inf if none).
    work : ``window_workspace()``.

    Returns
    -------
    (stretches, bands): how many rows of ``work[2]`` and ``work[3]`` are filled, in increasing angle;
    (0, 0) when more than a quarter of the circle survives (the whole circle is swept instead), and
    (-1, 0) when no sector does (no point of the branch can beat ``cap``).
    """
    smooth, survive, stretches, bands = work
    r = x.size // 2
    floor = 0.0
    for j in range(r):                  # size[j] = ||Z_j|| (entries j and r + j share column j)
        floor += size[j]
    floor *= lam
    margin = 1e-12 * (abs(e) + abs(a) + abs(b) + abs(w) + abs(d) + floor)
    best_k, best_smooth = 0, np.inf
    for k in range(SECTORS + 1):
        c, s = _GRID_COS[k], _GRID_SIN[k]
        smooth[k] = e + a * c + b * s + c * (w * c + d * s)
        if k < SECTORS and smooth[k] < best_smooth:
            best_k, best_smooth = k, smooth[k]
    c, s = _GRID_COS[best_k], _GRID_SIN[best_k]
    attained = best_smooth
    for i in range(x.size):
        attained += lam * abs(x[i] * c + y[i] * s)
    threshold = min(attained, cap) + margin
    dip = 1.001 * (math.hypot(a, b) + 2.0 * math.hypot(w, d)) * _SECTOR * _SECTOR / 8.0
    count = 0
    for k in range(SECTORS):
        survive[k] = min(smooth[k], smooth[k + 1]) - dip + floor - margin <= threshold
        if survive[k]:
            count += 1
    if count == 0:
        return -1, 0
    if count > SECTORS // 4:
        return 0, 0
    n_stretch = n_band = 0
    if survive[SECTORS - 1] and not survive[0]:   # the slack past 2 pi, seen from 0
        stretches[0, 0], stretches[0, 1], stretches[0, 2], stretches[0, 3] = 0.0, SLACK, 0.0, 0.5 * SLACK
        n_stretch = 1
    k = 0
    while k < SECTORS:
        if not survive[k]:
            k += 1
            continue
        first = k
        while k < SECTORS and survive[k]:
            k += 1
        inner_lo, inner_hi = first * _SECTOR, k * _SECTOR
        stretches[n_stretch, 0] = max(inner_lo - SLACK, 0.0)
        stretches[n_stretch, 1] = min(inner_hi + SLACK, _TWO_PI)
        stretches[n_stretch, 2] = max(inner_lo - 0.5 * SLACK, 0.0)
        stretches[n_stretch, 3] = min(inner_hi + 0.5 * SLACK, _TWO_PI)
        n_stretch += 1
        c_lo, s_lo, c_hi, s_hi = _GRID_COS[first], _GRID_SIN[first], _GRID_COS[k], _GRID_SIN[k]
        bands[n_band, 0], bands[n_band, 1] = c_lo * _BAND_COS + s_lo * _BAND_SIN, s_lo * _BAND_COS - c_lo * _BAND_SIN
        bands[n_band, 2], bands[n_band, 3] = c_hi * _BAND_COS - s_hi * _BAND_SIN, s_hi * _BAND_COS + c_hi * _BAND_SIN
        n_band += 1
    if survive[0] and not survive[SECTORS - 1]:   # the slack before 0, seen from 2 pi
        stretches[n_stretch, 0], stretches[n_stretch, 1] = _TWO_PI - SLACK, _TWO_PI
        stretches[n_stretch, 2], stretches[n_stretch, 3] = _TWO_PI - 0.5 * SLACK, _TWO_PI
        n_stretch += 1
    return n_stretch, n_band


@njit(cache=True)
def _in_stretches(theta, stretches, n_stretch):
    """Whether angle theta lies in one of the stretches."""
    for t in range(n_stretch):
        if stretches[t, 0] <= theta <= stretches[t, 1]:
            return True
    return False


@njit(cache=True)
def l1_window_crossings_into(x, y, size, lam, stretches, n_stretch, bands, n_band, angle, cos_sin, owner, step):
    """The zeros of l1 (and theta = pi) that lie in the stretches, written as ``crossings._crossings_into``
    writes them (the same doubles), in the order of the entries. Returns their number."""
    q = 0
    for i in range(x.size):
        if size[i] == 0.0:
            continue
        plus = minus = False
        for t in range(n_band):   # screen the entry before its atan2: are its zeros in a band?
            p_lo = bands[t, 0] * x[i] + bands[t, 1] * y[i]
            p_hi = bands[t, 2] * x[i] + bands[t, 3] * y[i]
            plus = plus or (p_lo >= 0.0 and p_hi <= 0.0)      # (-y_i, x_i): at phi_i + pi/2
            minus = minus or (p_lo <= 0.0 and p_hi >= 0.0)    # (y_i, -x_i): at phi_i + 3 pi/2
        if not (plus or minus):
            continue
        phi = math.atan2(y[i], x[i])
        c_phi, s_phi = x[i] / size[i], y[i] / size[i]
        for zero in range(2):
            if not (plus if zero == 0 else minus):
                continue
            theta = _wrap(phi + (_HALF_PI if zero == 0 else _THREE_HALF_PI))
            if not _in_stretches(theta, stretches, n_stretch):
                continue
            sign = -1.0 if zero == 0 else 1.0   # + to - at phi + pi/2, - to + at phi + 3 pi/2
            angle[q], cos_sin[q, 0], cos_sin[q, 1] = theta, sign * s_phi, -sign * c_phi
            owner[q] = i
            step[q, 0], step[q, 1] = sign * 2.0 * lam * x[i], sign * 2.0 * lam * y[i]
            step[q, 2] = step[q, 3] = 0.0
            q += 1
    if _in_stretches(math.pi, stretches, n_stretch):
        angle[q], cos_sin[q, 0], cos_sin[q, 1], owner[q] = math.pi, -1.0, 0.0, -1
        step[q, 0] = step[q, 1] = step[q, 2] = step[q, 3] = 0.0
        q += 1
    return q


@njit(cache=True)
def insertion_order(angle, m, order):
    """order[:m] = 0..m-1 sorted by angle (stable: equal angles keep the order of the entries)."""
    for p in range(m):
        order[p] = p
    _insertion_sort(angle, order, m)

