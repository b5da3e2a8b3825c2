"""obcd_lite.teaching.symbolic: each sympy derivation of Appendix B, and its agreement with the numbers of subproblem.

The derivations that back a row of ``symbolic.ERRATA`` (the quartic's closed form, the squaring, c4 and the
cos theta = 0 points, the sign of the zero crossing) are tested once, in tests/test_errata.py.
"""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq

from obcd_lite import L0, L1, CappedL1, NonNeg, Zero
from obcd_lite.teaching import paper_recipe as R
from obcd_lite.teaching import symbolic as S
from obcd_lite.subproblem.breakpoint import branch_coefficients
from obcd_lite.subproblem.quartic import quartic_coefficients, quartic_real_roots

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _instance(seed, r):
    rng = np.random.default_rng(seed)
    G = rng.standard_normal((4, 4))
    return G + G.T, rng.standard_normal((2, 2)), rng.standard_normal((2, r))


@pytest.mark.parametrize("branch", S.BRANCHES)
@pytest.mark.parametrize("r", [1, 2])
def test_derived_coefficients_equal_the_papers_closed_forms(branch, r):
    res = S.coefficient_residuals(branch, r)
    assert all(res[k] == 0 for k in ("a", "b", "cq", "d", "e"))
    assert all(v == 0 for k in ("x", "y") for v in res[k])


def test_coefficient_check_can_fail_on_a_wrong_sign():
    # the rot derivation against the ref closed forms must disagree (the check is not vacuous)
    ours, other = S.branch_coefficients_symbolic("rot"), S.paper_branch_coefficients("ref")
    assert sp.simplify(ours["a"] - other["a"]) != 0 and sp.simplify(ours["d"] - other["d"]) != 0


def test_unknown_branch_and_bad_r_are_rejected():
    with pytest.raises(ValueError, match="branch"):
        S.orthogonal_2x2("flip")
    with pytest.raises(ValueError, match="r must be"):
        S.subproblem_symbols(0)


@settings(deadline=None)
@given(seed=seeds, r=st.integers(1, 3))
def test_lambdified_coefficients_equal_branch_coefficients(seed, r):
    Qt, P, Z = _instance(seed, r)
    numeric = S.lambdify_branch_coefficients(r)(Qt, P, Z)
    for ours, lead in zip(numeric, branch_coefficients(Qt, P, Z)):
        np.testing.assert_allclose(ours, lead, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("sigma", [1, -1])
def test_tan_substitution_gives_p_and_p_tilde(sigma):
    assert S.tan_substitution_residual(sigma) == 0
    # and the other half circle is a different function: both cases are needed
    wrong = sp.simplify(S.tan_substituted(sigma).subs(S.cq, S.w + S.e) - S.paper_p(-sigma))
    assert wrong != 0


def test_the_line_never_reaches_cos0_but_its_limits_equal_those_candidates():
    lim = S.cos0_limits()
    assert sp.simplify(lim["p(+inf)"] - lim["F(0,1)-e"]) == 0
    assert sp.simplify(lim["p(-inf)"] - lim["F(0,-1)-e"]) == 0


@pytest.mark.parametrize("sigma", [1, -1])
def test_stationarity_numerator(sigma):
    assert S.stationarity_residual(sigma) == 0


@settings(deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=4, max_size=4))
def test_lambdified_quartic_equals_quartic_coefficients(v):
    f = sp.lambdify((S.a, S.b, S.w, S.d), S.quartic_symbolic(), "numpy")
    np.testing.assert_allclose(np.array(f(*v), dtype=float), quartic_coefficients(*v), atol=1e-12)


def test_quartic_collapses_when_qt_is_a_multiple_of_identity():
    assert sp.expand(S.quartic_when_quadratic_vanishes() + (S.a * S.t - S.b) ** 2 * (1 + S.t**2)) == 0


def _half_circle_stationary_points(a, b, w, d, sigma, n=4001):
    """Stationary t of p_sigma by a dense scan of theta in (-pi/2, pi/2) and bracketing, independent of the quartic."""
    def dp(t):
        rho = np.hypot(1.0, t)
        return sigma * (b - a * t) / rho**3 + (d - 2 * w * t - d * t * t) / rho**4

    th = np.linspace(-np.pi / 2, np.pi / 2, n)[1:-1]
    g = dp(np.tan(th))
    idx = np.nonzero(np.sign(g[:-1]) * np.sign(g[1:]) < 0)[0]
    return [brentq(lambda u: dp(np.tan(u)), th[i], th[i + 1], xtol=1e-14) for i in idx]


@settings(deadline=None)
@given(seed=seeds)
def test_quartic_real_roots_contain_the_dense_search_stationary_points(seed):
    Qt, P, Z = _instance(seed, 2)
    a, b, cq, d, e, x, y = branch_coefficients(Qt, P, Z)
    for k in range(2):
        w = cq[k] - e[k]
        roots = quartic_real_roots(quartic_coefficients(a[k], b[k], w, d[k]))  # the package's one NumPy solver
        for sigma in (1, -1):
            for u in _half_circle_stationary_points(a[k], b[k], w, d[k], sigma):
                # compare in angle: tan is steep near +-pi/2
                assert np.nanmin(np.abs(np.arctan(roots) - u)) < 1e-6


def test_l1_shift_and_its_derivative():
    assert S.l1_interval_residual(2) == 0
    assert S.l1_term_derivative_residual() == 0


@settings(deadline=None)
@given(x=st.floats(-3, 3), y=st.floats(-3, 3), tau=st.floats(0.05, 2.0))
def test_capped_crossings_solve_the_derived_quadratic(x, y, tau):
    q = S.capped_crossing_quadratic()
    subs = {sp.Symbol("x_i", real=True): x, sp.Symbol("y_i", real=True): y, S.tau: tau}
    disc = float(q["discriminant"].subs(subs))
    assert np.isclose(disc, 4 * tau**2 * (x * x + y * y - tau**2), rtol=1e-9, atol=1e-9)
    roots = CappedL1(1.0, tau).cap_crossings(np.array([[x]]), np.array([[y]]))[0]
    for r in roots[np.isfinite(roots)]:
        assert abs(abs(x + r * y) - tau * np.hypot(1.0, r)) <= 1e-8 * (1 + abs(r) * (abs(y) + tau) + abs(x))
    if x * x + y * y < tau**2 * (1 - 1e-9):  # never reaches the cap on the circle: no crossing
        assert not np.any(np.isfinite(roots))


@pytest.mark.parametrize("h", [L0(0.7), L1(0.5), CappedL1(1.3, 0.4), NonNeg(), Zero()], ids=repr)
@settings(deadline=None)
@given(seed=seeds)
def test_pieces_reproduce_h_along_the_line(h, seed):
    """sum_i h((x + t y)/rho) = (alpha + beta t)/rho + gamma inside every interval, y_i = 0 entries included."""
    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal((1, 5)), rng.standard_normal((1, 5))
    y[0, 1] = 0.0
    breaks, alpha, beta, gamma = h.pieces(x, y)
    cuts = np.sort(breaks[0][np.isfinite(breaks[0])])
    mids = R._interval_points(cuts)
    for mid in mids:
        l = int(np.searchsorted(breaks[0], mid)) if alpha.shape[1] > 1 else 0
        rho = np.hypot(1.0, mid)
        want = h((x[0] + mid * y[0]) / rho)
        got = (alpha[0, l] + beta[0, l] * mid) / rho + gamma[0, l]
        assert (np.isinf(want) and np.isinf(got)) or np.isclose(want, got, atol=1e-12)
