"""Input checks shared by the public functions.

Every check raises ``ValueError`` or ``TypeError`` whose message names the
offending argument and value, so that bad input never yields a silent wrong
answer.
"""
from __future__ import annotations

import numpy as np

class UnsupportedProblemError(NotImplementedError, ValueError):
    """A solver declines a problem it cannot handle (e.g. a penalty it has no update for).

    A NotImplementedError (the solver interface) and a ValueError (bad input), so either catches it.
    """


#: Tolerance on ``||X^T X - I||_F`` for a point to count as on St(n, r).
STIEFEL_TOL = 1e-8


def as_matrix(value, name: str, shape: tuple | None = None) -> np.ndarray:
    """Return ``value`` as a finite 2-D float array, checking its shape.

    ``shape`` may contain ``None`` for a free dimension.
    """
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a real matrix, got {type(value).__name__}") from exc
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got an array of shape {arr.shape}")
    if shape is not None:
        for got, want in zip(arr.shape, shape):
            if want is not None and got != want:
                raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(f"{name} has a non-finite entry {float(arr[tuple(bad)])!r} at index {tuple(int(i) for i in bad)}")
    return arr


def check_symmetric(C: np.ndarray, name: str = "C", rtol: float = 1e-10) -> None:
    """Raise unless ``C`` is square and symmetric (to ``rtol`` relative)."""
    if C.shape[0] != C.shape[1]:
        raise ValueError(f"{name} must be square, got shape {C.shape}")
    asym = float(np.linalg.norm(C - C.T))
    if asym > rtol * max(1.0, float(np.linalg.norm(C))):
        raise ValueError(f"{name} must be symmetric, got ||{name} - {name}^T||_F = {asym:.3e}")


def check_stiefel(X: np.ndarray, name: str = "X0", tol: float = STIEFEL_TOL) -> None:
    """Raise unless ``X`` (n x r, r <= n) satisfies ``||X^T X - I_r||_F <= tol``."""
    n, r = X.shape
    if r > n:
        raise ValueError(f"{name} has r = {r} columns > n = {n} rows; St(n, r) needs r <= n")
    err = float(np.linalg.norm(X.T @ X - np.eye(r)))
    if err > tol:
        raise ValueError(f"{name} is not on the Stiefel manifold: ||{name}^T {name} - I||_F = {err:.3e} > {tol:.0e}")


def check_nonnegative(value: float, name: str, strict: bool = False) -> float:
    """Return ``value`` as a float, raising if it is negative (or zero when ``strict``)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number, got the bool {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a real number, got {value!r}") from exc
    if not np.isfinite(v) or v < 0 or (strict and v == 0):
        rel = "> 0" if strict else ">= 0"
        raise ValueError(f"{name} must be finite and {rel}, got {name} = {value!r}")
    return v
