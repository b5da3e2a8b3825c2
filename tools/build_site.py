"""Build the course site (``docs/``) into a folder: ``make site`` and the site tests both run this.

A fresh build (``-E``: every page read again, so a second run reports what the first one did) with
warnings as errors (``-W --keep-going``: every warning is listed, then the build fails) and
``nitpicky`` (set in ``docs/conf.py``). The doctrees go beside the site, not into it.

    python tools/build_site.py build/site                        # the student edition
    python tools/build_site.py build/site --edition instructor   # with answers and solutions
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    """Build the site into the folder given; return Sphinx's exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the site's folder (index.html goes there)")
    parser.add_argument("--edition", choices=("student", "instructor"), default="student",
                        help="student (default): no solutions, hidden tests or answers; instructor: everything")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    doctrees = out.parent / f"{out.name}-doctrees"
    started = time.monotonic()
    status = subprocess.call([sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
                              "-d", str(doctrees), str(ROOT / "docs"), str(out)], cwd=ROOT,
                             env={**os.environ, "OBCD_SITE_EDITION": args.edition})
    if status == 0:
        pages = sum(1 for _ in out.rglob("*.html"))
        print(f"The site ({args.edition} edition): {out / 'index.html'} ({pages} pages, built in {time.monotonic() - started:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
