"""solve_2x2 against the independent brute force, on the corners real runs hit."""
import functools
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from obcd_lite import (CappedL1, L0, L1, NonNeg, Zero, candidate_set, count_nonzeros, quartic_coefficients,
                       ref, rot, solve_2x2, solve_2x2_full, solve_kxk)
from obcd_lite.subproblem.brute_force import brute_force_2x2, objective_at, objective_on_circle
from obcd_lite.penalties import PENALTY_NAMES, penalty_by_name
from obcd_lite.subproblem.quartic import quartic_real_roots

PENALTIES = {name: functools.partial(penalty_by_name, name) for name in PENALTY_NAMES}  # (lam, tau) -> h
QT_KINDS = ("general", "scalar", "psd", "zero")


@st.composite
def instances(draw, penalty):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    r = draw(st.integers(1, 6))
    Z = rng.standard_normal((2, r))
    zero_frac = draw(st.sampled_from([0.0, 0.3, 0.7]))
    Z[rng.random(Z.shape) < zero_frac] = 0.0  # exact zeros, as the identity start makes
    if draw(st.booleans()):
        Z = np.linalg.qr(rng.standard_normal((max(r, 2), max(r, 2))))[0][:2, :r]  # rows of a Stiefel point
    if penalty == "nonneg" and draw(st.booleans()):
        Z = np.abs(Z)  # a feasible current point
    kind = draw(st.sampled_from(QT_KINDS))
    A = rng.standard_normal((4, 4))
    Qt = {"general": A + A.T, "scalar": draw(st.floats(-3, 3)) * np.eye(4), "psd": A @ A.T,
          "zero": np.zeros((4, 4))}[kind]
    P = rng.standard_normal((2, 2)) * draw(st.sampled_from([0.0, 0.1, 1.0, 10.0]))
    lam = draw(st.sampled_from([0.05, 0.5, 3.0]))  # lam = 0 is the "zero" penalty's job
    tau = draw(st.sampled_from([0.05, 0.3, 1.0]))
    return Qt, P, Z, PENALTIES[penalty](lam, tau)


def _assert_global(Qt, P, Z, h):
    sol = solve_2x2_full(Qt, P, Z, h)
    bf = brute_force_2x2(Qt, P, Z, h)
    if np.isinf(bf.value):  # X >= 0 infeasible on the whole grid: only a feasible point may beat it
        assert np.isinf(sol.value) or h(sol.VZ) == 0.0
        return
    assert sol.value <= bf.value + 1e-9 * max(1.0, abs(bf.value)), (sol, bf)
    # the reported value is the objective at the returned V, and V Z is the new rows
    direct = float(objective_at(Qt, P, Z, h, sol.V))
    assert sol.value == pytest.approx(direct, rel=1e-9, abs=1e-9)
    assert np.allclose(sol.V.T @ sol.V, np.eye(2), atol=1e-15)
    assert np.allclose(sol.VZ, sol.V @ Z, rtol=1e-12, atol=1e-14 * max(1.0, np.abs(Z).max()))


@pytest.mark.parametrize("penalty", sorted(PENALTIES))
@given(data=st.data())
def test_solve_2x2_never_worse_than_brute_force(penalty, data):
    _assert_global(*data.draw(instances(penalty)))


@pytest.mark.parametrize("penalty", sorted(PENALTIES))
@pytest.mark.parametrize("r", [1, 3])
def test_identity_rows_and_scalar_Q(penalty, r):
    # The identity start: Z = rows of I, so most entries of x and y are exactly zero.
    rng = np.random.default_rng(r)
    for i, j in [(0, 1), (0, r), (r, r + 1)]:
        Z = np.eye(r + 2, r)[[i, j]]
        for Qt in (2.0 * np.eye(4), -1.0 * np.eye(4), np.diag([1.0, -2.0, 3.0, 0.5])):
            _assert_global(Qt, rng.standard_normal((2, 2)), Z, PENALTIES[penalty](0.7, 0.2))


def test_l0_zero_is_exact():
    # lam large: the minimizer kills an entry; it must be 0.0, not 1e-17.
    Z = np.array([[0.6, 0.8], [0.3, -0.1]])
    sol = solve_2x2_full(2.0 * np.eye(4), -0.01 * np.eye(2), Z, L0(5.0))
    assert count_nonzeros(sol.VZ) < Z.size
    assert count_nonzeros(sol.VZ, tol=0.0) == count_nonzeros(sol.VZ, tol=1e-12)


def test_nonneg_result_is_feasible_exact_and_optimal():
    rng = np.random.default_rng(0)
    boundary = 0
    for _ in range(50):
        Z = np.abs(rng.standard_normal((2, 4)))
        Qt, P = np.eye(4), rng.standard_normal((2, 2))
        sol = solve_2x2_full(Qt, P, Z, NonNeg())
        assert np.all(sol.VZ >= 0.0)
        assert count_nonzeros(sol.VZ, tol=0.0) == count_nonzeros(sol.VZ, tol=1e-12)  # zeros are exact
        boundary += count_nonzeros(sol.VZ) < sol.VZ.size
        bf = brute_force_2x2(Qt, P, Z, NonNeg())
        assert sol.value <= bf.value + 1e-9 * max(1.0, abs(bf.value))
    assert boundary > 10  # the constraint is active in many instances, so exactness was exercised


def test_branches_restrict_the_circle():
    A = np.array([[1.0, 0.0], [-1.0, -1.0]])  # the paper's F1: minimizer is a reflection
    Qt, P, Z = 2.0 * np.eye(4), -2.0 * A, np.eye(2)
    both = solve_2x2_full(Qt, P, Z)
    only_rot = solve_2x2_full(Qt, P, Z, branches="rot")
    assert both.branch == "ref" and np.linalg.det(both.V) < 0
    assert only_rot.branch == "rot" and only_rot.value > both.value + 0.1


def test_quartic_roots_contain_dense_stationary_points():
    rng = np.random.default_rng(5)
    for _ in range(20):
        a, b, w, d = rng.standard_normal(4)
        t = np.linspace(-20, 20, 400_001)
        rho = np.hypot(1, t)
        p = (a + b * t) / rho + (w + d * t) / rho**2
        dp = np.diff(p)
        stationary = t[1:-1][np.sign(dp[:-1]) != np.sign(dp[1:])]
        roots = quartic_real_roots(quartic_coefficients(a, b, w, d))
        for ts in stationary:
            assert np.nanmin(np.abs(roots - ts)) < 1e-3


def test_quartic_degenerate_cases_do_not_lose_roots():
    # c4 = 0 (a = d: a root at t = infinity), c4 = c3 = 0, and the collapsed w = d = 0 case
    for a, b, w, d in [(1.0, 2.0, 0.5, 1.0), (1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 0.0), (2.0, 3.0, 1e-9, 0.0)]:
        c = quartic_coefficients(a, b, w, d)
        lead = np.flatnonzero(np.abs(c) > 1e-300)[0]
        exact = np.roots(c[lead:])
        real = exact[np.abs(exact.imag) < 1e-7].real
        ours = quartic_real_roots(c)
        for root in real:
            assert np.nanmin(np.abs(ours - root)) < 1e-6 * (1 + abs(root)), (a, b, w, d, root, ours)
    roots = quartic_real_roots(quartic_coefficients(2.0, 3.0, 0.0, 0.0))  # -(2t - 3)^2 (1 + t^2)
    assert np.nanmin(np.abs(roots - 1.5)) < 1e-6


@pytest.mark.parametrize("penalty", ["zero", "l1", "l0", "capped_l1", "nonneg"])
def test_candidate_set_minimum_is_the_global_minimum(penalty):
    rng = np.random.default_rng(11)
    for _ in range(10):
        A = rng.standard_normal((4, 4))
        Qt, P, Z = A + A.T, rng.standard_normal((2, 2)), np.abs(rng.standard_normal((2, 3)))
        h = PENALTIES[penalty](0.4, 0.3)
        full = candidate_set(Qt, P, Z, h)
        pruned = candidate_set(Qt, P, Z, h, prune=True)
        bf = brute_force_2x2(Qt, P, Z, h)
        assert "cos0" in set(full.kind) or penalty == "nonneg"
        assert ("identity" in set(full.kind)) == (not h.continuous)  # V = I matters only where h jumps
        assert np.allclose(full.c**2 + full.s**2, 1.0)
        assert len(pruned.t) <= len(full.t)
        assert np.min(full.value) <= bf.value + 1e-9 * max(1.0, abs(bf.value))
        assert np.min(pruned.value) == pytest.approx(np.min(full.value), rel=1e-12, abs=1e-12)


def test_candidate_values_are_objective_values():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((4, 4))
    Qt, P, Z, h = A + A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 3)), L1(0.3)
    cands = candidate_set(Qt, P, Z, h)
    sol = solve_2x2_full(Qt, P, Z, h)
    for branch, c, s, value in zip(cands.branch, cands.c, cands.s, cands.value):
        name = ("rot", "ref")[branch]
        assert value == pytest.approx(objective_on_circle(Qt, P, Z, h, name, np.arctan2(s, c))[0], abs=1e-10)
    assert np.min(cands.value) == pytest.approx(sol.value, abs=1e-12)


def test_solve_kxk_is_minus_polar():
    rng = np.random.default_rng(4)
    for k in (2, 3, 5):
        P = rng.standard_normal((k, k))
        V = solve_kxk(P)
        assert np.allclose(V.T @ V, np.eye(k), atol=1e-14)
        assert np.vdot(V, P) == pytest.approx(-np.linalg.svd(P, compute_uv=False).sum())
        for _ in range(200):  # no random orthogonal matrix does better
            W = np.linalg.qr(rng.standard_normal((k, k)))[0]
            assert np.vdot(V, P) <= np.vdot(W, P) + 1e-12
    P = rng.standard_normal((2, 2))
    assert np.vdot(solve_kxk(P), P) == pytest.approx(np.vdot(solve_2x2(np.zeros((4, 4)), P, np.eye(2)), P))


def test_rot_ref_convention():
    t = 0.3
    assert np.allclose(rot(t), [[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    assert np.allclose(ref(t), [[-np.cos(t), np.sin(t)], [np.sin(t), np.cos(t)]])
    assert np.linalg.det(rot(t)) == pytest.approx(1.0) and np.linalg.det(ref(t)) == pytest.approx(-1.0)


@pytest.mark.parametrize("bad, match", [
    (dict(Qt=np.ones((3, 3))), "Qt must have shape"),
    (dict(Qt=np.triu(np.ones((4, 4)))), "Qt must be symmetric"),
    (dict(P=np.full((2, 2), np.nan)), "P has a non-finite entry nan"),
    (dict(Z=np.ones((3, 2))), r"Z must have shape \(2, None\)"),
    (dict(h="l1"), "h must be a Penalty"),
])
def test_bad_input(bad, match):
    args = dict(Qt=np.eye(4), P=np.eye(2), Z=np.ones((2, 2)), h=Zero()) | bad
    with pytest.raises((ValueError, TypeError), match=match):
        solve_2x2(**args)


@pytest.mark.parametrize("make, match", [
    (lambda: L1(-1.0), "lam must be finite and >= 0, got lam = -1.0"),
    (lambda: L0(float("nan")), "lam must be finite"),
    (lambda: CappedL1(1.0, 0.0), "tau must be finite and > 0, got tau = 0.0"),
    (lambda: CappedL1(1.0, -2.0), "tau = -2.0"),
])
def test_bad_penalty_parameters(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_stationary_candidates_are_stationary():
    """candidate_set labels a point "stationary" only if dF/dtheta = 0 there (squaring
    artifacts and real parts of complex roots are filtered out)."""
    rng = np.random.default_rng(8)
    for _ in range(20):
        A = rng.standard_normal((4, 4))
        Qt, P, Z = A + A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 3))
        cands = candidate_set(Qt, P, Z, L1(0.3))
        for branch, kind, c, s in zip(cands.branch, cands.kind, cands.c, cands.s):
            if kind != "stationary":
                continue
            theta, delta = np.arctan2(s, c), 1e-6
            name = ("rot", "ref")[branch]
            left, mid, right = objective_on_circle(Qt, P, Z, L1(0.3), name, [theta - delta, theta, theta + delta])
            assert abs(right - left) / (2 * delta) < 1e-5 * (1 + np.abs(Qt).sum())


@pytest.mark.parametrize("penalty", ["l1", "capped_l1", "zero"])
def test_first_and_last_pieces_describe_the_ends_of_the_line(penalty):
    """Column 0 of pieces() holds as t -> -inf and column -1 as t -> +inf, also when some
    breakpoints are absent (y_i = 0); the cos theta = 0 candidates rely on it."""
    rng = np.random.default_rng(3)
    h = PENALTIES[penalty](0.7, 0.2)
    for _ in range(30):
        x, y = rng.standard_normal((2, 2, 5)) * rng.choice([0.1, 1.0])
        y[rng.random(y.shape) < 0.4] = 0.0
        _, alpha, beta, gamma = h.pieces(x, y)
        for t, col in ((1e9, -1), (-1e9, 0)):
            rho = np.hypot(1.0, t)
            want = h.row_sums((x + t * y) / rho)
            got = (alpha[:, col] + beta[:, col] * t) / rho + gamma[:, col]
            assert np.allclose(got, want, atol=1e-9)


def test_capped_l1_with_entries_far_above_tau():
    """|Z| >> tau: the cap crossings must not be lost to cancellation in the discriminant."""
    rng = np.random.default_rng(10)
    A = rng.standard_normal((4, 4))
    Z = np.array([[30570522, -185168503, -17705351], [42582567, -98535561, -111295413]], float)
    for scale in (1.0, 1e-4, 1e-8):
        _assert_global(A + A.T, np.zeros((2, 2)), Z * scale, CappedL1(1.0, 0.05))
