"""The scratch of the compiled sweep (:mod:`.sweep`), allocated once per run: the compiled OBCD kernel
builds one ``SweepWorkspace`` (``sweep_workspace``) and passes it to every step's ``sweep.sweep_into``, so
a step allocates nothing. Its arrays are named so that the sweep's stages read as what they fill.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .window import SECTORS, WindowWorkspace, window_workspace


class SweepWorkspace(NamedTuple):
    """The scratch of one sweep (``sweep_workspace``), by name.

    Attributes
    ----------
    x, y, size, first_of : numpy.ndarray
        Per entry of V Z (2 r): u_i = x_i c + y_i s, hypot(x_i, y_i), its first crossing.
    angle, cos_sin, owner, step, order : numpy.ndarray
        Per crossing; owner: its entry (-1: theta = pi); step of (A_h, B_h, h_0, N).
    arc, bound, ends : numpy.ndarray
        Per arc: (a_eff, b_eff, h_0, negatives), lower bound, ends (lo, hi; cos, sin at lo; at hi).
    psi, column, quarter, key, line : numpy.ndarray
        Per column: the sort of ``crossings._sort_crossings``; ``l0_points.line_keys``.
    points, roots, scratch : numpy.ndarray
        A column's four zeros; the quartic's roots and work space.
    window : WindowWorkspace
        The window search's scratch (``window.window_workspace``).
    """
    x: np.ndarray
    y: np.ndarray
    size: np.ndarray
    first_of: np.ndarray
    angle: np.ndarray
    cos_sin: np.ndarray
    owner: np.ndarray
    step: np.ndarray
    order: np.ndarray
    arc: np.ndarray
    bound: np.ndarray
    ends: np.ndarray
    psi: np.ndarray
    column: np.ndarray
    quarter: np.ndarray
    key: np.ndarray
    line: np.ndarray
    points: np.ndarray
    roots: np.ndarray
    scratch: np.ndarray
    window: WindowWorkspace


@njit(cache=True)
def sweep_workspace(r):
    """The scratch arrays of ``sweep_into`` for Z with r columns (capped l1: 6 crossings per entry),
    allocated once and reused across the steps of a run.

    Parameters
    ----------
    r : int
        The number of columns of Z.

    Returns
    -------
    SweepWorkspace
        New scratch arrays for a block of r columns.
    """
    n, m, columns = 2 * r, 12 * r + 1, max(r, 1)
    return SweepWorkspace(
        np.empty(n), np.empty(n), np.empty(n), np.empty(n, np.int64),
        np.empty(m), np.empty((m, 2)), np.empty(m, np.int64), np.empty((m, 4)), np.empty(m, np.int64),
        np.empty((m + SECTORS, 4)), np.empty(m + SECTORS), np.empty((m + SECTORS, 6)),
        np.empty(columns), np.empty(columns, np.int64), np.empty(columns, np.int64),
        np.empty(columns), np.empty(columns, np.int64), np.empty((4, 2)),
        np.empty(8), np.empty(20), window_workspace())
