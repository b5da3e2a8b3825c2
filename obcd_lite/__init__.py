"""obcd-lite: OBCD, block coordinate descent under orthogonality constraints, for teaching and exploration.

Layers (each imports only the ones above it):

* core — ``validation``, ``stiefel``, ``penalties``, ``problems``, ``protocol`` (what a solver may call on a
  problem), ``smooth`` (any smooth f: ``SmoothProblem``, ``from_pymanopt``), ``results``;
* ``subproblem`` (the k x k problem (3)), ``solvers`` (one module per method, ``SOLVERS``),
  ``optimality`` (critical, BS₂, BS₃, …, global, with certificates);
* ``teaching`` (pure compute behind notebooks 01–03 and 05); ``data`` (offline data sets, ``load_dataset``) and
  ``experiments`` (runner, metrics, the paper's tables, the scikit-learn peer: notebook 04), imported on demand
  (they load pandas and scikit-learn);
* ``viz`` (matplotlib figures) and ``widgets`` (ipywidgets wiring), imported on demand.

Importing the package loads neither pyplot, sympy nor ipywidgets.
"""
from .optimality import (block_gaps, block_report, classify, eps_bs_measure, global_minimum, is_block_stationary,
                         is_critical, riemannian_gradient_norm, riemannian_residual)
from .penalties import CappedL1, L0, L1, NonNeg, Penalty, Zero, count_nonzeros
from .problems import QuadraticProblem, nonneg_pca, procrustes, randn_covariance, sparse_pca
from .results import Recorder, Result, Step
from .smooth import SmoothProblem, from_pymanopt
from .solvers import SOLVERS, cayley_method, get_solver, obcd, working_sets
from .stiefel import BRANCHES, angle_of, branch_matrix, feasibility, identity_init, polar, random_stiefel, ref, rot
from .subproblem import (CandidateSet, TwoByTwoSolution, block_data, branch_coefficients, brute_force_2x2,
                         candidate_set, majorizer_value, quartic_coefficients, solve_2x2, solve_2x2_full, solve_kxk)
from .teaching.completeness import (closest_with_det, compose, describe_factors, embed_factors, factor_count,
                                    factor_matrix, givens_qr_rotations_only, jacobi_givens_qr, orthogonal_map,
                                    path_between, random_orthogonal, reflection_steps)
from .teaching.critical_points import (CriticalPoint, bs2_points_2x2, check_critical_count, check_reflection_target,
                                       critical_points_2x2, criticality_residual, global_minimum_2x2, landscape_2x2)
from .solvers.cayley import cayley_matrix, check_cayley_det

__all__ = [
    "block_gaps", "block_report", "classify", "eps_bs_measure", "global_minimum", "is_block_stationary",
    "is_critical", "riemannian_gradient_norm", "riemannian_residual",
    "CappedL1", "L0", "L1", "NonNeg", "Penalty", "Zero", "count_nonzeros",
    "QuadraticProblem", "nonneg_pca", "procrustes", "randn_covariance", "sparse_pca",
    "SmoothProblem", "from_pymanopt",
    "Recorder", "Result", "Step",
    "SOLVERS", "cayley_method", "get_solver", "obcd", "working_sets", "cayley_matrix", "check_cayley_det",
    "BRANCHES", "angle_of", "branch_matrix", "feasibility", "identity_init", "polar", "random_stiefel", "ref", "rot",
    "CandidateSet", "TwoByTwoSolution", "block_data", "branch_coefficients", "brute_force_2x2", "candidate_set",
    "majorizer_value", "quartic_coefficients", "solve_2x2", "solve_2x2_full", "solve_kxk",
    "closest_with_det", "compose", "describe_factors", "embed_factors", "factor_count", "factor_matrix",
    "givens_qr_rotations_only", "jacobi_givens_qr", "orthogonal_map", "path_between", "random_orthogonal",
    "reflection_steps",
    "CriticalPoint", "bs2_points_2x2", "check_critical_count", "check_reflection_target", "critical_points_2x2",
    "criticality_residual", "global_minimum_2x2", "landscape_2x2",
]
