"""Giveaways of notebook 07's questions (tests/grading/test_no_answer_before_exercise.py): text and printed
lines that state an answer; none may stand above its exercise in the student edition."""

REVEALS = {
    # the floor 2 s_min / p: Section 1's derivation, Section 2's printed values, the Summary
    "ex07_1": [
        r"flip the sign of the\s+\*\*smallest\*\* singular value",
        r"F_\{\\text\{floor\}\}-F\^\*=\\frac\{2\\,s_p\}\{p\}",
        r"\\sum_\{i<p\}s_i\+d\\,\\operatorname\{sign\}\\det\(UV\^\\top\)\\,s_p",
        r"F_floor - F\* = 0\.00614",
        r"2 s_min / p = 0\.00614",
        r"F_floor = -15\.3224",
        r"2 \* s\[-1\] / p",
        r"gap plateaus at \$2s_\{\\min\}/p\$",
    ],
    # only "obcd" can leave the start's component: Section 1 names the three that cannot, Section 3 prints it
    "ex07_2": [
        r"So RCD, `obcd_rot` and `obcd_step` \(whose\s+\$V=\\mathrm\{Cay\}\(\\cdot\)\$ is a rotation\) stay in",
        r"rotations-only methods stay >= the floor at every logged iterate: True",
        r"OBCD\s+final gap \S+, det X = \+1, below the floor: True",
        r"OBCD ends below the floor on the other component: True",
        r"Only `\"obcd\"`: RCD rotates",
        r"A method whose pair updates are rotations \(RCD, the rotations-only exact search, the one-step Cayley block\)",
    ],
    # the floor point is critical: Section 3's subsection calls it a local minimum on O(p)
    "ex07_3": [
        r"the floor point is a local minimum of \$F\$ on \$O\(p\)\$",
        r"so it is a local minimum of\s+\$F\$ on \$O\(p\)\$ and hence critical",
    ],
    # why k = p never stops there: only its model answer says it
    "ex07_3w": [
        r"solved globally by the SVD \(Lemma 2\.3\(b\)\), reflections",
    ],
}
