"""Compute behind notebook 05, the witnesses taken apart: why the BS_2-not-critical witness is not BS_3
(two pair rotations that each cannot descend, composed, do: :func:`two_pair_descent`, :func:`three_row_descent`)
and the search for a BS_3 point that is not BS_2 under the scalar Q (:func:`scalar_q_search`). The witnesses
themselves are in :mod:`obcd_lite.teaching.hierarchy`.
"""
from __future__ import annotations

import numpy as np

from ..optimality import classify
from ..optimality.criticality import residual_details, tangent_part
from ..penalties import snap_zeros
from ..problems import QuadraticProblem
from ..rounding import snap_point
from ..stiefel import polar
from ..subproblem import block_data, majorizer_value
from .hierarchy import Witness


def two_pair_descent(witness: Witness, thetas, entry=(2, 1), pairs=((0, 2), (1, 2))) -> dict:
    """F - F(X) along curves through the witness: each pair's rotation alone (both go up: BS_2),
    the two rotations together with the second angle chosen to keep X[entry] = 0 (goes down), and
    the polar retraction of X - t R with R the least-norm element of d_M F(X) (goes down: not critical).

    Parameters
    ----------
    witness : Witness
        The BS_2 witness.
    thetas : array_like
        The angles (the retraction's steps t).
    entry : tuple of int
        The zero entry the joint curve keeps.
    pairs : tuple of tuple
        The two pairs.

    Returns
    -------
    dict
        F - F(X) along each curve.
    """
    problem, X = witness.problem, witness.X
    F0 = problem.F(X)
    (i, k), (j, l) = pairs
    row, col = entry

    def rotated(Y, B, theta):
        Y = Y.copy()
        c, s = np.cos(theta), np.sin(theta)
        Y[list(B)] = np.array([[c, s], [-s, c]]) @ Y[list(B)]
        return Y

    out = {"theta": np.asarray(thetas, dtype=float), f"pair {pairs[0]}": [], f"pair {pairs[1]}": [],
           "both pairs": [], "polar(X - t R)": []}
    R = tangent_part(X, residual_details(problem, X).G)
    for t in out["theta"]:
        out[f"pair {pairs[0]}"].append(problem.F(rotated(X, pairs[0], t)) - F0)
        out[f"pair {pairs[1]}"].append(problem.F(rotated(X, pairs[1], t)) - F0)
        Y = rotated(X, pairs[0], t)
        Z = rotated(Y, pairs[1], np.arctan2(Y[row, col], Y[j if j != row else l, col]))
        Z = snap_point(Z)  # the entry the second rotation zeroes, exactly (the package's zero rule)
        out["both pairs"].append(problem.F(Z) - F0)
        out["polar(X - t R)"].append(problem.F(polar(X - t * R)) - F0)  # signed t: t < 0 steps up the residual
    return {key: np.asarray(value) for key, value in out.items()}


def three_row_descent(witness: Witness, theta: float = 0.01, alpha: float = 1e-5) -> dict:
    """A V in O(3) on rows (0, 1, 2) with K(V; X, B) < K(I; X, B) (exact Q): the two rotations of
    ``two_pair_descent`` as one 3 x 3 factor, so the BS_2 witness is not BS_3. Returns V, K(V) - K(I)
    and F(V X) - F(X).

    Parameters
    ----------
    witness : Witness
        The BS_2 witness.
    theta, alpha : float
        The first rotation's angle and the proximal parameter of eq. (11).

    Returns
    -------
    dict
        ``V``, ``K_change`` and ``F_change``.
    """
    problem, X = witness.problem, witness.X
    B = [0, 1, 2]
    c, s = np.cos(theta), np.sin(theta)
    V1 = np.eye(3)
    V1[np.ix_([0, 2], [0, 2])] = [[c, s], [-s, c]]
    Y = V1 @ X[B]
    t = np.arctan2(Y[2, 1], Y[1, 1])
    V2 = np.eye(3)
    V2[np.ix_([1, 2], [1, 2])] = [[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]
    V = V2 @ V1
    Qt, P, Z = block_data(problem, X, problem.grad(X), B, alpha, "exact")
    VZ = snap_zeros(V @ Z, Z)  # the entry the second rotation zeroes, exactly (the package's zero rule)
    change = majorizer_value(Qt, P, V, VZ, problem.h) - majorizer_value(Qt, P, np.eye(3), Z, problem.h)
    Xn = X.copy()
    Xn[B] = VZ
    return {"V": V, "K_change": change, "F_change": problem.F(Xn) - problem.F(X)}


def scalar_q_search(trials: int = 60, n: int = 4, rng=0, Q: str = "scalar") -> dict:
    """Theorem 3.8(c) with a scalar Q of eq. (10): classify every eigenvector of random symmetric
    4 x 4 C (h = 0, r = 1; all are critical) at k = 2..n and count the patterns
    (BS2, BS3, ..., BSn). Returns {"patterns": {pattern: count}, "witness": (problem, X) BS3 not BS2}.
    Q = "scalar" is Lemma C.2's block-dependent varsigma (witnesses exist); Q = "lipschitz" is
    varsigma = L_f for every block (none exist: the majorizers of B in B' agree on diag(V, 1)).

    Parameters
    ----------
    trials, n : int
        The random C and their size.
    rng : int or numpy.random.Generator
        Draws them.
    Q : str
        "scalar" or "lipschitz".

    Returns
    -------
    dict
        ``patterns``, ``witness`` and ``searched``.
    """
    rng = np.random.default_rng(rng)
    patterns, witness = {}, None
    for _ in range(trials):
        A = rng.standard_normal((n, n))
        problem = QuadraticProblem((A + A.T) / 2)
        _, U = np.linalg.eigh(problem.C)
        for i in range(n):
            c = classify(problem, U[:, [i]], Q=Q, ks=range(2, n + 1), global_search=False)
            key = tuple(c.bs[k] for k in range(2, n + 1))
            patterns[key] = patterns.get(key, 0) + 1
            if witness is None and c.bs[3] and not c.bs[2]:
                witness = (problem, U[:, [i]])
    return {"patterns": patterns, "witness": witness, "searched": trials * n}


__all__ = ["two_pair_descent", "three_row_descent", "scalar_q_search"]
