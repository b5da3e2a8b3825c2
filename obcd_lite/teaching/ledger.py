"""The paper, statement by statement: one verdict for each of its 40 numbered results (issue 18).

:data:`LEDGER` has one row per numbered statement, or per part (a), (b), ... where the parts' verdicts
differ, in the paper's order. Fields:

* ``label`` — exactly as the paper numbers it (its own counters: one per section shared by all
  theorem-like environments, appendix letters A, B, C), read off the source by :func:`paper_statements`;
* ``part`` — "" for the whole statement, else "(a)", "(b)", ...;
* ``statement`` — one line, our words;
* ``verdict`` — one of :data:`VERDICTS`: "holds", "corrected" (true after the stated correction),
  "false", "definition", "not checkable";
* ``check`` — the tests that decide it, as ``path::name`` (run by ``tests/teaching/test_ledger.py``),
  or ``reason`` — why no machine check is possible;
* ``notebook`` — where it is shown;
* for "corrected" and "false" rows: ``correct`` (what holds), ``witness`` (the instance and its
  certificate) and ``fails`` (the step of the paper's proof that fails);
* ``errata`` — the rows of the errata table about this statement or its proof (same fields as
  :data:`obcd_lite.teaching.errata.ERRATA`); errata of unnumbered text stay there.
"""
from __future__ import annotations

import re

#: The verdicts a ledger row can have, in the order tables list them.
VERDICTS = ("holds", "corrected", "false", "definition", "not checkable")
KIND_NAMES = {"theorem": "Theorem", "proposition": "Proposition", "lemma": "Lemma", "corollary": "Corollary",
              "definition": "Definition", "assumption": "Assumption", "remark": "Remark"}

_T = "tests/teaching/"
PC = _T + "test_paper_checks.py::"
ER = _T + "test_errata.py::"
WITNESS_38A = ("F = ||X - T||^2 + 1.35 ||X||_1 on St(3, 2), T = [[1.5, -1.25], [1.5, 1.35], [0.8, 0.25]], X = OBCD's "
               "limit: every block gap < 1e-12 (brute force over O(2)), dist(0, d_M F(X)) = 0.82 (BVLS and L-BFGS-B)")


def _row(label, statement, verdict, check=(), notebook="06", part="", reason=None, **extra) -> dict:
    return {"label": label, "part": part, "statement": statement, "verdict": verdict,
            "check": (check,) if isinstance(check, str) else tuple(check), "reason": reason, "notebook": notebook,
            **extra}


def _erratum(where, notebook, kind, paper, correct, instance, test) -> dict:
    return {"where": where, "notebook": notebook, "kind": kind, "paper": paper, "correct": correct,
            "instance": instance, "test": test}


#: One row per numbered statement of the paper (parts with different verdicts apart), in the paper's order.
LEDGER = (
    # --- Section 2: the update scheme and the subproblem ---------------------------------------------------
    _row("Lemma 2.1", "X+ = X + U_B (V - I) U_B^T X keeps X^T X for V in O(k); hence St(n, r) is preserved",
         "holds", PC + "test_lemma_2_1_and_lemma_2_2"),
    _row("Lemma 2.2", "||X+ - X||_H^2 = ||V - I||_Q^2 (Q of eq. (9)); ||X+ - X||^2 = 2<I - V, Z Z^T> <= ||V - I||^2 "
         "= 2<I, I - V>", "holds", (PC + "test_lemma_2_1_and_lemma_2_2",
                                     "tests/solvers/test_obcd.py::test_exact_Q_is_the_curvature_and_scalar_Q_bounds_it")),
    _row("Lemma 2.3", "the OBCD subproblem is problem (3) with Qt = Q + alpha I; with Q = varsigma I it is "
         "min <V, P> + h(V Z), and for h = 0 its solution is -P_M(P)", "holds",
         (PC + "test_lemma_2_3_and_remark_2_4", "tests/subproblem/test_breakpoint.py::test_solve_kxk_is_minus_polar"),
         notebook="02"),
    _row("Remark 2.4", "(a) for k > 2, h = 0 and a scalar Q the subproblem is solved exactly (SVD); (b) any V with "
         "K(V) <= K(I) keeps the sufficient decrease", "holds", PC + "test_lemma_2_3_and_remark_2_4"),
    _row("Lemma 2.5", "every V in O(2) is rot(theta) (det +1) or ref(theta) (det -1)", "holds",
         (ER + "test_rotation_convention_of_lemma_2_5_proof",
          _T + "test_completeness.py::test_products_of_rotations_never_reach_det_minus_one"), notebook="01",
         errata=(_erratum("Lemma 2.5 and its proof (Appendix D)", "01", "slip",
                          "lemma: rot(theta) = [[c, s], [-s, c]]; proof: [[c, -s], [s, c]], and 'det(V^rot) = -cos^2 - "
                          "sin^2 = -1'", "the proof's matrix is the lemma's rot(-theta) (same set, opposite angle); "
                                         "the det "
                          "line is about V^ref", "sympy: proof_rot(theta) = lemma_rot(-theta); det lemma_rot = +1, "
                                                 "det ref = -1",
                          "test_rotation_convention_of_lemma_2_5_proof"),)),
    _row("Remark 2.6", "earlier work used rotations only (Givens rotations for eigenvalue problems and sparse PCA)",
         "not checkable", part="(i)", notebook="01",
         reason="a statement about the literature, not about a computation"),
    _row("Remark 2.6", "in both 2 x 2 examples the reflection gives the lower objective value", "false",
         ER + "test_remark_2_6_reflections_win_only_for_f1", part="(ii)", notebook="01",
         correct="true for F1 = ||V - A||^2 only; F2's global minimum is the rotation V = I",
         witness="F1: min over reflections 5 - 2 sqrt 5 < min over rotations 3; F2 = ||V - B||^2 + 5||V||_1: "
                 "min over rotations 12 (at I) < min over reflections 16 (sympy and a dense angle grid)",
         fails="no proof is given; the appendix figure shows F2's minimum on the rotation branch",
         errata=(_erratum("Remark 2.6", "01", "wrong", "the reflection 'results in lower objective values' in both "
                                                       "examples",
                          "true for F1 only; F2's global minimum is the rotation I (F = 12 < 16)",
                          "F1: min ref 5 - 2 sqrt 5 < min rot 3; F2: min rot 12 < min ref 16",
                          "test_remark_2_6_reflections_win_only_for_f1"),)),
    # --- Section 3: optimality --------------------------------------------------------------------------------
    _row("Theorem 3.1", "every D in O(n) is a product of C(n, 2) two-row factors W_i; every X in St(n, r) is reached "
         "from any X^0 that way", "holds",
         (_T + "test_completeness.py::test_random_orthogonal_is_product_of_C_n_2_factors",
          _T + "test_completeness.py::test_path_between", ER + "test_distinct_pairs_order",
          ER + "test_givens_qr_r_is_upper_triangular", ER + "test_sign_fix_count_depends_on_d"), notebook="03",
         errata=(_erratum("Theorem 3.1, proof of (a)", "03", "slip",
                          "Givens QR gives 'R lower triangular with R_ij = 0 for all i < j'",
                          "Givens QR (Listing 1) zeroes R_ij for i > j: R is upper triangular; Lemma A.5 applies to R^T",
                          "jacobi_givens_qr without sign fixes on a random D: R upper triangular, diagonal +-1",
                          "test_givens_qr_r_is_upper_triangular"),
                 _erratum("Theorem 3.1, proof, point c)", "03", "slip",
                          "lines 7-10 of Listing 1 are executed n - 2 times",
                          "they are an if: 0 to n - 1 times, depending on D", "n = 6, 200 random D: 0 to 5 times",
                          "test_sign_fix_count_depends_on_d"),
                 _erratum("Theorem 3.1(a) vs Listing 1", "03", "gap",
                          "factors W_1 ... W_C(n,2), one per block B_i; Listing 1 uses the n - 1 neighbouring pairs, "
                          "repeatedly", "the statement holds: pivoting on the diagonal row uses each pair exactly once "
                          "(order='distinct')", "n = 6: 'paper' order 5 distinct pairs, 'distinct' order 15",
                          "test_distinct_pairs_order"))),
    _row("Corollary 3.2", "Theorem 3.1 extends to every block size k >= 2", "holds", ER + "test_corollary_3_2_statement",
         notebook="03",
         errata=(_erratum("Corollary 3.2", "03", "gap",
                          "Theorem 3.1 extends to all k >= 2 (C(n, k) block factors); the proof embeds the C(n, 2) 2x2 "
                          "factors", "the statement is not false: for 2 <= k <= n - 2 the C(n, 2) factors get distinct "
                          "k-blocks (pad with V = I); for k = n - 1, n factors on the n blocks exist; k = n is D "
                          "itself. "
                          "The proof only shows C(n, 2) factors",
                          "matchings for n = 4..7; k = n - 1 factors fitted for n = 4, 5", "test_corollary_3_2_statement"),)),
    _row("Remark 3.3", "(i) reflections are needed: products of rotations have det +1; (ii) the update scheme reaches "
         "every X from every X^0", "holds",
         (_T + "test_completeness.py::test_products_of_rotations_never_reach_det_minus_one",
          _T + "test_completeness.py::test_path_between"), notebook="03"),
    _row("Definition 3.4", "critical point: 0 in d_M F(X) = {G - X G^T X : G in dF(X)}", "definition",
         "tests/optimality/test_criticality.py::test_residual_matches_an_independent_qp", notebook="05"),
    _row("Remark 3.5", "the critical point condition is equivalent to 0 in P_T(dF(X))", "holds", PC + "test_remark_3_5"),
    _row("Definition 3.6", "BS_k-point: I_k minimizes K(V; X, B) over O(k) for every block B of size k", "definition",
         _T + "test_critical_points.py::test_bs2_definition_by_brute_force", notebook="05"),
    _row("Remark 3.7", "at a BS_k-point no block can lower its majorizer K by a global block minimization", "holds",
         "tests/optimality/test_block_stationarity.py::test_remark_3_7_no_block_lowers_its_majorizer_at_bs2_points",
         notebook="05"),
    _row("Theorem 3.8", "every BS_2-point is a critical point", "false",
         (ER + "test_theorem_3_8_a_fails_for_l1_and_l0", ER + "test_theorem_3_8_a_fails_for_capped_l1"),
         part="(a)", notebook="05",
         correct="true for h = 0 and X >= 0; false for l1, l0 and capped-l1 (with tau >= 1 capped-l1 is l1 on St(n, r))",
         witness=WITNESS_38A,
         fails="the proof's eq. (necessary) gives each block its own subgradient, then uses one G for all blocks "
               "(at a zero entry shared by two pairs they need different values)",
         errata=(_erratum("Theorem 3.8(a)", "05", "wrong", "every BS2-point is a critical point",
                          "true for h = 0 and X >= 0; false for l1, l0 and capped-l1: the proof's eq. (necessary) "
                          "gives each block its own subgradient and then uses one G for all blocks (at a zero entry "
                          "shared by two pairs they need different values)",
                          "F = ||X - T||^2 + 1.35 ||X||_1 on St(3, 2), T = [[1.5, -1.25], [1.5, 1.35], [0.8, 0.25]], X = "
                          "OBCD's limit: every block gap < 1e-12 (brute force over O(2)), dist(0, d_M F(X)) = 0.82",
                          "test_theorem_3_8_a_fails_for_l1_and_l0"),
                 _erratum("Theorem 3.8(a), capped-l1", "05", "wrong",
                          "every BS2-point is a critical point (capped-l1 is one of the paper's penalties)",
                          "false for capped-l1 as well: with tau >= 1 capped-l1 equals l1 on St(n, r) (|X_ij| <= 1), "
                          "so the l1 witness serves; for tau < 1 a witness of its own, the same mechanism at a shared "
                          "zero entry",
                          "F = ||X - T||^2 + 1.81 sum min(|X_ij|, 0.3) on St(3, 2), T = [[-0.05, 0.24], [-0.73, 0.89], "
                          "[1.05, 0.93]], X = OBCD's limit: every block gap < 1e-12 (brute force over O(2)), "
                          "dist(0, d_M F(X)) = 1.49",
                          "test_theorem_3_8_a_fails_for_capped_l1"),)),
    _row("Theorem 3.8", "every global minimizer is a BS_k-point", "holds",
         ("tests/optimality/test_block_stationarity.py::test_global_minimizer_is_bs2_and_bs3",
          ER + "test_theorem_3_8_b_step_5_is_an_inequality"), part="(b)", notebook="05",
         errata=(_erratum("Theorem 3.8(b), proof, step 5", "01", "slip", "K(V; X, B) = F(X + U_B (V - I) U_B^T X)",
                          "only >=: K majorizes F along the block (eq. (11)); the chain K(I) <= K(V) still follows",
                          "random sparse PCA instance, alpha = 0.5: K(V) - F(X_B(V)) > 0 for V != I",
                          "test_theorem_3_8_b_step_5_is_an_inequality"),)),
    _row("Theorem 3.8", "every BS_{k+1}-point is a BS_k-point", "corrected",
         ("tests/optimality/test_bs3_exact.py::test_theorem_3_8_c_holds_with_exact_Q_for_k3",
          ER + "test_theorem_3_8_c_holds_with_block_independent_varsigma",
          ER + "test_theorem_3_8_c_fails_only_with_block_dependent_varsigma", ER + "test_theorem_3_8_c_needs_the_exact_Q",
          "tests/optimality/test_bs3_exact.py::test_lemma_c2b_varsigma_meets_the_hypothesis_under_which_no_witness_exists"),
         part="(c)", notebook="05",
         correct="holds with the exact Q of eq. (9) and with a block-independent varsigma in eq. (10) (e.g. "
                 "varsigma = L_f: for B in B' the two majorizers agree on diag(V, 1)); fails with Lemma C.2(a)'s "
                 "block-dependent varsigma = ||Z Z^T|| ||C_BB||. Lemma C.2(b)'s varsigma = L ||Z||^2, block-dependent "
                 "too, has no witness at eigenvectors (every one is BS_k for all k: 0 of 800)",
         witness="h = 0, r = 1: an eigenvector of a random symmetric 4 x 4 C that is BS_3 but not BS_2 with Lemma "
                 "C.2(a)'s varsigma = ||Z Z^T|| ||C_BB|| (block report on every block, with and without the scalar Q)",
         fails="the proof embeds a k-block V into a (k+1)-block as diag(V, 1) and assumes the two majorizers agree; "
               "with varsigma depending on the block their quadratic terms differ",
         errata=(_erratum("Theorem 3.8(c)", "05", "wrong", "every BS_{k+1}-point is a BS_k-point",
                          "with the exact Q of eq. (9), or a block-independent varsigma in eq. (10); with a block-dependent "
                          "varsigma (Lemma C.2's) a BS3-point need not be BS2",
                          "h = 0, r = 1: eigenvectors of random symmetric 4 x 4 C, classified with Lemma C.2's varsigma "
                          "(BS3, not BS2) and with varsigma = L_f (BS_{k+1} => BS_k); exact Q for k = 3: certified "
                          "O(3) search",
                          "test_theorem_3_8_c_fails_only_with_block_dependent_varsigma"),)),
    _row("Theorem 3.8", "none of the inclusions (a)-(c) reverses in general", "holds",
         ("tests/optimality/test_block_stationarity.py::test_a_critical_point_that_is_not_bs2",
          _T + "test_hierarchy.py::test_witness_descends_with_two_pairs_and_three_rows",
          PC + "test_theorem_4_6_fails_for_l1"), part="(d)", notebook="05"),
    _row("Remark 3.9", "BS_2-points are a stronger condition than critical points", "false",
         ER + "test_theorem_3_8_a_fails_for_l1_and_l0", part="(i)", notebook="05",
         correct="stronger for h = 0 and X >= 0 only: for l1, l0 (and capped-l1) a BS_2-point need not be critical",
         witness=WITNESS_38A, fails="it rests on Theorem 3.8(a)"),
    _row("Remark 3.9", "testing BS_k needs all C(n, k) subproblems; sampled blocks test it in expectation", "holds",
         "tests/optimality/test_block_stationarity.py::test_remark_3_9_ii_sampling_decides_only_in_expectation",
         part="(ii)", notebook="05"),
    # --- Section 4: convergence -------------------------------------------------------------------------------
    _row("Definition 4.1", "eps-BS_k-point: mean over blocks of dist(I, argmin K)^2 <= eps", "definition",
         "tests/optimality/test_block_stationarity.py::test_eps_measure_is_zero_exactly_at_bs_points", notebook="05"),
    _row("Theorem 4.2", "(a) alpha/2 ||X^{t+1} - X^t||^2 <= alpha/2 ||V - I||^2 <= F(X^t) - F(X^{t+1}); (b) an "
         "eps-BS_k-point (in expectation) within T >= c~/eps iterations", "holds",
         ("tests/solvers/test_obcd.py::test_sufficient_decrease_every_step",
          _T + "test_hierarchy.py::test_theorem_42_along_a_run"), notebook="05"),
    _row("Remark 4.3", "OBCD's iteration complexity is O(1/eps)", "holds",
         _T + "test_hierarchy.py::test_theorem_42_along_a_run", notebook="05"),
    _row("Lemma 4.4", "E dist^2(0, d_M K(I; X^{t+1}, B^{t+1})) <= phi E||V^t - I||^2, phi = 72 (C_F^2 + alpha^2 + L_f^2)",
         "false", (PC + "test_lemma_4_4_a_fails_for_l1", PC + "test_lemma_4_4_a_fails_for_every_constant",
                   PC + "test_lemma_4_4_a_reading_as_lam_grows", PC + "test_lemma_4_4_a_along_runs"), part="(a)",
         correct="holds along OBCD runs for h = 0 (exact expectations: the ratio stays below 0.01); false for l1, "
                 "which satisfies its assumption (Remark 4.5)",
         witness="one OBCD step from the Theorem 3.8(a) witness X_w with lam = 1.34 (alpha = 1e-5): every block "
                 "minimizer is within 4e-4 of I (breakpoint solver and brute force over O(2) agree), so "
                 "phi E||V - I||^2 = 8.1e-4; but the block (0, 2) step moves the zero X[2, 1] off zero, the "
                 "subgradient there is then fixed, and pair (1, 2) has residual 1.70 (closed form, unique "
                 "subgradient; the suite's pair ranges agree): E dist^2 = 0.32. No phi saves it: at lam = 1.35 with "
                 "the target moved just past where block (0, 2) starts to move (T + s D, s = s* + delta), "
                 "E||V - I||^2 -> 0 like delta^2 (7e-9 at delta = 1e-4) while E dist^2 stays 0.32. (Between "
                 "lam = 1.340952 and 1.35 block (0, 2) does not move and the left side is ~1e-7: there the lemma "
                 "holds; a solver step at rounding level, 1e-27, would fake the 0.32, hence a step tolerance)",
         fails="step 2 of its proof replaces B^{t+1} by B^t although X^{t+1} depends on B^t: the bound controls "
               "the block just updated, not the blocks whose subgradient jumps when an entry leaves zero"),
    _row("Lemma 4.4", "E dist^2(0, d_M F(X^t)) <= gamma E dist^2(0, d_M K(I; X^t, B^t)), gamma = C(n,k)/C(n-2,k-2)",
         "false", (ER + "test_lemma_4_4_b_fails_at_the_witness",
                   "tests/optimality/test_hierarchy.py::test_gamma_counts_the_blocks_through_a_pair"),
         part="(b)", notebook="05",
         correct="holds for h = 0 (an inequality, equal when r = n: each pair lies in C(n-2, k-2) of the C(n, k) "
                 "blocks); false for l1",
         witness="the Theorem 3.8(a) witness: left side 0.67, right side 0 (every block residual is 0 with its own "
                 "subgradient)",
         fails="step 1 of eq. (part:F:gamma:K) takes one D^t = dF(X) X^T - X dF(X)^T for all blocks, but each block "
               "residual may use its own subgradient",
         errata=(_erratum("Lemma 4.4(b)", "05", "wrong",
                          "dist(0, d_M F(X))^2 <= gamma * mean over blocks of the block residuals",
                          "fails at the Theorem 3.8(a) witness (left 0.67, right 0); gamma = C(n,k)/C(n-2,k-2) itself is the "
                          "right count", "the Theorem 3.8(a) witness", "test_lemma_4_4_b_fails_at_the_witness"),)),
    _row("Remark 4.5", "h = ||X||_1 satisfies Lemma 4.4's assumption (bounded subgradients on St(n, r))", "holds",
         PC + "test_remark_4_5_l1_subgradients_are_bounded"),
    _row("Theorem 4.6", "OBCD finds an eps-critical point in expectation within T >= gamma phi c~ / eps iterations",
         "false", PC + "test_theorem_4_6_fails_for_l1",
         correct="for h = 0 its inputs hold (Lemma 4.4(b) holds, with equality when r = n; 4.4(a) holds along runs); "
                 "false for h = l1, "
                 "which Remark 4.5 admits",
         witness="OBCD started at the Theorem 3.8(a) witness never moves (every block minimized by I: brute force over "
                 "O(2), and 300 random OBCD steps), so dist^2(0, d_M F(X^t)) = 0.67 for all t while c~ is finite "
                 "(F(X_w) = 6.618 > certified lower bound 6.4695): eps = 0.34 is never reached, for any T",
         fails="step 1 of its proof is Lemma 4.4(b), false for l1"),
    _row("Assumption 4.7", "F + iota_M is a Kurdyka-Lojasiewicz function", "not checkable",
         reason="an assumption on the problem class; the KL property is a theorem about semialgebraic functions "
                "(Attouch et al. 2010, Bolte et al. 2014), not a finite computation"),
    _row("Remark 4.8", "semialgebraic functions (polynomials, ||x||_p, rank, indicators of St(n, r) and the PSD cone) "
         "are KL", "not checkable",
         reason="a literature result (Attouch et al. 2010); note ||x||_p is semialgebraic for rational p only "
                "(for irrational p it is still definable, hence KL)"),
    _row("Proposition 4.9", "KL property: near X^inf, dist(0, dF(X)) phi'(F(X) - F(X^inf)) >= 1 with phi(t) = c t^(1-sigma)",
         "false", PC + "test_proposition_4_9_power_form_holds_only_for_semialgebraic",
         correct="holds for semialgebraic F (the Lojasiewicz case: the suite's quadratic f with h = 0, l1, l0, "
                 "capped-l1, X >= 0 on St(n, r)); a general KL function needs a general concave phi",
         witness="f = exp(-1/(1 - x_1)) on the unit circle: smooth and KL (phi(s) = arccos(1 - 1/ln(1/s)), concave), "
                 "but the smallest c at angle theta, f^sigma / ((1 - sigma) |f'|), grows without bound as theta -> 0 "
                 "for every sigma < 1 (sigma = 0.99: c > 1e82 at theta = 0.01); for (1 - x_1)^m, sigma = 1 - 1/(2m) "
                 "works with a bounded c",
         fails="the statement assumes the KL property (Assumption 4.7) gives phi in power form; that is the "
               "Lojasiewicz inequality, a theorem for semialgebraic (or subanalytic) functions only"),
    _row("Theorem 4.10", "finite length: (E_{t+1})^2 <= kappa E_t (phi_t - phi_{t+1}) and sum_j E_{j+1} <= E_t + 2 kappa phi_t",
         "corrected", (PC + "test_theorem_4_10_along_runs", PC + "test_theorem_4_10_a_needs_F_of_the_limit"),
         correct="with E_{t+1} = (E||V^t - I||_F^2)^(1/2), as the proofs of Theorems 4.10 and 4.11 use it (the "
                 "statement's E_{t+1} = (E||V^t - I||_F)^(1/2) makes (a) fail as t grows), and with "
                 "phi_t = phi(F(X^t) - F(X^inf)) in place of phi(F(X^t) - F_inf): the KL inequality is taken at the "
                 "limit, and when OBCD converges to a point that is not a global minimizer the statement's form fails",
         witness="OBCD on sparse PCA (n = 4, r = 2, h = 0, alpha = 0.1), exact expectations over the blocks: with the "
                 "proof's E_{t+1} the ratio of (a) stays below 0.01; with the statement's it grows like "
                 "(E||V^t - I||)^(-1/2) and passes 1 (for any fixed c the left side is first order, the right side "
                 "order 3/2). Second correction: f = 1/2 tr(X^T C X) + <L, X> on St(3, 2) (h = 0, four random instances), "
                 "OBCD from random starts converging to a local minimizer above the certified min F: with F(X^inf) "
                 "the ratio of (a) stays below 0.003; with F_inf it grows by more than 1000x to above 1 (for any c)",
         fails="the definition of E_{t+1} in the statement (the proof's step 1 writes (E_{t+1})^2 = E||V^t - I||_F^2); "
               "and phi_t uses F_inf while Proposition 4.9 bounds dist(0, dF) phi'(F(X) - F(X^inf))",
         note="checked for h = 0; for l1 its proof's inputs, Lemma 4.4(a) and (b), are false, so the theorem is "
              "unproven there (no counterexample found)"),
    _row("Theorem 4.11", "(a) sigma = 0: finite termination in expectation; (b) sigma in (0, 1/2]: E||X^t - X^inf|| <= "
         "c tau^t (linear rate); (c) sigma in (1/2, 1): E||X^t - X^inf|| <= c / t^((1-sigma)/(2 sigma - 1))", "holds",
         (PC + "test_theorem_4_11_a_finite_termination", PC + "test_theorem_4_11_b_linear_rate",
          PC + "test_theorem_4_11_c_sublinear_rate", PC + "test_lemma_a10"),
         note="(a): F = <c, x> + lam ||x||_1 on the unit sphere with lam > max |c_i| has KL exponent 0 by hand (each "
              "vertex s e_i of the l1 ball is a sharp local minimizer); 150 OBCD runs from random starts (n = 5) stop "
              "exactly, at a vertex, within 100 steps (at most 79 in notebook 06's 100 runs), and never move again; its proof uses "
              "Lemma 4.4, false for l1: checked, not proven. (b): measured rate 0.94 per step against the theorem's "
              "tau = 0.999997 (the bound holds, loosely), four instances, a straight line on a log axis; checked for "
              "h = 0. (c): f = A (x_1^2 - x_2^2) - 4 A x_1 on the circle has quartic growth at e_1 (sigma = 3/4, "
              "measured along the run); OBCD's error decays like t^(-1/2), the theorem's rate, on three instances; "
              "its proof is Lemma A.10 with tau = (2 sigma - 1)/(1 - sigma), checked on extremal sequences"),
    _row("Remark 4.12", "OBCD converges finitely, linearly or sublinearly as sigma = 0, <= 1/2 or > 1/2", "holds",
         (PC + "test_theorem_4_11_a_finite_termination", PC + "test_theorem_4_11_b_linear_rate",
          PC + "test_theorem_4_11_c_sublinear_rate")),
    # --- Appendix A: lemmas ---------------------------------------------------------------------------------
    _row("Lemma A.1", "if U_B^T W U_B = 0 for every block of size k >= 2 then W = 0", "holds", PC + "test_lemma_a1"),
    _row("Lemma A.2", "||A - A^T|| <= 2||A - C|| + ||C - C^T||", "holds", PC + "test_lemma_a2"),
    _row("Lemma A.3", "the Cayley factor (I + tau/2 A)^-1 (I - tau/2 A) of a 2 x 2 skew A has det 1", "holds",
         "tests/solvers/test_cayley.py::test_lemma_a3_cayley_det_symbolically", notebook="01"),
    _row("Lemma A.4", "sum_B ||W_BB||^2 = C(n-2, k-2) sum_{i != j} W_ij^2 + (k/n) C(n, k) sum_i W_ii^2", "holds",
         (PC + "test_lemma_a4", "tests/optimality/test_hierarchy.py::test_gamma_counts_the_blocks_through_a_pair")),
    _row("Lemma A.5", "an orthogonal lower triangular factor R of an orthogonal X = Q R is diagonal with +-1", "holds",
         ER + "test_lemma_a5_is_true_as_stated", notebook="03",
         errata=(_erratum("Lemma A.5", "03", "slip", "proof: R R^T = (Q X)(Q X)^T",
                          "the lemma is true as stated (an orthogonal lower triangular R is diagonal with +-1); the proof's "
                          "first step should read (Q^T X)(Q^T X)^T, since R = Q^T X",
                          "random orthogonal lower triangular R: diagonal +-1", "test_lemma_a5_is_true_as_stated"),)),
    _row("Lemma A.6", "G - 1/2 X (X^T G + G^T X) is the projection of G onto the tangent space", "holds",
         PC + "test_lemma_a6_and_a7"),
    _row("Lemma A.7", "dist(0, d(F + iota_M)(X)) <= dist(0, d_M F(X))", "holds", PC + "test_lemma_a6_and_a7"),
    _row("Lemma A.8", "for cos theta != 0, (cos, sin) = +-(1, tan theta) / sqrt(1 + tan^2 theta)", "holds",
         PC + "test_lemma_a8", notebook="02"),
    _row("Lemma A.9", "(E_{t+1})^2 <= E_t (p_t - p_{t+1}), p nonincreasing >= 0  =>  sum_{t >= i} E_{t+1} <= E_i + 2 p_i",
         "holds", PC + "test_lemma_a9"),
    _row("Lemma A.10", "D_t^(tau+1) <= a (D_{t-1} - D_t)  =>  D_T = O(T^(-1/tau))", "holds", PC + "test_lemma_a10",
         note="the proof calls h(s) = s^(-tau-1) increasing (it decreases); its step 3 still holds since h(D_{t-1}) "
              "is h's minimum on [D_t, D_{t-1}]"),
    # --- Appendices B and C ---------------------------------------------------------------------------------
    _row("Lemma B.1", "the k = 2 subproblem's minimizer is among (c1, s1), (c2, s2) from min p and min p~ in "
         "t = tan theta, and (0, +-1)", "holds",
         (_T + "test_symbolic.py::test_tan_substitution_gives_p_and_p_tilde",
          _T + "test_symbolic.py::test_the_line_never_reaches_cos0_but_its_limits_equal_those_candidates"),
         notebook="02"),
    _row("Lemma C.1", "H = H1 (x) H2 gives Q = (Z H1 Z^T) (x) (U_B^T H2 U_B); H = L I gives L (Z Z^T) (x) I", "holds",
         PC + "test_lemma_c1_and_c2"),
    _row("Lemma C.2", "Q = ||Q1|| ||Q2|| I (resp. L ||Z||^2 I) bounds Lemma C.1's Q: a valid scalar Q for eq. (10)",
         "holds", PC + "test_lemma_c1_and_c2"),
)

def paper_statements(tex: str) -> dict:
    """'Kind S.N' -> the 300 characters after its \\begin{kind}, in the paper's order: one counter per
    section shared by all theorem-like environments (\\newtheorem{x}[theorem]), letters after \\appendix;
    commented lines skipped.

    Parameters
    ----------
    tex : str
        The paper's LaTeX source.

    Returns
    -------
    dict
        {label: the text after its ``\\begin``}.
    """
    text = "\n".join(line for line in tex.splitlines() if not line.lstrip().startswith("%"))
    found, section, count, appendix = {}, 0, 0, False
    for m in re.finditer(r"\\appendix|\\section\{|\\begin\{(\w+)\}", text):
        if m.group(0) == "\\appendix":
            if not appendix:
                appendix, section = True, 0
        elif m.group(0) == "\\section{":
            section, count = section + 1, 0
        elif m.group(1) in KIND_NAMES:
            count += 1
            number = chr(64 + section) if appendix else str(section)
            found[f"{KIND_NAMES[m.group(1)]} {number}.{count}"] = text[m.end():m.end() + 300]
    return found


def labels() -> list[str]:
    """The ledger's statement labels, once each, in its order.

    Returns
    -------
    list of str
        The labels.
    """
    return list(dict.fromkeys(row["label"] for row in LEDGER))


def section_of(label: str) -> str:
    """'Theorem 4.6' -> '4', 'Lemma A.5' -> 'A'.

    Parameters
    ----------
    label : str
        A statement's label.

    Returns
    -------
    str
        Its section.
    """
    return label.split()[1].split(".")[0]


def ledger_rows(section: str | None = None, verdict: str | None = None) -> list[dict]:
    """The rows of LEDGER in section ``section`` ("2", "3", "4", "A", "B", "C") with verdict ``verdict``.

    Parameters
    ----------
    section : str or None
        The section; None: all.
    verdict : str or None
        One of VERDICTS; None: all.

    Returns
    -------
    list of dict
        The rows, in the ledger's order.

    Raises
    ------
    ValueError
        If ``section`` or ``verdict`` is not one the ledger has.
    """
    sections = sorted({section_of(r["label"]) for r in LEDGER})
    if section is not None and section not in sections:
        raise ValueError(f"section must be one of {sections}, got {section!r}")
    if verdict is not None and verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")
    return [r for r in LEDGER if (section is None or section_of(r["label"]) == section)
            and (verdict is None or r["verdict"] == verdict)]


def ledger_table(rows: list[dict] | None = None) -> str:
    """Rows as text: label(part) | verdict | statement, then the deciding test(s) or the reason.

    Parameters
    ----------
    rows : list of dict or None
        The rows to show; None: the whole ledger.

    Returns
    -------
    str
        The table, one row a line.
    """
    rows = LEDGER if rows is None else rows
    lines = []
    for r in rows:
        name = f"{r['label']}{r['part']}"
        lines.append(f"{name:<18} {r['verdict']:<14} {r['statement']}")
        for test in r["check"]:
            lines.append(f"{'':<33}check: {test}")
        if r["reason"]:
            lines.append(f"{'':<33}reason: {r['reason']}")
    return "\n".join(lines)


def coverage() -> dict:
    """Statements with a verdict, checked by a test (every checkable part has a test), and the total;
    also the verdict count over rows and the labels with a false or corrected part.

    Returns
    -------
    dict
        The counts, and the labels with a false or corrected part.
    """
    by_label = {}
    for r in LEDGER:
        by_label.setdefault(r["label"], []).append(r)
    checked = [lab for lab, rows in by_label.items()
               if any(r["check"] for r in rows) and all(r["check"] or r["verdict"] == "not checkable" for r in rows)]
    return {"total": len(by_label), "verdict": sum(all(r["verdict"] in VERDICTS for r in rows) for rows in by_label.values()),
            "checked": len(checked), "rows": len(LEDGER),
            "by_verdict": {v: sum(r["verdict"] == v for r in LEDGER) for v in VERDICTS},
            "false": [f"{r['label']}{r['part']}" for r in LEDGER if r["verdict"] == "false"],
            "corrected": [f"{r['label']}{r['part']}" for r in LEDGER if r["verdict"] == "corrected"],
            "not_checkable": [f"{r['label']}{r['part']}" for r in LEDGER if r["verdict"] == "not checkable"]}


def witness_report(label_part: str) -> str:
    """The write-up of a false or corrected row ('Theorem 4.6', 'Theorem 3.8(a)'): claim, what holds,
    the witness with its certificate, the proof step that fails, and the deciding tests.

    Parameters
    ----------
    label_part : str
        The row's label with its part.

    Returns
    -------
    str
        The write-up.

    Raises
    ------
    ValueError
        If ``label_part`` names no false or corrected row.
    """
    rows = [r for r in LEDGER if f"{r['label']}{r['part']}" == label_part]
    if not rows or rows[0]["verdict"] not in ("false", "corrected"):
        bad = [f"{r['label']}{r['part']}" for r in LEDGER if r["verdict"] in ("false", "corrected")]
        raise ValueError(f"label must name a false or corrected row, one of {bad}; got {label_part!r}")
    r = rows[0]
    return (f"{label_part} ({r['verdict']}): {r['statement']}\n  what holds: {r['correct']}\n"
            f"  witness:    {r['witness']}\n  proof step: {r['fails']}\n  decided by: " + "\n              ".join(r["check"]))


__all__ = ["VERDICTS", "LEDGER", "paper_statements", "labels", "section_of", "ledger_rows",
           "ledger_table", "coverage", "witness_report"]
