"""Smoke test of benchmarks/smooth_step_cost.py: quick mode, the table's rows (no timing asserts)."""
import pytest

pytest.importorskip("pymanopt", reason="pymanopt is a declared dependency; absent here")


def test_quick_run_prints_every_way(load_benchmark, capsys):
    bench = load_benchmark("smooth_step_cost")
    assert bench.main(["--quick", "--repeats", "1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.strip().startswith("60 ")]
    ways = {" ".join(row[2:-3]).strip() for row in rows}
    assert len(rows) == 8
    assert {"Zero()", "L1(lam=0.0001)"} == {row[1] for row in rows}
    assert all(float(row[-1]) > 0 for row in rows)
    assert len(ways) == 4
