"""Where the entries of V Z vanish or reach their cap on a branch, in sorted order (for :mod:`.sweep`).

Entry i of V Z is u_i = x_i c + y_i s = R_i cos(theta - phi_i): it vanishes at phi_i +- pi/2 and
(capped l1) reaches |u_i| = tau at phi_i +- beta_i and phi_i + pi +- beta_i. ``_crossings_into``
lists these crossings with the step each makes to h's linear part; ``_sort_crossings`` sorts the
zeros of l1, l0 and X >= 0 without a general sort: the two entries of a column of Z are a quarter
turn apart, so a column's four zeros sit at phi_j + k pi/2 and one sort of the r column offsets
orders all 4 r of them up to rounding (an insertion sort then finishes exactly). Everything is
written to the sweep's workspace: nothing is allocated per call. The state of h on an arc (its
linear part A_h c + B_h s + h_0 and the count of negative entries) is carried from crossing to crossing
by these steps in compensated sums, starting from a state evaluated entry by entry (``_stretch_state``).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..penalties import CAPPED_KIND, L1_KIND, NONNEG_KIND
from ..rounding import EPS, ZERO_ULPS

_ZERO_TOL = ZERO_ULPS * EPS  # an entry is zero when |x c + y s| <= _ZERO_TOL hypot(x, y), as in snap_zeros
_TWO_PI = 2.0 * math.pi
_HALF_PI = 0.5 * math.pi
_THREE_HALF_PI = 3.0 * _HALF_PI  # the same double as _STEPS[4, 0] * _HALF_PI
# Two crossings closer than this (in angle) are checked for a tie: a zero to rounding means
# |sin(angle gap)| <= _ZERO_TOL, far inside this tolerance, and atan2 rounds at the eps level.
# Arcs shorter than it get no stationary candidate: their end points are within O(tolerance^2)
# of any interior value.
_TIE_TOL = 1e-9
# The crossings of one entry, in the order they are met as theta grows from phi_i. Columns:
# offset from phi_i in units of pi/2, plus sign * beta_i; the step of (A_h, B_h) in units of
# lam (x_i, y_i), of h_0 in units of lam tau, and of the count of negative entries. Rows 1 and 4
# are the zeros (all that l1, l0 and X >= 0 have); capped l1 also leaves the + cap (row 0),
# enters and leaves the - cap (2, 3) and enters the + cap (5).
_STEPS = np.array([
    # quarter, beta sign, step AB, step h_0, step N
    [0.0, 1.0, 1.0, -1.0, 0.0],
    [1.0, 0.0, -2.0, 0.0, 1.0],
    [2.0, -1.0, 1.0, 1.0, 0.0],
    [2.0, 1.0, -1.0, -1.0, 0.0],
    [3.0, 0.0, 2.0, 0.0, -1.0],
    [4.0, -1.0, -1.0, 1.0, 0.0],
])


@njit(cache=True)
def _entries_into(Z, branch, x, y):
    """x, y of eq. (1-D): the entries of V Z are x c + y s (rows 1 and 2 of V Z, concatenated)."""
    r = Z.shape[1]
    sign = 1.0 if branch == 0 else -1.0  # rot(theta) = [[c, s], [-s, c]], ref(theta) = [[-c, s], [s, c]]
    for j in range(r):
        x[j] = sign * Z[0, j]
        y[j] = Z[1, j]
        x[r + j] = Z[1, j]
        y[r + j] = -sign * Z[0, j]


@njit(cache=True)
def _entries(Z, branch):
    """``_entries_into`` on new arrays: (x, y)."""
    x, y = np.empty(2 * Z.shape[1]), np.empty(2 * Z.shape[1])
    _entries_into(Z, branch, x, y)
    return x, y


@njit(cache=True)
def _wrap(v):
    """v % 2 pi for -2 pi < v < 4 pi, the same double as Python's (and numba's) float modulo: fmod
    is exact there (v or v - 2 pi), and a negative remainder gets 2 pi added."""
    if v < 0.0:
        return v + _TWO_PI
    if v >= _TWO_PI:
        return v - _TWO_PI
    return v


@njit(cache=True)
def entry_crossings_into(x, y, size, i, kind, lam, tau, q, angle, cos_sin, owner, step):
    """Write entry i's crossings at rows q, q + 1, ... of the workspace: angle, (cos, sin), owner i
    and the steps of (A_h, B_h, h_0, negatives) there. Returns the next free row.

    Parameters
    ----------
    x, y : ndarray, shape (2 r,)
        The entries of V Z are x c + y s (eq. (1-D)).
    size : ndarray, shape (2 r,)
        hypot(x, y), entry by entry (nonzero for entry i).
    i : int
        The entry.
    kind : int
        The penalty's kind code (:mod:`obcd_lite.penalties`).
    lam, tau : float
        The penalty's weight and (capped l1) cap.
    q : int
        The first row to write.
    angle : ndarray, shape (m_max,)
        Crossing angles in [0, 2 pi).
    cos_sin : ndarray, shape (m_max, 2)
        (cos, sin) of each crossing.
    owner : ndarray of int, shape (m_max,)
        The entry each crossing belongs to (-1: theta = pi).
    step : ndarray, shape (m_max, 4)
        The steps of (A_h, B_h, h_0, negatives) at each crossing.

    Returns
    -------
    int
        The next free row (q + 2, or q + 6 for capped l1 above its cap).
    """
    phi = math.atan2(y[i], x[i])
    c_phi, s_phi = x[i] / size[i], y[i] / size[i]
    if not (kind == CAPPED_KIND and size[i] > tau):
        # the zeros alone (rows 1 and 4 of _STEPS written out: the same operations, no table)
        angle[q], angle[q + 1] = _wrap(phi + _HALF_PI), _wrap(phi + _THREE_HALF_PI)
        cos_sin[q, 0], cos_sin[q, 1], cos_sin[q + 1, 0], cos_sin[q + 1, 1] = -s_phi, c_phi, s_phi, -c_phi
        owner[q] = owner[q + 1] = i
        step[q, :] = 0.0
        step[q + 1, :] = 0.0
        if kind == L1_KIND or kind == CAPPED_KIND:
            step[q, 0], step[q, 1] = -2.0 * lam * x[i], -2.0 * lam * y[i]
            step[q + 1, 0], step[q + 1, 1] = 2.0 * lam * x[i], 2.0 * lam * y[i]
        elif kind == NONNEG_KIND:
            step[q, 3], step[q + 1, 3] = 1.0, -1.0
        return q + 2
    cap_cos = tau / size[i]                     # capped l1 above its cap: the six crossings of _STEPS
    cap_sin = math.sqrt((1.0 - cap_cos) * (1.0 + cap_cos))
    beta = math.atan2(cap_sin, cap_cos)
    for row in range(6):
        angle[q] = _wrap(phi + _STEPS[row, 0] * _HALF_PI + _STEPS[row, 1] * beta)
        quarter = int(_STEPS[row, 0]) % 4       # rotate (cos phi, sin phi) by quarter * pi/2, then by +-beta
        if quarter == 0:
            c0, s0 = c_phi, s_phi
        elif quarter == 1:
            c0, s0 = -s_phi, c_phi
        elif quarter == 2:
            c0, s0 = -c_phi, -s_phi
        else:
            c0, s0 = s_phi, -c_phi
        if _STEPS[row, 1] == 0.0:               # a zero: no turn by beta
            cos_sin[q, 0], cos_sin[q, 1] = c0, s0
        else:
            s_delta = _STEPS[row, 1] * cap_sin
            cos_sin[q, 0] = c0 * cap_cos - s0 * s_delta
            cos_sin[q, 1] = s0 * cap_cos + c0 * s_delta
        owner[q] = i
        step[q, 0] = _STEPS[row, 2] * lam * x[i]
        step[q, 1] = _STEPS[row, 2] * lam * y[i]
        step[q, 2] = _STEPS[row, 3] * lam * tau
        step[q, 3] = 0.0
        q += 1
    return q


@njit(cache=True)
def pi_crossing_into(q, angle, cos_sin, owner, step):
    """theta = pi at row q (candidate (i) of Appendix B: t = infinity, no entry's crossing).

    Parameters
    ----------
    q : int
        The row to write.
    angle, cos_sin, owner, step : ndarray
        As for :func:`entry_crossings_into`.

    Returns
    -------
    int
        q + 1.
    """
    angle[q] = math.pi
    cos_sin[q, 0], cos_sin[q, 1] = -1.0, 0.0
    owner[q] = -1
    step[q, 0] = step[q, 1] = step[q, 2] = step[q, 3] = 0.0
    return q + 1


@njit(cache=True)
def _crossings_into(x, y, size, kind, lam, tau, angle, cos_sin, owner, step, first_of):
    """Every crossing of the branch, and theta = pi (last), written to the workspace
    (``entry_crossings_into``); entry i's crossings start at first_of[i]. Returns their number m."""
    q = 0
    for i in range(x.size):
        first_of[i] = q
        if size[i] > 0.0:
            q = entry_crossings_into(x, y, size, i, kind, lam, tau, q, angle, cos_sin, owner, step)
    return pi_crossing_into(q, angle, cos_sin, owner, step)


@njit(cache=True)
def _crossings(x, y, size, kind, lam, tau):
    """``_crossings_into`` on new arrays: (angle, cos_sin, owner, step), theta = pi last."""
    m = (6 if kind == CAPPED_KIND else 2) * x.size + 1
    angle, cos_sin, owner, step = np.empty(m), np.empty((m, 2)), np.empty(m, np.int64), np.empty((m, 4))
    m = _crossings_into(x, y, size, kind, lam, tau, angle, cos_sin, owner, step, np.empty(x.size, np.int64))
    return angle[:m], cos_sin[:m], owner[:m], step[:m]


@njit(cache=True)
def _sort_crossings(angle, size, first_of, m, order, psi, column, quarter):
    """order[:m] = the crossings of a branch of l1, l0 or X >= 0 sorted by angle, ties in a fixed order.

    Column j's four crossings (entries j and r + j, Z_j's two rows) sit at phi_j + k pi/2 up to
    rounding, one in each quarter circle, at the same offset psi_j inside it: one sort of the r
    offsets, then the crossings quarter by quarter in that column order are sorted up to rounding,
    and an insertion sort (exact, stable, near-linear here) puts every crossing in its place."""
    r = size.size // 2
    columns = 0
    for j in range(r):                   # size[j] = 0 exactly when Z_j = 0, and then size[r + j] = 0
        if size[j] == 0.0:
            continue
        first_zero = angle[first_of[j]]  # entry j's first zero, phi_j + pi/2
        its_quarter = min(int(first_zero / _HALF_PI), 3)
        key = first_zero - _HALF_PI * its_quarter
        p = columns
        while p > 0 and psi[p - 1] > key:
            psi[p], column[p], quarter[p] = psi[p - 1], column[p - 1], quarter[p - 1]
            p -= 1
        psi[p], column[p], quarter[p] = key, j, its_quarter
        columns += 1
    position = 0
    for this_quarter in range(4):
        if this_quarter == 2:                        # theta = pi (the last crossing) opens the third quarter
            order[position] = m - 1
            position += 1
        for p in range(columns):
            # from entry j's first zero on, a quarter turn at a time: entry r + j's second zero,
            # entry j's second zero, entry r + j's first zero
            j, turn = column[p], (this_quarter - quarter[p]) % 4
            if turn == 0:
                order[position] = first_of[j]
            elif turn == 1:
                order[position] = first_of[j + r] + 1
            elif turn == 2:
                order[position] = first_of[j] + 1
            else:
                order[position] = first_of[j + r]
            position += 1
    _insertion_sort(angle, order, m)


@njit(cache=True)
def _insertion_sort(angle, order, m):
    """Sort order[:m] by angle in place (stable; near-linear on nearly sorted input)."""
    for p in range(1, m):
        o = order[p]
        its_angle = angle[o]
        slot = p
        while slot > 0 and angle[order[slot - 1]] > its_angle:
            order[slot] = order[slot - 1]
            slot -= 1
        order[slot] = o


@njit(cache=True)
def _add(total, carry, term):
    """Compensated (Neumaier) summation: total + carry tracks the sum to ~eps of its own size, even
    after steps of lam ||Z_j|| many orders above the coefficients of P that they leave behind."""
    new_total = total + term
    if abs(total) >= abs(term):
        carry += (total - new_total) + term
    else:
        carry += (term - new_total) + total
    return new_total, carry


@njit(cache=True)
def _state_at(x, y, size, kind, lam, tau, c, s):
    """(A_h, B_h, h_0, negatives) of h at the point (c, s), entry by entry (zeros to rounding count as 0)."""
    a_h = b_h = h_0 = 0.0
    N = 0
    for i in range(x.size):
        u = x[i] * c + y[i] * s
        if size[i] == 0.0 or abs(u) <= _ZERO_TOL * size[i]:
            continue
        if kind == CAPPED_KIND and abs(u) >= tau:
            h_0 += lam * tau
        elif kind == L1_KIND or kind == CAPPED_KIND:
            sign = lam if u > 0.0 else -lam
            a_h += sign * x[i]
            b_h += sign * y[i]
        elif kind == NONNEG_KIND and u < 0.0:
            N += 1
    return a_h, b_h, h_0, N


@njit(cache=True)
def _stretch_state(x, y, size, kind, lam, tau, angle, order, step, p, q, lo, hi):
    """The state on the first arc of the stretch [lo, hi] whose crossings are order[p:q], read off the
    middle of its longest arc.

    A state is the sum of the entries' own states, so it is evaluated directly at one point
    and carried to the first arc by the steps in between; the point is the middle of the
    longest arc, so no entry is near a crossing there and rounding cannot pick a wrong side."""
    longest, gap, middle, before = p, -1.0, lo, lo
    for arc in range(p, q + 1):   # the arc ends at crossing ``arc`` (the last one at hi)
        end = angle[order[arc]] if arc < q else hi
        if end - before > gap:
            longest, gap, middle = arc, end - before, 0.5 * (before + end)
        before = end
    a_h, b_h, h_0, N = _state_at(x, y, size, kind, lam, tau, math.cos(middle), math.sin(middle))
    carry_a = carry_b = carry_h0 = 0.0
    for j in range(p, longest):  # undo the crossings between the first arc and the longest one
        o = order[j]
        a_h, carry_a = _add(a_h, carry_a, -step[o, 0])
        b_h, carry_b = _add(b_h, carry_b, -step[o, 1])
        h_0, carry_h0 = _add(h_0, carry_h0, -step[o, 2])
        N -= int(step[o, 3])
    return a_h + carry_a, b_h + carry_b, h_0 + carry_h0, N


@njit(cache=True)
def _tie_group(angle, order, j):
    """The sorted positions within _TIE_TOL of crossing j on the circle: (first, count)."""
    m = order.size
    theta = angle[order[j]]
    forward = 1
    while forward < m:
        gap = abs(angle[order[(j + forward) % m]] - theta)
        if min(gap, _TWO_PI - gap) > _TIE_TOL:
            break
        forward += 1
    back = 0
    while back < m - forward:
        gap = abs(angle[order[(j - back - 1) % m]] - theta)
        if min(gap, _TWO_PI - gap) > _TIE_TOL:
            break
        back += 1
    return j - back, back + forward


@njit(cache=True)
def _has_tie(angle, order, j):
    """Whether a neighbour of crossing j (in sorted order, on the circle) is within _TIE_TOL."""
    m = order.size
    if m == 1:
        return False
    theta = angle[order[j]]
    before = abs(theta - angle[order[j - 1]])      # j - 1 = -1 wraps to the last crossing
    after = abs(angle[order[(j + 1) % m]] - theta)
    return min(before, _TWO_PI - before) <= _TIE_TOL or min(after, _TWO_PI - after) <= _TIE_TOL
