"""Install paths without make: the student's lines of docs/install.md, a lock that resolves on every
platform a student has, and a Binder configuration that uses the runtime lock. (The fresh venv and the wheel run in CI:
tools/fresh_install_check.py, after make test in .ci/run.)"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from packaging.markers import Marker

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("lock_tool", ROOT / "tools" / "lock.py")
lock_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lock_tool)
_spec = importlib.util.spec_from_file_location("fresh_install_check", ROOT / "tools" / "fresh_install_check.py")
fresh = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fresh)

#: The environments a course meets (PEP 508 marker values), with Python 3.11 and 3.13.
PLATFORMS = {
    "Linux x86-64": {"sys_platform": "linux", "platform_machine": "x86_64", "os_name": "posix", "platform_system": "Linux"},
    "macOS arm64": {"sys_platform": "darwin", "platform_machine": "arm64", "os_name": "posix", "platform_system": "Darwin"},
    "macOS x86-64": {"sys_platform": "darwin", "platform_machine": "x86_64", "os_name": "posix", "platform_system": "Darwin"},
    "Windows x86-64": {"sys_platform": "win32", "platform_machine": "AMD64", "os_name": "nt", "platform_system": "Windows"},
}
PYTHONS = {"3.11": "3.11.9", "3.13": "3.13.1"}


def _environment(platform: str, python: str) -> dict:
    return {**PLATFORMS[platform], "python_version": python, "python_full_version": PYTHONS[python],
            "implementation_name": "cpython", "platform_python_implementation": "CPython"}


def _selected(env: dict) -> dict[str, str]:
    """Package -> version that pip installs from the lock in ``env`` (each marker evaluated)."""
    chosen: dict[str, list[str]] = {}
    for name, versions in lock_tool.pins().items():
        for version, marker in versions:
            if not marker or Marker(marker).evaluate(env):
                chosen.setdefault(name, []).append(version)
    duplicates = {name: v for name, v in chosen.items() if len(v) > 1}
    assert not duplicates, f"two pins of the same package apply: {duplicates}"
    return {name: v[0] for name, v in chosen.items()}


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_lock_resolves_on_every_platform(platform, python):
    """Every declared dependency gets exactly one pin, and the platform's own packages are there:
    pywinpty and colorama on Windows, appnope on macOS, pexpect elsewhere."""
    selected = _selected(_environment(platform, python))
    for requirement in lock_tool.declared():
        assert lock_tool.requirement_name(requirement) in selected, (platform, requirement)
    windows, mac = platform.startswith("Windows"), platform.startswith("macOS")
    assert ("pywinpty" in selected) == windows and ("colorama" in selected) == windows
    assert ("appnope" in selected) == mac and ("pexpect" in selected) == (not windows)


def test_intel_macs_get_the_last_numba_with_wheels():
    """numba 0.63+ (llvmlite 0.46+) has no Intel-mac wheel: the lock forks there (tools/lock.py PLATFORM_CAPS;
    `python tools/lock.py --check-wheels` resolves each platform with wheels only)."""
    intel = _selected(_environment("macOS x86-64", "3.11"))
    linux = _selected(_environment("Linux x86-64", "3.11"))
    assert intel["numba"].startswith("0.62.") and intel["llvmlite"].startswith("0.45.")
    assert linux["numba"] != intel["numba"]
    assert set(lock_tool.PLATFORMS) == set(PLATFORMS)


def test_the_student_lines_install_without_make():
    """docs/install.md's student block is what tools/fresh_install_check.py runs literally in CI: a venv,
    uv, the runtime lock and the package in one install (every pin exact, so nothing else is chosen), the
    kernels compiled, JupyterLab on notebook 00. The Windows block says the same with ``py`` and
    ``.venv\\Scripts``."""
    lines = fresh.install_lines()
    assert lines == ["python -m venv .venv", ".venv/bin/python -m pip install uv",
                     ".venv/bin/python -m uv pip install -r requirements-runtime.txt -e .",
                     ".venv/bin/python tools/warm_cache.py", ".venv/bin/jupyter lab notebooks/00_index.ipynb"]
    windows = [line.replace("python -m venv", "py -m venv", 1) if i == 0 else
               line.replace(".venv/bin/", ".venv\\Scripts\\").replace("/", "\\")
               for i, line in enumerate(lines)]
    assert fresh.install_lines(fresh.WINDOWS) == windows
    assert "make" not in " ".join(lines)


def test_the_install_lines_parser_names_a_missing_block(tmp_path):
    page = tmp_path / "install.md"
    page.write_text("# Install\n\n**Student install, Linux and macOS**\n\nno code block here\n")
    with pytest.raises(ValueError, match="no '\\*\\*Student install, Linux and macOS\\*\\*' heading"):
        fresh.install_lines(page=page)
    page.write_text("**Student install, Linux and macOS**\n\n```\npython -m venv .venv  # a comment\n\nx\n```\n")
    assert fresh.install_lines(page=page) == ["python -m venv .venv", "x"]


def test_the_notebooks_runtime_report_is_read_line_by_line():
    ok = "required packages (pyproject.toml [project] dependencies):\n  numpy: ok (>= 1.24)\n  autograd: ok (>= 1.6)\ntest extras:\n  pytest: NOT INSTALLED (>= 8)\n"
    assert fresh.runtime_report_ok(ok)
    assert not fresh.runtime_report_ok(ok.replace("autograd: ok (>= 1.6)", "autograd: NOT INSTALLED (>= 1.6)"))
    assert not fresh.runtime_report_ok("no report at all")
    assert fresh.test_tools() == [lock_tool.requirement_name(r) for r in
                                  __import__("tomllib").loads((ROOT / "pyproject.toml").read_text())["project"]
                                  ["optional-dependencies"]["test"]]


def test_binder_installs_the_lock():
    requirements = (ROOT / "binder" / "requirements.txt").read_text().split("\n")
    assert "-r ../requirements-runtime.txt" in requirements  # a student's install, no test tools
    assert re.fullmatch(r"python-3\.1[1-9]\n", (ROOT / "binder" / "runtime.txt").read_text())
    post = (ROOT / "binder" / "postBuild").read_text()
    assert "pip install --no-deps -e ." in post and "student_edition.py" in post and "warm_cache.py" in post


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("platform", PLATFORMS)
def test_the_runtime_lock_installs_the_full_locks_versions(platform, python):
    """On every platform a student meets, requirements-runtime.txt selects exactly one pin per package,
    the same version that requirements-lock.txt selects there (the stored outputs' versions), and every
    dependency and the student extra."""
    env = _environment(platform, python)
    full = _selected(env)
    runtime = {}
    for name, versions in lock_tool.pins(lock_tool.RUNTIME).items():
        chosen = [v for v, marker in versions if not marker or Marker(marker).evaluate(env)]
        assert len(chosen) <= 1, (name, chosen)
        runtime.update({name: v for v in chosen})
    assert {name: full.get(name) for name in runtime} == runtime
    for requirement in lock_tool.declared_runtime():
        assert lock_tool.requirement_name(requirement) in runtime, (platform, requirement)


def test_the_warm_cache_step_is_the_packages(capsys):
    """The student lines, ``make lab`` and Binder run tools/warm_cache.py, which runs the package's step (a
    wheel user without the checkout runs ``python -m obcd_lite.experiments.warm_cache``): it compiles each
    family it is given, names it with its CPU time, and refuses what is not a dict of families."""
    from obcd_lite.experiments import warm_cache
    from obcd_lite.penalties import L1

    seconds = warm_cache.warm({"l1 only": (L1(0.1),)})
    assert list(seconds) == ["l1 only"] and seconds["l1 only"] >= 0
    assert "  l1 only: " in capsys.readouterr().out
    with pytest.raises(TypeError, match=r"families must be a dict .* got list"):
        warm_cache.warm([L1(0.1)])
    assert list(warm_cache.FAMILIES)[0] == "h = 0, l1, X >= 0"  # notebook 00's family first
    spec = importlib.util.spec_from_file_location("warm_cache_tool", ROOT / "tools" / "warm_cache.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.compile_kernels is warm_cache.main
    assert all(importlib.util.find_spec(module) for module in tool.FIRST_IMPORTS)
