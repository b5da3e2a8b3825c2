"""The visible checks of graded questions: form only, no digest, no hint in the cell, a hint only after a
wrong attempt (obcd_lite.teaching.exercises.check with form(), obcd_lite.teaching.hints)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from obcd_lite.teaching import exercises as E
from obcd_lite.teaching.hints import hints

ROOT = Path(__file__).resolve().parents[2]
DIGEST = re.compile(r"[0-9a-f]{16}")


def _check_cells():
    for path in sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if "check" in cell.metadata.get("tags", []):
                yield path.stem, cell.source


def test_graded_check_cells_test_form_only_and_show_no_hint():
    cells = list(_check_cells())
    assert len(cells) >= 20
    for stem, source in cells:
        call = ast.parse(source).body[0].value
        assert [k.arg for k in call.keywords] == ["expect"], (stem, source)  # no hint= in the cell
        entries = call.keywords[0].value.elts
        assert entries and all(isinstance(e, ast.Call) and e.func.id == "form" for e in entries), (stem, source)
        assert not DIGEST.search(source), (stem, source)
        question = call.args[0].value
        assert hints(question), question  # every graded question has stored hints


def test_a_right_form_passes_without_saying_correct(capsys):
    E.check("01.1", np.diag([2.0, -3.0]), expect=(E.form("matrix", (2, 2)),))
    assert "form of your answer is right" in capsys.readouterr().out
    E.check("07.2", {"obcd"}, expect=(E.form("str_set"),))
    E.check("08.1", lambda X: X, expect=(E.form("function"),))  # a wrong gradient: its form is right


@pytest.mark.parametrize("answer, kind, shape", [
    (np.eye(3), "matrix", (2, 2)), ("2", "real", None), (True, "int", None), (1, "bool", None),
    ([1, "a"], "str_set", None), (object(), "real", None), ((1, 2, 3), "int_tuple", (2,)),
])
def test_a_wrong_form_fails_with_what_is_expected_and_the_first_hint(answer, kind, shape):
    E._attempts.clear()
    with pytest.raises(E.NotSolvedYet, match=r"not yet \(answer 1: expected .*\)\. Hint: ") as info:
        E.check("03.1", answer, expect=(E.form(kind, shape),))
    assert hints("03.1")[0] in str(info.value)


def test_an_object_that_equals_everything_is_no_number():
    class AlwaysEqual:
        def __eq__(self, other):
            return True

    with pytest.raises(E.NotSolvedYet, match="an object of type AlwaysEqual"):
        E.check("06.1", AlwaysEqual(), expect=(E.form("int"),))


def test_a_placeholder_asks_for_an_answer_without_a_hint():
    with pytest.raises(E.NotSolvedYet, match=r"^replace each \.\.\. with your answer") as info:
        E.check("03.1", ..., expect=(E.form("int"),))
    assert "Hint" not in str(info.value)


def test_bad_kinds_and_unknown_questions_are_named():
    with pytest.raises(ValueError, match="got 'number'"):
        E.form("number")
    with pytest.raises(KeyError, match="no hints stored for question '99.9'"):
        hints("99.9")
