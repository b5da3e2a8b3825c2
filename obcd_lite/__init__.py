"""obcd-lite: OBCD, block coordinate descent under orthogonality constraints, for teaching and exploration.

Layers (each imports only the ones above it):

* core — ``validation``, ``rounding``, ``threads``, ``stiefel``, ``penalties``, ``problems``, ``protocol``
  (what a solver may call on a problem), ``smooth`` (any smooth f: ``SmoothProblem``, ``from_pymanopt``),
  ``results``;
* ``subproblem`` (the k x k problem (3)), ``solvers`` (one module per method, ``SOLVERS``),
  ``optimality`` (critical, BS₂, BS₃, …, global, with certificates);
* ``teaching`` (pure compute behind notebooks 01–03, 05 and 06); ``data`` (offline data sets, ``load_dataset``)
  and ``experiments`` (runner, metrics, the paper's tables, the scikit-learn peer, the relatives: notebooks
  04 and 07), imported on demand (they load pandas and scikit-learn);
* ``viz`` (matplotlib figures) and ``widgets`` (ipywidgets wiring), imported on demand.

``__all__`` is the method (``obcd`` and its exact k = 2 subproblem ``solve_2x2``), the problems (their
penalties and start points), the solvers and the certificates. Everything else is imported from its
module (``obcd_lite.subproblem``, ``obcd_lite.stiefel``, ``obcd_lite.teaching.critical_points``, …); a few
core names stay importable here for convenience. To read one OBCD step, start at the docstring of
:mod:`obcd_lite.solvers.obcd` (the reading map).

Importing the package loads neither pyplot, sympy nor ipywidgets.
"""
from .optimality import (block_gaps, block_report, classify, eps_bs_measure, global_minimum, is_block_stationary,
                         is_critical, riemannian_gradient_norm, riemannian_residual)
from .penalties import CappedL1, L0, L1, NonNeg, Penalty, Zero, count_nonzeros
from .problems import QuadraticProblem, nonneg_pca, procrustes, randn_covariance, sparse_pca
from .results import Recorder, Result, Step
from .smooth import SmoothProblem
from .smooth_pymanopt import from_pymanopt
from .solvers import SOLVERS, cayley_method, get_solver, obcd, working_sets
from .stiefel import BRANCHES, angle_of, branch_matrix, feasibility, identity_init, polar, random_stiefel, ref, rot
from .subproblem import (CandidateSet, TwoByTwoSolution, block_data, branch_coefficients, brute_force_2x2,
                         candidate_set, majorizer_value, quartic_coefficients, solve_2x2, solve_2x2_full, solve_kxk)

__all__ = [
    # the method
    "obcd", "solve_2x2",
    # the problems
    "QuadraticProblem", "SmoothProblem", "from_pymanopt", "sparse_pca", "nonneg_pca", "procrustes", "randn_covariance",
    "Penalty", "Zero", "L0", "L1", "CappedL1", "NonNeg", "random_stiefel", "identity_init",
    # the solvers
    "SOLVERS", "get_solver", "Result",
    # the certificates
    "classify", "is_critical", "riemannian_residual", "riemannian_gradient_norm", "is_block_stationary",
    "block_report", "block_gaps", "eps_bs_measure", "global_minimum",
]
