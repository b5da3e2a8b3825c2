"""Giveaways of notebook 02's graded questions (tests/grading/test_no_answer_before_exercise.py)."""
REVEALS = {
    # c_4 = d^2 - a^2 vanishes at a = d; the lost root sits at a cos(theta) = 0 candidate
    "ex02_1": [r"Eq\(c_4, -a\*\*2 \+ d\*\*2\)",
               r"\$c_4=d\^2-a\^2=0\$",
               r"the \"lost\" root sits at \$t=\\pm\\infty\$, i\.e\. at a \$\\cos\\theta=0\$ candidate",
               r"\$c_4=d\^2-a\^2\$, \$c_3",
               r"\(kind `cos0`\)"],
    # the l1 / capped-l1 shift of (a, b) by lambda o_i (x_i, y_i)
    "ex02_2": [r"shifts \$\(a,b\)\\mapsto\(a\+\\lambda\\langle\\mathbf o,\\mathbf x\\rangle",
               r"shifts \$\(a,b\)\$ by \$\\lambda o_i\(x_i,y_i\)\$",
               r"the shift is \$\(\\lambda o_1x_1,\\ \\lambda o_1y_1\)\$"],
    # both real roots of the rotation branch are stationary for p~ (sigma = -1) only
    "ex02_3": [r"stationary for p: False   for p~: True",
               r"both real roots belong to \$\\tilde p\$",
               r"\$p\$ has no stationary point at all",
               r"Both roots are stationary for \$\\tilde p\$ \(\$\\sigma=-1\$\) only"],
    # no reflection is feasible either; solve_2x2_full returns +inf
    "ex02_4": [r"so no reflection works either",
               r"`solve_2x2_full` returns the value \$\+\\infty\$",
               r"Columns \$\(1,0\)\$ and \$\(-1,0\)\$ are \$180°\$ apart"],
}
