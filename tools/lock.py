"""Refresh the lock file and environment.yml from pyproject.toml (``make lock``).

pyproject.toml declares each dependency once, with the lowest version the code supports.
``requirements-lock.txt`` pins every package of the environment the notebooks' stored outputs were
recorded with (one resolution for every platform and Python >= 3.11, computed by ``uv pip compile
--universal``); ``make test`` and ``make lab`` install exactly that. ``environment.yml`` (conda) lists
the same packages at the lock's versions. ``tests/test_environment.py`` keeps the three in step.

    python tools/lock.py             # add what pyproject gained; keep every other pin
    python tools/lock.py --upgrade   # move every pin to the newest release pyproject allows
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-lock.txt"
ENVIRONMENT = ROOT / "environment.yml"
#: Resolve for the oldest Python the project supports; --fork-strategy fewest keeps one version of a
#: package for every Python and platform wherever one version can serve them all.
COMPILE = ["pip", "compile", "--universal", "--fork-strategy", "fewest", "--python-version", "3.11",
           "--all-extras", "--no-header", "--quiet", "pyproject.toml", "-o", LOCK.name]
HEADER = ("# The exact environment the notebooks' outputs were recorded with. Written by `make lock`\n"
          "# (tools/lock.py) from pyproject.toml; do not edit by hand.\n")
#: Packages conda-forge does not carry (installed by pip inside the conda environment).
PIP_ONLY = {"playwright", "jupyter-server-mathjax", "uv"}


def normalise(name: str) -> str:
    """PEP 503 name: lower case, runs of - _ . as one -."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> list[str]:
    """Every requirement of pyproject.toml: dependencies, then each extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["dependencies"] + sum(project.get("optional-dependencies", {}).values(), [])


def requirement_name(requirement: str) -> str:
    return normalise(re.match(r"\s*([A-Za-z0-9_.\-]+)", requirement)[1])


def pins() -> dict[str, list[tuple[str, str]]]:
    """Package -> [(version, environment marker or "")] as the lock file pins it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for line in LOCK.read_text().splitlines():
        m = re.match(r"([A-Za-z0-9_.\-]+)(\[[^\]]*\])?==([^\s;]+)\s*(?:;\s*(.*))?$", line.strip())
        if m:
            out.setdefault(normalise(m[1]), []).append((m[3], m[4] or ""))
    return out


def environment_yml() -> str:
    """environment.yml: the declared packages at the lock's versions (Python 3.11's where they fork)."""
    locked = pins()
    conda, pip = [], []
    for requirement in declared():
        name = requirement_name(requirement)
        versions = locked[name]
        version = next((v for v, marker in versions if not marker or "< '3.1" in marker), versions[0][0])
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
    args = parser.parse_args()
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        sys.exit("uv is not installed: `pip install -e '.[lock]'` (make lock does this)")
    subprocess.run([uv, *COMPILE, *(["--upgrade"] if args.upgrade else [])], cwd=ROOT, check=True)
    LOCK.write_text(HEADER + LOCK.read_text())
    ENVIRONMENT.write_text(environment_yml())
    print(f"wrote {LOCK.name} ({len(pins())} packages) and {ENVIRONMENT.name}")


if __name__ == "__main__":
    main()
