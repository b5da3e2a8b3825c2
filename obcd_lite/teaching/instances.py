"""Small random instances shared by the teaching modules, the tests and the benchmarks.

* :func:`random_instance` — one k = 2 subproblem (Qt, P, Z) of problem (3) (notebook 02, the errata);
* :func:`tiny_problem` — a small sparse-PCA (or nonnegative PCA) problem on St(n, r) whose global
  minimum the certified search reaches (notebook 05, ``benchmarks/global_reach.py``).
"""
from __future__ import annotations

import numpy as np

from ..penalties import penalty_by_name
from ..problems import nonneg_pca, randn_covariance, sparse_pca


def random_instance(rng=None, r: int = 2, nonneg: bool = False):
    """A random subproblem (Qt, P, Z) of problem (3), k = 2: Qt symmetric PSD, Z with unit rows.

    Parameters
    ----------
    rng : int, numpy.random.Generator or None
        The seed or generator.
    r : int, default 2
        The number of columns of Z.
    nonneg : bool, default False
        Z entrywise nonnegative, so that V = I is feasible for ``NonNeg``.

    Returns
    -------
    tuple of numpy.ndarray
        ``(Qt, P, Z)`` of shapes (4, 4), (2, 2), (2, r).
    """
    rng = np.random.default_rng(rng)
    G = rng.standard_normal((4, 4))
    Qt = G @ G.T / 4.0
    P = rng.standard_normal((2, 2))
    Z = rng.standard_normal((2, r))
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    return Qt, P, (np.abs(Z) if nonneg else Z)


def tiny_problem(n: int, penalty: str = "l1", lam: float = 0.1, seed: int = 0):
    """A tiny problem: sparse PCA on randn data (8 x n) with the named penalty; X >= 0 -> nonneg PCA.

    Parameters
    ----------
    n : int
        The number of rows of X.
    penalty : str, default "l1"
        One of ``penalties.PENALTY_NAMES``.
    lam : float, default 0.1
        The penalty's weight.
    seed : int, default 0
        The seed of the data.

    Returns
    -------
    QuadraticProblem
        ``sparse_pca(C, h)`` or ``nonneg_pca(C)`` with C = ``randn_covariance(max(8, 2 n), n, rng=seed)``.
    """
    C = randn_covariance(max(8, 2 * n), n, rng=seed)
    return nonneg_pca(C) if penalty == "nonneg" else sparse_pca(C, penalty_by_name(penalty, lam))
