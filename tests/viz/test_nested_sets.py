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


@pytest.mark.parametrize("gap, F_scale, want", [(1e-3, 0.8, "ε-global (ε = 1e-03): 2"), (None, 0.8, "ε-global: 2"),
                                                (3e-12, 0.5, "global: 2")])
def test_global_is_said_only_from_a_gap_at_rounding_level(gap, F_scale, want):
    """Issue 35: a count of points within a 1e-3 bracket of min F is "ε-global", with ε; "global" needs a
    gap at rounding level. The label stays inside its panel and keeps its colour key."""
    fig = nested_sets_figure(COUNTS, global_gap=gap, F_scale=F_scale)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert want in texts and not any(t.startswith("global") for t in texts if t != want)
    (line,) = [t for t in ax.texts if t.get_text() == want]
    assert line.get_window_extent(renderer).x1 <= ax.get_window_extent(renderer).x1 + 1
    keys = [p for p in ax.patches if p.get_width() == 0.08]
    assert len(keys) == 3  # one colour key per level (critical, BS2, global): the renamed label keeps its key
    plt.close(fig)
