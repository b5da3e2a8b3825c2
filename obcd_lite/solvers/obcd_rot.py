"""OBCD restricted to rotations: the exact Givens search, a relative of OBCD without reflections.

Source paper: T. Frerix, J. Bruna, "Approximating orthogonal matrices with effective Givens
factorization", ICML 2019; reference code ``tfrerix/givens-factorization:coordinate_descent.py``
(``coordinate_descent`` and ``minimize_subspace``). Their method minimizes the entrywise l1 norm
of U over O(d) by Givens coordinate descent: for a pair of rows it evaluates the l1 norm at the
candidate angles that rotate one column of the 2 x N block onto an axis (the l1 breakpoints) and
keeps the argmin. That is OBCD's k = 2 step with f = 0 and V restricted to the rotation circle.
This solver is its generalisation to a quadratic f: ``obcd(..., k=2, branches="rot")``, the
global minimization of the majorizer K(V; X, B) of eq. (11) over V = rot(theta) only (the
breakpoint search of Section 2 on one circle of O(2)). Registered as ``"obcd_rot"`` so every
table and explorer can put it beside OBCD: the difference between the two measures what the
reflections buy. Its iterates never leave SO(n) X0 (on a square problem det(X X0^T) = +1).

Differences from the reference code:

* f: any quadratic f of :class:`~obcd_lite.problems.QuadraticProblem` through the majorizer of
  eq. (11) (Q exact, eq. (9), and the proximal alpha), and any built-in penalty h; theirs is
  f = 0, h = ||.||_1 (or a smoothed l1), so the majorizer is not needed.
* The angle search: all breakpoints of h along the circle and the stationary angles of the smooth
  part (the global minimum on the rotation circle); theirs evaluates one candidate per column
  (the smallest rotation onto an axis), which for l1 alone contains the minimizer (the l1 norm
  of the rotated block is concave between breakpoints and has period pi/2 in the angle);
  ``tests/solvers/test_obcd_rot.py`` checks one step against the best of their candidates.
* The pair choice: OBCD's working-set rules ("random" uniform, "cyclic"); theirs is greedy
  (Gauss-Southwell: every pair's best decrease, re-evaluating only pairs that share a row with
  the last one, the best pair taken).
* Bookkeeping: the common budget (max_iter, time_limit, callback); one iteration is one pair.
  Their default budget is C(d, 2) rotations and they return the trajectory of angles, not X.

Defaults are OBCD's (k = 2, alpha = 1e-5 L_f, Q = "exact", working_set = "random", max_iter =
10,000, the compiled engine where it applies). Every option of :func:`~.obcd.obcd` except ``k``
(fixed at 2) and ``branches`` (fixed at "rot") is passed through.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from ..results import Result, Step
from ..threads import one_blas_thread
from .obcd import obcd


@one_blas_thread
def obcd_rot(problem, X0, *, max_iter: int | None = None, time_limit: float | None = None, rng=None,
             callback: Callable[[Step], bool | None] | None = None, log_every: int = 100, **options) -> Result:
    """Run OBCD with V restricted to rotations (k = 2, ``branches="rot"``) from ``X0``.

    Parameters
    ----------
    problem : QuadraticProblem
        As for :func:`~.obcd.obcd`.
    X0 : numpy.ndarray
        As for :func:`~.obcd.obcd`.
    max_iter : int or None
        As for :func:`~.obcd.obcd`.
    time_limit : float or None
        As for :func:`~.obcd.obcd`.
    rng : int, numpy.random.Generator or None
        As for :func:`~.obcd.obcd`.
    callback : callable or None
        As for :func:`~.obcd.obcd`.
    log_every : int
        As for :func:`~.obcd.obcd`.
    **options
        ``alpha``, ``working_set``, ``Q``, ``engine`` of :func:`~.obcd.obcd`; ``k`` may
        only be 2 and ``branches`` may not be given.

    Returns
    -------
    Result
        ``obcd``'s result with ``solver = "obcd_rot"``.

    Raises
    ------
    ValueError
        If ``branches`` other than "rot" or ``k`` other than 2 is passed.
    """
    if "branches" in options:
        raise ValueError(f"obcd_rot fixes branches = 'rot'; got branches = {options['branches']!r} "
                         "(use obcd for 'both' or 'ref')")
    if options.get("k", 2) != 2:
        raise ValueError(f"obcd_rot is the k = 2 (Givens) search; got k = {options['k']!r}")
    options.pop("k", None)
    result = obcd(problem, X0, max_iter=max_iter, time_limit=time_limit, rng=rng, callback=callback,
                  log_every=log_every, k=2, branches="rot", **options)
    return dataclasses.replace(result, solver="obcd_rot")
