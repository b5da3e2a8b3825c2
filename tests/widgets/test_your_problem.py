"""Notebook 08's explorer driven in-process: redraws, messages for declines, the cache."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")

from obcd_lite.widgets.your_problem import build_explorer  # noqa: E402


def test_widget_redraws_and_reports_declines():
    ex = build_explorer(problem="factorization", penalty_name="nonneg", max_iter=1000)
    assert ex.state["redraws"] == 1 and ex.state["error"] is None
    text_before = ex.state["value"].summary()
    ex.controls["lam"].value = 0.001  # unused with X >= 0: cached run, new text
    assert ex.state["redraws"] == 2 and ex.state["value"].summary() != text_before
    ex.controls["solver"].value = "rsubgrad"
    assert "rsubgrad declines" in ex.state["error"]
    ex.controls["penalty_name"].value = "l1"
    assert ex.state["error"] is None and ex.state["value"].solver == "rsubgrad"
    ex.controls["problem"].value = "quartic"
    ex.controls["penalty_name"].value = "nonneg"  # the quartic's random start has negative entries
    assert "infeasible" in ex.state["error"]


def test_default_budget_is_the_texts_and_shows_the_level_section_7_reports():
    """Issue 35: opened on the quartic with l1 at its old default (10,000 pair steps) the explorer said
    "strongest level: none" where Section 7 says "BS2 but not critical"; its default is now the budget of
    the notebook's own runs (PENALIZED_BUDGET with h, SMOOTH_BUDGET without)."""
    from obcd_lite.teaching.your_problem import PENALIZED_BUDGET, SMOOTH_BUDGET
    from obcd_lite.widgets.your_problem import AS_IN_THE_TEXT, text_budget

    assert text_budget("quartic", "l1") == PENALIZED_BUDGET["quartic"]
    assert text_budget("classifier", "none") == SMOOTH_BUDGET["classifier"]
    with pytest.raises(ValueError, match="problem = 'cubic'"):
        text_budget("cubic", "l1")
    ex = build_explorer(problem="quartic", penalty_name="l1", lam=0.01)
    assert ex.controls["max_iter"].value == AS_IN_THE_TEXT and ex.state["error"] is None
    e = ex.state["value"]
    assert e.iterations == PENALIZED_BUDGET["quartic"]
    c = e.classification
    assert c.strongest == "BS2" and c.bs[2] and not c.critical
    ex.controls["max_iter"].value = 1000  # an explicit budget is still the user's
    assert ex.state["value"].iterations == 1000


def test_obcd_is_stuck_at_the_bs2_not_critical_point():
    """Notebook 08, Section 7: the quartic's l1 output (BS2, not critical) is where OBCD stops: more pair steps
    with fresh random blocks leave F and X unchanged and the residual far from zero."""
    import numpy as np

    from obcd_lite import classify, obcd
    from obcd_lite.teaching.your_problem import PENALIZED_BUDGET, instance, penalty
    from obcd_lite.teaching.your_problem import SCALAR_Q

    inst = instance("quartic", 0)
    problem = inst.smooth(penalty("l1", 0.01), bound=False)
    X = obcd(problem, inst.X0, max_iter=PENALIZED_BUDGET["quartic"], rng=0, **SCALAR_Q).X  # as notebook 08 runs
    c = classify(problem, X, ks=(2,), zero_tol=1e-10)
    assert c.bs[2] and not c.critical and c.residual.value > 1e-3
    for seed in (1, 2):
        more = obcd(problem, X, max_iter=3000, rng=seed, **SCALAR_Q)
        assert abs(more.F - problem.F(X)) <= 1e-12 and np.linalg.norm(more.X - X) <= 1e-12
    # the check can fail: from the start, the same number of steps moves F
    assert problem.F(inst.X0) - obcd(problem, inst.X0, max_iter=3000, rng=1, **SCALAR_Q).F > 1e-3
