"""Smoke test of benchmarks/obcd_speed.py: quick mode on tiny sizes, table rows only (no timing asserts)."""
import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "obcd_speed.py"


@pytest.fixture(scope="module")
def speed():
    spec = importlib.util.spec_from_file_location("obcd_speed", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def test_quick_run_prints_both_tables(speed):
    config = speed.Config().quick()
    lines = []
    out = speed.run(config, emit=lines.append)
    text = "\n".join(lines)
    assert "Table A." in text and "Table B." in text and "total wall time" in lines[-1]
    rows = out["engines"]
    expected = [(h, q) for h, _ in speed.cases(config, None) for q in ("exact", "scalar")]
    assert [(r["h"], r["Q"]) for r in rows] == expected
    assert all(r["dX"] <= 1e-10 and r["feas"] < 1e-12 and r["compiled"]["median"] > 0 for r in rows)
    assert len(out["scaling"]) == 2 * len(config.scaling_n) * len(config.scaling_r)
    assert all(r["it/s"] > 0 for r in out["scaling"])
