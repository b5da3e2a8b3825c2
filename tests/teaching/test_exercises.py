"""The self-checks (teaching/exercises.py): right answers pass, a placeholder asks for an answer without
a hint, a wrong answer gets "not yet" and the next hint, and nothing printed or raised shows a value."""
from __future__ import annotations

import inspect

import numpy as np
import pytest
import sympy as sp

from obcd_lite.teaching import exercises as E
from obcd_lite.teaching import symbolic as S

o1, x1, y1 = sp.symbols("o_1 x_1 y_1", real=True)


@pytest.fixture(autouse=True)
def fresh_attempts():
    E._attempts.clear()
    yield
    E._attempts.clear()


def test_canonical_forms_agree_across_types():
    assert E.canonical(True) == E.canonical(np.True_) == "True"
    assert E.canonical(36) == E.canonical(36.0) == E.canonical(np.int64(36)) == E.canonical(sp.Integer(36))
    assert E.canonical({"b", "a"}) == E.canonical(frozenset({"a", "b"}))
    assert E.canonical((15, (4, 5))) == E.canonical([15, [4, 5]])
    assert E.canonical(float("inf")) == E.canonical(np.inf) == "inf"
    assert E.canonical(0.006141921) == E.canonical(0.0061419) == "6.142e-03"
    assert E.canonical(S.lam - S.lam) == "0"
    with pytest.raises(TypeError, match="dict"):
        E.canonical({"a": 1})


def test_digests_are_salted_by_question_and_do_not_show_the_answer():
    assert E.answer_digest("01.3", True) != E.answer_digest("07.3", True)
    digest = E.answer_digest("03.1", 36)
    assert len(digest) == 16 and "36" not in digest


def test_right_answer_prints_correct_and_nothing_else(capsys):
    E.check("t.1", 36, {"obcd"}, expect=(E.answer_digest("t.1", 36), E.answer_digest("t.1", {"obcd"})), hint="h")
    assert capsys.readouterr().out == "correct\n"


def test_float_answers_match_at_four_digits_even_at_a_rounding_boundary():
    boundary = 0.12345  # a correctly computed value may land a hair either side of ...45
    digest = E.answer_digest("t.2", boundary)
    for value in (boundary * (1 + 1e-12), boundary * (1 - 1e-12), 0.123449999999):
        E.check("t.2", value, expect=(digest,), hint="h")
    with pytest.raises(E.NotSolvedYet):
        E.check("t.2", 0.1236, expect=(digest,), hint="h")


def test_placeholder_asks_for_an_answer_and_gives_no_hint():
    for answers in ((...,), ((..., ...),)):
        with pytest.raises(E.NotSolvedYet) as err:
            E.check("t.3", *answers, expect=(E.answer_digest("t.3", 1),), hint="SECRET HINT")
        assert "Hint" not in str(err.value) and "SECRET" not in str(err.value)


def test_wrong_attempts_get_the_hints_in_turn(capsys):
    digest = E.answer_digest("t.4", 36)
    messages = []
    for _ in range(3):
        with pytest.raises(E.NotSolvedYet) as err:
            E.check("t.4", 35, expect=(digest,), hint=("first", "second"))
        messages.append(str(err.value))
    assert messages == ["not yet. Hint: first", "not yet. Hint: second", "not yet. Hint: second"]
    assert capsys.readouterr().out == ""  # nothing printed: no value, set or verdict
    assert all("36" not in m and "35" not in m for m in messages)


def test_verifiers_accept_every_right_open_answer():
    verify = E.is_capped_shift(o1, x1, y1)
    assert verify((S.lam * o1 * x1, S.lam * o1 * y1))
    assert not verify((S.lam * x1, S.lam * o1 * y1))
    assert E.rotations_cannot_make_nonnegative([[1.0, -1.0], [0.0, 0.0]])
    assert E.rotations_cannot_make_nonnegative([[1.0, 0.0, -0.1], [0.0, 1.0, -0.1]])  # columns > 90° apart
    assert not E.rotations_cannot_make_nonnegative(np.eye(2))
    assert not E.rotations_cannot_make_nonnegative(np.eye(3))  # not 2 x r


def test_wrong_number_of_expected_entries_is_a_clear_error():
    with pytest.raises(ValueError, match="2 answers but 1 expected"):
        E.check("t.5", 1, 2, expect=("0" * 16,), hint="h")


def test_not_solved_yet_renders_without_a_traceback():
    err = E.NotSolvedYet("not yet. Hint: h")
    assert isinstance(err, AssertionError) and err._render_traceback_() == ["NotSolvedYet: not yet. Hint: h"]


def test_the_module_knows_no_answer():
    """No function of the installed module computes an exercise's answer: only check, the digest and
    the verifiers of open answers are left (the answer logic is in the hidden tests)."""
    public = {name for name, obj in vars(E).items()
              if inspect.isfunction(obj) and not name.startswith("_") and obj.__module__ == E.__name__}
    assert public == {"canonical", "answer_digest", "check", "is_capped_shift", "rotations_cannot_make_nonnegative",
                      # verifiers of open answers (a property of the student's answer; what they print is swallowed)
                      "density_gradient",
                      # their silent forms (the hidden tests'), and the form checks of graded questions
                      "reflection_is_nearest", "has_critical_count", "is_cayley_rotation", "form"}


def test_a_verifier_that_prints_shows_nothing(capsys):
    def chatty(mu):
        print(f"mu = {mu}: 16 critical points")
        return mu == 2.0

    with pytest.raises(E.NotSolvedYet):
        E.check("t.6", 5.0, expect=(chatty,), hint="h")
    E.check("t.6", 2.0, expect=(chatty,), hint="h")
    assert capsys.readouterr().out == "correct\n"
