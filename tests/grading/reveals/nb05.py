"""Giveaways of notebook 05's graded questions: text or outputs that state an answer (none may stand above
its exercise; tests/grading/test_no_answer_before_exercise.py)."""

REVEALS = {
    # why BS_2 implies critical without zeros: one subgradient for all blocks (section 2's failing step, the
    # Summary, the written model answer and the solution)
    "ex05_1": [r"each block may (?:choose|pick) its own subgradient", r"where \$\\partial h\$ is not a single point",
               r"With no zero entries", r"needs a zero entry"],
    # the threshold of F1, and section 5's printed counts that bracket it on the grid
    "ex05_2": [r"1\+\\sqrt5", r"3\.236",
               r"F1 = \|\|V - A\|\|\^2 \(4 critical points\): \[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4"],
    # gamma for n = 6, k = 3: section 6's printout and its closed form
    "ex05_3": [r"n =  6, k = 3: gamma = 5\.0000", r"=20/4=5", r"\\gamma=\\binom nk/\\binom\{n-2\}\{k-2\}=\\frac\{n\(n-1\)\}"],
}
