"""The rendered tables (obcd_lite.viz.tables): typeset math, every row, escaped text, a stable repr."""
import pytest

from obcd_lite.teaching.errata import errata_rows
from obcd_lite.teaching.ledger import LEDGER
from obcd_lite.viz.tables import errata_html, html_table, ledger_html, math_text


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
