"""pyproject.toml and environment.yml must list the same packages and versions."""
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _normalise(requirement: str) -> tuple[str, str]:
    m = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*(\[[^\]]*\])?\s*(.*)", requirement)
    return re.sub(r"[-_.]+", "-", m[1]).lower(), m[3].replace(" ", "")


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dict(_normalise(r) for r in project["dependencies"]
                  + sum(project.get("optional-dependencies", {}).values(), []))
    listed = {}
    for dep in yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]:
        # The pip: section installs the project itself (-e .) and packages conda cannot provide.
        for requirement in dep["pip"] if isinstance(dep, dict) else [dep]:
            if requirement == "-e .":
                continue
            name, spec = _normalise(requirement)
            if name not in {"python", "pip"}:
                assert name not in listed, f"{name} is listed twice in environment.yml"
                listed[name] = spec
    assert listed == wanted


def test_pip_section_installs_the_project():
    pip = [d["pip"] for d in yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"]
           if isinstance(d, dict)]
    assert len(pip) == 1 and "-e ." in pip[0], f"environment.yml needs one pip: section with -e .; got {pip}"
