"""The exercise checks of notebooks 01-03: the instructor's answers pass, wrong answers and the
student edition's ``...`` fail with the hint."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from obcd_lite.teaching import exercises as E
from obcd_lite.teaching import symbolic as S
from obcd_lite.teaching.instances import random_instance
from obcd_lite.teaching.completeness import random_orthogonal

B = np.array([[1.0, 0.0], [1.0, 2.0]])
o1, x1, y1 = sp.symbols("o_1 x_1 y_1", real=True)
QPZ = dict(zip(("Qt", "P", "Z"), random_instance(0)))
D6 = random_orthogonal(6, -1, 2024)

# (test, right answers, a wrong answer set, data)
CASES = [
    (E.eight_is_impossible, (True,), (False,), {"T": B}),
    (E.lost_root, (0, "cos0"), (0, "break"), {}),
    (E.capped_shift, (S.lam * o1 * x1, S.lam * o1 * y1), (S.lam * x1, S.lam * o1 * y1), {"o1": o1, "x1": x1, "y1": y1}),
    (E.root_sigmas, ([-1, -1],), ([1, -1],), QPZ),
    (E.nonneg_infeasible, (np.array([[1.0, -1.0], [0.0, 0.0]]), False, np.inf), (np.eye(2), False, np.inf), {}),
    (E.factor_counts, (36, 1, 0), (36, 0, 0), {}),
    (E.reflection_step, (15, (4, 5)), (14, (4, 5)), {"D": D6}),
    (E.cyclic_shift, (1, np.pi / 2), (1, 0.0), {}),
    (E.rotations_reach, (True, 4.0), (False, 4.0), {}),
]


@pytest.mark.parametrize("test, right, wrong, data", CASES, ids=[c[0].__name__ for c in CASES])
def test_right_answers_pass_and_others_fail_with_the_hint(test, right, wrong, data, capsys):
    E.check(test, *right, hint="HINT", **data)
    assert capsys.readouterr().out.rstrip().endswith("correct")
    with pytest.raises(E.NotSolvedYet, match="not yet. Hint: HINT"):
        E.check(test, *wrong, hint="HINT", **data)
    with pytest.raises(E.NotSolvedYet, match=r"replace each \.\.\. with your answer. Hint: HINT"):
        E.check(test, *([...] + list(right[1:])), hint="HINT", **data)


def test_notebook_01_checks_take_positional_data_too():
    E.check(E.check_critical_count, B, 2.0, 12, hint="x")
    with pytest.raises(E.NotSolvedYet):
        E.check(E.check_critical_count, B, 5.0, 12, hint="x")


def test_not_solved_yet_renders_without_a_traceback():
    err = E.NotSolvedYet("not yet. Hint: h")
    assert isinstance(err, AssertionError) and err._render_traceback_() == ["NotSolvedYet: not yet. Hint: h"]
