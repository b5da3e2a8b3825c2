"""Notebook 08's compute: the three problems' gradients and Lipschitz bounds, the comparisons, the exercise checks."""
import numpy as np
import pytest

from obcd_lite.stiefel import polar, random_stiefel
from obcd_lite.teaching.exercises import NotSolvedYet, answer_digest, check, density_gradient
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


#: The digests notebook 08's checks compare with (its hidden tests hold the values).
DIGESTS = {"08.2": "0258962ef35feaa7", "08.3": "7bdf53fb242787af"}


def test_the_digests_are_the_right_answers():
    """08.2: in row i the Hessian of rho_i^2 / 4 is rho_i I + 2 x_i x_i^T, of norm 3 rho_i <= 3 on the rows of
    norm <= 1, attained at a unit row: L = 3 (a finite-difference Hessian agrees). 08.3: OBCD's X >= 0 output
    on the factorization is BS_2 and critical (Theorem 3.8(a) holds for X >= 0), so the answer is True."""
    x = np.array([0.6, 0.8])  # a unit row

    def grad_row(v):
        return float(v @ v) * v

    H = np.array([(grad_row(x + 1e-6 * e) - grad_row(x - 1e-6 * e)) / 2e-6 for e in np.eye(2)])
    assert np.isclose(np.linalg.norm(H, 2), 3.0, rtol=1e-6)
    assert answer_digest("08.2", 3.0) == DIGESTS["08.2"]
    from obcd_lite import NonNeg, classify, obcd
    from obcd_lite.teaching.your_problem import PENALIZED_BUDGET

    inst = instance("factorization", 0)
    problem = inst.smooth(NonNeg(), bound=False)
    X = obcd(problem, inst.X0, max_iter=PENALIZED_BUDGET["factorization"], rng=0).X
    c = classify(problem, X, ks=(2,), zero_tol=1e-10)
    assert c.bs[2] and c.critical
    assert answer_digest("08.3", True) == DIGESTS["08.3"]


def test_checks_accept_the_answers_and_reveal_nothing(capsys):
    check("08.1", lambda X: np.sum(X * X, axis=1)[:, None] * X, expect=(density_gradient,), hint="h")
    check("08.2", 3.0, expect=(DIGESTS["08.2"],), hint="h")
    check("08.3", True, expect=(DIGESTS["08.3"],), hint="h")
    assert capsys.readouterr().out.count("correct") == 3
    for question, wrong, expect in [("08.1", lambda X: X, density_gradient), ("08.1", lambda X: np.sum(X * X) * X,
                                                                             density_gradient),
                                    ("08.2", 1.0, DIGESTS["08.2"]), ("08.2", 4.0, DIGESTS["08.2"]),
                                    ("08.3", False, DIGESTS["08.3"])]:
        with pytest.raises(NotSolvedYet) as failed:
            check(question, wrong, expect=(expect,), hint="a hint")
        assert str(failed.value) == "not yet. Hint: a hint"
        assert capsys.readouterr().out == ""  # nothing printed: no value is revealed
    with pytest.raises(NotSolvedYet) as asked:
        check("08.2", ..., expect=(DIGESTS["08.2"],), hint="a hint")
    assert "Hint" not in str(asked.value)


def test_explore_classifies_and_caches():
    e = explore("factorization", "nonneg", max_iter=3000)
    assert e.classification.levels["global"] is None and "not decided" in e.summary()
    again = explore("factorization", "nonneg", lam=0.5, max_iter=3000)  # lam does not change X >= 0
    assert again.classification is e.classification and "unused" in again.summary()
    with pytest.raises(ValueError, match="manpg declines"):
        explore("factorization", "nonneg", solver="manpg", max_iter=100)
    with pytest.raises(ValueError, match="unknown problem"):
        explore("sphere")


def test_the_hessians_q_ends_no_higher_and_lower_with_h():
    """Notebook 08, Section 6 ("With the Hessian"): from the same start and pair steps, eq. (9)'s Q built from the
    Hessian (obcd's default for a problem with hessvec) ends where the scalar Q ends for h = 0 and lower with the
    field's h on the classifier and the factorization; its check redoes steps (the model is not a majorizer)."""
    from obcd_lite.teaching.your_problem import hessian_comparison

    table = hessian_comparison()
    F_scalar = table["F, scalar Q (10)"].astype(float)
    F_hessian = table["F, Hessian's Q (9)"].astype(float)
    for problem in ("quartic", "classifier", "factorization"):
        assert abs(F_hessian[problem, "h = 0"] - F_scalar[problem, "h = 0"]) <= 1e-6
    assert F_hessian["classifier", "L1(lam=0.01)"] < F_scalar["classifier", "L1(lam=0.01)"] - 1e-3
    assert F_hessian["factorization", "NonNeg()"] < F_scalar["factorization", "NonNeg()"] - 1.0
    assert table["steps redone (Hessian)"].all()
