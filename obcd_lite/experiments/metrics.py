"""What a sparse loading matrix is worth: adjusted explained variance and sparsity.

Loadings of sparse PCA are not eigenvectors, so the projected components A x_j are correlated and
the plain sum of tr(X^T C X) double-counts shared variance. Zou, Hastie and Tibshirani (2006, §3.4)
remove it with a QR factorisation of the projected data: Z = A X = Q R, and the variance that the
j-th component adds beyond the earlier ones is R_jj^2. The adjusted explained variance is
sum_j R_jj^2 / ||A||_F^2 (a fraction of the total; for orthonormal eigenvectors it is the usual one).
"""
from __future__ import annotations

import numpy as np

from ..penalties import count_nonzeros
from ..validation import as_matrix, check_nonnegative

#: |X_ij| above this counts as a nonzero (the paper's l0 tables count |X_ij| > 1e-6).
NNZ_TOL = 1e-6


def normalize_columns(X) -> np.ndarray:
    """Loadings with unit columns; zero columns (a fully sparse component) are dropped.

    Parameters
    ----------
    X : array_like
        (n, r) loadings.

    Returns
    -------
    numpy.ndarray
        (n, r') with r' <= r.
    """
    X = as_matrix(X, "X")
    norms = np.linalg.norm(X, axis=0)
    keep = norms > 0
    return X[:, keep] / norms[keep]


def adjusted_explained_variance(X, *, A=None, C=None, cumulative: bool = False):
    """Adjusted explained variance of the loadings X (n x r), ZHT 2006 §3.4.

    Parameters
    ----------
    X : numpy.ndarray, shape (n, r)
        Loadings; columns are normalised first (zero columns dropped), so scikit-learn's
        components (unnormalised rows) can be scored as ``X = components.T``.
    A : numpy.ndarray, shape (m, n) or None
        Data (the QR is of A X). Give A or C.
    C : numpy.ndarray, shape (n, n) or None
        Gram matrix A^T A (the QR is of C^{1/2} X, the same R up to signs).
    cumulative : bool
        Return the array of cumulative fractions (one per kept column) instead of the total.

    Returns
    -------
    float or numpy.ndarray
        sum_j R_jj^2 / tr(A^T A), in [0, 1] (an array of cumulative fractions with ``cumulative``).

    Raises
    ------
    ValueError
        If not exactly one of A and C is given.
    """
    if (A is None) == (C is None):
        raise ValueError("give exactly one of A (data) or C (Gram matrix)")
    X = normalize_columns(X)
    if A is not None:
        A = as_matrix(A, "A", (None, X.shape[0]))
        root, total = A, float(np.sum(A * A))
    else:
        C = as_matrix(C, "C", (X.shape[0], X.shape[0]))
        w, U = np.linalg.eigh(C)
        root, total = (U * np.sqrt(np.clip(w, 0.0, None))) @ U.T, float(np.trace(C))
    if X.shape[1] == 0:
        return np.zeros(0) if cumulative else 0.0
    R = np.linalg.qr(root @ X, mode="r")
    gains = np.diag(R) ** 2 / total
    return np.cumsum(gains) if cumulative else float(np.sum(gains))


def sparsity(X, tol: float = NNZ_TOL) -> dict:
    """How sparse X is.

    Parameters
    ----------
    X : array_like
        The loadings.
    tol : float, default 1e-6
        Entries with |X_ij| > tol count as nonzero.

    Returns
    -------
    dict
        ``nnz`` (entries with |X_ij| > tol), ``density`` (nnz / size) and ``zero_fraction`` (1 - density,
        the "sparsity" column of the ManPG papers).
    """
    X = as_matrix(X, "X")
    tol = check_nonnegative(tol, "tol")
    nnz = count_nonzeros(X, tol)
    density = nnz / X.size
    return {"nnz": nnz, "density": density, "zero_fraction": 1.0 - density}


def support_recovery(X, support, tol: float = NNZ_TOL) -> float:
    """How well the rows where X is nonzero recover the planted support (union over components).

    Parameters
    ----------
    X : array_like
        (n, r) loadings.
    support : iterable of int
        The planted rows.
    tol : float, default 1e-6
        Entries with |X_ij| > tol count as nonzero.

    Returns
    -------
    float
        The F1 score of the predicted rows against the planted ones (1.0 = exact recovery).
    """
    X = as_matrix(X, "X")
    planted = set(np.concatenate([np.asarray(s) for s in support]).tolist())
    found = set(np.flatnonzero(np.any(np.abs(X) > tol, axis=1)).tolist())
    if not planted and not found:
        return 1.0
    hits = len(planted & found)
    return 2.0 * hits / (len(planted) + len(found))
