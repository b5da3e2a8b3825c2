"""obcd-lite: OBCD, block coordinate descent under orthogonality constraints, for teaching and exploration."""
from .penalties import CappedL1, L0, L1, NonNeg, Penalty, Zero, count_nonzeros
from .stiefel import angle_of, feasibility, identity_init, polar, random_stiefel, ref, rot
from .obcd import Result, Step, obcd, solve_kxk, working_sets
from .problems import QuadraticProblem, nonneg_pca, procrustes, randn_covariance, sparse_pca
from .subproblem import (CandidateSet, TwoByTwoSolution, branch_coefficients, candidate_set, quartic_coefficients,
                         solve_2x2, solve_2x2_full)
# --- modules of the notebooks (one import line each) ---
from .breakpoint_stepper import brute_force_2x2, build_stepper, stepper_state  # notebook 02 (sympy derivations: obcd_lite.symbolic, imported on demand)
from .critical_points import CriticalPoint, bs2_points_2x2, check_critical_count, check_reflection_target, critical_points_2x2, criticality_residual, global_minimum_2x2, landscape_2x2; from .cayley import CayleyResult, cayley_matrix, cayley_method, check_cayley_det  # noqa: E501, E702 (notebook 01; plots/widget: obcd_lite.o2_plots, obcd_lite.o2_widget)
from .completeness import closest_with_det, compose, describe_factors, embed_factors, factor_count, factor_matrix, givens_qr_rotations_only, jacobi_givens_qr, orthogonal_map, path_between, reflection_steps  # noqa: E501
