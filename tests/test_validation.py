"""Bad input never gives a silent wrong answer (issue 25): one regression test per defect the fuzz of the
public API found, and a property test over the inputs backing :mod:`obcd_lite.validation`'s promise."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from obcd_lite import SOLVERS, feasibility
from obcd_lite.data import load_dataset
from obcd_lite.optimality.block_stationarity import riemannian_gradient_norm
from obcd_lite.penalties import L0, L1, count_nonzeros, snap_zeros
from obcd_lite.problems import QuadraticProblem, procrustes, randn_covariance, sparse_pca
from obcd_lite.rounding import zero_mask
from obcd_lite.solvers import cayley_method, manpg, obcd, obcd_step, psm, soc
from obcd_lite.stiefel import polar, random_stiefel
from obcd_lite.subproblem import block_data
from obcd_lite.validation import DATA_SCALE_RANGE, STIEFEL_TOL, check_symmetric

N, R = 6, 3
C = randn_covariance(12, N, rng=0)
X0 = random_stiefel(N, R, 1)


# --- silent wrong answers -------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [1e6, 1e8, 1e9])
def test_cayley_on_scaled_data_stays_on_the_manifold_above_the_global_minimum(scale):
    """n > 2r (the low-rank Cayley form): it returned X with ||X^T X - I|| up to 22 and F below the
    global minimum 1/2 (sum of the r smallest eigenvalues of C), or raised a bare LinAlgError."""
    n, r = 10, 3
    for seed in range(12):
        A = np.random.default_rng(seed).standard_normal((n, n))
        Cs = (A + A.T) * scale
        res = cayley_method(QuadraticProblem(Cs), random_stiefel(n, r, seed))
        global_min = 0.5 * np.sum(np.linalg.eigvalsh(Cs)[:r])
        assert feasibility(res.X) <= 1e-12
        assert res.F >= global_min - 1e-9 * abs(global_min)


@pytest.mark.parametrize("call, name", [
    (lambda: sparse_pca(C + 1e-3j), "C"),
    (lambda: QuadraticProblem(C.astype(complex)), "C"),
    (lambda: procrustes(X0 * (1 + 0j)), "T"),
    (lambda: obcd(sparse_pca(C), X0 + 0j), "X0"),
    (lambda: cayley_method(sparse_pca(C), X0.astype(complex)), "X0"),
    (lambda: manpg(sparse_pca(C, L1(0.1)), [[complex(v) for v in row] for row in X0]), "X0"),
    (lambda: soc(sparse_pca(C, L1(0.1)), X0 + 0j), "X0"),
    (lambda: feasibility(X0 + 0j), "X"),
    (lambda: polar(X0 + 1j), "M"),
])
def test_complex_input_is_refused_naming_the_argument(call, name):
    with pytest.raises(TypeError, match=rf"^{name} must be a real matrix, got a complex"):
        call()


def test_bool_and_text_input_is_refused():
    with pytest.raises(TypeError, match="C must be a real matrix, got a boolean array"):
        sparse_pca(np.eye(3, dtype=bool))
    with pytest.raises(TypeError, match="C must be a real matrix, got an entry 'a'"):
        sparse_pca(np.array([[1.0, "a"], ["a", 1.0]], dtype=object))


@pytest.mark.parametrize("factor", [1e-310, 1e-300, 1e-120, 1e120, 1e300])
def test_data_outside_the_supported_scale_is_refused_naming_it(factor):
    """obcd_step returned NaN X and F for a subnormal C; manpg raised ZeroDivisionError/LinAlgError."""
    side = "below" if factor < 1 else "above"
    with pytest.raises(ValueError, match=rf"C has largest entry \|C_ij\| = .* {side} the supported range"):
        sparse_pca(factor * C)
    with pytest.raises(ValueError, match=rf"C has largest entry .* {side}"):
        QuadraticProblem(factor * np.eye(N))


@pytest.mark.parametrize("factor", [DATA_SCALE_RANGE[0] * 10, 1e-50, 1e50, DATA_SCALE_RANGE[1] / 10])
def test_data_inside_the_supported_scale_gives_finite_consistent_runs(factor):
    problem = sparse_pca(factor * C)
    for solver in (obcd, obcd_step, manpg, soc, psm, cayley_method):
        res = solver(problem, X0, max_iter=20, rng=0)
        assert np.all(np.isfinite(res.X)) and feasibility(res.X) <= STIEFEL_TOL and np.isfinite(res.F)
        assert res.F == pytest.approx(sparse_pca(factor * C).F(res.X), rel=1e-9)


def test_the_symmetry_check_does_not_overflow():
    with pytest.raises(ValueError, match="C must be symmetric"):
        check_symmetric(np.array([[0.0, 2e200], [1e200, 0.0]]))
    with pytest.raises(ValueError, match="C must be symmetric"):  # tiny and not symmetric: no free pass
        check_symmetric(np.array([[0.0, 2e-60], [1e-60, 0.0]]))
    check_symmetric(np.array([[1e200, 3e199], [3e199, 1e200]]))


def test_spiked_strengths_and_flags_are_checked():
    with pytest.raises(ValueError, match=r"strengths must be finite and > 0, got strengths = \[nan, nan\]"):
        load_dataset("spiked", n=10, strengths=(np.nan,))
    with pytest.raises(ValueError, match="strengths must be finite"):
        load_dataset("spiked", n=10, strengths=(30.0, np.inf))
    with pytest.raises(TypeError, match="center must be True or False, got center = 'no'"):
        load_dataset("spiked", n=10, center="no")
    with pytest.raises(TypeError, match="standardize must be True or False, got standardize = 1"):
        load_dataset("randn", n=10, standardize=1)
    with pytest.raises(TypeError, match="strengths must be a real matrix, got a complex"):
        load_dataset("spiked", n=10, strengths=(1j,))


@pytest.mark.parametrize("B, alpha, Q, match", [
    ([0, 1], 1e-5, "diagonal", "Q must be one of exact, scalar, lipschitz, lipschitz_z, got Q = 'diagonal'"),
    ([1, 1], 1e-5, "exact", r"B must be k >= 2 distinct row indices in \[0, n = 6\), got B = \[1, 1\]"),
    ([-1, 2], 1e-5, "exact", r"got B = \[-1, 2\]"),
    ([0, 6], 1e-5, "scalar", r"got B = \[0, 6\]"),
    ([0.0, 1.0], 1e-5, "exact", r"got B = \[0.0, 1.0\]"),
    ([0, 1], np.nan, "exact", "alpha must be finite and >= 0, got alpha = nan"),
])
def test_block_data_validates_its_input(B, alpha, Q, match):
    problem = sparse_pca(C)
    with pytest.raises(ValueError, match=match):
        block_data(problem, X0, problem.grad(X0), B, alpha, Q)


def test_riemannian_gradient_norm_needs_a_point_on_the_manifold():
    with pytest.raises(ValueError, match="X is not on the Stiefel manifold"):
        riemannian_gradient_norm(sparse_pca(C), 2.0 * X0)
    with pytest.raises(ValueError, match="X has 5 rows but the problem has n = 6"):
        riemannian_gradient_norm(sparse_pca(C), np.eye(5, 2))


def test_a_problem_keeps_its_own_copy_of_the_data():
    Cf = np.asfortranarray(C.copy())
    problem = sparse_pca(Cf, L1(0.01))
    before = problem.F(X0)
    Cf[:] = 0.0  # the caller changes its array afterwards
    assert problem.F(X0) == before and problem.C.flags.c_contiguous
    res = obcd(problem, X0, max_iter=300, rng=0, log_every=300)
    assert res.history["F"][-1] == pytest.approx(res.F, abs=1e-12)  # the tracked F is the reported F


def test_the_zero_rule_does_not_overflow():
    X = random_stiefel(N, R, 2)
    for factor in (1e200, 1e-200, 1e-310):
        assert count_nonzeros(factor * X) == count_nonzeros(X) == N * R
        assert not zero_mask(factor * X).any()
    V = np.array([[0.6, 0.8], [-0.8, 0.6]])
    Z = 1e200 * X[:2]
    assert np.count_nonzero(snap_zeros(V @ Z, Z)) == 2 * R  # the brute-force reference counts them again
    assert L0(1.0)(snap_zeros(V @ Z, Z)) == 2 * R


# --- unhelpful errors -----------------------------------------------------------------------------
def test_manpg_without_curvature_asks_for_a_step():
    with pytest.raises(ValueError, match=r"manpg: the default step t = 1/L_f needs L_f = .* > 0, got L_f = 0.0"):
        manpg(sparse_pca(np.zeros((N, N)), L1(0.1)), X0)
    assert np.isfinite(manpg(sparse_pca(np.zeros((N, N)), L1(0.1)), X0, step=0.5, max_iter=5).F)


def test_manpg_solves_a_penalty_far_out_of_scale_with_the_data():
    """lam = 1e-3 on a C of size 1e-100: t = 1/L_f ~ 1e99. Until issue 34 the Newton system 4 t M + reg I was
    singular to rounding (found by the property test: a bare LinAlgError, then a named refusal); its
    regularization now scales with t, so ManPG solves it: the l1-optimal signed identity, F = 2 lam."""
    A = np.random.default_rng(4).standard_normal((4, 2))
    problem = sparse_pca(A.T @ A * 1e-100, L1(0.001))
    res = manpg(problem, random_stiefel(2, 2, 4), max_iter=5)
    assert res.F == pytest.approx(0.002, rel=1e-12) and np.allclose(np.abs(res.X), np.eye(2))


def test_cayley_names_an_x0_with_the_wrong_rows():
    with pytest.raises(ValueError, match="cayley: X0 has 4 rows but the problem has n = 6"):
        cayley_method(sparse_pca(C), np.eye(4, 2))


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_solver_names_a_bad_rng_and_a_missing_problem(name):
    problem = sparse_pca(C) if name in ("rcd", "obcd_step") else sparse_pca(C, L1(1e-3))
    with pytest.raises(TypeError, match=r"rng must be None, a non-negative int seed or a numpy.random.Generator, "
                                        r"got rng = 'seed'"):
        SOLVERS[name](problem, X0, rng="seed", max_iter=2)
    with pytest.raises(TypeError, match=r"does not follow obcd_lite.protocol.Problem .*got problem = None"):
        SOLVERS[name](None, X0)


@pytest.mark.parametrize("call", [lambda: random_stiefel(4, 2, rng=-1), lambda: load_dataset("randn", n=5, rng=2.5),
                                  lambda: randn_covariance(3, 4, rng="x")])
def test_a_bad_rng_is_named_everywhere(call):
    with pytest.raises(TypeError, match="rng must be None, a non-negative int seed"):
        call()


def test_feasibility_of_a_vector_names_it():
    with pytest.raises(ValueError, match=r"X must be 2-D, got an array of shape \(3,\)"):
        feasibility(np.ones(3))


# --- the property: every call raises a clear error or returns a feasible, consistent result ------
SCALES = [1e-300, 1e-200, 1e-100, 1e-60, 1e-10, 1.0, 1e10, 1e60, 1e100, 1e200, 1e300]
ARGUMENT_NAMES = ("C", "X0", "rng", "lam", "problem", "h =", "step", "L_f", "rho", "mu0")


@st.composite
def as_passed(draw, M):
    """M the way a user may pass it: any dtype (float64 most often), list, layout, view, read-only."""
    dtype = draw(st.sampled_from(["float64"] * 4 + ["float32", "int", "complex", "bool", "object", "list"]))
    if dtype == "list":
        return M.tolist()
    if dtype == "object":
        M = M.astype(object)
    elif dtype == "int":
        M = np.round(M).astype(int) if np.all(np.isfinite(M)) and np.all(np.abs(M) < 2**62) else M
    elif dtype != "float64":
        with np.errstate(over="ignore"):
            M = M.astype(dtype)
    layout = draw(st.sampled_from(["C", "F", "view", "readonly"]))
    if layout == "F":
        M = np.asfortranarray(M)
    elif layout == "view":
        big = np.zeros((2 * M.shape[0], 2 * M.shape[1]), dtype=M.dtype)
        big[::2, ::2] = M
        M = big[::2, ::2]
    elif layout == "readonly":
        M = M.copy()
        M.flags.writeable = False
    return M


@st.composite
def calls(draw):
    n = draw(st.integers(1, 6))
    r = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    shape = (n, n) if draw(st.integers(0, 9)) else (n, n + 1)
    A = rng.standard_normal((shape[0] + 2, shape[1]))
    C_base = (A.T @ A)[: shape[0], : shape[1]] * draw(st.sampled_from(SCALES))  # 1e-300 ... 1e300
    if draw(st.integers(0, 9)) == 0:
        C_base.flat[draw(st.integers(0, C_base.size - 1))] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    X_base = random_stiefel(n, r, rng) if r <= n and draw(st.integers(0, 4)) else rng.standard_normal((n, r))
    lam = draw(st.sampled_from([0.0, 1e-3, 1e-2, 0.1, 1.0, 10.0, 1e-3, 1e-2, -1.0, np.nan]))
    name = draw(st.sampled_from(sorted(SOLVERS)))
    seed = draw(st.sampled_from([0, None, 7, np.random.default_rng(1)]))
    return draw(as_passed(C_base)), draw(as_passed(X_base)), lam, name, seed


@st.composite
def supported_calls(draw):
    """Good input in every form the API takes: scales across the supported range, any layout."""
    n = draw(st.integers(2, 6))
    r = draw(st.integers(1, min(3, n)))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    A = rng.standard_normal((n + 2, n))
    scale = 10.0 ** draw(st.integers(int(np.log10(DATA_SCALE_RANGE[0])) + 1, int(np.log10(DATA_SCALE_RANGE[1])) - 1))
    C_base = A.T @ A * scale
    X_base = random_stiefel(n, r, rng)
    transform = st.sampled_from([np.ascontiguousarray, np.asfortranarray, lambda M: M.tolist(),
                                 lambda M: M.astype(object), lambda M: np.repeat(M, 2, axis=1)[:, ::2]])
    lam = draw(st.sampled_from([0.0, 1e-3, 1e-1, 1.0])) * scale
    return draw(transform)(C_base), draw(transform)(X_base), lam, draw(st.sampled_from(sorted(SOLVERS))), 0


@given(st.one_of(calls(), supported_calls()))
def test_bad_input_never_gives_a_silent_wrong_answer(call):
    C_in, X_in, lam, name, seed = call
    try:
        problem = sparse_pca(C_in, L1(lam)) if name not in ("rcd", "obcd_step") else sparse_pca(C_in)
        res = SOLVERS[name](problem, X_in, max_iter=5, rng=seed)
    except (ValueError, TypeError) as exc:  # a clear error naming the bad argument
        message = str(exc)
        assert any(arg in message for arg in ARGUMENT_NAMES), message
        assert "Traceback" not in message and message
        return
    # or a feasible, finite and consistent result: F recomputed at X (on an independent problem)
    assert np.all(np.isfinite(res.X)) and feasibility(res.X) <= STIEFEL_TOL
    assert np.isfinite(res.F)
    fresh = sparse_pca(np.asarray(C_in, dtype=float), L1(lam)) if name not in ("rcd", "obcd_step") \
        else sparse_pca(np.asarray(C_in, dtype=float))
    assert res.F == pytest.approx(fresh.F(res.X), rel=1e-9, abs=1e-12 * np.max(np.abs(fresh.C)))
