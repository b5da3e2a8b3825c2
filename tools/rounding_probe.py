"""Which CPU configurations change result bits on this machine (issue 17).

Runs a fixed set of computations in a fresh process under each configuration and prints a hash of
each result: an OBCD run's X (compiled engine, l1), a ManPG run's X, an eigen-decomposition, NumPy's
vectorized exp/sin, a certificate of notebook 05 (the Riemannian residual) and the bits of notebook
05's witnesses, and, last, the text notebook 05 prints for them (through ``rounding.fmt``: it must be
the same everywhere). A configuration whose hashes differ from the native ones changes rounding, and
``make test`` (tools/run_tests.py) runs the notebooks under it.

    .venv/bin/python tools/rounding_probe.py            # the table (Markdown)
    .venv/bin/python tools/rounding_probe.py --child    # one configuration's hashes (internal)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from run_tests import VARIANTS  # tools/run_tests.py, beside this file: the CPU variants of make test

#: name -> environment overrides. NUMBA_CACHE_DIR is set per configuration that changes numba's target.
CONFIGURATIONS = {
    "native": {},
    "numpy baseline SIMD only": {"NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"},
    "numpy without AVX-512": {"NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"},
    "OpenBLAS Haswell": {"OPENBLAS_CORETYPE": "Haswell"},
    "OpenBLAS Prescott": {"OPENBLAS_CORETYPE": "Prescott"},
    "numba generic x86-64": {"NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": "<tmp>"},
}
# ... and the combinations make test runs.
CONFIGURATIONS.update({f"make test: {label}": overrides for label, overrides in VARIANTS.items()})


def _digest(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=float).tobytes()).hexdigest()[:12]


def child() -> dict[str, str]:
    from obcd_lite import L1, get_solver, sparse_pca
    from obcd_lite.data import load_dataset
    from obcd_lite.optimality import riemannian_residual
    from obcd_lite.stiefel import random_stiefel

    ds = load_dataset("randn", m=50, n=60, rng=0)
    problem = sparse_pca(ds.C, L1(1e-3))
    X0 = random_stiefel(60, 5, rng=1)
    out = {}
    out["OBCD X (l1, 3000 steps)"] = _digest(get_solver("obcd")(problem, X0, max_iter=3000, rng=2).X)
    out["ManPG X (l1, 200 steps)"] = _digest(get_solver("manpg")(problem, X0, max_iter=200, rng=2).X)
    out["eigh(C)"] = _digest(np.linalg.eigh(ds.C)[1][:, -5:] ** 2)
    out["exp / sin of a vector"] = _digest(np.exp(np.sin(np.linspace(0, 50, 1001))))
    out["residual of Definition 3.4"] = _digest(riemannian_residual(problem, X0))
    out.update(_notebook_05())
    return out


def _notebook_05() -> dict[str, str]:
    """Bits of notebook 05's witnesses, and the text it prints for them (which must not change)."""
    from obcd_lite import classify
    from obcd_lite.rounding import fmt_array, fmt_interval
    from obcd_lite.teaching.hierarchy import bs2_not_critical_witness
    from obcd_lite.teaching.hierarchy_descent import scalar_q_search

    w = bs2_not_critical_witness("l1")
    problem, X = scalar_q_search(60, rng=0)["witness"]
    c = classify(problem, X, Q="scalar", global_search=False)
    bits = [w.X, [w.residual], list(w.brute.values()), [g for rep in c.blocks.values() for g in rep.gaps.values()]]
    text = "\n".join([fmt_array(w.X), *(fmt_interval(*r) for r in w.pair_ranges.values()), c.summary()])
    return {"notebook 05 witnesses (bits)": _digest(np.concatenate([np.ravel(b) for b in bits])),
            "notebook 05 text (fmt)": hashlib.sha256(text.encode()).hexdigest()[:12]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    if parser.parse_args().child:
        print(json.dumps(child()))
        return
    rows = {}
    for name, overrides in CONFIGURATIONS.items():
        env = dict(os.environ)
        with tempfile.TemporaryDirectory() as tmp:
            env.update({k: (tmp if v == "<tmp>" else v) for k, v in overrides.items()})
            done = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True,
                                  text=True, check=True)
        rows[name] = json.loads(done.stdout.strip().splitlines()[-1])
    native = rows["native"]
    keys = list(native)
    print("| configuration | " + " | ".join(keys) + " |")
    print("|---|" + "---|" * len(keys))
    for name, row in rows.items():
        cells = [row[k] if name == "native" else ("same" if row[k] == native[k] else "**differs**")
                 for k in keys]
        print(f"| {name} ({' '.join(f'{k}={v}' for k, v in CONFIGURATIONS[name].items()) or 'no overrides'}) | "
              + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
