"""Problem (3) for k = 3 and h = 0 with any Q (the exact Q of eq. (9) included), solved globally with a certificate.

With h = 0 the majorizer of eq. (11) is a quadratic on O(3),

    K(V) = 1/2 vec(V)^T Qt vec(V) + <V, P>   (up to its constant),

and Lemma 2.3(b)'s closed form V = -polar(P) needs Qt = varsigma I. For the exact Q (a k^2 x k^2
Kronecker product, in general not a multiple of I on O(3)) no closed form is known, so
:func:`solve_3x3` runs a branch and bound over each component of O(3):

* **Parametrisation.** V(theta) = V0 Rx(a) Ry(b) Rz(c) with (a, b, c) in [-pi, pi] x [-pi/2, pi/2] x [-pi, pi]
  (Tait-Bryan angles cover SO(3)), V0 the best point on that component (det +1 and det -1) after
  majorization steps from fixed starts, so the minimizer sits near theta = 0, far from the angles'
  singular set b = +-pi/2 (where a line of angles gives one V and the boxes kept would multiply).
* **Bound on a box** (center c, half-widths w). On O(3), ||V||_F^2 = 3, so shifting Qt by mu I changes K
  by the constant 3 mu / 2; with mu = lambda_min(Qt) the quadratic part is convex, hence
  K(V) >= K(Vc) + <g, V - Vc> with g = (Qt - mu I) vec(Vc) + vec(P). Taylor in the angles,
  V - Vc = sum_l J_l dtheta_l + E with J_l = dV/dtheta_l and ||E||_F <= (sqrt 2 / 2)(sum_l w_l)^2
  (every second derivative is V0 times rotations and two generators, each of spectral norm 1 and rank
  2: Frobenius norm <= sqrt 2), gives K >= K(Vc) - sum_l |<g, J_l>| w_l - ||g||_F (sqrt 2 / 2)(sum_l w_l)^2.
  The first-order term vanishes at a minimizer, so the boxes kept near it stay few at every depth.
* Boxes are bisected along their widest angle and dropped once their bound is >= best - ``tol``.

The result certifies ``lower_bound <= min_{O(3)} K <= value``. The independent reference in the tests
is a different parametrisation (unit quaternions) sampled densely and polished by scipy.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..validation import as_matrix

#: The generators of rotations about x, y, z: d/dt R_axis(t) = R_axis(t) S_axis.
_GENERATORS = np.array([[[0, 0, 0], [0, 0, -1], [0, 1, 0]],
                        [[0, 0, 1], [0, 0, 0], [-1, 0, 0]],
                        [[0, -1, 0], [1, 0, 0], [0, 0, 0]]], dtype=float)
_HALF = np.array([math.pi, math.pi / 2, math.pi])
#: Starts of the local search: I, the sign flips of I (det -1) and fixed rotations (seeded, so every run agrees).
_STARTS = np.concatenate([np.eye(3)[None] * np.array([[1, 1, 1], [-1, 1, 1], [1, -1, 1], [1, 1, -1],
                                                      [-1, -1, -1]])[:, None, :],
                          np.linalg.qr(np.random.default_rng(0).standard_normal((8, 3, 3)))[0]])


class ThreeByThreeSolution(NamedTuple):
    """The result of :func:`solve_3x3`.

    Attributes
    ----------
    V : numpy.ndarray
        (3, 3), a minimizer found.
    value : float
        K(V) (up to K's constant, as :func:`majorizer_value`).
    lower_bound : float
        <= min over O(3) of K (certified when the search finished).
    boxes : int
        The number of boxes bounded.
    certified : bool
        value - lower_bound <= tol.
    """

    V: np.ndarray
    value: float
    lower_bound: float
    boxes: int
    certified: bool


def _axis_rotations(t: np.ndarray, axis: int) -> np.ndarray:
    """R_axis(t) for a batch of angles: shape (N, 3, 3)."""
    c, s = np.cos(t), np.sin(t)
    R = np.zeros((len(t), 3, 3))
    i, j = [(1, 2), (0, 2), (0, 1)][axis]
    R[:, axis, axis] = 1.0
    R[:, i, i], R[:, j, j] = c, c
    sign = -1.0 if axis == 1 else 1.0  # Ry has +s above the diagonal
    R[:, i, j], R[:, j, i] = -sign * s, sign * s
    return R


def _with_jacobian(V0: np.ndarray, theta: np.ndarray):
    """V(theta) = V0 Rx Ry Rz and J_l = dV/dtheta_l for a batch: shapes (N, 3, 3), (3, N, 3, 3)."""
    Rs = [_axis_rotations(theta[:, axis], axis) for axis in range(3)]
    V = V0 @ Rs[0] @ Rs[1] @ Rs[2]
    J = np.empty((3,) + V.shape)
    J[0] = V0 @ Rs[0] @ _GENERATORS[0] @ Rs[1] @ Rs[2]
    J[1] = V0 @ Rs[0] @ Rs[1] @ _GENERATORS[1] @ Rs[2]
    J[2] = V @ _GENERATORS[2]
    return V, J


def _vec(V: np.ndarray) -> np.ndarray:
    """vec stacks columns (as :func:`majorizer_value`); works on a batch (N, 3, 3) -> (N, 9)."""
    return np.swapaxes(V, -1, -2).reshape(*V.shape[:-2], 9)


def _values(Qt: np.ndarray, p: np.ndarray, V: np.ndarray) -> np.ndarray:
    v = _vec(V)
    return 0.5 * np.einsum("ni,ij,nj->n", v, Qt, v) + v @ p


def _descend(Qs: np.ndarray, p: np.ndarray, V: np.ndarray, steps: int = 60) -> np.ndarray:
    """Monotone majorization steps from a batch of starts, each kept on its component of O(3):
    K(V) <= K(Vk) + <G, V - Vk> + ||Qs||_2 / 2 ||V - Vk||_F^2, minimized by a polar factor with the det of Vk."""
    L = max(float(np.linalg.eigvalsh(Qs)[-1]), 1e-300)
    det = np.sign(np.linalg.det(V))
    for _ in range(steps):
        G = np.swapaxes((_vec(V) @ Qs + p).reshape(-1, 3, 3), 1, 2)  # mat() of the gradient
        U, _, Wt = np.linalg.svd(G - L * V)
        fix = np.ones((len(V), 3))
        fix[:, 2] = -det / np.linalg.det(U @ Wt)  # det(-U diag(1, 1, s) W^T) = det of the start
        V = -(U * fix[:, None, :]) @ Wt
    return V


def bisect_boxes(centers: np.ndarray, half: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split every box (center, half-widths) in two along its widest coordinate.

    Parameters
    ----------
    centers, half : numpy.ndarray
        (N, d), the boxes' centers and half-widths.

    Returns
    -------
    tuple of numpy.ndarray
        The children's centers and half-widths, (2N, d) each: the lower halves, then the upper halves
        (rows i and i + N are box i's children).
    """
    axis = np.argmax(half, axis=1)
    rows = np.arange(len(centers))
    half = half.copy()
    half[rows, axis] *= 0.5
    step = np.zeros_like(centers)
    step[rows, axis] = half[rows, axis]
    return np.concatenate([centers - step, centers + step]), np.concatenate([half, half])


def solve_3x3(Qt, P, *, tol: float = 1e-12, max_boxes: int = 400_000) -> ThreeByThreeSolution:
    """The global minimum over O(3) of 1/2 vec(V)^T Qt vec(V) + <V, P> (problem (3), k = 3, h = 0).

    Parameters
    ----------
    Qt : numpy.ndarray, shape (9, 9)
        Symmetric, Q + alpha I of Lemma 2.3(a) (any Q of eqs. (9), (10)).
    P : numpy.ndarray, shape (3, 3)
        The linear term of Lemma 2.3(a).
    tol : float
        Absolute gap to certify.
    max_boxes : int
        Budget of boxes bounded; when it runs out ``certified`` is False (never hidden).

    Returns
    -------
    ThreeByThreeSolution
        The minimizer found, its value, the certified lower bound and whether the gap is within ``tol``.

    Raises
    ------
    ValueError
        If Qt is not symmetric.
    """
    Qt = as_matrix(Qt, "Qt", (9, 9))
    P = as_matrix(P, "P", (3, 3))
    if not np.allclose(Qt, Qt.T, rtol=0, atol=1e-12 * (1 + np.abs(Qt).max())):
        raise ValueError("Qt must be symmetric")
    p = _vec(P)
    mu = float(np.linalg.eigvalsh(Qt)[0])
    Qs = Qt - mu * np.eye(9)  # convex, and equal to Qt on O(3) up to the constant 3 mu / 2
    starts = _descend(Qs, p, _STARTS)
    values = _values(Qt, p, starts)
    best_i = int(np.argmin(values))
    best, V_best = float(values[best_i]), starts[best_i]
    # one anchor per component: its best local minimizer
    anchors = [starts[min((i for i in range(len(starts)) if np.linalg.det(starts[i]) * d > 0), key=lambda i: values[i])]
               for d in (1.0, -1.0)]
    grid = [np.linspace(-h, h, m + 1)[:-1] + h / m for h, m in zip(_HALF, (8, 4, 8))]
    cells = np.stack(np.meshgrid(*grid, indexing="ij"), axis=-1).reshape(-1, 3)
    widths0 = np.broadcast_to(_HALF / np.array([8, 4, 8]), cells.shape)
    lower, boxes = best, 0
    for V0 in anchors:
        centers, half = cells.copy(), widths0.copy()
        while len(centers):
            V, J = _with_jacobian(V0, centers)
            vals = _values(Qt, p, V)
            boxes += len(centers)
            j = int(np.argmin(vals))
            if vals[j] < best:
                best, V_best = float(vals[j]), V[j]
            g = _vec(V) @ Qs + p
            slope = np.abs(np.einsum("lni,ni->nl", _vec(J), g))
            spread = half.sum(axis=1)
            bound = vals - (slope * half).sum(axis=1) - np.linalg.norm(g, axis=1) * (math.sqrt(2) / 2) * spread**2
            keep = bound < best - tol
            lower = min(lower, float(np.min(bound[~keep], initial=np.inf)))
            centers, half = centers[keep], half[keep]
            if boxes + 2 * len(centers) > max_boxes:
                lower = min(lower, float(np.min(bound[keep], initial=np.inf)))
                break
            centers, half = bisect_boxes(centers, half)
    polished = _descend(Qs, p, V_best[None])  # the best center, refined to rounding level
    value = float(_values(Qt, p, polished)[0])
    if value < best:
        best, V_best = value, polished[0]
    lower = min(lower, best)
    return ThreeByThreeSolution(np.asarray(V_best), best, lower, boxes, best - lower <= tol)
