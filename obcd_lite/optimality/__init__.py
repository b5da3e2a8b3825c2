"""Optimality along the paper's hierarchy: critical, BS_2, BS_3, ..., global (Section 3).

* :mod:`.criticality` — critical points (Definition 3.4): ``riemannian_residual``, ``is_critical``;
* :mod:`.block_stationarity` — BS_k (Definition 3.6, exhaustive or sampled) and the eps-BS_k
  measure (Definition 4.1); ``riemannian_gradient_norm`` (criticality for h = 0);
* :mod:`.global_search` — a certified global minimum for small n (SCIP on the MIQCQP model of :mod:`.global_scip`,
  or the own branch and bound over Givens angles; measured reach in docs/global_search.md);
* :mod:`.hierarchy` — ``classify``: every level with its certificate.

Theorem 3.8(a), "every BS_2 point is critical", holds for h = 0 and X >= 0 but not for l1 or l0
(pair-wise subgradients need not agree); see :mod:`.hierarchy` and notebook 05.
"""
from .block_stationarity import (BLOCK_BUDGET, BlockBudgetError, BlockReport, block_cost, block_gaps, block_report,
                                 eps_bs_measure, is_block_stationary, riemannian_gradient_norm, sample_blocks)
from .criticality import Residual, is_critical, verdict_scale, residual_details, riemannian_residual
from .global_search import GlobalMinimum, global_minimum, stiefel_angles, stiefel_from_angles
from .hierarchy import Classification, classify

__all__ = ["BLOCK_BUDGET", "BlockBudgetError", "block_cost", "BlockReport", "block_gaps", "block_report", "eps_bs_measure", "is_block_stationary",
           "riemannian_gradient_norm", "sample_blocks", "Residual", "is_critical", "verdict_scale", "residual_details",
           "riemannian_residual", "GlobalMinimum", "global_minimum", "stiefel_angles", "stiefel_from_angles",
           "Classification", "classify"]
