"""The compute of notebook 05's explorer: run a solver on a tiny problem and certify its output.

The figure is :mod:`obcd_lite.viz.hierarchy`'s, the wiring :mod:`obcd_lite.widgets.hierarchy`'s.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..optimality import classify, global_minimum
from ..solvers import get_solver
from ..stiefel import random_start
from .hierarchy import teaching_ks
from .instances import tiny_problem

#: The explorer searches the global level up to this many angles (nr - r(r+1)/2): the angle search up to 3,
#: SCIP beyond (``global_minimum``'s "auto") with a node budget, so that it answers within about 2 s.
EXPLORER_MAX_ANGLES = 5
#: SCIP's node budget in the explorer (deterministic; a search that needs more reports its gap).
EXPLORER_MAX_NODES = 500


@dataclass
class Exploration:
    """A solver's output and its certificates (what the explorer of notebook 05 shows).

    Attributes
    ----------
    solver : str
        The solver's label.
    result : Result
        Its output.
    classification : object
        Its certificates (``optimality.classify``).
    """

    solver: str
    result: object
    classification: object

    def summary(self) -> str:
        """The run (iterations, stop reason) and the certificates, as lines of text.

        Returns
        -------
        str
            The lines.
        """
        r = self.result
        return (f"{self.solver}: {r.iterations} iterations, stop: {r.stop_reason}\n"
                + self.classification.summary())


def explore(n: int = 4, r: int = 1, penalty: str = "l1", lam: float = 0.1, k: int = 2, alpha: float = 1e-5,
            seed: int = 0, solver: str = "obcd", max_iter: int = 400) -> Exploration:
    """Run ``solver`` (OBCD with block size k, or any registered solver) from a random start on a tiny
    problem and classify its output (global search when the angle space is small).

    Parameters
    ----------
    n, r : int
        The shape of St(n, r).
    penalty : str
        The penalty's name.
    lam : float
        Its weight.
    k : int
        OBCD's block size.
    alpha : float
        The proximal parameter of eq. (11).
    seed : int
        The problem's and the start's seed.
    solver : str
        "obcd" or a registered solver's name.
    max_iter : int
        The solver's iterations.

    Returns
    -------
    Exploration
        The run and its certificates.

    Raises
    ------
    ValueError
        If r is not an integer in 1..n.
    """
    if not (isinstance(r, (int, np.integer)) and 1 <= r <= n):
        raise ValueError(f"r must be an integer with 1 <= r <= n = {n}, got r = {r!r}")
    problem = tiny_problem(n, penalty, lam, seed)
    X0 = random_start(n, r, seed, problem.h)
    # the sliders k and alpha reach the solvers that have them (OBCD and its relatives)
    options = {"obcd": {"k": k, "alpha": alpha, "working_set": "cyclic"},
               "obcd_rot": {"alpha": alpha, "working_set": "cyclic"},
               "obcd_step": {"k": k, "working_set": "cyclic"}}.get(solver, {})
    result = get_solver(solver)(problem, X0, max_iter=max_iter, rng=seed, **options)
    angles = n * r - r * (r + 1) // 2
    global_min = (global_minimum(problem, r=r, rng=0, max_nodes=EXPLORER_MAX_NODES)
                  if angles <= EXPLORER_MAX_ANGLES else None)
    c = classify(problem, result.X, alpha=alpha, global_search=False, global_min=global_min, ks=teaching_ks(problem))
    label = f"{solver} (k = {k})" if "k" in options else solver
    return Exploration(label, result, c)
