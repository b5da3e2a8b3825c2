"""Each row of obcd_lite.teaching.symbolic.ERRATA (the notebook's errata table) is backed by a test here."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.parsing.sympy_parser import implicit_multiplication_application, parse_expr, standard_transformations

from obcd_lite import L0, L1, CappedL1, NonNeg
from obcd_lite.teaching import symbolic as S
from obcd_lite.teaching.breakpoint_stages import random_instance
from obcd_lite.subproblem.brute_force import brute_force_2x2
from obcd_lite.subproblem.breakpoint import (branch_coefficients, candidate_set, quartic_coefficients, quartic_real_roots,
                                  solve_2x2_full)


def test_every_erratum_names_a_test_of_this_module():
    names = {r["test"] for r in S.ERRATA}
    assert names <= set(globals()), names - set(globals())
    assert len(names) == len(S.ERRATA)


@pytest.mark.parametrize("h, seed, gap", [(L0(0.3), 0, 0.25), (L1(0.5), 0, 0.015)], ids=["l0", "l1"])
def test_breakpoint_sign(h, seed, gap):
    xi, yi = sp.symbols("x_i y_i", real=True, nonzero=True)
    assert sp.simplify(S.zero_crossing() + xi / yi) == 0 and sp.simplify(S.zero_crossing() - xi / yi) != 0
    Qt, P, Z = random_instance(seed)
    best = solve_2x2_full(Qt, P, Z, h).value
    assert S.paper_solve(Qt, P, Z, h) > best + gap                          # the paper's x_i / y_i
    assert S.paper_solve(Qt, P, Z, h, crossing_sign=-1, drop_zero_y=False) == pytest.approx(best, abs=1e-10)
    assert brute_force_2x2(Qt, P, Z, h).value == pytest.approx(best, abs=1e-7)


def test_l1_interval_count():
    Qt, P, Z = random_instance(0)
    _, _, _, _, _, x, y = branch_coefficients(Qt, P, Z)
    r = Z.shape[1]
    o = S.l1_sign_vectors(x[0], y[0], S.paper_l1_cuts(x[0], y[0]))
    assert len(o) == 4 * r + 1                                           # the paper's intervals
    assert int(np.sum(np.any(o[1:] != o[:-1], axis=1))) == 2 * r         # o changes only at the 2r kinks
    assert len({tuple(v) for v in o}) == 2 * r + 1
    # the lead's L1.pieces returns exactly 2r breakpoints and 2r+1 intervals
    breaks, alpha, _, _ = L1(0.5).pieces(x, y)
    assert breaks.shape[1] == 2 * r and alpha.shape[1] == 2 * r + 1
    # the extra cuts are only wasteful: with the right sign, the paper's intervals still find the minimum
    h = L1(0.5)
    assert S.paper_solve(Qt, P, Z, h, crossing_sign=-1, drop_zero_y=False, l1_intervals="paper") == pytest.approx(
        solve_2x2_full(Qt, P, Z, h).value, abs=1e-10)


def test_zero_y_entries():
    Qt, P, Z = random_instance(5)
    Z[1, 0] = 0.0                                  # rot: y_1 = Z21 = 0 with x_1 = Z11 != 0
    fixed_sign = {"crossing_sign": -1, "l1_intervals": "kinks"}
    for h, harmful in ((L1(0.5), True), (CappedL1(1.0, 0.4), None), (L0(0.3), False)):
        best = solve_2x2_full(Qt, P, Z, h).value
        assert brute_force_2x2(Qt, P, Z, h).value == pytest.approx(best, abs=1e-7)
        if harmful is None:
            continue  # capped-l1 is beyond the paper's recipe; its pieces are tested in test_symbolic
        dropped = S.paper_solve(Qt, P, Z, h, drop_zero_y=True, **fixed_sign)
        kept = S.paper_solve(Qt, P, Z, h, drop_zero_y=False, **fixed_sign)
        assert kept == pytest.approx(best, abs=1e-10)
        assert (dropped > best + 1e-2) if harmful else dropped == pytest.approx(best, abs=1e-10)
    # l1: the y_i = 0 term lam |x_i| / sqrt(1 + t^2) is not constant in t
    t = np.array([0.0, 1.0, 3.0])
    assert np.ptp(0.5 * abs(Z[0, 0]) / np.hypot(1.0, t)) > 0.1
    # NonNeg: sigma x_i < 0 with y_i = 0 makes that whole half circle infeasible
    x, y = np.array([[-0.5, 1.0]]), np.array([[0.0, 2.0]])
    _, _, _, gamma = NonNeg().pieces(x, y)
    assert np.all(np.isinf(gamma))
    _, _, _, gamma_flipped = NonNeg().pieces(-x, -y)
    assert np.isfinite(gamma_flipped).any()


def test_quartic_can_have_no_real_root():
    coeffs = quartic_coefficients(0.0, 3.0, 1.0, 0.0)
    np.testing.assert_allclose(coeffs, [0, 0, -5, 0, -9])
    assert S.real_roots(coeffs).size == 0
    lead = quartic_real_roots(coeffs)
    assert not np.any(np.isfinite(lead) & (np.abs(np.polyval(coeffs, np.nan_to_num(lead))) < 1e-9))
    # j = 0 needs c4 = 0: then theta = +-pi/2 is stationary (dF/dtheta there is -(a + d), a - d)
    der = S.circle_derivative_at_cos0()
    assert sp.expand(der["product"] - S.quartic_symbolic()[0]) == 0


@settings(deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=4, max_size=4))
def test_quartic_has_a_real_root_when_c4_is_not_zero(v):
    a, b, w, d = v
    coeffs = quartic_coefficients(a, b, w, d)
    if abs(coeffs[0]) < 1e-2 or np.allclose([a, b, w, d], 0, atol=1e-2):
        return  # the counterexample regime (c4 = 0) or a constant circle function
    # a smooth function on the circle has a minimum off cos theta = 0, hence a finite stationary t
    assert S.real_roots(coeffs, imag_tol=1e-5).size >= 1


def test_quartic_closed_form():
    # sympy's c4..c0 against the solver's code (exactly on an integer grid, and at random points)
    assert S.quartic_agreement(quartic_coefficients) == [True] * 5
    assert S.quartic_agreement() == [True] * 5  # the default is the solver's code too
    # the comparison is not vacuous: c3 and c1 differ only in the sign of 4dw, and swapping them is caught
    swapped = lambda a, b, w, d: quartic_coefficients(a, b, w, d)[..., [0, 3, 2, 1, 4]]  # noqa: E731
    assert S.quartic_agreement(swapped) == [True, False, True, False, True]
    # and so is an error that vanishes on the integer grid, by the random points
    def nudged(a, b, w, d):
        out = quartic_coefficients(a, b, w, d)
        out[..., 4] += 1e-9 * (a - np.round(a))
        return out

    assert S.quartic_agreement(nudged) == [True, True, True, True, False]
    # the closed forms printed in the errata table (read from its text) are the ones sympy derives
    (row,) = [r for r in S.ERRATA if r["test"] == "test_quartic_closed_form"]
    names = {"a": S.a, "b": S.b, "w": S.w, "d": S.d}
    transformations = standard_transformations + (implicit_multiplication_application,)
    printed = dict(item.split("=") for item in row["correct"].replace("^", "**").split(", "))
    assert list(printed) == ["c4", "c3", "c2", "c1", "c0"]
    parsed = [parse_expr(v, local_dict=names, transformations=transformations) for v in printed.values()]
    assert [sp.expand(u - v) for u, v in zip(S.quartic_symbolic(), parsed)] == [0] * 5


def test_squaring_mixes_p_and_p_tilde():
    assert S.squaring_factorisation_residual() == 0
    Qt, P, Z = random_instance(0)
    a, b, cq, d, e, _, _ = branch_coefficients(Qt, P, Z)
    w = cq - e
    roots = S.real_roots(quartic_coefficients(a[0], b[0], w[0], d[0]))
    rho = np.hypot(1.0, roots)
    G, H = d[0] - 2 * w[0] * roots - d[0] * roots**2, b[0] - a[0] * roots
    for_p, for_p_tilde = np.abs(G + H * rho) < 1e-9, np.abs(G - H * rho) < 1e-9
    assert roots.size == 2 and not for_p.any() and for_p_tilde.all()
    # the candidate set keeps such roots on p's curve too: harmless, they are scored exactly
    cs = candidate_set(Qt, P, Z)
    assert cs.value.min() == pytest.approx(solve_2x2_full(Qt, P, Z).value, abs=1e-12)


def test_identity_qt_double_root():
    quartic = S.quartic_when_quadratic_vanishes()
    root = S.b / S.a
    assert sp.simplify(quartic.subs(S.t, root)) == 0 and sp.simplify(sp.diff(quartic, S.t).subs(S.t, root)) == 0
    rng = np.random.default_rng(3)
    Qt, P, Z = 2.0 * np.eye(4), rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
    a, b, cq, d, e, _, _ = branch_coefficients(Qt, P, Z)
    assert np.all(cq - e == 0) and np.all(d == 0)
    for h in (L1(0.5), L0(0.3)):
        assert solve_2x2_full(Qt, P, Z, h).value == pytest.approx(brute_force_2x2(Qt, P, Z, h).value, abs=1e-7)
