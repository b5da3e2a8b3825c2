"""pyproject.toml declares each dependency once; requirements-lock.txt pins all of them and
environment.yml lists the same packages at the lock's versions (``make lock`` writes both)."""
import importlib.metadata
import importlib.util
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("lock_tool", ROOT / "tools" / "lock.py")
lock_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lock_tool)


def test_every_declared_dependency_is_pinned_within_its_range():
    pins = lock_tool.pins()
    for requirement in map(Requirement, lock_tool.declared()):
        name = lock_tool.normalise(requirement.name)
        assert name in pins, f"{name} is declared in pyproject.toml but not pinned: run `make lock`"
        for version, marker in pins[name]:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"{name}=={version} ({marker or 'all platforms'}) is outside pyproject's {requirement.specifier}")


def test_lock_pins_are_exact_and_unique():
    for name, versions in lock_tool.pins().items():
        markers = [m for _, m in versions]
        assert len(set(markers)) == len(markers), f"{name} pinned twice for the same platforms: {versions}"


def test_environment_yml_follows_the_lock():
    assert (ROOT / "environment.yml").read_text() == lock_tool.environment_yml(), \
        "environment.yml is out of step with pyproject.toml / requirements-lock.txt: run `make lock`"
    deps = yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
    listed = [r for d in deps for r in (d["pip"] if isinstance(d, dict) else [d])]
    declared = {lock_tool.requirement_name(r) for r in lock_tool.declared()}
    named = {lock_tool.requirement_name(r) for r in listed if r != "-e ." and not r.startswith(("python", "pip"))}
    assert named == declared


def test_pip_section_installs_the_project():
    pip = [d["pip"] for d in yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
           if isinstance(d, dict)]
    assert len(pip) == 1 and "-e ." in pip[0], f"environment.yml needs one pip: section with -e .; got {pip}"


@pytest.mark.skipif(not (ROOT / ".venv").exists(), reason="not the environment `make install` builds")
def test_the_running_environment_is_the_locked_one():
    """The stored outputs were recorded with the lock's versions; make test runs with exactly those."""
    pins = lock_tool.pins()
    wrong = []
    for requirement in map(Requirement, lock_tool.declared()):
        name = lock_tool.normalise(requirement.name)
        installed = importlib.metadata.version(name)
        allowed = {v for v, marker in pins[name] if not marker or Requirement(f"x; {marker}").marker.evaluate()}
        if installed not in allowed:
            wrong.append(f"{name} {installed} (lock: {sorted(allowed)})")
    assert not wrong, "installed versions differ from requirements-lock.txt (make install): " + ", ".join(wrong)
