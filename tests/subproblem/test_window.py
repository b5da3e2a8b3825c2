"""The l1 window (``subproblem.window``): the sweep looks only at stretches of the circle that can hold
the minimum. Checked here: the bound behind it (no point of value below the threshold lies outside
the stretches), the screen (the windowed crossings are exactly the whole-circle crossings inside
the stretches, the same doubles), and the windowed sweep against the vectorized search and the
brute force, on random, tied and zero-entry instances at the small lam where the window is used.
"""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from obcd_lite import L1, brute_force_2x2, candidate_set, solve_2x2_full
from obcd_lite.subproblem.crossings import _crossings, _entries
from obcd_lite.subproblem.sweep import L1_KIND, coefficients_2x2, sweep_2x2
from obcd_lite.subproblem.window import (SECTORS, l1_window, l1_window_crossings_into, window_workspace)

_SECTOR = 2.0 * math.pi / SECTORS


@st.composite
def small_lam_instances(draw):
    """Problem (3) with l1 at a lam small against the smooth part (where the window cuts the circle),
    Z random, with exact zeros, with parallel or axis-aligned columns (tied crossings, crossings at
    exactly 0, pi/2, pi, 3 pi/2)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    r = draw(st.integers(1, 8))
    shape = draw(st.sampled_from(["random", "zeros", "parallel", "axis"]))
    Z = rng.standard_normal((2, r))
    if shape == "zeros":
        Z[rng.random(Z.shape) < 0.4] = 0.0
    elif shape == "parallel":
        Z = np.outer(rng.standard_normal(2), rng.choice([-2.0, -1.0, 0.0, 0.5, 1.0], size=r))
    elif shape == "axis":
        Z = np.outer([1.0, 0.0] if draw(st.booleans()) else [0.0, 1.0], rng.choice([-1.0, 0.0, 2.0], size=r))
    A = rng.standard_normal((4, 4))
    Qt = {"general": A + A.T, "psd": A @ A.T, "scalar": rng.uniform(0.5, 3.0) * np.eye(4)}[
        draw(st.sampled_from(["general", "psd", "scalar"]))]
    P = rng.standard_normal((2, 2))
    lam = draw(st.sampled_from([1e-6, 1e-4, 1e-3, 1e-2, 0.1]))
    return Qt, P, np.ascontiguousarray(Z), lam


def _branch_window(Qt, P, Z, lam, k, cap=np.inf):
    coef = np.empty((2, 5))
    coefficients_2x2(Qt, P, coef)
    a, b, cq, d, e = coef[k]
    x, y = _entries(Z, k)
    size = np.hypot(x, y)
    work = window_workspace()
    stretches, bands = l1_window(a, b, cq - e, d, e, x, y, size, lam, cap, work)
    return (a, b, cq - e, d, e), x, y, size, work, stretches, bands


def _g(coef, x, y, lam, theta):
    a, b, w, d, e = coef
    c, s = np.cos(theta), np.sin(theta)
    return e + a * c + b * s + w * c * c + d * c * s + lam * np.abs(np.outer(c, x) + np.outer(s, y)).sum(axis=1)


@given(small_lam_instances())
def test_no_point_below_the_threshold_lies_outside_the_stretches(instance):
    """The bound: on a fine grid, every angle whose value is at most the best value the grid finds
    (so at most the branch minimum plus the grid's error) lies in a scored stretch."""
    Qt, P, Z, lam = instance
    theta = np.linspace(0.0, 2.0 * np.pi, 20001)
    for k in (0, 1):
        coef, x, y, _, work, stretches, _ = _branch_window(Qt, P, Z, lam, k)
        if stretches == 0:
            continue
        g = _g(coef, x, y, lam, theta)
        low = theta[g <= g.min()]
        scored = work[2][:stretches, 2:4]
        inside = ((scored[:, :1] <= low) & (low <= scored[:, 1:])).any(axis=0)
        assert inside.all(), (k, low[~inside], scored)


@given(small_lam_instances())
def test_the_window_keeps_exactly_the_crossings_of_its_stretches(instance):
    """The screen before atan2 drops no crossing of a stretch, and the kept crossings are the same
    doubles (angle, point, owner, step) as the whole-circle list's."""
    Qt, P, Z, lam = instance
    for k in (0, 1):
        _, x, y, size, work, stretches, bands = _branch_window(Qt, P, Z, lam, k)
        if stretches == 0:
            continue
        angle, cos_sin, owner, step = _crossings(x, y, size, L1_KIND, lam, 0.0)
        rows = work[2][:stretches]
        keep = ((rows[:, :1] <= angle) & (angle <= rows[:, 1:2])).any(axis=0)
        m_max = 2 * x.size + 1
        got = [np.empty(m_max), np.empty((m_max, 2)), np.empty(m_max, np.int64), np.empty((m_max, 4))]
        m = l1_window_crossings_into(x, y, size, lam, work[2], stretches, work[3], bands, *got)
        want = np.column_stack([angle, cos_sin, owner, step])[keep]
        have = np.column_stack([got[0][:m], got[1][:m], got[2][:m], got[3][:m]])
        assert np.array_equal(want[np.lexsort(want.T[::-1])], have[np.lexsort(have.T[::-1])])


@given(small_lam_instances())
def test_windowed_sweep_is_the_minimum_of_the_candidates_and_the_brute_force(instance):
    Qt, P, Z, lam = instance
    sol = solve_2x2_full(Qt, P, Z, L1(lam))
    want = np.min(candidate_set(Qt, P, Z, L1(lam)).value)
    assert sol.value == pytest.approx(want, rel=1e-9, abs=1e-9)
    bf = brute_force_2x2(Qt, P, Z, L1(lam))
    assert sol.value <= bf.value + 1e-9 * max(1.0, abs(bf.value))


def test_capped_l1_below_its_cap_is_swept_as_l1():
    """Where no entry can reach the cap (every ||Z_j|| <= tau) capped l1 is l1 on the block: the sweep
    takes the same path and returns the same point, bit for bit."""
    from obcd_lite.subproblem.sweep import CAPPED_KIND
    rng = np.random.default_rng(4)
    for _ in range(50):
        coef, Z = rng.standard_normal((2, 5)), rng.standard_normal((2, 5))
        tau = float(np.max(np.hypot(Z[0], Z[1]))) * rng.choice([1.0, 2.0])
        assert sweep_2x2(coef, Z, CAPPED_KIND, 0.01, tau, 0, 1)[:4] == sweep_2x2(coef, Z, L1_KIND, 0.01, 0.0, 0, 1)[:4]


def test_the_window_is_used_where_lam_is_small():
    """At OBCD's small lam the window cuts the circle on every instance here, to at most a quarter."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        A = rng.standard_normal((4, 4))
        Qt, P, Z = A @ A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 20))
        for k in (0, 1):
            _, _, _, _, work, stretches, _ = _branch_window(Qt, P, Z, 1e-5, k)
            assert stretches > 0
            rows = work[2][:stretches]
            assert np.sum(rows[:, 1] - rows[:, 0]) <= 0.5 * np.pi + 1e-5


def test_the_other_branch_best_narrows_the_window():
    """cap (the other branch's best) near the branch's minimum leaves fewer sectors; far below it,
    none, and the sweep skips the branch."""
    rng = np.random.default_rng(8)
    A = rng.standard_normal((4, 4))
    Qt, P, Z = A @ A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 6))
    coef, x, y, _, work, wide, _ = _branch_window(Qt, P, Z, 1e-3, 0)
    width = np.sum(work[2][:wide, 1] - work[2][:wide, 0])
    g_min = _g(coef, x, y, 1e-3, np.linspace(0.0, 2.0 * np.pi, 20001)).min()
    _, _, _, _, work, narrow, _ = _branch_window(Qt, P, Z, 1e-3, 0, cap=g_min + 1e-6)
    assert 0 < narrow and np.sum(work[2][:narrow, 1] - work[2][:narrow, 0]) <= width
    assert l1_window(*coef, x, y, np.hypot(x, y), 1e-3, g_min - 1.0, window_workspace())[0] == -1


def _value_at_identity(coef, Z, lam):
    """Problem (3) on the rot branch at theta = 0 (V = I): a + cq + lam ||Z||_1."""
    a, _, cq, _, _ = coef[0]
    return a + cq + lam * np.abs(Z).sum()


def test_a_minimum_at_theta_zero_is_never_lost():
    """theta = 0 = 2 pi is no crossing: the arcs [last crossing, 2 pi] and [0, first crossing] are one.
    A stationary point within rounding of 0 comes back as a tiny angle from one half's (A, B) and
    as 2 pi - tiny from the other's; each half must take it. Found when OBCD raised F by 4.6e-5
    from ManPG's converged point (tests/experiments/test_relatives.py, the agreement census)."""
    coef = np.array([[-0.22170883407345543, -0.024715683152142735, -0.038154647817493156, -0.0007328479519813922,
                      -0.03864198895321186],
                     [-0.018956893956282334, 0.03929891699870646, -0.038008193153545894, 0.00040715687065093296,
                      -0.03878844361715912]])
    Z = np.array([[-0.009418611845718522, -0.45912601202554837], [-0.4309979515085639, 0.03242098155092281]])
    for first, last in ((0, 0), (0, 1)):
        value = sweep_2x2(coef, Z, L1_KIND, 0.03, 0.0, first, last)[3]
        assert value <= _value_at_identity(coef, Z, 0.03) + 1e-15
    # the same situation at random: (A, B) of the arc through 0 make theta = 0 stationary
    rng = np.random.default_rng(11)
    for trial in range(400):
        r = 1 + trial % 4
        Z = rng.standard_normal((2, r))
        lam = rng.choice([1e-3, 0.03, 0.3])
        coef = rng.standard_normal((2, 5)) * 0.1
        if trial % 2:
            coef[:, 3] = 0.0                 # Qt = varsigma I: w = d = 0, the closed form
            coef[:, 2] = coef[:, 4]
        x, y = np.concatenate([Z[0], Z[1]]), np.concatenate([Z[1], -Z[0]])
        coef[0, 1] = -coef[0, 3] - lam * np.sum(np.sign(x) * y)   # g'(0) = b + d + lam sum sign(x_i) y_i = 0
        coef[0, 2] = coef[0, 4] + abs(coef[0, 2] - coef[0, 4])     # w >= 0: theta = 0 a local minimum or flat
        value = sweep_2x2(coef, Z, L1_KIND, lam, 0.0, 0, 0)[3]
        assert value <= _value_at_identity(coef, Z, lam) + 1e-14, trial
