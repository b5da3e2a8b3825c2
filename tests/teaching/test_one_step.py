"""The instructor's one-step computations (obcd_lite.teaching.one_step), each against an independent check."""
import numpy as np
import pytest

from obcd_lite import L1, random_stiefel, sparse_pca
from obcd_lite.penalties import L0
from obcd_lite.subproblem import block_data, majorizer_value
from obcd_lite.subproblem.brute_force import brute_force_2x2
from obcd_lite.teaching.one_step import final_values_over_starts, majorizer_curves, one_obcd_step, sphere_paths


def instance(n, r, h, seed):
    g = np.random.default_rng(seed)
    A = g.standard_normal((3 * n, n))
    return sparse_pca(A.T @ A / (3 * n), h), random_stiefel(n, r, g)


PENALTIES = [None, L1(0.3), L0(0.05)]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("h", PENALTIES)
def test_one_step_changes_rows_b_only_and_solves_problem_3(seed, h):
    problem, X = instance(5, 2, h, seed)
    B = (1, 3)
    step = one_obcd_step(problem, X, B)
    others = [i for i in range(5) if i not in B]
    np.testing.assert_array_equal(step["X_after"][others], X[others])
    np.testing.assert_allclose(step["X_after"][list(B)], step["V"] @ X[list(B)], atol=1e-12)
    np.testing.assert_allclose(step["X_after"].T @ step["X_after"], np.eye(2), atol=1e-12)
    assert step["F_after"] <= step["F_before"] + 1e-12
    # the V found is as good as a dense brute force over O(2)
    Qt, P, Z = block_data(problem, X, problem.grad(X), list(B), 1e-5, "exact")
    # the solver's rows V Z carry exact zeros where an entry vanishes (the zero rule; l0 counts them)
    value = majorizer_value(Qt, P, step["V"], step["X_after"][list(B)], problem.h)
    assert value <= brute_force_2x2(Qt, P, Z, problem.h).value + 1e-9


def test_bad_block_is_named():
    problem, X = instance(4, 2, None, 0)
    with pytest.raises(ValueError, match=r"got \[1, 1\]"):
        one_obcd_step(problem, X, (1, 1))


@pytest.mark.parametrize("n, seed", [(3, 0), (5, 1), (6, 2)])
@pytest.mark.parametrize("h", PENALTIES[:2])
def test_majorizer_lies_above_f_and_touches_at_identity(n, seed, h):
    problem, X = instance(n, 2, h, seed)
    curves = majorizer_curves(problem, X, (0, n - 1), samples=181)
    for Q, K in curves["K"].items():
        for branch in ("rot", "ref"):
            assert np.all(K[branch] >= curves["F"][branch] - 1e-10), (Q, branch)
        assert K["rot"][0] == pytest.approx(curves["F_X"], abs=1e-12) == curves["F"]["rot"][0]
    # exact Q on a quadratic f: K - F is the proximal term alpha/2 ||V - I||^2 (4 alpha on reflections)
    np.testing.assert_allclose(curves["K"]["exact"]["ref"] - curves["F"]["ref"], 2e-5, atol=1e-9)


def test_sphere_paths_stay_on_the_sphere_and_obcd_turns_one_plane_a_step():
    g = np.random.default_rng(4)
    A = g.standard_normal((9, 3))
    C = A.T @ A / 9
    paths = sphere_paths(sparse_pca(C), random_stiefel(3, 1, g), iterations=30)
    for name in ("obcd", "cayley"):
        np.testing.assert_allclose(np.linalg.norm(paths[name], axis=1), 1.0, atol=1e-12)
        assert np.all(np.diff(paths["F"][name]) <= 1e-12)
    moved = np.abs(np.diff(paths["obcd"], axis=0)) > 1e-14
    assert np.all(moved.sum(axis=1) <= 2)  # one pair of rows (coordinates) per step
    assert len(paths["obcd"]) == 31
    # h = 0, r = 1: the minimum is minus the largest eigenvalue of C (Rayleigh), and OBCD reaches it
    assert paths["F"]["obcd"][-1] == pytest.approx(-np.linalg.eigvalsh(C)[-1], abs=1e-8)


def test_final_values_over_starts_uses_the_same_starts():
    problem, _ = instance(4, 2, L1(0.2), 0)
    out = final_values_over_starts(problem, 4, 2, solvers=("obcd", "obcd"), starts=3, max_iter=300)
    assert out["final"]["obcd"].shape == (3,) and out["best"] == out["final"]["obcd"].min()
    assert 1 <= out["at_best"]["obcd"] <= 3
    with pytest.raises(ValueError, match="starts must be >= 1"):
        final_values_over_starts(problem, 4, 2, starts=0)
