"""Does this Python environment meet the requirements in ``pyproject.toml``?

Used by ``notebooks/00_index.ipynb`` (its install check) and tested in
``tests/test_install_check.py``. Requirements are parsed and compared with
``packaging`` (``Requirement``, ``Version``), the same rules pip applies, and the
installed versions are read with ``importlib.metadata``; nothing is copied from
pyproject.toml, so the check stays in step with it.
"""
from __future__ import annotations

import importlib
import importlib.metadata as metadata
import tomllib
from pathlib import Path
from typing import NamedTuple

from packaging.requirements import Requirement
from packaging.version import InvalidVersion, Version

#: Distribution name (normalised) -> module name, where importing the distribution's name would fail.
IMPORT_NAME = {"pyyaml": "yaml", "scikit-learn": "sklearn"}


class RequirementCheck(NamedTuple):
    """One requirement of pyproject.toml, checked against this environment.

    ``spec`` is the version specifier as text (``">= 1.24"``, ``"== 1.14.*"``; ``""`` for any
    version), ``installed`` the installed version (None if not installed), ``ok`` whether the
    requirement is met and ``status`` the verdict as text: ``"ok"``, ``"NOT INSTALLED"``,
    ``"TOO OLD/NEW (have X)"``, ``"INVALID VERSION (have X)"`` or ``"IMPORT FAILED (Error)"``.

    Attributes
    ----------
    name : str
        The distribution's name, as the requirement spells it.
    spec : str
        The version specifier as text.
    installed : str or None
        The installed version.
    ok : bool
        Whether the requirement is met.
    status : str
        The verdict as text.
    """

    name: str
    spec: str
    installed: str | None
    ok: bool
    status: str


def find_pyproject(start: Path | str | None = None) -> Path:
    """The first ``pyproject.toml`` in ``start`` (default: the working directory) or a folder above it.

    Parameters
    ----------
    start : Path or str or None
        Path-like or None
        The folder to start from.

    Returns
    -------
    pathlib.Path
        The file found.

    Raises
    ------
    FileNotFoundError
        If no folder from ``start`` upwards holds a pyproject.toml.
    """
    here = Path.cwd() if start is None else Path(start).resolve()
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").is_file():
            return folder / "pyproject.toml"
    raise FileNotFoundError(f"no pyproject.toml in {here} or any folder above it")


def checkout_pyproject(start: Path | str | None = None) -> Path | None:
    """The checkout's pyproject.toml (:func:`find_pyproject`), or None where there is none: an installed
    wheel used from a folder outside the repository (JupyterHub, Colab, a student's laptop).

    Parameters
    ----------
    start : Path or str or None
        As in :func:`find_pyproject`.

    Returns
    -------
    pathlib.Path or None
        The file, or None.
    """
    try:
        return find_pyproject(start)
    except FileNotFoundError:
        return None


def installed_requirements(extra: str | None = None) -> list[str]:
    """The requirements the installed ``obcd-lite`` declares (its metadata, written from pyproject.toml
    when the wheel was built): the dependencies, or one extra's list without its marker.

    Parameters
    ----------
    extra : str or None
        The optional dependency group; None: the dependencies.

    Returns
    -------
    list of str
        The requirement strings.

    Raises
    ------
    KeyError
        If the installed package has no group ``extra``.
    """
    declared = [Requirement(r) for r in metadata.requires("obcd-lite") or []]
    if extra is None:  # platform markers stay (check_requirement evaluates them)
        return [str(r) for r in declared if r.marker is None or "extra" not in str(r.marker)]
    tagged = [r for r in declared if r.marker is not None and f'extra == "{extra}"' in str(r.marker)]
    if not tagged:
        raise KeyError(f"the installed obcd-lite has no optional dependency group {extra!r}")
    return [str(r).split(";")[0].strip() for r in tagged]


def read_requirements(pyproject_path: Path | str | None, extra: str | None = None) -> list[str]:
    """``[project] dependencies`` of the file, or its ``[project.optional-dependencies] extra`` list;
    ``None``: the installed package's (:func:`installed_requirements`).

    Parameters
    ----------
    pyproject_path : Path or str or None
        Path-like or None
        The pyproject.toml to read; None: the installed package's metadata.
    extra : str or None
        The optional dependency group; None: the dependencies.

    Returns
    -------
    list of str
        The requirement strings, in the file's order.

    Raises
    ------
    KeyError
        If there is no group ``extra``.
    """
    if pyproject_path is None:
        return installed_requirements(extra)
    path = Path(pyproject_path)
    project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
    if extra is None:
        return list(project.get("dependencies", []))
    extras = project.get("optional-dependencies", {})
    if extra not in extras:
        raise KeyError(f"{path} has no optional dependency group {extra!r}; it has {sorted(extras)}")
    return list(extras[extra])


def spec_text(req: Requirement) -> str:
    """The specifier as sorted ``"op version"`` clauses joined by ``", "``; ``""`` for any version.

    Parameters
    ----------
    req : packaging.requirements.Requirement
        The requirement.

    Returns
    -------
    str
        The specifier as text.
    """
    return ", ".join(f"{s.operator} {s.version}" for s in sorted(req.specifier, key=lambda s: (s.operator, s.version)))


def check_requirement(text: str, do_import: bool = False) -> RequirementCheck:
    """Check one requirement string (``"numpy>=1.24"``) against this environment.

    Pre-releases count as meeting a specifier (``2.0rc1`` satisfies ``>= 1``): the point is
    whether the installed code is new enough, not whether pip would pick it. With
    ``do_import`` the module is imported too (``IMPORT_NAME`` maps distribution to module names).

    Parameters
    ----------
    text : str
        The requirement string.
    do_import : bool
        Whether to import the module too.

    Returns
    -------
    RequirementCheck
        The verdict.
    """
    req = Requirement(text)
    spec = spec_text(req)
    if req.marker is not None and not req.marker.evaluate():
        return RequirementCheck(req.name, spec, None, True, "ok")  # not needed on this platform
    try:
        installed = metadata.version(req.name)
    except metadata.PackageNotFoundError:
        return RequirementCheck(req.name, spec, None, False, "NOT INSTALLED")
    try:
        ok = req.specifier.contains(Version(installed), prereleases=True)
    except InvalidVersion:
        return RequirementCheck(req.name, spec, installed, False, f"INVALID VERSION (have {installed})")
    if not ok:
        return RequirementCheck(req.name, spec, installed, False, f"TOO OLD/NEW (have {installed})")
    if do_import:
        key = req.name.lower().replace("_", "-")
        try:
            importlib.import_module(IMPORT_NAME.get(key, key.replace("-", "_")))
        except ImportError as exc:
            return RequirementCheck(req.name, spec, installed, False, f"IMPORT FAILED ({type(exc).__name__})")
    return RequirementCheck(req.name, spec, installed, True, "ok")


def requirement_report(pyproject_path: Path | str | None, extra: str | None = None,
                       do_import: bool = False) -> list[RequirementCheck]:
    """One :class:`RequirementCheck` per requirement of pyproject.toml, in the file's order.

    ``extra=None`` checks ``[project] dependencies``, ``extra="test"`` the ``test`` extra;
    ``pyproject_path=None`` reads them from the installed package's metadata instead.

    Parameters
    ----------
    pyproject_path : Path or str or None
        As in :func:`read_requirements`.
    extra : str or None
        As in :func:`read_requirements`.
    do_import : bool
        Whether to import each module too.

    Returns
    -------
    list of RequirementCheck
        One per requirement.
    """
    return [check_requirement(text, do_import) for text in read_requirements(pyproject_path, extra)]


def report_lines(checks: list[RequirementCheck]) -> list[str]:
    """``"  name: status (spec)"`` per check: deterministic (no installed version unless something is wrong).

    Parameters
    ----------
    checks : list of RequirementCheck
        The checks to report.

    Returns
    -------
    list of str
        One line per check.
    """
    return [f"  {c.name}: {c.status} ({c.spec or 'any version'})" for c in checks]
