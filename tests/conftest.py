import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests are deterministic in CI (derandomized) and thorough on request.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The course site (``docs/``) built once per session into a temporary folder, as ``make site`` does.

    The build runs with warnings as errors: a broken page, cross-reference or docstring fails every
    test that reads the site, with Sphinx's messages in the failure.
    """
    out = tmp_path_factory.mktemp("site") / "html"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py"), str(out)], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode:
        pytest.fail(f"the site build failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
    return out


class FakeClock:
    """A clock for budget tests (``obcd_lite.results.clock``): it stands still unless advanced, or moves
    ``tick`` seconds at every read. Tests assert where the clock is read and why a run stopped,
    never a wall time."""

    def __init__(self, tick: float = 0.0):
        self.now, self.tick, self.reads = 0.0, tick, 0

    def __call__(self) -> float:
        self.reads += 1
        value = self.now
        self.now += self.tick
        return value

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_clock(monkeypatch):
    """Replace the solvers' clock by a :class:`FakeClock` (standing still; set ``tick`` to move it)."""
    import obcd_lite.results

    clock = FakeClock()
    monkeypatch.setattr(obcd_lite.results, "clock", clock)
    return clock
