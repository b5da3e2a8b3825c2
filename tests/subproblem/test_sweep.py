"""The compiled sweep against the vectorized search and the brute force.

``solve_2x2`` uses the sweep for every penalty of the package; ``candidate_set`` lists the
candidates of the vectorized search. The two are independent implementations of Appendix B (angles and
t = tan(theta/2) roots here, t = tan(theta) pieces and quartics there), so agreeing on random
instances, ties and both single branches is a real check; the brute force decides.
"""
import functools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from obcd_lite import (L0, L1, CappedL1, NonNeg, Penalty, Zero, brute_force_2x2, candidate_set, count_nonzeros,
                       solve_2x2_full)
from obcd_lite.penalties import PENALTY_NAMES, penalty_by_name, snap_zeros
from obcd_lite.subproblem.brute_force import kink_angles, objective_at, objective_on_circle
from obcd_lite.penalties import L0_KIND, NONNEG_KIND, ZERO_KIND
from obcd_lite.subproblem.crossings import _crossings, _entries, _sort_crossings
from obcd_lite.block_arithmetic import coefficients_2x2
from obcd_lite.subproblem.sweep import CAPPED_KIND, L1_KIND, _branch_floor, sweep_2x2

PENALTIES = {name: functools.partial(penalty_by_name, name, tau=0.3) for name in PENALTY_NAMES}  # lam -> h


def _qt(kind, rng):
    A = rng.standard_normal((4, 4))
    return {"general": A + A.T, "scalar": rng.uniform(-3, 3) * np.eye(4), "psd": A @ A.T}[kind]


@st.composite
def tied_instances(draw):
    """Z whose columns are parallel (up to sign and scale) or zero: many entries of V Z vanish at
    the same angle, so an l0 crossing must count every entry that is zero there."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    r = draw(st.integers(2, 8))
    base = draw(st.sampled_from(["random", "axis", "diagonal"]))
    u = {"random": rng.standard_normal(2), "axis": np.array([0.0, 1.0]), "diagonal": np.array([1.0, 1.0])}[base]
    scales = rng.choice([-2.0, -1.0, 0.0, 0.5, 1.0, 3.0], size=r)
    Z = np.outer(u, scales)
    if draw(st.booleans()):
        Z[:, 0] = rng.standard_normal(2)  # one column off the common direction
    Qt = _qt(draw(st.sampled_from(["general", "scalar", "psd"])), rng)
    P = rng.standard_normal((2, 2)) * draw(st.sampled_from([0.01, 1.0]))
    h = PENALTIES[draw(st.sampled_from(["l0", "l1", "capped_l1", "nonneg"]))](draw(st.sampled_from([0.05, 0.5, 3.0])))
    return Qt, P, Z, h


@given(tied_instances())
def test_ties_are_never_worse_than_brute_force(instance):
    Qt, P, Z, h = instance
    sol = solve_2x2_full(Qt, P, Z, h)
    bf = brute_force_2x2(Qt, P, Z, h)
    if np.isinf(bf.value):  # X >= 0 infeasible on the whole grid: only a feasible point may beat it
        assert np.isinf(sol.value) or h(sol.VZ) == 0.0
        return
    assert sol.value <= bf.value + 1e-9 * max(1.0, abs(bf.value))
    assert sol.value == pytest.approx(float(objective_at(Qt, P, Z, h, sol.V)), rel=1e-9, abs=1e-9)


def test_l0_tie_counts_every_vanishing_entry():
    # Columns (1, 1), (2, 2), (-1, -1): at theta = pi/4 on rot, row 2 (-s z1 + c z2) vanishes in all three.
    Z = np.array([[1.0, 2.0, -1.0], [1.0, 2.0, -1.0]])
    sol = solve_2x2_full(2.0 * np.eye(4), np.zeros((2, 2)), Z, L0(1.0))
    assert count_nonzeros(sol.VZ) == 3  # three of the six entries are exactly 0.0
    assert sol.value == pytest.approx(2.0 + 3.0)  # 1/2 vec(V)^T (2 I) vec(V) = ||V||_F^2 = 2, plus lam * 3


@pytest.mark.parametrize("penalty", sorted(PENALTIES))
@pytest.mark.parametrize("branches", ["both", "rot", "ref"])
def test_sweep_agrees_with_the_vectorized_search(penalty, branches):
    rng = np.random.default_rng(12)
    for trial in range(40):
        Qt = _qt(("general", "scalar", "psd")[trial % 3], rng)
        Z = rng.standard_normal((2, 1 + trial % 6))
        Z[rng.random(Z.shape) < 0.3] = 0.0
        if penalty == "nonneg" and trial % 2:
            Z = np.abs(Z)
        h = PENALTIES[penalty](rng.choice([0.05, 0.5, 3.0]))
        P = rng.standard_normal((2, 2))
        sol = solve_2x2_full(Qt, P, Z, h, branches=branches)
        cands = candidate_set(Qt, P, Z, h)
        if branches != "both":
            keep = cands.branch == ("rot", "ref").index(branches)
            assert sol.branch == branches
        else:
            keep = np.ones(len(cands.value), dtype=bool)
        want = np.min(cands.value[keep], initial=np.inf)
        if np.isinf(want):
            assert np.isinf(sol.value) or (h(sol.VZ) == 0.0 and np.allclose(sol.V, np.eye(2)))
            continue
        assert sol.value == pytest.approx(want, rel=1e-9, abs=1e-9), (trial, sol, want)


def test_sweep_kernel_returns_a_point_on_the_circle_and_its_value():
    rng = np.random.default_rng(3)
    for kind, h in ((L1_KIND, L1(0.4)), (CAPPED_KIND, CappedL1(0.4, 0.3))):
        for _ in range(20):
            coef = rng.standard_normal((2, 5))
            Z = rng.standard_normal((2, 4))
            k, c, s, value, VZ = sweep_2x2(coef, Z, kind, h.lam, getattr(h, "tau", 0.0), 0, 1)
            assert k in (0, 1) and c * c + s * s == pytest.approx(1.0, abs=1e-14)
            a, b, cq, d, e = coef[k]
            V = np.array([[c, s], [-s, c]]) if k == 0 else np.array([[-c, s], [s, c]])
            assert np.array_equal(VZ == 0.0, snap_zeros(V @ Z, Z) == 0.0)
            assert np.allclose(VZ, V @ Z, rtol=1e-14, atol=1e-13)  # snapped zeros move by <= 32 eps |Z_j|
            # continuous h: the kernel's value is the objective at its point (l0 and X >= 0 jump at
            # zeros, which solve_2x2 snaps before it recomputes the value)
            assert value == pytest.approx(a * c + b * s + cq * c * c + d * c * s + e * s * s + h(V @ Z), abs=1e-12)


class HalfL1(Penalty):
    """A penalty the sweep does not know: solve_2x2 must fall back to the vectorized search."""

    def __init__(self):
        self.inner = L1(0.5)

    def elementwise(self, U):
        return self.inner.elementwise(U)

    def pieces(self, x, y):
        return self.inner.pieces(x, y)


def test_a_penalty_of_ones_own_uses_the_vectorized_search():
    rng = np.random.default_rng(9)
    for _ in range(10):
        A = rng.standard_normal((4, 4))
        Qt, P, Z = A + A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 3))
        assert solve_2x2_full(Qt, P, Z, HalfL1()).value == pytest.approx(solve_2x2_full(Qt, P, Z, L1(0.5)).value,
                                                                           rel=1e-9, abs=1e-12)


def test_h_zero_scalar_Q_is_minus_polar():
    # Qt = varsigma I, h = 0: the sweep's closed form must be -polar(P) (Lemma 2.3(b)).
    rng = np.random.default_rng(6)
    for _ in range(20):
        P = rng.standard_normal((2, 2))
        U, _, Wt = np.linalg.svd(P)
        V = solve_2x2_full(1.5 * np.eye(4), P, np.eye(2)).V
        assert np.allclose(V, -U @ Wt, atol=1e-12)


@pytest.mark.parametrize("kind, lam, tau", [(L1_KIND, 0.5, 0.0), (CAPPED_KIND, 0.5, 0.3), (CAPPED_KIND, 0.5, 1e-9)])
def test_crossings_are_where_the_entries_vanish_or_reach_the_cap(kind, lam, tau):
    """Each crossing's (cos, sin) is the point at its angle, and there its owner entry is 0 or +-tau."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        Z = rng.standard_normal((2, 5)) * rng.choice([0.1, 1.0, 10.0])
        for k in (0, 1):
            x, y = _entries(Z, k)
            size = np.hypot(x, y)
            angle, cos_sin, owner, _ = _crossings(x, y, size, kind, lam, tau)
            assert np.allclose(cos_sin[:, 0], np.cos(angle), atol=1e-13)
            assert np.allclose(cos_sin[:, 1], np.sin(angle), atol=1e-13)
            u = np.abs(x[owner[:-1]] * cos_sin[:-1, 0] + y[owner[:-1]] * cos_sin[:-1, 1])
            assert np.all((u <= 1e-13 * size[owner[:-1]]) | (np.abs(u - tau) <= 1e-12 * size[owner[:-1]]))
            assert owner[-1] == -1 and angle[-1] == np.pi  # theta = pi closes the list


@pytest.mark.parametrize("instance", [
    # np.roots loses the roots near t = 1 next to one near infinity; Newton polishing restores them
    (np.diag([1e4, 0.0, 0.0, 1e4]), np.array([[1.0, 0.5000000000000001], [0.5, 1.0]]), np.eye(2), Zero(), "rot"),
    # a subnormal leading coefficient must not overflow the companion matrix
    (np.diag([1.0, 0.0, 0.0, 1.0]), np.array([[0.0, 1e-310], [0.0, 0.0]]), np.eye(2), Zero(), "both"),
    # tau / |Z| = 1e-16: the caps and the zeros of an entry coincide to rounding
    (np.eye(4), np.array([[0.25, 0.0], [0.0, 0.25]]), np.array([[1.0], [0.0]]), CappedL1(2.0, 1e-16), "both"),
    (np.eye(4), np.array([[0.25, 0.0], [0.0, 0.25]]), np.array([[1e8], [0.0]]), CappedL1(2e-8, 1e-8), "both"),
])
def test_numerically_hard_instances(instance):
    """Found by an adversarial review of the sweep; each once returned a point that was not the minimum."""
    Qt, P, Z, h, branches = instance
    sol = solve_2x2_full(Qt, P, Z, h, branches=branches)
    names = ("rot", "ref") if branches == "both" else (branches,)
    bf = brute_force_2x2(Qt, P, Z, h, branches=names)
    assert sol.value <= bf.value + 1e-9 * max(1.0, abs(bf.value))
    assert sol.value == pytest.approx(float(objective_at(Qt, P, Z, h, sol.V)), rel=1e-9, abs=1e-12)


def _fine_minimum(Qt, P, Z, h, branch):
    """The objective on a comb of angles 2.5e-16 apart around every kink: the points where two entries
    are both within rounding of 0 (and so count as zeros) although neither kink shows it."""
    offsets = np.arange(-60, 61) * 2.5e-16
    kinks = kink_angles(Z, h, branch)
    return np.min(objective_on_circle(Qt, P, Z, h, branch, (kinks[:, None] + offsets).ravel()))


@pytest.mark.parametrize("gap", [8e-15, 1e-14, 1.2e-14, 1.4e-14])
def test_l0_point_between_tied_zeros(gap):
    """Two columns gap rad apart: at each one's zero the other entry is ~gap (not a zero to rounding),
    between them both are; that midpoint is the minimum of the objective as the package defines it."""
    Z = np.array([[1.0, math.cos(gap)], [0.0, math.sin(gap)]])
    sol = solve_2x2_full(np.eye(4), np.zeros((2, 2)), Z, L0(1.0))
    best = min(_fine_minimum(np.eye(4), np.zeros((2, 2)), Z, L0(1.0), b) for b in ("rot", "ref"))
    assert sol.value <= best + 1e-12


@pytest.mark.parametrize("Qt, P, Z, lam", [
    (np.eye(4), np.array([[-0.25, 0.05], [0.0, -0.25]]), np.array([[1.0, -6e-15], [-6e-15, 1.0]]), 1.0),
    (np.diag([1.34, -1.07, 2.81, -2.81]), np.array([[0.011, -0.014], [0.004, -0.023]]),
     np.array([[0.5, 1.0], [-3e-15, 3e-15]]), 1e6),
])
def test_l0_staying_cleans_rows_that_are_zero_to_rounding(Qt, P, Z, lam):
    """Entries of Z within rounding of 0 are zeros at V = I, so staying can beat every crossing;
    solve_2x2 must then return V = I with those entries exactly 0.0."""
    sol = solve_2x2_full(Qt, P, Z, L0(lam))
    assert sol.value <= float(objective_at(Qt, P, Z, L0(lam), np.eye(2))) + 1e-9 * max(1.0, abs(sol.value))
    assert sol.value == pytest.approx(float(objective_at(Qt, P, Z, L0(lam), sol.V)), rel=1e-12)


@pytest.mark.parametrize("Z, theta", [
    (np.array([[1.0, -1e-14], [0.0, 1.0]]), 3e-15),
    # three tied zeros on both sides of theta = 0 (the sorted crossings wrap around 2 pi there)
    (np.array([[0.0, 0.5, 0.0], [0.499999999999994, -6e-15, 0.5]]), -5e-15),
])
def test_nonneg_feasible_only_between_tied_zeros(Z, theta):
    P = np.array([[0.3, 0.1], [-0.2, 0.4]])
    sol = solve_2x2_full(np.eye(4), P, Z, NonNeg(), branches="rot")
    witness = float(objective_at(np.eye(4), P, Z, NonNeg(), np.array([[math.cos(theta), math.sin(theta)],
                                                                        [-math.sin(theta), math.cos(theta)]])))
    assert np.isfinite(witness) and sol.value <= witness + 1e-9


@pytest.mark.parametrize("Qt, P, Z, h", [
    # lam ||Z_j|| = 1e16 >> |P| = 200: plain running sums of the pieces round P's digits away
    (1.5 * np.eye(4), np.array([[160.33485608973945, -139.18602237784665], [139.18602237784665, 160.33485608973945]]),
     np.array([[1e8], [0.0]]), CappedL1(1e8, 1e-6)),
    (np.diag([1.5, 1.0, 1.2, 1.7]),
     np.array([[160.33485608973945, -139.18602237784665], [139.18602237784665, 160.33485608973945]]),
     np.array([[1e8], [0.0]]), CappedL1(1e8, 1e-6)),
    (np.array([[3.88930104381638, -2.1429432859049493, 2.8108879149026724, 1.8400492020896868],
               [-2.1429432859049493, 3.449423400556921, -2.4796429982868906, -2.092081185927073],
               [2.8108879149026724, -2.4796429982868906, 4.071306466251943, 4.643541198091285],
               [1.8400492020896868, -2.092081185927073, 4.643541198091285, 12.614041660923325]]),
     np.array([[-1.6816979116794113, 2.661857902127192], [0.9962883686056045, -1.0558596492114234]]),
     np.array([[-5.3557619694091916e+07, -2.6778809847045960e-09], [-1.4108669105626187e+08, -7.0543345528130930e-09]]),
     CappedL1(1e8, 7.545507441600939e-15)),
])
def test_steps_far_above_P_keep_its_digits(Qt, P, Z, h):
    """Compensated sums keep the pieces exact enough when lam ||Z_j|| exceeds |P| by 1e14..1e16."""
    sol = solve_2x2_full(Qt, P, Z, h, branches="rot")
    bf = brute_force_2x2(Qt, P, Z, h, branches=("rot",))
    assert sol.value <= bf.value + 1e-9 * max(1.0, abs(bf.value))


@given(tied_instances())
def test_crossings_are_sorted_without_argsort(instance):
    """The order built from the r column offsets is a permutation that sorts the angles, exact ties
    (parallel or axis-aligned columns) included."""
    _, _, Z, _ = instance
    for kind in (L1_KIND, L0_KIND, NONNEG_KIND):
        for k in (0, 1):
            x, y = _entries(np.ascontiguousarray(Z), k)
            size = np.hypot(x, y)
            angle, _, owner, _ = _crossings(x, y, size, kind, 0.5, 0.0)
            m = angle.size
            first_of = np.zeros(x.size, dtype=np.int64)
            for q in range(m - 1)[::-1]:
                first_of[owner[q]] = q
            order = np.empty(m, dtype=np.int64)
            r = Z.shape[1]
            _sort_crossings(angle, size, first_of, m, order, np.empty(r), np.empty(r, np.int64), np.empty(r, np.int64))
            assert np.array_equal(np.sort(order), np.arange(m))
            assert np.all(np.diff(angle[order]) >= 0.0)


@pytest.mark.parametrize("penalty", sorted(PENALTIES))
def test_branch_floor_is_below_the_branch_minimum(penalty):
    """The bound that lets the sweep skip a branch is below that branch's own minimum (the sweep
    on it alone, never skipped), so a skipped branch never held a better point."""
    rng = np.random.default_rng(3)
    for trial in range(40):
        h = PENALTIES[penalty](rng.choice([1e-3, 0.1, 2.0]))
        Qt = _qt(("general", "scalar", "psd")[trial % 3], rng)
        P = rng.standard_normal((2, 2))
        Z = np.ascontiguousarray(rng.standard_normal((2, 4)) * rng.choice([0.1, 1.0, 3.0]))
        if penalty == "zero":
            Z = np.empty((2, 0))
        coef = np.empty((2, 5))
        coefficients_2x2(Qt, P, coef)
        lam, tau = h.sweep_params()
        kind = ZERO_KIND if h.is_zero else h.sweep_kind
        for k in (0, 1):
            a, b, cq, d, e = coef[k]
            floor = _branch_floor(np.hypot(Z[0], Z[1]), kind, lam, tau, a, b, cq - e, d, e)
            assert floor <= sweep_2x2(coef, Z, kind, lam, tau, k, k)[3]
