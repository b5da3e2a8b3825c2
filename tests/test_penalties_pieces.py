"""Penalty.pieces for any batch size (L1 once looked up row indices for 1, 2 or 4 rows only)."""
import numpy as np
import pytest

from obcd_lite import L0, L1, CappedL1, NonNeg


@pytest.mark.parametrize("h", [L1(0.5), L0(0.3), CappedL1(1.0, 0.4), NonNeg()], ids=repr)
@pytest.mark.parametrize("m", [1, 2, 3, 5])
def test_pieces_of_a_batch_equal_the_pieces_of_each_row(h, m):
    rng = np.random.default_rng(m)
    x, y = rng.standard_normal((m, 3)), rng.standard_normal((m, 3))
    batch = h.pieces(x, y)
    for i in range(m):
        single = h.pieces(x[i:i + 1], y[i:i + 1])
        for got, want in zip(batch, single):
            np.testing.assert_array_equal(got[i], want[0])


def test_l1_pieces_of_three_rows_reproduce_h_between_the_breakpoints():
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    h = L1(0.7)
    breaks, alpha, beta, _ = h.pieces(x, y)
    assert breaks.shape == (3, 4) and np.all(np.diff(breaks, axis=1) >= 0)
    for i in range(3):
        cuts = np.concatenate([[breaks[i, 0] - 1.0], (breaks[i, :-1] + breaks[i, 1:]) / 2, [breaks[i, -1] + 1.0]])
        for j, t in enumerate(cuts):  # a point inside interval j
            u = (x[i] + t * y[i]) / np.hypot(1.0, t)
            assert (alpha[i, j] + t * beta[i, j]) / np.hypot(1.0, t) == pytest.approx(h(u), abs=1e-12)
