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
    plt.close(fig)
