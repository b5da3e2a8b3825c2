"""The breakpoint stepper's pure compute (obcd_lite.teaching.breakpoint: the reference search stage by stage), with the brute force."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obcd_lite import L0, NonNeg
from obcd_lite.subproblem.breakpoint import solve_2x2_full
from obcd_lite.subproblem.brute_force import brute_force_2x2, objective_at
from obcd_lite.teaching.breakpoint import STAGES, stage_rows, stepper_penalty, stepper_state
from obcd_lite.teaching.instances import random_instance

PENALTIES = ["zero", "l0", "l1", "capped_l1", "nonneg"]


def _V(branch, c, s):
    return np.array([[c, s], [-s, c]]) if branch == 0 else np.array([[-c, s], [s, c]])


def test_direct_objective_matches_a_hand_computation():
    Qt, P, Z = np.diag([1.0, 2.0, 3.0, 4.0]), np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 0.0], [0.0, -2.0]])
    V = np.array([[0.0, 1.0], [-1.0, 0.0]])  # rot(pi/2): vec = (0, -1, 1, 0)
    want = 0.5 * (2.0 + 3.0) + (2.0 - 3.0) + 0.5 * (1.0 + 2.0)  # + L1(0.5) of VZ = [[0,-2],[-1,0]]
    assert objective_at(Qt, P, Z, stepper_penalty("l1"), V) == pytest.approx(want)


@settings(deadline=None)
@given(seed=st.integers(0, 10**6), penalty=st.sampled_from(PENALTIES))
def test_brute_force_agrees_with_the_solver(seed, penalty):
    h = stepper_penalty(penalty)
    Qt, P, Z = random_instance(seed, nonneg=isinstance(h, NonNeg))
    assert brute_force_2x2(Qt, P, Z, h, grid=6000).value == pytest.approx(solve_2x2_full(Qt, P, Z, h).value,
                                                                             abs=1e-7)


@settings(deadline=None)
@given(seed=st.integers(0, 10**6), penalty=st.sampled_from(PENALTIES))
def test_candidate_values_are_the_objective_at_their_point(seed, penalty):
    h = stepper_penalty(penalty)
    state = stepper_state(seed, penalty, 1)
    Qt, P, Z = state["instance"]
    cs = state["candidates"]  # the reference search's
    for j in np.nonzero(np.isfinite(cs.value))[0]:
        direct = objective_at(Qt, P, Z, h, _V(cs.branch[j], cs.c[j], cs.s[j]))
        assert direct == pytest.approx(cs.value[j], abs=1e-9)


def test_brute_force_sees_exact_zeros_for_l0():
    # the L0 minimum sits on an isolated angle; a grid alone would miss it by lam
    Qt, P, Z = random_instance(0)
    h = L0(0.3)
    assert brute_force_2x2(Qt, P, Z, h, grid=500).value == pytest.approx(solve_2x2_full(Qt, P, Z, h).value,
                                                                            abs=1e-9)


@pytest.mark.parametrize("penalty", PENALTIES)
def test_stepper_state_grows_stage_by_stage(penalty):
    keys = [stepper_state(3, penalty, k).keys() for k in range(len(STAGES))]
    assert "candidates" not in keys[0] and "candidates" in keys[1]
    assert "curves" not in keys[1] and "curves" in keys[2]
    assert "brute" not in keys[2] and "brute" in keys[3]
    last = stepper_state(3, penalty, 3)
    assert last["chosen"]["value"] == pytest.approx(last["solver_value"], abs=1e-12)
    assert last["brute"].value == pytest.approx(last["chosen"]["value"], abs=1e-7)
    assert sum(last["counts"].values()) == len(last["candidates"].value)
    assert [r["what"] for r in stage_rows(last)["outcome"]] == ["candidates", "chosen", "brute force"]


def test_stage_rows_grow_with_the_stage():
    rows = [stage_rows(stepper_state(0, "l1", k)) for k in range(len(STAGES))]
    assert [len(r["outcome"]) for r in rows] == [0, 1, 1, 3]
    assert rows[0]["caption"] == "seed 0, h = L1(lam=0.5), stage 0: coefficients"
    # one row per branch, eq. (1-D)'s coefficients signed at 4 decimals (rounding.fmt): the same on every CPU
    co = stepper_state(0, "l1", 0)["coefficients"]
    assert [r["branch"] for r in rows[0]["coefficients"]] == ["rot", "ref"]
    assert rows[0]["coefficients"][1]["w"] == f"{co['w'][1]:+.4f}"
    last = stepper_state(0, "l1", 3)
    chosen = rows[3]["outcome"][1]["value"]
    assert chosen.startswith(f"{last['chosen']['branch']}, sigma = {last['chosen']['sigma']:+d}, ")
    assert chosen.endswith(f"value {last['chosen']['value']:.6f}")
    assert rows[3]["outcome"][2]["value"].endswith("(|gap| < 1e-7: True)")


def test_stepper_rejects_bad_input():
    with pytest.raises(ValueError, match="stage"):
        stepper_state(0, "l1", 4)
    with pytest.raises(ValueError, match="penalty"):
        stepper_state(0, "l2", 0)


def test_curves_pass_through_the_candidates():
    st_ = stepper_state(1, "capped_l1", 2)
    cs = st_["candidates"]
    for j in np.nonzero((cs.sigma != 0) & np.isfinite(cs.value) & (np.abs(cs.t) < 5))[0]:
        t, v = st_["curves"][(("rot", "ref")[int(cs.branch[j])], int(cs.sigma[j]))]
        assert np.interp(cs.t[j], t, v) == pytest.approx(cs.value[j], abs=2e-2)


def test_random_instance_takes_a_seed_or_a_generator():
    first = random_instance(7)
    again = random_instance(np.random.default_rng(7))
    for u, v in zip(first, again):
        np.testing.assert_array_equal(u, v)
    assert stepper_state(np.random.default_rng(7), "l1", 0)["seed"] is None


def test_curves_include_h():
    """The stage-2 curves are the objective of problem (3), h included (not only p(t) + e)."""
    st_ = stepper_state(0, "l1", 2)
    Qt, P, Z = st_["instance"]
    t, v = st_["curves"][("rot", 1)]
    smooth = stepper_state(0, "zero", 2)["curves"][("rot", 1)][1]
    assert np.all(v - smooth > 0)  # L1(0.5) of V Z is positive off its zeros


def test_candidates_lie_on_the_curves_or_below_for_l0():
    """Each finite candidate value is the curve's value at its t, except l0 breakpoints, which
    are lower: h is lower semicontinuous (at a crossing the entry counts as zero)."""
    for penalty in ("l1", "l0"):
        st_ = stepper_state(0, penalty, 2)
        cs = st_["candidates"]
        for j in np.nonzero((cs.sigma != 0) & np.isfinite(cs.value) & (np.abs(cs.t) < 5))[0]:
            t, v = st_["curves"][(("rot", "ref")[int(cs.branch[j])], int(cs.sigma[j]))]
            near = np.interp(cs.t[j], t, v)
            if penalty == "l0" and cs.kind[j] == "break":
                assert cs.value[j] <= near + 1e-9
            else:
                assert near == pytest.approx(cs.value[j], abs=2e-2)
