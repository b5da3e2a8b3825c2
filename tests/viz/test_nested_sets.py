"""Notebook 05's nested sets drawn to scale, with labels that stay inside their panel."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from obcd_lite.viz.hierarchy import nested_sets_figure  # noqa: E402

COUNTS = {"obcd k=2": {"points": 8, "critical": 6, "BS2": 8, "global": 2, "BS2_not_critical": 2},
          "manpg": {"points": 8, "critical": 8, "BS2": 8, "BS3": 5, "global": 8, "BS2_not_critical": 0}}


def test_square_areas_are_the_shares_of_all_limits():
    fig = nested_sets_figure(COUNTS)
    for ax, table in zip(fig.axes, COUNTS.values()):
        filled = [p for p in ax.patches if p.get_facecolor()[3] > 0 and p.get_width() != 0.08]
        areas = sorted(p.get_width() * p.get_height() for p in filled)
        want = sorted([1.0] + [table[k] / table["points"] for k in table if k not in ("points", "BS2_not_critical")
                               and table[k] > 0])
        np.testing.assert_allclose(areas, want)
    plt.close(fig)


def test_labels_stay_inside_their_panel():
    fig = nested_sets_figure(COUNTS)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        box = ax.get_window_extent(renderer)
        for text in ax.texts:
            extent = text.get_window_extent(renderer)
            assert box.x0 - 1 <= extent.x0 and extent.x1 <= box.x1 + 1, text.get_text()
    plt.close(fig)


@pytest.mark.parametrize("extra, colour", [(2, "tab:red"), (0, "0.35")])
def test_bs2_outside_critical_is_named(extra, colour):
    counts = {"obcd": {"points": 4, "critical": 2, "BS2": 2 + extra, "global": 1, "BS2_not_critical": extra}}
    fig = nested_sets_figure(counts)
    (line,) = [t for t in fig.axes[0].texts if t.get_text().startswith("BS2, not critical")]
    assert line.get_text().endswith(str(extra)) and matplotlib.colors.same_color(line.get_color(), colour)
    plt.close(fig)
