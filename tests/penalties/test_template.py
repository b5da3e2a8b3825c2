"""The template penalty (``obcd_lite.penalties.template.AsymmetricL1``) held to the independent brute force:
copy this test with the template when you add a penalty (``docs/adding_a_penalty.md``)."""
import numpy as np
import pytest

from obcd_lite import brute_force_2x2, obcd, solve_2x2_full, sparse_pca
from obcd_lite.penalties import L1, penalty_by_name, registered_name
from obcd_lite.penalties.template import AsymmetricL1
from obcd_lite.problems import randn_covariance
from obcd_lite.stiefel import random_start
from obcd_lite.subproblem.reference import reference_2x2

H = AsymmetricL1(0.6, neg_weight=0.3)


def _instance(rng, r=3):
    A = rng.standard_normal((4, 4))
    return A + A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, r))


def test_the_value_is_the_formula():
    M = np.array([[1.0, -2.0], [0.0, 0.5]])
    assert H(M) == pytest.approx(0.6 * (1.0 + 0.5) + 0.3 * 0.6 * 2.0)


@pytest.mark.parametrize("seed", range(12))
def test_the_breakpoint_search_and_the_reference_match_the_brute_force(seed):
    rng = np.random.default_rng(seed)
    Qt, P, Z = _instance(rng)
    if seed % 3 == 0:
        Z[0, 1] = 0.0                               # an exact zero entry: y_i = 0 on one circle
    brute = brute_force_2x2(Qt, P, Z, H).value
    search = solve_2x2_full(Qt, P, Z, H).value      # no sweep_kind: the vectorized search over pieces()
    reference = reference_2x2(Qt, P, Z, H).value    # entry_piece
    # the brute force samples a grid and refines: it can only be above the true minimum (to rounding)
    assert search <= brute + 1e-9 and search == pytest.approx(brute, abs=1e-7)
    assert reference == pytest.approx(search, abs=1e-12, rel=1e-12)


def test_neg_weight_one_is_l1():
    rng = np.random.default_rng(5)
    for _ in range(5):
        Qt, P, Z = _instance(rng)
        assert solve_2x2_full(Qt, P, Z, AsymmetricL1(0.4, 1.0)).value == pytest.approx(
            solve_2x2_full(Qt, P, Z, L1(0.4)).value, abs=1e-12)


def test_prox_and_subdifferential():
    M = np.array([[1.0, -1.0, 0.05, -0.05, 0.0]])
    t = 0.5
    P = H.prox(M, t)
    # the prox is the minimizer of h(U) + (U - M)^2 / (2 t), entry by entry: compare with a fine grid
    grid = np.linspace(-2, 2, 400_001)
    for j, m in enumerate(M[0]):
        cost = H.elementwise(grid) + (grid - m) ** 2 / (2 * t)
        assert P[0, j] == pytest.approx(grid[np.argmin(cost)], abs=2e-5)
    lo, hi = H.subdifferential(M)
    assert lo[0, 4] == -0.3 * 0.6 and hi[0, 4] == 0.6 and lo[0, 0] == hi[0, 0] == 0.6 and lo[0, 1] == -0.18


def test_it_is_registered_and_obcd_runs_it():
    assert registered_name(H) == "asymmetric_l1"
    assert repr(penalty_by_name("asymmetric_l1", 0.2)) == "AsymmetricL1(lam=0.2, neg_weight=0.5)"
    problem = sparse_pca(randn_covariance(30, 10, rng=1), H)
    X0 = random_start(10, 3, rng=2)
    result = obcd(problem, X0, max_iter=200, rng=3)
    assert result.info["engine"] == "python"
    assert result.F < problem.F(X0) and result.F == pytest.approx(problem.F(result.X), abs=1e-9)


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match="neg_weight"):
        AsymmetricL1(1.0, neg_weight=-1.0)
