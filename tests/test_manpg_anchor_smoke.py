"""Smoke test of benchmarks/manpg_anchor.py on one small instance (no timing asserts)."""
import importlib.util
import sys
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "manpg_anchor.py"


def test_anchor_runs_and_prints_both_rows(capsys):
    spec = importlib.util.spec_from_file_location("manpg_anchor", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        B = module.anchor_data(30, rng=0)
        assert np.allclose(B.mean(axis=0), 0) and np.allclose(np.linalg.norm(B, axis=0), 1)
        module.main(["--instances", "1", "--n", "100"])
    finally:
        sys.modules.pop(spec.name, None)
    out = capsys.readouterr().out
    published = next(line for line in out.splitlines() if line.startswith("published"))
    ours = next(line for line in out.splitlines() if line.startswith("ours"))
    assert "-2.285" in published
    assert -3.0 < float(ours.split()[5]) < -1.5  # F* column of our row, n = 100
