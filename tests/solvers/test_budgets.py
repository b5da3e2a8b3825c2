"""The time-limit contract of every solver, on a fake clock (no wall time is asserted):

* the clock starts before the setup (L_f, factorizations, the first gradient), and a setup that uses
  the whole budget stops the run at iteration 0 with stop_reason "time_limit";
* the clock is read after every iteration (every chunk of the compiled engines), so a run stops at
  the first check past the budget;
* SOC predicts its O(n^3) setup and refuses, before any work, a budget the setup alone exceeds.
"""
import importlib
import math

import numpy as np
import pytest

from obcd_lite import SOLVERS
from obcd_lite.penalties import L1
from obcd_lite.problems import sparse_pca
from obcd_lite.solvers import obcd, obcd_step, rcd, soc
from obcd_lite.solvers.obcd import COMPILED_CHUNK
from obcd_lite.stiefel import random_stiefel

soc_module = importlib.import_module("obcd_lite.solvers.soc")  # (obcd_lite.solvers.soc is the function)
N, R = 8, 3
C = (lambda A: A.T @ A / np.linalg.norm(A) ** 2)(np.random.default_rng(0).standard_normal((12, N)))
#: Options that keep each solver iterating (no tolerance stop) on the small problem.
KEEP_GOING = {"cayley": dict(tol=0.0, tau_min=1e-300), "manpg": dict(tol=0.0), "manpg_ada": dict(tol=0.0),
              "soc": dict(tol=0.0), "radmm": dict(tol=0.0), "psm": dict(tol=0.0)}
SMOOTH_ONLY = {"rcd", "obcd_step"}


def problem_for(name):
    return sparse_pca(C) if name in SMOOTH_ONLY else sparse_pca(C, L1(1e-3))


def slow_setup(problem, clock, seconds):
    """The problem, whose first evaluation (every solver's setup makes one: a gradient, F or L_f)
    takes ``seconds`` on the fake clock."""
    pending = [seconds]
    for name in ("grad", "F", "f", "f_from_grad", "lipschitz"):
        def slow(*args, _method=getattr(problem, name)):
            clock.advance(pending.pop() if pending else 0.0)
            return _method(*args)
        setattr(problem, name, slow)
    return problem


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_a_setup_over_budget_stops_before_the_first_step(name, fake_clock):
    problem = slow_setup(problem_for(name), fake_clock, seconds=100.0)
    res = SOLVERS[name](problem, random_stiefel(N, R, 1), time_limit=1.0, max_iter=10**6, rng=0,
                        **KEEP_GOING.get(name, {}))
    assert res.stop_reason == "time_limit" and res.iterations == 0
    assert np.isfinite(res.F) and np.array_equal(res.X, random_stiefel(N, R, 1))


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_the_clock_is_read_after_every_iteration(name, fake_clock):
    """A callback advances the clock one second per iteration: with a 3.5 s budget every solver
    stops after exactly 4 iterations."""
    res = SOLVERS[name](problem_for(name), random_stiefel(N, R, 1), time_limit=3.5, max_iter=10**6, rng=0,
                        callback=lambda step: fake_clock.advance(1.0), **KEEP_GOING.get(name, {}))
    assert res.stop_reason == "time_limit" and res.iterations == 4


@pytest.mark.parametrize("run", [
    lambda: obcd(sparse_pca(C, L1(1e-3)), random_stiefel(N, R, 1), engine="compiled", log_every=10**9,
                 time_limit=10.5, max_iter=10**9, rng=0),
    lambda: obcd_step(sparse_pca(C), random_stiefel(N, R, 1), log_every=10**9, time_limit=10.5,
                      max_iter=10**9, rng=0),
])
def test_compiled_engines_read_the_clock_at_every_chunk(run, fake_clock):
    """Each read of the clock moves it 1 s: at most ceil(10.5) chunks of COMPILED_CHUNK steps run."""
    fake_clock.tick = 1.0
    res = run()
    assert res.stop_reason == "time_limit"
    assert res.iterations % COMPILED_CHUNK == 0 and COMPILED_CHUNK <= res.iterations <= math.ceil(10.5) * COMPILED_CHUNK


def test_rcd_reads_the_clock_at_every_chunk(fake_clock):
    fake_clock.tick = 1.0
    res = rcd(sparse_pca(C), random_stiefel(N, R, 1), time_limit=10.5, max_iter=10**9, log_every=10**9)
    assert res.stop_reason == "time_limit" and 0 < res.iterations <= math.ceil(10.5) * N * (N - 1) // 2


def test_soc_refuses_a_budget_its_setup_alone_exceeds(monkeypatch):
    """The eigendecomposition is predicted from one timed 256 x 256 decomposition, scaled by n^3;
    here the prediction is replaced (no matrix of the size is built)."""
    n = soc_module.CALIBRATION_N + 4
    problem = sparse_pca(np.eye(n), L1(1e-3))
    monkeypatch.setattr(soc_module, "eigh_seconds", lambda size: 50.0 * (size / n) ** 3)
    with pytest.raises(ValueError, match=r"soc: its setup alone.*260 x 260.*about 62.5 s.*exceeds time_limit = 5.0"):
        soc(problem, np.eye(n, 2), time_limit=5.0)
    assert soc(problem, np.eye(n, 2), time_limit=100.0, max_iter=2).iterations == 2  # it fits: runs
    assert soc(problem, np.eye(n, 2), max_iter=2).iterations == 2  # no time limit: nothing to predict


def test_the_eigh_prediction_scales_as_n_cubed():
    t = soc_module.eigh_seconds(soc_module.CALIBRATION_N)
    assert t > 0 and soc_module.eigh_seconds(2 * soc_module.CALIBRATION_N) == pytest.approx(8 * t)
