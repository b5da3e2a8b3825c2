"""Smoke test of benchmarks/nonneg_alpha.py on a tiny instance (no timing asserts)."""
import numpy as np
import pytest

from obcd_lite.problems import randn_covariance


def test_alpha_table_rows_and_the_bound(load_benchmark):
    module = load_benchmark("nonneg_alpha")
    C = randn_covariance(20, 30, rng=0)
    rows = module.alpha_table(C, rs=(3,), alphas=(1e-5, 1e-8), time_limit=0.2)
    assert [row["method"] for row in rows] == ["OBCD(id)"] * 3 + ["partition search (from the best OBCD point)",
                                                                  "bound -1/2 sum of the r largest eigenvalues"]
    obcd_best = min(row["F"] for row in rows[:3])
    bound = rows[-1]["F"]
    assert rows[2]["default"] and rows[2]["alpha"] == pytest.approx(np.linalg.eigvalsh(C).max() * 1e-5, rel=1e-10)
    assert bound <= rows[3]["F"] <= obcd_best       # the search never goes up; nothing beats the bound


def test_quick_mode_prints_the_table(capsys, load_benchmark):
    module = load_benchmark("nonneg_alpha")
    module.main(["--quick", "--rs", "2", "--alphas", "1e-5", "--time-limit", "0.2"])
    out = capsys.readouterr().out
    assert "randn-100-200" in out and "partition search" in out and "* the package default" in out
