"""Smoke test of benchmarks/obcd_speed.py: quick mode on tiny sizes, table rows only (no timing asserts)."""
import pytest


@pytest.fixture
def speed(load_benchmark):
    return load_benchmark("obcd_speed")


def test_quick_run_prints_both_tables(speed):
    config = speed.Config().quick()
    lines = []
    out = speed.run(config, emit=lines.append)
    text = "\n".join(lines)
    assert "Table A." in text and "Table B." in text and "total wall time" in lines[-1]
    assert "BLAS threads: " in text  # the thread settings the timings were taken with
    rows = out["engines"]
    expected = [(h, q) for h, _ in speed.cases(config, None) for q in ("exact", "scalar")]
    assert [(r["h"], r["Q"]) for r in rows] == expected
    assert all(r["dX"] <= 1e-10 and r["feas"] < 1e-12 and r["compiled"]["median"] > 0 for r in rows)
    assert len(out["scaling"]) == 2 * len(config.scaling_n) * len(config.scaling_r)
    assert all(r["it/s"] > 0 for r in out["scaling"])
