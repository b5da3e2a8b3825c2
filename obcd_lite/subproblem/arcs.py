"""The smooth part of the k = 2 subproblem on one arc of a circle (used by :mod:`.sweep`).

Between two crossings of the sweep, problem (3) on a branch is g(theta) = e + A c + B s + w c^2 + d c s
with (c, s) = (cos theta, sin theta) and constant (A, B) (``a_eff``, ``b_eff`` in the code): these
functions give its exact minimum on the arc for each part alone (the sweep adds them into a lower
bound that prunes arcs) and its stationary points (the candidates inside an arc): closed form when the
quadratic part vanishes (Qt = varsigma I), otherwise the real roots of one quartic in tan(theta / 2),
each polished by Newton's method.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .crossings import _TWO_PI
from .polynomial_roots import quartic_candidates

# Newton steps on g'(theta) that polish each quartic root (a root in t loses digits when the
# coefficients span many orders of magnitude, e.g. a root near t = infinity next to roots near 1).
_NEWTON_STEPS = 4
_REACH = 0.5 * _NEWTON_STEPS + 1e-6  # how far (in angle) the polishing can move a root, with a margin


@njit(cache=True)
def linear_min_inside(a_eff, b_eff, c_lo, s_lo, c_hi, s_hi):
    """Whether the minimizer -(A, B)/hypot(A, B) of A cos + B sin lies on the arc from (c_lo, s_lo) to
    (c_hi, s_hi): the derivative -A sin + B cos goes from <= 0 to >= 0. Arcs are at most pi long
    (theta = pi is a crossing and zeros come in antipodal pairs), so no maximum can pass for it.

    Parameters
    ----------
    a_eff, b_eff : float
        The linear coefficients.
    c_lo, s_lo : float
        cos and sin of the arc's start.
    c_hi, s_hi : float
        cos and sin of the arc's end.

    Returns
    -------
    bool
        True when the minimizer is on the arc (never for A = B = 0).
    """
    return -a_eff * s_lo + b_eff * c_lo <= 0.0 <= -a_eff * s_hi + b_eff * c_hi and (a_eff != 0.0 or b_eff != 0.0)


@njit(cache=True)
def linear_min_on_arc(a_eff, b_eff, c_lo, s_lo, c_hi, s_hi):
    """min of A cos + B sin over an arc, from its end points.

    Parameters
    ----------
    a_eff, b_eff, c_lo, s_lo, c_hi, s_hi : float
        As for :func:`linear_min_inside`.

    Returns
    -------
    float
        The minimum over the arc.
    """
    if linear_min_inside(a_eff, b_eff, c_lo, s_lo, c_hi, s_hi):
        return -math.hypot(a_eff, b_eff)
    return min(a_eff * c_lo + b_eff * s_lo, a_eff * c_hi + b_eff * s_hi)


@njit(cache=True)
def quadratic_min_on_arc(w, d, half, lo, hi, c_lo, s_lo, c_hi, s_hi):
    """min of w c^2 + d c s = w/2 + (w cos 2theta + d sin 2theta)/2 over [lo, hi]; its minimizers
    on the circle are half and half + pi, half = (atan2(d, w) + pi)/2.

    Parameters
    ----------
    w, d : float
        The quadratic coefficients.
    half : float
        (atan2(d, w) + pi)/2.
    lo, hi : float
        The arc's ends as angles.
    c_lo, s_lo, c_hi, s_hi : float
        cos and sin of ``lo`` and of ``hi``.

    Returns
    -------
    float
        The minimum over the arc.
    """
    if lo <= half <= hi or lo <= half + math.pi <= hi:
        return 0.5 * (w - math.hypot(w, d))
    return min(c_lo * (w * c_lo + d * s_lo), c_hi * (w * c_hi + d * s_hi))


@njit(cache=True)
def stationary_angles(a_eff, b_eff, w, d, out, scratch, lo, hi):
    """Stationary points of g = A c + B s + w c^2 + d c s, as angles in [0, 2 pi), written to out
    (8 slots) and counted (the return value; ``scratch``: 20 slots): the closed form
    when w = d = 0, else the real roots of g'(theta) (1 + t^2)^2, a quartic in t = tan(theta / 2)
    (and the roots of its derivative, where a double root may sit), each polished by Newton's
    method on g'(theta) (any angle is a harmless candidate, scored exactly by the caller). Only
    the points that may land on the arc [lo, hi] are polished and returned: a Newton step moves
    less than 1/2, so a root farther than _NEWTON_STEPS / 2 from the arc cannot reach it.

    Parameters
    ----------
    a_eff, b_eff, w, d : float
        The coefficients of g.
    out : ndarray, shape (8,)
        Receives the angles in its first ``count`` slots.
    scratch : ndarray, shape (20,)
        Work space.
    lo, hi : float
        The arc's ends as angles.

    Returns
    -------
    int
        ``count``, the number of angles written.
    """
    if w == 0.0 and d == 0.0:  # A c + B s: one minimizer, in closed form
        out[0] = (math.atan2(b_eff, a_eff) + math.pi) % _TWO_PI
        return 1
    coeffs = scratch[:5]
    coeffs[0], coeffs[1], coeffs[2] = d - b_eff, 4.0 * w - 2.0 * a_eff, -6.0 * d
    coeffs[3], coeffs[4] = -2.0 * a_eff - 4.0 * w, b_eff + d
    # Coefficients below eps of the largest are rounding noise; a vanishing leading coefficient is
    # a root at t = infinity, theta = pi, which is a crossing of its own.
    largest = np.max(np.abs(coeffs))
    lead = 5
    for i in range(5):
        if abs(coeffs[i]) < 1e-16 * largest:
            coeffs[i] = 0.0
        elif lead == 5:
            lead = i
    if lead >= 4:  # a constant (or zero) quartic: no root
        return 0
    count = quartic_candidates(coeffs, lead, out, scratch[5:])
    kept = 0
    middle, half_width = 0.5 * (lo + hi), 0.5 * (hi - lo)
    for i in range(count):
        theta = 2.0 * math.atan(out[i])
        if abs((theta - middle + math.pi) % _TWO_PI - math.pi) - half_width > _REACH:
            continue
        for _ in range(_NEWTON_STEPS):
            c, s = math.cos(theta), math.sin(theta)
            c2, s2 = c * c - s * s, 2.0 * c * s
            slope = -a_eff * s + b_eff * c - w * s2 + d * c2
            curve = -a_eff * c - b_eff * s - 2.0 * w * c2 - 2.0 * d * s2
            if curve == 0.0 or abs(slope) >= 0.5 * abs(curve):  # only small, well-defined steps
                break
            theta -= slope / curve
        out[kept] = theta % _TWO_PI
        kept += 1
    return kept
