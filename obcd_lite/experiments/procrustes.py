"""Procrustes on O(p) in the setting of RCD's own experiment (issue 20, notebook 07): the det-mismatch
floor that a rotations-only method cannot leave, and the race to it (figures in :mod:`obcd_lite.viz.relatives`).

RCD's experiment: Han, Jawanpuria, Mishra, ICML 2024, ``andyjm3/rcd:test_procrustes.m``, example 1:
min -tr(X^T B A^T)/p over O(p), A = randn(p, p), B = randn(p, p), X0 = qr(randn(p, p)). Every row update
X(B,:) <- V X(B,:) multiplies det X by det V, so a rotations-only method stays in {det X = det X0}. When
det X0 differs from the sign of the global minimizer U V^T (M = B A^T = U S V^T), the best it can reach is
:func:`special_procrustes`: U diag(1, ..., 1, -1) V^T, the SVD with the smallest singular value's sign
flipped, whose gap is exactly 2 s_min / p (:func:`procrustes_floor_gap`). The ablation grid and the
agreement census are in :mod:`obcd_lite.experiments.relatives`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..optimality import block_report
from ..problems import QuadraticProblem, sparse_pca
from ..solvers import get_solver
from ..validation import as_matrix


#: Relative optimality gap at which RCD's experiment stops (``minoptgaptol`` of test_procrustes.m).
PROCRUSTES_GAP_TOL = 1e-5
#: Flops per pair update as ``coordinate_descent_orthogonal.m`` counts them: two row products
#: (2p each) and the rotation of two rows (3p each).
RCD_FLOPS_PER_P = 10


@dataclass(frozen=True)
class ProcrustesInstance:
    """One instance of RCD's Procrustes test: F(X) = -tr(X^T M)/p on O(p), M = B A^T.

    ``X0`` has det ``det_start``; ``F_star`` is the global minimum (at the polar factor of M),
    ``F_floor`` the minimum over {det X = det X0} (= ``F_star`` when the signs match).

    Attributes
    ----------
    problem : QuadraticProblem
        F(X) = -tr(X^T M)/p (C = 0, L = -M/p).
    M, X0 : numpy.ndarray, shape (p, p)
        B A^T and the orthogonal start.
    F_star, F_floor : float
        The global minimum and the minimum over {det X = det X0}.
    det_start, det_solution : int
        det X0 and the global minimizer's det, +1 or -1.
    """

    problem: QuadraticProblem
    M: np.ndarray
    X0: np.ndarray
    F_star: float
    F_floor: float
    det_start: int
    det_solution: int

    @property
    def mismatch(self) -> bool:
        """Whether the start and the solution lie in different components of O(p) (det differs)."""
        return self.det_start != self.det_solution


def special_procrustes(M, det: int) -> tuple[np.ndarray, float]:
    """argmax tr(X^T M) over {X in O(p): det X = det}, and the maximum (Kabsch / Umeyama).

    With M = U S V^T (s_1 >= ... >= s_p) the maximizer is U diag(1, ..., 1, d) V^T with
    d = det * sign(det(U V^T)): von Neumann's trace inequality bounds tr(X^T M) by sum s_i for every
    orthogonal X, and on the other component by sum s_i - 2 s_p (tr(W S) with W = U^T X V of
    det -1 has an eigenvalue -1). For orthogonal M (all s_i = 1) this is
    :func:`obcd_lite.teaching.completeness.closest_with_det` (its floor ||X - T||^2 = 4 = 2 * 2 s_p).

    Parameters
    ----------
    M : array_like, shape (p, p)
        The matrix to approximate.
    det : int
        +1 or -1, the component of O(p).

    Returns
    -------
    (X, value)
        The maximizer and tr(X^T M) there.

    Raises
    ------
    ValueError
        If M is not a square matrix or det is not +-1.
    """
    M = as_matrix(M, "M")
    if M.shape[0] != M.shape[1]:
        raise ValueError(f"M must be square (O(p)), got shape {M.shape}")
    if det not in (1, -1):
        raise ValueError(f"det must be +1 or -1, got det = {det!r}")
    U, s, Vt = np.linalg.svd(M)
    d = np.ones(len(s))
    d[-1] = det * np.sign(np.linalg.det(U) * np.linalg.det(Vt))
    return (U * d) @ Vt, float(np.sum(d * s))


def procrustes_floor_gap(M) -> float:
    """max tr(X^T M) - max over the other component = 2 s_min(M): what a rotations-only method
    started on the wrong component can never recover (divide by p for RCD's scaled cost).

    Parameters
    ----------
    M : array_like, shape (p, p)
        The matrix.

    Returns
    -------
    float
        2 s_min(M).
    """
    return 2.0 * float(np.linalg.svd(as_matrix(M, "M"), compute_uv=False)[-1])


def procrustes_instance(p: int = 50, *, mismatch: bool, rng=None) -> ProcrustesInstance:
    """RCD's test_procrustes example 1 (n = p): A, B Gaussian p x p, X0 = qr(randn(p, p)); X0's first
    column is negated if needed so that det X0 differs from (``mismatch=True``) or equals the
    global minimizer's determinant (in the reference code either happens about half the time).

    Parameters
    ----------
    p : int
        Int >= 2, the order of O(p).
    mismatch : bool
        Whether det X0 differs from the global minimizer's.
    rng : None, int or numpy.random.Generator
        Draws the instance.

    Returns
    -------
    ProcrustesInstance
        The problem, its start and the global and start-component minima.

    Raises
    ------
    ValueError
        If p is not an integer >= 2.
    """
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 2:
        raise ValueError(f"p must be an integer >= 2, got p = {p!r}")
    rng = np.random.default_rng(rng)
    A = rng.standard_normal((p, p))
    B = rng.standard_normal((p, p))
    X0 = np.linalg.qr(rng.standard_normal((p, p)))[0]
    M = B @ A.T
    det_solution = int(np.sign(np.linalg.det(M)))  # the polar factor U V^T of M has det U det V^T = sign det M
    det_start = det_solution * (-1 if mismatch else 1)
    if np.sign(np.linalg.det(X0)) != det_start:
        X0[:, 0] = -X0[:, 0]
    problem = QuadraticProblem(np.zeros((p, p)), L=-M / p)
    F_star = -special_procrustes(M, det_solution)[1] / p
    F_floor = -special_procrustes(M, det_start)[1] / p
    return ProcrustesInstance(problem, M, X0, F_star, F_floor, det_start, det_solution)


def procrustes_flops_per_update(method: str, p: int) -> int:
    """Flops of one pair update on the linear Procrustes cost, counted as the reference code counts
    RCD's (only the arithmetic the update needs; the gradient -M/p is constant, 0 flops):

    * "rcd": 10 p (``coordinate_descent_orthogonal.m``: 2p + 2p for g_i x_j^T, g_j x_i^T, 6p to rotate);
    * "obcd" / "obcd_rot" (k = 2, the global 2 x 2 solve): P = G_B X_B^T (8p), then V X_B (6p);
      the closed-form h = 0 solve is O(1); 14 p;
    * "obcd_step" (one gradient step on O(2) from I): the same P (8p) and V X_B (6p), 14 p.

    Parameters
    ----------
    method : str
        "rcd", "obcd", "obcd_rot" or "obcd_step".
    p : int
        The order of O(p).

    Returns
    -------
    int
        The flops.

    Raises
    ------
    ValueError
        If the method is unknown.
    """
    table = {"rcd": RCD_FLOPS_PER_P, "obcd": 14, "obcd_rot": 14, "obcd_step": 14}
    if method not in table:
        raise ValueError(f"unknown method {method!r}; valid: {', '.join(table)}")
    return table[method] * int(p)


def procrustes_runs(instance: ProcrustesInstance, methods: dict, *, sweeps: int = 60, rng=0) -> dict:
    """Run each method from the instance's X0 for ``sweeps`` x C(p, 2) pair updates, logging once per
    sweep.

    Parameters
    ----------
    instance : ProcrustesInstance
        The instance.
    methods : dict
        Label -> (registry name, options).
    sweeps : int
        The budget in sweeps.
    rng : int or numpy.random.Generator
        Passed to every solver.

    Returns
    -------
    dict
        Label -> Result.
    """
    p = instance.X0.shape[0]
    pairs = p * (p - 1) // 2
    _warm_up(methods)
    out = {}
    for label, (name, options) in methods.items():
        out[label] = get_solver(name)(instance.problem, instance.X0, max_iter=sweeps * pairs, log_every=pairs,
                                      rng=rng, **options)
    return out


def to_target(result, F_star: float, flops_per_update: int, rtol: float = PROCRUSTES_GAP_TOL) -> dict:
    """First logged point with |F - F*| <= rtol |F*| (RCD's ``optgap``): pair updates, seconds, flops
    (NaN when never reached).

    Parameters
    ----------
    result : Result
        Logged with iteration, seconds and F.
    F_star : float
        The target's F* (nonzero).
    flops_per_update : int
        As :func:`procrustes_flops_per_update`.
    rtol : float
        RCD's ``minoptgaptol``.

    Returns
    -------
    dict
        ``updates``, ``seconds``, ``flops`` (NaN when never reached) and ``final_gap`` (the last relative gap).
    """
    h = result.history
    gap = np.abs(np.asarray(h["F"]) - F_star) / abs(F_star)
    hit = np.flatnonzero(gap <= rtol)
    if not len(hit):
        return {"updates": np.nan, "seconds": np.nan, "flops": np.nan, "final_gap": float(gap[-1])}
    i = hit[0]
    updates = int(h["iteration"][i])
    return {"updates": updates, "seconds": float(h["seconds"][i]), "flops": float(updates * flops_per_update),
            "final_gap": float(gap[-1])}


def floor_census(p: int, seeds, *, sweeps: int = 100) -> pd.DataFrame:
    """Does OBCD leave the start's component? Per det-mismatched instance (seed): the relative floor gap,
    whether the floor point U diag(1, ..., 1, -1) V^T is itself BS_2 (all C(p, 2) pairs; then a run that
    gets close to it through rotations cannot leave by one pair reflection), and whether OBCD (random
    pairs, ``sweeps`` x C(p, 2) steps) ended below the floor / within 1e-5 of F*.

    Parameters
    ----------
    p : int
        The order of O(p).
    seeds : sequence of int
        One det-mismatched instance per seed.
    sweeps : int
        OBCD's budget in sweeps.

    Returns
    -------
    pandas.DataFrame
        One row per seed.
    """
    rows = []
    for seed in seeds:
        inst = procrustes_instance(p, mismatch=True, rng=seed)
        floor_point = special_procrustes(inst.M, inst.det_start)[0]
        res = procrustes_runs(inst, {"obcd": ("obcd", {})}, sweeps=sweeps, rng=seed)["obcd"]
        rows.append({"p": p, "seed": int(seed), "floor gap": (inst.F_floor - inst.F_star) / abs(inst.F_star),
                     "floor point BS2": block_report(inst.problem, floor_point, 2).stationary,
                     "OBCD below floor": res.F < inst.F_floor - 1e-9 * abs(inst.F_floor),
                     "OBCD reached F*": (res.F - inst.F_star) / abs(inst.F_star) <= PROCRUSTES_GAP_TOL,
                     "det X0": inst.det_start, "det X": int(np.sign(np.linalg.det(res.X)))})
    return pd.DataFrame(rows)


def _warm_up(variants: dict) -> None:
    """A few steps of each variant on a 4 x 2 PCA, so that compiling is not charged to a timed run.
    ``variants``: label -> (registry name, options)."""
    problem = sparse_pca(np.diag([4.0, 3.0, 2.0, 1.0]) / 10.0 + 0.01)
    for name, options in variants.values():
        get_solver(name)(problem, np.eye(4)[:, :2], max_iter=3, rng=0, **options)

