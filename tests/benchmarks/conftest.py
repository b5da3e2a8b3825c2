"""Smoke tests of the scripts in benchmarks/: each loaded as a module, run on tiny sizes (no timing asserts)."""
import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def load_benchmark():
    """``load_benchmark("obcd_speed")`` imports benchmarks/obcd_speed.py (removed from sys.modules afterwards)."""
    loaded = []

    def load(name: str):
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loaded.append(name)
        spec.loader.exec_module(module)
        return module

    yield load
    for name in loaded:
        sys.modules.pop(name, None)
