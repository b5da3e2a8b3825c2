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


def test_penalty_table_has_every_penalty_row_and_both_Q(speed):
    """Issue 28's table: one row per penalty x lambda (capped l1 at both taus), a ratio and its range
    per Q, the load printed (tiny sizes; no timing asserts)."""
    from obcd_lite import randn_covariance
    rows = speed.penalty_rows()
    assert len(rows) == 3 * len(speed.PENALTY_LAMS) + len(speed.PENALTY_LAMS) * (len(speed.CAPPED_TAUS) - 1)
    lines = []
    out = speed.section_penalties(randn_covariance(20, 30, rng=0), 30, 3, iters=200, repeats=2, emit=lines.append,
                                  rows=rows[::4])
    text = "\n".join(lines)
    assert "Table F." in text and "load (1/5/15 min)" in text
    for label, _ in rows[::4]:
        assert label in text
        for Q in ("exact", "scalar"):
            cell = out[label, Q]
            assert cell["min"] <= cell["ratio"] <= cell["max"] and cell["its"] > 0
