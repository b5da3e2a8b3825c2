"""Smoke test of benchmarks/manpg_anchor.py on one small instance (no timing asserts)."""
import numpy as np


def test_anchor_runs_and_prints_both_rows(capsys, load_benchmark):
    module = load_benchmark("manpg_anchor")
    B = module.anchor_data(30, rng=0)
    assert np.allclose(B.mean(axis=0), 0) and np.allclose(np.linalg.norm(B, axis=0), 1)
    module.main(["--instances", "1", "--n", "100"])
    out = capsys.readouterr().out
    assert "BLAS threads: " in out and "(caller's setting; every solver and run_experiment use 1)" in out
    published = next(line for line in out.splitlines() if line.startswith("published"))
    ours = next(line for line in out.splitlines() if line.startswith("ours"))
    assert "-2.285" in published
    assert -3.0 < float(ours.split()[5]) < -1.5  # F* column of our row, n = 100
