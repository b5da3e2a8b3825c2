"""Stiefel-manifold tools: the 2x2 rotation/reflection pair and points on St(n, r).

Notation follows the paper: St(n, r) = {X in R^{n x r} : X^T X = I_r}.
"""
from __future__ import annotations

import numpy as np

from .validation import as_matrix, check_stiefel


def rot(theta: float) -> np.ndarray:
    """Givens rotation ``[[cos, sin], [-sin, cos]]`` (Lemma 2.4), det = +1."""
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, s], [-s, c]])


def ref(theta: float) -> np.ndarray:
    """Jacobi reflection ``[[-cos, sin], [sin, cos]]`` (Lemma 2.4), det = -1."""
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[-c, s], [s, c]])


def angle_of(V: np.ndarray) -> tuple[str, float]:
    """Return ``(branch, theta)`` with ``V = rot(theta)`` or ``ref(theta)``, theta in [0, 2 pi)."""
    V = as_matrix(V, "V", (2, 2))
    check_stiefel(V, "V")
    branch = "rot" if np.linalg.det(V) > 0 else "ref"
    # Both branches keep (cos, sin) in the second column: V[1,1] = cos, V[0,1] = sin.
    theta = float(np.arctan2(V[0, 1], V[1, 1]) % (2 * np.pi))
    return branch, theta


def identity_init(n: int, r: int) -> np.ndarray:
    """The first r columns of I_n, the paper's "(id)" start."""
    n, r = _check_sizes(n, r)
    return np.eye(n, r)


def random_stiefel(n: int, r: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """A Haar-distributed point of St(n, r) (QR of a Gaussian matrix with sign fix)."""
    n, r = _check_sizes(n, r)
    rng = np.random.default_rng(rng)
    Q, R = np.linalg.qr(rng.standard_normal((n, r)))
    return Q * np.where(np.diag(R) < 0, -1.0, 1.0)


def feasibility(X: np.ndarray) -> float:
    """``||X^T X - I_r||_F``, the distance from orthonormality."""
    X = np.asarray(X, dtype=float)
    return float(np.linalg.norm(X.T @ X - np.eye(X.shape[1])))


def polar(M: np.ndarray) -> np.ndarray:
    """The nearest matrix with orthonormal columns to ``M`` (U V^T of its thin SVD)."""
    U, _, Vt = np.linalg.svd(np.asarray(M, dtype=float), full_matrices=False)
    return U @ Vt


def _check_sizes(n: int, r: int) -> tuple[int, int]:
    if int(n) != n or int(r) != r or n < 1 or r < 1:
        raise ValueError(f"n and r must be positive integers, got n = {n!r}, r = {r!r}")
    if r > n:
        raise ValueError(f"r = {r} > n = {n}: St(n, r) needs r <= n")
    return int(n), int(r)
