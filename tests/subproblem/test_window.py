"""The window (``subproblem.window``): the sweep looks only at stretches of the circle that can hold
the minimum (l1, capped l1). Checked here: the bound behind it (no point of value below the
threshold lies outside the stretches), the screen (the windowed crossings are exactly the
whole-circle crossings inside the stretches, the same doubles), and the windowed sweep against the
vectorized search and the brute force, on random, tied and zero-entry instances, lam from 1e-6 to 0.1.
"""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from obcd_lite import L1, CappedL1, brute_force_2x2, candidate_set, solve_2x2_full
from obcd_lite.subproblem.crossings import _crossings, _entries
from obcd_lite.block_arithmetic import coefficients_2x2
from obcd_lite.subproblem.sweep import CAPPED_KIND, L1_KIND, sweep_2x2
from obcd_lite.subproblem.window import SECTORS, cut_circle, penalty_bounds, window_crossings_into, window_workspace

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


#: The penalties the window serves: (kind, tau, penalty factory). tau = 0.7 sits among the column sizes
#: of standard normal Z (both pieces of capped l1).
WINDOWED = {"l1": (L1_KIND, 0.0, L1), "capped": (CAPPED_KIND, 0.7, lambda lam: CappedL1(lam, 0.7))}


def _branch_window(Qt, P, Z, lam, k, cap=np.inf, penalty="l1"):
    kind, tau, _ = WINDOWED[penalty]
    coef = np.empty((2, 5))
    coefficients_2x2(Qt, P, coef)
    a, b, cq, d, e = coef[k]
    x, y = _entries(Z, k)
    size = np.hypot(x, y)
    work = window_workspace()
    penalty_bounds(x, y, size, kind, tau, work)
    stretches, bands = cut_circle(a, b, cq - e, d, e, size, kind, lam, tau, cap, False, work)
    return (a, b, cq - e, d, e), x, y, size, work, stretches, bands


def _g(coef, x, y, lam, theta, penalty="l1"):
    """Problem (3) on a branch at the angles theta, h entry by entry."""
    a, b, w, d, e = coef
    c, s = np.cos(theta), np.sin(theta)
    u = np.abs(np.outer(c, x) + np.outer(s, y))
    h = u.sum(axis=1) if penalty == "l1" else np.minimum(u, WINDOWED["capped"][1]).sum(axis=1)
    return e + a * c + b * s + w * c * c + d * c * s + lam * h


@given(small_lam_instances(), st.sampled_from(sorted(WINDOWED)))
def test_no_point_below_the_threshold_lies_outside_the_stretches(instance, penalty):
    """The bound: on a fine grid, every angle whose value is at most the best value the grid finds
    (so at most the branch minimum plus the grid's error) lies in a scored stretch."""
    Qt, P, Z, lam = instance
    theta = np.linspace(0.0, 2.0 * np.pi, 20001)
    for k in (0, 1):
        coef, x, y, _, work, stretches, _ = _branch_window(Qt, P, Z, lam, k, penalty=penalty)
        if stretches == 0:
            continue
        g = _g(coef, x, y, lam, theta, penalty)
        low = theta[g <= g.min()]
        scored = work[5][:stretches, 2:4]
        inside = ((scored[:, :1] <= low) & (low <= scored[:, 1:])).any(axis=0)
        assert inside.all(), (k, low[~inside], scored)


@given(small_lam_instances(), st.sampled_from(sorted(WINDOWED)))
def test_the_window_keeps_exactly_the_crossings_of_its_stretches(instance, penalty):
    """The screen before atan2 drops no crossing of a stretch, and the kept crossings are the same
    doubles (angle, point, owner, step) as the whole-circle list's."""
    Qt, P, Z, lam = instance
    kind, tau, _ = WINDOWED[penalty]
    for k in (0, 1):
        _, x, y, size, work, stretches, bands = _branch_window(Qt, P, Z, lam, k, penalty=penalty)
        if stretches == 0:
            continue
        angle, cos_sin, owner, step = _crossings(x, y, size, kind, lam, tau)
        rows = work[5][:stretches]
        keep = ((rows[:, :1] <= angle) & (angle <= rows[:, 1:2])).any(axis=0)
        m_max = 6 * x.size + 1
        got = [np.empty(m_max), np.empty((m_max, 2)), np.empty(m_max, np.int64), np.empty((m_max, 4))]
        m = window_crossings_into(x, y, size, kind, lam, tau, work[5], stretches, work[6], bands, *got)
        want = np.column_stack([angle, cos_sin, owner, step])[keep]
        have = np.column_stack([got[0][:m], got[1][:m], got[2][:m], got[3][:m]])
        assert np.array_equal(want[np.lexsort(want.T[::-1])], have[np.lexsort(have.T[::-1])])


@given(small_lam_instances(), st.sampled_from(sorted(WINDOWED)))
def test_windowed_sweep_is_the_minimum_of_the_candidates_and_the_brute_force(instance, penalty):
    Qt, P, Z, lam = instance
    h = WINDOWED[penalty][2](lam)
    sol = solve_2x2_full(Qt, P, Z, h)
    want = np.min(candidate_set(Qt, P, Z, h).value)
    assert sol.value == pytest.approx(want, rel=1e-9, abs=1e-9)
    bf = brute_force_2x2(Qt, P, Z, h)
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
            rows = work[5][:stretches]
            assert np.sum(rows[:, 1] - rows[:, 0]) <= 0.5 * np.pi + 1e-5


def test_the_other_branch_best_narrows_the_window():
    """cap (the other branch's best) near the branch's minimum leaves fewer sectors; far below it,
    none, and the sweep skips the branch."""
    rng = np.random.default_rng(8)
    A = rng.standard_normal((4, 4))
    Qt, P, Z = A @ A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 6))
    coef, x, y, _, work, wide, _ = _branch_window(Qt, P, Z, 1e-3, 0)
    width = np.sum(work[5][:wide, 1] - work[5][:wide, 0])
    g_min = _g(coef, x, y, 1e-3, np.linspace(0.0, 2.0 * np.pi, 20001)).min()
    _, _, _, _, work, narrow, _ = _branch_window(Qt, P, Z, 1e-3, 0, cap=g_min + 1e-6)
    assert 0 < narrow and np.sum(work[5][:narrow, 1] - work[5][:narrow, 0]) <= width
    assert cut_circle(*coef, np.hypot(x, y), L1_KIND, 1e-3, 0.0, g_min - 1.0, False, work)[0] == -1


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


@pytest.mark.parametrize("penalty", sorted(WINDOWED))
def test_one_set_of_penalty_bounds_serves_both_branches(penalty):
    """On ref, entry i of V Z at theta is its value on rot at pi - theta: the bounds computed from rot's
    entries, read mirrored, are ref's own (to rounding), so the sweep computes them once."""
    kind, tau, _ = WINDOWED[penalty]
    rng = np.random.default_rng(12)
    quarter = SECTORS // 4
    for _ in range(20):
        Z = rng.standard_normal((2, 7))
        rot, ref = window_workspace(), window_workspace()
        for branch, work in ((0, rot), (1, ref)):
            x, y = _entries(Z, branch)
            penalty_bounds(x, y, np.hypot(x, y), kind, tau, work)
        g = np.arange(quarter)
        np.testing.assert_allclose(ref.h_grid[:quarter], rot.h_grid[(quarter - g) % quarter], rtol=1e-13, atol=1e-15)
        mirrored = rot.h_sector[::-1][:, (quarter - 1 - g) % quarter]   # a sector's lo end is the mirror's hi end
        np.testing.assert_allclose(ref.h_sector, mirrored, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("lam", [1e-5, 1e-4, 1e-3])
@pytest.mark.parametrize("penalty", sorted(WINDOWED))
def test_the_window_holds_at_obcd_scales(lam, penalty):
    """The survival rule does not collapse at larger lam: on blocks at the scale of OBCD's sparse PCA
    benchmark (entries of X ~ 0.03, C ~ 1e-3, lam up to 1e-3, where h is far above the smooth part's
    range) the window cuts the circle on at least 9 of 10 branches."""
    rng = np.random.default_rng(13)
    tau = 0.05 if penalty == "capped" else 0.0
    kind = WINDOWED[penalty][0]
    cut = 0
    for _ in range(100):
        A = rng.standard_normal((4, 4))
        coef = np.empty((2, 5))
        coefficients_2x2(1e-3 * (A @ A.T), 1e-3 * rng.standard_normal((2, 2)), coef)
        Z = 0.03 * rng.standard_normal((2, 20))
        x, y = _entries(Z, 0)
        work = window_workspace()
        penalty_bounds(x, y, np.hypot(x, y), kind, tau, work)
        a, b, cq, d, e = coef[0]
        cut += cut_circle(a, b, cq - e, d, e, np.hypot(x, y), kind, lam, tau, np.inf, False, work)[0] > 0
    assert cut >= 90
