"""classify on constructed cases, and the Theorem 3.8(a) erratum: a BS_2 point that is not critical (l1, l0),
certified twice independently; (a) holds for h = 0 and X >= 0 on every limit searched."""
import numpy as np
import pytest
from scipy.linalg import expm

from obcd_lite import L1, QuadraticProblem, classify, obcd, procrustes, random_stiefel, randn_covariance, sparse_pca
from obcd_lite.optimality import BLOCK_BUDGET, BlockBudgetError, block_cost, block_report, global_minimum
from obcd_lite.subproblem import block_data, majorizer_value, solve_2x2_full
from obcd_lite.teaching.critical_points import critical_points_2x2
from obcd_lite.teaching.hierarchy import bs2_not_critical_witness, search_gaps
from obcd_lite.teaching.paper_theory_run import gamma_check, lemma44_check

PAPER_A = np.array([[1.0, 0.0], [-1.0, -1.0]])  # Remark 2.5: the minimizer over O(2) is a reflection


def pca(n=3, seed=0):
    C = randn_covariance(8, n, rng=seed)
    _, U = np.linalg.eigh(C)
    return sparse_pca(C), U[:, ::-1]


def test_certified_global_optimum():
    problem, U = pca()
    c = classify(problem, U[:, :1], ks=(2, 3))
    assert c.levels == {"critical": True, "BS2": True, "BS3": True, "global": True}
    assert c.strongest == "global" and c.nested and c.global_min.certified
    assert "strongest level: global" in c.summary()


def test_saddle_is_critical_only():
    problem, U = pca()
    c = classify(problem, U[:, 1:2], Q="exact")
    assert c.critical and not c.bs[2] and c.is_global is False
    assert c.strongest == "critical" and c.nested
    assert c.blocks[2].largest_gap > 1e-3


def test_fixed_by_rotations_not_by_reflections():
    """The best rotation for ||V - A||^2 (n = r = 2) is critical and no rotation improves it, but a
    reflection does: not BS_2 (with rot and ref), and the block minimizer has det = -1."""
    problem = procrustes(PAPER_A)
    best_rotation = min((p for p in critical_points_2x2(PAPER_A) if p.branch == "rot"), key=lambda p: p.value)
    X = best_rotation.V
    c = classify(problem, X, Q="exact")
    assert c.critical and not c.bs[2] and c.is_global is False
    assert np.linalg.det(c.blocks[2].minimizers[(0, 1)]) == pytest.approx(-1.0)
    Qt, P, Z = block_data(problem, X, problem.grad(X), [0, 1], 1e-5, "exact")
    rotations_only = solve_2x2_full(Qt, P, Z, problem.h, branches="rot")
    assert majorizer_value(Qt, P, np.eye(2), Z, problem.h) - rotations_only.value < 1e-12


@pytest.mark.parametrize("penalty", ["l1", "l0"])
def test_bs2_point_that_is_not_critical(penalty):
    """Theorem 3.8(a) fails: every 2-row block has V = I as a global minimizer of K (brute force over
    O(2), independent of the breakpoint search) and dist(0, d_M F(X)) > 0 (least squares)."""
    w = bs2_not_critical_witness(penalty)
    assert w.X.shape == (3, 2) and np.allclose(w.X.T @ w.X, np.eye(2), atol=1e-14)
    assert max(w.brute.values()) < 1e-12
    assert w.residual > 0.1
    # each pair alone can be made stationary; the shared free entry (row 3, column 2) needs two values
    assert all(lo <= 1e-10 and hi >= -1e-10 for lo, hi in w.pair_ranges.values())
    need = [values[(2, 1)] for values in w.pair_values.values() if (2, 1) in values]
    assert len(need) == 2 and abs(need[0] - need[1]) > 0.3
    c = classify(w.problem, w.X, global_search=False)
    assert c.bs[2] and not c.critical and not c.nested and c.strongest == "BS2"
    assert not lemma44_check(w.problem, w.X)["holds"]  # Lemma 4.4(b) fails at the same point


@pytest.mark.parametrize("penalty", ["zero", "nonneg"])
def test_bs2_implies_critical_on_every_limit_searched(penalty):
    found = search_gaps(penalty, 6, rng=1)
    assert found["bs2"] >= 3
    assert found["bs2_not_critical"] == []


def test_gamma_counts_the_blocks_through_a_pair():
    for n, k in [(5, 2), (6, 3), (7, 4)]:
        g = gamma_check(n, k)
        assert g["gamma"] == g["closed_form"]
        assert g["gamma_times_mean"] == pytest.approx(g["norm_sq"], rel=1e-12)


def test_lemma_4_4_b_for_h0_is_an_inequality_equal_when_r_is_n():
    """Issue 27: for h = 0, Lemma 4.4(b) reads ||G - X G^T X||^2 <= ||G X^T - X G^T||^2 (gamma times the block mean):
    strict for r < n at random points (the normal part of G counts twice on the right), equal for r = n.
    Procrustes (a linear f: not constant on O(n), unlike PCA), four random points each."""
    for n, r in [(4, 1), (5, 2), (6, 3), (4, 4), (5, 5)]:
        problem = procrustes(np.random.default_rng(n + r).standard_normal((n, r)))
        for seed in range(4):
            check = lemma44_check(problem, random_stiefel(n, r, rng=seed))
            assert check["holds"] and check["rhs"] > 0.1
            if r < n:
                assert check["lhs"] < (1 - 1e-3) * check["rhs"]
            else:
                assert check["lhs"] == pytest.approx(check["rhs"], rel=1e-10, abs=0)


def test_sampled_classification_for_large_n():
    C = randn_covariance(40, 20, rng=0)
    problem = sparse_pca(C)
    _, U = np.linalg.eigh(C)
    c = classify(problem, U[:, -2:], sample=30, rng=0, Q="exact")
    assert c.global_min is None and c.is_global is None
    assert c.blocks[2].sampled and len(c.blocks[2].gaps) == 30 and c.bs[2]


def test_bad_input():
    problem, U = pca()
    with pytest.raises(ValueError, match="X is not on the Stiefel manifold"):
        classify(problem, 2 * U[:, :1])
    with pytest.raises(ValueError, match=r"ks must hold integers k with 2 <= k <= n = 3, got k = 4 in ks = \(2, 4\)"):
        classify(problem, U[:, :1], ks=(2, 4))
    with pytest.raises(ValueError, match="X has 2 rows but C is 3 x 3"):
        classify(problem, np.eye(2, 1))
    with pytest.raises(ValueError, match=r"k = 3 with Q = 'exact' needs r >= 2"):
        classify(problem, U[:, :1], Q="exact", ks=(2, 3))
    with pytest.raises(ValueError, match=r"k = 3 > 2 needs h = Zero\(\) and a scalar Q"):
        classify(sparse_pca(problem.C, L1(0.1)), U[:, :2], Q="exact", ks=(2, 3), global_search=False)
    with pytest.raises(ValueError, match="k must be an integer"):
        block_report(problem, U[:, :1], True)


def test_zero_tol_counts_rounding_zeros_as_zeros():
    """An l1 limit with exact zeros is critical. Blurred by 1e-17 it stays critical under the package's
    rounding rule (the default); judged on exact zeros only (zero_tol=0) it is not (dh is an interval
    only at an exact zero); a coarser zero_tol snaps it back too."""
    problem = sparse_pca(randn_covariance(8, 3, rng=4), L1(0.3))
    X = obcd(problem, random_stiefel(3, 1, rng=0), working_set="cyclic", max_iter=300).X
    assert np.any(X == 0) and classify(problem, X, global_search=False).critical
    Y = np.where(X == 0, 1e-17, X)
    assert classify(problem, Y, global_search=False).critical
    assert not classify(problem, Y, global_search=False, zero_tol=0).critical
    assert classify(problem, Y, global_search=False, zero_tol=1e-12).critical


def test_not_global_when_a_better_point_is_known():
    smooth, U = pca()
    problem = sparse_pca(smooth.C / -2, L1(0.05))  # l1: the search certifies to its tol, not to rounding
    best = classify(problem, U[:, :1]).global_min
    # a point within the certified gap of the minimum, but above the best value found: not global
    theta = 1e-2
    X = np.cos(theta) * best.X + np.sin(theta) * np.cross(best.X[:, 0], U[:, 1])[:, None] / np.linalg.norm(
        np.cross(best.X[:, 0], U[:, 1]))
    c = classify(problem, X, global_min=best, Q="exact")
    assert 0 < problem.F(X) - best.value < best.gap and c.is_global is False


def test_within_the_gap_but_not_critical_is_eps_global_only():
    """Issue 27: F(X) within the certified gap does not make X global; a global minimizer is critical and
    BS_2 (Theorem 3.8(b)). The l1 minimizers here have zero entries; moving them by 1e-7 .. 3e-7 in random
    directions keeps F within the gap but makes them non-critical: eps-global, never global, still nested."""
    rng = np.random.default_rng(0)
    seen = 0
    for seed in (1, 5):
        problem = procrustes(np.random.default_rng(seed).standard_normal((3, 2)), L1(1.0))
        best = global_minimum(problem, r=2, rng=0)
        exact = classify(problem, best.X, global_min=best)
        assert exact.is_global and not exact.eps_global and exact.critical and exact.strongest == "global"
        assert np.any(best.X == 0)
        for theta in (1e-7, 3e-7):
            for _ in range(3):
                W = rng.standard_normal((3, 3))
                c = classify(problem, expm(theta * (W - W.T) / np.linalg.norm(W - W.T)) @ best.X, global_min=best)
                assert c.within_gap and not c.critical and not c.bs[2]
                assert c.eps_global and c.is_global is False and c.nested and c.strongest == "none"
                assert "eps-global" in c.summary()
                seen += 1
    assert seen == 12


def _scaled(problem, s):
    """s F: C, L, const and the penalty's lam times s."""
    h = type(problem.h)(s * problem.h.lam) if hasattr(problem.h, "lam") else problem.h
    return QuadraticProblem(s * problem.C, L=None if problem.L is None else s * problem.L, h=h, const=s * problem.const)


@pytest.mark.parametrize("penalty", ["zero", "l1", "procrustes"])
def test_verdicts_are_scale_invariant(penalty):
    """Issue 34: every tolerance is relative to the problem's scale, so s F gets the verdicts of F for s from
    1e-20 to 1e20 (an absolute gap_tol made every point of 1e-20 C "global"), at a random point, a saddle,
    an OBCD limit and the certified global minimizer; the absolute tolerances used scale with s."""
    if penalty == "procrustes":
        problem = procrustes(np.random.default_rng(3).standard_normal((3, 2)), L1(0.2))
    else:
        problem = sparse_pca(randn_covariance(8, 3, rng=1), L1(0.05) if penalty == "l1" else None)
    n, r = 3, 2 if penalty == "procrustes" else 1
    best = global_minimum(problem, r=r, rng=0)
    _, U = np.linalg.eigh(problem.C)
    points = {"random": random_stiefel(n, r, rng=0), "saddle": U[:, 1:1 + r],
              "limit": obcd(problem, random_stiefel(n, r, rng=1), max_iter=300).X, "global": best.X}
    seen = set()
    for name, X in points.items():
        reference = classify(problem, X)
        seen.update(reference.levels.values())
        for s in (1e-20, 1e-10, 1e10, 1e20):
            c = classify(_scaled(problem, s), X)
            assert c.levels == reference.levels, (name, s)
            assert c.tolerances["gap"] == pytest.approx(s * reference.tolerances["gap"], rel=1e-9)
            assert c.tolerances["alpha"] == pytest.approx(s * reference.tolerances["alpha"], rel=1e-9)
    assert {True, False} <= seen  # the instances are not all trivially one verdict
    assert classify(problem, best.X).is_global


def test_the_tolerances_are_stated():
    problem, U = pca()
    c = classify(problem, U[:, :1])
    t = c.tolerances
    assert set(t) == {"scale", "critical", "block", "value", "gap", "alpha"}
    G = problem.grad(U[:, :1])
    assert t["scale"] == pytest.approx(np.abs(np.linalg.eigvalsh(problem.C)).max())  # L_f = ||C||_2
    assert t["gap"] == pytest.approx(1e-3 * t["scale"])
    assert t["critical"] == pytest.approx(1e-6 * (t["scale"] + np.linalg.norm(G)))
    assert "tolerances (relative to the scale S" in c.summary() and "tolerances=" in repr(c)
    assert c.blocks[2].tol == pytest.approx(t["block"])


def test_default_tests_k2_only_and_stays_within_the_budget_at_n30():
    """Issue 36: the default tested every k = 2..n for h = 0 (2^n blocks: 11 min and growing memory at n = 30).
    Now ks = (2,): C(30, 2) = 435 blocks; the whole chain is refused before any work, naming the count and the
    cost, unless sampled."""
    C = randn_covariance(60, 30, rng=0)
    problem = sparse_pca(C)
    X = random_stiefel(30, 2, rng=0)
    c = classify(problem, X)
    assert list(c.blocks) == [2] and c.blocks_examined == 435 and c.global_min is None
    with pytest.raises(BlockBudgetError, match=r"testing 1,073,741,793 blocks .* over the budget max_cost = 100,000") as err:
        classify(problem, X, ks=range(2, 31))
    assert err.value.count == 2**30 - 31 and err.value.cost > BLOCK_BUDGET and isinstance(err.value, ValueError)
    sampled = classify(problem, X, ks=range(2, 31), sample=3, rng=0)
    # 3 blocks per k, except C(30, 30) = 1
    assert sampled.blocks_examined == 28 * 3 + 1 and all(rep.sampled for k, rep in sampled.blocks.items() if 2 < k < 30)
    with pytest.raises(BlockBudgetError, match="k = 15: 155,117,520 blocks"):
        block_report(problem, X, 15, Q="scalar")
    assert block_cost(30, 2) == (435, 435) and block_cost(5, 3, "exact") == (10, 25_000)
    with pytest.raises(BlockBudgetError, match="over the budget max_cost = 400"):
        classify(problem, X, max_cost=400)


@pytest.mark.parametrize("ks, error, message", [
    ((True,), ValueError, r"got k = True in ks = \(True,\)"),
    ((2, 2.0), ValueError, r"got k = 2.0"),
    (2, TypeError, r"ks must be a sequence of block sizes .* got ks = 2"),
    ("23", TypeError, r"got ks = '23'"),
    ((), ValueError, r"at least one block size"),
    ((2, 2), ValueError, r"must not repeat a block size, got ks = \(2, 2\)"),
    ((1,), ValueError, r"got k = 1"),
])
def test_ks_is_validated(ks, error, message):
    problem, U = pca()
    with pytest.raises(error, match=message):
        classify(problem, U[:, :1], ks=ks, global_search=False)


@pytest.mark.parametrize("max_cost, error", [(0, ValueError), (-1, ValueError), (1.5, ValueError), (True, ValueError),
                                             ("many", TypeError)])
def test_max_cost_is_validated(max_cost, error):
    problem, U = pca()
    with pytest.raises(error, match=f"max_cost must be a positive integer, got max_cost = {max_cost!r}"):
        classify(problem, U[:, :1], max_cost=max_cost, global_search=False)
