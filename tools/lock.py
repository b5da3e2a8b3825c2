"""Refresh the lock files and environment.yml from pyproject.toml (``make lock``).

pyproject.toml declares each dependency once, with the lowest version the code supports.
``requirements-lock.txt`` pins every package of the environment the notebooks' stored outputs were
recorded with (one resolution for every platform and Python >= 3.11, computed by ``uv pip compile
--universal``); ``make test`` and ``make lab`` install exactly that. ``requirements-runtime.txt`` is the
student's part of it: the package's dependencies and the ``student`` extra (JupyterLab, the kernel,
live slides), nothing for tests, docs or grading, at the full lock's versions (resolved with the full
lock as constraints). ``environment.yml`` (conda) lists the declared packages at the lock's versions.
``tests/test_environment.py`` keeps the four in step.

    python tools/lock.py             # add what pyproject gained; keep every other pin
    python tools/lock.py --upgrade   # move every pin to the newest release pyproject allows
    python tools/lock.py --check-wheels   # only check: wheels for Linux, macOS (arm64, x86-64), Windows

Both first write the lock, then check it: every platform of ``PLATFORMS`` must install it from wheels
alone (``uv pip compile --only-binary :all:`` for that platform; needs PyPI).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-lock.txt"
RUNTIME = ROOT / "requirements-runtime.txt"
#: The extra that requirements-runtime.txt adds to the package's dependencies.
STUDENT_EXTRA = "student"
ENVIRONMENT = ROOT / "environment.yml"
#: Resolve for the oldest Python the project supports; --fork-strategy fewest keeps one version of a
#: package for every Python and platform wherever one version can serve them all.
RESOLVE = ["pip", "compile", "--universal", "--fork-strategy", "fewest", "--python-version", "3.11",
           "--no-header", "--quiet", "pyproject.toml"]
COMPILE = [*RESOLVE, "--all-extras", "-o", LOCK.name]
#: The student's lock: never an upgrade of its own; the full lock constrains it, so each of its pins is
#: the full lock's (a test checks).
COMPILE_RUNTIME = [*RESOLVE, "--extra", STUDENT_EXTRA, "--constraint", LOCK.name, "-o", RUNTIME.name]
#: Platforms the lock must install on from wheels alone (uv's target triples): Linux, macOS on Apple
#: silicon and on Intel, Windows. ``--check-wheels`` resolves the lock for each with ``--only-binary``.
PLATFORMS = {"Linux x86-64": "x86_64-unknown-linux-gnu", "macOS arm64": "aarch64-apple-darwin",
             "macOS x86-64": "x86_64-apple-darwin", "Windows x86-64": "x86_64-pc-windows-msvc"}
#: Caps for a platform where the newest release has no wheel (universal resolution does not look at
#: wheels, and pip would build from source: for llvmlite that needs LLVM). Each forks the lock there.
PLATFORM_CAPS = [
    # numba 0.62.1 (llvmlite 0.45.1, numpy < 2.4) is the last release with Intel-mac wheels
    "numba<0.63 ; sys_platform == 'darwin' and platform_machine == 'x86_64'",
    "argon2-cffi-bindings<26 ; sys_platform == 'darwin' and platform_machine == 'x86_64'",
]
HEADER = ("# The exact environment the notebooks' outputs were recorded with. Written by `make lock`\n"
          "# (tools/lock.py) from pyproject.toml; do not edit by hand.\n")
RUNTIME_HEADER = ("# A student's install: the package's dependencies, JupyterLab, the kernel and live slides, at the\n"
                  "# versions of requirements-lock.txt (no test, docs or grading tools). Written by `make lock`\n"
                  "# (tools/lock.py) from pyproject.toml; do not edit by hand. Install it: docs/install.md\n")
#: Packages conda-forge does not carry (installed by pip inside the conda environment).
PIP_ONLY = {"playwright", "jupyter-server-mathjax", "uv", "sphinx-revealjs", "jupyterlab-rise"}


def normalise(name: str) -> str:
    """PEP 503 name: lower case, runs of - _ . as one -."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> list[str]:
    """Every requirement of pyproject.toml: dependencies, then each extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["dependencies"] + sum(project.get("optional-dependencies", {}).values(), [])


def requirement_name(requirement: str) -> str:
    return normalise(re.match(r"\s*([A-Za-z0-9_.\-]+)", requirement)[1])


def declared_runtime() -> list[str]:
    """The requirements of requirements-runtime.txt: the dependencies and the ``student`` extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["dependencies"] + project["optional-dependencies"][STUDENT_EXTRA]


def pins(lock: Path = LOCK) -> dict[str, list[tuple[str, str]]]:
    """Package -> [(version, environment marker or "")] as the lock file ``lock`` pins it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for line in lock.read_text().splitlines():
        m = re.match(r"([A-Za-z0-9_.\-]+)(\[[^\]]*\])?==([^\s;]+)\s*(?:;\s*(.*))?$", line.strip())
        if m:
            out.setdefault(normalise(m[1]), []).append((m[3], m[4] or ""))
    return out


def environment_yml() -> str:
    """environment.yml: the declared packages at the lock's versions (Python 3.11 on Linux x86-64's where
    they fork: the environment the stored outputs were recorded with)."""
    from packaging.markers import Marker

    recorded = {"python_version": "3.11", "python_full_version": "3.11.7", "sys_platform": "linux",
                "platform_machine": "x86_64", "os_name": "posix", "platform_system": "Linux",
                "implementation_name": "cpython"}
    locked = pins()
    conda, pip = [], []
    for requirement in declared():
        name = requirement_name(requirement)
        versions = locked[name]
        version = next(v for v, marker in versions if not marker or Marker(marker).evaluate(recorded))
        (pip if name in PIP_ONLY else conda).append(f"{name}=={version}")
    lines = ["# conda env create -f environment.yml  (written by `make lock` from pyproject.toml and",
             "# requirements-lock.txt: the same packages at the same versions; tests/test_environment.py checks)",
             "name: obcd-lite", "channels:", "  - conda-forge", "dependencies:", "  - python>=3.11", "  - pip"]
    lines += [f"  - {c}" for c in conda]
    lines += ["  - pip:", "      - -e ."] + [f"      - {p}" for p in pip]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upgrade", action="store_true", help="move every pin to the newest allowed release")
    parser.add_argument("--check-wheels", action="store_true",
                        help="only check that the lock installs from wheels on every platform of PLATFORMS")
    args = parser.parse_args()
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        sys.exit("uv is not installed: `pip install -e '.[lock]'` (make lock does this)")
    if not args.check_wheels:
        # a fixed relative path: the lock files name it in their "# via" comments
        caps = ROOT / "build" / "lock-platform-caps.txt"
        caps.parent.mkdir(exist_ok=True)
        caps.write_text("\n".join(PLATFORM_CAPS) + "\n")
        caps_name = str(caps.relative_to(ROOT))
        subprocess.run([uv, *COMPILE, "--constraint", caps_name, *(["--upgrade"] if args.upgrade else [])],
                       cwd=ROOT, check=True)
        LOCK.write_text(HEADER + LOCK.read_text())
        subprocess.run([uv, *COMPILE_RUNTIME, "--constraint", caps_name], cwd=ROOT, check=True)
        caps.unlink()
        RUNTIME.write_text(RUNTIME_HEADER + RUNTIME.read_text())
        ENVIRONMENT.write_text(environment_yml())
        print(f"wrote {LOCK.name} ({len(pins())} packages), {RUNTIME.name} ({len(pins(RUNTIME))} packages) "
              f"and {ENVIRONMENT.name}")
    failed = []
    for lock in (LOCK, RUNTIME):
        for label, triple in PLATFORMS.items():
            done = subprocess.run([uv, "pip", "compile", lock.name, "--python-platform", triple, "--python-version",
                                   "3.11", "--only-binary", ":all:", "--no-header", "--quiet", "-o", os.devnull],
                                  cwd=ROOT, capture_output=True, text=True)
            print(f"{lock.name}, {label}: {'installs from wheels' if done.returncode == 0 else 'FAILS'}")
            if done.returncode:
                failed.append(f"{lock.name}, {label}: {done.stderr.strip()}")
    if failed:
        sys.exit("the lock does not install from wheels everywhere:\n" + "\n".join(failed))


if __name__ == "__main__":
    main()
