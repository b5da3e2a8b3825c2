"""Lemma B.1's quartic for one half circle of a branch of O(2) (h = 0, or one piece of h): its coefficients
(:func:`quartic_coefficients`), its real roots (:func:`quartic_real_roots`) and, for each root, the residuals of
the two stationarity conditions it came from (:func:`stationarity_residuals`: squaring merged p' = 0 and
p~' = 0, so each root is kept only on the half circle where it is stationary). Used by the vectorized
``breakpoint.candidate_set`` and by notebook 02.
"""
from __future__ import annotations

import numpy as np


def quartic_coefficients(a, b, w, d):
    """[c4, c3, c2, c1, c0] of the squared stationarity equation of p(t) (Appendix B).

    p'(t) = 0  <=>  (b - a t) sqrt(1 + t^2) = -(d (1 + t^2) - 2 t (w + d t)); squaring gives
    c4 = d^2 - a^2, c3 = 4dw + 2ab, c2 = 4w^2 - 2d^2 - a^2 - b^2, c1 = 2ab - 4dw, c0 = d^2 - b^2.

    Parameters
    ----------
    a, b, w, d : float or array_like
        The linear part (a, b) of a piece and the quadratic part (w = cq - e, d) of eq. (1-D); broadcast.

    Returns
    -------
    numpy.ndarray
        The broadcast shape + (5,): the last axis indexes the coefficient.
    """
    a, b, w, d = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, w, d)))
    return np.stack([d * d - a * a, 4 * d * w + 2 * a * b, 4 * w * w - 2 * d * d - a * a - b * b,
                     2 * a * b - 4 * d * w, d * d - b * b], axis=-1)


def quartic_real_roots(coeffs: np.ndarray, imag_tol: float = 1e-6) -> np.ndarray:
    """The real roots of each quartic in ``coeffs``; NaN fills the other slots.

    Roots are eigenvalues of the companion matrix. When |c0| > |c4| the reversed polynomial in s = 1/t is
    solved instead, so a vanishing leading coefficient (a root at t = infinity, i.e. cos theta = 0,
    covered by its own candidate) never divides by zero. This is the package's one NumPy quartic solver
    (the compiled sweep has its own, ``polynomial_roots``).

    Parameters
    ----------
    coeffs : array_like
        (..., 5), highest degree first.
    imag_tol : float, default 1e-6
        A root counts as real when |Im t| <= imag_tol (1 + |t|): loose enough for the double root t = b / a
        that rounding splits into a pair with Im ~ sqrt(eps).

    Returns
    -------
    numpy.ndarray
        (..., 4), the real roots and NaN.
    """
    coeffs = np.asarray(coeffs, dtype=float)
    shape = coeffs.shape[:-1]
    cf = coeffs.reshape(-1, 5)
    flip = np.abs(cf[:, 0]) < np.abs(cf[:, 4])
    cf = np.where(flip[:, None], cf[:, ::-1], cf)
    scale = np.max(np.abs(cf), axis=1)
    scale = np.where(scale > 0, scale, 1.0)
    lead = cf[:, 0]
    tiny = 1e-14 * scale
    lead = np.where(np.abs(lead) < tiny, np.where(lead < 0, -tiny, tiny), lead)
    comp = np.zeros((cf.shape[0], 4, 4))
    comp[:, 0, :] = -cf[:, 1:] / lead[:, None]
    comp[:, 1, 0] = comp[:, 2, 1] = comp[:, 3, 2] = 1.0
    roots = np.linalg.eigvals(comp).astype(complex)
    with np.errstate(divide="ignore", invalid="ignore"):
        roots = np.where(flip[:, None], 1.0 / roots, roots)
    real = np.abs(roots.imag) <= imag_tol * (1.0 + np.abs(roots))
    return np.where(real & np.isfinite(roots.real), roots.real, np.nan).reshape(*shape, 4)


def stationarity_residuals(a, b, w, d, t):
    """(g, g~) at t: which half circle a root of the quartic is stationary on.

    p'(t) (1 + t^2)^2 = g = (b - a t) rho + d (1 + t^2) - 2 t (w + d t), and g~ has the first term's sign
    flipped. Squaring merges the roots of both; a root of the quartic is a stationary point of p when
    |g| <= |g~| (of the other half circle otherwise).

    Parameters
    ----------
    a, b, w, d : float or array_like
        As for :func:`quartic_coefficients`.
    t : float or array_like
        The roots.

    Returns
    -------
    tuple of numpy.ndarray
        ``(g, g~)``, broadcast.
    """
    rho = np.hypot(1.0, t)
    first = (b - a * t) * rho
    rest = d * (1.0 + t * t) - 2.0 * t * (w + d * t)
    return first + rest, rest - first


__all__ = ["quartic_coefficients", "quartic_real_roots", "stationarity_residuals"]
