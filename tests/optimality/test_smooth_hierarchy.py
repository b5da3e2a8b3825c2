"""The hierarchy on any smooth f: residual, critical, BS_k with the scalar majorizer, the global level only with
a certificate ("not decided" otherwise)."""
import numpy as np
import pytest

from obcd_lite import L1, SmoothProblem, classify, obcd, random_stiefel, riemannian_residual
from obcd_lite.optimality import block_report, global_minimum
from obcd_lite.problems import randn_covariance, sparse_pca
from obcd_lite.stiefel import polar
from obcd_lite.teaching.your_problem import PROBLEM_NAMES, instance, quartic_energy
from obcd_lite.validation import UnsupportedProblemError

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


def test_certificates_of_a_quadratic_as_callables_equal_the_quadratic_ones():
    qp = sparse_pca(randn_covariance(20, 6, rng=2), L1(0.02))
    sp = SmoothProblem(qp.f, qp.grad, h=qp.h, L=qp.lipschitz())
    X = obcd(qp, random_stiefel(6, 2, rng=1), rng=0, max_iter=3000).X
    assert abs(riemannian_residual(sp, X) - riemannian_residual(qp, X)) <= 1e-12
    a = block_report(sp, X, Q="scalar")
    b = block_report(qp, X, Q="lipschitz")
    assert a.gaps.keys() == b.gaps.keys()
    assert max(abs(a.gaps[B] - b.gaps[B]) for B in a.gaps) <= 1e-12
    with pytest.raises(UnsupportedProblemError, match="eq. \\(9\\)"):
        block_report(sp, X, Q="exact")


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("bound", [True, False])
def test_obcd_limits_on_the_quartic_are_critical_and_bs2(seed, bound):
    inst = quartic_energy(n=8, r=2, rng=seed)
    problem = inst.smooth(bound=bound)
    X = obcd(problem, inst.X0, rng=seed, max_iter=15_000).X
    c = classify(problem, X, ks=(2,))
    assert c.critical and c.bs[2]
    assert c.is_global is None and "not decided" in c.global_note
    assert "not decided" in c.summary()


@pytest.mark.parametrize("name", PROBLEM_NAMES)
def test_obcd_limits_of_notebook_08_are_critical_and_bs2(name):
    inst = instance(name, 0)
    problem = inst.smooth(bound=False)
    # the classifier's cross-entropy is flat near its minimum: OBCD needs more pair steps there
    X = obcd(problem, inst.X0, rng=0, max_iter=40_000 if name == "classifier" else 20_000).X
    c = classify(problem, X, ks=(2,))
    assert c.critical and c.bs[2] and c.strongest == "BS2"


def test_a_non_stationary_point_is_neither():
    inst = quartic_energy(n=8, r=2, rng=0)
    c = classify(inst.smooth(), inst.X0, ks=(2,))
    assert not c.critical and not c.bs[2]


def test_global_level_needs_a_bound():
    inst = quartic_energy(n=4, r=1, rng=0)
    with pytest.raises(UnsupportedProblemError, match="Lipschitz bound"):
        global_minimum(inst.smooth(bound=False))
    c = classify(inst.smooth(bound=False), obcd(inst.smooth(bound=False), inst.X0, rng=0, max_iter=2000).X)
    assert c.is_global is None and c.global_min is None and "give L=" in c.global_note


def _sphere_grid_min(problem, points=400):
    """min F over a fine grid of the unit sphere S^2 = St(3, 1) (an independent reference)."""
    theta, phi = np.meshgrid(np.linspace(0, np.pi, points), np.linspace(0, 2 * np.pi, 2 * points))
    xyz = np.stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta)], -1).reshape(-1, 3)
    return min(problem.F(x[:, None]) for x in xyz)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_global_certificate_with_a_bound_brackets_the_grid_minimum(seed):
    inst = quartic_energy(n=3, r=1, rng=seed)
    problem = inst.smooth()
    g = global_minimum(problem, tol=1e-3, rng=0)
    grid = _sphere_grid_min(problem)
    assert g.certified
    assert g.lower_bound <= grid + 1e-9
    assert g.value <= grid + 1e-9  # the search's point is at least as good as every grid point
    X = obcd(problem, polar(np.ones((3, 1))), rng=0, max_iter=2000).X
    c = classify(problem, X, global_min=g)
    assert c.levels["global"] == (problem.F(X) <= g.lower_bound + 1e-3)


def test_the_scale_uses_the_lipschitz_estimate_too():
    """Issue 34: the tolerances are relative to S = L_f + lam (L_f proven or estimated), so an OBCD limit of the
    quartic energy (||grad f|| = 7e-3, residual 2.5e-8) is critical whether L is proven or estimated; without
    L_f in S (tol 2 ||grad f|| = 1.5e-8) the estimated problem called it not critical."""
    tiny = quartic_energy(n=4, r=1, rng=0)
    verdicts = []
    for problem in (tiny.smooth(), tiny.smooth(bound=False)):
        X = obcd(problem, tiny.X0, rng=0, max_iter=3000).X
        c = classify(problem, X, global_search=False)
        assert c.tolerances["scale"] == pytest.approx(problem.lipschitz())
        G = problem.grad(X)  # the critical tolerance counts L_f (S) beside ||grad f||, proven or estimated:
        assert c.tolerances["critical"] == pytest.approx(1e-6 * (problem.lipschitz() + np.linalg.norm(G)))
        verdicts.append((c.critical, c.bs[2]))
    assert verdicts == [(True, True), (True, True)]
