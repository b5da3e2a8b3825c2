"""Tables a student reads: the errata, the ledger and other lists as rendered HTML, not monospace dumps.

The rows live in :mod:`obcd_lite.teaching` as plain strings written in ASCII math ("||V - B||^2",
"alpha >= sqrt 5 - 1", "Z21 = 0"); :func:`math_text` typesets them with Unicode (‖V − B‖², α ≥ √5 − 1)
so they read as mathematics in JupyterLab, in a viewer without MathJax and on the site alike.
:class:`HtmlTable` wraps the result: displayed in a notebook it renders as a table whose width is
that of the output area (long cells wrap at spaces, never mid-word) and whose header stays in view
while a long table scrolls; its ``text/plain`` form is a short line, so strict nbval compares a
stable text. Long tables are filtered by the explorers of :mod:`obcd_lite.widgets` (section,
verdict) or grouped with ``group_by`` into collapsible blocks.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from ..teaching.errata import errata_rows
from ..teaching.ledger import LEDGER

#: ASCII words and operators -> Unicode, applied to whole words (in this order).
_WORDS = {"alpha": "α", "lambda": "λ", "lam": "λ", "mu": "μ", "sigma": "σ", "varsigma": "ς", "rho": "ρ",
          "theta": "θ", "tau": "τ", "pi": "π", "epsilon": "ε", "Qt": "Q̃", "p~": "p̃"}
_SYMBOLS = (("<=", "≤"), (">=", "≥"), ("!=", "≠"), ("+-", "±"), ("->", "→"), ("||", "‖"), (" - ", " − "),
            ("sqrt ", "√"), ("sqrt", "√"))
_SUPERSCRIPTS = str.maketrans("0123456789+-T", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ᵀ")
_SUBSCRIPTS = str.maketrans("0123456789+-", "₀₁₂₃₄₅₆₇₈₉₊₋")


def math_text(text: str) -> str:
    """``text`` HTML-escaped, its ASCII math typeset: Greek names, ≤ ≥ ≠ ±, ‖·‖, √, powers ``^2`` and
    ``^T`` as superscripts, subscripts ``_1`` and ``_(B,:)`` (``<sub>``), and a minus sign for a
    spaced hyphen. Words that merely contain a Greek name (``alphabet``) are left alone.

    Parameters
    ----------
    text : str
        ASCII text (anything else goes through ``str``).

    Returns
    -------
    str
        HTML.
    """
    s = str(text)
    for ascii_, uni in _SYMBOLS:
        s = s.replace(ascii_, uni)
    s = re.sub(r"\b(" + "|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True)) + r")(?![\w~])",
               lambda m: _WORDS[m[1]], s)
    s = re.sub(r"\^([0-9T]+|[+-][0-9]+)", lambda m: m[1].translate(_SUPERSCRIPTS), s)
    s = html.escape(s, quote=False)
    # subscripts after a norm bar, a bracket or a one-letter symbol only, so identifiers such as
    # bs2_points_2x2 stay as they are
    s = re.sub(r"(?<=[‖\]²)])_\(([^()]{1,16})\)", r"<sub>\1</sub>", s)
    s = re.sub(r"(?:(?<=[‖\]²)])|(?<=\b[A-Za-z]))_([0-9]{1,2}|[A-Za-z]{1,3})(?![A-Za-z0-9])", r"<sub>\1</sub>", s)
    s = re.sub(r"(?<=[\s(=])-(?=[\w(])", "−", s)  # a unary minus
    return s


#: The table's look: the width of its container, wrapping at spaces, a header that stays in view.
TABLE_CSS = ("<style>.obcd-table{border-collapse:collapse;width:100%;table-layout:auto;font-size:0.92em}"
             ".obcd-table th,.obcd-table td{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;"
             "vertical-align:top;overflow-wrap:normal;word-break:normal;hyphens:none}"
             ".obcd-table th{position:sticky;top:0;background:#f3f3f3}"
             ".obcd-table code{font-size:0.85em;white-space:normal;overflow-wrap:anywhere}"
             ".obcd-scroll{max-height:32em;overflow:auto}.obcd-table+.obcd-table{margin-top:0.8em}"
             # an explorer's text widget sets line-height to a control's height (28 px): rows of text, not controls
             ".widget-html-content .obcd-table,.jupyter-widget-html-content .obcd-table{line-height:1.4}</style>")


@dataclass(frozen=True)
class HtmlTable:
    """Rendered HTML for notebooks and the site; ``text/plain`` is a one-line description.

    Attributes
    ----------
    html : str
        The table's HTML (with :data:`TABLE_CSS`).
    description : str
        The one-line ``text/plain`` description.
    """

    html: str
    description: str

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.description


def html_table(rows: list[dict], columns: dict, *, caption: str = "", code_columns=(), group_by: str | None = None,
               scroll: bool = False) -> HtmlTable:
    """``rows`` as an HTML table.

    Parameters
    ----------
    rows : sequence of dict
        One dict per row.
    columns : dict
        Row key -> column header, in display order.
    caption : str
        Text above the table.
    code_columns : sequence of str
        Keys shown as code (test names, function calls), not typeset.
    group_by : str or None
        A key whose values split the rows into one collapsible block each (all open); its
        column is then left out (each block's title names the value).
    scroll : bool
        Put the table in a box of bounded height that scrolls, header in view.

    Returns
    -------
    HtmlTable
        The table.

    Raises
    ------
    ValueError
        If a key of ``columns`` is not a key of the rows.
    """
    unknown = [key for key in columns if rows and key not in rows[0]]
    if unknown:
        raise ValueError(f"columns {unknown} are not keys of the rows (keys: {sorted(rows[0])})")

    def cell(key, value) -> str:
        if isinstance(value, (list, tuple)):
            return "<br>".join(cell(key, v) for v in value)
        if value is None:
            return ""
        return f"<code>{html.escape(str(value))}</code>" if key in code_columns else math_text(value)

    def table(part: list[dict]) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in columns.values())
        body = "".join("<tr>" + "".join(f"<td>{cell(k, r.get(k))}</td>" for k in columns) + "</tr>" for r in part)
        inner = f'<table class="obcd-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
        return f'<div class="obcd-scroll">{inner}</div>' if scroll else inner

    if group_by is not None:
        columns = {key: header for key, header in columns.items() if key != group_by}
    if group_by is None:
        body = table(rows)
    else:
        groups: dict = {}
        for r in rows:
            groups.setdefault(r[group_by], []).append(r)
        body = "".join(f"<details open><summary><b>{math_text(g)}</b> ({len(part)})</summary>{table(part)}</details>"
                       for g, part in groups.items())
    head = f"<p><b>{math_text(caption)}</b></p>" if caption else ""
    noun = "row" if len(rows) == 1 else "rows"
    return HtmlTable(TABLE_CSS + head + body, f"<table: {len(rows)} {noun}{': ' + caption if caption else ''}>")


def math_sentence(text: str) -> str:
    """One line of ASCII math as a rendered sentence (a paragraph typeset by :func:`math_text`): an
    explorer's one-line status, never a monospace block.

    Parameters
    ----------
    text : str
        One line.

    Returns
    -------
    str
        HTML.

    Raises
    ------
    ValueError
        If ``text`` has more than one line (several lines are a table: :func:`html_table`).
    """
    lines = text.strip().count("\n") + 1
    if lines > 1:
        raise ValueError("text must be one line: several lines are a table (build one with "
                         f"obcd_lite.viz.tables.html_table), got {lines} lines: {text[:120]!r}")
    return f"<p>{math_text(text.strip())}</p>"


def html_stack(parts, description: str) -> HtmlTable:
    """Tables and sentences one under the other, shown as one piece (the tables' style once).

    Parameters
    ----------
    parts : sequence of HtmlTable or str
        Tables (:func:`html_table`) and HTML fragments (:func:`math_sentence`), in display order.
    description : str
        The one-line ``text/plain`` description.

    Returns
    -------
    HtmlTable
        The parts' HTML, joined.
    """
    body = "".join((part.html if isinstance(part, HtmlTable) else part).replace(TABLE_CSS, "") for part in parts)
    return HtmlTable(TABLE_CSS + body, description)


#: The columns of the errata tables (notebooks 01, 02, 03, 05 and the site).
ERRATA_COLUMNS = {"where": "where", "kind": "kind", "paper": "the paper says", "correct": "what holds",
                  "instance": "an instance", "test": "decided by"}


def errata_html(notebook: str | None = None) -> HtmlTable:
    """The errata shown in ``notebook`` (or all, with the notebook that shows each: the site's errata
    page) as a table, grouped by kind when there are many.

    Parameters
    ----------
    notebook : str or None, default None
        A notebook's number ("01"); None: every erratum.

    Returns
    -------
    HtmlTable
        The table.
    """
    rows = errata_rows(notebook)
    where = f"notebook {notebook}" if notebook else "the whole suite"
    columns = ERRATA_COLUMNS if notebook else {**ERRATA_COLUMNS, "notebook": "notebook"}
    return html_table(rows, columns, caption=f"Errata of the paper shown in {where}", code_columns=("test",),
                      group_by="kind" if len(rows) > 8 else None)


#: The columns of the ledger table (notebook 06 and the site).
LEDGER_COLUMNS = {"name": "statement", "verdict": "verdict", "statement": "what it says",
                  "check": "decided by", "reason": "why no machine check"}


def ledger_html(rows: list[dict] | None = None, caption: str = "") -> HtmlTable:
    """Ledger rows (default: all of :data:`~obcd_lite.teaching.ledger.LEDGER`) as a table: the
    statement with its part, the verdict, our one-line reading, and the tests (or the reason) that
    decide it.

    Parameters
    ----------
    rows : list of dict or None, default None
        Ledger rows (None: all).
    caption : str, default ""
        The table's caption.

    Returns
    -------
    HtmlTable
        The table (in a scrolling box above 12 rows).
    """
    rows = LEDGER if rows is None else rows
    shown = [{"name": f"{r['label']}{r['part']}", "verdict": r["verdict"], "statement": r["statement"],
              "check": list(r["check"]), "reason": r["reason"]} for r in rows]
    return html_table(shown, LEDGER_COLUMNS, caption=caption, code_columns=("check",), scroll=len(rows) > 12)


def frame_html(frame, number_format, caption: str = "") -> HtmlTable:
    """A pandas DataFrame as a table, every float through ``number_format`` (e.g. ``rounding.fmt``).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table's data.
    number_format : callable
        float -> str.
    caption : str, default ""
        The table's caption.

    Returns
    -------
    HtmlTable
        The table.
    """
    rows = [{c: number_format(v) if isinstance(v, float) else v for c, v in rec.items()}
            for rec in frame.to_dict("records")]
    return html_table(rows, {c: c for c in frame.columns}, caption=caption)
