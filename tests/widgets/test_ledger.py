"""The explorer of notebook 06 (the ledger filtered by section and verdict), and its figures."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from obcd_lite.teaching.ledger import LEDGER, coverage  # noqa: E402
from obcd_lite.teaching.paper_rates import rate_report, rate_run  # noqa: E402
from obcd_lite.viz.ledger import coverage_figure, rates_figure, verdict_figure  # noqa: E402
from obcd_lite.widgets.ledger import build_explorer, select  # noqa: E402


def test_select_filters_by_section_and_verdict():
    assert len(select()) == len(LEDGER)
    assert {r["verdict"] for r in select(verdict="false")} == {"false"}
    assert all(r["label"].split()[1].startswith("4.") for r in select(section="4"))
    with pytest.raises(ValueError, match="section"):
        select(section="9")


def test_widget_redraws():
    ex = build_explorer()
    assert ex.state["redraws"] == 1 and ex.state["error"] is None
    ex.controls["verdict"].value = "false"
    assert ex.state["redraws"] == 2 and len(ex.state["value"]) == coverage()["by_verdict"]["false"]
    ex.controls["section"].value = "A"           # no false statement in Appendix A: an empty selection
    assert ex.state["value"] == [] and ex.state["error"] is None


def test_figures_draw():
    assert len(coverage_figure(coverage()).axes) == 2
    assert len(verdict_figure([]).axes) == 1 and len(verdict_figure(LEDGER[:5]).axes) == 1
    run = rate_run(n=4, alpha=0.1, seed=2, iters=60)
    assert len(rates_figure(run, rate_report(run)).axes) == 2


def test_verdict_bars_encode_the_counts_and_their_labels_fit():
    """Issue 35: the filter chart drew bars of equal height; each bar is now the number of selected rows
    with its verdict, and its label (count and statements) ends inside the panel."""
    import matplotlib.pyplot as plt

    from obcd_lite.viz.ledger import VERDICT_COLORS

    for rows in (LEDGER, select(verdict="false"), select(section="4")):
        fig = verdict_figure(rows, "t")
        ax = fig.axes[0]
        want = {v: sum(r["verdict"] == v for r in rows) for v in VERDICT_COLORS}
        widths = {tick.get_text(): bar.get_width()
                  for tick, bar in zip(ax.get_yticklabels(), sorted(ax.patches, key=lambda p: -p.get_y()))}
        assert widths == want  # equal bars (the old chart) fail: the full ledger has 40+ rows in 5 verdicts
        renderer = fig.canvas.get_renderer()
        panel = ax.get_window_extent(renderer)
        for text in ax.texts:
            box = text.get_window_extent(renderer)
            assert panel.x0 <= box.x0 and box.x1 <= panel.x1, text.get_text()
        counted = sum(int(t.get_text().split(":")[0]) for t in ax.texts)
        assert counted == len(rows)
        plt.close(fig)
