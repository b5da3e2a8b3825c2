"""Issue 34: every solver's defaults are relative to the problem's scale S = L_f (``results.problem_scale``).

The problem s P = (s f, s h) (C and the penalty's lam both times s) must give the same run up to the
factor s over the accepted data range: F(result on s P) / s equals F(result on P) to rounding, and no
solver returns X0 at one scale where it moves at scale 1. A solver that cannot handle an input declines
it by name (n = 0 or r = 0 for the methods whose setup needs L_f or a Newton system).
"""
import re

import numpy as np
import pytest

from obcd_lite.penalties import L0, L1, CappedL1, NonNeg
from obcd_lite.problems import QuadraticProblem
from obcd_lite.results import problem_scale
from obcd_lite.solvers import SOLVERS
from obcd_lite.solvers.obcd import PAPER_ALPHA, default_alpha

SCALES = (1e-20, 1e-8, 1e8, 1e20)
#: Budgets short enough for two busy cores, long enough for every method to move well away from X0.
BUDGETS = {"obcd": 400, "obcd_rot": 400, "obcd_step": 400, "rcd": 400, "cayley": 40, "manpg": 40,
           "manpg_ada": 40, "rsubgrad": 60, "soc": 200, "radmm": 400, "psm": 150}
#: The solvers that take an l1 penalty (rcd and obcd_step are smooth-only).
WITH_L1 = sorted(set(BUDGETS) - {"rcd", "obcd_step"})
LAM = 0.5


def _data(seed=0, n=7, r=3):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((10, n))
    C = -(A.T @ A)
    return (C + C.T) / 2, np.linalg.qr(rng.standard_normal((n, r)))[0]


def _run(name, C, X0, s, lam):
    problem = QuadraticProblem(s * C, h=L1(lam * s) if lam else None)
    return problem, SOLVERS[name](problem, X0, max_iter=BUDGETS[name], rng=3)


CASES = [(name, 0.0) for name in sorted(BUDGETS)] + [(name, LAM) for name in WITH_L1]


@pytest.mark.parametrize("name, lam", CASES, ids=[f"{n}-{'l1' if lam else 'zero'}" for n, lam in CASES])
def test_scaled_problem_gives_the_same_run(name, lam):
    C, X0 = _data()
    problem, base = _run(name, C, X0, 1.0, lam)
    F0 = problem.F(X0)
    assert base.F < F0 - 1e-3 * abs(F0), f"{name} does not move at scale 1: the test needs a run that does"
    for s in SCALES:
        scaled_problem, scaled = _run(name, C, X0, s, lam)
        assert scaled.F / s == pytest.approx(base.F, rel=1e-7), (name, s, scaled.F / s, base.F)
        assert not np.array_equal(scaled.X, X0), (name, s)
        assert scaled.stop_reason == base.stop_reason, (name, s)
        assert scaled_problem.F(X0) / s == pytest.approx(F0, rel=1e-12)


def test_problem_scale_is_homogeneous_and_positive():
    C, _ = _data()
    S = problem_scale(QuadraticProblem(C))
    assert S == pytest.approx(np.linalg.norm(C, 2), rel=1e-12)
    for s in SCALES:
        assert problem_scale(QuadraticProblem(s * C)) == pytest.approx(s * S, rel=1e-12)
    # f constant (C = 0): no curvature to measure the scale by; the defaults fall back to S = 1
    assert problem_scale(QuadraticProblem(np.zeros((3, 3)))) == 1.0


def test_default_alpha_is_relative_to_the_scale():
    C, _ = _data()
    for s in (1.0, *SCALES):
        problem = QuadraticProblem(s * C, h=L1(s))
        assert default_alpha(problem) == pytest.approx(PAPER_ALPHA * s * np.linalg.norm(C, 2), rel=1e-12)


@pytest.mark.parametrize("name", ["manpg", "manpg_ada", "psm", "soc", "radmm"])
@pytest.mark.parametrize("shape", [(0, 0), (4, 0)])
def test_empty_problem_is_refused_by_name(name, shape):
    problem = QuadraticProblem(np.eye(shape[0]))
    with pytest.raises(ValueError, match=rf"{name}.*n >= 1 and r >= 1.*{re.escape(str(shape))}"):
        SOLVERS[name](problem, np.zeros(shape), max_iter=3)


#: More penalties whose weight scales with the problem (CappedL1's tau is a threshold on X: it does not).
MORE = {"l0": (lambda s: L0(0.3 * s), ("obcd", "obcd_rot", "soc", "radmm", "psm")),
        "capped": (lambda s: CappedL1(0.5 * s, 0.1), ("obcd", "obcd_rot", "soc", "radmm", "psm", "rsubgrad", "cayley")),
        "nonneg": (lambda s: NonNeg(), ("obcd", "obcd_rot"))}
MORE_CASES = [(penalty, name) for penalty, (_, names) in MORE.items() for name in names]


@pytest.mark.parametrize("penalty, name", MORE_CASES, ids=[f"{n}-{p}" for p, n in MORE_CASES])
def test_scaled_problem_gives_the_same_run_with_other_penalties(penalty, name):
    C, X0 = _data()
    if penalty == "nonneg":
        X0 = np.eye(C.shape[0])[:, :3]  # a feasible start for X >= 0
    make = MORE[penalty][0]
    base = SOLVERS[name](QuadraticProblem(C, h=make(1.0)), X0, max_iter=BUDGETS[name], rng=3)
    assert base.F < QuadraticProblem(C, h=make(1.0)).F(X0) - 1e-3
    for s in SCALES:
        scaled = SOLVERS[name](QuadraticProblem(s * C, h=make(s)), X0, max_iter=BUDGETS[name], rng=3)
        assert scaled.F / s == pytest.approx(base.F, rel=1e-7), (name, penalty, s)
        assert scaled.stop_reason == base.stop_reason
