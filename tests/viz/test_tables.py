"""The rendered tables (obcd_lite.viz.tables): typeset math, every row, escaped text, a stable repr."""
import pytest

from obcd_lite.teaching.errata import errata_rows
from obcd_lite.teaching.ledger import LEDGER
from obcd_lite.viz.tables import TABLE_CSS, errata_html, html_stack, html_table, ledger_html, math_sentence, math_text


@pytest.mark.parametrize("ascii_, typeset", [
    ("||V - B||^2 + 5||V||_1", "‖V − B‖² + 5‖V‖<sub>1</sub>"),
    ("alpha >= sqrt 5 - 1", "α ≥ √5 − 1"),
    ("t = -x_i / y_i", "t = −x<sub>i</sub> / y<sub>i</sub>"),
    ("[grad f(X) X^T]_BB", "[grad f(X) Xᵀ]<sub>BB</sub>"),
    ("Qt = varsigma I", "Q̃ = ς I"),
    ("bs2_points_2x2(T, mu, alpha)", "bs2_points_2x2(T, μ, α)"),  # identifiers keep their underscores
    ("a < b & alphabet", "a &lt; b &amp; alphabet"),  # escaped; a word containing a Greek name stays
])
def test_math_text(ascii_, typeset):
    assert math_text(ascii_) == typeset


def test_errata_and_ledger_tables_hold_every_row_as_html():
    for notebook in ("01", "02", "03"):
        table = errata_html(notebook)
        rows = errata_rows(notebook)
        assert table.html.count("<tr>") == len(rows) + (1 if len(rows) <= 8 else len({r["kind"] for r in rows}))
        assert repr(table).startswith(f"<table: {len(rows)} row")
        assert all(f"<code>{r['test']}</code>" in table.html for r in rows)
        assert ("<th>kind</th>" in table.html) == (len(rows) <= 8)  # grouped by kind: each block names it
    ledger = ledger_html()
    assert ledger.html.count("<tr>") == len(LEDGER) + 1 and "obcd-scroll" in ledger.html
    assert "||" not in ledger.html and ">=" not in ledger.html


def test_unknown_columns_are_named():
    with pytest.raises(ValueError, match=r"\['nope'\]"):
        html_table([{"a": 1}], {"nope": "N"})


def test_math_sentence_is_one_typeset_line():
    assert math_sentence("  ||X - T||_F < 1e-12 ") == "<p>‖X − T‖<sub>F</sub> &lt; 1e-12</p>"
    with pytest.raises(ValueError, match="got 2 lines"):
        math_sentence("a\nb")


def test_html_stack_keeps_the_order_and_the_style_once():
    first, second = html_table([{"x": "1"}], {"x": "x"}), html_table([{"y": "2"}], {"y": "y"})
    stacked = html_stack([first, math_sentence("mu"), second], "<two tables>")
    assert stacked.html.count(TABLE_CSS) == 1 and stacked.html.count("<table") == 2
    assert stacked.html.index("<th>x</th>") < stacked.html.index("<p>μ</p>") < stacked.html.index("<th>y</th>")
    assert repr(stacked) == "<two tables>"
