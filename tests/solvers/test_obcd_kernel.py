"""The compiled OBCD engine (solvers/obcd_kernel.py): the Python engine's iterates, its guarantees, its limits."""
import numpy as np
import pytest

from obcd_lite import (CappedL1, L0, L1, NonNeg, Penalty, QuadraticProblem, Zero, feasibility, identity_init,
                       nonneg_pca, obcd, random_stiefel, sparse_pca)
from obcd_lite.penalties import PENALTY_NAMES, ZERO_KIND, penalty_by_name
from obcd_lite.solvers.obcd import _BlockChunks, _working_set_batches, working_sets
from obcd_lite.solvers.obcd_kernel import run_steps


def covariance(n, seed=0):
    A = np.random.default_rng(seed).standard_normal((2 * n, n))
    return A.T @ A / np.linalg.norm(A) ** 2


N, R = 12, 3
C = covariance(N)
#: The weights per registered penalty name (the penalties come from the registry: penalty_by_name).
LAM = {"zero": 0.0, "l1": 0.02, "l0": 0.01, "capped_l1": 0.05, "nonneg": 0.0}
PENALTIES = {name: penalty_by_name(name, LAM[name], 0.1) for name in PENALTY_NAMES}


def problem_for(name, C=C):
    return nonneg_pca(C) if name == "nonneg" else sparse_pca(C, PENALTIES[name])


def start(name, kind, n=N, r=R):
    if kind == "identity":
        return identity_init(n, r)
    if name == "nonneg":  # a random feasible point: unit vectors on r random distinct rows
        X = np.zeros((n, r))
        X[np.random.default_rng(5).permutation(n)[:r], np.arange(r)] = 1.0
        return X
    return random_stiefel(n, r, rng=5)


@pytest.mark.parametrize("name", sorted(PENALTIES))
@pytest.mark.parametrize("Q", ["exact", "scalar"])
@pytest.mark.parametrize("rule", ["random", "cyclic"])
@pytest.mark.parametrize("init", ["identity", "random"])
def test_both_engines_give_the_same_iterates(name, Q, rule, init):
    problem, X0 = problem_for(name), start(name, init)
    runs = [obcd(problem, X0, max_iter=2000, rng=3, Q=Q, working_set=rule, log_every=500, engine=engine)
            for engine in ("python", "compiled")]
    python, compiled = runs
    assert compiled.info["engine"] == "compiled" and python.info["engine"] == "python"
    assert np.max(np.abs(python.X - compiled.X)) <= 1e-10
    assert np.array_equal(python.X == 0.0, compiled.X == 0.0)  # the same exact zeros
    assert list(python.history["iteration"]) == list(compiled.history["iteration"]) == [0, 500, 1000, 1500, 2000]
    assert np.allclose(python.history["F"], compiled.history["F"], rtol=0, atol=1e-12)
    assert compiled.F == pytest.approx(compiled.history["F"][-1], abs=1e-12)


@pytest.mark.parametrize("branches", ["both", "rot", "ref"])
def test_same_iterates_with_D_L_and_branches(branches):
    """The general f = 1/2 tr(X^T C X D) + <X, L> + const: D in Q, the gradient and the f change."""
    rng = np.random.default_rng(0)
    n, r = 9, 4
    M, D = rng.standard_normal((n, n)), rng.standard_normal((r, r))
    problem = QuadraticProblem(M + M.T, D=D + D.T, L=rng.standard_normal((n, r)), h=L1(0.1), const=2.0)
    for Q in ("exact", "scalar"):
        python, compiled = (obcd(problem, random_stiefel(n, r, rng=1), Q=Q, max_iter=1500, rng=0, engine=engine,
                                 branches=branches) for engine in ("python", "compiled"))
        assert np.max(np.abs(python.X - compiled.X)) <= 1e-10
        assert compiled.F == pytest.approx(compiled.history["F"][-1], abs=1e-10)


def kernel_args(problem, X, Q="exact"):
    h = problem.h
    kind = ZERO_KIND if h.is_zero else h.sweep_kind
    lam, tau = h.sweep_params()
    D = np.empty((0, 0)) if problem.D is None else problem.D
    return D, kind, lam, tau, Q == "exact"


@pytest.mark.parametrize("name", sorted(PENALTIES))
@pytest.mark.parametrize("Q", ["exact", "scalar"])
def test_sufficient_decrease_and_exact_F_every_step(name, Q):
    """Theorem 4.2(a) in the kernel: F(X^t) - F(X^{t+1}) >= alpha/2 ||V - I||_F^2, read off its per-step
    trace, and the tracked F equals F recomputed after every step (chunks of one step)."""
    problem, X = problem_for(name), start(name, "random").copy()
    D, kind, lam, tau, exact = kernel_args(problem, X, Q)
    alpha = 1e-2
    G = problem.grad(X)
    F = problem.F(X)
    blocks = _BlockChunks(_working_set_batches(N, 2, "random", 0))
    trace = np.empty((1, 2))
    for _ in range(400):
        F_before = F
        F = run_steps(problem.C, D, X, G, blocks.take(1), alpha, exact, kind, lam, tau, 0, 1, F, trace)
        decrease, move = trace[0]
        assert decrease == pytest.approx(F_before - F, abs=1e-15)
        assert decrease >= alpha / 2 * move - 1e-12
        assert F == pytest.approx(problem.F(X), abs=1e-12)
        assert np.allclose(G, problem.grad(X), rtol=0, atol=1e-12)
    # one long chunk: the same trace, row by row
    trace = np.empty((3000, 2))
    F = run_steps(problem.C, D, X, G, blocks.take(3000), alpha, exact, kind, lam, tau, 0, 1, F, trace)
    assert np.all(trace[:, 0] >= alpha / 2 * trace[:, 1] - 1e-12)
    assert F == pytest.approx(problem.F(X), abs=1e-11)


def test_feasibility_after_1e6_steps():
    problem = sparse_pca(covariance(10, seed=5), L1(0.01))
    res = obcd(problem, random_stiefel(10, 3, rng=1), max_iter=1_000_000, rng=2, log_every=100_000, Q="scalar")
    assert res.info["engine"] == "compiled" and res.iterations == 1_000_000
    assert feasibility(res.X) <= 1e-10
    assert np.all(res.history["feasibility"] <= 1e-10)
    assert res.F == pytest.approx(res.history["F"][-1], abs=1e-10)


@pytest.mark.parametrize("h", [L0(0.02), L1(0.05), CappedL1(0.05, 0.1)])
def test_exact_zeros_stay_exact(h):
    """Entries are exactly 0.0 or clearly nonzero; the zeros of X0 a step does not touch stay 0.0."""
    problem = sparse_pca(covariance(10, seed=2), h)
    res = obcd(problem, identity_init(10, 3), max_iter=3000, rng=0, engine="compiled")
    nonzero = np.abs(res.X[res.X != 0.0])
    assert 0 < np.count_nonzero(res.X == 0.0) and np.min(nonzero) > 1e-12


def test_working_set_chunks_are_the_generator_draws():
    for rule, k in (("random", 2), ("cyclic", 2), ("cyclic", 3), ("random", 4)):
        gen = working_sets(7, k, rule, 4)
        chunks = _BlockChunks(_working_set_batches(7, k, rule, 4))
        drawn = np.concatenate([chunks.take(m) for m in (1, 5, 40, 3, 200)])
        assert drawn.dtype == np.int64 and drawn.flags.c_contiguous
        assert np.array_equal(drawn, np.array([next(gen) for _ in range(len(drawn))]))


def test_engine_choice_and_time_limit():
    problem = sparse_pca(C, L1(0.01))
    assert obcd(problem, identity_init(N, R), max_iter=10).info["engine"] == "compiled"
    assert obcd(problem, identity_init(N, R), max_iter=10, callback=lambda s: None).info["engine"] == "python"
    assert obcd(sparse_pca(C), identity_init(N, R), max_iter=10, k=3).info["engine"] == "python"
    assert obcd(sparse_pca(C), identity_init(N, R), max_iter=10, engine="python").info["engine"] == "python"
    res = obcd(problem, identity_init(N, R), max_iter=10**9, time_limit=0.05, engine="compiled")
    assert res.stop_reason == "time_limit" and res.iterations > 0  # the clock's reads: test_budgets.py


class Huber(Penalty):
    """A user's penalty: no compiled sweep code."""

    def elementwise(self, U):
        return np.minimum(U * U, np.abs(U))


@pytest.mark.parametrize("kwargs, match", [
    (dict(engine="fast"), "engine must be 'compiled', 'python' or None, got 'fast'"),
    (dict(engine="compiled", callback=lambda s: None), "engine='compiled' cannot run here: a callback is given"),
    (dict(engine="compiled", k=3, Q="scalar"), r"engine='compiled' cannot run here: k = 3"),
    (dict(engine="compiled", problem=sparse_pca(C, Huber())), "the penalty .*Huber.* is not built in"),
])
def test_bad_engine(kwargs, match):
    args = dict(problem=sparse_pca(C), X0=identity_init(N, R), max_iter=5) | kwargs
    problem, X0 = args.pop("problem"), args.pop("X0")
    with pytest.raises(ValueError, match=match):
        obcd(problem, X0, **args)


def test_a_problem_of_another_type_is_declined():
    class Wrapped:
        """Any object with QuadraticProblem's methods (the Python engine runs it)."""

        def __init__(self, inner):
            self._inner = inner

        def __getattr__(self, name):
            return getattr(self._inner, name)

    wrapped = Wrapped(sparse_pca(C, L1(0.01)))
    assert obcd(wrapped, identity_init(N, R), max_iter=20, rng=0).info["engine"] == "python"
    with pytest.raises(ValueError, match="the problem is a Wrapped, not a QuadraticProblem"):
        obcd(wrapped, identity_init(N, R), max_iter=20, engine="compiled")


_ALLOCATIONS = """
import numpy as np
from numba.core.runtime import rtsys
from obcd_lite import L1, identity_init, randn_covariance, sparse_pca
from obcd_lite.penalties import L1_KIND
from obcd_lite.solvers.obcd import _BlockChunks, _working_set_batches
from obcd_lite.solvers.obcd_kernel import run_steps
for n in (40, 400):
    p = sparse_pca(randn_covariance(60, n, rng=0), L1(1e-3))
    X = identity_init(n, 4).copy()
    G = p.grad(X)
    blocks = _BlockChunks(_working_set_batches(n, 2, "random", 0))
    run_steps(*p.compiled_arrays(), X, G, blocks.take(5), 1e-5, True, L1_KIND, 1e-3, 0.0, 0, 1, 0.0, np.empty((0, 2)))
    chunk = blocks.take(500)
    before = rtsys.get_allocation_stats()
    run_steps(*p.compiled_arrays(), X, G, chunk, 1e-5, True, L1_KIND, 1e-3, 0.0, 0, 1, 0.0, np.empty((0, 2)))
    after = rtsys.get_allocation_stats()
    print((after.alloc - before.alloc) / 500, (after.alloc - after.free) - (before.alloc - before.free))
"""


def test_kernel_memory_does_not_grow_with_n_or_steps():
    """numba's allocation counters (NUMBA_NRT_STATS=1, a child process): every allocation of a chunk is
    freed (live count unchanged), and the allocations per step, the sweep's O(r) scratch (the kernel
    loop allocates none of its own), do not grow with n."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    paths = [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, NUMBA_NRT_STATS="1", PYTHONPATH=os.pathsep.join(paths))
    out = subprocess.run([sys.executable, "-c", _ALLOCATIONS], env=env, capture_output=True, text=True, check=True)
    lines = [line for line in out.stdout.split("\n") if line]
    (per_step_small, live_small), (per_step_large, live_large) = (map(float, line.split()) for line in lines)
    assert live_small == live_large == 0
    assert per_step_small < 100 and per_step_large < 100
