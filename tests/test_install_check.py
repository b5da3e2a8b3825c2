"""obcd_lite.install_check: the requirement report that notebooks/00_index.ipynb prints."""
from __future__ import annotations

import importlib.metadata as metadata
from pathlib import Path

import pytest

from obcd_lite import install_check
from obcd_lite.install_check import (RequirementCheck, check_requirement, find_pyproject, report_lines,
                                     requirement_report)

ROOT = Path(__file__).resolve().parents[1]
MISSING = "obcd-lite-no-such-package-xyz"


def _pyproject(tmp_path: Path, deps: list[str], test: list[str] | None = None) -> Path:
    text = "[project]\nname = 'fake'\nversion = '0'\ndependencies = [" + ", ".join(f'"{d}"' for d in deps) + "]\n"
    if test is not None:
        text += "[project.optional-dependencies]\ntest = [" + ", ".join(f'"{d}"' for d in test) + "]\n"
    path = tmp_path / "pyproject.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("extra", [None, "test"])
def test_the_real_pyproject_is_met(extra):
    checks = requirement_report(ROOT / "pyproject.toml", extra=extra, do_import=extra is None)
    assert checks, "pyproject.toml lists no requirements"
    assert [c for c in checks if not c.ok] == []
    assert all(c.status == "ok" and c.installed == metadata.version(c.name) for c in checks)


def test_an_impossible_pin_is_not_ok(tmp_path):
    (numpy,) = requirement_report(_pyproject(tmp_path, ["numpy>=999"]))
    assert numpy == RequirementCheck("numpy", ">= 999", metadata.version("numpy"), False,
                                     f"TOO OLD/NEW (have {metadata.version('numpy')})")
    (numpy,) = requirement_report(_pyproject(tmp_path, ["numpy<1"]))  # too new fails as well
    assert not numpy.ok


def test_a_missing_package_is_not_ok(tmp_path):
    checks = requirement_report(_pyproject(tmp_path, ["numpy>=1", f"{MISSING}>=1.0"], test=[MISSING]), do_import=True)
    assert [c.ok for c in checks] == [True, False]
    assert checks[1] == RequirementCheck(MISSING, ">= 1.0", None, False, "NOT INSTALLED")
    (extra,) = requirement_report(tmp_path / "pyproject.toml", extra="test")
    assert extra == RequirementCheck(MISSING, "", None, False, "NOT INSTALLED")


def test_a_failing_import_is_not_ok(monkeypatch):
    assert check_requirement("pyyaml>=6", do_import=True).ok  # imported as yaml, through IMPORT_NAME
    monkeypatch.setitem(install_check.IMPORT_NAME, "pyyaml", "obcd_lite_no_such_module")
    failed = check_requirement("pyyaml>=6", do_import=True)
    assert not failed.ok and failed.status == "IMPORT FAILED (ModuleNotFoundError)"
    assert check_requirement("pyyaml>=6").ok  # without the import, only the version counts


def test_specifiers_follow_packaging_rules():
    sympy = metadata.version("sympy")
    major_minor = ".".join(sympy.split(".")[:2])
    assert check_requirement(f"sympy=={major_minor}.*").ok
    assert not check_requirement(f"sympy!={major_minor}.*").ok
    assert check_requirement(f"sympy~={major_minor}.0").ok
    numpy = metadata.version("numpy")
    assert check_requirement("numpy>=1,<=999,!=0.1").spec == "!= 0.1, <= 999, >= 1"
    assert check_requirement(f"numpy=={numpy}").ok and not check_requirement(f"numpy>{numpy}").ok
    assert check_requirement('numpy>=999; python_version < "3"').ok  # a marker that excludes this platform


def test_report_lines_are_deterministic_text(tmp_path):
    checks = requirement_report(_pyproject(tmp_path, ["numpy>=1.24", "pytest", MISSING]))
    assert report_lines(checks) == ["  numpy: ok (>= 1.24)", "  pytest: ok (any version)",
                                    f"  {MISSING}: NOT INSTALLED (any version)"]


def test_find_pyproject_and_errors(tmp_path):
    assert find_pyproject(ROOT / "notebooks") == ROOT / "pyproject.toml"
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    _pyproject(tmp_path, [])
    assert find_pyproject(nested) == tmp_path / "pyproject.toml"
    with pytest.raises(KeyError, match="no optional dependency group 'docs'"):
        requirement_report(tmp_path / "pyproject.toml", extra="docs")


def test_outside_a_checkout_the_installed_metadata_is_read(monkeypatch):
    """An installed wheel declares its requirements in its metadata (``Requires-Dist``, written from
    pyproject.toml): the dependencies without a marker, each extra's with ``extra == "..."``."""
    from obcd_lite.install_check import installed_requirements

    declared = ["numpy>=1.24", "colorama>=0.4; sys_platform == 'win32'", 'nbval>=0.11; extra == "test"',
                'pytest>=8; extra == "test"', 'otter-grader>=6; extra == "grading"']
    monkeypatch.setattr(install_check.metadata, "requires", lambda name: declared)
    assert installed_requirements() == ["numpy>=1.24", 'colorama>=0.4; sys_platform == "win32"']
    assert installed_requirements("test") == ["nbval>=0.11", "pytest>=8"]
    assert [c.name for c in requirement_report(None, extra="grading")] == ["otter-grader"]
    with pytest.raises(KeyError, match="'docs'"):
        installed_requirements("docs")


def test_checkout_pyproject_is_none_outside_a_checkout(tmp_path):
    from obcd_lite.install_check import checkout_pyproject

    assert checkout_pyproject(tmp_path) is None
    assert checkout_pyproject(ROOT / "notebooks") == ROOT / "pyproject.toml"
