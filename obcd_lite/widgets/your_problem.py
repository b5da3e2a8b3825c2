"""Notebook 08's explorer: one of the three problems, a penalty, a solver, a budget; the levels its output attains.

Wiring only (:func:`~obcd_lite.widgets.base.explorer`): the compute is :func:`obcd_lite.teaching.your_problem.runs.explore`,
the figure :func:`obcd_lite.viz.hierarchy.certificate_figure` (the same certificates as notebook 05's explorer).
"""
from __future__ import annotations

import ipywidgets as widgets

from ..teaching.your_problem import PENALIZED_BUDGET, PROBLEM_NAMES, SMOOTH_BUDGET, explore
from ..viz.hierarchy import certificate_figure, explorer_summary
from .base import Explorer, explorer, slider_layout

#: Solvers offered: the methods that need only f and grad f (and a prox or a subgradient of h).
FIRST_ORDER = ("obcd", "manpg", "manpg_ada", "rsubgrad", "cayley")
#: Iteration budgets offered (OBCD counts pair steps: about 3 n^2 of them per digit of accuracy here). "as in
#: §4/§6" is the budget the notebook's runs use for the chosen problem and h (:func:`text_budget`), so
#: that the explorer opened on a case of Section 7 shows the level Section 7 reports (the quartic with l1
#: is BS_2 at its 30,000 pair steps and no level at 10,000).
AS_IN_THE_TEXT = "as in §4/§6"
#: The budgets the explorer's slider offers: AS_IN_THE_TEXT, then fixed numbers of pair steps.
BUDGETS = (AS_IN_THE_TEXT, 1000, 3000, 10000, 30000)


def text_budget(problem: str, penalty_name: str) -> int:
    """The pair-step budget notebook 08's runs give ``problem``: ``SMOOTH_BUDGET`` for h = 0 (Section 4),
    ``PENALIZED_BUDGET`` with a penalty (Section 6).

    Parameters
    ----------
    problem : str
        One of ``PROBLEM_NAMES``.
    penalty_name : str
        "none", "l1" or "nonneg".

    Returns
    -------
    int
        The budget.

    Raises
    ------
    ValueError
        For a problem the notebook does not run.
    """
    if problem not in SMOOTH_BUDGET:
        raise ValueError(f"problem must be one of {', '.join(PROBLEM_NAMES)}, got problem = {problem!r}")
    return SMOOTH_BUDGET[problem] if penalty_name == "none" else PENALIZED_BUDGET[problem]


def _explore(*, max_iter, **values):
    """:func:`explore` with the budget "as in the text" resolved (wiring, no compute of its own)."""
    budget = text_budget(values["problem"], values["penalty_name"]) if max_iter == AS_IN_THE_TEXT else max_iter
    return explore(max_iter=budget, **values)


def build_explorer(problem: str = "quartic", penalty_name: str = "none", lam: float = 0.01, seed: int = 0,
                   solver: str = "obcd", bound: bool = False, max_iter: int | str = AS_IN_THE_TEXT) -> Explorer:
    """Dropdowns problem, h, solver, L (a proven bound or OBCD's estimate); sliders λ, seed and the budget.

    Parameters
    ----------
    problem : str
        The first problem shown (one of ``PROBLEM_NAMES``).
    penalty_name : str
        "none", "l1" or "nonneg".
    lam : float
        The weight of l1, in [1e-4, 1e-1].
    seed : int
        The instance's seed and the solver's rng, 0 to 5.
    solver : str
        One of :data:`FIRST_ORDER`.
    bound : bool
        Start with the proven L (True) or OBCD's estimate (False).
    max_iter : int or str
        One of :data:`BUDGETS`; default the notebook's own budget for the problem and h (:func:`text_budget`).

    Returns
    -------
    Explorer
        The controls, the certificate figure and the summary (:func:`obcd_lite.teaching.your_problem.runs.explore`).
    """
    style = slider_layout()
    controls = {
        "problem": widgets.Dropdown(options=PROBLEM_NAMES, value=problem, description="problem", **style),
        "penalty_name": widgets.Dropdown(options=("none", "l1", "nonneg"), value=penalty_name, description="h",
                                         **style),
        "lam": widgets.FloatLogSlider(value=lam, base=10, min=-4, max=-1, step=0.25, description="λ",
                                      continuous_update=False, **style),
        "seed": widgets.IntSlider(value=seed, min=0, max=5, description="seed", continuous_update=False, **style),
        "solver": widgets.Dropdown(options=FIRST_ORDER, value=solver, description="solver", **style),
        "bound": widgets.Dropdown(options=(("estimated", False), ("proven bound", True)), value=bound,
                                  description="L", **style),
        "max_iter": widgets.SelectionSlider(options=BUDGETS, value=max_iter, description="budget",
                                            continuous_update=False, **style),
    }
    return explorer(controls, _explore, lambda e: certificate_figure(e.classification), summary=explorer_summary)
