"""Honest scoring of the infeasible baselines (SOC, RADMM, PSM): obcd_lite.solvers.infeasible."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.penalties import L0, L1, CappedL1, NonNeg, Penalty, Zero
from obcd_lite.problems import QuadraticProblem, nonneg_pca, randn_covariance, sparse_pca
from obcd_lite.solvers import SOLVERS, psm, radmm, soc
from obcd_lite.solvers.infeasible import (check_prox_penalty, check_start, infeasible_info, nonneg_surrogate,
                                          paper_count_F, progress_score, smooth_lipschitz)
from obcd_lite.stiefel import feasibility, identity_init, random_stiefel
from obcd_lite.validation import UnsupportedProblemError

N, R = 12, 3
C = randn_covariance(20, N, rng=0)
INFEASIBLE = {"soc": soc, "radmm": radmm, "psm": psm}
FAST = {"soc": {"max_iter": 300}, "radmm": {"max_iter": 300}, "psm": {"max_iter": 300}}


class NoProx(Penalty):
    """A user penalty with a value but no proximal map."""

    def elementwise(self, U):
        return np.abs(U) ** 0.5

    def __repr__(self):
        return "NoProx()"


def test_registered():
    for name, solver in INFEASIBLE.items():
        assert SOLVERS[name] is solver


def test_surrogate_as_the_paper_writes_it():
    # Appendix E.1: f(X) + 1000 ||min(0, X)||_F with f = -1/2 <CX, X>, X on St(n, r).
    X = random_stiefel(N, R, rng=1)
    expected = -0.5 * np.trace(X.T @ C @ X) + 1000.0 * np.sqrt(np.sum(np.where(X < 0, X, 0.0) ** 2))
    assert nonneg_surrogate(nonneg_pca(C), X) == pytest.approx(expected, rel=1e-12)
    # on a nonnegative point it is f itself, which F is too
    E = identity_init(N, R)
    assert nonneg_surrogate(nonneg_pca(C), E) == pytest.approx(nonneg_pca(C).F(E), rel=1e-12)


def test_paper_count_counts_entries_above_1e_6():
    X = random_stiefel(N, R, rng=2)
    X[0, 0], X[1, 1], X[2, 2] = 5e-7, -1e-6, 2e-6  # two count as zero, one does not
    problem = sparse_pca(C, L0(0.3))
    expected = -np.trace(X.T @ C @ X) + 0.3 * np.count_nonzero(np.abs(X) > 1e-6)
    assert paper_count_F(problem, X) == pytest.approx(expected, rel=1e-12)
    assert problem.F(X) == pytest.approx(expected + 0.6, rel=1e-12)  # problem.F counts exact nonzeros


def test_progress_score_is_F_where_finite_else_the_surrogate():
    X = random_stiefel(N, R, rng=3)
    problem = sparse_pca(C, L1(0.1))
    assert progress_score(problem, X, problem.F(X)) == problem.F(X)
    nn = nonneg_pca(C)
    assert progress_score(nn, X, nn.F(X)) == nonneg_surrogate(nn, X)


def test_smooth_lipschitz():
    # sparse_pca(C) has f = -tr(X^T C X): grad f = -2 C X, Lipschitz constant 2 ||C||_2.
    assert smooth_lipschitz(sparse_pca(C)) == pytest.approx(2 * np.linalg.eigvalsh(C)[-1], rel=1e-12)
    D = np.diag([3.0, -1.0, 0.5])
    assert smooth_lipschitz(QuadraticProblem(C, D=D)) == pytest.approx(3.0 * np.linalg.eigvalsh(C)[-1], rel=1e-12)


def test_decline_a_penalty_without_prox():
    problem = QuadraticProblem(-C, h=NoProx())
    for name, solver in INFEASIBLE.items():
        with pytest.raises(UnsupportedProblemError, match=r"NoProx\(\).*proximal map"):
            solver(problem, identity_init(N, R))
    with pytest.raises(TypeError, match="Penalty"):
        check_prox_penalty(type("P", (), {"h": None})(), "soc")


def test_check_start():
    X = random_stiefel(N, R, rng=4)
    assert np.array_equal(check_start(nonneg_pca(C), X, "psm"), X)  # h(X0) = inf is allowed
    with pytest.raises(ValueError, match="Stiefel"):
        check_start(nonneg_pca(C), 2 * X, "psm")
    with pytest.raises(ValueError, match="rows"):
        check_start(nonneg_pca(C), identity_init(N - 1, R), "psm")
    with pytest.raises(ValueError, match="r = 2"):
        check_start(QuadraticProblem(C, D=np.eye(2)), X, "psm")


def test_info_fields():
    problem = nonneg_pca(C)
    X = random_stiefel(N, R, rng=5)
    raw = np.maximum(X, 0.0)
    info = infeasible_info(problem, X, raw, returned="X", raw_name="Y", extra=1)
    assert info["on_stiefel"] and info["feasibility"] == feasibility(X)
    assert info["F_raw"] == problem.F(raw) and info["raw_feasibility"] == feasibility(raw)
    assert info["surrogate"] == nonneg_surrogate(problem, X)
    assert info["negative_part"] == pytest.approx(np.linalg.norm(X - raw))
    assert info["split_residual"] == pytest.approx(np.linalg.norm(X - raw)) and info["extra"] == 1
    assert "surrogate" not in infeasible_info(sparse_pca(C, L1(1.0)), X, raw, returned="X", raw_name="Y")


@pytest.mark.parametrize("name", sorted(INFEASIBLE))
@pytest.mark.parametrize("h", [Zero(), L1(0.02), L0(0.002), CappedL1(0.02, 0.1), NonNeg()], ids=repr)
def test_honest_record(name, h):
    """Result.F == problem.F(Result.X) exactly, X on St(n, r); every step the callback sees, and
    every history row, score the point on St(n, r) itself."""
    problem = nonneg_pca(C) if isinstance(h, NonNeg) else sparse_pca(C, h)
    X0 = random_stiefel(N, R, rng=6)
    seen = {}

    def watch(step):
        assert feasibility(step.X) <= 1e-8
        assert step.F == problem.F(step.X)
        seen[step.iteration] = step.F

    res = INFEASIBLE[name](problem, X0, max_iter=60, log_every=7, callback=watch)
    assert feasibility(res.X) <= 1e-8 and res.info["on_stiefel"]
    assert res.F == problem.F(res.X)
    hist = res.history
    assert hist["F"][-1] == res.F or (np.isinf(res.F) and np.isinf(hist["F"][-1]))
    for it, F in zip(hist["iteration"][1:], hist["F"][1:]):
        assert F == seen[it] or (np.isinf(F) and np.isinf(seen[it]))
    assert res.info["F_raw"] == problem.F(res.info["raw"])


@pytest.mark.parametrize("name", sorted(INFEASIBLE))
def test_raw_iterate_looks_better_but_the_record_reports_the_returned_point(name):
    """l0: the structured copy (SOC's Q, the Y of RADMM / PSM) has exact zeros, the point on
    St(n, r) has none, so F(raw) is far below F(X); the record shows F(X)."""
    lam = 0.005
    problem = sparse_pca(C, L0(lam))
    res = INFEASIBLE[name](problem, random_stiefel(N, R, rng=7), **FAST[name])
    assert np.count_nonzero(res.X) == N * R  # a polar factor: no exact zeros
    assert res.info["F_raw"] < res.F - lam  # the raw copy would look better by at least one entry
    assert res.F == problem.F(res.X) == pytest.approx(problem.f(res.X) + lam * N * R)
    assert res.history["F"][-1] == res.F
    assert res.info["F_paper_count"] <= res.F  # the paper's 1e-6 count, labelled, beside it


@pytest.mark.parametrize("name", sorted(INFEASIBLE))
def test_nonneg_reports_inf_and_the_surrogate(name):
    """X >= 0: the returned point has tiny negative entries, so F = inf honestly; the raw copy is
    nonnegative (finite F) and the paper's surrogate is reported beside it."""
    problem = nonneg_pca(C)
    res = INFEASIBLE[name](problem, identity_init(N, R), **FAST[name])
    assert res.F == problem.F(res.X) == np.inf
    assert np.all(np.isinf(res.history["F"][1:]))
    assert np.isfinite(res.info["F_raw"]) and res.info["F_raw"] < res.F
    assert res.info["surrogate"] == pytest.approx(problem.f(res.X) + 1000 * res.info["negative_part"])
    assert np.allclose(res.history["surrogate"][-1], res.info["surrogate"])
