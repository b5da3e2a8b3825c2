"""The optional cheaper oracles of a SmoothProblem (issue 36): hessvec (the block Q of eq. (9) from 4 Hessian
products, used by OBCD with one pair and, when asked, with "matching") and grad_rows (the gradient's rows)."""
import numpy as np
import pytest

from obcd_lite import L1, SmoothProblem, Zero, from_pymanopt, obcd, random_stiefel
from obcd_lite.problems import QuadraticProblem, randn_covariance, sparse_pca
from obcd_lite.smooth_oracles import check_oracles_at_start
from obcd_lite.subproblem.majorizer import hessian_majorizer, hessian_Q
from obcd_lite.teaching.your_problem import orthogonal_classifier
from obcd_lite.validation import UnsupportedProblemError

pymanopt = pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


def quadratic_instance(seed):
    """A QuadraticProblem f = 1/2 tr(X^T C X D) with C indefinite and D diagonal positive, and its Hessian."""
    g = np.random.default_rng(seed)
    n, r = int(g.integers(4, 12)), int(g.integers(1, 4))
    C = g.standard_normal((n, n))
    C = C + C.T
    D = np.diag(g.uniform(0.5, 2.0, r))
    return QuadraticProblem(C, D), (lambda X, V: C @ V @ D), random_stiefel(n, r, rng=g), g


@pytest.mark.parametrize("seed", range(6))
def test_hessian_Q_of_a_quadratic_is_the_exact_Q(seed):
    problem, hessvec, X, g = quadratic_instance(seed)
    n = X.shape[0]
    for k in (2, 2, 3):
        B = g.choice(n, size=k, replace=False)
        np.testing.assert_allclose(hessian_Q(hessvec, X, B), problem.exact_Q(B, X[B]), atol=1e-12)


def test_hessian_majorizer_is_block_data_of_the_exact_Q():
    """(Qt, P) from the Hessian's Q equal block_data's for Q = "exact" (Lemma 2.3(a)), so the subproblem is the same."""
    from obcd_lite.subproblem.majorizer import block_data
    problem, hessvec, X, g = quadratic_instance(3)
    G = problem.grad(X)
    B = np.array([0, 2])
    Qt, P, _ = block_data(problem, X, G, B, 0.1, "exact")
    Qt_h, P_h = hessian_majorizer(hessian_Q(hessvec, X, B), G[B] @ X[B].T, 0.1)
    np.testing.assert_allclose(Qt_h, Qt, atol=1e-12)
    np.testing.assert_allclose(P_h, P, atol=1e-12)


def test_hessian_Q_refuses_bad_input_by_name():
    _, hessvec, X, _ = quadratic_instance(0)
    with pytest.raises(ValueError, match="B must be k >= 2 distinct row indices"):
        hessian_Q(hessvec, X, [1, 1])
    with pytest.raises(ValueError, match="B must be k >= 2 distinct row indices"):
        hessian_Q(hessvec, X, [0, X.shape[0]])
    with pytest.raises(TypeError, match="hessvec must be callable"):
        hessian_Q(3.0, X, [0, 1])


def test_a_quadratic_with_hessvec_takes_exact_steps_and_no_check_fails():
    """With the Hessian's Q a quadratic's model is its change (plus varsigma at its floor): every check holds,
    and the run tracks the QuadraticProblem's exact-Q OBCD on the same blocks."""
    qp = sparse_pca(randn_covariance(30, 10, rng=2))
    C = qp.C
    X0 = random_stiefel(10, 3, rng=5)
    smooth = SmoothProblem(qp.f, qp.grad, hessvec=lambda X, V: C @ V)  # D = I
    run = obcd(smooth, X0, rng=1, max_iter=300, alpha=1e-3, Q="exact")
    exact = obcd(qp, X0, rng=1, max_iter=300, alpha=1e-3, Q="exact", engine="python")
    assert run.info["Q"] == "exact" and run.info["redos"] == 0
    assert abs(run.F - exact.F) <= 1e-6 * abs(exact.F)
    scalar = obcd(SmoothProblem(qp.f, qp.grad), X0, rng=1, max_iter=300, alpha=1e-3)
    assert run.F < scalar.F  # the exact Q moves further per pair step than varsigma I


def brockett_quartic(h=None, n=11, r=3, rng=0):
    """f(X) = tr(X^T A X N) + 1/4 sum X_ij^4 with its gradient and Hessian (not quadratic: the Hessian model is
    not a majorizer)."""
    g = np.random.default_rng(rng)
    A = g.standard_normal((n, n))
    A = A + A.T
    N = np.diag(np.arange(1.0, r + 1))
    problem = SmoothProblem(lambda X: float(np.sum(X * (A @ X @ N))) + 0.25 * float(np.sum(X ** 4)),
                            lambda X: 2 * A @ X @ N + X ** 3, hessvec=lambda X, V: 2 * A @ V @ N + 3 * X ** 2 * V,
                            h=h, shape=(n, r))
    return problem, random_stiefel(n, r, rng=g)


def classifier(h=None):
    instance = orthogonal_classifier(m=60, features=6, rng=0)
    return instance.smooth(h, bound=False), instance.X0


@pytest.mark.parametrize("working_set", ["random", "matching"])
@pytest.mark.parametrize("h", [Zero(), L1(0.05)], ids=repr)
@pytest.mark.parametrize("build", [brockett_quartic, classifier], ids=["brockett_quartic", "classifier"])
def test_the_hessian_model_never_raises_F(build, h, working_set):
    problem, X0 = build(h)
    assert problem.hessvec is not None
    seen = []
    run = obcd(problem, X0, rng=0, max_iter=60 if working_set == "matching" else 300, working_set=working_set,
               Q="exact", callback=lambda s: seen.append((s.F_before, s.F)))
    assert run.info["Q"] == "exact"
    assert all(after <= before for before, after in seen)
    assert run.F < problem.F(X0)
    assert abs(problem.F(run.X) - seen[-1][1]) <= 1e-10 * (1 + abs(run.F))
    np.testing.assert_allclose(run.X.T @ run.X, np.eye(X0.shape[1]), atol=1e-12)


def test_the_hessian_check_is_needed_for_a_non_quadratic_f():
    """The Hessian model is not a majorizer of Brockett + quartic: some checks fail and varsigma grows from its
    floor (without the check F would rise there)."""
    problem, X0 = brockett_quartic()
    run = obcd(problem, X0, rng=0, max_iter=300, Q="exact")
    assert run.info["redos"] > 0 and run.info["varsigma_proven"] > run.info["varsigma_start"]


def test_the_hessian_is_used_when_present_and_refused_without_one():
    """One pair: a problem with hessvec gets eq. (9)'s Q by default (the issue: OBCD uses the oracle when
    present); many pairs: only when asked (2 n products per matching lose on time, own_problem.md)."""
    problem, X0 = brockett_quartic()
    assert obcd(problem, X0, rng=0, max_iter=5).info["Q"] == "exact"
    assert obcd(problem, X0, rng=0, max_iter=5, working_set="matching").info["Q"] == "scalar"
    for working_set in ("random", "matching"):
        assert obcd(problem, X0, rng=0, max_iter=5, working_set=working_set, Q="scalar").info["Q"] == "scalar"
        assert obcd(problem, X0, rng=0, max_iter=5, working_set=working_set, Q="exact").info["Q"] == "exact"
    plain = SmoothProblem(problem.f, problem.grad, shape=X0.shape)
    assert obcd(plain, X0, rng=0, max_iter=5).info["Q"] == "scalar"
    with pytest.raises(UnsupportedProblemError, match="Q = 'exact' .* needs the Hessian"):
        obcd(plain, X0, Q="exact")
    with pytest.raises(ValueError, match="got Q = 'exact' on a SmoothProblem without hessvec"):
        obcd(plain, X0, Q="exact", working_set="matching")


def test_from_pymanopt_passes_the_autograd_hessian():
    import autograd.numpy as anp
    A = np.diag(np.arange(1.0, 7.0))
    manifold = pymanopt.manifolds.Stiefel(6, 2)

    @pymanopt.function.autograd(manifold)
    def cost(X):
        return -anp.sum(X * (A @ X)) + 0.25 * anp.sum(X ** 4)

    problem = from_pymanopt(pymanopt.Problem(manifold, cost))
    X = random_stiefel(6, 2, rng=1)
    V = np.random.default_rng(2).standard_normal((6, 2))
    np.testing.assert_allclose(problem.hessvec(X, V), -2 * A @ V + 3 * X ** 2 * V, atol=1e-12)
    assert obcd(problem, X, rng=0, max_iter=20, Q="exact").info["Q"] == "exact"


# --- grad_rows ---------------------------------------------------------------------------------------------------

def rows_problem(grad_rows, **kwargs):
    g = np.random.default_rng(0)
    A = g.standard_normal((8, 8))
    A = A + A.T
    problem = SmoothProblem(lambda X: -float(np.sum(X * (A @ X))), lambda X: -2 * A @ X,
                            grad_rows=lambda X, rows: grad_rows(A, X, rows), **kwargs)
    return problem, random_stiefel(8, 2, rng=3), A


def test_grad_rows_replaces_the_whole_gradient_in_the_one_pair_loop():
    calls = {"rows": 0}

    def rows_of(A, X, rows):
        calls["rows"] += 1
        return -2 * A[rows] @ X

    problem, X0, A = rows_problem(rows_of)
    reference = obcd(SmoothProblem(problem.f, problem.grad), X0, rng=0, max_iter=200, log_every=10 ** 6)
    grads = []
    for steps in (20, 200):
        fresh, _, _ = rows_problem(rows_of)
        calls["rows"] = 0
        run = obcd(fresh, X0, rng=0, max_iter=steps, log_every=10 ** 6)
        assert calls["rows"] == steps + 2  # one call per pair step, and the start check's two
        grads.append(fresh._calls["grad"])
    assert grads[0] == grads[1]  # whole gradients only in the setup (start check, curvature estimate), none a step
    np.testing.assert_allclose(run.X, reference.X, atol=1e-10)


@pytest.mark.parametrize("wrong, words", [
    (lambda A, X, rows: -2 * A @ X[: len(rows)], "grad_rows does not match grad at X0"),   # ignores rows
    (lambda A, X, rows: -2 * A[np.sort(rows)] @ X, "grad_rows does not match grad at X0"),  # order lost
    (lambda A, X, rows: -2.0001 * A[rows] @ X, "grad_rows does not match grad at X0"),
])
def test_a_wrong_grad_rows_is_caught_at_the_start(wrong, words):
    problem, X0, _ = rows_problem(wrong)
    with pytest.raises(ValueError, match=words):
        obcd(problem, X0, max_iter=5)


def test_grad_rows_bad_values_and_arguments_are_named():
    with pytest.raises(TypeError, match="grad_rows must be callable"):
        SmoothProblem(lambda X: 0.0, lambda X: X, grad_rows="rows")
    problem, X0, _ = rows_problem(lambda A, X, rows: -2 * A @ X)  # every row, whatever was asked
    with pytest.raises(ValueError, match=r"grad_rows\(X, call 1\) has shape \(8, 2\), but 2 rows"):
        problem.grad_rows(X0, [0, 1])
    good, X0, _ = rows_problem(lambda A, X, rows: -2 * A[rows] @ X)
    for rows in ([0, 0], [0, 8], [], [[0, 1]], [0.5, 1]):
        with pytest.raises(ValueError, match="grad_rows: rows must be distinct integers"):
            good.grad_rows(X0, rows)


def test_a_wrong_hessvec_is_caught_by_the_start_check():
    problem, X0 = brockett_quartic()
    wrong = SmoothProblem(problem.f, problem.grad, hessvec=lambda X, V: 2.0 * problem.hessvec(X, V))
    with pytest.raises(ValueError, match="hessvec does not match grad at X0"):
        wrong.check_point(X0)  # at the start, before any solver step
    with pytest.raises(ValueError, match="hessvec does not match grad at X0"):
        obcd(SmoothProblem(problem.f, problem.grad, hessvec=lambda X, V: V), X0, max_iter=5)


def test_check_oracles_at_start_names_each_oracle():
    A = np.diag(np.arange(1.0, 7.0))
    X = random_stiefel(6, 2, rng=0)
    G = A @ X

    def f(Y):
        return 0.5 * float(np.sum(Y * (A @ Y)))

    rng = np.random.default_rng(0)
    check_oracles_at_start(f, f(X), G, X, "X0", rng, grad=lambda Y: A @ Y, hessvec=lambda Y, V: A @ V,
                           grad_rows=lambda Y, rows: (A @ Y)[rows])
    with pytest.raises(ValueError, match="grad_rows does not match grad at X0"):
        check_oracles_at_start(f, f(X), G, X, "X0", rng, grad_rows=lambda Y, rows: (A @ Y)[rows] + 1e-3)
    with pytest.raises(ValueError, match="hessvec does not match grad at X0"):
        check_oracles_at_start(f, f(X), G, X, "X0", rng, grad=lambda Y: A @ Y, hessvec=lambda Y, V: -(A @ V))
