"""Giveaways of notebook 06's graded questions: text or outputs that state an answer (none may stand above
its exercise; tests/grading/test_no_answer_before_exercise.py)."""

REVEALS = {
    # the list of false statements (the Summary, section 4's witness reports) and the solution's count
    "ex06_1": [r"Six: Remark 2\.6", r"\*\*False:\*\* Remark 2\.6\(ii\), Theorem 3\.8\(a\), Remark 3\.9\(i\), Lemma 4\.4\(b\)",
               r"Remark 2\.6\(ii\) \(false\)"],
    # Lemma A.4's coefficients (its row in the ledger, Lemma 4.4(b)'s witness report) and the solution
    "ex06_2": [r"C\(n-2, k-2\) sum_\{i ≠ j\} W<sub>ij</sub>² \+ \(k/n\) C\(n, k\)",
               r"each pair lies in C\(n-2, k-2\) of the C\(n, k\) blocks", r"\\binom31=3", r"\\binom42=6"],
    # the ratio for a tangent G (the solution)
    "ex06_3": [r"G-XG\^\\top X=2XW", r"the ratio is \$2\$"],
}
