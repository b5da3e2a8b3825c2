"""rounding: the one rule for zeros, ties and printing (issue 17: the same answer on every machine)."""
import numpy as np
import pytest

from obcd_lite.rounding import (EPS, ZERO_ULPS, first_maximizer, first_minimizer, fmt, fmt_array, fmt_interval,
                                snap_point, zero_mask)


@pytest.mark.parametrize("value, kwargs, text", [
    (7.9e-16, {}, "< 1e-12"),                          # a rounding-level certificate prints as a bound
    (4.5e-16, {"style": "e", "digits": 1}, "< 1e-12"),  # ... whatever its last bits were on this CPU
    (-3e-17, {"sign": True}, "< 1e-12"),
    (2e-9, {"style": "e", "digits": 1}, "2.0e-09"),     # above the floor: its digits
    (1e-7, {"floor": 1e-6}, "< 1e-6"),                  # the floor is the caller's (the bound prints it)
    (0.123456, {}, "0.1235"),
    (-1.5, {"digits": 2}, "-1.50"),
    (1.5, {"digits": 2, "sign": True}, "+1.50"),
    (0.5, {"digits": 2, "style": "e"}, "5.00e-01"),
    (1.23456e-5, {"style": "g"}, "1.235e-05"),
    (123.456, {"style": "g"}, "123.5"),
    (None, {}, "None"),
    (float("nan"), {}, "nan"),
    (float("inf"), {"sign": True}, "+inf"),
    (-float("inf"), {}, "-inf"),
])
def test_fmt(value, kwargs, text):
    assert fmt(value, **kwargs) == text


@pytest.mark.parametrize("value", [-0.0, 0.0, -1e-17, 1e-17, -4e-5, 4e-5])
def test_fmt_prints_no_signed_zero(value):
    """Without a floor, a value that rounds to zero prints as 0.0000 (+0.0000 with sign), never -0.0000."""
    assert fmt(value, floor=None) == "0.0000"
    assert fmt(value, floor=None, sign=True) == "+0.0000"
    assert fmt(value, 2, style="e", floor=None).lstrip("-") == fmt(abs(value), 2, style="e", floor=None)


def test_fmt_interval_and_array():
    assert fmt_interval(-0.0, -1e-17) == "[< 1e-12, < 1e-12]"  # the notebook-05 pair at rounding level
    assert fmt_interval(-1.83364, 0.0043) == "[-1.8336, +0.0043]"
    text = fmt_array([[0.6552, -0.68071], [-1e-17, 0.0]])
    assert text == "[+0.6552  -0.6807]\n[< 1e-12  < 1e-12]"
    assert "-0" not in fmt_array(np.array([[-0.0, -1e-20]]), floor=None)


def test_fmt_rejects_a_bad_style():
    with pytest.raises(ValueError, match="style must be 'f', 'e' or 'g'; got 'x'"):
        fmt(1.0, style="x")


def test_first_minimizer_breaks_rounding_ties_by_order():
    # equal to rounding: the first wins, whichever compares lower on this CPU
    assert first_minimizer([1.0 + 4 * EPS, 1.0, 2.0]) == 0
    assert first_minimizer([3.0, 1.0, 1.0 - 4 * EPS]) == 1
    assert first_maximizer([0.5, 2.0 - 1e-15, 2.0]) == 1
    # a genuine difference wins
    assert first_minimizer([1.0, 1.0 - 1e-9, 2.0]) == 1
    assert first_minimizer([1.0, 1.0 - 1e-9], tol=1e-6) == 0  # unless the caller's tolerance is coarser
    assert first_maximizer([0.1, 0.2, 0.3]) == 2
    # non-finite entries never win over finite ones; all non-finite: the first
    assert first_minimizer([np.inf, np.nan, 5.0]) == 2
    assert first_minimizer([np.inf, np.inf]) == 0


def test_first_minimizer_bad_input():
    with pytest.raises(ValueError, match="at least one value; got an empty sequence"):
        first_minimizer([])
    with pytest.raises(ValueError, match="tol"):
        first_minimizer([1.0, 2.0], tol=-1.0)


def test_zero_mask_is_the_rounding_level_of_the_column():
    c = np.cos(np.pi / 2)  # 6.1e-17: zero to rounding
    X = np.array([[c, 1e-6], [1.0, 1.0]])
    assert zero_mask(X).tolist() == [[True, False], [False, False]]  # a genuine 1e-6 is not a zero
    assert not zero_mask(X, 0).any()  # zero_tol = 0: exact zeros only
    assert zero_mask(X, 1e-5).tolist() == [[True, True], [False, False]]
    level = ZERO_ULPS * EPS * 10.0  # the level scales with the column's norm
    assert zero_mask(np.array([[0.9 * level], [10.0]]))[0, 0] and not zero_mask(np.array([[2 * level], [10.0]]))[0, 0]
    snapped = snap_point(np.array([[-1e-17, 1.0], [1.0, -0.0]]))
    assert snapped.tolist() == [[0.0, 1.0], [1.0, 0.0]] and not np.signbit(snapped).any()
    with pytest.raises(ValueError, match="zero_tol"):
        zero_mask(X, -1.0)


def test_equals_never_reads_equals_less_than():
    from obcd_lite.rounding import equals

    assert equals(0.25, 2) == "= 0.25"
    assert equals(3e-17, 2) == "< 1e-12" and equals(-3e-17, 2, style="e") == "< 1e-12"
    assert equals(3e-17, 2, floor=None) == "= 0.00"  # a quantity whose size is not rounding keeps its digits
