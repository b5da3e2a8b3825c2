"""Giveaways of notebook 03's graded questions (tests/grading/test_no_answer_before_exercise.py)."""
REVEALS = {
    # C(9, 2) = 36 factors; exactly one reflection when det D = -1, none when det D = +1
    "ex03_1": [r"exactly one reflection when \$\\det D=-1\$ and none otherwise",
               r"One reflection — the last factor — is needed exactly when \$\\det D=-1\$",
               r"\$\\binom92=36\$"],
    # the reflection of D_7 in the "distinct" order: the last step, 21, on rows (5, 6)
    "ex03_2": [r"step \$\\binom72=21\$, rows `\(5, 6\)`"],
    # the 4-cycle: one reflection (ref(0) on rows (2, 3)); the swap is ref(pi/2)
    "ex03_3": [r"6: rows \(2, 3\) ref\(theta = 0\.000\)",
               r"exactly one factor is a reflection \(the last one",
               r"it is \$\\mathrm\{ref\}\(\\pi/2\)\$"],
    # for r < n rotations connect any two points; for r = n the floor is 4
    "ex03_4": [r"rotations alone connect any two points of \$\\mathrm\{St\}\(n,r\)\$",
               r"for \$r<n\$ even rotations suffice",
               r"\$\\min\\\|X-T\\\|_F\^2=4\$",
               r"floor for det \+1: 4\.0000",
               r"rotations only stay >= 4: True",
               r"for \$r<n\$ the completion is free and rotations suffice",
               r"\$F\$ stays \$\\ge4\$",
               r"the floor is \$4\$"],
}
