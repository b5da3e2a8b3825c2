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
        if isinstance(dep, dict):
            assert dep["pip"] == ["-e ."], f"unexpected pip section {dep}"
            continue
        name, spec = _normalise(dep)
        if name not in {"python", "pip"}:
            listed[name] = spec
    assert listed == wanted
