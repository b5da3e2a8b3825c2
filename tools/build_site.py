"""Build the course site (``docs/``) into a folder: ``make site`` and the site tests both run this.

A fresh build (``-E``: every page read again, so a second run reports what the first one did) with
warnings as errors (``-W --keep-going``: every warning is listed, then the build fails) and
``nitpicky`` (set in ``docs/conf.py``). The doctrees go beside the site, not into it.

    python tools/build_site.py build/site
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    """Build the site into the folder given; return Sphinx's exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the site's folder (index.html goes there)")
    out = parser.parse_args(argv).out.resolve()
    doctrees = out.parent / f"{out.name}-doctrees"
    started = time.monotonic()
    status = subprocess.call([sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
                              "-d", str(doctrees), str(ROOT / "docs"), str(out)], cwd=ROOT)
    if status == 0:
        pages = sum(1 for _ in out.rglob("*.html"))
        print(f"The site: {out / 'index.html'} ({pages} pages, built in {time.monotonic() - started:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
