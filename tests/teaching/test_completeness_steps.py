"""The pure compute of notebook 03's pictures (obcd_lite.teaching.completeness_steps)."""
from __future__ import annotations

import numpy as np
import pytest

from obcd_lite.stiefel import identity_init
from obcd_lite.teaching.completeness import jacobi_givens_qr, random_orthogonal
from obcd_lite.teaching.completeness_steps import reachability_runs, step_row, step_state, step_title


@pytest.fixture
def D_and_factors():
    D = random_orthogonal(6, -1, 0)
    return D, jacobi_givens_qr(D)


def test_step_state_endpoints_and_invariant(D_and_factors):
    D, factors = D_and_factors
    m = len(factors)
    start = step_state(D, factors, 0)
    assert np.array_equal(start["product"], np.eye(6)) and np.allclose(start["remaining"], D)
    assert start["pair"] is None and start["branch"] is None
    end = step_state(D, factors, m)
    assert np.max(np.abs(end["product"] - D)) <= 1e-12 and end["error"] <= 1e-12
    for step in range(m + 1):
        s = step_state(D, factors, step)
        assert np.max(np.abs(s["remaining"] @ s["product"] - D)) <= 1e-12  # D = remaining @ product
        if step:
            assert s["pair"] == factors[step - 1][:2]
    assert end["branches"] == ["rot"] * (m - 1) + ["ref"]


def test_remaining_is_listing_1_R_transposed(D_and_factors):
    """Listing 1 run on D^T: after all steps of column 0, row 0 of R is e_0, i.e. column 0 of remaining."""
    D, factors = D_and_factors
    s = step_state(D, factors, 5)  # paper order: column 0 takes the first n - 1 = 5 steps
    assert np.allclose(s["remaining"][:, 0], np.eye(6)[:, 0], atol=1e-12)


def test_step_state_rejects_bad_step(D_and_factors):
    D, factors = D_and_factors
    for bad in (-1, len(factors) + 1, 1.5):
        with pytest.raises(ValueError, match="step"):
            step_state(D, factors, bad)


def test_step_title(D_and_factors):
    D, factors = D_and_factors
    s = step_state(D, factors, len(factors))
    assert step_title(s).startswith("step 15 of 15: rows (4, 5), ref(theta = ")
    # after the last factor nothing is left but rounding: printed as a bound, the same on every CPU
    assert step_title(s).endswith("||remaining - I||_F < 1e-12")


def test_step_row(D_and_factors):
    D, factors = D_and_factors
    first = step_state(D, factors, 0)
    assert step_row(first) == {"step": "0 of 15", "pair": "none", "factor": "none", "error": f"{first['error']:.3f}"}
    s = step_state(D, factors, 3)
    i, j = factors[2][:2]
    row = step_row(s)
    assert row["pair"] == f"({i}, {j})" and row["factor"] == f"{s['branch']}(theta = {s['theta']:.3f})"
    assert step_title(s) == f"step 3 of 15: rows ({i}, {j}), {row['factor']}, ||remaining - I||_F = {row['error']}"
    assert step_row(step_state(D, factors, len(factors)))["error"] == "< 1e-12"


@pytest.mark.parametrize("n, seed", [(3, 1), (5, 4), (6, 2024)])
def test_reachability_needs_reflections(n, seed):
    """OBCD reaches a det -1 target from I; the rotations-only loop stalls at F >= 4."""
    T = random_orthogonal(n, -1, seed)
    runs = reachability_runs(T, identity_init(n, n), max_iter=200, rng=seed)
    assert np.all(runs["rot"].history["F"] >= 4 - 1e-9)
    assert runs["both"].F <= 1e-10
    assert np.linalg.det(runs["both"].X) < 0
    assert runs["rot"].F >= 4 - 1e-9
    assert np.linalg.det(runs["rot"].X) > 0
