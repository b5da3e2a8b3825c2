"""OBCD on any smooth f (SmoothProblem, from_pymanopt): the scalar majorizer of eq. (10), verified every step."""
import numpy as np
import pytest

from obcd_lite import L0, L1, CappedL1, NonNeg, SmoothProblem, Zero, from_pymanopt, obcd, random_stiefel
from obcd_lite.problems import nonneg_pca, procrustes, randn_covariance, sparse_pca
from obcd_lite.teaching.your_problem import PROBLEM_NAMES, instance, quartic_energy, trust_regions
from obcd_lite.validation import UnsupportedProblemError

pymanopt = pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


def as_callables(qp, **kwargs):
    return SmoothProblem(qp.f, qp.grad, h=qp.h, **kwargs)


QUADRATICS = {
    "zero": lambda rng: sparse_pca(randn_covariance(30, 12, rng=rng)),
    "l1": lambda rng: sparse_pca(randn_covariance(30, 12, rng=rng), L1(0.03)),
    "l0": lambda rng: sparse_pca(randn_covariance(30, 12, rng=rng), L0(0.005)),
    "capped": lambda rng: sparse_pca(randn_covariance(30, 12, rng=rng), CappedL1(0.05, 0.1)),
    "procrustes": lambda rng: procrustes(np.random.default_rng(rng).standard_normal((12, 3)), L1(0.1)),
}


@pytest.mark.parametrize("name", sorted(QUADRATICS))
@pytest.mark.parametrize("seed", [0, 1])
def test_quadratic_as_callables_gives_the_quadratic_iterates(name, seed):
    """A quadratic given as callables with L = L_f runs the same iterates as the QuadraticProblem with
    varsigma = L_f (Q = "lipschitz"), to rounding (the gradient is recomputed instead of updated)."""
    qp = QUADRATICS[name](seed)
    X0 = random_stiefel(12, 3, rng=seed + 10)
    quadratic = obcd(qp, X0, Q="lipschitz", rng=seed, max_iter=600, log_every=50)
    smooth = obcd(as_callables(qp, L=qp.lipschitz()), X0, rng=seed, max_iter=600, log_every=50)
    assert smooth.info["redos"] == 0
    np.testing.assert_allclose(smooth.X, quadratic.X, atol=1e-9)
    np.testing.assert_allclose(smooth.history["F"], quadratic.history["F"], atol=1e-9)
    assert abs(smooth.F - quadratic.F) <= 1e-10


def test_nonneg_quadratic_as_callables():
    qp = nonneg_pca(randn_covariance(30, 8, rng=3))
    X0 = np.eye(8, 2)
    a = obcd(qp, X0, Q="lipschitz", rng=2, max_iter=400)
    b = obcd(as_callables(qp, L=qp.lipschitz()), X0, rng=2, max_iter=400)
    np.testing.assert_allclose(b.X, a.X, atol=1e-9)
    assert np.all(b.X >= 0)


def test_from_pymanopt_and_smooth_problem_agree():
    inst = quartic_energy(n=10, r=3, rng=4)
    A = inst.problem.cost, inst.problem.euclidean_gradient
    from_pm = from_pymanopt(inst.problem, h=L1(0.02), L=inst.L)
    by_hand = SmoothProblem(*A, h=L1(0.02), L=inst.L, shape=(10, 3))
    X = random_stiefel(10, 3, rng=5)
    assert from_pm.F(X) == by_hand.F(X)
    np.testing.assert_array_equal(from_pm.grad(X), by_hand.grad(X))
    assert (from_pm.n, from_pm.r) == (10, 3)
    a = obcd(from_pm, inst.X0, rng=1, max_iter=500, Q="scalar")  # from_pm has the Hessian, by_hand has not
    b = obcd(by_hand, inst.X0, rng=1, max_iter=500)
    np.testing.assert_array_equal(a.X, b.X)
    with_hessian = SmoothProblem(*A, h=L1(0.02), L=inst.L, shape=(10, 3), hessvec=inst.problem.euclidean_hessian)
    c = obcd(from_pm, inst.X0, rng=1, max_iter=500, Q="exact")
    d = obcd(with_hessian, inst.X0, rng=1, max_iter=500, Q="exact")
    assert c.info["Q"] == d.info["Q"] == "exact"
    np.testing.assert_array_equal(c.X, d.X)


@pytest.mark.parametrize("h", [Zero(), L1(0.05), L0(0.01)], ids=repr)
@pytest.mark.parametrize("bound", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_F_never_rises_on_the_quartic(h, bound, seed):
    inst = quartic_energy(n=9, r=2, rng=seed)
    problem = inst.smooth(h, bound=bound)
    seen = []
    run = obcd(problem, inst.X0, rng=seed, max_iter=800, callback=lambda s: seen.append((s.F_before, s.F)))
    assert len(seen) == 800
    assert all(after <= before for before, after in seen)
    assert abs(problem.F(run.X) - seen[-1][1]) <= 1e-12 * (1 + abs(run.F))
    assert run.F < problem.F(inst.X0)


def test_too_small_a_curvature_is_raised_and_F_still_never_rises():
    """A given L far below the curvature: the majorization fails, varsigma doubles, the steps are redone."""
    inst = quartic_energy(n=9, r=2, rng=3)
    problem = inst.smooth(L1(0.02))
    too_small = SmoothProblem(problem.f, problem.grad, h=problem.h, L=inst.L / 1000)
    seen = []
    run = obcd(too_small, inst.X0, rng=0, max_iter=300, callback=lambda s: seen.append((s.F_before, s.F)))
    assert run.info["redos"] >= 5
    assert run.info["varsigma"] >= 2 ** run.info["redos"] * inst.L / 1000 * 0.999
    assert all(after <= before for before, after in seen)


def test_the_estimate_grows_only_when_a_step_proves_it():
    inst = quartic_energy(n=9, r=2, rng=0)
    problem = inst.smooth(bound=False)
    start = problem.lipschitz()
    assert 0 < start
    problem.raise_lipschitz_estimate(start / 2)
    assert problem.lipschitz() == start
    run = obcd(problem, inst.X0, rng=0, max_iter=300, Q="scalar")  # the Hessian's Q proves nothing about L_f
    assert problem.lipschitz() == run.info["varsigma"] >= start
    hessian = inst.smooth(bound=False)
    start = hessian.lipschitz()
    obcd(hessian, inst.X0, rng=0, max_iter=300, Q="exact")
    assert hessian.lipschitz() == start
    bounded = inst.smooth()
    bounded.raise_lipschitz_estimate(10 * inst.L)
    assert bounded.lipschitz() == inst.L


@pytest.mark.parametrize("name", PROBLEM_NAMES)
def test_obcd_reaches_the_trust_region_optimum(name):
    """h = 0: OBCD from pymanopt's start ends at F <= the trust-region F + 1e-6 (notebook 08's three problems)."""
    inst = instance(name, 0)
    problem = inst.smooth(bound=False)
    tr = trust_regions(inst)
    run = obcd(problem, inst.X0, rng=0, max_iter=20_000)
    assert run.F <= float(problem.F(tr.point)) + 1e-6


@pytest.mark.parametrize("seed", [1, 2])
def test_obcd_reaches_the_trust_region_optimum_on_more_quartics(seed):
    inst = quartic_energy(n=10, r=2, rng=seed)
    tr = trust_regions(inst)
    run = obcd(inst.smooth(), inst.X0, rng=seed, max_iter=15_000)
    assert run.F <= float(inst.smooth().F(tr.point)) + 1e-6


def test_exact_Q_is_declined_for_a_general_f_without_a_hessian():
    inst = quartic_energy(n=6, r=2)
    plain = SmoothProblem(inst.problem.cost, inst.problem.euclidean_gradient, shape=inst.X0.shape)
    with pytest.raises(UnsupportedProblemError, match="eq. \\(9\\)"):
        obcd(plain, inst.X0, Q="exact")


def test_k_greater_than_two_runs_with_h_zero():
    inst = quartic_energy(n=8, r=2, rng=1)
    seen = []
    run = obcd(inst.smooth(), inst.X0, k=3, rng=0, max_iter=300, callback=lambda s: seen.append((s.F_before, s.F)))
    assert all(after <= before for before, after in seen)
    assert run.F < inst.smooth().F(inst.X0)


def test_bad_callables_are_named():
    with pytest.raises(TypeError, match="f must be callable"):
        SmoothProblem(1.0, lambda X: X)
    bad_shape = SmoothProblem(lambda X: 0.0, lambda X: X[:, :1])
    with pytest.raises(ValueError, match="grad\\(X0\\) has shape"):
        obcd(bad_shape, np.eye(4, 2))
    not_finite = SmoothProblem(lambda X: np.nan, lambda X: X)
    with pytest.raises(ValueError, match="f\\(X0\\) must be a finite number"):
        obcd(not_finite, np.eye(4, 2))
    with pytest.raises(ValueError, match="X0 has 4 rows but the problem has n = 5"):
        obcd(SmoothProblem(lambda X: 0.0, lambda X: X, shape=(5, 2)), np.eye(4, 2))
    with pytest.raises(ValueError, match="shape must be"):
        SmoothProblem(lambda X: 0.0, lambda X: X, shape=(2, 5))
    with pytest.raises(ValueError, match="L must be"):
        SmoothProblem(lambda X: 0.0, lambda X: X, L=-1.0)
    with pytest.raises(TypeError, match="does not follow"):
        obcd(object(), np.eye(4, 2))


def test_from_pymanopt_rejects_other_inputs():
    from pymanopt.manifolds import Oblique

    oblique = Oblique(4, 2)

    @pymanopt.function.numpy(oblique)
    def cost(X):
        return float(np.sum(X * X))

    with pytest.raises(ValueError, match="Stiefel"):
        egrad = pymanopt.function.numpy(oblique)(lambda X: 2 * X)
        from_pymanopt(pymanopt.Problem(oblique, cost, euclidean_gradient=egrad))
    with pytest.raises(TypeError, match="pymanopt.Problem"):
        from_pymanopt(lambda X: 0.0)


@pytest.mark.parametrize("backend", ["autograd", "jax", "torch", "tensorflow"])
def test_autodiff_backends_when_installed(backend):
    """pymanopt's autodiff backends are optional: the gradient they derive is the one we pass."""
    module = pytest.importorskip(backend, reason=f"optional pymanopt backend {backend} is not installed")
    from pymanopt.manifolds import Stiefel

    manifold = Stiefel(5, 2)
    A = np.diag(np.arange(1.0, 6.0))
    if backend == "autograd":
        anp = pytest.importorskip("autograd.numpy")
        cost = pymanopt.function.autograd(manifold)(lambda X: 0.5 * anp.sum(X * (A @ X)))
    else:  # pragma: no cover - not installed on the reference machine
        pytest.skip(f"{backend}: only the autograd cost is written here ({module.__name__} installed)")
    problem = from_pymanopt(pymanopt.Problem(manifold, cost))
    X = random_stiefel(5, 2, rng=0)
    np.testing.assert_allclose(problem.grad(X), A @ X, atol=1e-12)


@pytest.mark.parametrize("h", [Zero(), L1(0.05)], ids=repr)
def test_every_accepted_step_decreases_by_alpha_half_move(h):
    """The sufficient decrease behind eq. (11): F(X_B(V)) <= F(X) - alpha/2 ||V - I||_F^2 on every step."""
    inst = quartic_energy(n=8, r=2, rng=5)
    alpha = 0.05  # large enough that the decrease is far above rounding
    steps = []
    obcd(inst.smooth(h, bound=False), inst.X0, rng=1, max_iter=600, alpha=alpha,
         callback=lambda s: steps.append((s.F_before - s.F, float(np.sum((s.V - np.eye(2)) ** 2)))))
    moved = [(drop, move) for drop, move in steps if move > 0]
    assert len(moved) > 100
    assert all(drop >= 0.5 * alpha * move - 1e-12 for drop, move in moved)


def test_the_density_term_has_lipschitz_constant_three_on_the_unit_row_ball():
    """Notebook 08, exercise 2: rho_i I + 2 x_i x_i^T has norm <= 3 for ||x_i|| <= 1, and 3 is approached."""
    def grad(X):
        return np.sum(X * X, axis=1)[:, None] * X

    rng = np.random.default_rng(0)
    worst = 0.0
    for _ in range(2000):
        X, Y = rng.standard_normal((2, 4, 3))
        X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]  # rows in the unit ball
        Y /= np.maximum(1.0, np.linalg.norm(Y, axis=1))[:, None]
        worst = max(worst, np.linalg.norm(grad(X) - grad(Y)) / np.linalg.norm(X - Y))
    assert worst <= 3.0
    x = np.array([[0.6, 0.8, 0.0]])  # a unit row moved along itself: the secant tends to 3
    assert 3.0 - np.linalg.norm(grad(x) - grad(x * (1 - 1e-7))) / np.linalg.norm(x * 1e-7) < 1e-5
