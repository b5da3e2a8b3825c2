"""obcd-lite: OBCD, block coordinate descent under orthogonality constraints, for teaching and exploration.

Plotting and widget modules (``o2_plots``, ``o2_widget``, ``breakpoint_stepper``,
``completeness_widget``) and the sympy derivations (``symbolic``) are imported on demand,
so that importing the package loads neither pyplot nor sympy.
"""
from .cayley import CayleyResult, cayley_matrix, cayley_method, check_cayley_det
from .completeness import (closest_with_det, compose, describe_factors, embed_factors, factor_count, factor_matrix,
                           givens_qr_rotations_only, jacobi_givens_qr, orthogonal_map, path_between,
                           random_orthogonal, reflection_steps)
from .critical_points import (CriticalPoint, bs2_points_2x2, check_critical_count, check_reflection_target,
                              critical_points_2x2, criticality_residual, global_minimum_2x2, landscape_2x2)
from .obcd import Result, Step, block_subproblem, obcd, solve_kxk, working_sets
from .optimality import block_gaps, is_block_stationary, riemannian_gradient_norm
from .penalties import CappedL1, L0, L1, NonNeg, Penalty, Zero, count_nonzeros
from .problems import QuadraticProblem, nonneg_pca, procrustes, randn_covariance, sparse_pca
from .reference import brute_force_2x2
from .stiefel import angle_of, feasibility, identity_init, polar, random_stiefel, ref, rot
from .subproblem import (CandidateSet, TwoByTwoSolution, branch_coefficients, candidate_set, quartic_coefficients,
                         solve_2x2, solve_2x2_full)
