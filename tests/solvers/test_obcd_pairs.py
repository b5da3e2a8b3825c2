"""OBCD with many disjoint pairs per gradient (working_set = "matching", solvers/obcd_pairs.py)."""
import numpy as np
import pytest

from obcd_lite import L0, L1, SmoothProblem, Zero, obcd, random_stiefel
from obcd_lite.optimality import classify
from obcd_lite.problems import randn_covariance, sparse_pca
from obcd_lite.solvers import obcd_pairs
from obcd_lite.solvers.obcd_pairs import matching
from obcd_lite.teaching.your_problem import orthogonal_classifier, quartic_energy

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


def brockett_quartic(n=11, r=3, rng=0):
    """f(X) = tr(X^T A X N) + 1/4 sum X_ij^4 (Brockett's cost plus a quartic), as callables."""
    g = np.random.default_rng(rng)
    A = g.standard_normal((n, n))
    A = A + A.T
    N = np.diag(np.arange(1.0, r + 1))
    problem = SmoothProblem(lambda X: float(np.sum(X * (A @ X @ N))) + 0.25 * float(np.sum(X ** 4)),
                            lambda X: 2 * A @ X @ N + X ** 3, shape=(n, r))
    return problem, random_stiefel(n, r, rng=g)


def problems(h):
    quartic = quartic_energy(n=9, r=2, rng=1)
    classifier = orthogonal_classifier(m=60, features=6, rng=0)
    brockett, X0 = brockett_quartic()
    return {"quartic": (quartic.smooth(h), quartic.X0), "classifier": (classifier.smooth(h), classifier.X0),
            "brockett_quartic": (SmoothProblem(brockett.f, brockett.grad, h=h, shape=X0.shape), X0)}


def run_watched(problem, X0, **kwargs):
    seen = []
    run = obcd(problem, X0, working_set="matching", callback=lambda s: seen.append((s.F_before, s.F)), **kwargs)
    return run, seen


@pytest.mark.parametrize("h", [Zero(), L1(0.05), L0(0.01)], ids=repr)
@pytest.mark.parametrize("name", ["quartic", "classifier", "brockett_quartic"])
def test_the_many_pairs_step_never_raises_F(name, h):
    problem, X0 = problems(h)[name]
    run, seen = run_watched(problem, X0, rng=0, max_iter=150)
    assert run.iterations == len(seen) == 150
    assert all(after <= before for before, after in seen)
    assert abs(problem.F(run.X) - seen[-1][1]) <= 1e-12 * (1 + abs(run.F))
    assert run.F < problem.F(X0)
    assert run.info["working_set"] == "matching" and run.info["pairs_per_iteration"] == X0.shape[0] // 2
    np.testing.assert_allclose(run.X.T @ run.X, np.eye(X0.shape[1]), atol=1e-12)


def test_one_iteration_is_one_matching_with_one_gradient():
    problem, X0 = problems(Zero())["brockett_quartic"]
    calls = {"grad": 0}

    def grad(X):
        calls["grad"] += 1
        return problem.grad(X)

    counted = SmoothProblem(problem.f, grad, shape=X0.shape)
    counted.lipschitz()  # the estimate's own gradients are not the run's
    calls["grad"] = 0
    pairs = []
    run = obcd(counted, X0, working_set="matching", rng=3, max_iter=40, log_every=10,
               callback=lambda s: pairs.append(s.B))
    assert list(run.history["iteration"]) == [0, 10, 20, 30, 40]
    assert calls["grad"] <= 40 + 3  # check_point's, the start's, one per accepted matching, Result.stationarity's
    for B in pairs:  # disjoint sorted pairs; n = 11 is odd: one row sits out
        assert B.shape == (5, 2) and np.all(B[:, 0] < B[:, 1]) and len(np.unique(B)) == 10


def test_matching_is_a_uniform_perfect_matching_drawn_with_rng():
    a = matching(10, np.random.default_rng(5))
    b = matching(10, np.random.default_rng(5))
    np.testing.assert_array_equal(a, b)
    assert sorted(a.ravel()) == list(range(10))
    left_out = {int(np.setdiff1d(np.arange(7), matching(7, np.random.default_rng(s)))[0]) for s in range(60)}
    assert left_out == set(range(7))  # every row of an odd n is sometimes the one left out


@pytest.mark.parametrize("h", [Zero(), L1(0.02)], ids=repr)
def test_fixed_points_pass_the_BS2_test(h):
    """Run to a fixed point; it is BS_2 for Q = varsigma I at the run's final varsigma (the start is not)."""
    inst = quartic_energy(n=6, r=2, rng=2)
    problem = inst.smooth(h, bound=False)
    run = obcd(problem, inst.X0, working_set="matching", rng=0, max_iter=4000)
    at = SmoothProblem(problem.f, problem.grad, h=h, L=run.info["varsigma"], shape=inst.X0.shape)
    end = classify(at, run.X, alpha=1e-5, Q="scalar", ks=(2,), global_search=False)
    start = classify(at, inst.X0, alpha=1e-5, Q="scalar", ks=(2,), global_search=False)
    assert end.bs[2] and not start.bs[2]


@pytest.mark.parametrize("h", [Zero(), L1(0.03)], ids=repr)
def test_with_two_rows_matching_reproduces_the_one_pair_iterates(h, monkeypatch):
    """n = 2: one pair per matching; with the shrink switched off and the same start varsigma, the
    iterates are those of the paper's one-pair OBCD (to rounding: M is summed in another order)."""
    inst = quartic_energy(n=2, r=2, rng=0)
    X0 = random_stiefel(2, 2, rng=4)
    monkeypatch.setattr(obcd_pairs, "SHRINK", 1.0)
    sigma = 0.05  # below the curvature: both runs double varsigma on their failed checks
    one = obcd(inst.smooth(h), X0, rng=0, max_iter=60, log_every=1, sigma0=sigma, Q="scalar")
    many = obcd(inst.smooth(h), X0, rng=0, max_iter=60, log_every=1, sigma0=sigma, working_set="matching")
    assert many.info["redos"] == one.info["redos"] >= 1
    np.testing.assert_allclose(many.history["F"], one.history["F"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(many.X, one.X, rtol=0, atol=1e-10)


def test_a_wrong_gradient_is_caught():
    """By the problem's own check at X0, and, with that check off, by the run's majorization checks."""
    problem, X0 = problems(Zero())["brockett_quartic"]
    wrong = SmoothProblem(problem.f, lambda X: -problem.grad(X), shape=X0.shape)
    with pytest.raises(ValueError, match="wrong sign"):
        obcd(wrong, X0, working_set="matching", rng=0, max_iter=20)
    unchecked = SmoothProblem(problem.f, lambda X: -problem.grad(X), shape=X0.shape, check_derivatives=False)
    with pytest.raises(ValueError, match="gradient of f"):
        obcd(unchecked, X0, working_set="matching", rng=0, max_iter=20)


def test_a_wrong_lipschitz_bound_is_caught():
    inst = quartic_energy(n=9, r=2, rng=3)
    too_small = SmoothProblem(inst.smooth().f, inst.smooth().grad, L=inst.L / 1000, shape=inst.X0.shape)
    with pytest.raises(ValueError, match="not a Lipschitz constant"):
        obcd(too_small, inst.X0, working_set="matching", rng=0, max_iter=50)
    # the proven bound itself is never contradicted
    run = obcd(inst.smooth(), inst.X0, working_set="matching", rng=0, max_iter=300)
    assert run.info["varsigma_proven"] < inst.L


@pytest.mark.parametrize("working_set", ["random", "matching"])
def test_sigma0_is_a_guess_never_stored_as_L(working_set):
    inst = quartic_energy(n=9, r=2, rng=0)
    problem = inst.smooth(bound=False)
    estimate = problem.lipschitz()
    run = obcd(problem, inst.X0, working_set=working_set, rng=0, max_iter=200, sigma0=1000 * estimate)
    assert run.info["varsigma_start"] == 1000 * estimate
    assert not problem.lipschitz_is_bound
    assert problem.lipschitz() == max(estimate, run.info["varsigma_proven"]) < 1000 * estimate
    low = obcd(problem, inst.X0, working_set=working_set, rng=0, max_iter=200, sigma0=estimate / 1000)
    assert 0 < low.info["varsigma_proven"] and problem.lipschitz() >= low.info["varsigma_proven"]
    bounded = inst.smooth()
    obcd(bounded, inst.X0, working_set=working_set, rng=0, max_iter=50, sigma0=estimate / 1000)
    assert bounded.lipschitz() == inst.L and bounded.lipschitz_is_bound


def test_varsigma_adapts_both_ways():
    inst = quartic_energy(n=20, r=3, rng=0)
    problem = inst.smooth()
    run = obcd(problem, inst.X0, working_set="matching", rng=0, max_iter=200)
    assert run.info["varsigma_start"] == inst.L
    assert run.info["redos"] >= 1 and run.info["varsigma"] < inst.L  # shrank below the start, then grew back


def test_varsigma_stays_above_its_floor_where_the_pairs_curvature_is_negative():
    """f = -tr(X^T A X), A indefinite: many checks hold at any varsigma; it shrinks to its floor, not to 0, and a
    later failed check is not mistaken for a wrong gradient."""
    g = np.random.default_rng(0)
    A = g.standard_normal((30, 30))
    A = A + A.T
    problem = SmoothProblem(lambda X: -float(np.sum(X * (A @ X))), lambda X: -2 * A @ X, shape=(30, 3))
    seen = []
    run = obcd(problem, random_stiefel(30, 3, rng=g), working_set="matching", rng=0, max_iter=1500,
               callback=lambda s: seen.append(s.info["varsigma"]))
    floor = obcd_pairs.VARSIGMA_FLOOR * problem.lipschitz()
    assert min(seen) >= floor * (1 - 1e-12) and seen.count(min(seen)) > 100, (min(seen) / floor, seen[-5:])
    assert run.iterations == 1500 and run.F <= -np.sort(np.linalg.eigvalsh(A))[-3:].sum() * (1 - 1e-9)


def test_a_quadratic_problem_runs_matching():
    problem = sparse_pca(randn_covariance(30, 12, rng=0), L1(0.03))
    X0 = random_stiefel(12, 3, rng=1)
    run, seen = run_watched(problem, X0, rng=2, max_iter=100)
    assert all(after <= before for before, after in seen)
    assert run.iterations == 100 and run.F < problem.F(X0)
    again = obcd(problem, X0, working_set="matching", rng=2, max_iter=100)
    np.testing.assert_array_equal(run.X, again.X)  # the same rng, the same iterates


def test_bad_arguments_are_named():
    inst = quartic_energy(n=9, r=2, rng=0)
    problem = inst.smooth()
    with pytest.raises(ValueError, match="'random' or 'cyclic', got 'pairs' \\(or 'matching'"):
        obcd(problem, inst.X0, working_set="pairs")
    with pytest.raises(ValueError, match="k = 3"):
        obcd(problem, inst.X0, working_set="matching", k=3)
    with pytest.raises(ValueError, match="got Q = 'lipschitz'"):
        obcd(problem, inst.X0, working_set="matching", Q="lipschitz")
    plain = SmoothProblem(problem.f, problem.grad, shape=inst.X0.shape)
    with pytest.raises(ValueError, match="got Q = 'exact' on a SmoothProblem without hessvec"):
        obcd(plain, inst.X0, working_set="matching", Q="exact")
    with pytest.raises(ValueError, match="engine = 'compiled'"):
        obcd(problem, inst.X0, working_set="matching", engine="compiled")
    with pytest.raises(ValueError, match="branches"):
        obcd(problem, inst.X0, working_set="matching", branches="up")
    for bad in (0.0, -1.0, np.nan):
        with pytest.raises(ValueError, match="sigma0"):
            obcd(problem, inst.X0, working_set="matching", sigma0=bad)
    with pytest.raises(ValueError, match="sigma0 = 2.0 applies"):
        obcd(sparse_pca(randn_covariance(30, 12, rng=0)), random_stiefel(12, 3, rng=1), sigma0=2.0)
