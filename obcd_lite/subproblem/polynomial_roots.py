"""Real roots of polynomials of degree <= 4, compiled (the stationary points of the sweep).

``quartic_candidates`` returns the real roots of q where q changes sign and the real roots of q'
(where a double root of q may sit, its sign change lost to rounding). It cuts the line at the
roots of the higher derivatives (q'' and q''' in closed form) so that q' and then q are monotone
and free of inflections on every piece; each piece holds at most one root, found by Newton's
method from the end that satisfies Fourier's condition, inside a shrinking bracket. Under numba
this takes about 1.5 us where ``np.roots`` (a LAPACK eigenvalue call) took about 9 us.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..rounding import EPS

_EPS = float(EPS)


@njit(cache=True)
def _horner(c, lead, t):
    """(p(t), p'(t), p''(t)) for p with coefficients c[lead:] (highest degree first)."""
    value = 0.0
    slope = 0.0
    curve = 0.0
    for i in range(lead, c.size):
        curve = curve * t + slope
        slope = slope * t + value
        value = value * t + c[i]
    return value, slope, 2.0 * curve


@njit(cache=True)
def _root_between(c, lead, lo, hi, p_lo):
    """The root of p (coefficients c[lead:]) in [lo, hi], where p is monotone, changes sign and has
    no inflection (the pieces are cut at the roots of p' and p''): Newton's method from the end
    where p p'' > 0 approaches the root from one side, quadratically (Fourier's condition); a step
    that would leave the shrinking bracket (rounding) bisects instead."""
    value, slope, curve = _horner(c, lead, lo)
    t = lo if value * curve > 0.0 else hi
    for _ in range(100):
        value, slope, _ = _horner(c, lead, t)
        if value == 0.0:
            return t
        if (value < 0.0) == (p_lo < 0.0):
            lo = t
        else:
            hi = t
        previous = t
        step = t - value / slope if slope != 0.0 else np.nan
        t = step if lo <= step <= hi else 0.5 * (lo + hi)
        # converged: Newton's step (or the bracket) is down to rounding
        if not abs(t - previous) > 2.0 * _EPS * abs(t) or not hi - lo > 4.0 * _EPS * max(abs(lo), abs(hi)):
            break
    return t


@njit(cache=True)
def _insert_sorted(values, count, t):
    """values[:count] is sorted; insert t keeping it so; return count + 1."""
    i = count
    while i > 0 and values[i - 1] > t:
        values[i] = values[i - 1]
        i -= 1
    values[i] = t
    return count + 1


@njit(cache=True)
def _roots_on_pieces(c, lead, cuts, n_cuts, out, count):
    """Append to ``out`` the roots of the polynomial c[lead:] that change its sign, one per piece
    between the sorted ``cuts[:n_cuts]`` (p is monotone and free of inflections on each piece), and
    within Fujiwara's bound |t| <= 2 max_i |c_{lead+i} / c_lead|^(1/i) (the last term halved first)
    outside them; return the new count."""
    degree = c.size - 1 - lead
    bound = 0.0
    for i in range(1, degree + 1):
        ratio = abs(c[lead + i] / c[lead])
        if i == degree:
            ratio *= 0.5
        bound = max(bound, ratio ** (1.0 / i))
    bound = 2.0 * bound + _EPS  # > 0 even when every lower coefficient vanishes
    lo = -bound
    p_lo = _horner(c, lead, lo)[0]
    for j in range(n_cuts + 1):
        hi = cuts[j] if j < n_cuts else bound
        if hi < lo:
            continue
        p_hi = _horner(c, lead, hi)[0]
        if p_lo == 0.0:
            out[count] = lo
            count += 1
        elif p_hi != 0.0 and (p_lo < 0.0) != (p_hi < 0.0):
            out[count] = _root_between(c, lead, lo, hi, p_lo)
            count += 1
        lo, p_lo = hi, p_hi
    if p_lo == 0.0:
        out[count] = lo
        count += 1
    return count


@njit(cache=True)
def quartic_candidates(q, lead, out, scratch):
    """Real roots of the polynomial q[lead:] (degree 1 to 4, q[lead] != 0) where it changes sign,
    and the real roots of q' (a double root of q, where rounding may hide the sign change, is one),
    written to ``out`` (8 slots); the count is returned. ``scratch``: 15 slots (no allocation). q' is monotone and free of inflections
    between the roots of q'' and q''' (closed forms), q between those of q' and q''; each such
    piece holds at most one root, found by ``_root_between``.

    Parameters
    ----------
    q : ndarray, shape (5,)
        Coefficients, highest degree first, right-aligned (leading zeros before ``lead``).
    lead : int
        Index of the leading nonzero coefficient.
    out : ndarray, shape (8,)
        Receives the candidates in its first ``count`` slots.
    scratch : ndarray, shape (15,)
        Work space.

    Returns
    -------
    int
        ``count``, the number of candidates written.
    """
    degree = q.size - 1 - lead
    if degree == 1:
        out[0] = -q[lead + 1] / q[lead]
        return 1
    d1 = scratch[:5]   # q', right-aligned like q
    d1[:] = 0.0
    for i in range(degree):
        d1[5 - degree + i] = q[lead + i] * (degree - i)
    lead1 = 5 - degree
    second = scratch[5:7]  # the real roots of q'': cuts for both q' and q
    n_second = 0
    cuts = scratch[7:15]
    n_cuts = np.int64(0)  # int64: a literal would compile the callees twice
    if degree == 2:    # q' linear: its root is the vertex of q
        out[0] = -d1[4] / d1[3]
        count = 1
    else:
        if degree == 4:    # q'' quadratic (roots in closed form); q''' linear, its root is q'''s vertex
            a, b, cc = 3.0 * d1[lead1], 2.0 * d1[lead1 + 1], d1[lead1 + 2]
            n_cuts = _insert_sorted(cuts, n_cuts, -0.5 * b / a)
            disc = b * b - 4.0 * a * cc
            if disc >= 0.0:
                root = -0.5 * (b + math.copysign(math.sqrt(disc), b))  # no cancellation
                if root != 0.0:
                    second[0], second[1] = root / a, cc / root
                    n_second = 2
                else:
                    second[0] = 0.0
                    n_second = 1
        else:              # q'' linear
            second[0] = -d1[lead1 + 1] / (2.0 * d1[lead1])
            n_second = 1
        for i in range(n_second):
            n_cuts = _insert_sorted(cuts, n_cuts, second[i])
        count = _roots_on_pieces(d1, lead1, cuts, n_cuts, out, np.int64(0))
    n_cuts = np.int64(0)
    for i in range(count):
        n_cuts = _insert_sorted(cuts, n_cuts, out[i])
    for i in range(n_second):
        n_cuts = _insert_sorted(cuts, n_cuts, second[i])
    return _roots_on_pieces(q, lead, cuts, n_cuts, out, count)
