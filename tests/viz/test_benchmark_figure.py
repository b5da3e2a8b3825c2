"""The picture of benchmarks/own_problem.py (obcd_lite.viz.benchmark) and its records' loader."""
from __future__ import annotations

import copy
import json

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from obcd_lite.experiments.benchmark_records import (DEFAULT_RECORDS, check_records, load_own_problem,  # noqa: E402
                                                     time_ratio)
from obcd_lite.viz.benchmark import own_problem_figure  # noqa: E402


def record(problem, n, solver, seconds, tr=0.1, budget=2.0):
    return {"problem": problem, "n": n, "r": 5, "solver": solver, "seconds": seconds, "tr_median": tr,
            "budget": budget, "iterations": 10, "gap": 1e-7, "stationarity": 1e-4, "load": 3.0}


RECORDS = {"smooth": [
    record("subspace", 50, "TR", [0.1, 0.1]),
    record("subspace", 50, "OBCD many pairs", [0.3, 0.5]),
    record("subspace", 200, "TR", [0.1, 0.1]),
    record("subspace", 200, "OBCD many pairs", [None, 0.7]),
    record("pca", 50, "TR", [0.1, 0.1]),
    record("pca", 50, "OBCD many pairs", [None, None], budget=4.0),
], "l1": []}


def points(fig):
    return {line.get_gid(): line for ax in fig.axes for line in ax.lines if line.get_gid()}


def test_the_figure_draws_every_record_at_its_ratio_and_marks_not_reached():
    fig = own_problem_figure(RECORDS)
    drawn = points(fig)
    assert set(drawn) == {"subspace|50|TR|reached", "subspace|50|OBCD many pairs|reached",
                          "subspace|200|TR|reached", "subspace|200|OBCD many pairs|not reached",
                          "pca|50|TR|reached", "pca|50|OBCD many pairs|not reached"}
    assert drawn["subspace|50|OBCD many pairs|reached"].get_ydata()[0] == pytest.approx(4.0)  # median 0.4 / 0.1
    assert drawn["subspace|200|OBCD many pairs|not reached"].get_ydata()[0] == pytest.approx(20.0)  # budget / TR
    assert drawn["pca|50|OBCD many pairs|not reached"].get_ydata()[0] == pytest.approx(40.0)
    assert drawn["pca|50|OBCD many pairs|not reached"].get_markerfacecolor() == "white"  # open: not reached
    assert drawn["subspace|50|OBCD many pairs|reached"].get_markerfacecolor() != "white"
    assert [ax.get_title() for ax in fig.axes] == ["subspace", "pca"]
    assert all(ax.get_yscale() == "log" for ax in fig.axes)
    labels = [text.get_text() for legend in fig.legends for text in legend.get_texts()]
    assert any(label.startswith("open ↑: not reached") for label in labels)
    assert "OBCD many pairs" in labels and "TR" in labels
    plt.close(fig)


def test_time_ratio_is_the_median_or_a_lower_bound():
    assert time_ratio(record("a", 50, "x", [0.2, 0.4, 0.9])) == (pytest.approx(4.0), True)
    assert time_ratio(record("a", 50, "x", [0.2, None])) == (pytest.approx(20.0), False)


@pytest.mark.parametrize("change, kind, words", [
    (lambda r: r["smooth"][1].pop("seconds"), ValueError, r"records\['smooth'\]\[1\] .*has no 'seconds'"),
    (lambda r: r["smooth"][1].update(seconds=[]), ValueError, "seconds must be a non-empty list"),
    (lambda r: r["smooth"][1].update(seconds=[-1.0]), ValueError, "seconds must be a non-empty list"),
    (lambda r: r["smooth"][1].update(tr_median=0.0), ValueError, "tr_median must be > 0"),
    (lambda r: r["smooth"][1].update(tr_median=None), ValueError, "tr_median must be a finite number"),
    (lambda r: r["smooth"][1].update(n="50"), ValueError, "n must be a int"),
    (lambda r: r["smooth"].__setitem__(0, "row"), TypeError, r"records\['smooth'\]\[0\] must be a dict"),
    (lambda r: r.pop("smooth"), ValueError, r"records\['smooth'\] must be a non-empty list"),
])
def test_malformed_records_are_refused_by_name(change, kind, words):
    bad = copy.deepcopy(RECORDS)
    change(bad)
    with pytest.raises(kind, match=words):
        own_problem_figure(bad)
    with pytest.raises(TypeError, match="records must be a dict"):
        check_records([RECORDS])


def test_the_loader_reads_a_file_and_names_a_missing_or_broken_one(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps(RECORDS))
    assert load_own_problem(path) == RECORDS
    with pytest.raises(FileNotFoundError, match="no benchmark records at .*missing.json"):
        load_own_problem(tmp_path / "missing.json")
    path.write_text("{not json")
    with pytest.raises(ValueError, match="are not JSON"):
        load_own_problem(path)


def test_the_committed_run_loads_and_draws():
    if not DEFAULT_RECORDS.is_file():
        pytest.skip("no committed run (a wheel without docs/)")
    records = load_own_problem()
    fig = own_problem_figure(records)
    assert len(points(fig)) == len(records["smooth"])
    plt.close(fig)
