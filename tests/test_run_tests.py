"""tools/run_tests.py (what `make test` runs): the CPU variants run where they can, are skipped with a
reason where they cannot (never failed), and every run's pytest summary line is reported."""
import importlib.util
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("run_tests", ROOT / "tools" / "run_tests.py")
run_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_tests)


def test_makefile_and_ci_run_it():
    assert "$(PY) tools/run_tests.py" in (ROOT / "Makefile").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci and "MPLBACKEND" not in ci  # kernels would inherit it and lose their figures


def test_variants_change_numpy_dispatch_and_openblas_core():
    assert len(run_tests.VARIANTS) >= 2
    for overrides in run_tests.VARIANTS.values():
        assert set(overrides) == {"NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE"}
        assert "NUMBA_CPU_NAME" not in overrides  # they share the numba cache


def test_a_variant_is_skipped_off_x86(monkeypatch):
    monkeypatch.setattr(platform, "machine", lambda: "arm64")
    reason = run_tests.skip_reason(next(iter(run_tests.VARIANTS.values())))
    assert reason and "arm64" in reason and "not x86-64" in reason


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64 feature names")
def test_a_feature_numpy_refuses_skips_the_variant():
    reason = run_tests.skip_reason({"NPY_DISABLE_CPU_FEATURES": "NOT_A_FEATURE"})
    assert reason and reason.startswith("NumPy refuses this configuration here") and "NOT_A_FEATURE" in reason


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64 feature names")
def test_the_variants_run_on_this_x86_machine():
    for overrides in run_tests.VARIANTS.values():
        assert run_tests.skip_reason(overrides) is None


def test_summary_line():
    lines = ["....", "=========== 3 failed, 129 passed in 101.59s (0:01:41) ===========", ""]
    assert run_tests.summary_line(lines) == "3 failed, 129 passed in 101.59s (0:01:41)"
    assert run_tests.summary_line(["42 passed in 3.0s"]) == "42 passed in 3.0s"
    assert run_tests.summary_line(["no summary"]) == "(no pytest summary line)"


def test_usage_errors():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "run_tests.py"), "--no-variants", "--only-variants"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "not allowed with argument" in done.stderr


def test_a_failing_variant_fails_make_test(monkeypatch, capsys):
    """Every variant's output is printed under its tag, and one failing run makes the exit status 1."""
    def fake_run(args, **kwargs):
        if "-W" in args:  # the NumPy probe of skip_reason: accepted
            return subprocess.CompletedProcess(args, 0, "", "")
        kwargs["stdout"].write("F.\n=========== 1 failed, 1 passed in 0.5s ===========\n")
        return subprocess.CompletedProcess(args, 1)

    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(run_tests.subprocess, "run", fake_run)
    monkeypatch.setattr(sys, "argv", ["run_tests.py", "--only-variants"])
    assert run_tests.main() == 1
    out = capsys.readouterr().out
    for label in run_tests.VARIANTS:
        assert f"[{label.split(' (')[0]}] F." in out
        assert f"{label}: FAILED (exit 1)" in out and "1 failed, 1 passed in 0.5s" in out


def test_skipped_variants_do_not_fail(monkeypatch, capsys):
    monkeypatch.setattr(platform, "machine", lambda: "arm64")
    monkeypatch.setattr(sys, "argv", ["run_tests.py", "--only-variants"])
    assert run_tests.main() == 0
    assert capsys.readouterr().out.count("SKIPPED: the CPU is arm64") == len(run_tests.VARIANTS)
