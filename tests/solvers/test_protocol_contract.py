"""The problem protocol (obcd_lite.protocol): every registered solver against a QuadraticProblem and a SmoothProblem
— signature, budget, Result fields, F recomputed at X, feasibility, or a decline with a reason."""
import inspect
import pathlib
import re

import numpy as np
import pytest

from obcd_lite import SOLVERS, L1, NonNeg, QuadraticProblem, SmoothProblem, Zero, feasibility, random_stiefel
from obcd_lite.problems import nonneg_pca, randn_covariance, sparse_pca
from obcd_lite.protocol import Problem, QuadraticStructure, is_quadratic
from obcd_lite.results import HISTORY_COLUMNS, Result
from obcd_lite.validation import UnsupportedProblemError

COMMON = ("problem", "X0", "max_iter", "time_limit", "rng", "callback", "log_every")
#: The budget of every contract run (iterations as each solver counts them).
MAX_ITER = 40


def quartic(h):
    rng = np.random.default_rng(7)
    A = rng.standard_normal((8, 8))
    A = A + A.T

    def f(X):
        return 0.5 * float(np.sum(X * (A @ X))) + 0.25 * float(np.sum(np.sum(X * X, axis=1) ** 2))

    def grad(X):
        return A @ X + np.sum(X * X, axis=1)[:, None] * X

    return SmoothProblem(f, grad, h=h, shape=(8, 3))


PROBLEMS = {
    "quadratic-zero": lambda: sparse_pca(randn_covariance(30, 8, rng=1)),
    "quadratic-l1": lambda: sparse_pca(randn_covariance(30, 8, rng=1), L1(0.03)),
    "quadratic-nonneg": lambda: nonneg_pca(randn_covariance(30, 8, rng=1)),
    "smooth-zero": lambda: quartic(Zero()),
    "smooth-l1": lambda: quartic(L1(0.03)),
    "smooth-nonneg": lambda: quartic(NonNeg()),
}


def start(problem):
    return np.eye(8, 3) if not np.isfinite(problem.h(random_stiefel(8, 3, rng=0))) else random_stiefel(8, 3, rng=0)


def test_both_problem_kinds_follow_the_protocol():
    qp, sp = PROBLEMS["quadratic-l1"](), PROBLEMS["smooth-l1"]()
    assert isinstance(qp, Problem) and isinstance(sp, Problem)
    assert isinstance(qp, QuadraticStructure) and is_quadratic(qp)
    assert not isinstance(sp, QuadraticStructure) and not is_quadratic(sp)
    assert qp.lipschitz_is_bound and not sp.lipschitz_is_bound


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_signature(name):
    params = inspect.signature(SOLVERS[name]).parameters
    assert tuple(params)[:len(COMMON)] == COMMON
    for keyword in COMMON[2:]:
        assert params[keyword].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize("kind", sorted(PROBLEMS))
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_solver_runs_or_declines_with_a_reason(name, kind):
    problem = PROBLEMS[kind]()
    X0 = start(problem)
    try:
        result = SOLVERS[name](problem, X0, max_iter=MAX_ITER, rng=0, log_every=10)
    except UnsupportedProblemError as declined:
        reason = str(declined)
        assert len(reason) > 30 and (name in reason or type(problem).__name__ in reason or "h" in reason)
        return
    assert isinstance(result, Result)
    assert result.solver == name
    assert 0 <= result.iterations <= MAX_ITER
    assert result.stop_reason
    assert set(HISTORY_COLUMNS) <= set(result.history)
    assert len({len(v) for v in result.history.values()}) == 1
    assert result.X.shape == X0.shape
    assert result.F == problem.F(result.X)
    assert feasibility(result.X) <= 1e-10
    assert result.seconds >= 0


def test_the_first_order_baselines_run_on_a_general_f():
    """The methods that need only f and grad f (and a prox or subgradient of h) run on a SmoothProblem."""
    for name in ("obcd", "obcd_rot", "manpg", "manpg_ada", "rsubgrad", "cayley", "rcd"):
        problem = PROBLEMS["smooth-zero"]()
        result = SOLVERS[name](problem, start(problem), max_iter=MAX_ITER, rng=0)
        assert result.F < problem.F(start(problem))
    for name in ("soc", "obcd_step"):
        with pytest.raises(UnsupportedProblemError):
            SOLVERS[name](PROBLEMS["smooth-zero"](), start(PROBLEMS["smooth-zero"]()), max_iter=MAX_ITER)


def test_no_private_problem_attribute_is_read_outside_its_module():
    """Solvers, certificates and the rest read a problem through the protocol only (issue 26, item 3)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    pattern = re.compile(r"\b(\w*problem|qp|prob|p)\._[A-Za-z]|(?<!self)\._(C|D)\b")
    offenders = []
    for path in [*root.joinpath("obcd_lite").rglob("*.py"), *root.joinpath("benchmarks").rglob("*.py")]:
        if path.name in ("problems.py", "smooth.py"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_quadratic_problem_compiled_arrays_are_c_ordered():
    qp = QuadraticProblem(np.asfortranarray(np.eye(3)), D=np.eye(2))
    C, D = qp.compiled_arrays()
    assert C.flags.c_contiguous and D.flags.c_contiguous and C.dtype == np.float64
    assert QuadraticProblem(np.eye(3)).compiled_arrays()[1].shape == (0, 0)
