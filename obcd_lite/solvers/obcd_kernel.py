"""OBCD's whole k = 2 iteration compiled with numba: the "compiled" engine of :func:`~.obcd.obcd`.

One call of :func:`run_steps` does a chunk of Algorithm 1 iterations on a ``QuadraticProblem``
f(X) = 1/2 tr(X^T C X D) + <X, L> + const with a built-in penalty, for working sets drawn by the
Python driver (the same draws as the Python engine). Each iteration is the Python engine's, made of
the same compiled functions, so the iterates agree bit for bit:

1. block data of Lemma 2.3(a), ``block_arithmetic.block_2x2``: Z = X(B, :), Q of eq. (9) or (10),
   Qt = Q + alpha I and P;
2. the coefficients of eq. (1-D) and the compiled sweep ``subproblem.sweep.sweep_into`` (the body of
   ``sweep_2x2``, called with one workspace, not copied), which returns V Z with its zeros to rounding
   exact (h = 0: V Z by ``rotate_rows``); to read the search, see ``subproblem/reference.py``;
3. X(B, :) <- V Z, with the exact change of h;
4. ``block_arithmetic.step_2x2``: the exact change of f and G += C(:, B) dZ D (Appendix C.3 (i)),
   a rank-2 update read row by row from the rows B of the symmetric C.

Memory beyond X, G and C: the O(r) buffers of one call, the sweep's workspace among them (allocated
once per call and reused by every step: the loop allocates nothing; only capped l1 still sorts with
``np.argsort``, which allocates).
L enters only through G (whose update does not involve it) and the starting F.

numba caches :func:`run_steps` with the functions it calls compiled in, and checks only this
file's time stamp: after editing ``sweep.py``, ``polynomial_roots.py`` or ``block_arithmetic.py``,
delete ``obcd_lite/**/__pycache__/*.nbi`` / ``*.nbc`` (the tests of equal iterates catch a stale cache). The same
holds for ``sweep.py``'s own cache after editing ``window.py``, ``crossings.py`` or ``l0_points.py``: a
stale compiled sweep that writes to a workspace of another shape can crash the process.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..block_arithmetic import block_2x2, coefficients_2x2, rotate_rows, step_2x2
from ..penalties import CAPPED_KIND, L0_KIND, L1_KIND, NONNEG_KIND, ZERO_KIND
from ..specialise import FAMILIES, family, specialised
from ..subproblem.sweep import SWEEP_INTO
from ..subproblem.workspace import sweep_workspace

@njit(cache=True)
def _penalty_value(M, kind, lam, tau):
    """h(M) of the built-in penalty ``kind`` (what ``Penalty.__call__`` returns)."""
    total = 0.0
    count = 0
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            u = M[i, j]
            if kind == L1_KIND:
                total += abs(u)
            elif kind == CAPPED_KIND:
                total += min(abs(u), tau)
            elif kind == L0_KIND:
                if u != 0.0:
                    count += 1
            elif kind == NONNEG_KIND:
                if not u >= 0.0:
                    return np.inf
    if kind == L0_KIND:
        return lam * count
    if kind == L1_KIND or kind == CAPPED_KIND:
        return lam * total
    return 0.0


def _run_steps(C, D, X, G, blocks, alpha, exact, kind, lam, tau, first, last, F, trace):
    """Do ``len(blocks)`` OBCD iterations (k = 2) in place on X and G; return the tracked F.

    Parameters
    ----------
    C : numpy.ndarray, shape (n, n)
        Symmetric, C-contiguous.
    D : numpy.ndarray, shape (r, r) or (0, 0)
        (0, 0) for D = I.
    X, G : numpy.ndarray, shape (n, r)
        C-contiguous iterate and gradient grad f(X) = C X D + L, updated in place.
    blocks : numpy.ndarray of int64, shape (m, 2)
        The working sets, rows b0 < b1.
    alpha : float
        Proximal parameter of eq. (11).
    exact : bool
        Q of eq. (9) (True) or eq. (10) (False).
    kind : int
        The penalty's kind as the sweep reads it (``ZERO_KIND`` for h = 0).
    lam, tau : float
        The penalty's parameters (ignored where it has none).
    first, last : int
        Branches searched, 0 (rot) to 1 (ref) inclusive.
    F : float
        F(X) on entry (tracked exactly from the change of the two rows).
    trace : numpy.ndarray, shape (m, 2)
        Receives F before - F after and ||V - I||_F^2 of every step, or
        (0, 2) for none.

    Returns
    -------
    float
        The tracked F after the steps.

    Notes
    -----
    ``run_steps`` handles every penalty; ``run_steps_for(kind)`` is the same code compiled with the
    sweep of that kind's family only (:mod:`obcd_lite.specialise`), which is what :func:`~.obcd.obcd` runs.
    """
    r = X.shape[1]
    Z = np.empty((2, r))
    ZD = np.empty((2, r))
    dZ = np.empty((2, r))
    dZD = np.empty((2, r))
    VZ = np.empty((2, r))
    no_rows = np.empty((2, 0))
    work = sweep_workspace(0 if kind == ZERO_KIND else r)   # the sweep's scratch, reused by every step
    Qt = np.empty((4, 4))
    P = np.empty((2, 2))
    coef = np.empty((2, 5))
    record = trace.shape[0] > 0
    for step in range(blocks.shape[0]):
        b0, b1 = blocks[step, 0], blocks[step, 1]
        block_2x2(C, D, X, G, b0, b1, alpha, exact, Z, ZD, Qt, P)
        coefficients_2x2(Qt, P, coef)
        # one call site: the sweep is compiled (and inlined) once into this loop
        rows, new_rows = (no_rows, no_rows) if kind == ZERO_KIND else (Z, VZ)
        branch, c, s, _ = sweep_into(coef, rows, kind, lam, tau, first, last, work, new_rows)
        if kind == ZERO_KIND:   # h = 0 needs no rows in the sweep: V Z is formed here
            rotate_rows(Z, branch, c, s, VZ)
            h_change = 0.0
        else:
            h_change = _penalty_value(VZ, kind, lam, tau) - _penalty_value(Z, kind, lam, tau)
        for a in range(2):
            for j in range(r):
                dZ[a, j] = VZ[a, j] - Z[a, j]
        F_before = F
        F += step_2x2(C, D, G, b0, b1, dZ, dZD) + h_change
        for j in range(r):
            X[b0, j] = VZ[0, j]
            X[b1, j] = VZ[1, j]
        if record:
            trace[step, 0] = F_before - F
            first_diagonal = c - 1.0 if branch == 0 else -c - 1.0
            trace[step, 1] = first_diagonal * first_diagonal + (c - 1.0) ** 2 + 2.0 * s * s
    return F


# One compiled copy per penalty family, each with its family's sweep: a first l1 solve compiles
# neither l0's search nor capped l1's sort (obcd_lite.specialise).
_RUN_STEPS = {name: specialised(_run_steps, "run_steps" + ("" if name == "all" else f"_{name}"),
                                sweep_into=SWEEP_INTO[name]) for name in FAMILIES}
run_steps = _RUN_STEPS["all"]


def run_steps_for(kind: int):
    """The compiled ``run_steps`` for the penalty ``kind`` (``penalties.*_KIND``): the copy of its family.

    Parameters
    ----------
    kind : int
        ``ZERO_KIND``, ``L1_KIND``, ``L0_KIND``, ``CAPPED_KIND`` or ``NONNEG_KIND``.

    Returns
    -------
    numba.core.registry.CPUDispatcher
        ``run_steps`` compiled for that family only; call it only with penalties of that family.

    Raises
    ------
    ValueError
        If ``kind`` is not a built-in penalty kind.
    """
    if kind not in (ZERO_KIND, L1_KIND, L0_KIND, CAPPED_KIND, NONNEG_KIND):
        raise ValueError(f"kind must be one of the built-in penalty kinds (penalties.*_KIND), got {kind!r}")
    return _RUN_STEPS[family(kind)]
