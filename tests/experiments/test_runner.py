"""The experiment runner: records, same starts and budgets, warm starts, time-to-target, bad input."""
import numpy as np
import pandas as pd
import pytest

from obcd_lite import SOLVERS, feasibility
from obcd_lite.experiments import build_problem, run_experiment, start_point, time_to_target
from obcd_lite.experiments.runner import RECORD_COLUMNS
from obcd_lite.validation import UnsupportedProblemError

BUDGET = 0.05
TINY = dict(datasets=("randn",), n=12, m=8, r=3, time_limit=BUDGET, progress=False)


@pytest.fixture(scope="module")
def experiment():
    return run_experiment(problems=("l1", "l0"), lams=(1e-3,), methods=("obcd", "cayley", "cayley+obcd"),
                          starts=("identity", "random"), seeds=(0, 1), **TINY)


def test_records_cover_the_grid(experiment):
    rec = experiment.records
    assert list(rec.columns) == list(RECORD_COLUMNS)
    assert len(rec) == 2 * 3 * 2 * 2  # problems x methods x starts x seeds
    ok = rec[rec["stop_reason"] != "unsupported"]
    assert (ok["feasibility"] < 1e-8).all() and (ok["seconds"] <= BUDGET + 0.05).all()
    for row in ok.itertuples():  # F, nnz and feasibility are those of the returned point
        X = experiment.points[row.run]
        assert row.F == pytest.approx(build_problem(row.problem, experiment.datasets[("randn", 8, 12, row.seed)].C,
                                                    row.lam).F(X))
        assert row.nnz == np.count_nonzero(np.abs(X) > 1e-6)
        assert row.feasibility == pytest.approx(feasibility(X))
    assert 0 < ok["explained_variance"].max() <= 1


def test_unsupported_methods_are_recorded_clearly(experiment):
    rows = experiment.records.query("problem == 'l0' and method == 'cayley'")
    assert (rows["stop_reason"] == "unsupported").all()
    assert rows["error"].str.contains("cayley").all() and rows["F"].isna().all()
    with pytest.raises(UnsupportedProblemError):
        run_experiment(problems=("l0",), methods=("cayley",), on_unsupported="raise", **TINY)


def test_every_method_starts_from_the_same_point(experiment):
    first = experiment.histories.query("iteration == 0").groupby(["problem", "seed", "start"])["F"]
    assert (first.max() - first.min()).max() < 1e-12


def test_warm_start_continues_the_first_method(experiment):
    h = experiment.histories.query("method == 'cayley+obcd'")
    for _, run in h.groupby("run"):
        assert list(dict.fromkeys(run["stage"])) == ["cayley", "obcd"]
        assert np.all(np.diff(run["seconds"]) >= 0) and np.all(np.diff(run["iteration"]) >= 0)
        obcd_part = run[run["stage"] == "obcd"]["F"].to_numpy()
        assert np.all(np.diff(obcd_part) <= 1e-12)  # OBCD is monotone from cayley's X


def test_time_to_target(experiment):
    ttt = time_to_target(experiment)
    assert len(ttt) == len(experiment.records)
    best = ttt.loc[ttt["F"] == ttt["F_best"]]
    assert best["seconds_to_target"].notna().all()  # the best run reaches its own F
    worse = ttt[ttt["F"] > ttt["F_best"] + 1e-3]
    assert worse["seconds_to_target"].isna().all()


def test_nonneg_runs_from_feasible_starts():
    X0 = start_point("random", 10, 3, "nonneg", rng=0)
    assert np.all(X0 >= 0) and feasibility(X0) < 1e-12 and np.all(np.count_nonzero(X0, axis=0) >= 1)
    ex = run_experiment(problems=("nonneg",), methods=("obcd",), starts=("random", "identity"), **TINY)
    assert ex.records["lam"].isna().all() and (ex.records["negativity"] == 0).all()
    assert (ex.records["F"] < 0).all()
    np.testing.assert_allclose(ex.records["surrogate"], ex.records["F"])  # feasible: the surrogate is F


@pytest.mark.parametrize("kwargs, match", [
    (dict(datasets=("mnist",)), "unknown data set 'mnist'; valid names: randn, spiked"),
    (dict(methods=("lbfgs",)), "unknown solver 'lbfgs'; valid names: "),
    (dict(methods=("obcd+nope",)), "unknown solver 'nope'"),
    (dict(problems=("l2",)), "unknown problem 'l2'; valid names: l0, l1, nonneg"),
    (dict(r=13), "r = 13 > n = 12"),
    (dict(lams=(-1.0,)), "lam must be finite and >= 0, got lam = -1.0"),
    (dict(time_limit=0.0), "time_limit must be finite and > 0, got time_limit = 0.0"),
    (dict(time_limit=-2), "time_limit = -2"),
    (dict(starts=("zeros",)), "unknown start 'zeros'"),
    (dict(options={"manpg_x": {}}), "options given for methods not in the run"),
])
def test_bad_input_names_the_value(kwargs, match):
    with pytest.raises(ValueError, match=match):
        run_experiment(**{**TINY, **kwargs})


def test_registered_names_are_listed_in_the_error():
    with pytest.raises(ValueError) as info:
        run_experiment(methods=("nope",), **TINY)
    assert all(name in str(info.value) for name in SOLVERS)


def test_histories_are_a_frame_with_curves(experiment):
    h = experiment.histories
    assert isinstance(h, pd.DataFrame) and {"run", "seconds", "F", "method"} <= set(h.columns)
    assert h.groupby("run").size().min() >= 2


def test_paper_table_layout(experiment):
    from obcd_lite.experiments import paper_table

    ok = experiment.records.dropna(subset=["F"])
    table = paper_table(ok)
    assert list(table.index) == ["randn-8-12"]
    assert (0.001, "obcd(identity)") in table.columns and (0.001, "cayley(random)") in table.columns
    mean = ok.query("method == 'obcd' and start == 'identity' and problem == 'l1'")["F"].mean()
    l1_table = paper_table(ok[ok["problem"] == "l1"])
    assert l1_table[(0.001, "obcd(identity)")].iloc[0] == pytest.approx(round(mean, 3))
    with pytest.raises(ValueError, match="no records"):
        paper_table(ok.iloc[:0])


def test_importing_experiments_loads_no_pyplot_or_widgets():
    import subprocess
    import sys

    code = ("import sys, obcd_lite.experiments, obcd_lite.data; "
            "print(sorted(m for m in ('matplotlib.pyplot', 'ipywidgets', 'sympy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_time_to_target_counts_feasible_logged_iterates_only():
    from obcd_lite.experiments import Experiment

    ident = dict(problem="l1", dataset="randn", m=4, n=6, r=2, lam=0.1, seed=0, start="random")
    records = pd.DataFrame([dict(run=0, method="a", F=-1.0, **ident), dict(run=1, method="b", F=-0.9, **ident)])
    histories = pd.DataFrame({"run": [0, 0, 1, 1, 1], "seconds": [0.0, 1.0, 0.0, 0.5, 2.0],
                              "F": [0.0, -1.0, -5.0, -1.2, -0.9], "feasibility": [0, 0, 1.0, 0, 0]})
    ttt = time_to_target(Experiment(records=records, histories=histories))
    # b's infeasible -5 is ignored; its feasible -1.2 at 0.5 s (later worse: not returned) is the best found.
    assert list(ttt["F_best"]) == [-1.2, -1.2]
    assert np.isnan(ttt["seconds_to_target"].iloc[0]) and ttt["seconds_to_target"].iloc[1] == 0.5
