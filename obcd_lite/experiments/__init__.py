"""Experiments of notebook 04: the runner, metrics, the paper's tables and the scikit-learn peer.

Pure compute only (no drawing): ``run_experiment`` -> records and histories as pandas frames.
"""
from .metrics import NNZ_TOL, adjusted_explained_variance, normalize_columns, sparsity, support_recovery
from .paper_tables import (PAPER_LAMS, PAPER_OBCD_RANDN, REFERENCE_CODE_SCALES, convert_lam, coordinate_point,
                           coordinate_threshold, coordinate_value, lam_for_code, matching_scale, paper_table)
from .sparse_pca import Comparison, compare, default_methods
from .records import Experiment, load_experiment, time_to_target
from .runner import PROBLEMS, STARTS, build_problem, parse_method, run_experiment, start_point

__all__ = ["NNZ_TOL", "adjusted_explained_variance", "normalize_columns", "sparsity", "support_recovery",
           "PAPER_LAMS", "PAPER_OBCD_RANDN", "REFERENCE_CODE_SCALES", "convert_lam", "coordinate_point",
           "coordinate_threshold", "coordinate_value", "lam_for_code", "matching_scale", "paper_table",
           "PROBLEMS", "STARTS", "Experiment", "build_problem", "load_experiment", "parse_method", "run_experiment",
           "start_point", "time_to_target", "Comparison", "compare", "default_methods"]
