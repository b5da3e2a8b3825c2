"""Giveaways of notebook 08's questions (tests/grading/test_no_answer_before_exercise.py): text, code shown
as output and printed lines that state an answer; none may stand above its exercise in the student edition."""

REVEALS = {
    # grad g = diag(rho) X: the quartic's source that Section 3 displays, the solution
    "ex08_1": [
        r"coupling \* np\.sum\(X \* X, axis=1\)\[:, None\] \* X",
        r"\\nabla g\(X\)=\\operatorname\{diag\}\(\\rho\)X",
    ],
    # L = 3: the Hessian rho_i I + 2 x_i x_i^T in the displayed source, the solution
    "ex08_2": [
        r"2\.0 \* np\.sum\(X \* E, axis=1\)\[:, None\] \* X",
        r"with eigenvalues \$\\rho_i\$ and \$3\\rho_i\$",
        r"So \$L=3\$",
        r"\\\|A\\\|_2\+3",
    ],
    # BS2 => critical for X >= 0: Section 7's table and its check, the Summary, the solution
    "ex08_3": [
        r"factorization NonNeg\(\)\s+obcd\s+14\.\d+\s+True\s+True",
        r"For \$h=0\$ and for \$X\\ge0\$ OBCD's limits are critical and BS\$_2\$",
        r"BS\$_2\$ without criticality appears for\s+\$\\ell_1\$",
        r"`True`: Theorem 3\.8\(a\) holds for \$h=0\$ and for \$X\\ge0\$",
    ],
}
