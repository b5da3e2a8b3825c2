"""The k x k subproblem (problem (3)) of an OBCD step.

* :mod:`.majorizer` — the block data (Qt, P, Z) of Lemma 2.3(a) and the value of K (eq. (11));
  ``solve_kxk`` for h = 0 with a scalar Q (Lemma 2.3(b)).
* :mod:`.breakpoint` — the k = 2 breakpoint search of Appendix B: ``solve_2x2`` (runs the compiled
  sweep), ``candidate_set`` (every candidate, vectorized, for teaching).
* :mod:`.sweep` — the numba kernel behind ``solve_2x2``; :mod:`.arcs` — the smooth part on one arc (bounds,
  stationary points); :mod:`.polynomial_roots` — the quartic's real roots.
* :mod:`.brute_force` — the independent reference: dense angle grid plus kinks, refined.
"""
from .breakpoint import (CandidateSet, TwoByTwoSolution, branch_coefficients, candidate_set, quartic_coefficients,
                         solve_2x2, solve_2x2_full, solve_2x2_unchecked)
from .brute_force import brute_force_2x2
from .majorizer import MAJORIZER_Q, Q_CHOICES, block_data, block_data_unchecked, majorizer_value, solve_kxk

__all__ = ["CandidateSet", "TwoByTwoSolution", "branch_coefficients", "candidate_set", "quartic_coefficients",
           "solve_2x2", "solve_2x2_full", "solve_2x2_unchecked", "brute_force_2x2", "MAJORIZER_Q", "Q_CHOICES", "block_data",
           "block_data_unchecked", "majorizer_value", "solve_kxk"]
