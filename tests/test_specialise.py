"""obcd_lite.specialise: one compiled copy per penalty family, so that a first solve compiles only what
its penalty runs (notebook 00's first picture: l1). The copies' iterates equal the all-penalty copy's
(tests/solvers/test_obcd_kernel.py runs the solver, which uses them, against the Python engine)."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from obcd_lite.penalties import CAPPED_KIND, L0_KIND, L1_KIND, NONNEG_KIND, ZERO_KIND
from obcd_lite.solvers import obcd_kernel
from obcd_lite.specialise import FAMILIES, family, specialised
from obcd_lite.subproblem import sweep

HAS_EXTRA = True


@njit  # not cached: this test must see whether it compiles
def _extra(x):
    return np.argsort(x)[0] + 100


@njit
def _base(x):
    return x[0]


def _both(x, kind):
    if HAS_EXTRA and kind == 1:
        return _extra(x)
    return _base(x)


def test_a_copy_without_a_flag_never_compiles_the_branch():
    x = np.array([3.0, 1.0, 2.0])
    without = specialised(_both, "_both_without", cache=False, HAS_EXTRA=False)
    assert without(x, 1) == 3.0  # the branch is gone: kind 1 takes the other path
    assert _extra.signatures == [], "the pruned branch's callee was compiled"
    full = specialised(_both, "_both_full", cache=False)
    assert full(x, 1) == 101 and len(_extra.signatures) == 1
    assert without.py_func.__name__ == without.py_func.__qualname__ == "_both_without"
    assert without.py_func.__doc__ == _both.__doc__


def test_specialised_refuses_a_jitted_function():
    with pytest.raises(TypeError, match="plain Python function, got CPUDispatcher"):
        specialised(_base, "again")


@pytest.mark.parametrize("kind, name", [(ZERO_KIND, "plain"), (L1_KIND, "plain"), (NONNEG_KIND, "plain"),
                                        (L0_KIND, "l0"), (CAPPED_KIND, "capped")])
def test_each_kind_runs_its_familys_copy(kind, name):
    assert family(kind) == name
    kernel = obcd_kernel.run_steps_for(kind)
    assert kernel is obcd_kernel._RUN_STEPS[name]
    assert kernel.py_func.__globals__["sweep_into"] is sweep.SWEEP_INTO[name]
    flags = sweep.SWEEP_INTO[name].py_func.__globals__
    assert {k: flags[k] for k in FAMILIES[name]} == FAMILIES[name]
    assert flags["_branch_crossings"] is sweep._BRANCH_CROSSINGS[name]
    # the family's own penalty is compiled in: l0's search for l0, the sort for capped l1
    assert flags["HAS_L0"] == (kind == L0_KIND) and flags["HAS_CAPPED"] == (kind == CAPPED_KIND)


def test_the_public_functions_handle_every_penalty():
    assert obcd_kernel.run_steps is obcd_kernel._RUN_STEPS["all"] and sweep.sweep_into is sweep.SWEEP_INTO["all"]
    assert sweep.sweep_into.py_func.__globals__["HAS_L0"] and sweep.sweep_into.py_func.__globals__["HAS_CAPPED"]
    assert obcd_kernel.run_steps.py_func.__name__ == "run_steps"


@pytest.mark.parametrize("kind", [-1, 5, 99, "l1"])
def test_an_unknown_kind_is_refused(kind):
    with pytest.raises(ValueError, match=f"got {kind!r}"):
        obcd_kernel.run_steps_for(kind)


def test_sweep_2x2_runs_its_familys_copy(monkeypatch):
    assert set(sweep._SWEEP_2X2) == {"plain", "l0", "capped"}
    for name, copy in sweep._SWEEP_2X2.items():
        assert copy.py_func.__globals__["sweep_into"] is sweep.SWEEP_INTO[name]
    called = []
    monkeypatch.setitem(sweep._SWEEP_2X2, "l0", lambda *args: called.append(args) or "l0 copy")
    assert sweep.sweep_2x2(1, 2, L0_KIND, 3, 4, 0, 1) == "l0 copy" and called == [(1, 2, L0_KIND, 3, 4, 0, 1)]
