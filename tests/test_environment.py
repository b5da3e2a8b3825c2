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


#: Nothing a student runs needs these (tests, docs, grading, locking, a dask cluster).
NOT_FOR_STUDENTS = {"sphinx", "myst-nb", "furo", "numpydoc", "playwright", "pytest", "hypothesis", "nbval",
                    "otter-grader", "uv", "distributed", "dask"}


def test_runtime_lock_is_the_students_part_of_the_full_lock():
    """requirements-runtime.txt: every dependency and the student extra pinned, each at a version of the
    full lock, and no test, docs or grading tool."""
    full, runtime = lock_tool.pins(), lock_tool.pins(lock_tool.RUNTIME)
    for requirement in map(Requirement, lock_tool.declared_runtime()):
        assert lock_tool.normalise(requirement.name) in runtime, \
            f"{requirement.name} is a student's requirement but not in requirements-runtime.txt: run `make lock`"
    # The versions must agree; a marker may be narrower where the runtime lock lacks the package that
    # needed it everywhere (psutil: only jupyter's need on every platform).
    different = {name: (versions, full.get(name)) for name, versions in runtime.items()
                 if not {v for v, _ in versions} <= {v for v, _ in full.get(name, [])}}
    assert not different, f"requirements-runtime.txt pins what requirements-lock.txt does not: {different}"
    assert sorted(NOT_FOR_STUDENTS & set(runtime)) == []
    assert {"jupyterlab", "ipykernel", "jupyterlab-rise", "autograd"} <= set(runtime)


def test_the_student_extra_and_the_package_need_no_test_tool():
    declared = {lock_tool.requirement_name(r) for r in lock_tool.declared_runtime()}
    assert sorted(declared & NOT_FOR_STUDENTS) == []


def test_runtime_pins_parse_like_the_full_lock(tmp_path):
    """pins() reads a lock that it is given, not always the full one (the runtime test above relies on it)."""
    lock = tmp_path / "lock.txt"
    lock.write_text("# header\nnumpy==2.0.1 ; sys_platform == 'win32'\n    # via x\nscipy==1.0\n")
    assert lock_tool.pins(lock) == {"numpy": [("2.0.1", "sys_platform == 'win32'")], "scipy": [("1.0", "")]}
