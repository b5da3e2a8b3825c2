"""The deciding tests of the ledger rows that had no check before issue 18 (obcd_lite.teaching.ledger):
Sections 2-4 and Appendices A and C of the paper, on random and adversarial instances."""
import math

import numpy as np
import pytest

from obcd_lite import L1
from obcd_lite.problems import procrustes
from obcd_lite.stiefel import random_stiefel
from obcd_lite.teaching import paper_checks as pc
from obcd_lite.teaching import paper_rates as pr


def test_lemma_2_1_and_lemma_2_2():
    out = pc.update_identities(n=6, r=3, k=3, trials=20, rng=0)
    for key in ("2.1a", "2.1b", "2.2a", "2.2b", "2.2c_equality"):
        assert out[key] < 1e-12, key
    assert out["2.2c_slack"] >= -1e-12
    # k = n: the whole matrix rotates, ||X+ - X|| can reach ||V - I|| (r = n) but not exceed it
    tight = pc.update_identities(n=3, r=3, k=3, trials=10, rng=1)
    assert -1e-12 <= tight["2.2c_slack"] < 1e-12


def test_lemma_2_3_and_remark_2_4():
    out = pc.subproblem_reduction(k=3, rng=0)
    assert out["spread_a"] < 1e-12                     # (a): K and problem (3) differ by a constant
    assert out["gap_b"] >= -1e-12 and out["nuclear_b"] < 1e-12   # (b): -P_M(P) is the global minimizer
    assert out["descent_count"] > 50 and out["descent_slack"] >= -1e-12   # Remark 2.4(b)
    assert pc.subproblem_reduction(k=4, rng=1)["gap_b"] >= -1e-12        # Remark 2.4(a), k = 4


def test_remark_3_5():
    out = pc.remark_3_5()
    assert 1 - 1e-12 <= out["ratio_min"] and out["ratio_max"] <= 2 + 1e-12
    zero_zero, skew, normal = out["pure"]["X S"], out["pure"]["X W"], out["pure"]["N"]
    assert max(zero_zero) < 1e-12                       # both conditions hold together
    assert min(skew) > 1 and min(normal) > 1           # and fail together
    assert skew[0] == pytest.approx(2 * skew[1]) and normal[0] == pytest.approx(normal[1])


def test_lemma_4_4_a_along_runs():
    for seed in (0, 2):
        report = pr.rate_report(pr.rate_run(n=4, alpha=0.1, seed=seed, iters=150))
        assert report["lemma_4_4a"].size > 20
        assert np.all(report["lemma_4_4a"] <= 1.0)


def test_lemma_4_4_a_fails_for_l1():
    w = pr.lemma_4_4_a_witness()
    assert max(w["brute_gap"].values()) < 1e-12 and abs(w["brute_gap"][(0, 2)]) < 1e-12   # global block minimizers
    assert 0 < max(w["step_sq"].values()) < 1e-6 and 0 < w["theta"][(0, 2)] < 1e-3           # tiny steps
    assert w["lhs_direct"] == pytest.approx(w["lhs"], rel=1e-5)                             # two computations
    assert w["direct"][(0, 2)][(1, 2)] > 1.5                                                # the pair that jumps
    assert w["lhs"] > 100 * w["rhs"]


def test_theorem_4_10_along_runs():
    report = pr.rate_report(pr.rate_run(n=4, alpha=0.1, seed=2, iters=300))
    corrected, stated = report["theorem_4_10a"], report["theorem_4_10a_as_stated"]
    assert np.all(corrected <= 1.0) and np.all(report["theorem_4_10b"] <= 1.0)
    # the statement's E_{t+1} = (E||V - I||)^(1/2): the ratio grows as the run converges and passes 1
    assert stated.max() > 1.0 and stated[-5:].mean() > 10 * stated[:5].mean()


@pytest.mark.parametrize("n, seed", [(4, 2), (4, 0), (5, 1), (5, 3)])
def test_theorem_4_11_b_linear_rate(n, seed):
    """sigma = 1/2 (h = 0): ||X^t - X^inf|| decays linearly (a straight line on a log axis: the fit explains
    > 95% of the variance), at a rate below the theorem's tau; a sublinear decay, as in
    test_theorem_4_11_c_sublinear_rate, would fail both."""
    run = pr.rate_run(n=n, alpha=0.1, seed=seed, iters=300)
    report = pr.rate_report(run)
    assert report["measured_rate"] < 0.99 and report["measured_rate"] <= report["predicted_rate"] < 1.0
    fit = np.flatnonzero(run.err > 1e-6)
    logs = np.log(run.err[fit])
    residual = logs - np.polyval(np.polyfit(fit, logs, 1), fit)
    assert fit.size > 30 and 1 - residual.var() / logs.var() > 0.95
    # the proof's first step: ||X^t - X^inf|| <= D_t = sum_{j >= t} ||V^j - I||, here with the realized steps
    E = np.sqrt(run.e2)
    assert np.all(run.err[: len(E)] <= np.cumsum(E[::-1])[::-1] * math.sqrt(math.comb(n, 2)) + 1e-12)


def test_remark_4_5_l1_subgradients_are_bounded():
    """Remark 4.5 with the constant Lemma 4.4 uses: the largest ||G|| over G in dF(X) = grad f(X) + lam [box of
    dh(X)] is computed exactly (||.||^2 is separable: each entry takes the end of its interval farther from
    -grad f) at OBCD limits with exact zeros and at random points, on three problems; it never exceeds
    C_F = ||C||_2 sqrt(r) + ||L||_F + lam sqrt(n r), and the lam sqrt(n r) part is attained (a sign pattern)."""
    from obcd_lite import get_solver

    rng = np.random.default_rng(0)
    for n, r, lam in ((5, 2, 0.7), (4, 3, 1.5), (6, 1, 0.2)):
        problem = procrustes(rng.standard_normal((n, r)), L1(lam))
        C_F = pr.l1_subgradient_bound(problem, r, trials=1)["C_F"]
        points = [get_solver("obcd")(problem, random_stiefel(n, r, rng=s), max_iter=2000, rng=s).X for s in range(3)]
        points += [random_stiefel(n, r, rng=10 + s) for s in range(20)]
        assert any(np.any(X == 0) for X in points)                                # exact zeros: intervals
        for X in points:
            lo, hi = problem.h.subdifferential(X)
            assert np.all(lo >= -lam) and np.all(hi <= lam) and np.all(lo <= hi)
            g = problem.grad(X)
            largest = np.sqrt(np.sum(np.maximum((g + lo) ** 2, (g + hi) ** 2)))
            assert largest <= C_F
            assert np.linalg.norm(np.maximum(np.abs(lo), np.abs(hi))) == pytest.approx(lam * math.sqrt(n * r))


def test_theorem_4_6_fails_for_l1():
    w = pr.theorem_4_6_witness()
    assert max(w["block_gaps"].values()) < 1e-12 and w["moved"] < 1e-12      # OBCD never leaves X_w
    assert w["dist"] == pytest.approx(w["dist_independent"], abs=1e-8) and w["dist"] > 0.8
    assert w["certified"] and w["F"] > w["F_lower"] + 0.1                     # c~ > 0: X_w is not global
    assert w["dist"] ** 2 > w["eps"] and 0 < w["T"] < math.inf               # eps never reached, T finite


@pytest.mark.parametrize("n", [3, 5])
def test_lemma_a1(n):
    for k in range(2, n + 1):
        assert pc.block_map_rank(n, k) == n * n        # only W = 0 has every block zero
    assert pc.block_map_rank(n, 1) == n                # k = 1: only the diagonal is seen (the proof's remark)


def test_lemma_a2():
    out = pc.lemma_a2_slack()
    assert out["random_min"] >= 0 and abs(out["tight"]) < 1e-12


@pytest.mark.parametrize("n", [4, 6])
def test_lemma_a4(n):
    assert all(pc.lemma_a4_residual(n, k, rng=k) == 0 for k in range(2, n + 1))


def test_lemma_a6_and_a7():
    out = pc.tangent_projection()
    for key in ("tangent", "normal", "distance", "identity"):
        assert out[key] < 1e-12, key
    assert out["closest"] >= 0 and out["ratio"] <= 1 + 1e-12


def test_lemma_a8():
    assert pc.lemma_a8_residual() < 1e-12


def test_lemma_a9():
    assert pc.lemma_a9_slack() >= -1e-12


@pytest.mark.parametrize("tau, a", [(0.5, 1.0), (1.0, 0.2), (3.0, 5.0)])
def test_lemma_a10(tau, a):
    assert pc.lemma_a10_ratio(tau, a, T=4000) <= 1 + 1e-12


def test_lemma_c1_and_c2():
    for seed in range(3):
        out = pc.kron_q(rng=seed)
        assert out["c1a"] < 1e-12 and out["c1b"] < 1e-12
        assert out["c2a"] >= -1e-12 and out["c2b"] >= -1e-12


# --- issue 27: the KL part of Section 4 and Lemma 4.4(a) decided on several instances ---------------------

@pytest.mark.parametrize("seed", [2, 13, 30, 33])
def test_theorem_4_10_a_needs_F_of_the_limit(seed):
    """Theorem 4.10(a) with phi_t = phi(F(X^t) - F(X^inf)) holds along OBCD runs that converge to a point that is
    not a global minimizer; with the statement's F_inf (the global minimum) the ratio grows by orders of
    magnitude as the run converges and passes 1 (for any KL constant c: the growth does not depend on it)."""
    from obcd_lite.teaching.paper_kl import local_minimum_run

    w = local_minimum_run(seed)
    assert w is not None and w["certified"] and w["F_limit"] > w["F_min"] + 1e-2     # a non-global limit
    corrected, stated = w["reports"]["limit"]["theorem_4_10a"], w["reports"]["global"]["theorem_4_10a"]
    assert corrected.size > 30 and np.all(corrected <= 1.0) and np.all(w["reports"]["limit"]["theorem_4_10b"] <= 1.0)
    assert stated.max() > 1.0 and stated[-5:].mean() > 1000 * stated[:5].mean()


def test_lemma_4_4_a_reading_as_lam_grows():
    """Block (0, 2) moves X[2, 1] off zero only below lam ~ 1.340952: the left side is ~0.32 there, ~1e-7 above
    (the lemma holds there). Without the step tolerance a rounding-level step fakes the 0.32 at 1.34095."""
    scan = pr.lemma_4_4_a_scan((1.34, 1.3409, 1.341, 1.345, 1.349))
    assert all(scan[lam][1] > 0.3 for lam in (1.34, 1.3409))
    assert all(scan[lam][1] < 1e-6 for lam in (1.341, 1.345, 1.349))
    assert pr.lemma_4_4_a_witness(1.34095)["lhs"] < 1e-6
    assert pr.lemma_4_4_a_witness(1.34095, step_tol=0.0)["lhs"] > 0.3         # the spurious step


def test_lemma_4_4_a_fails_for_every_constant():
    """At lam = 1.35 with the target moved just past where block (0, 2) starts to move: E||V - I||^2 -> 0 like
    delta^2 while the left side stays ~0.32, so left / E||V - I||^2 exceeds every phi."""
    out = pr.lemma_4_4_a_family(deltas=(1e-2, 1e-3, 1e-4))
    (_, e2a, lhsa, ratioa), (_, e2b, lhsb, _), (_, e2c, lhsc, ratioc) = out["rows"]
    assert 0 < out["s_star"] < 0.01
    assert all(0.3 < lhs < 0.35 for lhs in (lhsa, lhsb, lhsc))
    assert e2a > 50 * e2b > 2500 * e2c > 0                                      # steps -> 0
    phi = pr.lemma_4_4_a_witness(1.35)["phi"]
    assert ratioc > 1e3 * phi and ratioc > 1e4 * ratioa / 10


def test_theorem_4_11_a_finite_termination():
    """sigma = 0 (F = <c, x> + lam ||x||_1 on the sphere, lam > max |c_i|): every OBCD run stops exactly, at a
    vertex of the l1 ball, within a few dozen steps, and X never changes again."""
    from obcd_lite.teaching.paper_kl import finite_termination_runs

    out = finite_termination_runs(runs=150, n=5, max_iter=400, rng=0)
    assert all(out["vertex"]) and all(out["still"])
    assert max(out["last_move"]) < 100 < out["max_iter"] and min(out["last_move"]) > 0


def test_proposition_4_9_power_form_holds_only_for_semialgebraic():
    """exp(-1/(1 - x_1)) on the circle is KL (phi = arccos(1 - 1/ln(1/s)), concave) but no c works in
    phi(s) = c s^(1 - sigma) for any sigma < 1: the smallest c at angle theta grows without bound as theta -> 0
    (sigma = 0.99 already needs c > 1e82 at theta = 0.01). For (1 - x_1)^m, m = 2, 3, sigma = 1 - 1/(2m) works."""
    from obcd_lite.teaching.paper_kl import kl_power_constants

    out = kl_power_constants(thetas=np.geomspace(0.3, 0.005, 12))
    assert out["inverse_error"] < 1e-12 and out["concave"]
    for sigma, logc in out["flat"].items():
        assert np.all(np.diff(logc[4:]) > 0) and logc[-1] > 300, sigma            # unbounded
    assert kl_power_constants(sigmas=(0.99,), thetas=[0.01])["flat"][0.99][0] > 82
    for m in (2, 3):
        poly = kl_power_constants(m=m)["poly"]
        assert np.all(np.abs(poly) < 2) and np.ptp(poly[-6:]) < 0.01              # bounded


@pytest.mark.parametrize("A, alpha, n", [(1.0, 1.0, 2), (0.5, 0.1, 2), (2.0, 1.0, 3)])
def test_theorem_4_11_c_sublinear_rate(A, alpha, n):
    """sigma = 3/4 (quartic growth at the minimizer, measured along the run): Theorem 4.11(c) predicts
    ||X^t - X^inf|| <= c t^(-(1 - sigma)/(2 sigma - 1)) = c t^(-1/2). Measured: slope -1/2 on log-log axes,
    err * sqrt(t) bounded, and not linear (err(2T)/err(T) -> 1/sqrt 2, not 0)."""
    from obcd_lite.teaching.paper_kl import sublinear_run

    run = sublinear_run(A, alpha, n, iters=4000)
    t, err = run["t"], run["err"]
    tail = t >= 100
    assert -0.55 < np.polyfit(np.log(t[tail]), np.log(err[tail]), 1)[0] < -0.45
    scaled = err[9:] * np.sqrt(t[9:])
    assert scaled.max() <= 1.5 * scaled[-1] and scaled.min() > 0.5 * scaled[-1]
    assert 0.65 < err[3999] / err[1999] < 0.75
    live = run["gap"] > 1e-14
    sigma = np.polyfit(np.log(run["gap"][live][50:]), np.log(run["grad"][live][50:]), 1)[0]
    assert 0.72 < sigma < 0.78                                           # |grad| ~ (F - F*)^(3/4)
