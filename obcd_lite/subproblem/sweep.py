"""The k = 2 subproblem by a compiled sweep around the circle (the solver behind ``solve_2x2``).

To learn the search, read the plain-loop version first: ``reference.reference_2x2`` (Appendix B, corrected).

The problem and the candidates are those of Appendix B, written in the angle theta instead of
t = tan theta. On a branch (rot or ref, Lemma 2.5) problem (3) is

    g(theta) = e + a c + b s + w c^2 + d c s + h(c x + s y),   w = cq - e,

with (c, s) = (cos theta, sin theta) and the coefficients of eq. (1-D). Entry i of V Z is
u_i = x_i c + y_i s = R_i cos(theta - phi_i), R_i = hypot(x_i, y_i), phi_i = atan2(y_i, x_i).
It vanishes at phi_i +- pi/2: the breakpoints t = -x_i / y_i of the paper's tan substitution
(the paper prints x_i / y_i). Where |u_i| = tau (capped l1) it crosses its cap, at
phi_i +- beta_i and phi_i + pi +- beta_i with beta_i = arccos(tau / R_i).

Sorting these crossings (``crossings``: one sort of the r column offsets, not of all 4r
crossings) cuts the circle into arcs. On each arc h is A_h c + B_h s + h_0 with
constant (A_h, B_h, h_0), and each crossing changes them by a known step:

* l1: a zero from + to - adds -2 lam (x_i, y_i), from - to + adds +2 lam (x_i, y_i);
* capped l1: leaving the cap on the + side adds +lam (x_i, y_i) and -lam tau, and so on
  around the six crossings of an entry (``crossings._STEPS``);
* X >= 0: h is 0 on arcs where no entry is negative and +inf elsewhere (a count of negative
  entries is swept along).

The state on the first arc is evaluated entry by entry at the middle of the longest arc and
carried back by the steps in between, so it agrees with the sorted order whatever atan2 rounds.

For l1 and capped l1 the circle is first cut down (``window``): sectors whose lower bound lies above
a value the branch attains (or the other branch's best) cannot hold the minimum, and only the
crossings of the surviving stretches are computed, sorted and swept, each stretch from a state
evaluated in it; where more than a quarter of the circle survives, the whole circle is swept.
l0 needs no sweep: h is lam * (number of live entries) on every arc, so its candidates are scored
directly (``l0_points``: the zeros of the entries without atan2 or sort, ties among columns found by
one sort of r keys).

The global minimum is among (i) every crossing and theta = pi, each scored exactly (for l0
every entry zero there drops out, ties included; for X >= 0 the point is checked entry by
entry; where crossings tie to within _TIE_TOL = 1e-9 their order is arbitrary, so the point is
scored entry by entry), and (ii) the stationary points inside the arcs: -(A, B) / hypot(A, B) when the
quadratic part is constant (Qt = varsigma I, where the paper's quartic degenerates), otherwise
the real roots of the quartic in t = tan(theta / 2) (``polynomial_roots.quartic_candidates``: the
sign changes, plus the roots of its derivative where a double root may sit)

    (d - B) t^4 + (4w - 2A) t^3 - 6d t^2 - (2A + 4w) t + (B + d) = 0,

which is g'(theta) (1 + t^2)^2 = 0 (theta = pi, t = infinity, is candidate (i)), each root
polished by Newton's method on g'(theta). A minimum of g inside an arc is a sign change of g'
from - to +, hence of the quartic. Quartics are
solved only on arcs whose lower bound beats the best value so far, most promising arc first;
the bound is the larger of the arc-wise minima of the linear and the quadratic part added, and
the smaller end value minus M L^2 / 8 (|g''| <= M on an arc of length L). A root that is not a stationary
point is still a point of its arc with its exact value, so it cannot give a wrong answer.
Arcs whose end values alone put them out of the race skip the bound, and the second branch is
skipped when a lower bound of the whole branch (the smooth part's two terms minimized apart,
plus h's least value on the circle) is above the first branch's best: for OBCD's steps at small
lam the reflection branch nearly always is, and at larger lam the window (whose penalty bounds, computed
once, serve both branches) rejects it or keeps a few sectors. None of these changes the candidate
that wins.

The loops are compiled with numba: written with NumPy arrays, the same search spends most of its
time in NumPy's fixed cost per call (about 50 operations on arrays of a few dozen numbers). The
compiled OBCD kernel passes one workspace (:mod:`.workspace`: ``sweep_workspace``, a ``SweepWorkspace``
whose arrays are named) to every step (``sweep_into``), so the sweep allocates nothing (capped l1 swept on the
whole circle still sorts with ``np.argsort``). ``sweep_into`` reads as its stages: the column sizes,
then per branch the branch floor, ``_l0_branch`` (l0) or ``_branch_crossings`` (window, crossings,
order), ``_score_crossings`` (pass 1: every crossing, and the arcs' states) and ``_score_inside_arcs``
(l1, capped l1) or ``_score_stationary`` (h = 0, X >= 0) for pass 2.
``breakpoint.candidate_set`` keeps the vectorized form, which lists every candidate for teaching.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..block_arithmetic import rotate_rows
from ..penalties import CAPPED_KIND, L0_KIND, L1_KIND, NONNEG_KIND
from .arcs import linear_min_inside, linear_min_on_arc, quadratic_min_on_arc, stationary_angles
from .crossings import (_TIE_TOL, _TWO_PI, _ZERO_TOL, _add, _crossings_into, _entries_into, _has_tie,
                        _sort_crossings, _state_at, _stretch_state, _tie_group)
from .l0_points import _count_zeros, l0_zeros_min, line_keys
from .window import cut_circle, insertion_order, penalty_bounds, window_crossings_into
from .workspace import sweep_workspace
from ..specialise import FAMILIES, family, specialised

#: Read by ``_sweep_into`` and ``_branch_crossings``; each compiled copy has its own (see the end).
HAS_L0 = HAS_CAPPED = True


@njit(cache=True)
def _seam_partner(j, arcs, ends):
    """The other half of arc j if arc j runs through theta = 0, else -1.

    0 = 2 pi is no crossing: where the first arc starts at 0 and the last ends at 2 pi they are one
    arc, with one state (to rounding). A stationary point within rounding of 0 comes back from
    ``stationary_angles`` as a tiny angle or as one just below 2 pi, whichever half's (A, B) it was
    polished with; each half accepts the points of the other, so neither half can drop it."""
    if arcs > 1 and ends[0, 0] == 0.0 and ends[arcs - 1, 1] == _TWO_PI:
        if j == 0:
            return arcs - 1
        if j == arcs - 1:
            return 0
    return -1


@njit(cache=True)
def _unit(theta):
    """(cos, sin) of theta, exact at the ends 0 and 2 pi of the circle."""
    if theta == 0.0 or theta == _TWO_PI:
        return 1.0, 0.0
    return math.cos(theta), math.sin(theta)


@njit(cache=True)
def _is_nonnegative(x, y, size, c, s):
    """Every entry x_i c + y_i s >= 0 or zero to rounding."""
    for i in range(x.size):
        if x[i] * c + y[i] * s < -_ZERO_TOL * size[i]:
            return False
    return True


@njit(cache=True)
def _score_point(x, y, size, kind, lam, live, a, b, e, w, d, c, s):
    """Problem (3) at (c, s) for h = 0, l0 or X >= 0 (one linear part on the whole circle), with h
    evaluated entry by entry: l0 counts the zeros to rounding, X >= 0 checks every entry."""
    value = e + a * c + b * s + c * (w * c + d * s)
    if kind == L0_KIND:
        value += lam * (live - _count_zeros(x, y, size, c, s))
    elif kind == NONNEG_KIND and not _is_nonnegative(x, y, size, c, s):
        value = np.inf
    return value


@njit(cache=True)
def _branch_floor(column_size, kind, lam, tau, a, b, w, d, e):
    """A lower bound of problem (3) on a whole branch, less a margin far above rounding: the smooth
    part's two terms minimized apart, plus h's least value on the circle. Column j of V Z holds two
    entries u, u' with u^2 + u'^2 = ||Z_j||^2 (``column_size[j]``), so |u| + |u'| >= ||Z_j|| (l1;
    capped l1 takes min(., tau)) and at most one of them is zero, to rounding or not (l0)."""
    floor = 0.0
    scale = abs(e) + abs(a) + abs(b) + abs(w) + abs(d)
    for j in range(column_size.size):
        size = column_size[j]
        if kind == L1_KIND:
            floor += lam * size
        elif kind == CAPPED_KIND:
            floor += lam * min(size, tau)
        elif kind == L0_KIND and size > 0.0:
            floor += lam
    smooth = e - math.hypot(a, b) + 0.5 * (w - math.hypot(w, d))
    return smooth + floor - 1e-12 * (scale + floor)


@njit(cache=True)
def _column_sizes(Z, size):
    """size[j] = size[r + j] = ||Z_j||: entries j and r + j of V Z are +-Z[0, j], +-Z[1, j] in some
    order on either branch, and hypot ignores signs and order (one hypot per column, the same double
    as per entry). Returns (live entries, largest column)."""
    r = Z.shape[1]
    live, largest = 0, 0.0
    for j in range(r):
        size[j] = size[r + j] = math.hypot(Z[0, j], Z[1, j])
        largest = max(largest, size[j])
        if size[j] > 0.0:
            live += 2
    return live, largest


def sweep_2x2(coef, Z, kind, lam, tau, first, last):
    """``sweep_into`` with a new workspace, compiled for ``kind``'s penalty family only
    (:mod:`obcd_lite.specialise`: a first l1 subproblem compiles neither l0's search nor capped l1's sort).

    Parameters
    ----------
    coef : numpy.ndarray, shape (2, 5)
        Rows (a, b, cq, d, e) of eq. (1-D) for rot and ref.
    Z : numpy.ndarray, shape (2, r)
        The rows X(B, :), C-contiguous.
    kind : int
        The penalty's kind, as for :func:`sweep_into`.
    lam, tau : float
        The penalty's parameters (ignored where it has none).
    first, last : int
        The branches searched, 0 (rot) to 1 (ref) inclusive.

    Returns
    -------
    tuple of (int, float, float, float, numpy.ndarray)
        (branch, c, s, value, VZ): those of :func:`sweep_into`, with VZ a new (2, r) array.
    """
    return _SWEEP_2X2[family(kind)](coef, Z, kind, lam, tau, first, last)


def _sweep_2x2(coef, Z, kind, lam, tau, first, last):
    """The compiled body of :func:`sweep_2x2`, one copy per penalty family."""
    VZ = np.empty((2, Z.shape[1]))
    branch, c, s, value = sweep_into(coef, Z, kind, lam, tau, first, last, sweep_workspace(Z.shape[1]), VZ)
    return branch, c, s, value, VZ


def _sweep_into(coef, Z, kind, lam, tau, first, last, work, VZ):
    """Global minimizer of problem (3), k = 2, for a separable h given by ``kind``.

    Parameters
    ----------
    coef : numpy.ndarray, shape (2, 5)
        Rows (a, b, cq, d, e) of eq. (1-D) for rot and ref.
    Z : numpy.ndarray, shape (2, r)
        C-contiguous (r = 0 for h = 0).
    kind : int
        ``ZERO_KIND``, ``L1_KIND``, ``L0_KIND``, ``CAPPED_KIND`` or ``NONNEG_KIND``.
    lam, tau : float
        The penalty's parameters (ignored where it has none).
    first, last : int
        The branches searched, 0 (rot) to 1 (ref) inclusive.
    work : SweepWorkspace
        ``sweep_workspace(r)``.
    VZ : numpy.ndarray, shape (2, r)
        Receives the new rows V Z, in which the entries that are zero to rounding
        are exactly 0.0 (as ``penalties.snap_zeros``).

    Returns
    -------
    tuple of (int, float, float, float)
        (branch, c, s, value): the best candidate and its value (+inf, with (c, s) = (1, 0), when
        X >= 0 admits no point on the searched branches).

    Notes
    -----
    ``sweep_into`` handles every penalty; ``SWEEP_INTO[family(kind)]`` is the same code compiled
    without the other penalties' searches (:mod:`obcd_lite.specialise`), for that kind only.
    """
    best, best_branch, best_c, best_s = np.inf, first, 1.0, 0.0
    r = Z.shape[1]
    live, largest = _column_sizes(Z, work.size)
    if kind == CAPPED_KIND and largest <= tau:
        kind = L1_KIND  # no entry can pass the cap (|u_i| <= ||Z_j|| <= tau): on this block it is l1
    lines = line_keys(Z, work.size, work.key, work.line) if HAS_L0 and kind == L0_KIND else 0
    bounds_from = -1      # the branch whose entries gave the window's penalty bounds
    for branch in range(first, last + 1):
        a, b, cq, d, e = coef[branch, 0], coef[branch, 1], coef[branch, 2], coef[branch, 3], coef[branch, 4]
        w = cq - e
        if branch > first and _branch_floor(work.size[:r], kind, lam, tau, a, b, w, d, e) > best:
            continue  # no point of this branch can beat the other's best (the usual case for ref)
        _entries_into(Z, branch, work.x, work.y)
        if HAS_L0 and kind == L0_KIND:   # HAS_L0 False (a copy without l0): never compiled
            best, best_branch, best_c, best_s = _l0_branch(
                branch, a, b, w, d, e, live, lam, lines, work, best, best_branch, best_c, best_s)
            continue
        if branch == 0 and kind == NONNEG_KIND:
            # V = I: inside an arc, but where h jumps it is the point that keeps X (its entries within
            # rounding of 0 count as zeros there), and the step it stands for is no step at all
            value = _score_point(work.x, work.y, work.size, kind, lam, live, a, b, e, w, d, 1.0, 0.0)
            if value < best:
                best, best_branch, best_c, best_s = value, 0, 1.0, 0.0
        windowed = kind == L1_KIND or kind == CAPPED_KIND
        if windowed and bounds_from < 0:
            penalty_bounds(work.x, work.y, work.size, kind, tau, work.window)
            bounds_from = branch
        m, stretches = _branch_crossings(a, b, w, d, e, kind, lam, tau, best, windowed, branch != bounds_from, work)
        if stretches < 0:
            continue  # no sector of this branch can beat the other's best
        best, best_branch, best_c, best_s, arcs = _score_crossings(
            branch, a, b, w, d, e, kind, lam, tau, live, m, stretches, work, best, best_branch, best_c, best_s)
        if kind == L1_KIND or kind == CAPPED_KIND:
            best, best_branch, best_c, best_s = _score_inside_arcs(
                branch, w, d, e, arcs, work, best, best_branch, best_c, best_s)
        else:
            best, best_branch, best_c, best_s = _score_stationary(
                branch, a, b, w, d, e, kind, lam, live, work, best, best_branch, best_c, best_s)
    _new_rows(Z, best_branch, best_c, best_s, VZ, work.size[:r])
    return best_branch, best_c, best_s, best


@njit(cache=True)
def _l0_branch(branch, a, b, w, d, e, live, lam, lines, work, best, best_branch, best_c, best_s):
    """l0 on one branch from its candidates directly (``l0_points``): V = I (rot), the zeros of the
    entries and theta = pi, and the smooth part's stationary points, each scored entry by entry."""
    x, y, size = work.x, work.y, work.size
    if branch == 0:       # V = I, as for X >= 0 in sweep_into
        value = _score_point(x, y, size, L0_KIND, lam, live, a, b, e, w, d, 1.0, 0.0)
        if value < best:
            best, best_branch, best_c, best_s = value, branch, 1.0, 0.0
    value, c, s = l0_zeros_min(a, b, w, d, e, x, y, size, live, lam, work.key, work.line, lines, work.points, best)
    if value < best:
        best, best_branch, best_c, best_s = value, branch, c, s
    value = _score_point(x, y, size, L0_KIND, lam, live, a, b, e, w, d, -1.0, 0.0)   # theta = pi
    if value < best:
        best, best_branch, best_c, best_s = value, branch, -1.0, 0.0
    return _score_stationary(branch, a, b, w, d, e, L0_KIND, lam, live, work, best, best_branch, best_c, best_s)


def _branch_crossings(a, b, w, d, e, kind, lam, tau, best, windowed, mirrored, work):
    """The crossings the sweep visits on a branch, sorted (``work.order``): those of the stretches the
    window keeps (``windowed``: l1, capped l1; ``mirrored``: its penalty bounds are the other branch's),
    or all of them and theta = pi. Returns (crossings, stretches):
    ``work.window.stretches`` holds the stretches, the whole circle as one when not windowed; -1
    stretches when no point of the branch can beat ``best``."""
    x, y, size = work.x, work.y, work.size
    stretch_rows = work.window.stretches
    stretches = bands = 0
    if windowed:  # where the minimum can lie (0: anywhere)
        stretches, bands = cut_circle(a, b, w, d, e, size, kind, lam, tau, best, mirrored, work.window)
        if stretches < 0:
            return 0, -1
    if stretches > 0:
        m = window_crossings_into(x, y, size, kind, lam, tau, stretch_rows, stretches, work.window.bands, bands,
                                  work.angle, work.cos_sin, work.owner, work.step)
        insertion_order(work.angle[:m], m, work.order)
        return m, stretches
    m = _crossings_into(x, y, size, kind, lam, tau, work.angle, work.cos_sin, work.owner, work.step, work.first_of)
    if HAS_CAPPED and kind == CAPPED_KIND:   # HAS_CAPPED False: numba's sort is never compiled
        work.order[:m] = np.argsort(work.angle[:m])
    else:
        _sort_crossings(work.angle[:m], size, work.first_of, m, work.order, work.psi, work.column, work.quarter)
    stretch_rows[0, 0], stretch_rows[0, 1], stretch_rows[0, 2], stretch_rows[0, 3] = 0.0, _TWO_PI, 0.0, _TWO_PI
    return m, 1


@njit(cache=True)
def _score_crossings(branch, a, b, w, d, e, kind, lam, tau, live, m, stretches, work, best, best_branch, best_c,
                     best_s):
    """Pass 1: score every crossing of every stretch (when the circle was windowed, the crossings
    within half the slack of a surviving sector); record each arc's state (a_eff, b_eff, h_0, negatives) and its
    ends (angles, cos, sin) for pass 2. Returns the best so far and the number of arcs."""
    x, y, size, cos_sin, step = work.x, work.y, work.size, work.cos_sin, work.step
    angle, order, arc, ends = work.angle[:m], work.order[:m], work.arc, work.ends
    varying = kind == L1_KIND or kind == CAPPED_KIND   # h's linear part changes from arc to arc
    last_mid = (np.nan, np.nan)                        # the last midpoint of tied crossings scored
    arcs, p = 0, np.int64(0)  # int64: a literal would compile the callees twice
    for stretch in range(stretches):
        row = work.window.stretches[stretch]
        lo, hi, scored_lo, scored_hi = row[0], row[1], row[2], row[3]
        q = p
        while q < m and angle[order[q]] <= hi:
            q += 1
        a_h, b_h, h_0_first, N = _stretch_state(x, y, size, kind, lam, tau, angle, order, step, p, q, lo, hi)
        a_eff, carry_a = _add(a, 0.0, a_h)
        b_eff, carry_b = _add(b, 0.0, b_h)
        h_0, carry_h0 = h_0_first, 0.0
        before = lo
        c_before, s_before = _unit(lo)
        for j in range(p, q):
            o = order[j]
            theta = angle[o]
            c, s = cos_sin[o, 0], cos_sin[o, 1]
            arc[arcs, 0], arc[arcs, 1], arc[arcs, 2], arc[arcs, 3] = a_eff + carry_a, b_eff + carry_b, h_0 + carry_h0, N
            ends[arcs, 0], ends[arcs, 1], ends[arcs, 2] = before, theta, c_before
            ends[arcs, 3], ends[arcs, 4], ends[arcs, 5] = s_before, c, s
            smooth = e + c * (w * c + d * s)
            value = smooth + arc[arcs, 0] * c + arc[arcs, 1] * s + arc[arcs, 2]      # from the arc before
            arcs += 1
            before, c_before, s_before = theta, c, s
            a_eff, carry_a = _add(a_eff, carry_a, step[o, 0])
            b_eff, carry_b = _add(b_eff, carry_b, step[o, 1])
            if kind == CAPPED_KIND:                  # elsewhere every step of K is 0.0: K + 0.0 is K
                h_0, carry_h0 = _add(h_0, carry_h0, step[o, 2])
            tie = _has_tie(angle, order, j)
            if varying and tie:
                # crossings within rounding of each other (ties, or an entry whose cap and zero
                # nearly coincide) may come in any order, so the state between them means nothing:
                # score the point entry by entry instead
                pt_a, pt_b, pt_h0, _ = _state_at(x, y, size, kind, lam, tau, c, s)
                value = smooth + (a + pt_a) * c + (b + pt_b) * s + pt_h0
            elif kind == NONNEG_KIND:
                # feasible here only if every entry negative just before turns to zero here
                crossing_here = _tie_group(angle, order, j)[1] if tie else 1
                if N > crossing_here or not _is_nonnegative(x, y, size, c, s):
                    value = np.inf
                N += int(step[o, 3])
            if value < best and scored_lo <= theta <= scored_hi:
                best, best_branch, best_c, best_s = value, branch, c, s
            if not varying and tie:
                # Where h jumps, a point between tied crossings can have several entries within
                # rounding of 0 (each zero is a window of half-width _ZERO_TOL rad) although no
                # single crossing has: the windows of a group overlap where its two extreme
                # crossings' do, so the midpoint of every such pair is scored entry by entry.
                for ahead in range(1, m):
                    o_next = order[(j + ahead) % m]
                    gap = abs(angle[o_next] - theta)
                    gap = min(gap, _TWO_PI - gap)
                    if gap > 2.0 * _ZERO_TOL:
                        break
                    if gap == 0.0:
                        continue  # the same point: scored above, ties included
                    c_mid, s_mid = c + cos_sin[o_next, 0], s + cos_sin[o_next, 1]
                    norm = math.hypot(c_mid, s_mid)
                    c_mid, s_mid = c_mid / norm, s_mid / norm
                    if c_mid == last_mid[0] and s_mid == last_mid[1]:
                        continue  # scored just before (a group of equal crossings gives equal midpoints)
                    last_mid = (c_mid, s_mid)
                    value = _score_point(x, y, size, kind, lam, live, a, b, e, w, d, c_mid, s_mid)
                    if value < best:
                        best, best_branch, best_c, best_s = value, branch, c_mid, s_mid
        c_hi, s_hi = _unit(hi)
        arc[arcs, 0], arc[arcs, 1], arc[arcs, 2], arc[arcs, 3] = a_eff + carry_a, b_eff + carry_b, h_0 + carry_h0, N
        ends[arcs, 0], ends[arcs, 1], ends[arcs, 2], ends[arcs, 3] = before, hi, c_before, s_before
        ends[arcs, 4], ends[arcs, 5] = c_hi, s_hi
        arcs += 1
        p = q
    return best, best_branch, best_c, best_s, arcs


@njit(cache=True)
def _score_stationary(branch, a, b, w, d, e, kind, lam, live, work, best, best_branch, best_c, best_s):
    """Pass 2 where h has one linear part on the whole circle (h = 0, l0, X >= 0): the smooth part's
    stationary points, each scored entry by entry."""
    for i in range(stationary_angles(a, b, w, d, work.roots, work.scratch, 0.0, _TWO_PI)):
        c, s = math.cos(work.roots[i]), math.sin(work.roots[i])
        value = _score_point(work.x, work.y, work.size, kind, lam, live, a, b, e, w, d, c, s)
        if value < best:
            best, best_branch, best_c, best_s = value, branch, c, s
    return best, best_branch, best_c, best_s


@njit(cache=True)
def _score_inside_arcs(branch, w, d, e, arcs, work, best, best_branch, best_c, best_s):
    """Pass 2 for l1 and capped l1: the stationary points inside the arcs. Qt = varsigma I (w = d = 0):
    each arc's minimizer -(A, B)/hypot(A, B) in closed form. Otherwise the quartic of the arcs whose
    lower bound beats the best so far, most promising arc first."""
    arc, ends = work.arc, work.ends
    if w == 0.0 and d == 0.0:
        for j in range(arcs):
            a_eff, b_eff = arc[j, 0], arc[j, 1]
            inside = ends[j, 1] - ends[j, 0] > _TIE_TOL and linear_min_inside(
                a_eff, b_eff, ends[j, 2], ends[j, 3], ends[j, 4], ends[j, 5])
            o = _seam_partner(j, arcs, ends)
            if not inside and o >= 0:       # on the other half of the arc through theta = 0
                inside = ends[o, 1] - ends[o, 0] > _TIE_TOL and linear_min_inside(
                    a_eff, b_eff, ends[o, 2], ends[o, 3], ends[o, 4], ends[o, 5])
            if inside:
                norm = math.hypot(a_eff, b_eff)
                value = e - norm + arc[j, 2]
                if value < best:
                    best, best_branch, best_c, best_s = value, branch, -a_eff / norm, -b_eff / norm
        return best, best_branch, best_c, best_s
    bound = work.bound[:arcs]
    _arc_bounds(w, d, e, arcs, arc, ends, bound, best)
    while True:                                  # most promising arc first: it lowers best for the rest
        j, low = np.int64(-1), np.inf  # int64: a literal would compile the callees twice
        for other in range(arcs):                # the lowest bound left (few arcs get this far)
            if bound[other] < low:
                j, low = other, bound[other]
        if not low < best:
            break
        bound[j] = np.inf
        a_eff, b_eff = arc[j, 0], arc[j, 1]
        o = _seam_partner(j, arcs, ends)
        for i in range(stationary_angles(a_eff, b_eff, w, d, work.roots, work.scratch, ends[j, 0], ends[j, 1])):
            theta = work.roots[i]
            if ends[j, 0] <= theta <= ends[j, 1] or (o >= 0 and ends[o, 0] <= theta <= ends[o, 1]):
                c, s = math.cos(theta), math.sin(theta)
                value = e + a_eff * c + b_eff * s + arc[j, 2] + c * (w * c + d * s)
                if value < best:
                    best, best_branch, best_c, best_s = value, branch, c, s
    return best, best_branch, best_c, best_s


@njit(cache=True)
def _arc_bounds(w, d, e, arcs, arc, ends, bound, best):
    """bound[j]: a lower bound of problem (3) on arc j, or inf where the arc cannot beat best (too
    short for a stationary point of its own, or out of the race on its end values alone)."""
    half = 0.5 * (math.atan2(d, w) + math.pi)
    curvature_quadratic = math.hypot(w, d)     # |d^2/dtheta^2 (w c^2 + d c s)| <= 2 hypot(w, d)
    for j in range(arcs):
        lo, hi = ends[j, 0], ends[j, 1]
        if hi - lo <= _TIE_TOL:
            bound[j] = np.inf
            continue
        a_eff, b_eff, h_0 = arc[j, 0], arc[j, 1], arc[j, 2]
        c_lo, s_lo, c_hi, s_hi = ends[j, 2], ends[j, 3], ends[j, 4], ends[j, 5]
        g_lo = e + h_0 + a_eff * c_lo + b_eff * s_lo + c_lo * (w * c_lo + d * s_lo)
        g_hi = e + h_0 + a_eff * c_hi + b_eff * s_hi + c_hi * (w * c_hi + d * s_hi)
        # most arcs are out of the race on the end values alone: |A| + |B| (enlarged) is above
        # hypot(A, B), so this is below the bound computed next, and best can only fall
        slack = (1.001 * (abs(a_eff) + abs(b_eff)) + 2.0 * curvature_quadratic) * (hi - lo) ** 2 / 8.0
        if min(g_lo, g_hi) - slack >= best:
            bound[j] = np.inf
            continue
        # two lower bounds: the parts' separate minima, and the end values minus the most a
        # function with |g''| <= M can dip between them (M L^2 / 8; tight on short arcs)
        split = (e + h_0 + linear_min_on_arc(a_eff, b_eff, c_lo, s_lo, c_hi, s_hi)
                 + quadratic_min_on_arc(w, d, half, lo, hi, c_lo, s_lo, c_hi, s_hi))
        curvature = math.hypot(a_eff, b_eff) + 2.0 * curvature_quadratic
        bound[j] = max(split, min(g_lo, g_hi) - curvature * (hi - lo) ** 2 / 8.0)


@njit(cache=True)
def _new_rows(Z, branch, c, s, VZ, column_size):
    """VZ = V Z for V = rot(theta) (branch 0) or ref(theta) (branch 1), with the zeros to rounding set to 0.0
    (column_size[j] = hypot(Z[0, j], Z[1, j]))."""
    rotate_rows(Z, branch, c, s, VZ)
    for j in range(Z.shape[1]):
        tol = _ZERO_TOL * column_size[j]
        for i in range(2):
            if abs(VZ[i, j]) <= tol:
                VZ[i, j] = 0.0


# One compiled copy per penalty family (obcd_lite.specialise), made after every function above exists:
# a copy's globals are the module's at this point. ``sweep_into`` and ``_branch_crossings`` are the
# copies for every penalty (what the benchmarks call); sweep_2x2 picks its family's copy.
_BRANCH_CROSSINGS = {name: specialised(_branch_crossings, "_branch_crossings" + ("" if name == "all" else f"_{name}"),
                                       **flags) for name, flags in FAMILIES.items()}
SWEEP_INTO = {name: specialised(_sweep_into, "sweep_into" + ("" if name == "all" else f"_{name}"),
                                _branch_crossings=_BRANCH_CROSSINGS[name], **flags) for name, flags in FAMILIES.items()}
sweep_into = SWEEP_INTO["all"]
_SWEEP_2X2 = {name: specialised(_sweep_2x2, f"sweep_2x2_{name}", sweep_into=SWEEP_INTO[name])
              for name in FAMILIES if name != "all"}
