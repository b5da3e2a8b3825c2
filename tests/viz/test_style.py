"""Every solver colour is readable on white (no yellow label on a white figure)."""
import matplotlib.colors as mcolors
import pytest

from obcd_lite.viz.style import SOLVER_COLORS


def contrast_with_white(colour) -> float:
    """WCAG contrast ratio of ``colour`` against white."""
    def channel(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in mcolors.to_rgb(colour))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return 1.05 / (luminance + 0.05)


@pytest.mark.parametrize("method", sorted(SOLVER_COLORS))
def test_solver_colours_have_contrast_on_white(method):
    assert contrast_with_white(SOLVER_COLORS[method]) >= 3.0, method


def test_the_contrast_measure_rejects_yellow():
    assert contrast_with_white("gold") < 3.0 < contrast_with_white("black")
