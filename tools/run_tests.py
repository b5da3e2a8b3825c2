"""`make test`: every test natively, and strict nbval of every notebook under CPU configurations that
change rounding (issue 17: the same stored output on every machine).

The native run (unit, property, strict nbval, browser tests) streams to the terminal. Beside it, in a
second process, strict nbval runs the notebooks once per CPU variant (one after the other); each
variant's output is printed, labelled, when it ends. The variants are the configurations that
``tools/rounding_probe.py`` found to change result bits (NumPy's SIMD dispatch limited, OpenBLAS's
kernels forced to an older core). They share the numba cache: they do not change numba's target.

A variant is skipped with a printed reason, never failed, where it cannot run: on a CPU that is not
x86-64 (Apple Silicon: these feature and core names do not exist there), or where NumPy refuses the
feature names. The exit status is 1 when any run fails.

    .venv/bin/python tools/run_tests.py                  # what make test runs
    .venv/bin/python tools/run_tests.py --no-variants    # the native run only
    .venv/bin/python tools/run_tests.py --only-variants  # the variant runs only
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NBVAL = ["--nbval", "--nbval-sanitize-with", "notebooks/sanitize.cfg"]

#: label -> environment overrides. Measured on an AMD EPYC with AVX-512 (docs/results.md, "Same answer on every
#: machine"): OpenBLAS's core type changes OBCD's and ManPG's X, eigh and the residual; NumPy's dispatch
#: changes its vectorized exp/sin. Each variant combines one of each, as a real machine would.
VARIANTS = {
    "old x86 (no AVX: NumPy baseline SIMD, OpenBLAS Prescott)": {
        "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR", "OPENBLAS_CORETYPE": "Prescott"},
    "AVX2 laptop (NumPy without AVX-512, OpenBLAS Haswell)": {
        "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR", "OPENBLAS_CORETYPE": "Haswell"},
}
SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed|error|skipped).*?)\s*=*$")


def skip_reason(overrides: dict) -> str | None:
    """Why this variant cannot run here (None: it can)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return f"the CPU is {platform.machine()}, not x86-64: these NumPy feature and OpenBLAS core names do not exist"
    # NumPy ignores a feature it cannot disable with an ImportWarning: as an error here, it names it.
    probe = subprocess.run([sys.executable, "-W", "error", "-c", "import numpy"], env={**os.environ, **overrides},
                           capture_output=True, text=True)
    if probe.returncode != 0:
        message = " ".join(line.strip() for line in probe.stderr.splitlines()
                           if "disable" in line or "Error" in line) or "(no message)"
        return f"NumPy refuses this configuration here: {message}"
    return None


def summary_line(lines: list[str]) -> str:
    """pytest's final 'N passed, ... in Ts' line (without the = padding)."""
    for line in reversed(lines):
        match = SUMMARY.match(line.strip())
        if match:
            return match.group(1)
    return "(no pytest summary line)"


def run_native(results: dict) -> None:
    """The native run, streamed to the terminal as it goes."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", *NBVAL, "tests", "notebooks"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    tail: list[str] = []
    for line in proc.stdout:
        sys.stdout.write(line)
        tail = (tail + [line.rstrip("\n")])[-20:]
    results["native"] = (proc.wait(), time.perf_counter() - start, summary_line(tail))


def run_variants(results: dict, log_dir: Path) -> None:
    """Strict nbval of every notebook under each variant, one after the other; output printed when each ends."""
    for number, (label, overrides) in enumerate(VARIANTS.items()):
        reason = skip_reason(overrides)
        if reason:
            print(f"\n[variant: {label}] SKIPPED: {reason}", flush=True)
            results[label] = (0, 0.0, f"skipped: {reason}")
            continue
        log = log_dir / f"variant-{number}.log"
        start = time.perf_counter()
        with open(log, "w") as out:
            code = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *NBVAL,
                                   "notebooks"], cwd=ROOT, env={**os.environ, **overrides}, stdout=out,
                                  stderr=subprocess.STDOUT).returncode
        seconds = time.perf_counter() - start
        lines = log.read_text().splitlines()
        settings = " ".join(f"{k}={v!r}" for k, v in overrides.items())
        tag = f"[{label.split(' (')[0]}]"  # every line of this run's output carries it
        print(f"\n[variant: {label}; {settings}] strict nbval of notebooks/, {seconds:.0f} s, exit {code}:\n"
              + "\n".join(f"{tag} {line}" for line in lines), flush=True)
        results[label] = (code, seconds, summary_line(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--no-variants", action="store_true", help="only the native run")
    group.add_argument("--only-variants", action="store_true", help="only the CPU-variant nbval runs")
    args = parser.parse_args()
    results: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        lanes = []
        if not args.no_variants:
            lanes.append(threading.Thread(target=run_variants, args=(results, Path(tmp))))
        if not args.only_variants:
            lanes.append(threading.Thread(target=run_native, args=(results,)))
        for lane in lanes:
            lane.start()
        for lane in lanes:
            lane.join()
    print("\n==== make test: every run ====")
    for label, (code, seconds, line) in results.items():
        verdict = "ok" if code == 0 else f"FAILED (exit {code})"
        print(f"{label}: {verdict}, {seconds:.0f} s: {line}")
    return 0 if all(code == 0 for code, _, _ in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
