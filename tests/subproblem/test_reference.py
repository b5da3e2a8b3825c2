"""The reference search (``subproblem.reference``, plain loops, Appendix B corrected) against the compiled
search OBCD runs (``solve_2x2_full``): the same value on random, tied and zero instances for every
penalty, and the same V where the minimizer is unique; and the reference against the brute force."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obcd_lite import L1, Zero, solve_2x2_full
from obcd_lite.penalties import PENALTY_NAMES, Penalty, penalty_by_name
from obcd_lite.subproblem.brute_force import brute_force_2x2
from obcd_lite.subproblem.reference import breakpoints, circle_coefficients, reference_2x2

PENALTIES = PENALTY_NAMES
_penalty = penalty_by_name  # the one registry (name, lam, tau)


#: Columns for tied instances: exact axis and diagonal directions (parallel, antiparallel, orthogonal).
_DIRECTIONS = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])


@st.composite
def instances(draw):
    """(Qt, P, Z, h): random data; ties (columns of Z along a few exact directions, Qt = varsigma I, P = 0);
    zeros (exact zero entries, zero columns, Z = 0, Qt = 0)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    r = draw(st.integers(1, 5))
    Z = rng.standard_normal((2, r))
    shape = draw(st.sampled_from(["random", "zero entries", "tied", "zero"]))
    if shape == "zero entries":
        Z[rng.random(Z.shape) < 0.4] = 0.0
    elif shape == "tied":
        Z = (_DIRECTIONS[rng.integers(0, len(_DIRECTIONS), r)] * rng.choice([0.0, 0.5, 1.0, 2.0], (r, 1))).T
    elif shape == "zero":
        Z = np.zeros((2, r))
    name = draw(st.sampled_from(PENALTIES))
    if name == "nonneg" and draw(st.booleans()):
        Z = np.abs(Z)  # a feasible current point, as in OBCD
    A = rng.standard_normal((4, 4))
    Qt = {"general": A + A.T, "psd": A @ A.T, "scalar": rng.uniform(0.5, 3.0) * np.eye(4),
          "zero": np.zeros((4, 4))}[draw(st.sampled_from(["general", "psd", "scalar", "zero"]))]
    P = rng.standard_normal((2, 2)) * draw(st.sampled_from([0.0, 0.1, 1.0, 10.0]))
    h = _penalty(name, draw(st.sampled_from([0.05, 0.5, 3.0])), draw(st.sampled_from([0.05, 0.3, 1.0])))
    return Qt, P, np.ascontiguousarray(Z), h


def _unique_minimizer(ref, tol=1e-6) -> bool:
    """Every candidate within tol of the minimum sits at the same V (to 1e-6)."""
    close = [c for c in ref.candidates if c.value <= ref.value + tol * (1.0 + abs(ref.value))]
    return all(c.branch == ref.branch and math.hypot(c.c - ref.V[1, 1], c.s - ref.V[0, 1]) <= 1e-6 for c in close)


@settings(max_examples=300, deadline=None)
@given(instances())
def test_reference_equals_the_compiled_search(inst):
    Qt, P, Z, h = inst
    ref = reference_2x2(Qt, P, Z, h)
    fast = solve_2x2_full(Qt, P, Z, h)
    if math.isinf(fast.value):  # X >= 0 infeasible on both circles
        assert math.isinf(ref.value)
        return
    assert abs(ref.value - fast.value) <= 1e-9 * (1.0 + abs(fast.value))
    # the reference's V is feasible and attains its value
    assert np.allclose(ref.V @ ref.V.T, np.eye(2), atol=1e-14)
    if _unique_minimizer(ref):
        assert fast.branch == ref.branch
        assert np.allclose(fast.V, ref.V, atol=1e-6)


@pytest.mark.parametrize("name", PENALTIES)
@pytest.mark.parametrize("seed", range(4))
def test_reference_against_the_brute_force(name, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((4, 4))
    Qt, P, Z = A @ A.T / 4.0, rng.standard_normal((2, 2)), rng.standard_normal((2, 3))
    if name == "nonneg":
        Z = np.abs(Z)
    h = _penalty(name, 0.5, 0.3)
    ref = reference_2x2(Qt, P, Z, h)
    brute = brute_force_2x2(Qt, P, Z, h)
    assert ref.value <= brute.value + 1e-9
    assert brute.value - ref.value <= 1e-7  # the brute force is a dense grid: it cannot be much higher
    assert ref.value == pytest.approx(min(c.value for c in ref.candidates))


def test_breakpoints_have_the_corrected_sign():
    """The zero crossing of x_i + t y_i is -x_i / y_i (the paper's +x_i / y_i is an erratum)."""
    x, y = np.array([1.0, 0.5, 2.0]), np.array([2.0, 0.0, -1.0])
    assert breakpoints(x, y, L1(1.0)) == [-0.5, 2.0]  # y_2 = 0: no crossing, but the entry stays in h
    assert breakpoints(x, y, Zero()) == []


def test_entries_with_zero_y_are_kept():
    """The paper drops entries with y_i = 0; for l1 that changes the minimum (erratum), the reference keeps them."""
    rng = np.random.default_rng(5)
    A = rng.standard_normal((4, 4))
    Qt, P, Z = A @ A.T / 4.0, rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
    Z[1, 0] = 0.0
    assert reference_2x2(Qt, P, Z, L1(0.5)).value == pytest.approx(solve_2x2_full(Qt, P, Z, L1(0.5)).value, abs=1e-12)


def test_circle_coefficients_match_the_expanded_objective():
    """a c + b s + cq c^2 + d c s + e s^2 is the smooth part of problem (3) at rot / ref (theta)."""
    rng = np.random.default_rng(1)
    A = rng.standard_normal((4, 4))
    Qt, P, Z = A + A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 2))
    for k, branch in enumerate(("rot", "ref")):
        a, b, cq, d, e, x, y = circle_coefficients(Qt, P, Z, branch)
        for theta in np.linspace(0, 6, 7):
            c, s = math.cos(theta), math.sin(theta)
            V = np.array([[c, s], [-s, c]]) if k == 0 else np.array([[-c, s], [s, c]])
            v = V.T.ravel()
            smooth = 0.5 * v @ Qt @ v + np.sum(V * P)
            assert a * c + b * s + cq * c * c + d * c * s + e * s * s == pytest.approx(smooth, abs=1e-12)
            assert np.allclose(c * x + s * y, (V @ Z).ravel())


def test_reference_rejects_a_penalty_it_does_not_know():
    class Mine(Penalty):
        def elementwise(self, U):
            return np.abs(U) ** 0.5

    with pytest.raises(TypeError, match="Mine"):
        reference_2x2(np.eye(4), np.zeros((2, 2)), np.ones((2, 1)), Mine())


def test_reference_searches_a_subclass_as_its_parent():
    class Mine(L1):
        pass

    rng = np.random.default_rng(4)
    A = rng.standard_normal((4, 4))
    Qt, P, Z = A + A.T, rng.standard_normal((2, 2)), rng.standard_normal((2, 3))
    assert reference_2x2(Qt, P, Z, Mine(0.7)).value == reference_2x2(Qt, P, Z, L1(0.7)).value
