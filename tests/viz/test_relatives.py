"""Figures of notebook 07 (obcd_lite.viz.relatives)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from obcd_lite.experiments.procrustes import procrustes_instance, procrustes_runs  # noqa: E402
from obcd_lite.experiments.relatives import ablation_grid  # noqa: E402
from obcd_lite.viz.relatives import RELATIVE_COLORS, ablation_figure, procrustes_figure  # noqa: E402


def test_procrustes_figure_draws_every_run_and_the_floor():
    inst = procrustes_instance(4, mismatch=True, rng=0)
    methods = {"RCD": ("rcd", {}), "OBCD": ("obcd", {})}
    runs = procrustes_runs(inst, methods, sweeps=5)
    fig = procrustes_figure(runs, {"RCD": "rcd", "OBCD": "obcd"}, inst.F_star, inst.F_floor, "t")
    left, right = fig.axes
    assert [line.get_label() for line in left.lines][:2] == ["RCD", "OBCD"]
    assert matplotlib.colors.to_hex(left.lines[0].get_color()) == matplotlib.colors.to_hex(RELATIVE_COLORS["rcd"])
    floor = (inst.F_floor - inst.F_star) / abs(inst.F_star)
    assert np.isclose(left.lines[-1].get_ydata()[0], floor)  # the dashed floor line
    assert len(right.lines) == 3
    plt.close(fig)


def test_ablation_figure_leaves_declined_variants_out():
    table = ablation_grid(problems=("pca", "l1"), datasets=("spiked",), n=8, r=2, time_limit=None, max_iter=50,
                          sample=5)
    fig = ablation_figure(table, "t")
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["OBCD", "one step", "rotations only", "k = 2, scalar Q", "k = 3"]
    bars = sum(len(c) for c in ax.containers)
    assert bars == int((~table["declined"]).sum())
    _assert_tick_labels_apart(fig)
    plt.close(fig)


def _assert_tick_labels_apart(fig):
    """No two visible tick labels of an axis overlap (renderer extents)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            boxes = [t.get_window_extent(renderer) for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert not a.overlaps(b), [t.get_text() for t in axis.get_ticklabels()]


class _Run:
    def __init__(self, iterations, seconds):
        self.history = {"iteration": iterations, "seconds": seconds, "F": 1.0 + np.exp(-iterations / 5000.0)}


def test_procrustes_tick_labels_do_not_overlap():
    """Notebook 07 ran 18,000 pair updates on O(20): "10000 12500 15000 17500" ran into each other."""
    it = np.arange(0, 18001, 100, dtype=float)
    runs = {"RCD": _Run(it, it * 2e-6), "OBCD": _Run(it, it * 3e-6)}
    fig = procrustes_figure(runs, {"RCD": "rcd", "OBCD": "obcd"}, 1.0, 0.5, "t")
    _assert_tick_labels_apart(fig)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels() if t.get_text()]
    assert "8k" in labels and "8000" not in labels
    plt.close(fig)


def test_the_overlap_check_can_fail():
    import pytest

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 17500], [0, 1])
    ax.set_xticks(np.arange(0, 17501, 2500))
    with pytest.raises(AssertionError):
        _assert_tick_labels_apart(fig)
    plt.close(fig)
