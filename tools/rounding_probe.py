"""Which CPU configurations change result bits on this machine (issue 17).

Runs a fixed set of computations in a fresh process under each configuration and prints a hash of
each result: an OBCD run's X (compiled engine, l1), a ManPG run's X, an eigen-decomposition and a
certificate of notebook 05 (the Riemannian residual). A configuration whose hashes differ from the
native ones changes rounding, and CI runs the notebooks under it.

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

#: name -> environment overrides. NUMBA_CACHE_DIR is set per configuration that changes numba's target.
CONFIGURATIONS = {
    "native": {},
    "numpy baseline SIMD only": {"NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"},
    "numpy without AVX-512": {"NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"},
    "OpenBLAS Haswell": {"OPENBLAS_CORETYPE": "Haswell"},
    "OpenBLAS Prescott": {"OPENBLAS_CORETYPE": "Prescott"},
    "numba generic x86-64": {"NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": "<tmp>"},
}


def _digest(a) -> str:
    import numpy as np
    return hashlib.sha256(np.ascontiguousarray(a, dtype=float).tobytes()).hexdigest()[:12]


def child() -> dict[str, str]:
    import numpy as np

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
    return out


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
