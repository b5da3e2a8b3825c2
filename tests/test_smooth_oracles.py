"""The checks around a SmoothProblem's oracles (obcd_lite.smooth_oracles): every bad f or grad of the fuzz
(issue 34) is refused by name, before a solver can return a silent wrong answer."""
import re

import numpy as np
import pytest

from obcd_lite import L1, SmoothProblem, obcd, random_stiefel
from obcd_lite.solvers import SOLVERS
from obcd_lite.validation import DATA_SCALE_RANGE

A = np.diag([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])


def f(X):
    return 0.5 * float(np.sum(X * (A @ X)))


def grad(X):
    return A @ X


X0 = random_stiefel(6, 2, rng=3)


def run(problem, **kwargs):
    return obcd(problem, X0, max_iter=kwargs.pop("max_iter", 50), rng=0, **kwargs)


def test_a_correct_problem_runs_and_is_not_disturbed():
    """The checks cost nothing visible: the run reaches the two smallest eigenvalues' half-sum, 1.5."""
    result = run(SmoothProblem(f, grad), max_iter=3000)
    assert abs(result.F - 1.5) < 1e-6


@pytest.mark.parametrize("value, kind, words", [
    (lambda X: f(X) + 1j, TypeError, "complex number"),
    (lambda X: None, TypeError, "None of type NoneType"),
    (lambda X: "1.0", TypeError, "'1.0' of type str"),
    (lambda X: True, TypeError, "the bool True"),
    (lambda X: np.array([f(X)]), TypeError, "array of shape \\(1,\\)"),
    (lambda X: np.nan, ValueError, "got nan"),
    (lambda X: -np.inf, ValueError, "got -inf"),
])
def test_a_bad_value_of_f_is_named(value, kind, words):
    with pytest.raises(kind, match=r"f\(X0\) must be a finite (real )?number, .*" + words):
        run(SmoothProblem(value, grad))


def test_f_as_a_0d_array_or_numpy_scalar_is_accepted():
    for wrap in (np.asarray, np.float32, np.float64):
        problem = SmoothProblem(lambda X, w=wrap: w(f(X)), grad)
        assert problem.f(X0) == pytest.approx(f(X0), rel=1e-6)
        assert type(problem.f(X0)) is float


@pytest.mark.parametrize("gradient, kind, words", [
    (lambda X: (A @ X).astype(complex), TypeError, "complex array"),
    (lambda X: (A @ X).astype(object), TypeError, "object array"),
    (lambda X: A @ X > 0, TypeError, "boolean array"),
    (lambda X: "grad", TypeError, "non-numeric array"),
    (lambda X: (A @ X)[:, :1], ValueError, "has shape \\(6, 1\\), but the point has shape \\(6, 2\\)"),
])
def test_a_bad_gradient_is_named(gradient, kind, words):
    with pytest.raises(kind, match=r"grad\(X0\).*" + words):
        run(SmoothProblem(f, gradient))


def test_a_gradient_that_turns_nan_later_names_the_call_and_keeps_the_point():
    calls = []

    def failing(X):
        calls.append(X.copy())
        return A @ X if len(calls) < 6 else np.full(X.shape, np.nan)

    with pytest.raises(ValueError, match=r"grad\(X, call \d+\) has a non-finite entry nan at index \(0, 0\): "
                                         r"the user's grad failed at this point") as err:
        run(SmoothProblem(f, failing), max_iter=400)
    np.testing.assert_array_equal(err.value.point, calls[-1])


def test_a_mutating_oracle_gets_an_error_not_corrupted_state():
    def mutating(X):
        X *= 1.01  # the user's bug
        return A @ X

    with pytest.raises(ValueError, match="grad wrote into its argument at X0.*read-only.*X = X.copy\\(\\)"):
        run(SmoothProblem(f, mutating))

    def mutating_f(X):
        X[0, 0] = 0.0
        return f(X)

    with pytest.raises(ValueError, match="f wrote into its argument"):
        run(SmoothProblem(mutating_f, grad))


def test_the_oracles_see_a_copy_so_keeping_it_is_harmless():
    """An oracle that stores its argument keeps the point it saw, not the solver's later iterate."""
    seen = []

    def storing(X):
        seen.append(X)
        return A @ X

    problem = SmoothProblem(f, storing)
    X = X0.copy()
    problem.grad(X)
    X[0, 0] = 99.0
    assert seen[-1][0, 0] == X0[0, 0] and not seen[-1].flags.writeable


@pytest.mark.parametrize("factor, verdict", [(-1.0, "wrong sign"), (2.0, "off by a factor 2"),
                                             (0.5, "off by a factor 0.5")])
def test_a_wrong_gradient_is_caught_at_the_start_with_the_two_numbers(factor, verdict):
    with pytest.raises(ValueError, match=verdict + r" at X0: .*<grad f\(X0\), D> = (-?[0-9.e+-]+) but the central "
                                                  r"difference of f.* is (-?[0-9.e+-]+)") as err:
        run(SmoothProblem(f, lambda X: factor * (A @ X)))
    slope, difference = (float(v) for v in re.search(r"D> = (\S+) but .* is (\S+) \(t =", str(err.value)).groups())
    assert slope == pytest.approx(factor * difference, rel=1e-4)


def test_a_gradient_off_in_one_entry_is_caught():
    def almost(X):
        G = A @ X
        G[2, 1] += 1.0
        return G

    with pytest.raises(ValueError, match="at X0: along a random unit tangent direction"):
        run(SmoothProblem(f, almost))


def test_the_check_can_be_turned_off_and_its_direction_follows_rng():
    wrong = SmoothProblem(f, lambda X: -(A @ X), check_derivatives=False)
    run(wrong, max_iter=5)  # no error: the user asked for no check
    messages = []
    for seed in (1, 1, 2):
        with pytest.raises(ValueError) as err:
            run(SmoothProblem(f, lambda X: -(A @ X), rng=seed))
        messages.append(str(err.value))
    assert messages[0] == messages[1] != messages[2]


def test_the_check_runs_once_per_start_and_costs_two_f_calls():
    counts = {"f": 0}

    def counting(X):
        counts["f"] += 1
        return f(X)

    problem = SmoothProblem(counting, grad)
    problem.check_point(X0)
    assert counts["f"] == 1 + 2  # f(X0) and the central difference
    counts["f"] = 0
    problem.f(X0)
    problem.grad(X0)
    assert counts["f"] == 1  # no check in the loop


def test_a_solver_that_never_calls_check_point_still_gets_the_start_check():
    """radmm and psm accept h(X0) = inf and skip check_point: the first gradient on St(n, r) runs the check."""
    wrong = SmoothProblem(f, lambda X: -(A @ X), shape=(6, 2))
    with pytest.raises(ValueError, match="wrong sign at X \\(the first point seen\\)"):
        SOLVERS["radmm"](wrong, X0, max_iter=5)


@pytest.mark.parametrize("scale", [1e-120, 1e-300])
def test_values_below_the_range_are_refused_at_the_start(scale):
    tiny = SmoothProblem(lambda X: scale * f(X), lambda X: scale * (A @ X))
    with pytest.raises(ValueError, match=r"f and grad at X0 are below the supported range \[1e-100"):
        run(tiny)


@pytest.mark.parametrize("scale", [1e101, 1e200])
def test_values_above_the_range_are_refused(scale):
    with pytest.raises(ValueError, match=r"f\(X0\) = .* is above the supported range"):
        run(SmoothProblem(lambda X: scale * f(X), lambda X: scale * (A @ X)))
    with pytest.raises(ValueError, match=r"grad\(X0\) has largest entry .* above the supported range"):
        run(SmoothProblem(f, lambda X: scale * (A @ X)))


def test_the_range_edges_are_accepted():
    low, high = DATA_SCALE_RANGE
    for scale in (2 * low, high / 10):
        problem = SmoothProblem(lambda X, s=scale: s * f(X), lambda X, s=scale: s * (A @ X))
        problem.check_point(X0)


def test_a_zero_f_is_allowed():
    problem = SmoothProblem(lambda X: 0.0, lambda X: np.zeros_like(X), h=L1(0.1))
    result = run(problem, max_iter=200)
    assert result.F <= problem.F(X0)


@pytest.mark.parametrize("L, kind, words", [
    (0, ValueError, "positive finite"), (-1.0, ValueError, "positive finite"), (np.inf, ValueError, "positive finite"),
    (np.nan, ValueError, "positive finite"), (True, TypeError, "bool"), ("3", TypeError, "str"),
    (1e-300, ValueError, "supported range"), (1e300, ValueError, "supported range"), ([1.0], TypeError, "list"),
])
def test_L_must_be_a_positive_finite_real(L, kind, words):
    with pytest.raises(kind, match=f"L must be .*{words}|L must be inside the {words}"):
        SmoothProblem(f, grad, L=L)


def test_L_accepts_numpy_numbers():
    assert SmoothProblem(f, grad, L=np.float32(6.0)).lipschitz() == 6.0
    assert SmoothProblem(f, grad, L=np.asarray(6)).lipschitz() == 6.0


@pytest.mark.parametrize("name", ["radmm", "psm"])
def test_infeasible_methods_say_the_shape_is_needed(name):
    with pytest.raises(ValueError, match=rf"{name} needs the problem's shape: give it shape=\(n, r\) .*shape=\(6, 2\)"):
        SOLVERS[name](SmoothProblem(f, grad), X0, max_iter=5)


def test_bad_constructor_flags_are_named():
    with pytest.raises(TypeError, match="hessvec must be callable"):
        SmoothProblem(f, grad, hessvec=1.0)
    with pytest.raises(TypeError, match="rotations_only must be True or False"):
        SmoothProblem(f, grad, rotations_only="yes")
    with pytest.raises(TypeError, match="check_derivatives must be True or False"):
        SmoothProblem(f, grad, check_derivatives=None)
    with pytest.raises(TypeError, match="rng must be"):
        SmoothProblem(f, grad, rng=1.5)
    with pytest.raises(ValueError, match="rotations_only .* needs a square shape"):
        SmoothProblem(f, grad, shape=(6, 2), rotations_only=True)


def test_a_large_f_with_a_small_slope_is_still_checked():
    """|f| ~ 1e6 and a slope ~ 1e-2: the t = 1e-6 difference drowns in rounding and is skipped, not passed."""
    big = 1e6

    def shifted(X):
        return big + 1e-2 * f(X)

    with pytest.raises(ValueError, match="wrong sign at X0"):
        run(SmoothProblem(shifted, lambda X: -1e-2 * (A @ X)))
    run(SmoothProblem(shifted, lambda X: 1e-2 * (A @ X)), max_iter=5)


def test_a_stationary_start_passes_whatever_the_gradient_scale():
    """At a critical point of f on St(n, r) the tangent slope is 0 either way: nothing to compare."""
    problem = SmoothProblem(f, lambda X: 3.0 * (A @ X))
    problem.check_point(np.eye(6, 2))  # the eigenvectors: grad's tangent part is 0


def test_a_zero_gradient_of_a_moving_f_is_caught():
    """A gradient that is 0 where f moves (an autodiff trace that lost its input) is named."""
    with pytest.raises(ValueError, match="grad does not match f at X0: .*<grad f\\(X0\\), D> = 0.000000e\\+00"):
        run(SmoothProblem(f, lambda X: np.zeros_like(X)))


def test_a_near_stationary_start_passes():
    """At a solver's limit the tangent slope is ~1e-10 and the difference's truncation larger: no verdict."""
    problem = SmoothProblem(f, grad)
    limit = obcd(problem, X0, rng=0, max_iter=3000).X
    SmoothProblem(f, grad).check_point(limit)


def test_hessvec_is_checked_against_the_gradient_once():
    V = np.random.default_rng(4).standard_normal((6, 2))
    good = SmoothProblem(f, grad, hessvec=lambda X, V: A @ V)
    np.testing.assert_allclose(good.hessvec(X0, V), A @ V)
    with pytest.raises(ValueError, match="hessvec does not match grad at X: .*hessvec\\(X, D\\)"):
        SmoothProblem(f, grad, hessvec=lambda X, V: 2.0 * (A @ V)).hessvec(X0, V)
    with pytest.raises(ValueError, match="hessvec\\(X, call 1\\) has shape"):
        SmoothProblem(f, grad, hessvec=lambda X, V: V[:, :1]).hessvec(X0, V)
    assert SmoothProblem(f, grad).hessvec is None
    unchecked = SmoothProblem(f, grad, hessvec=lambda X, V: 2.0 * (A @ V), check_derivatives=False)
    np.testing.assert_allclose(unchecked.hessvec(X0, V), 2.0 * A @ V)
