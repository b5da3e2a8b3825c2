"""Giveaways of notebook 04's graded questions: text or outputs that state an answer (none may stand above
its exercise; tests/grading/test_no_answer_before_exercise.py)."""

REVEALS = {
    # the count behind a Table 1 entry (the solution, the written model answer and the Summary's rule)
    "ex04_1": [r"\\lceil 1749\.980/50\\rceil", r"=35\$ nonzeros", r"15 more than the optimum",
               r"\\lceil F/\\lambda\\rceil"],
    # ManPG's mu on the raw data: the factor of the 1/2 and the data's squared norm together
    "ex04_2": [r"μ = 10 000", r"2\\cdot50\\cdot100", r"\\mu/200=\\lambda"],
    # section 5's verdict on the scalar Q from the identity start (its text, its printed check, section 8,
    # the Summary and the solution)
    "ex04_3": [r"identity is a fixed point of OBCD with scalar Q", r"scalar Q never leaves I\(:, 1:r\)",
               r"does not leave the identity start", r"leaves the identity start untouched",
               r"\$V=I\$ wins every block", r"the start is a fixed point"],
}
