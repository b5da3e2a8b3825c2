"""The install paths without make, run as a student would (CI: ``.ci/run`` after ``make test``).

1. **The README's lines, literally.** The block after "**Without make**" in README.md is run line by line
   in a copy of this checkout (``git archive HEAD``, so nothing of the working tree's ``.venv`` or
   ``build/`` helps): a fresh venv, the lock, ``pip install --no-deps -e .``; the last line
   (``jupyter lab notebooks/00_index.ipynb``) is replaced by executing that notebook, and the student
   edition's checks of notebooks 00-03 run in that venv (tests/test_student_edition.py).
2. **The wheel, outside the repository** (what a JupyterHub or Colab user has): ``pip wheel --no-deps .``,
   the editable install replaced by the wheel in the same venv (nothing from the checkout stays
   importable), ``pip check``, and notebook 00 executed from a folder outside the repository: its
   install check reads the requirements from the installed package and must end in ``True``.

The venv is fresh (no ``--system-site-packages``: a dependency missing from pyproject.toml, hence
from the lock, fails here); pip's download cache is reused. Takes a few minutes.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_lines(readme: Path = ROOT / "README.md") -> list[str]:
    """The POSIX block after "**Without make**" in the README, one command a line, comments dropped."""
    text = readme.read_text(encoding="utf-8")
    block = re.search(r"\*\*Without make\*\*.*?```\n(.*?)```", text, re.S)
    if block is None:
        raise ValueError("README.md has no '**Without make**' section with a code block")
    return [line.split("  #")[0].strip() for line in block[1].splitlines() if line.strip()]


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
        lines = readme_lines()
        *install, lab = lines
        if not lab.startswith(".venv/bin/jupyter lab"):
            raise SystemExit(f"the README's block should end in '.venv/bin/jupyter lab ...', not {lab!r}")
        for line in install:  # literally, with this interpreter standing in for `python`
            run(re.sub(r"^python3? ", f"{shlex.quote(sys.executable)} ", line), repo)
        python = repo / ".venv" / "bin" / "python"
        outputs = execute_notebook(python, repo / "notebooks" / "00_index.ipynb", repo / "notebooks")
        assert "all requirements met: True" in outputs, "notebook 00's install check failed in the README's venv"
        run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_student_edition.py",
             "-k", "00_ or 01_ or 02_ or 03_ or placeholder or mark_every"], repo)
        print("the README's lines: notebook 00 and the student edition's checks pass", flush=True)

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
