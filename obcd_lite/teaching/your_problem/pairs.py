"""Notebook 08, "Many pairs per gradient": the paper's one-pair OBCD next to ``working_set="matching"`` on one of
the notebook's problems, for the same number of pair steps, counting the gradients each spends.

One pair step of the paper's OBCD costs the user's full f and grad f (a general f has no O(nr) update); a
matching spends one gradient on n // 2 disjoint pairs (:mod:`obcd_lite.solvers.obcd_pairs`). The table counts
gradient calls (the same on every machine), not seconds.
"""
from __future__ import annotations

from ...rounding import fmt
from ...smooth import SmoothProblem
from ...solvers import obcd
from .problems import instance
from .runs import SMOOTH_BUDGET, trust_regions


def pairs_table(name: str = "quartic", pair_steps: int | None = None, rng=0):
    """One-pair OBCD and many-pairs OBCD from the instance's start for the same pair steps (h = 0, L estimated).

    Parameters
    ----------
    name : str
        A problem of notebook 08 (``problems.PROBLEM_NAMES``).
    pair_steps : int, optional
        Pair steps of each run (default: the notebook's budget for the problem, ``runs.SMOOTH_BUDGET``); the
        matching run does ``pair_steps // (n // 2)`` matchings.
    rng : int or numpy.random.Generator
        The seed of the instance and of both runs.

    Returns
    -------
    pandas.DataFrame
        Indexed by rule: iterations, pair steps, gradient calls, F and F - F of pymanopt's trust regions
        (numbers through ``rounding.fmt``).
    """
    import pandas as pd

    inst = instance(name, rng)
    steps = SMOOTH_BUDGET[name] if pair_steps is None else int(pair_steps)
    F_tr = float(inst.problem.cost(trust_regions(inst).point))
    half = inst.X0.shape[0] // 2
    rows = []
    for label, working_set, iterations in (("one pair per gradient (paper)", "random", steps),
                                           ("many pairs per gradient (matching)", "matching", max(steps // half, 1))):
        base = inst.smooth(bound=False)
        calls = [0]

        def grad(X, base=base, calls=calls):
            calls[0] += 1
            return base.grad(X)

        problem = SmoothProblem(base.f, grad, shape=inst.X0.shape)
        run = obcd(problem, inst.X0, working_set=working_set, max_iter=iterations, rng=rng, log_every=iterations)
        rows.append({"rule": label, "iterations": run.iterations,
                     "pair steps": run.iterations * (half if working_set == "matching" else 1),
                     "gradient calls": calls[0], "F": fmt(run.F, 6),
                     "F − F trust regions": fmt(run.F - F_tr, 1, style="e", floor=1e-9)})
    return pd.DataFrame(rows).set_index("rule")
