"""l0 from its candidate points (``subproblem.l0_points``): the line keys that find tied columns, and
the l0 solve at ties that only the wrap of the keys (angle pi/2 = 0 modulo pi/2) shows."""
import math

import numpy as np
import pytest

from obcd_lite import L0, solve_2x2_full
from obcd_lite.subproblem.brute_force import kink_angles, objective_at, objective_on_circle
from obcd_lite.subproblem.l0_points import line_keys


def test_line_keys_sort_the_columns_by_their_line_modulo_a_quarter_turn():
    """The keys are monotone in the angle of a column's line modulo pi/2, whichever quadrant it is in."""
    rng = np.random.default_rng(0)
    angles = rng.uniform(0.0, 2.0 * np.pi, size=12)
    Z = np.vstack([np.cos(angles), np.sin(angles)]) * rng.uniform(0.5, 2.0, size=12)
    key, column = np.empty(12), np.empty(12, np.int64)
    count = line_keys(Z, np.hypot(Z[0], Z[1]), key, column)
    assert count == 12 and np.all(np.diff(key[:count]) >= 0.0) and np.all((0.0 <= key) & (key < 1.0))
    assert np.array_equal(column, np.argsort(np.mod(angles, np.pi / 2)))


def test_line_keys_skip_zero_columns():
    Z = np.array([[1.0, 0.0, -2.0], [0.5, 0.0, 1.0]])
    key, column = np.empty(3), np.empty(3, np.int64)
    assert line_keys(Z, np.hypot(Z[0], Z[1]), key, column) == 2 and set(column[:2]) == {0, 2}


def _fine_minimum(Qt, P, Z, h, branch):
    """The objective on a comb of angles 2.5e-16 apart around every kink (points where two entries are
    both within rounding of 0 although neither kink shows it)."""
    offsets = np.arange(-60, 61) * 2.5e-16
    kinks = kink_angles(Z, h, branch)
    return np.min(objective_on_circle(Qt, P, Z, h, branch, (kinks[:, None] + offsets).ravel()))


@pytest.mark.parametrize("gap", [0.0, 4e-15, 1e-14, 1e-10])
@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_ties_across_the_wrap_of_the_keys(gap, turn):
    """Two columns on lines gap apart around angle turn * pi/2 (their keys near 1 and near 0): every
    entry that vanishes at a zero, or between two zeros within rounding, is counted."""
    base = turn * math.pi / 2
    Z = np.array([[math.cos(base - gap / 2), 2.0 * math.cos(base + gap / 2)],
                  [math.sin(base - gap / 2), 2.0 * math.sin(base + gap / 2)]])
    rng = np.random.default_rng(turn)
    A = rng.standard_normal((4, 4))
    for Qt, P in ((np.eye(4), np.zeros((2, 2))), (0.1 * (A @ A.T), 0.1 * rng.standard_normal((2, 2)))):
        sol = solve_2x2_full(Qt, P, Z, L0(1.0))
        best = min(_fine_minimum(Qt, P, Z, L0(1.0), b) for b in ("rot", "ref"))
        assert sol.value <= best + 1e-12
        assert sol.value == pytest.approx(float(objective_at(Qt, P, Z, L0(1.0), sol.V)), rel=1e-12, abs=1e-12)
