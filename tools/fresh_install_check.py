"""The install paths without make, run as a student would (CI: ``.ci/run`` after ``make test``).

1. **A student's lines, literally.** The block after "**Student install, Linux and macOS**" in
   docs/install.md (the README repeats it) is run line by line in a copy of this checkout (``git archive
   HEAD``, so nothing of the working tree's ``.venv``, ``build/`` or numba cache helps): a fresh venv, uv,
   the runtime lock and the package in one ``uv pip install`` (no test tools: checked),
   ``tools/warm_cache.py``; the last line (``jupyter lab notebooks/00_index.ipynb``) is replaced by
   ``jupyter lab --version`` and by executing that notebook, whose every runtime requirement must be
   *ok*. The install's time and size are printed. Then the test tools of the full lock are added and the student edition's checks of
   notebooks 00-03 run in that venv (tests/test_student_edition.py).
2. **The wheel, outside the repository** (what a JupyterHub or Colab user has): ``pip wheel --no-deps .``,
   the editable install replaced by the wheel in the same venv (nothing from the checkout stays
   importable), ``pip check``, the wheel's own warm-cache step (``python -m
   obcd_lite.experiments.warm_cache``, no ``tools/``) and notebook 00 executed from a folder outside the
   repository: its install check reads the requirements from the installed package and must end in
   ``True``.

The venv is fresh (no ``--system-site-packages``: a dependency missing from pyproject.toml, hence
from the lock, fails here); pip's and uv's download caches are reused. Takes a few minutes.

    python tools/fresh_install_check.py [--keep]
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


INSTALL_PAGE = ROOT / "docs" / "install.md"
POSIX, WINDOWS = "Student install, Linux and macOS", "Student install, Windows"


def install_lines(heading: str = POSIX, page: Path = INSTALL_PAGE) -> list[str]:
    """The code block after the bold ``heading`` on ``page``, one command a line, comments dropped."""
    text = page.read_text(encoding="utf-8")
    block = re.search(r"\*\*" + re.escape(heading) + r"\*\*.*?```\n(.*?)```", text, re.S)
    if block is None:
        raise ValueError(f"{page.name} has no '**{heading}**' heading followed by a code block")
    return [line.split("  #")[0].strip() for line in block[1].splitlines() if line.strip()]


def test_tools() -> list[str]:
    """The test extra's package names (pyproject.toml), installed at the full lock's versions."""
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    return [re.match(r"[A-Za-z0-9_.\-]+", requirement)[0] for requirement in extra]


def runtime_report_ok(outputs: str) -> bool:
    """Every line of notebook 00's "required packages" report says ok (at least one line)."""
    block = re.search(r"required packages[^\n]*\n((?:  [^\n]*\n)+)", outputs)
    return block is not None and all(": ok (" in line for line in block[1].splitlines())


def run(command: list[str] | str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    shown = command if isinstance(command, str) else shlex.join(command)
    print(f"$ {shown}    (in {cwd})", flush=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(command, cwd=cwd, env=env, shell=isinstance(command, str), text=True,
                          capture_output=True, **kwargs)
    if done.returncode:
        raise SystemExit(f"FAILED ({done.returncode}): {shown}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def execute_notebook(python: Path, notebook: Path, cwd: Path) -> str:
    """Execute ``notebook`` in place with the venv's nbconvert; return its text outputs."""
    run([str(python), "-m", "nbconvert", "--to", "notebook", "--execute", "--inplace", str(notebook)], cwd)
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    if errors:
        raise SystemExit(f"{notebook.name} raised: {errors[0]['ename']}: {errors[0]['evalue']}")
    return "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="obcd-fresh-"))
    try:
        repo = tmp / "repo"
        repo.mkdir()
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(repo)], input=archive, check=True)
        *install, lab = install_lines()
        if not lab.startswith(".venv/bin/jupyter lab"):
            raise SystemExit(f"the student block should end in '.venv/bin/jupyter lab ...', not {lab!r}")
        started, cpu = time.monotonic(), os.times()
        for line in install:  # literally, with this interpreter standing in for `python`
            run(re.sub(r"^python3? ", f"{shlex.quote(sys.executable)} ", line), repo)
        done = os.times()
        children_cpu = done.children_user + done.children_system - cpu.children_user - cpu.children_system
        size = subprocess.run(["du", "-sm", str(repo / ".venv")], capture_output=True, text=True).stdout.split()[0]
        print(f"the student lines took {time.monotonic() - started:.0f} s ({children_cpu:.0f} s CPU, the "
              f"warm-cache step included; the download caches as this machine has them); .venv: {size} MB",
              flush=True)
        python = repo / ".venv" / "bin" / "python"
        leaked = run([str(python), "-c", "import importlib.util as u; print([m for m in ('pytest', 'nbval', "
                      "'hypothesis', 'playwright', 'sphinx', 'otter', 'distributed') if u.find_spec(m)])"], repo)
        assert leaked.stdout.strip() == "[]", f"the runtime lock installed test or docs tools: {leaked.stdout}"
        run([str(repo / ".venv" / "bin" / "jupyter"), "lab", "--version"], repo)
        outputs = execute_notebook(python, repo / "notebooks" / "00_index.ipynb", repo / "notebooks")
        assert runtime_report_ok(outputs), "notebook 00's runtime requirements are not all ok in the student's venv"
        run([str(python), "-m", "pip", "install", "-q", "-c", "requirements-lock.txt", *test_tools()], repo)
        run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_student_edition.py",
             "-k", "00_ or 01_ or 02_ or 03_ or placeholder or mark_every"], repo)
        print("the student lines: notebook 00 and the student edition's checks pass", flush=True)

        run([str(python), "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), "."], repo)
        (wheel,) = (tmp / "dist").glob("obcd_lite-*.whl")
        run([str(python), "-m", "pip", "uninstall", "-q", "-y", "obcd-lite"], tmp)
        run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], tmp)
        run([str(python), "-m", "pip", "check"], tmp)
        outside = tmp / "outside"
        outside.mkdir()
        shutil.copy(repo / "notebooks" / "00_index.ipynb", outside)
        shutil.rmtree(repo / "obcd_lite")  # nothing of the checkout is importable any more
        where = run([str(python), "-c", "import obcd_lite; print(obcd_lite.__file__)"], outside).stdout.strip()
        assert "site-packages" in where, f"obcd_lite imported from {where}, not from the installed wheel"
        warmed = run([str(python), "-m", "obcd_lite.experiments.warm_cache"], outside).stdout
        assert "numba cache warm" in warmed, f"the wheel's warm-cache step printed {warmed!r}"
        outputs = execute_notebook(python, outside / "00_index.ipynb", outside)
        assert "the installed package (no checkout above this folder)" in outputs
        assert "all requirements met: True" in outputs, "notebook 00's install check failed with the wheel"
        print(f"the wheel ({wheel.name}), installed non-editable: notebook 00 passes outside the repository")
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
