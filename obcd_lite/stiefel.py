"""Stiefel-manifold tools: the 2x2 rotation/reflection pair and points on St(n, r).

Notation follows the paper: St(n, r) = {X in R^{n x r} : X^T X = I_r}.
"""
from __future__ import annotations

import numpy as np

from .rounding import snap_point
from .validation import as_matrix, as_rng, check_count, check_stiefel


#: The two circles of O(2) (Lemma 2.5), in the order the solvers index them (0: rot, 1: ref).
BRANCHES = ("rot", "ref")


def branch_from_cos_sin(branch, c, s) -> np.ndarray:
    """rot or ref with (cos theta, sin theta) = (c, s) (Lemma 2.5).

    rot = [[c, s], [-s, c]], ref = [[-c, s], [s, c]].

    Parameters
    ----------
    branch : str or int
        "rot" or "ref", or its index 0 or 1 in ``BRANCHES``.
    c, s : float or numpy.ndarray
        cos theta and sin theta (arrays of the same shape for many angles).

    Returns
    -------
    numpy.ndarray
        (2, 2), or ``c.shape + (2, 2)`` for arrays.

    Raises
    ------
    ValueError
        If ``branch`` is neither.
    """
    if branch in (0, "rot"):
        rows = [[c, s], [-s, c]]
    elif branch in (1, "ref"):
        rows = [[-c, s], [s, c]]
    else:
        raise ValueError(f"branch must be 'rot' or 'ref', got {branch!r}")
    M = np.array(rows, dtype=float)
    return M if M.ndim == 2 else np.moveaxis(M, (0, 1), (-2, -1))


def branch_matrix(branch, theta) -> np.ndarray:
    """``rot(theta)`` or ``ref(theta)`` by name (or index).

    Parameters
    ----------
    branch : str or int
        "rot" or "ref" (or 0, 1).
    theta : float or array_like
        The angle(s).

    Returns
    -------
    numpy.ndarray
        (2, 2), or ``theta.shape + (2, 2)`` for an array of angles (the batch axes first, as NumPy's
        ``matmul`` wants them; :func:`rot` and :func:`ref` put them last).
    """
    theta = np.asarray(theta, dtype=float)
    return branch_from_cos_sin(branch, np.cos(theta), np.sin(theta))


def rot(theta: float) -> np.ndarray:
    """Givens rotation ``[[cos, sin], [-sin, cos]]`` (Lemma 2.5), det = +1.

    Parameters
    ----------
    theta : float or array_like
        The angle(s).

    Returns
    -------
    numpy.ndarray
        (2, 2), or ``(2, 2) + theta.shape`` for an array of angles (the matrix axes first).
    """
    return _leading(branch_matrix("rot", theta))


def ref(theta: float) -> np.ndarray:
    """Jacobi reflection ``[[-cos, sin], [sin, cos]]`` (Lemma 2.5), det = -1.

    Parameters
    ----------
    theta : float
        As for :func:`rot`.

    Returns
    -------
    numpy.ndarray
        As for :func:`rot`.
    """
    return _leading(branch_matrix("ref", theta))


def _leading(M: np.ndarray) -> np.ndarray:
    return M if M.ndim == 2 else np.moveaxis(M, (-2, -1), (0, 1))


def angle_of(V: np.ndarray) -> tuple[str, float]:
    """Return ``(branch, theta)`` with ``V = rot(theta)`` or ``ref(theta)``, theta in [0, 2 pi).

    Entries zero to rounding count as zeros (``rounding.snap_point``), so rot(0) computed with a sin
    of -1e-17 is theta = 0, not 2 pi - 1e-17, on every CPU.

    Parameters
    ----------
    V : numpy.ndarray
        (2, 2) orthogonal.

    Returns
    -------
    tuple
        ``(branch, theta)``: "rot" (det V > 0) or "ref", and the angle.
    """
    V = as_matrix(V, "V", (2, 2))
    check_stiefel(V, "V")
    V = snap_point(V)
    branch = "rot" if np.linalg.det(V) > 0 else "ref"
    # Both branches keep (cos, sin) in the second column: V[1,1] = cos, V[0,1] = sin.
    theta = float(np.arctan2(V[0, 1], V[1, 1]) % (2 * np.pi))
    return branch, theta


def identity_init(n: int, r: int) -> np.ndarray:
    """The first r columns of I_n, the paper's "(id)" start.

    Parameters
    ----------
    n, r : int
        The size of St(n, r), r <= n.

    Returns
    -------
    numpy.ndarray
        (n, r).
    """
    n, r = _check_sizes(n, r)
    return np.eye(n, r)


def random_stiefel(n: int, r: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """A Haar-distributed point of St(n, r) (QR of a Gaussian matrix with sign fix).

    Parameters
    ----------
    n, r : int
        The size of St(n, r), r <= n.
    rng : numpy.random.Generator, int or None
        The generator or seed.

    Returns
    -------
    numpy.ndarray
        (n, r) with orthonormal columns.
    """
    n, r = _check_sizes(n, r)
    rng = as_rng(rng)
    Q, R = np.linalg.qr(rng.standard_normal((n, r)))
    return Q * np.where(np.diag(R) < 0, -1.0, 1.0)


def random_start(n: int, r: int, rng: np.random.Generator | int | None = None, h=None) -> np.ndarray:
    """A random feasible start: Haar on St(n, r), or distinct unit columns where h is infinite there.

    Parameters
    ----------
    n, r : int
        The size of St(n, r).
    rng : numpy.random.Generator, int or None
        The generator or seed.
    h : Penalty, optional
        The problem's penalty; where h is infinite at the Haar point (X >= 0), the start is r distinct
        columns of I_n in random order instead (drawn from the same ``rng``).

    Returns
    -------
    numpy.ndarray
        (n, r) with orthonormal columns.
    """
    rng = np.random.default_rng(rng)
    X0 = random_stiefel(n, r, rng=rng)
    if h is None or np.isfinite(h(X0)):
        return X0
    return identity_init(n, n)[:, rng.permutation(n)[:r]]


def feasibility(X: np.ndarray) -> float:
    """``||X^T X - I_r||_F``, the distance from orthonormality.

    Parameters
    ----------
    X : array_like
        (n, r).

    Returns
    -------
    float
        The distance.
    """
    X = as_matrix(X, "X", finite=False)
    return float(np.linalg.norm(X.T @ X - np.eye(X.shape[1])))


def polar(M: np.ndarray) -> np.ndarray:
    """The nearest matrix with orthonormal columns to ``M`` (U V^T of its thin SVD).

    Parameters
    ----------
    M : array_like
        (n, r).

    Returns
    -------
    numpy.ndarray
        (n, r).
    """
    U, _, Vt = np.linalg.svd(as_matrix(M, "M"), full_matrices=False)
    return U @ Vt


def nearest_rotation(M: np.ndarray) -> np.ndarray:
    """The nearest rotation to a square ``M``: U diag(1, ..., 1, det(U V^T)) V^T of its SVD, the projection
    onto SO(n) (the polar factor U V^T is the projection onto O(n) and may be a reflection).

    Parameters
    ----------
    M : array_like
        (n, n).

    Returns
    -------
    numpy.ndarray
        (n, n), orthogonal with determinant +1.

    Raises
    ------
    ValueError
        If M is not square.
    """
    M = as_matrix(M, "M")
    if M.shape[0] != M.shape[1]:
        raise ValueError(f"nearest_rotation needs a square M, got shape {M.shape}")
    U, _, Vt = np.linalg.svd(M)
    if np.linalg.det(U) * np.linalg.det(Vt) < 0:
        U[:, -1] = -U[:, -1]  # the smallest singular value's pair: the cheapest sign to give up
    return U @ Vt


def _check_sizes(n: int, r: int) -> tuple[int, int]:
    n, r = check_count(n, "n"), check_count(r, "r")
    if r > n:
        raise ValueError(f"r = {r} > n = {n}: St(n, r) needs r <= n")
    return int(n), int(r)
