"""Smoke tests of benchmarks/rpncg_anchor.py and benchmarks/relatives_grid.py on tiny sizes (no timing asserts)."""
import numpy as np
import pandas as pd

from .conftest import BENCHMARKS


def test_rpncg_anchor_prints_published_beside_ours(capsys, load_benchmark, monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # it imports its generator from manpg_anchor.py
    module = load_benchmark("rpncg_anchor")
    X0 = module.random_start(7, 3, np.random.default_rng(0))
    assert np.allclose(X0.T @ X0, np.eye(3))
    out_csv = tmp_path / "runs.csv"
    module.main(["--grids", "r", "--settings", "1", "--instances", "1", "--obcd-seconds", "0.05", "--census",
                 "--out", str(out_csv)])
    out = capsys.readouterr().out
    assert "-4.54 / " in out  # the published ManPG F of (n, r, mu) = (300, 2, 0.8) beside ours
    runs = pd.read_csv(out_csv)
    assert set(runs["method"]) == {"manpg", "manpg_ada", "obcd", "rsubgrad", "manpg+obcd"}
    assert runs.loc[runs["method"] == "manpg", "distance"].iloc[0] < 1e-6
    counts = module.census_counts(runs)
    assert counts["instances"].tolist() == [1] * 5
    module.main(["--from-csv", str(out_csv)])
    assert "differs from ManPG" in capsys.readouterr().out


def test_relatives_grid_procrustes_summary(load_benchmark):
    module = load_benchmark("relatives_grid")
    table = module.procrustes_table((4,), range(1), sweeps=20)
    assert len(table) == 2 * len(module.PROCRUSTES_METHODS)
    summary = module.procrustes_summary(table)
    mismatch = summary[summary["det X0"] == "mismatch"].set_index("method")
    for label in ("RCD (stepsize 1.1)", "obcd_rot", "obcd_step"):  # rotations only: never the target
        assert mismatch.loc[label, "reached 1e-5"] == "0/1"
