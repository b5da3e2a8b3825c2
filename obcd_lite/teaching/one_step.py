"""OBCD at the scale of one step, for the instructor's figures (notebooks 00, 01, 02 and 04).

* :func:`one_obcd_step` — one iteration on a small X: the two rows B, the 2 x 2 factor V that solves
  problem (3) globally, X before and after (Algorithm 1, one pass of its loop);
* :func:`majorizer_curves` — the block majorizer K(V; X, B) of eq. (11) against F(X_B(V)) along both
  circles of O(2), for a problem with n > 2: K lies above F and touches it at V = I (Lemma 2.3(a));
* :func:`sphere_paths` — OBCD and the Cayley-transform method on St(3, 1), the unit sphere, iterate by
  iterate;
* :func:`final_values_over_starts` — the final F of two solvers from many random starts (the spread
  that a single number in a table hides).

Pure compute: the figures are in :mod:`obcd_lite.viz.one_step`.
"""
from __future__ import annotations

import numpy as np

from ..solvers import get_solver
from ..solvers.cayley import cayley_method
from ..solvers.obcd import obcd
from ..stiefel import BRANCHES, angle_of, branch_matrix, random_stiefel
from ..subproblem import block_data, majorizer_value
from ..subproblem.breakpoint import solve_2x2_full
from ..validation import check_stiefel


def _point(X, name: str = "X") -> np.ndarray:
    X = np.array(X, dtype=float)
    check_stiefel(X, name)
    return X


def _block(B, n: int) -> list[int]:
    B = [int(i) for i in B]
    if len(B) != 2 or B[0] == B[1] or not all(0 <= i < n for i in B):
        raise ValueError(f"B must be two distinct row indices in 0..{n - 1}, got {B!r}")
    return B


def one_obcd_step(problem, X: np.ndarray, B, alpha: float = 1e-5, Q: str = "exact") -> dict:
    """One OBCD iteration on rows ``B`` of ``X``: rows B <- V rows B with V a global minimizer of
    problem (3) over O(2).

    Returns a dict with ``B``, ``V``, ``branch`` ("rot" or "ref"), ``theta``, ``X_before``,
    ``X_after`` (only rows B differ), ``F_before`` and ``F_after`` (<= F_before: Lemma 2.3(a)
    makes K a majorizer that equals F at V = I).

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X) on St(n, r).
    X : numpy.ndarray
        The current point, n x r with XᵀX = I.
    B : sequence of int
        The two distinct rows of the working set.
    alpha : float
        The proximal parameter of eq. (11).
    Q : str
        The majorizer's Q ("exact" or "scalar").

    Returns
    -------
    dict
        The step, with the keys above.

    Raises
    ------
    ValueError
        If ``X`` is not on St(n, r) or ``B`` is not two distinct rows of ``X``.
    """
    X = _point(X)
    B = _block(B, X.shape[0])
    Qt, P, Z = block_data(problem, X, problem.grad(X), B, alpha, Q)
    sol = solve_2x2_full(Qt, P, Z, problem.h)
    X_after = X.copy()
    X_after[B] = sol.VZ
    branch, theta = angle_of(sol.V)
    return {"B": tuple(B), "V": sol.V, "branch": branch, "theta": theta, "X_before": X, "X_after": X_after,
            "F_before": problem.F(X), "F_after": problem.F(X_after)}


def majorizer_curves(problem, X: np.ndarray, B, alpha: float = 1e-5, Qs=("exact", "scalar"),
                     samples: int = 721) -> dict:
    """K(V; X, B) (eq. (11), each Q of ``Qs``) and F(X_B(V)) for V = rot(θ) and ref(θ), θ on a grid.

    K is problem (3)'s value plus the constant that makes K(I) = F(X), so both curves are on F's
    scale. Returns ``{"theta": grid, "F": {branch: values}, "K": {Q: {branch: values}}, "F_X": F(X)}``.

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    X : numpy.ndarray
        The point K is built at (n x r, on St(n, r)).
    B : sequence of int
        The two distinct rows of the block.
    alpha : float
        The proximal parameter of eq. (11).
    Qs : sequence of str
        The majorizers' Q, one curve each.
    samples : int
        The number of angles on [0, 2π].

    Returns
    -------
    dict
        The curves, with the keys above (and ``"B"``).

    Raises
    ------
    ValueError
        If ``X`` is not on St(n, r) or ``B`` is not two distinct rows of ``X``.
    """
    X = _point(X)
    B = _block(B, X.shape[0])
    theta = np.linspace(0.0, 2 * np.pi, samples)
    G = problem.grad(X)
    out = {"theta": theta, "F": {}, "K": {}, "F_X": problem.F(X), "B": tuple(B)}
    for branch in BRANCHES:
        values = []
        for t in theta:
            Y = X.copy()
            Y[B] = branch_matrix(branch, t) @ X[B]
            values.append(problem.F(Y))
        out["F"][branch] = np.array(values)
    for Q in Qs:
        Qt, P, Z = block_data(problem, X, G, B, alpha, Q)
        constant = out["F_X"] - majorizer_value(Qt, P, np.eye(2), Z, problem.h)
        out["K"][Q] = {}
        for branch in BRANCHES:
            Vs = [branch_matrix(branch, t) for t in theta]
            out["K"][Q][branch] = np.array([majorizer_value(Qt, P, V, V @ Z, problem.h) for V in Vs]) + constant
    return out


def sphere_paths(problem, x0: np.ndarray, iterations: int = 12, seed: int = 0) -> dict:
    """OBCD (k = 2, cyclic pairs) and the Cayley method on St(3, 1) from ``x0``: every iterate.

    Returns ``{"obcd": (m, 3) points, "cayley": (m', 3) points, "F": {name: values}}``; the points
    lie on the unit sphere (each OBCD step turns the point in one coordinate plane).

    Parameters
    ----------
    problem : Problem
        A problem on St(3, 1).
    x0 : array_like
        The start, a unit vector of length 3.
    iterations : int
        The iterations of each method.
    seed : int
        OBCD's seed.

    Returns
    -------
    dict
        The two paths and their F, as above.

    Raises
    ------
    ValueError
        If ``x0`` is not a unit vector of length 3.
    """
    x0 = _point(np.reshape(x0, (3, 1)), "x0")
    points = [x0[:, 0].copy()]
    values = [problem.F(x0)]

    def keep(step) -> None:
        points.append(np.array(step.X[:, 0]))
        values.append(step.F)

    obcd(problem, x0, max_iter=iterations, working_set="cyclic", callback=keep, rng=seed)
    cay = cayley_method(problem, x0, max_iter=iterations, keep_path=True)
    path = np.array([X[:, 0] for X in cay.info["path"]])
    return {"obcd": np.array(points), "cayley": path,
            "F": {"obcd": np.array(values), "cayley": np.array([problem.F(X) for X in cay.info["path"]])}}


def final_values_over_starts(problem, n: int, r: int, solvers=("obcd", "manpg"), starts: int = 20, rng=0,
                             tol: float = 1e-6, **options) -> dict:
    """The final F of each solver from ``starts`` random points of St(n, r) (the same points for all).

    ``options`` go to every solver (e.g. ``max_iter``). Returns ``"final"``: {name: array of final
    F}, ``"best"``: the lowest final F seen, and ``"at_best"``: {name: how many runs end within
    ``tol`` (relative to max(1, |best|)) of it}.

    Parameters
    ----------
    problem : Problem
        The problem min f(X) + h(X).
    n, r : int
        The shape of St(n, r).
    solvers : sequence of str
        The solvers' names (:func:`obcd_lite.solvers.get_solver`).
    starts : int
        The number of random starts (>= 1).
    rng : int or numpy.random.Generator
        Draws the starts.
    tol : float
        The relative tolerance of "ends at the best".
    **options
        Passed to every solver.

    Returns
    -------
    dict
        ``"final"``, ``"best"`` and ``"at_best"``, as above.

    Raises
    ------
    ValueError
        If ``starts`` < 1.
    """
    if starts < 1:
        raise ValueError(f"starts must be >= 1, got {starts!r}")
    generator = np.random.default_rng(rng)
    X0s = [random_stiefel(n, r, generator) for _ in range(starts)]
    out = {name: np.array([get_solver(name)(problem, X0, rng=i, **options).F for i, X0 in enumerate(X0s)])
           for name in solvers}
    best = min(float(v.min()) for v in out.values())
    return {"final": out, "best": best,
            "at_best": {name: int(np.sum(v - best <= tol * max(1.0, abs(best)))) for name, v in out.items()}}
