"""The pure compute behind notebook 03's pictures: one factor of Theorem 3.1(a) at a time, and
OBCD with and without reflections. Drawing: :mod:`obcd_lite.viz.completeness`; wiring:
:mod:`obcd_lite.widgets.completeness`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..rounding import equals, fmt
from ..validation import as_matrix
from .completeness import Factor, compose, describe_factors


def step_state(D, factors: Sequence[Factor], step: int) -> dict:
    """What the slider shows after applying the first ``step`` factors.

    Parameters
    ----------
    D : numpy.ndarray
        The orthogonal matrix factored.
    factors : sequence of Factor
        Its factors W_1, ..., W_m.
    step : int
        0 to m.

    Returns
    -------
    dict
        ``step``, ``n``, ``product`` = W_step ... W_1 (the running product, I at step 0 and D at the end),
        ``remaining`` = W_m ... W_{step+1} = D product^T (the transpose of Listing 1's R),
        ``pair``/``branch``/``theta`` of factor ``step`` (None at step 0), ``branches`` of all factors, and
        ``error`` = ||remaining - I||_F, the distance still to go.

    Raises
    ------
    ValueError
        If ``step`` is not an integer in [0, m], m the number of steps.
    """
    D = as_matrix(D, "D")
    n = D.shape[0]
    m = len(factors)
    if int(step) != step or not 0 <= step <= m:
        raise ValueError(f"step must be an integer in [0, {m}], got step = {step!r}")
    step = int(step)
    product = compose(factors[:step], n)
    remaining = D @ product.T  # product is orthogonal, so W_m ... W_{step+1} = D product^{-1}
    described = describe_factors(factors)
    current = described[step - 1] if step > 0 else None
    return {
        "step": step,
        "n": n,
        "product": product,
        "remaining": remaining,
        "pair": None if current is None else (current[0], current[1]),
        "branch": None if current is None else current[2],
        "theta": None if current is None else current[3],
        "branches": [d[2] for d in described],
        "error": float(np.linalg.norm(remaining - np.eye(n))),
    }


def step_row(state: dict) -> dict:
    """The step, pair, branch, angle and distance left as strings: a row of
    :func:`obcd_lite.viz.completeness.steps_table`.

    Numbers through ``rounding.fmt``: the same on every CPU; the distance left after the last factor is
    rounding and prints as a bound.

    Parameters
    ----------
    state : dict
        A :func:`step_state`.

    Returns
    -------
    dict
        ``{"step": "3 of 15", "pair": "(2, 3)", "factor": "rot(theta = 4.980)", "error": "3.226"}``;
        at step 0 ``pair`` and ``factor`` are "none" (nothing applied yet).
    """
    m = len(state["branches"])
    row = {"step": f"{state['step']} of {m}", "pair": "none", "factor": "none", "error": fmt(state["error"], 3)}
    if state["pair"] is not None:
        i, j = state["pair"]
        row.update(pair=f"({i}, {j})", factor=f"{state['branch']}(theta {equals(state['theta'], 3, floor=None)})")
    return row


def step_title(state: dict) -> str:
    """One line naming the step, pair, branch and angle (the figure's title and the explorer's status line).

    Parameters
    ----------
    state : dict
        A :func:`step_state`.

    Returns
    -------
    str
        The line, numbers as :func:`step_row` gives them.
    """
    row = step_row(state)
    error = equals(state["error"], 3)
    if state["pair"] is None:
        return f"step {row['step']}: nothing applied yet, ||remaining - I||_F {error}"
    return f"step {row['step']}: rows {row['pair']}, {row['factor']}, ||remaining - I||_F {error}"


def reachability_runs(T, X0, *, max_iter: int = 300, rng=None, working_set: str = "cyclic") -> dict:
    """OBCD (k = 2) on F(X) = ||X - T||_F^2 from X0 with both branches and with rotations only.

    Everything but ``branches`` is the same loop.

    Parameters
    ----------
    T : numpy.ndarray
        The target.
    X0 : numpy.ndarray
        The start on St(n, r).
    max_iter : int, default 300
        The iteration budget of each run.
    rng : int or numpy.random.Generator, optional
        Seeds a random working-set rule (the cyclic rule draws nothing).
    working_set : str, default "cyclic"
        "cyclic" or "random".

    Returns
    -------
    dict
        ``{"both": Result, "rot": Result}`` from :func:`obcd_lite.solvers.obcd.obcd` with
        ``branches="both"`` and ``branches="rot"``.
    """
    from ..problems import procrustes
    from ..solvers.obcd import obcd

    problem = procrustes(T)
    return {branches: obcd(problem, X0, k=2, max_iter=max_iter, working_set=working_set, rng=rng,
                           branches=branches, log_every=1)
            for branches in ("both", "rot")}
