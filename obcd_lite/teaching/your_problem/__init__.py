"""Notebook 08, "your own problem": three non-quadratic problems from the paper's list, each written once as a
pymanopt cost, and what the suite does with them (OBCD, the baselines, the hierarchy).

* :mod:`.problems` — the definitions and the notebook's instances (:func:`~.problems.quartic_energy`,
  :func:`~.problems.orthogonal_classifier`, :func:`~.problems.orthogonal_factorization`,
  :func:`~.problems.instance`) and the penalty each label names (:func:`~.problems.penalty`);
* :mod:`.runs` — OBCD next to pymanopt's trust regions and the baselines, the rendered tables and the
  hierarchy explorer's compute (:func:`~.runs.explore`).

The notebook imports every name from here: ``from obcd_lite.teaching.your_problem import instance, smooth_runs``.
"""
from .problems import (BUILDERS, PENALTIES, PENALTY_LABELS, PROBLEM_NAMES, Instance, classifier_data, instance,
                       laplacian_1d, orthogonal_classifier, orthogonal_factorization, penalty, quartic_energy)
from .runs import (PENALIZED, PENALIZED_BUDGET, SCALAR_Q, SMOOTH_BUDGET, Exploration, SmoothRun, explore,
                   hessian_comparison, hierarchy_table, penalized_runs, penalized_table, smooth_runs, smooth_table,
                   trust_regions)

__all__ = ["BUILDERS", "PENALTIES", "PENALTY_LABELS", "PROBLEM_NAMES", "Instance", "classifier_data", "instance",
           "laplacian_1d", "orthogonal_classifier", "orthogonal_factorization", "penalty", "quartic_energy",
           "PENALIZED", "PENALIZED_BUDGET", "SCALAR_Q", "SMOOTH_BUDGET", "Exploration", "SmoothRun", "explore",
           "hessian_comparison", "hierarchy_table",
           "penalized_runs", "penalized_table", "smooth_runs", "smooth_table", "trust_regions"]
