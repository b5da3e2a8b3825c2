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
