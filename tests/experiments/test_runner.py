"""The experiment runner: records, same starts and budgets, warm starts, time-to-target, bad input."""
import dataclasses
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import pandas as pd
import pytest

from obcd_lite import SOLVERS, feasibility
from obcd_lite.experiments import build_problem, run_experiment, start_point, time_to_target
from obcd_lite.experiments.records import FAILED, RECORD_COLUMNS, load_experiment
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
    assert (ok["feasibility"] < 1e-8).all()
    # The budget's contract, not a wall time (tests/solvers/test_budgets.py and
    # test_the_runner_reads_the_clock_at_every_chunk check where the clock is read): every run stops
    # on its clock or a reason of its own, and its iteration count is its history's.
    assert ok["stop_reason"].str.fullmatch(r"(cayley: \w+; obcd: )?(time_limit|max_iter|tol|tau_min)").all()
    assert (ok.loc[ok["method"] == "obcd", "stop_reason"] == "time_limit").all()
    last = experiment.histories.groupby("run")["iteration"].max()
    assert (ok["iterations"].to_numpy() == last.loc[ok["run"]].to_numpy()).all()
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
    (dict(lams=()), r"lams = \(\) leaves the problems \['l1'\] without a run"),
    (dict(seeds=()), r"seeds = \(\) gives no run"),
    # D17: a budget the solvers refuse made every run a failed row; now refused before any run
    (dict(max_iter=-1), "max_iter must be a positive integer, got max_iter = -1"),
    (dict(max_iter=0), "max_iter must be a positive integer, got max_iter = 0"),
    (dict(max_iter=2.5), "max_iter must be a positive integer, got max_iter = 2.5"),
    (dict(max_iter=100.0), "max_iter must be a positive integer, got max_iter = 100.0"),
    (dict(max_iter=True), "max_iter must be a positive integer, got max_iter = True"),
    (dict(max_iter="10"), "max_iter must be a positive integer, got max_iter = '10'"),
    (dict(r=0), "r must be a positive integer, got r = 0"),
    (dict(r=True), "r must be a positive integer, got r = True"),
    (dict(n=()), r"n must be a positive integer or None, got n = \(\)"),
    (dict(n=0), "n must be a positive integer or None, got n = 0"),
    (dict(m=-8), "m must be a positive integer or None, got m = -8"),
    (dict(m=8.5), "m must be a positive integer or None, got m = 8.5"),
    # empty grids
    (dict(methods=()), "no methods given"),
    (dict(problems=()), "no problem given"),
    (dict(datasets=()), "no data set given"),
    (dict(starts=()), "no start given"),
    # seeds: numpy's generators take non-negative ints only; a seed twice is the same run twice
    (dict(seeds=(-1,)), "seed must be an integer >= 0, got seed = -1"),
    (dict(seeds=(0, 2.5)), "seed must be an integer >= 0, got seed = 2.5"),
    (dict(seeds=(1.0,)), "seed must be an integer >= 0, got seed = 1.0"),
    (dict(seeds=(True,)), "seed must be an integer >= 0, got seed = True"),
    (dict(seeds=("0",)), "seed must be an integer >= 0, got seed = '0'"),
    (dict(seeds=(None,)), "seed must be an integer >= 0, got seed = None"),
    (dict(seeds=(0, 1, 0)), "seed 0 given twice"),
    (dict(seeds=np.array([3, 3])), "seed 3 given twice"),
    (dict(lams=(0.1, 0.1)), "lam 0.1 given twice"),
    (dict(methods=("obcd", "cayley", "obcd")), "method 'obcd' given twice"),
    (dict(starts=("random", "random")), "start 'random' given twice"),
    (dict(problems=("l1", "l0", "l1")), "problem 'l1' given twice"),
])
def test_bad_input_names_the_value(kwargs, match):
    with pytest.raises((TypeError, ValueError), match=match):  # TypeError: not a number at all
        run_experiment(**{**TINY, **kwargs})


def test_bad_input_is_refused_before_any_run(monkeypatch):
    """The checks come before the data are drawn and before the first solve: nothing runs."""
    calls = []
    monkeypatch.setitem(SOLVERS, "obcd", lambda *args, **kwargs: calls.append(kwargs))
    for bad in (dict(max_iter=-1), dict(seeds=(0, 0)), dict(seeds=(-3,))):
        with pytest.raises(ValueError):
            run_experiment(**{**TINY, **bad})
    assert calls == []


def test_numpy_integers_are_integers():
    ex = run_experiment(**{**TINY, "r": np.int64(2), "n": np.int32(6), "m": np.int64(4)}, max_iter=np.int64(3),
                        seeds=np.array([0, 1]), lams=(1e-3,))
    assert list(ex.records["seed"]) == [0, 1] and (ex.records["iterations"] <= 3).all()
    assert set(ex.records["n"]) == {6} and set(ex.records["r"]) == {2}


def test_registered_names_are_listed_in_the_error():
    with pytest.raises(ValueError) as info:
        run_experiment(methods=("nope",), **TINY)
    assert all(name in str(info.value) for name in SOLVERS)


def test_histories_are_a_frame_with_curves(experiment):
    h = experiment.histories
    assert isinstance(h, pd.DataFrame) and {"run", "seconds", "F", "method"}.issubset(h.columns)
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


def test_the_runner_reads_the_clock_at_every_chunk(fake_clock):
    """Every read of the fake clock moves it 1 s: OBCD's compiled engine (chunks of log_every = 100
    steps) does at most ceil(10.5) chunks, and the record says why it stopped."""
    fake_clock.tick = 1.0
    ex = run_experiment(problems=("l1",), lams=(1e-3,), methods=("obcd",), starts=("identity",),
                        **{**TINY, "time_limit": 10.5})
    row = ex.records.iloc[0]
    assert row["stop_reason"] == "time_limit"
    assert row["iterations"] % 100 == 0 and 100 <= row["iterations"] <= 11 * 100


def _flaky(real, fail_seed, calls):
    """``real`` that fails on the seed ``fail_seed`` (a disk-full-like error) and counts timed calls."""
    def solver(problem, X0, **kwargs):
        if kwargs["max_iter"] != 3:  # not the warm-up
            calls.append(kwargs["rng"])
        if kwargs["rng"] == fail_seed:
            raise RuntimeError("disk full")
        return real(problem, X0, **kwargs)
    return solver


GRID = dict(problems=("l1",), lams=(1e-3,), methods=("obcd", "cayley"), starts=("identity",), **TINY)


def test_a_failing_run_loses_nothing_and_the_grid_resumes(monkeypatch, tmp_path):
    calls, real = [], SOLVERS["cayley"]
    monkeypatch.setitem(SOLVERS, "cayley", _flaky(real, 1, calls))
    first = run_experiment(**GRID, seeds=(0, 1), checkpoint=tmp_path / "grid.pkl")
    rec = first.records
    failed = rec[rec["stop_reason"] == FAILED]
    assert len(rec) == 4 and len(failed) == 1 and sorted(calls) == [0, 1]
    assert failed.iloc[0][["method", "dataset", "seed"]].tolist() == ["cayley", "randn", 1]
    assert failed.iloc[0]["error"] == "RuntimeError: disk full" and np.isnan(failed.iloc[0]["F"])
    kept = rec[rec["stop_reason"] != FAILED]
    assert np.isfinite(kept["F"]).all() and set(first.points) == set(kept["run"])
    saved = load_experiment(tmp_path / "grid.pkl")  # the checkpoint holds the same experiment
    pd.testing.assert_frame_equal(saved.records, rec)
    assert saved.datasets == {} and saved.settings == first.settings  # data by their digests, not stored

    calls.clear()
    monkeypatch.setitem(SOLVERS, "cayley", _flaky(real, None, calls))
    again = run_experiment(**GRID, seeds=(0, 1, 2), resume=tmp_path / "grid.pkl")
    assert sorted(calls) == [1, 2]  # the failed run and the new seed; cayley's seed 0 is taken over
    assert len(again.records) == 6 and (again.records["stop_reason"] != FAILED).all()
    old = rec.set_index(["method", "seed"]).drop(("cayley", 1)).drop(columns=["run", "error"])
    new = again.records.set_index(["method", "seed"]).loc[old.index].drop(columns=["run", "error"])
    pd.testing.assert_frame_equal(new, old)  # taken over as they were
    for run in again.records["run"]:
        assert run in again.points and (again.histories["run"] == run).any()
    with pytest.raises(ValueError, match="resume: the previous experiment ran with time_limit = 0.05, this call has "
                                         "time_limit = 0.1"):
        run_experiment(**{**GRID, "time_limit": 0.1}, seeds=(0,), resume=first)
    other = dataclasses.replace(first, settings={**first.settings, "digests": {
        key: "another machine's" for key in first.settings["digests"]}})
    with pytest.raises(ValueError, match=r"resume: the previous experiment: its data set \('randn', 8, 12, 0\) "):
        run_experiment(**GRID, seeds=(0,), resume=other)


class _DyingPool(Executor):
    """An executor whose worker dies at the third run: that run and every later one fail with
    BrokenProcessPool, as a real ProcessPoolExecutor's do when a worker is killed."""

    def __init__(self):
        self.submitted = 0

    def submit(self, function, *args):
        self.submitted += 1
        if self.submitted >= 3:
            raise BrokenProcessPool("A child process terminated abruptly")
        future = Future()
        future.set_result(function(*args))
        return future


def test_a_dead_pool_worker_keeps_the_finished_records():
    ex = run_experiment(**GRID, seeds=(0, 1), executor=_DyingPool())
    rec = ex.records
    assert len(rec) == 4 and (rec["stop_reason"] != FAILED).sum() == 2
    assert rec.loc[rec["stop_reason"] == FAILED, "error"].str.startswith("BrokenProcessPool").all()


def test_the_warm_up_is_shaped_like_the_runs():
    """k = 5 on n = 10 fits the runs; the warm-up used to run on n = 4 and failed with "n = 4"."""
    ex = run_experiment(**{**GRID, "n": 10, "methods": ("obcd", "obcd_step")},
                        options={"obcd": {"k": 5, "Q": "scalar"}, "obcd_step": {"k": 5}})
    errors = " ".join(ex.records["error"].dropna())
    assert "n = 4" not in errors and "k = 5 > 2 needs h = Zero()" in errors  # l1 is nonsmooth: declined
    ex = run_experiment(**{**GRID, "n": 10, "methods": ("obcd",)}, options={"obcd": {"k": 11}})
    assert ex.records.iloc[0]["stop_reason"] == FAILED
    assert "k must be an integer with 2 <= k <= n = 10, got k = 11" in ex.records.iloc[0]["error"]
