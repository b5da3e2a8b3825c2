"""Pure compute behind the teaching notebooks; no plotting and no widgets here (figures: :mod:`obcd_lite.viz`,
wiring: :mod:`obcd_lite.widgets`, with the same module names where a notebook has an explorer).

* 01 — :mod:`.critical_points` (the 2x2 examples of Appendix C.1), :mod:`.o2` (its explorer);
* 02 — :mod:`.symbolic` (Appendix B re-derived with sympy), :mod:`.paper_recipe` (the paper's recipe run
  as numbers, one switch per erratum), :mod:`.breakpoint` (the stepper through
  :mod:`obcd_lite.subproblem.reference`);
* 03 — :mod:`.completeness`, :mod:`.completeness_steps` (Jacobi–Givens–QR, Listing 1),
  :mod:`.completeness_blocks` (Corollary 3.2's k-blocks and the factor count);
* 05 — :mod:`.hierarchy` (witnesses, censuses, alpha sweeps and its explorer);
* 06 — :mod:`.ledger` (every numbered statement of the paper with its verdict), :mod:`.paper_checks`
  (Sections 2–3, Appendices A and C), :mod:`.paper_rates` (Section 4);
* 08 — :mod:`.your_problem` (three non-quadratic problems written as pymanopt costs);
* shared — :mod:`.errata` (the one errata table), :mod:`.exercises` (the exercise checks of every
  notebook), :mod:`.instances` (small random instances for notebooks, tests and benchmarks).
"""
