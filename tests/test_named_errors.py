"""Issue 34's fuzz defects: bad input gets a named error (the argument and its value), never a bare numpy or
Python message ("cannot unpack NoneType", "range() arg 3 must not be zero", "SCIP: error in input data!")
nor a silent answer. One test per case."""
import numpy as np
import pytest

from obcd_lite import L1, QuadraticProblem, randn_covariance, sparse_pca
from obcd_lite.data import load_dataset
from obcd_lite.optimality import global_minimum
from obcd_lite.penalties import count_nonzeros
from obcd_lite.subproblem import majorizer_value
from obcd_lite.subproblem.brute_force import brute_force_2x2
from obcd_lite.teaching.instances import tiny_problem
from obcd_lite.solvers.obcd import working_sets
from obcd_lite.stiefel import random_stiefel
from obcd_lite.validation import check_count, check_nonnegative


@pytest.fixture(scope="module")
def pca3():
    return sparse_pca(randn_covariance(8, 3, rng=0))


# --- global_minimum: starts, chunk and the budgets -------------------------------------------------------

@pytest.mark.parametrize("name, value, error", [
    ("starts", 0, ValueError), ("starts", -1, ValueError), ("starts", 1.5, ValueError), ("starts", True, ValueError),
    ("chunk", 0, ValueError), ("chunk", 2.0, ValueError),
    ("max_boxes", 0, ValueError), ("max_boxes", -3, ValueError), ("max_boxes", float("nan"), ValueError),
    ("max_boxes", "x", TypeError), ("max_boxes", None, TypeError),
    ("max_nodes", 0, ValueError), ("max_nodes", "many", TypeError),
])
def test_global_minimum_budgets_are_named(pca3, name, value, error):
    with pytest.raises(error, match=f"{name} must be a positive integer, got {name} = {value!r}"):
        global_minimum(pca3, r=1, **{name: value})


@pytest.mark.parametrize("time_limit", [0, -1.0, float("nan")])
def test_global_minimum_time_limit_is_named(pca3, time_limit):
    with pytest.raises(ValueError, match="time_limit must be finite and > 0"):
        global_minimum(pca3, r=1, time_limit=time_limit)


@pytest.mark.parametrize("scale", [1e-20, 1e25, 1e60])
def test_scip_takes_any_accepted_scale(scale):
    """C >= 1e25 (or lam >= 1e20) made SCIP stop with "error in input data!" (its infinity is 1e20) while the
    package accepts data up to 1e100: SCIP now gets F / sigma, and the certificate of s F is s times that of F."""
    problem = tiny_problem(4, "l1", 0.1, 0)
    base = global_minimum(problem, r=2, rng=0, backend="scip", max_nodes=5000)
    scaled = QuadraticProblem(scale * problem.C, h=L1(scale * problem.h.lam))
    g = global_minimum(scaled, r=2, rng=0, backend="scip", max_nodes=5000, tol=1e-3 * scale)
    assert base.certified and g.certified and g.method.startswith("SCIP")
    assert g.lower_bound / scale == pytest.approx(base.lower_bound, rel=1e-6)
    assert g.lower_bound <= g.value and g.value / scale <= base.value + 1e-3


def test_scip_takes_a_huge_lam():
    problem = QuadraticProblem(tiny_problem(4, "l1", 0.1, 0).C, h=L1(1e20))
    g = global_minimum(problem, r=2, rng=0, backend="scip", max_nodes=5000, tol=1e17)
    # each unit column has ||x||_1 >= 1, so F >= 2 lam - ||C||_2; a coordinate pair attains about 2 lam
    assert g.certified and 2e20 * (1 - 1e-9) <= g.value and g.lower_bound <= g.value


# --- data: spiked strengths (D10) and sizes (D13) ---------------------------------------------------------

@pytest.mark.parametrize("strengths, message", [
    (np.nan, r"strengths must be finite and > 0, got strengths = \[nan, nan\]"),
    (np.inf, r"strengths must be finite and > 0, got strengths = \[inf, inf\]"),
    ((30.0, -np.inf), r"strengths must be finite and > 0, got strengths = \[30.0, -inf\]"),
    ((30.0, 0.0), r"strengths must be finite and > 0, got strengths = \[30.0, 0.0\]"),
    ((30.0, 15.0, np.nan), r"one per spike \(spikes = 2\), got 3: strengths = \[30.0, 15.0, nan\]"),
    ((), r"one per spike \(spikes = 2\), got 0"),
])
def test_spiked_strengths_are_named(strengths, message):
    with pytest.raises(ValueError, match=message):
        load_dataset("spiked", n=20, strengths=strengths)


def test_spiked_default_strengths_follow_the_spikes():
    assert load_dataset("spiked", n=20).metadata["strengths"] == (30.0, 15.0)
    assert load_dataset("spiked", n=1).metadata["strengths"] == (30.0,)
    assert load_dataset("spiked", n=30, spikes=3).metadata["strengths"] == (30.0, 15.0, 15.0)


@pytest.mark.parametrize("size, value, error", [
    ("m", float("nan"), ValueError), ("n", float("inf"), ValueError), ("n", "abc", TypeError), ("m", "3", TypeError),
    ("m", 2.5, ValueError), ("m", True, ValueError), ("n", 0, ValueError), ("m", -4, ValueError),
])
def test_load_dataset_sizes_are_named(size, value, error):
    with pytest.raises(error, match=f"{size} must be a positive integer or None, got {size} = {value!r}"):
        load_dataset("randn", **{size: value})


@pytest.mark.parametrize("option, value, error", [
    ("spikes", 0, ValueError), ("spikes", True, ValueError), ("spikes", 1.0, ValueError),
    ("support_size", 0, ValueError), ("support_size", "5", TypeError),
])
def test_spiked_sizes_are_named(option, value, error):
    with pytest.raises(error, match=f"{option} must be a positive integer, got {option} = {value!r}"):
        load_dataset("spiked", n=20, **{option: value})


# --- majorizer_value (D11), the brute force's grid (D12), count_nonzeros' tol (D16) ------------------------

@pytest.mark.parametrize("case, error, message", [
    ("Qt", ValueError, r"Qt must have shape \(4, 4\), got \(3, 3\)"),
    ("P", ValueError, r"P must have shape \(2, 2\), got \(3, 2\)"),
    ("V", ValueError, r"V must have shape \(2, 2\), got \(2, 3\)"),
    ("V nan", ValueError, r"V has a non-finite entry nan at index \(0, 1\)"),
    ("VZ", ValueError, r"VZ must have shape \(2, None\), got \(3, 3\)"),
    ("h", TypeError, r"h must be a Penalty \(callable on V Z\), got h = 0.1"),
    ("complex", TypeError, r"P must be a real matrix, got a complex array"),
])
def test_majorizer_value_is_validated(case, error, message):
    args = dict(Qt=np.eye(4), P=np.zeros((2, 2)), V=np.eye(2), VZ=np.ones((2, 3)), h=L1(0.1))
    bad = {"Qt": dict(Qt=np.eye(3)), "P": dict(P=np.zeros((3, 2))), "V": dict(V=np.eye(2, 3)),
           "V nan": dict(V=np.array([[1.0, np.nan], [0.0, 1.0]])), "VZ": dict(VZ=np.ones((3, 3))),
           "h": dict(h=0.1), "complex": dict(P=np.zeros((2, 2)) * 1j)}[case]
    with pytest.raises(error, match=message):
        majorizer_value(**{**args, **bad})
    assert majorizer_value(**args) == pytest.approx(1.0 + 0.6)  # 1/2 ||vec(I_2)||^2 + <I, 0> + 0.1 * 6


@pytest.mark.parametrize("name, value, error, message", [
    ("grid", 0, ValueError, "grid must be an integer >= 4, got grid = 0"),
    ("grid", 1, ValueError, "grid must be an integer >= 4, got grid = 1"),
    ("grid", True, ValueError, "grid must be an integer >= 4, got grid = True"),
    ("grid", 2.5, ValueError, "grid must be an integer >= 4, got grid = 2.5"),
    ("grid", "a", TypeError, "grid must be an integer >= 4, got grid = 'a'"),
    ("refine", -1, ValueError, "refine must be an integer >= 0, got refine = -1"),
    ("refine", 2.5, ValueError, "refine must be an integer >= 0, got refine = 2.5"),
    ("branches", "rot", ValueError, "branches must be a non-empty tuple of"),
    ("branches", ("rot", "flip"), ValueError, "branches must be a non-empty tuple of"),
    ("h", "l1", TypeError, "h must be a Penalty or None, got h = 'l1'"),
])
def test_brute_force_arguments_are_named(name, value, error, message):
    with pytest.raises(error, match=message):
        brute_force_2x2(np.eye(4), np.zeros((2, 2)), np.ones((2, 3)), **{"h": L1(0.1), name: value})


@pytest.mark.parametrize("tol, error, message", [
    (-1.0, ValueError, r"tol must be finite and >= 0, got tol = -1.0"),
    (float("nan"), ValueError, r"tol must be finite and >= 0, got tol = nan"),
    (float("inf"), ValueError, r"tol must be finite and >= 0, got tol = inf"),
    ("1e-6", TypeError, r"tol must be a real number or None, got '1e-6'"),
    (True, TypeError, r"tol must be a real number, got the bool True"),
])
def test_count_nonzeros_tol_is_named(tol, error, message):
    with pytest.raises(error, match=message):
        count_nonzeros(np.eye(3), tol)
    assert count_nonzeros(np.array([[1.0, 1e-7], [0.0, 1.0]]), 1e-6) == 2  # a good tol still counts


def test_check_count():
    assert check_count(np.int64(3), "m") == 3 and check_count(None, "m", allow_none=True) is None
    assert check_count(0, "refine", 0) == 0
    with pytest.raises(TypeError, match="m must be a positive integer, got m = None"):
        check_count(None, "m")
    with pytest.raises(ValueError, match=r"m must be an integer >= 2 or None, got m = np.True_|m must be an integer >= 2 or None, got m = True"):
        check_count(np.True_, "m", 2, allow_none=True)


@pytest.mark.parametrize("call, message", [
    (lambda: randn_covariance("a", 3), "m"),
    (lambda: randn_covariance(True, 3), "m"),
    (lambda: randn_covariance(3, 2.5), "n"),
    (lambda: random_stiefel(True, 1), "n"),
    (lambda: random_stiefel(4, "2"), "r"),
    (lambda: next(working_sets(4, True, "random", rng=0)), "k"),
    (lambda: check_nonnegative("1e-6", "tol"), "tol"),
])
def test_core_sizes_and_numbers_are_named(call, message):
    """The core utilities name a bad size or number (bools, text and fractions are not sizes)."""
    with pytest.raises((TypeError, ValueError), match=message):
        call()
