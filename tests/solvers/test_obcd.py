"""OBCD (Algorithm 1): sufficient decrease, feasibility, eigenvalue optimum, bookkeeping."""
from math import comb

import numpy as np
import pytest

from obcd_lite import (L0, L1, QuadraticProblem, count_nonzeros, feasibility, identity_init,
                       nonneg_pca, obcd, procrustes, random_stiefel, sparse_pca, working_sets)


def covariance(n, m=None, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((m or 2 * n, n))
    return A.T @ A / np.linalg.norm(A) ** 2


@pytest.mark.parametrize("Q", ["exact", "scalar"])
@pytest.mark.parametrize("rule", ["random", "cyclic"])
def test_sufficient_decrease_every_step(penalty_problem, Q, rule):
    """Theorem 4.2(a): F(X^t) - F(X^{t+1}) >= alpha/2 ||V - I||_F^2 >= alpha/2 ||X^{t+1} - X^t||_F^2."""
    C = covariance(8)
    problem = penalty_problem(C)
    alpha = 1e-2
    steps = []
    prev = {"X": identity_init(8, 3)}

    def check(step):
        gap = step.F_before - step.F_after
        move = np.linalg.norm(step.V - np.eye(2)) ** 2
        assert gap >= alpha / 2 * move - 1e-12 * (1 + abs(step.F_before))
        assert alpha / 2 * np.linalg.norm(step.X - prev["X"]) ** 2 <= alpha / 2 * move + 1e-12
        prev["X"] = step.X.copy()
        steps.append(gap)

    res = obcd(problem, identity_init(8, 3), alpha=alpha, Q=Q, working_set=rule, max_iter=600, rng=1,
               callback=check)
    assert len(steps) == 600
    assert res.F == pytest.approx(res.history["F"][-1], rel=1e-10, abs=1e-12)  # tracked F is exact
    assert res.F < problem.F(identity_init(8, 3))


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("start", ["identity", "random"])
def test_reaches_the_eigenvalue_optimum(k, start):
    """h = 0, f = -tr(X^T C X): the optimum is minus the sum of the r largest eigenvalues."""
    n, r = 12, 3
    C = covariance(n, seed=3)
    best = -np.sort(np.linalg.eigvalsh(C))[::-1][:r].sum()
    X0 = identity_init(n, r) if start == "identity" else random_stiefel(n, r, rng=7)
    res = obcd(sparse_pca(C), X0, k=k, Q="scalar" if k > 2 else "exact", max_iter=30_000, rng=0)
    assert abs(res.F - best) <= 1e-8 * abs(best)


def test_feasibility_after_1e5_steps():
    C = covariance(30, seed=5)
    res = obcd(sparse_pca(C, L1(0.01)), random_stiefel(30, 5, rng=1), max_iter=100_000, rng=2, log_every=10_000)
    assert res.iterations == 100_000
    assert feasibility(res.X) <= 1e-10
    assert np.all(res.history["feasibility"] <= 1e-10)


def test_gradient_and_F_tracking_match_recomputation():
    """The incremental gradient feeds the tracked F; both must equal recomputation at every step."""
    rng = np.random.default_rng(0)
    n, r = 9, 4
    M = rng.standard_normal((n, n))
    D = rng.standard_normal((r, r))
    problem = QuadraticProblem(M + M.T, D=D + D.T, L=rng.standard_normal((n, r)), h=L1(0.1), const=2.0)

    def check(step):
        assert step.F_after == pytest.approx(problem.F(step.X), rel=1e-10, abs=1e-10)

    for Q in ("exact", "scalar"):
        res = obcd(problem, random_stiefel(n, r, rng=1), Q=Q, max_iter=500, rng=0, log_every=50, callback=check)
        assert res.F == pytest.approx(res.history["F"][-1], rel=1e-10)
        assert np.all(np.diff(res.history["F"]) <= 1e-12)


def test_exact_Q_is_the_curvature_and_scalar_Q_bounds_it():
    """Lemma 2.2(a) with eq. (9): f(X+) - f(X) - <X+ - X, grad> = 1/2 vec(V-I)^T Q vec(V-I)."""
    rng = np.random.default_rng(1)
    n, r = 7, 3
    M, D = rng.standard_normal((n, n)), rng.standard_normal((r, r))
    problem = QuadraticProblem(M + M.T, D=D + D.T)
    X = random_stiefel(n, r, rng=2)
    for B in ([0, 1], [2, 5], [1, 3, 6]):
        k = len(B)
        V = np.linalg.qr(rng.standard_normal((k, k)))[0]
        Xp = X.copy()
        Xp[B] = V @ X[B]
        lhs = problem.f(Xp) - problem.f(X) - np.vdot(Xp - X, problem.grad(X))
        Q = problem.exact_Q(B, X[B])
        v = (V - np.eye(k)).T.reshape(-1)
        assert lhs == pytest.approx(0.5 * v @ Q @ v, rel=1e-10, abs=1e-12)
        assert problem.scalar_Q(B, X[B]) >= np.linalg.norm(Q, 2) - 1e-12


def test_random_working_sets_are_uniform_and_cyclic_sweeps_all():
    from scipy.stats import chisquare

    n, k, draws = 6, 2, 30_000
    gen = working_sets(n, k, "random", np.random.default_rng(0))
    counts = {}
    for _ in range(draws):
        B = tuple(next(gen))
        assert len(set(B)) == k and list(B) == sorted(B)
        counts[B] = counts.get(B, 0) + 1
    assert len(counts) == comb(n, k)
    assert chisquare(list(counts.values())).pvalue > 1e-4
    gen = working_sets(5, 3, "cyclic")
    first = [tuple(next(gen)) for _ in range(2 * comb(5, 3))]
    assert len(set(first)) == comb(5, 3) and first[:10] == first[10:]


def test_l0_zeros_are_exact_and_nonneg_stays_feasible():
    C = covariance(10, seed=2)
    res = obcd(sparse_pca(C, L0(0.02)), identity_init(10, 3), max_iter=3000, rng=0)
    assert count_nonzeros(res.X, tol=0.0) == count_nonzeros(res.X, tol=1e-12) < res.X.size
    res = obcd(nonneg_pca(C), identity_init(10, 3), max_iter=3000, rng=0)
    assert np.all(res.X >= 0.0) and np.isfinite(res.F)


def test_same_seed_same_run():
    C = covariance(10, seed=4)
    a = obcd(sparse_pca(C, L1(0.05)), identity_init(10, 2), max_iter=500, rng=9)
    b = obcd(sparse_pca(C, L1(0.05)), identity_init(10, 2), max_iter=500, rng=9)
    assert np.array_equal(a.X, b.X)


def test_stops_on_time_limit_and_callback():
    C = covariance(10)
    res = obcd(sparse_pca(C), identity_init(10, 2), max_iter=10**9, time_limit=0.05)
    assert res.stop_reason == "time_limit" and res.iterations > 0  # the clock's reads: test_budgets.py
    res = obcd(sparse_pca(C), identity_init(10, 2), max_iter=100, callback=lambda s: s.iteration == 7)
    assert res.stop_reason == "callback" and res.iterations == 7


def test_rotations_only_cannot_flip_the_determinant():
    T = np.array([[1.0, 0.0], [0.0, -1.0]])  # det -1, distance 0 needs a reflection
    both = obcd(procrustes(T), np.eye(2), max_iter=5, rng=0)
    rot_only = obcd(procrustes(T), np.eye(2), max_iter=50, rng=0, branches="rot")
    assert both.F <= 1e-10
    assert rot_only.F >= 4.0 - 1e-12  # min over SO(2) of ||V - T||^2 is 4


C5 = covariance(5)


@pytest.mark.parametrize("kwargs, match", [
    (dict(X0=np.ones((5, 2))), r"X0 is not on the Stiefel manifold: \|\|X0\^T X0 - I\|\|_F = 9\.055e\+00"),
    (dict(X0=np.eye(4, 2)), "obcd: X0 has 4 rows but the problem has n = 5"),
    (dict(X0=np.full((5, 2), np.nan)), "X0 has a non-finite entry nan"),
    (dict(k=1), "k must be an integer with 2 <= k <= n = 5, got k = 1"),
    (dict(k=6), "got k = 6"),
    (dict(alpha=-1.0), "alpha must be finite and > 0, got alpha = -1.0"),
    (dict(working_set="greedy"), "working_set must be 'random' or 'cyclic', got 'greedy'"),
    (dict(Q="diag"), "Q must be 'exact', 'scalar' or 'lipschitz', got 'diag'"),
    (dict(k=3, problem=sparse_pca(C5, L1(1.0)), Q="scalar"), r"k = 3 > 2 needs h = Zero\(\)"),
    (dict(k=3, Q="exact"), "k = 3 > 2 needs Q = 'scalar'"),
    (dict(problem=nonneg_pca(C5), X0=-np.eye(5, 2)), "X0 is infeasible for h = NonNeg"),
    (dict(branches="both-ish"), "branches must be"),
])
def test_bad_input(kwargs, match):
    args = dict(problem=sparse_pca(C5), X0=np.eye(5, 2)) | kwargs
    problem, X0 = args.pop("problem"), args.pop("X0")
    with pytest.raises(ValueError, match=match):
        obcd(problem, X0, **args)


@pytest.mark.parametrize("make, match", [
    (lambda: sparse_pca(np.triu(np.ones((3, 3)))), r"C must be symmetric, got \|\|C - C\^T\|\|_F = 2\.449"),
    (lambda: sparse_pca(np.ones((3, 2))), r"C must be square, got shape \(3, 2\)"),
    (lambda: sparse_pca(np.array([[1.0, np.inf], [np.inf, 1.0]])), "C has a non-finite entry inf"),
    (lambda: random_stiefel(3, 4), "r = 4 > n = 3"),
    (lambda: identity_init(2, 0), "r must be a positive integer, got r = 0"),
])
def test_bad_problem_input(make, match):
    with pytest.raises(ValueError, match=match):
        make()


@pytest.mark.parametrize("call, match", [
    (lambda: working_sets(5, 2, "cyclc"), "rule must be 'random' or 'cyclic', got 'cyclc'"),
    (lambda: working_sets(3, 5, "random"), "need integers 1 <= k <= n, got n = 3, k = 5"),
    (lambda: obcd(sparse_pca(C5), np.eye(5, 2), max_iter=-1), "max_iter must be a non-negative integer, got -1"),
    (lambda: QuadraticProblem(np.eye(3), const=float("nan")), "const must be finite, got const = nan"),
    (lambda: __import__("obcd_lite").randn_covariance(0, 5), "m must be a positive integer, got m = 0"),
    (lambda: __import__("obcd_lite").angle_of(np.ones((2, 2))), r"V is not on the Stiefel manifold"),
    (lambda: __import__("obcd_lite").brute_force_2x2(np.triu(np.ones((4, 4))), np.eye(2), np.eye(2)),
     "Qt must be symmetric"),
])
def test_more_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_bool_is_not_a_weight():
    with pytest.raises(TypeError, match="lam must be a real number, got the bool True"):
        L1(True)


def test_default_Q_follows_k():
    """Q = None means "exact" for k = 2 and "scalar" for k > 2 (k = 3 used to raise by default)."""
    res = obcd(sparse_pca(C5), np.eye(5, 2), k=3, max_iter=50, rng=0)
    assert res.F <= sparse_pca(C5).F(np.eye(5, 2))
    assert res.solver == "obcd"


def test_callback_sees_a_read_only_view():
    """Writing into Step.X must fail instead of corrupting the tracked gradient and F."""
    def poke(step):
        step.X[0, 0] = 1.0

    with pytest.raises(ValueError, match="read-only"):
        obcd(sparse_pca(C5), np.eye(5, 2), max_iter=3, rng=0, callback=poke)


def test_default_alpha_is_relative_to_the_scale_for_every_penalty():
    """Issues 27 and 34: alpha = None is 1e-5 L_f (L_f = ||C||_2 ||D||_2, the problem's scale) for every h, so the
    proximal term scales with the data; an explicit alpha wins."""
    from obcd_lite import L0, L1, nonneg_pca, randn_covariance, sparse_pca
    from obcd_lite.solvers.obcd import default_alpha

    C = randn_covariance(30, 40, rng=0)
    X0 = np.eye(40)[:, :3]
    L = float(np.linalg.eigvalsh(C).max())
    for h in (None, L1(1e-3), L0(1e-4)):
        problem = sparse_pca(C, h)  # -tr(X^T C X): L_f = 2 lambda_max(C)
        assert default_alpha(problem) == pytest.approx(2e-5 * L, rel=1e-10)
        a = obcd(problem, X0, max_iter=300, rng=0)
        b = obcd(problem, X0, max_iter=300, rng=0, alpha=problem.lipschitz() * 1e-5)
        assert np.array_equal(a.X, b.X) and a.F == b.F
    problem = nonneg_pca(C)
    assert default_alpha(problem) == pytest.approx(1e-5 * L, rel=1e-10) and default_alpha(nonneg_pca(7.0 * C)) == \
        pytest.approx(7e-5 * L, rel=1e-10)
    a = obcd(problem, X0, max_iter=300, rng=0)
    b = obcd(problem, X0, max_iter=300, rng=0, alpha=1e-5 * L)
    assert np.allclose(a.X, b.X, atol=1e-12)
    # scale invariance: the iterates for C and 7 C coincide with the default (the ratio alpha / ||C|| is fixed)
    c = obcd(nonneg_pca(7.0 * C), X0, max_iter=300, rng=0)
    assert np.allclose(a.X, c.X, atol=1e-9)
