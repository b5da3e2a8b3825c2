"""Giveaways of notebook 01's graded questions (tests/grading/test_no_answer_before_exercise.py)."""
REVEALS = {
    # F_1's target A = [[1, 0], [-1, -1]] has a reflection as its nearest orthogonal matrix
    "ex01_1": [r"the reflection branch is essential",
               r"grid min over rotations 3\.0000, over reflections 0\.5279",
               r"global minimum F = 0\.527864 on ref",
               r"\$F_1\$'s minimizer is a reflection",
               r"Any \$T\$ with \$\\det T<0\$ works"],
    # the Cayley matrix Q of a 2x2 skew A, as sympy prints it
    "ex01_2": [r"\(-a\*\*2\*tau\*\*2 \+ 4\)/\(a\*\*2\*tau\*\*2 \+ 4\)",
               r"-4\*a\*tau/\(a\*\*2\*tau\*\*2 \+ 4\)"],
    # 12 critical points for 1 < mu < 3; 8 never occurs
    "ex01_3": [r"counts seen for mu in \[0, 10\]: \[4, 9, 12, 14, 16\]",
               r"So at \$\\mu=2\$: \$8\+4=12\$",
               r"8 never occurs",
               r"So \$1<\\mu<3\$ gives \$8\+4=12\$"],
}
