"""from_pymanopt (obcd_lite.smooth_pymanopt): the manifolds (Stiefel, Sphere, SO(n), Grassmann), the autodiff
backends, the Hessian as hessvec, and the problems it refuses by name (issue 36)."""
import numpy as np
import pytest

from obcd_lite import SmoothProblem, from_pymanopt, obcd, random_stiefel
from obcd_lite.solvers import SOLVERS

pymanopt = pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")
from pymanopt.manifolds import (Euclidean, Grassmann, Oblique, Product, SpecialOrthogonalGroup,  # noqa: E402
                                Sphere, Stiefel)

numpy_function = pymanopt.function.numpy


def symmetric(n, seed):
    B = np.random.default_rng(seed).standard_normal((n, n))
    return B + B.T


def rayleigh(manifold, A):
    """-x^T A x on a sphere (points (n,) or (n, 1)): its minimizers are +-the leading eigenvector."""
    @numpy_function(manifold)
    def cost(x):
        return -float(np.sum(x * (A @ x)))

    @numpy_function(manifold)
    def egrad(x):
        return -2.0 * A @ x

    @numpy_function(manifold)
    def ehess(x, v):
        return -2.0 * A @ v

    return pymanopt.Problem(manifold, cost, euclidean_gradient=egrad, euclidean_hessian=ehess)


@pytest.mark.parametrize("shape", [(9,), (9, 1)], ids=["Sphere(n)", "Sphere(n, 1)"])
def test_sphere_reaches_the_leading_eigenvector(shape):
    A = symmetric(9, 0)
    problem = from_pymanopt(rayleigh(Sphere(*shape), A))
    assert (problem.n, problem.r) == (9, 1)
    result = obcd(problem, random_stiefel(9, 1, rng=1), rng=0, max_iter=20_000)
    values, vectors = np.linalg.eigh(A)
    assert abs(result.F + values[-1]) < 1e-7
    assert abs(abs(float(vectors[:, -1] @ result.X[:, 0])) - 1.0) < 1e-6


def test_sphere_hessvec_and_gradient_are_columns():
    A = symmetric(5, 1)
    problem = from_pymanopt(rayleigh(Sphere(5), A))
    X, V = random_stiefel(5, 1, rng=2), np.arange(5.0)[:, None]
    np.testing.assert_allclose(problem.grad(X), -2.0 * A @ X)
    np.testing.assert_allclose(problem.hessvec(X, V), -2.0 * A @ V)


def test_a_sphere_gradient_of_the_wrong_length_is_named():
    manifold = Sphere(4)
    cost = numpy_function(manifold)(lambda x: float(x @ x))
    egrad = numpy_function(manifold)(lambda x: np.zeros(3))
    with pytest.raises(ValueError, match=r"grad\(X0\) has shape \(3, 1\), but the point has shape \(4, 1\)"):
        from_pymanopt(pymanopt.Problem(manifold, cost, euclidean_gradient=egrad)).check_point(np.eye(4, 1))


def procrustes_to_a_reflection(n):
    """f(X) = -tr(T^T X) with T = diag(1, ..., 1, -1): min over O(n) at X = T (det -1), over SO(n) -(n - 2)."""
    manifold = SpecialOrthogonalGroup(n)
    T = np.diag([1.0] * (n - 1) + [-1.0])

    @numpy_function(manifold)
    def cost(X):
        return -float(np.sum(T * X))

    @numpy_function(manifold)
    def egrad(X):
        return -T

    @numpy_function(manifold)
    def ehess(X, V):
        return np.zeros_like(V)

    return pymanopt.Problem(manifold, cost, euclidean_gradient=egrad, euclidean_hessian=ehess), T


def test_special_orthogonal_group_keeps_det_plus_one():
    """OBCD on SO(n) stays in SO(n) (rotations only) and reaches its minimum -(n - 2); the same f given as a
    plain SmoothProblem on St(n, n) lets the reflections in and visits det -1 (what the flag prevents)."""
    n = 5
    pm, T = procrustes_to_a_reflection(n)
    problem = from_pymanopt(pm, L=1e-3)  # f is linear: any L > 0 is a bound, and small makes reflections pay
    assert problem.rotations_only and (problem.n, problem.r) == (n, n)
    X0 = random_stiefel(n, n, rng=3)
    X0[:, 0] *= np.sign(np.linalg.det(X0))  # in SO(n)
    dets = []
    result = obcd(problem, X0, rng=0, max_iter=3000, callback=lambda s: dets.append(np.linalg.det(s.X)))
    assert min(dets) > 0.999999 and abs(np.linalg.det(result.X) - 1.0) < 1e-9
    assert abs(result.F + (n - 2)) < 1e-6
    free_dets = []
    free = SmoothProblem(problem.f, problem.grad, shape=(n, n), L=1e-3)  # f is linear: any L > 0 is a bound
    result = obcd(free, X0, rng=0, max_iter=3000, callback=lambda s: free_dets.append(np.linalg.det(s.X)))
    assert min(free_dets) < -0.999999  # without the flag OBCD's reflections leave SO(n)
    assert result.F < -(n - 2) - 1  # over O(n): X = T, F = -n
    rot = SOLVERS["obcd_rot"](problem, X0, rng=0, max_iter=500)
    assert np.linalg.det(rot.X) > 0


def test_special_orthogonal_group_refuses_reflections_by_name():
    problem = from_pymanopt(procrustes_to_a_reflection(4)[0])
    with pytest.raises(ValueError, match="SO\\(n\\) \\(rotations_only\\).*branches = 'ref'"):
        obcd(problem, np.eye(4), branches="ref", max_iter=5)
    with pytest.raises(ValueError, match="SO\\(n\\) \\(rotations_only\\).*k = 3"):
        obcd(problem, np.eye(4), k=3, max_iter=5)
    reflection = np.diag([1.0, 1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="det X0 = -1: X0 is a reflection"):
        obcd(problem, reflection, max_iter=5)


def test_special_orthogonal_group_hessvec_takes_ambient_directions():
    """pymanopt's SO(n) Hessian takes tangent vectors as X^T V; hessvec takes the ambient V."""
    manifold = SpecialOrthogonalGroup(4)
    C = symmetric(4, 3)

    @numpy_function(manifold)
    def cost(X):
        return 0.5 * float(np.sum(X * (C @ X)))

    @numpy_function(manifold)
    def egrad(X):
        return C @ X

    @numpy_function(manifold)
    def ehess(X, V):
        return C @ V

    problem = from_pymanopt(pymanopt.Problem(manifold, cost, euclidean_gradient=egrad, euclidean_hessian=ehess))
    X = random_stiefel(4, 4, rng=4)
    V = np.random.default_rng(5).standard_normal((4, 4))
    np.testing.assert_allclose(problem.hessvec(X, V), C @ V, atol=1e-12)


def test_grassmann_reaches_the_leading_subspace():
    """-tr(X^T A X) is invariant under X -> X Q: OBCD on St(n, r) finds the span of the top r eigenvectors."""
    n, r = 8, 3
    A = symmetric(n, 6)
    manifold = Grassmann(n, r)
    cost = numpy_function(manifold)(lambda X: -float(np.sum(X * (A @ X))))
    egrad = numpy_function(manifold)(lambda X: -2.0 * A @ X)
    problem = from_pymanopt(pymanopt.Problem(manifold, cost, euclidean_gradient=egrad))
    assert (problem.n, problem.r) == (n, r) and not problem.rotations_only
    result = obcd(problem, random_stiefel(n, r, rng=7), rng=0, max_iter=20_000)
    top = np.linalg.eigh(A)[1][:, -r:]
    np.testing.assert_allclose(result.X @ result.X.T, top @ top.T, atol=1e-5)


def test_stiefel_hessvec_matches_a_difference_of_gradients():
    from obcd_lite.teaching.your_problem import quartic_energy

    problem = quartic_energy(n=7, r=2, rng=0).smooth()
    X = random_stiefel(7, 2, rng=1)
    V = np.random.default_rng(2).standard_normal((7, 2))
    t = 1e-6
    difference = (problem.grad(X + t * V) - problem.grad(X - t * V)) / (2 * t)
    np.testing.assert_allclose(problem.hessvec(X, V), difference, atol=1e-6)


def test_a_numpy_problem_without_a_hessian_has_no_hessvec():
    manifold = Stiefel(5, 2)
    cost = numpy_function(manifold)(lambda X: float(np.sum(X**2)))
    egrad = numpy_function(manifold)(lambda X: 2 * X)
    assert from_pymanopt(pymanopt.Problem(manifold, cost, euclidean_gradient=egrad)).hessvec is None


def test_a_numpy_cost_only_problem_is_refused_with_a_hint():
    manifold = Stiefel(5, 2)
    cost = numpy_function(manifold)(lambda X: float(np.sum(X**2)))
    with pytest.raises(ValueError, match="gives only a cost.*derives none.*pymanopt.function.autograd"):
        from_pymanopt(pymanopt.Problem(manifold, cost))


def test_a_riemannian_gradient_only_problem_is_refused_by_name():
    manifold = Stiefel(5, 2)
    A = symmetric(5, 8)
    cost = numpy_function(manifold)(lambda X: 0.5 * float(np.sum(X * (A @ X))))
    rgrad = numpy_function(manifold)(lambda X: manifold.projection(X, A @ X))
    with pytest.raises(ValueError, match="Riemannian gradient only.*not recoverable.*euclidean_gradient="):
        from_pymanopt(pymanopt.Problem(manifold, cost, riemannian_gradient=rgrad))


@pytest.mark.parametrize("manifold", [Euclidean(3, 2), Stiefel(5, 2, k=2), Sphere(3, 2), Oblique(4, 2),
                                      SpecialOrthogonalGroup(3, k=2), Grassmann(5, 2, k=2),
                                      Product([Stiefel(4, 2), Sphere(3)])], ids=str)
def test_other_manifolds_are_refused_with_the_supported_list(manifold):
    cost = numpy_function(manifold)(lambda *X: 0.0)
    egrad = numpy_function(manifold)(lambda *X: X[0] * 0 if len(X) == 1 else [x * 0 for x in X])
    with pytest.raises(ValueError, match="Stiefel\\(n, r\\), Sphere\\(n\\) or Sphere\\(n, 1\\), "
                                         "SpecialOrthogonalGroup\\(n\\), Grassmann\\(n, r\\)"):
        from_pymanopt(pymanopt.Problem(manifold, cost, euclidean_gradient=egrad))


def test_not_a_pymanopt_problem_is_refused():
    with pytest.raises(TypeError, match="pymanopt.Problem"):
        from_pymanopt(lambda X: 0.0)


# --- the autodiff backends (autograd: optional, the tests skip with a reason without it) ----------------------

def test_a_cost_only_autograd_problem_runs():
    anp = pytest.importorskip("autograd.numpy", reason="autograd (pymanopt's autodiff backend) is not installed")
    n, r = 8, 2
    A = symmetric(n, 9)
    manifold = Stiefel(n, r)

    @pymanopt.function.autograd(manifold)
    def cost(X):
        rho = anp.sum(X * X, axis=1)
        return 0.5 * anp.sum(X * anp.dot(A, X)) + 0.25 * anp.sum(rho**2)

    problem = from_pymanopt(pymanopt.Problem(manifold, cost))
    X = random_stiefel(n, r, rng=1)
    V = np.random.default_rng(2).standard_normal((n, r))
    np.testing.assert_allclose(problem.grad(X), A @ X + np.sum(X * X, axis=1)[:, None] * X, atol=1e-12)
    expected = A @ V + np.sum(X * X, axis=1)[:, None] * V + 2 * np.sum(X * V, axis=1)[:, None] * X
    np.testing.assert_allclose(problem.hessvec(X, V), expected, atol=1e-12)
    steps = []
    result = obcd(problem, X, rng=0, max_iter=2000, callback=lambda s: steps.append(s.F_before - s.F))
    assert min(steps) >= 0 and result.F < problem.F(X) - 0.1


def test_an_autograd_cost_with_a_riemannian_gradient_uses_the_derived_euclidean_one():
    anp = pytest.importorskip("autograd.numpy", reason="autograd (pymanopt's autodiff backend) is not installed")
    manifold = Stiefel(5, 2)
    A = symmetric(5, 10)
    cost = pymanopt.function.autograd(manifold)(lambda X: 0.5 * anp.sum(X * anp.dot(A, X)))
    rgrad = pymanopt.function.autograd(manifold)(lambda X: manifold.projection(X, A @ X))
    problem = from_pymanopt(pymanopt.Problem(manifold, cost, riemannian_gradient=rgrad))
    X = random_stiefel(5, 2, rng=3)
    np.testing.assert_allclose(problem.grad(X), A @ X, atol=1e-12)


def test_autograd_on_the_sphere_and_on_so_n():
    anp = pytest.importorskip("autograd.numpy", reason="autograd (pymanopt's autodiff backend) is not installed")
    A = symmetric(6, 11)
    sphere = Sphere(6)
    cost = pymanopt.function.autograd(sphere)(lambda x: -anp.dot(x, anp.dot(A, x)))
    problem = from_pymanopt(pymanopt.Problem(sphere, cost))
    result = obcd(problem, random_stiefel(6, 1, rng=0), rng=0, max_iter=20_000)
    assert abs(result.F + np.linalg.eigvalsh(A)[-1]) < 1e-7
    so = SpecialOrthogonalGroup(3)
    T = np.diag([1.0, 1.0, -1.0])
    problem = from_pymanopt(pymanopt.Problem(so, pymanopt.function.autograd(so)(lambda X: -anp.sum(T * X))))
    result = obcd(problem, np.eye(3), rng=0, max_iter=2000)
    assert abs(np.linalg.det(result.X) - 1.0) < 1e-9 and abs(result.F + 1.0) < 1e-6


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_solver_stays_in_special_orthogonal_group(name):
    """From a start in SO(5), every solver that runs on a rotations_only problem returns a point of SO(5) (f's
    minimum over O(5) is a reflection, so a solver that lets reflections in is caught), or declines by name."""
    n = 5
    problem = from_pymanopt(procrustes_to_a_reflection(n)[0], L=1e-3)  # small L: long steps that reach det -1
    X0 = random_stiefel(n, n, rng=3)
    X0[:, 0] *= np.sign(np.linalg.det(X0))
    try:
        result = SOLVERS[name](problem, X0, rng=0, max_iter=300)
    except (ValueError, TypeError, NotImplementedError) as error:  # declined (e.g. SOC, obcd_step): by name
        assert str(error), name
        return
    assert np.linalg.det(result.X) > 0.999999, (name, np.linalg.det(result.X), result.F)


def test_many_pairs_stay_in_special_orthogonal_group():
    """working_set = "matching" takes the same rotations-only rule as the one-pair OBCD on SO(n)."""
    n = 5
    problem = from_pymanopt(procrustes_to_a_reflection(n)[0], L=1e-3)
    X0 = random_stiefel(n, n, rng=3)
    X0[:, 0] *= np.sign(np.linalg.det(X0))
    dets = []
    result = obcd(problem, X0, working_set="matching", rng=0, max_iter=300,
                  callback=lambda s: dets.append(np.linalg.det(s.X)))
    assert min(dets) > 0.999999 and abs(result.F + (n - 2)) < 1e-6
