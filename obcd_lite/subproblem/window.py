"""The window: the stretches of the circle where a branch's minimum can lie, found before any
crossing is computed (for :mod:`.sweep`; l1, l0 and capped l1).

On a branch problem (3) is g(theta) = e + a c + b s + w c^2 + d c s + h(u), u_i = x_i c + y_i s. The
circle is cut into ``SECTORS`` equal sectors by a grid of ``SECTORS`` + 1 points. On a sector, g is
at least the smooth part's lower bound (the smaller end value minus M L^2 / 8, M = hypot(a, b) +
2 hypot(w, d) >= |g''| of the smooth part, L the sector's length) plus h's lower bound on the sector,
entry by entry: where u_i keeps its sign over the sector, |u_i| = R_i |cos(theta - phi_i)| is concave
there, so its least value is at an end of the sector (so is min(|u_i|, tau)'s), and u_i is nonzero
throughout (l0 counts lam); where u_i changes sign it contributes 0. g at the best grid point is a
value the branch attains. A sector whose bound is above it (or above the other branch's best), by
more than a margin far above rounding, holds no point that can win; the rest survive.

The sweep then computes, sorts and sweeps only the crossings of the surviving sectors, widened by
``SLACK`` on each side so that every crossing within the tie tolerance of a scored one is swept too,
and scores only crossings within half that slack of a surviving sector. The crossings it keeps are
the same doubles as the whole-circle sweep's (``crossings.entry_crossings_into`` writes both) and
none that can win is dropped; the state of h on each kept stretch is evaluated afresh instead of
carried around the circle (which changes it in the last bits only).

Entries are screened before their atan2 by dot products with the ends of each band (a surviving
stretch widened by ``_BAND``, at most a quarter circle and a little): a zero of u_i lies in the
band when u_i changes sign between its ends; for capped l1 a cap crossing (|u_i| = tau) lies in it
only if a zero or a peak of |u_i| (a sign change of u_i') does, or |u_i| - tau changes sign between
the ends (elsewhere |u_i| is monotone on the band).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from ..penalties import CAPPED_KIND
from .crossings import _TWO_PI, _insertion_sort, entry_crossings_into, pi_crossing_into

SECTORS = 128
_SECTOR = _TWO_PI / SECTORS
_QUARTER = SECTORS // 4
# Half-width of the margin swept around the surviving sectors: far above the tie tolerance (1e-9, see
# sweep._TIE_TOL) and atan2's rounding, far below a sector (0.098 rad).
SLACK = 1e-6
# The bands of the screen: a surviving stretch widened by this angle on each side (far above SLACK,
# far below a sector), so that every crossing of the stretch passes the screen despite rounding.
_BAND = 1e-3
_BAND_COS, _BAND_SIN = math.cos(_BAND), math.sin(_BAND)
_GRID_COS = np.array([math.cos(g * _SECTOR) for g in range(SECTORS)] + [1.0])
_GRID_SIN = np.array([math.sin(g * _SECTOR) for g in range(SECTORS)] + [0.0])
# At most this many sectors may survive for the window to be used: beyond it the stretches' states
# and screens cost more than sweeping the whole circle.
_MOST_SECTORS = SECTORS // 4


class WindowWorkspace(NamedTuple):
    """Scratch of ``cut_circle``, by name.

    Attributes
    ----------
    smooth : numpy.ndarray, shape (SECTORS + 1,)
        The smooth part at the grid points.
    h_grid : numpy.ndarray, shape (_QUARTER + 1,)
        h / lam at the grid points of a quarter circle (h has period pi / 2).
    h_sector : numpy.ndarray, shape (2, _QUARTER)
        Per sector of it the sign-keeping entries' h / lam at its lo and hi end.
    entry : numpy.ndarray, shape (2 _QUARTER + 1,)
        One entry's values on half the circle.
    survive : numpy.ndarray of bool, shape (SECTORS,)
        The surviving sectors.
    stretches : numpy.ndarray, shape (SECTORS + 2, 4)
        The stretches (lo, hi, scored lo, scored hi).
    bands : numpy.ndarray, shape (SECTORS, 4)
        The bands (cos, sin of their first and of their last angle).
    """
    smooth: np.ndarray
    h_grid: np.ndarray
    h_sector: np.ndarray
    entry: np.ndarray
    survive: np.ndarray
    stretches: np.ndarray
    bands: np.ndarray


@njit(cache=True)
def window_workspace():
    """A new ``WindowWorkspace``.

    Returns
    -------
    WindowWorkspace
        Its arrays allocated, not initialized.
    """
    return WindowWorkspace(np.empty(SECTORS + 1), np.empty(_QUARTER + 1), np.empty((2, _QUARTER)),
                           np.empty(2 * _QUARTER + 1),
                           np.empty(SECTORS, np.bool_), np.empty((SECTORS + 2, 4)), np.empty((SECTORS, 4)))


@njit(cache=True)
def penalty_bounds(x, y, size, kind, tau, work):
    """For the branch whose entries x, y are given: h / lam at the grid points of the first quarter
    circle (``work.h_grid``, _QUARTER + 1 values) and, per sector of it, the part of h / lam at its
    two ends from the entries that keep their sign on it (``work.h_sector``: rows lo end, hi end).

    Entry r + j is entry j a quarter turn back, (x, y)_{r+j} = (y_j, -x_j), and |u_j| has period pi:
    so h has period pi / 2, and entry j's values on half the circle give both entries of column j.
    On the other branch u_j(theta) is this branch's u_j(pi - theta): ``cut_circle`` reads these
    bounds mirrored there, so one call serves both branches.

    Parameters
    ----------
    x, y : numpy.ndarray, shape (2 r,)
        The entries of V Z are x c + y s (eq. (1-D)).
    size : numpy.ndarray, shape (2 r,)
        hypot(x_i, y_i).
    kind : int
        The penalty (``L1_KIND``, ``L0_KIND`` or ``CAPPED_KIND``).
    tau : float
        Its cap.
    work : WindowWorkspace
        ``window_workspace()``; receives ``h_grid`` and ``h_sector``.
    """
    r = x.size // 2
    at_grid, ends, entry = work.h_grid, work.h_sector, work.entry
    at_grid[:] = 0.0
    ends[:] = 0.0
    cap = tau if kind == CAPPED_KIND else np.inf
    for j in range(r):
        if size[j] == 0.0:
            continue
        for g in range(2 * _QUARTER + 1):     # min(|u_j|, cap) with u_j's sign: a sign change is a zero
            u = x[j] * _GRID_COS[g] + y[j] * _GRID_SIN[g]
            entry[g] = min(u, cap) if u >= 0.0 else max(u, -cap)
        # entry j at grid point g, entry r + j at g + _QUARTER (|u_{r+j}(theta)| = |u_j(theta + pi/2)|)
        for g in range(_QUARTER + 1):
            at_grid[g] += abs(entry[g]) + abs(entry[g + _QUARTER])
        for g in range(_QUARTER):       # written without branches, so that the loop vectorizes
            lo, hi = entry[g], entry[g + 1]
            keeps = 1.0 if lo * hi > 0.0 else 0.0
            lo_r, hi_r = entry[g + _QUARTER], entry[g + _QUARTER + 1]
            keeps_r = 1.0 if lo_r * hi_r > 0.0 else 0.0
            ends[0, g] += keeps * abs(lo) + keeps_r * abs(lo_r)
            ends[1, g] += keeps * abs(hi) + keeps_r * abs(hi_r)


@njit(cache=True)
def cut_circle(a, b, w, d, e, size, kind, lam, tau, cap, mirrored, work):
    """The stretches of the circle the sweep must cover on this branch.

    Parameters
    ----------
    a, b, w, d, e : float
        The branch's coefficients (w = cq - e, eq. (1-D)).
    size : numpy.ndarray, shape (2 r,)
        The sizes hypot(x_i, y_i) of the entries of V Z.
    kind : int
        The penalty (``L1_KIND`` or ``CAPPED_KIND``).
    lam, tau : float
        Its parameters.
    cap : float
        The best value found on the other branch (inf if none).
    mirrored : bool
        Whether ``penalty_bounds`` was called with the other branch's entries.
    work : WindowWorkspace
        ``window_workspace()``, filled by ``penalty_bounds``.

    Returns
    -------
    tuple of (int, int)
        (stretches, bands): how many rows of ``work.stretches`` and ``work.bands`` are filled, in increasing
        angle; (0, 0) when more than ``_MOST_SECTORS`` sectors survive (the whole circle is swept instead),
        and (-1, 0) when no sector does (no point of the branch can beat ``cap``).
    """
    smooth, h_grid, h_sector = work.smooth, work.h_grid, work.h_sector
    floor = 0.0                         # h's size, for the margin
    for i in range(size.size):
        if size[i] > 0.0:
            floor += min(size[i], tau) if kind == CAPPED_KIND else size[i]
    floor *= lam
    margin = 1e-12 * (abs(e) + abs(a) + abs(b) + abs(w) + abs(d) + floor)
    attained = np.inf
    for g in range(SECTORS + 1):
        c, s = _GRID_COS[g], _GRID_SIN[g]
        smooth[g] = e + a * c + b * s + c * (w * c + d * s)
        attained = min(attained, smooth[g] + lam * h_grid[(_QUARTER - g) % _QUARTER if mirrored else g % _QUARTER])
    threshold = min(attained, cap) + margin
    dip = 1.001 * (math.hypot(a, b) + 2.0 * math.hypot(w, d)) * _SECTOR * _SECTOR / 8.0
    survive = work.survive
    count = 0
    for g in range(SECTORS):
        # sector [g, g + 1]: smooth part + lam h over the entries that keep their sign is at least the
        # smaller end value less the smooth part's dip (that h is concave there); the others add >= 0
        if mirrored:
            at_lo, at_hi = h_sector[1, (_QUARTER - 1 - g) % _QUARTER], h_sector[0, (_QUARTER - 1 - g) % _QUARTER]
        else:
            at_lo, at_hi = h_sector[0, g % _QUARTER], h_sector[1, g % _QUARTER]
        low = min(smooth[g] + lam * at_lo, smooth[g + 1] + lam * at_hi)
        survive[g] = low - dip - margin <= threshold
        if survive[g]:
            count += 1
    if count == 0:
        return -1, 0
    if count > _MOST_SECTORS:
        return 0, 0
    return _stretches_of(survive, work.stretches, work.bands)


@njit(cache=True)
def _stretches_of(survive, stretches, bands):
    """The runs of surviving sectors as stretches (widened by SLACK, scored to half of it) and bands."""
    n_stretch = n_band = 0
    if survive[SECTORS - 1] and not survive[0]:   # the slack past 2 pi, seen from 0
        stretches[0, 0], stretches[0, 1], stretches[0, 2], stretches[0, 3] = 0.0, SLACK, 0.0, 0.5 * SLACK
        n_stretch = 1
    g = 0
    while g < SECTORS:
        if not survive[g]:
            g += 1
            continue
        first = g
        while g < SECTORS and survive[g]:
            g += 1
        inner_lo, inner_hi = first * _SECTOR, g * _SECTOR
        stretches[n_stretch, 0] = max(inner_lo - SLACK, 0.0)
        stretches[n_stretch, 1] = min(inner_hi + SLACK, _TWO_PI)
        stretches[n_stretch, 2] = max(inner_lo - 0.5 * SLACK, 0.0)
        stretches[n_stretch, 3] = min(inner_hi + 0.5 * SLACK, _TWO_PI)
        n_stretch += 1
        c_lo, s_lo, c_hi, s_hi = _GRID_COS[first], _GRID_SIN[first], _GRID_COS[g], _GRID_SIN[g]
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
    for stretch in range(n_stretch):
        if stretches[stretch, 0] <= theta <= stretches[stretch, 1]:
            return True
    return False


@njit(cache=True)
def _crosses_a_band(x, y, size, i, kind, tau, bands, n_band):
    """The screen: whether one of entry i's crossings may lie in a band (no atan2)."""
    for band in range(n_band):
        value_lo = bands[band, 0] * x[i] + bands[band, 1] * y[i]      # u_i at the band's ends
        value_hi = bands[band, 2] * x[i] + bands[band, 3] * y[i]
        if value_lo * value_hi <= 0.0:
            return True                                         # a zero (or both ends within underflow of one)
        if kind == CAPPED_KIND and size[i] > tau:
            slope_lo = bands[band, 0] * y[i] - bands[band, 1] * x[i]  # u_i' at the band's ends
            slope_hi = bands[band, 2] * y[i] - bands[band, 3] * x[i]
            if slope_lo * slope_hi <= 0.0:
                return True                                     # a peak of |u_i|
            if (abs(value_lo) >= tau) != (abs(value_hi) >= tau):
                return True                                     # |u_i| monotone here, and crosses tau
    return False


@njit(cache=True)
def window_crossings_into(x, y, size, kind, lam, tau, stretches, n_stretch, bands, n_band, angle, cos_sin, owner,
                          step):
    """The crossings (and theta = pi) that lie in the stretches, written as ``crossings._crossings_into``
    writes them (the same doubles), in the order of the entries.

    Parameters
    ----------
    x, y : numpy.ndarray, shape (2 r,)
        The entries of V Z are x c + y s (eq. (1-D)).
    size : numpy.ndarray, shape (2 r,)
        hypot(x_i, y_i).
    kind : int
        The penalty's kind.
    lam, tau : float
        Its parameters.
    stretches : numpy.ndarray
        ``work.stretches`` (``cut_circle``).
    n_stretch : int
        Its filled rows.
    bands : numpy.ndarray
        ``work.bands`` (``cut_circle``).
    n_band : int
        Its filled rows.
    angle, cos_sin, owner, step : numpy.ndarray
        The sweep's crossing arrays, written from row 0 (``SweepWorkspace``).

    Returns
    -------
    int
        The number of crossings written.
    """
    q = np.int64(0)  # int64: a literal would compile the callees twice
    for i in range(x.size):
        if size[i] == 0.0 or not _crosses_a_band(x, y, size, i, kind, tau, bands, n_band):
            continue
        end = entry_crossings_into(x, y, size, i, kind, lam, tau, q, angle, cos_sin, owner, step)
        for p in range(q, end):      # keep those in a stretch, in place
            if _in_stretches(angle[p], stretches, n_stretch):
                angle[q], cos_sin[q, 0], cos_sin[q, 1], owner[q] = angle[p], cos_sin[p, 0], cos_sin[p, 1], owner[p]
                step[q, 0], step[q, 1], step[q, 2], step[q, 3] = step[p, 0], step[p, 1], step[p, 2], step[p, 3]
                q += 1
    if _in_stretches(math.pi, stretches, n_stretch):
        q = pi_crossing_into(q, angle, cos_sin, owner, step)
    return q


@njit(cache=True)
def insertion_order(angle, m, order):
    """order[:m] = 0..m-1 sorted by angle (stable: equal angles keep the order of the entries).

    Parameters
    ----------
    angle : numpy.ndarray
        The crossings' angles.
    m : int
        How many.
    order : numpy.ndarray of int
        Receives the order.
    """
    for p in range(m):
        order[p] = p
    _insertion_sort(angle, order, m)
