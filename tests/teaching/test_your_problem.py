"""Notebook 08's compute: the three problems' gradients and Lipschitz bounds, the comparisons, the exercise checks."""
import numpy as np
import pytest

from obcd_lite.stiefel import polar, random_stiefel
from obcd_lite.teaching.exercises import NotSolvedYet, check, density_gradient, density_lipschitz, nonneg_level
from obcd_lite.teaching.your_problem import PROBLEM_NAMES, explore, instance, penalty

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


@pytest.mark.parametrize("name", PROBLEM_NAMES)
def test_gradient_and_hessian_match_finite_differences(name):
    inst = instance(name, 1)
    problem = inst.problem
    X = inst.X0 if name == "factorization" else random_stiefel(*inst.X0.shape, rng=3)
    E = np.random.default_rng(4).standard_normal(X.shape)
    step = 1e-6
    numeric = (problem.cost(X + step * E) - problem.cost(X - step * E)) / (2 * step)
    assert abs(numeric - np.sum(problem.euclidean_gradient(X) * E)) <= 1e-5 * (1 + abs(numeric))
    numeric_hess = (problem.euclidean_gradient(X + step * E) - problem.euclidean_gradient(X - step * E)) / (2 * step)
    np.testing.assert_allclose(problem.euclidean_hessian(X, E), numeric_hess, atol=1e-4)


@pytest.mark.parametrize("name", PROBLEM_NAMES)
def test_the_proven_bound_holds_on_sampled_pairs(name):
    """L of each builder is >= every secant between points of St(n, r) (pairs near and far)."""
    inst = instance(name, 0)
    grad = inst.problem.euclidean_gradient
    rng = np.random.default_rng(5)
    worst = 0.0
    for _ in range(200):
        X = random_stiefel(*inst.X0.shape, rng=rng)
        Y = polar(X + rng.uniform(1e-3, 1.0) * rng.standard_normal(X.shape))
        worst = max(worst, np.linalg.norm(grad(X) - grad(Y)) / np.linalg.norm(X - Y))
    assert worst <= inst.L
    assert inst.smooth(bound=False).lipschitz() <= inst.L  # the secant estimate is a lower bound


def test_factorization_start_is_feasible_for_nonneg():
    inst = instance("factorization", 0)
    assert np.all(inst.X0 >= 0)
    np.testing.assert_allclose(inst.X0.T @ inst.X0, np.eye(inst.X0.shape[1]), atol=1e-14)
    assert np.isfinite(inst.smooth(penalty("nonneg")).F(inst.X0))


def test_checks_accept_the_answers_and_reveal_nothing(capsys):
    check(density_gradient, lambda X: np.sum(X * X, axis=1)[:, None] * X, hint="h")
    check(density_lipschitz, 3.0, hint="h")
    check(nonneg_level, True, hint="h")
    assert capsys.readouterr().out.count("correct") == 3
    for test, wrong in [(density_gradient, lambda X: X), (density_gradient, lambda X: np.sum(X * X) * X),
                        (density_lipschitz, 1.0), (density_lipschitz, 4.0), (nonneg_level, False)]:
        with pytest.raises(NotSolvedYet) as failed:
            check(test, wrong, hint="a hint")
        assert str(failed.value) == "not yet. Hint: a hint"
        assert capsys.readouterr().out == ""  # nothing printed: no value is revealed
    with pytest.raises(NotSolvedYet, match="replace each"):
        check(density_lipschitz, ..., hint="a hint")


def test_explore_classifies_and_caches():
    e = explore("factorization", "nonneg", max_iter=3000)
    assert e.classification.levels["global"] is None and "not decided" in e.summary()
    again = explore("factorization", "nonneg", lam=0.5, max_iter=3000)  # lam does not change X >= 0
    assert again.classification is e.classification and "unused" in again.summary()
    with pytest.raises(ValueError, match="manpg declines"):
        explore("factorization", "nonneg", solver="manpg", max_iter=100)
    with pytest.raises(ValueError, match="unknown problem"):
        explore("sphere")
