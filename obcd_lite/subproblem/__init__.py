"""The k x k subproblem (problem (3)) of an OBCD step.

* :mod:`.majorizer` — the block data (Qt, P, Z) of Lemma 2.3(a) and the value of K (eq. (11));
  ``solve_kxk`` for h = 0 with a scalar Q (Lemma 2.3(b)).
* :mod:`.reference` — the k = 2 breakpoint search of Appendix B (corrected) in plain loops,
  ``reference_2x2``: the version to read beside the paper (notebook 02 steps through it).
* :mod:`.breakpoint` — ``solve_2x2`` (what OBCD runs: the compiled sweep), ``candidate_set`` (every
  candidate, vectorized; also the search for a Penalty of the user's own), with :mod:`.quartic` (Lemma B.1's
  quartic: coefficients, real roots, which half circle a root is stationary on).
* :mod:`.sweep` — the numba kernel behind ``solve_2x2``, with its parts: :mod:`.crossings` (where entries
  of V Z cross 0 or the cap, in order), :mod:`.window` (the l1 sectors that can hold the minimum),
  :mod:`.arcs` (the smooth part on one arc: bounds, stationary points), :mod:`.polynomial_roots` (the
  quartic's real roots).
* :mod:`.brute_force` — the independent reference: dense angle grid plus kinks, refined.
* :mod:`.global_3x3` — k = 3, h = 0: certified branch and bound over O(3).

Words and symbols: the glossary on the site's package page (``docs/package.md``).
"""
from .breakpoint import (CandidateSet, TwoByTwoSolution, branch_coefficients, candidate_set, solve_2x2, solve_2x2_full,
                         solve_2x2_unchecked)
from .quartic import quartic_coefficients
from .brute_force import brute_force_2x2
from .majorizer import MAJORIZER_Q, Q_CHOICES, block_data, block_data_unchecked, majorizer_value, solve_kxk
from .reference import reference_2x2

__all__ = ["CandidateSet", "TwoByTwoSolution", "branch_coefficients", "candidate_set", "quartic_coefficients",
           "solve_2x2", "solve_2x2_full", "solve_2x2_unchecked", "brute_force_2x2", "MAJORIZER_Q", "Q_CHOICES", "block_data",
           "block_data_unchecked", "majorizer_value", "solve_kxk", "reference_2x2"]
