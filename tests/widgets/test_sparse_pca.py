"""Notebook 04's explorer: the pure compute at extreme slider values and the widget wiring."""
import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from obcd_lite.experiments import compare  # noqa: E402
from obcd_lite.viz.experiments import comparison_figure  # noqa: E402

FAST = dict(time_budget=0.05, methods=("obcd",))


def test_default_comparison_recovers_the_planted_support():
    c = compare(methods=("obcd",), time_budget=0.3)
    row = c.table.iloc[0]
    assert row["feasibility"] < 1e-8 and row["F - F_best"] == 0.0
    assert row["support_F1"] > 0.8


@pytest.mark.parametrize("kwargs", [dict(lam=0.0), dict(r=5, n=5), dict(n=2, r=2), dict(n=2, r=1),
                                    dict(lam=10.0), dict(problem="nonneg"), dict(problem="l0", dataset="digits",
                                                                                  n=64, r=3)])
def test_extreme_slider_values(kwargs):
    c = compare(**{**FAST, **kwargs})
    assert np.isfinite(c.table["F"]).all()
    X = c.point("obcd")
    assert np.linalg.norm(X.T @ X - np.eye(X.shape[1])) < 1e-8
    fig = comparison_figure(c)
    assert len(fig.axes) >= 2


def test_nonneg_table_shows_the_surrogate():
    c = compare(problem="nonneg", **FAST)
    assert c.table["surrogate"].iloc[0] == pytest.approx(c.table["F"].iloc[0])  # feasible: surrogate = F


def test_lam_far_above_the_threshold_gives_one_entry_per_column():
    c = compare(lam=10.0, start="identity", **FAST)
    assert c.table["nnz"].iloc[0] == 2


@pytest.mark.parametrize("kwargs, match", [(dict(lam=-1.0), "lam must be finite and >= 0"),
                                           (dict(r=6, n=5), "r = 6 > n = 5"),
                                           (dict(methods=()), "choose at least one method"),
                                           (dict(time_budget=0.0), "time_limit must be finite and > 0"),
                                           (dict(dataset="iris"), "valid names")])
def test_bad_values_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        compare(**{**FAST, **kwargs})


def test_slider_changes_drive_the_state():
    from obcd_lite.widgets.sparse_pca import build_explorer

    ex = build_explorer(methods=("obcd",), time_budget=0.05)
    assert ex.state["redraws"] == 1 and ex.state["error"] is None
    ex.controls["lam"].value = 1e-4
    assert ex.state["redraws"] == 2 and ex.state["value"].lam == pytest.approx(1e-4)
    ex.controls["r"].value = 10
    ex.controls["n"].value = 4  # r > n: the message, not a figure
    assert "r = 10 > n = 4" in ex.state["error"]
    ex.controls["r"].value = 3
    assert ex.state["error"] is None and ex.state["value"].point("obcd").shape == (4, 3)
    ex.controls["problem"].value = "nonneg"
    assert ex.state["value"].problem == "nonneg"
    ex.controls["start"].value = "identity"
    assert ex.state["value"].table["F"].iloc[0] <= ex.state["value"].experiment.histories["F"].iloc[0]
    assert len(ex.out.outputs) == 1


def test_the_table_is_rendered_html_and_the_busy_text_shows_during_updates():
    from obcd_lite.widgets.base import BUSY_TEXT
    from obcd_lite.widgets.sparse_pca import build_explorer

    ex = build_explorer(methods=("obcd",), time_budget=0.05)
    assert ex.text.value.count("<table") == 1 and "<pre" not in ex.text.value
    assert ex.widget.children[0] is ex.status  # the busy line sits above the controls, always in view
    seen = []
    ex.controls["seed"].observe(lambda _change: seen.append(ex.status.value), names="value")
    ex.controls["seed"].value = 1  # the explorer's own observer runs first; then ours sees the result
    assert ex.state["busy_seen"] == BUSY_TEXT and seen == [""]
